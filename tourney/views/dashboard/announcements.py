"""The director's announcements (issue 29): "Announce now" for a free text on the dashboard,
and the announcement settings (the screens' language, speech on or off, a text per kind with
a preview). Both panels load themselves into their page (their own request, htmx) and are
pages of their own without JavaScript. Thin: read the form, call the service, render."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_htmx.http import trigger_client_event

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.selectors import announcements as reads
from tourney.selectors.clock import clock_index, structure_items
from tourney.services import announcements as writes
from tourney.views.dashboard.base import CHANGED_EVENT, director_view

PANEL = "dashboard/_announce_panel.html"
PANEL_PAGE = "dashboard/announce.html"
SETTINGS = "dashboard/_announce_settings.html"
SETTINGS_PAGE = "dashboard/announce_settings.html"
RECENT_SHOWN = 5


def _screen_language(t: Tournament) -> str:
    return t.language or settings.LANGUAGE_CODE


def panel_context(t: Tournament, *, typed: str = "", error: str = "", said: str = "") -> dict:
    return {
        "tournament": t,
        "announce_panel": True,
        "announce_recent": reads.recent(t, RECENT_SHOWN),
        "announce_typed": typed,
        "announce_error": error,
        "announce_said": said,
        "announce_speech": t.announce_speech,
    }


@director_view
def announce_panel(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the panel. POST: announce the text on every display now; the field is cleared."""
    template = PANEL if request.htmx else PANEL_PAGE
    if request.method != "POST":
        return render(request, template, panel_context(t))
    text = request.POST.get("text", "")
    try:
        made = writes.announce(tournament_id=t.pk, text=text, actor=request.user)
    except DomainError as exc:
        ctx = panel_context(t, typed=text.replace("\x00", ""), error=refusal_text(exc))
        return render(request, template, ctx, status=exc.status)
    if not request.htmx:
        messages.success(request, _("Announced: %(text)s") % {"text": made.text})
        return redirect(reverse("tourney-dashboard-announce", args=[t.pk]))
    response = render(request, template, panel_context(t, said=made.text))
    trigger_client_event(response, CHANGED_EVENT, {"panel": "announce"})
    return response


# ---------------------------------------------------------------- the settings


def _items_now(t: Tournament) -> tuple[tuple, int, int | None]:
    items = structure_items(t)
    index = clock_index(t) if t.clock_started else 0
    return items, index, t.end_at_level  # RULES 10.2: a flight's clock stops there


def settings_context(
    t: Tournament,
    *,
    typed: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    message: str = "",
    saved: str = "",
) -> dict[str, Any]:
    """The form as saved (or as typed, with ``typed``): each kind's text, the default in the
    screens' language as its placeholder, and the preview of what would be said now."""
    language = (typed or {}).get("language", t.language)
    mine = t.announce_templates if isinstance(t.announce_templates, dict) else {}
    texts = {k: (typed or {}).get(k, mine.get(k, "")) for k in reads.KINDS}
    items, index, last = _items_now(t)
    with translation.override(language or settings.LANGUAGE_CODE):
        defaults = {k: reads.default_text(k) for k in reads.KINDS}
        used = {}
        for k in reads.KINDS:
            try:
                used[k] = reads.check_template(k, texts[k]) or defaults[k]
            except DomainError:
                used[k] = defaults[k]
        shown = reads.previews(used, items, index, last)
    rows = [
        {
            "kind": k,
            "label": reads.LABELS[k],
            "text": texts[k],
            "default": defaults[k],
            "preview": shown[k],
            "places": " ".join(f"%({p})s" for p in reads.PLACES[k]),
            "error": (errors or {}).get(k, ""),
        }
        for k in reads.KINDS
    ]
    speech = (typed or {}).get("speech", "on" if t.announce_speech else "")
    return {
        "tournament": t,
        "announce_settings": True,
        "as_rows": rows,
        "as_language": language,
        "as_languages": settings.LANGUAGES,
        "as_speech": bool(speech),
        "as_errors": errors or {},
        "as_message": message,
        "as_saved": saved,
    }


def _typed(data) -> dict[str, str]:
    typed = {k: (data.get(f"text_{k}") or "").replace("\x00", "") for k in reads.KINDS}
    typed["language"] = (data.get("language") or "").strip()
    typed["speech"] = "on" if data.get("speech") else ""
    return typed


@director_view
def announce_settings(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the settings. POST ``action=preview``: the previews of the texts as typed, nothing
    saved. POST: save (one recorded action, undone by the log's Undo)."""
    template = SETTINGS if request.htmx else SETTINGS_PAGE
    if request.method != "POST":
        return render(request, template, settings_context(t))
    data = request.POST
    typed = _typed(data)
    if data.get("action") == "preview":
        return render(request, template, settings_context(t, typed=typed))
    try:
        done = writes.announce_settings_set(
            tournament_id=t.pk,
            language=typed["language"],
            speech=bool(typed["speech"]),
            templates={k: typed[k] for k in reads.KINDS},
            actor=request.user,
        )
    except DomainError as exc:
        message = refusal_text(exc)
        errors = {k: message for k in exc.fields if k in reads.KINDS or k == "language"}
        ctx = settings_context(t, typed=typed, errors=errors, message=message)
        return render(request, template, ctx, status=exc.status)
    t.refresh_from_db()
    saved = _("Saved.") if done else _("Nothing changed.")
    if not request.htmx:
        messages.success(request, saved)
        return redirect(reverse("tourney-dashboard-announce-settings", args=[t.pk]))
    response = render(request, template, settings_context(t, saved=saved))
    if done:
        trigger_client_event(response, CHANGED_EVENT, {"panel": "announce-settings"})
    return response
