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
