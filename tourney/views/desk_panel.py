"""The desk's "Other events" panel as the desk page and its own view show it (issue 28): the
other events (``selectors.desk_events``) with their desks' links, and for the player found or
typed at the desk where they stand in each. Its actions are ``tourney.views.desk_events``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Player, Tournament
from tourney.selectors import desk_events as reads
from tourney.services.desk import MAX_ID

MAX_NAME = 480  # the desk's own box takes no more


def int_or_none(raw: Any) -> int | None:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return None
    return value if 0 < value < MAX_ID else None


def who_of(player_id: int | None, name: str) -> dict[str, Any] | None:
    """The player the panel acts for: a known one (``player_id``) or a typed new name."""
    if player_id is not None:
        p = Player.objects.filter(pk=player_id).values_list("pk", "name").first()
        if p is not None:
            return {"id": p[0], "name": p[1], "new": False}
    name = " ".join((name or "")[:MAX_NAME].split())
    if name:
        return {"id": None, "name": name, "new": True}
    return None


def _shown(error: DomainError) -> dict[str, Any]:
    """A refusal as the panel shows it: its code, its message in the active language."""
    return {"code": error.code, "message": refusal_text(error)}


def panel_context(
    request: HttpRequest,
    t: Tournament,
    *,
    player_id: int | None = None,
    name: str = "",
    error: DomainError | None = None,
    error_event: int | None = None,
    joined: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What ``desk/_events.html`` shows at the desk of ``t``."""
    who = who_of(player_id, name)
    rows = reads.events_open(exclude_id=t.pk, zone=t.zone)
    there = reads.player_in_events(who["id"] if who else None, [r["id"] for r in rows])
    for row in rows:
        desk_url = reverse("tourney-desk", args=[row["id"]])
        row["desk_url"] = desk_url
        row["register_url"] = f"{desk_url}?{urlencode({'q': who['name']})}" if who else desk_url
        row["player"] = there.get(row["id"])
        row["error"] = _shown(error) if error is not None and error_event == row["id"] else None
    listed = {r["id"] for r in rows}
    params = {"player": who["id"]} if who and who["id"] else {"name": who["name"]} if who else {}
    url = reverse("tourney-desk-events", args=[t.pk])
    return {
        "tournament": t,
        "events": rows,
        "who": who,
        "events_url": f"{url}?{urlencode(params)}" if params else url,
        # a refusal with no row of its own (no such event, this desk's own) above the list
        "events_error": _shown(error) if error is not None and error_event not in listed else None,
        "joined": joined,
    }
