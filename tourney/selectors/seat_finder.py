"""Find my seat, on the player phone page: the players a typed name finds, with their seat (or
their place and prize once out). No writes.

Anyone holding the display token asks this, so a query finds only what the public screens
show: names as the director allows them (``Tournament.public_names``, see
``display.public_name``), table and seat, the player's recent moves, places and prizes won,
and in a bounty event the bounty on their head and the bounties they have won (RULES 9).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from tables.models import Move, Seat
from tourney.core.money_text import money_exact, money_whole
from tourney.models import Entry, Tournament
from tourney.selectors.bounties import has_bounties, heads_shown
from tourney.selectors.chip_counts import count_records, latest_counts
from tourney.selectors.display import place_text, public_name
from tourney.selectors.display_chip_counts import counted_at
from tourney.selectors.display_words import chips_text

FIND_MIN_CHARS = 2
FIND_MAX_CHARS = 60
FIND_LIMIT = 10
MY_MOVES_LIMIT = 5

# The answer says them in the screen's language (issue 29).
MSG_FIND_TOO_SHORT = N_("Type at least 2 letters of your name.")
MSG_FIND_TOO_LONG = N_("That is longer than any name here.")
MSG_FIND_NONE = N_("No player in the tournament matches that name.")
MSG_FIND_TOO_MANY = N_("More than 10 players match: type more of your name.")

# A finished entry's (place, place_to, prize, deal made)
Finish = tuple[int, int, int, bool]
# An entry's bounty on its head and the bounty money it has won (RULES 9.1)
Bounty = tuple[int, int]


def find_seat(t: Tournament, query: str) -> dict[str, Any]:
    """Find my seat: players whose public name contains the query, or whose full name the
    query names (public pages show names only as the director allows, issue 9). Those still
    in get their seat; those out and the winner their place and prize.

    With the ``full`` style the full name is public, so every word of the query being a whole
    word of it is enough ("lee", "ann lee"). With ``initial`` or ``nickname`` the query must be
    the whole full name (every word of it, in any order, nothing else): else typing a surname
    would confirm who is behind "Ann L." or "Annie", which the director chose to hide.

    In a bounty event (RULES 9) each result also says the bounty on the player's head
    (``bounty``, fixed and progressive events, while still in) and the bounties they have won
    (``bounty_won``), as text; "" otherwise.

    Answers {"query", "error", "results": [{"name", "table", "seat", "waiting", "moves",
    "place", "place_text", "winner", "prize", "deal", "so_far", "bounties", "bounty", "bounty_won",
    "chips", "counted_at"}]}
    (``place`` None while still in)."""
    q = _norm(query or "")
    answer: dict[str, Any] = {"query": " ".join((query or "").split()), "error": "", "results": []}
    refused = _query_refused(q)
    if refused is not None:
        answer["error"] = _(refused) if refused else ""
        return answer
    found, finished, bounties = _matches(t, q)
    if not found:
        answer["error"] = _(MSG_FIND_NONE)
        return answer
    if len(found) > FIND_LIMIT:
        answer["error"] = _(MSG_FIND_TOO_MANY)
        return answer
    answer["results"] = _results(t, found, finished, bounties)
    return answer


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _query_refused(q: str) -> str | None:
    """Why a (normalised) query is not looked up, "" for an empty one; None to look it up."""
    if len(q) < FIND_MIN_CHARS:
        return MSG_FIND_TOO_SHORT if q else ""
    if len(q) > FIND_MAX_CHARS:
        return MSG_FIND_TOO_LONG
    return None


def _matches(
    t: Tournament, q: str
) -> tuple[list[tuple[int, str]], dict[int, Finish], dict[int, Bounty]]:
    """The entries the query finds, as (id, public name), how those out finished, and the
    bounties of each (read in the same query)."""
    words = set(q.split())
    style = t.public_names
    found: list[tuple[int, str]] = []
    finished: dict[int, Finish] = {}
    bounties: dict[int, Bounty] = {}
    # Every entry: those still in find their seat, those out (and the winner) their place
    # and prize (issue 31: "Gina Hall — 4th, 398.00", not "no player matches").
    for entry_id, name, nick, place, place_to, prize, deal, head, won in Entry.objects.filter(
        tournament=t
    ).values_list(
        "pk",
        "player__name",
        "player__nickname",
        "place",
        "place_to",
        "prize",
        "deal_amount",
        "bounty",
        "bounty_won",
    ):
        shown = public_name(style, name, nick)
        full = set(_norm(name).split())
        by_full_name = words <= full if style == Tournament.NameStyle.FULL else words == full
        if q in _norm(shown) or by_full_name:
            found.append((entry_id, shown))
            bounties[entry_id] = (head, won)
            if place is not None:
                finished[entry_id] = (place, place_to, prize, deal is not None)
    return found, finished, bounties


def _my_moves(ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each entry's last moves from one seat to another, newest first."""
    moves: dict[int, list[dict[str, Any]]] = {}
    for eid, ft, fs, tt, ts, at in (
        Move.objects.filter(entry_id__in=ids, from_table__isnull=False)
        .order_by("-id")
        .values_list("entry_id", "from_table", "from_seat", "to_table", "to_seat", "created_at")
    ):
        mine = moves.setdefault(eid, [])
        if len(mine) < MY_MOVES_LIMIT:
            mine.append(
                {
                    "from": _("Table %(table)s, seat %(seat)s") % {"table": ft, "seat": fs},
                    "to": _("Table %(table)s, seat %(seat)s") % {"table": tt, "seat": ts},
                    "at": timezone.localtime(at).strftime("%H:%M"),
                }
            )
    return moves


def _results(
    t: Tournament,
    found: list[tuple[int, str]],
    finished: dict[int, Finish],
    bounties: dict[int, Bounty],
) -> list[dict[str, Any]]:
    """One card per entry found: the seat and moves of those still in, first (their seat is
    what they look for), then the place and prize of those out, by place."""
    ids = [eid for eid, _ in found]
    seats = {
        eid: (table, seat)
        for eid, table, seat in Seat.objects.filter(entry_id__in=ids).values_list(
            "entry_id", "table__number", "number"
        )
    }
    moves = _my_moves(ids)
    still_in = [eid for eid in ids if eid not in finished]
    chips = {c.entry: c for c in latest_counts(count_records(t, still_in), still_in)}
    kinds = has_bounties(t), heads_shown(t)
    results = [
        {
            "name": shown,
            "table": seats.get(eid, (None, None))[0],
            "seat": seats.get(eid, (None, None))[1],
            "waiting": eid not in seats and eid not in finished,
            "moves": [] if eid in finished else moves.get(eid, []),
            **_finish_of(t, finished.get(eid)),
            **_bounty_of(kinds, bounties[eid], eid in finished),
            # RULES 10.8: the player's latest chip count and when it was taken
            "chips": chips_text(chips[eid].chips) if eid in chips else "",
            "counted_at": counted_at(t, chips[eid].at) if eid in chips else "",
        }
        for eid, shown in found
    ]
    results.sort(
        key=lambda r: (
            r["place"] is not None,
            r["place"] or 0,
            r["name"].casefold(),
            r["table"] or 0,
            r["seat"] or 0,
        )
    )
    return results


def _bounty_of(kinds: tuple[bool, bool], bounty: Bounty, out: bool) -> dict[str, Any]:
    """A card's bounties (RULES 9): the bounty on the head of a player still in (fixed and
    progressive events), and what they have won, in a bounty event; blank otherwise."""
    on, heads = kinds
    head, won = bounty
    return {
        "bounties": on,
        "bounty": money_whole(head) if heads and not out else "",
        "bounty_won": money_whole(won) if on else "",
    }


def _finish_of(t: Tournament, row: Finish | None) -> dict[str, Any]:
    """How a finished entry shows in find-my-seat: "4th" and its prize ("398.00", a deal
    amount marked), the winner as such; ``so_far`` while late entries can still move the
    places of the players out down (RULES 7.1)."""
    if row is None:
        return {
            "place": None,
            "place_text": "",
            "winner": False,
            "prize": "",
            "deal": False,
            "so_far": False,
        }
    place, place_to, prize, deal = row
    place, place_to = place + t.place_lag, place_to + t.place_lag
    return {
        "place": place,
        "place_text": _("Winner") if place_to == 1 else place_text(place, place_to),
        "winner": place_to == 1,
        "prize": money_exact(prize) if prize else "",
        "deal": deal,
        "so_far": t.registration_open and t.status != Tournament.Status.FINISHED,
    }
