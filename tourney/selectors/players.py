"""Reads of the player database (issue 27): the list and its search, a player's history, the
CSV export's rows, the room's recent player actions. Merged records are never listed.

League points are someone else's (issue 27, leagues): each history row carries its
``tournament_id`` so a season's points can be joined on it later.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from typing import Any

from django.db.models import Count, Q, QuerySet

from tourney.core.room_journal import room_log
from tourney.models import Entry, Player, Tournament

LIST_LIMIT = 200
SEARCH_MAX_WORDS = 6
ROOM_KINDS = (
    "player_created",
    "player_updated",
    "players_merged",
    "players_imported",
    "player_anonymised",
    "room_undo",
)
EXPORT_HEADERS = ("id", "name", "nickname", "email", "phone", "membership", "notes", "created")


def shown_players() -> QuerySet[Player]:
    """Every record but the merged ones."""
    return Player.objects.filter(merged_into__isnull=True)


def _words(query: str) -> list[str]:
    query = "".join(c for c in (query or "")[:480] if unicodedata.category(c) != "Cc")
    return " ".join(query.split())[:120].split()[:SEARCH_MAX_WORDS]


def players_search(query: str = "", *, limit: int = LIST_LIMIT, exclude: int | None = None):
    """(players, total): the shown players whose name, nickname, membership number or email
    holds every typed word, by name, with their number of entries; all of them without a
    query. ``exclude``: a record left out (the merge screen's own player)."""
    qs = shown_players()
    for word in _words(query):
        qs = qs.filter(
            Q(name__icontains=word)
            | Q(nickname__icontains=word)
            | Q(membership__icontains=word)
            | Q(email__icontains=word)
        )
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    total = qs.count()
    rows = list(qs.annotate(n_entries=Count("entries")).order_by("name", "pk")[:limit])
    return rows, total


def player_history(player: Player) -> dict[str, Any]:
    """One row per tournament the player entered, newest first: tournament_id, name, date,
    status, place (the best of their entries, as it stands: RULES 7.1), place_to, prize (their
    entries' prizes), bounties won, re-entries (entries beyond the first), rebuys, add-ons; and
    the totals: events, wins, cashes (a prize above 0), winnings (prizes), bounties."""
    entries = (
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__created_at", "tournament_id", "number")
    )
    by_t: dict[int, list[Entry]] = defaultdict(list)
    tournaments: dict[int, Tournament] = {}
    for e in entries:
        by_t[e.tournament_id].append(e)
        tournaments[e.tournament_id] = e.tournament
    rows = []
    for tid, mine in by_t.items():
        t = tournaments[tid]
        places = [e.places_now(t.place_lag) for e in mine if e.place is not None]
        best = min(places) if places else (None, None)
        rows.append(
            {
                "tournament_id": tid,  # the hook for league points (joined on it later)
                "tournament": t.name,
                "date": t.created_at,
                "status": t.status,
                "finished": t.status == Tournament.Status.FINISHED,
                "place": best[0],
                "place_to": best[1],
                "prize": sum(e.prize for e in mine),
                "bounties": sum(e.bounty_won for e in mine),
                "entries": len(mine),
                "reentries": len(mine) - 1,
                "rebuys": sum(e.rebuys for e in mine),
                "addons": sum(e.addons for e in mine),
            }
        )
    totals = {
        "events": len(rows),
        "wins": sum(1 for r in rows if r["place"] == 1),
        "cashes": sum(1 for r in rows if r["prize"] > 0),
        "winnings": sum(r["prize"] for r in rows),
        "bounties": sum(r["bounties"] for r in rows),
    }
    return {"rows": rows, "totals": totals}


def merge_preview(keep: Player, merge: Player) -> dict[str, Any]:
    """What a merge of ``merge`` into ``keep`` moves: its entries (by tournament) and the
    personal fields of ``keep`` it would fill."""
    entries = Entry.objects.filter(player=merge).select_related("tournament")
    names = sorted({e.tournament.name for e in entries})
    fills = [
        f
        for f in ("nickname", "email", "phone", "membership", "notes", "photo")
        if not getattr(keep, f) and getattr(merge, f)
    ]
    return {"entries": entries.count(), "tournaments": names, "fills": fills}


def players_export_rows() -> list[list[Any]]:
    """The export's rows (after ``EXPORT_HEADERS``): every shown player, by name."""
    return [
        [p.pk, p.name, p.nickname, p.email, p.phone, p.membership, p.notes, p.created_at]
        for p in shown_players().order_by("name", "pk")
    ]


def players_room_log(limit: int = 30) -> list[dict[str, Any]]:
    """The latest player actions of the room, newest first (see ``room_log``); the undos of
    other room actions (leagues) left out."""
    rows = room_log(kinds=ROOM_KINDS, limit=limit * 2)
    mine = [r for r in rows if r["kind"] != "room_undo" or r["payload"].get("kind") in ROOM_KINDS]
    return mine[:limit]
