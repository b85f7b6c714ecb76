"""The recent changes of the player database (room actions) with their Undo buttons."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tourney.engine.errors import DomainError
from tourney.selectors import players as reads
from tourney.services import players
from tourney.views.players import director_page, page

WORDS = {
    "player_created": N_("Player added"),
    "player_updated": N_("Player edited"),
    "players_merged": N_("Players merged"),
    "players_imported": N_("Players imported"),
    "player_anonymised": N_("Personal data removed"),
    "room_undo": N_("Undo"),
}
MSG_BAD_EVENT = N_("Choose an action of the list.")


def _words(kind: str) -> str:
    return _(WORDS[kind]) if kind in WORDS else kind


def _rows() -> list[dict]:
    rows = reads.players_room_log()
    for r in rows:
        r["what"] = _words(r["kind"])
        p = r["payload"]
        if r["kind"] == "players_merged":
            r["detail"] = _("%(merged)s into %(kept)s") % {
                "merged": p.get("merged_name", "#" + str(p.get("merged"))),
                "kept": p.get("name") or f"#{p.get('kept')}",
            }
        elif r["kind"] == "players_imported":
            count = p.get("count", 0)
            r["detail"] = ngettext("%(count)s player", "%(count)s players", count) % {
                "count": count
            }
        elif r["kind"] == "room_undo":
            r["detail"] = f"{_words(p.get('kind'))} (#{p.get('undid')})"
        else:
            r["detail"] = p.get("name") or (f"#{p['player']}" if "player" in p else "")
    return rows


@director_page
@require_http_methods(["GET", "POST"])
def players_changes(request: HttpRequest) -> HttpResponse:
    """GET: the latest actions. POST ``event``: undo that one."""
    if request.method == "GET":
        return page(request, "players/changes.html", {"rows": _rows()})
    try:
        raw = request.POST.get("event", "")
        event_id = int(raw) if raw.isdigit() and len(raw) < 18 else 0
        if not event_id:
            raise DomainError("bad_input", MSG_BAD_EVENT, status=400)
        players.player_action_undo(event_id=event_id, actor=request.user)
    except DomainError as exc:
        return page(request, "players/changes.html", {"rows": _rows()}, error=exc)
    messages.success(request, _("Undone."))
    return redirect("tourney-players-changes")
