"""The language of a tournament's public screens (issue 29): the display, the phone page and
the lobby's cards speak the tournament's ``language`` (else the site's), unless the URL says
``?lang=`` (``tourney.middleware.LanguageMiddleware`` has then activated it already)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation


def shipped(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def activate_screen_language(request, tournament) -> str:
    """Activate the public screen's language for the rest of the request; return its code.
    ``?lang=`` first, then the tournament's ``language``, then the request's own (the
    browser's or the chosen one)."""
    asked = (request.GET.get("lang") or "").strip().lower()
    if shipped(asked):
        code = asked
    elif shipped(tournament.language or ""):
        code = tournament.language
    else:
        code = translation.get_language() or settings.LANGUAGE_CODE
    translation.activate(code)
    request.LANGUAGE_CODE = code
    return code


def refusal_text(exc) -> str:
    """A DomainError's message in the active language: its template translated (when it was
    marked with ``N_`` or gettext_noop and the catalog has it), then its values filled in;
    otherwise the English the service wrote."""
    template = getattr(exc, "template", None) or str(exc)
    translated = translation.gettext(template)
    params = getattr(exc, "params", None)
    if params:
        try:
            return translated % params
        except (KeyError, ValueError, TypeError):
            return exc.message
    return translated if translated != template or not hasattr(exc, "message") else exc.message
