"""The recent changes of the player database (room actions) with their Undo buttons."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from tourney.engine.errors import DomainError
from tourney.selectors import players as reads
from tourney.services import players
from tourney.views.players import director_page, page

WORDS = {
    "player_created": "Player added",
    "player_updated": "Player edited",
    "players_merged": "Players merged",
    "players_imported": "Players imported",
    "player_anonymised": "Personal data removed",
    "room_undo": "Undo",
}
MSG_BAD_EVENT = "Choose an action of the list."


def _rows() -> list[dict]:
    rows = reads.players_room_log()
    for r in rows:
        r["what"] = WORDS.get(r["kind"], r["kind"])
        p = r["payload"]
        if r["kind"] == "players_merged":
            r["detail"] = f"{p.get('merged_name', '#' + str(p.get('merged')))} into " + (
                p.get("name") or f"#{p.get('kept')}"
            )
        elif r["kind"] == "players_imported":
            r["detail"] = f"{p.get('count', 0)} players"
        elif r["kind"] == "room_undo":
            r["detail"] = f"{WORDS.get(p.get('kind'), p.get('kind'))} (#{p.get('undid')})"
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
    messages.success(request, "Undone.")
    return redirect("tourney-players-changes")
