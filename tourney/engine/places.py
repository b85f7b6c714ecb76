"""Finishing places of eliminated players (RULES 7).

Pure Python: no Django. The caller (``elimination_record`` and its undo) passes the busts of
one hand with the number of players who were still in before it, and gets back the places.

How the rules are read here:

* RULES 7.1: the ``k`` players busted in one hand, out of ``players_before`` players still in
  before it, take places ``players_before - k + 1`` .. ``players_before``. The larger starting
  stack (stack at the start of that hand) finishes higher (002).
* RULES 7.2: equal starting stacks tie and share the places they cover: each tied player gets
  ``place`` = the best of those places and ``place_to`` = the worst. A player who does not tie
  has ``place == place_to``.
* RULES 7.3: during hand-for-hand play the caller passes all the busts of one hand-for-hand
  round together, with ``players_before`` = the players in at the start of that round; the
  stacks are those at the start of each player's own hand in the round (the round counts as
  one hand).
* A hand always has a winner: if every remaining player would bust, that is refused with 409
  ``no_winner`` (the input is wrong, e.g. a stack was entered as broke that is not).
* RULES 7.4: undo recomputes from the recorded hands (``undo_elimination`` then
  ``replay_places``); nothing is patched in place.
* Who is still in (docs/rules.md 7.5): ``players_before`` counts every entry not out,
  seated or waiting on the alternate list (an alternate has bought in: they are an entry
  and finish above the players who bust while they wait). A re-entry is a new entry.
* Late entries (docs/rules.md 7.6, 7.7): places count from the bottom of the whole field,
  so each entry that comes after a bust moves that player one place down; the caller says
  the places are provisional while registration is open. Once it closes, the places are
  final, distinct from 1 to the number of entries (ties aside), in bust order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from tourney.engine.errors import N_, DomainError

MSG_NO_BUSTS = N_("An elimination needs at least one player who went broke.")
MSG_BAD_PLAYERS_BEFORE = N_("The number of players still in must be a positive whole number.")
MSG_TOO_MANY_BUSTS = N_("More players went broke than were still in the tournament.")
MSG_NO_WINNER = N_(
    "Not everyone still in can be out in one hand: someone wins it. "
    "Leave out the player who won the hand."
)
MSG_DUPLICATE_ENTRY = N_("The same entry is listed more than once.")
MSG_BAD_STACK = N_("A starting stack must be a whole number of chips greater than zero.")
MSG_BAD_ENTRY = N_("An entry id must be a whole number.")
MSG_BAD_SEAT = N_("Table and seat numbers must be whole numbers, zero or more.")
MSG_ENTRY_NOT_ELIMINATED = N_("This entry has no recorded elimination to undo.")


@dataclass(frozen=True, slots=True)
class Bust:
    """A player who has no chips after a hand, with their stack at the start of that hand."""

    entry: int
    starting_stack: int
    table: int = 0
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Place:
    """A finishing place. ``place_to`` differs from ``place`` only for a tie (RULES 7.2)."""

    entry: int
    place: int
    place_to: int


@dataclass(frozen=True, slots=True)
class HandBusts:
    """The busts of one hand (or one hand-for-hand round, RULES 7.3) as recorded."""

    players_before: int
    busts: tuple[Bust, ...]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(players_before: int, busted: Sequence[Bust]) -> None:
    if not _is_int(players_before) or players_before < 1:
        raise DomainError(
            "bad_players_before",
            MSG_BAD_PLAYERS_BEFORE,
            fields={"players_before": players_before},
        )
    k = len(busted)
    if k < 1:
        raise DomainError("no_busts", MSG_NO_BUSTS, fields={"entries": []})
    if k > players_before:
        raise DomainError(
            "too_many_busts",
            MSG_TOO_MANY_BUSTS,
            fields={"busted": k, "players_before": players_before},
        )
    seen: set[int] = set()
    for bust in busted:
        if not isinstance(bust, Bust) or not _is_int(bust.entry):
            raise DomainError("bad_entry", MSG_BAD_ENTRY, fields={"entry": repr(bust)})
        if bust.entry in seen:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": bust.entry})
        seen.add(bust.entry)
        if not _is_int(bust.starting_stack) or bust.starting_stack <= 0:
            raise DomainError(
                "bad_stack",
                MSG_BAD_STACK,
                fields={"entry": bust.entry, "starting_stack": bust.starting_stack},
            )
        if not _is_int(bust.table) or not _is_int(bust.seat) or bust.table < 0 or bust.seat < 0:
            raise DomainError(
                "bad_seat",
                MSG_BAD_SEAT,
                fields={"entry": bust.entry, "table": bust.table, "seat": bust.seat},
            )
    if k == players_before:
        # A 409, not a 400: the input is well formed, but the state (someone must win the
        # hand) forbids it.
        raise DomainError(
            "no_winner",
            MSG_NO_WINNER,
            fields={"busted": k, "players_before": players_before},
            status=409,
        )


def assign_places(*, players_before: int, busted: Sequence[Bust]) -> tuple[Place, ...]:
    """Places of the players busted in one hand (RULES 7.1, 7.2, 7.3).

    ``players_before`` counts the players still in before the hand (for hand-for-hand play,
    before the round, and ``busted`` holds every bust of the round). The ``k`` busted players
    take places ``players_before - k + 1`` .. ``players_before``; the larger starting stack
    finishes higher; equal starting stacks share the places they cover (``place`` = best,
    ``place_to`` = worst).

    Returns the places best first; tied players in order of table, seat, then entry id.
    Raises ``DomainError`` 400 on bad input, 409 ``no_winner`` when everyone would bust.
    """
    _validate(players_before, busted)
    best_place = players_before - len(busted) + 1
    # RULES 7.1: the larger starting stack finishes higher (smaller place number).
    ordered = sorted(busted, key=lambda b: (-b.starting_stack, b.table, b.seat, b.entry))
    result: list[Place] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].starting_stack == ordered[i].starting_stack:
            j += 1
        # RULES 7.2: players i..j-1 tie and cover places best_place+i .. best_place+j-1.
        for bust in ordered[i:j]:
            result.append(Place(bust.entry, best_place + i, best_place + j - 1))
        i = j
    return tuple(result)


def winner_place(entry: int) -> Place:
    """The place of the last player left (RULES 7.1: they never bust)."""
    if not _is_int(entry):
        raise DomainError("bad_entry", MSG_BAD_ENTRY, fields={"entry": repr(entry)})
    return Place(entry, 1, 1)


def replay_places(hands: Iterable[HandBusts]) -> tuple[Place, ...]:
    """Places of every recorded hand, in the order played (RULES 7.4: recompute, never patch).

    Each hand is assigned with ``assign_places``; an entry listed in two hands is refused
    (400 ``duplicate_entry``). Returns the places sorted best first.
    """
    out: list[Place] = []
    seen: set[int] = set()
    for hand in hands:
        for place in assign_places(players_before=hand.players_before, busted=hand.busts):
            if place.entry in seen:
                raise DomainError(
                    "duplicate_entry",
                    MSG_DUPLICATE_ENTRY,
                    fields={"entry": place.entry},
                )
            seen.add(place.entry)
            out.append(place)
    out.sort(key=lambda p: p.place)
    return tuple(out)


def undo_elimination(hands: Sequence[HandBusts], entry: int) -> tuple[HandBusts, ...]:
    """The recorded hands as if ``entry`` had not been eliminated (RULES 7.4).

    The entry leaves its hand (a hand left with no busts is dropped); it was in before its own
    hand, so that hand's ``players_before`` is unchanged, and every later hand had one more
    player in. Feed the result to ``replay_places`` to recompute all places exactly.
    Raises ``DomainError`` 409 ``not_eliminated`` if the entry is not found.
    """
    out: list[HandBusts] = []
    found = False
    for hand in hands:
        if found:
            out.append(replace(hand, players_before=hand.players_before + 1))
            continue
        remaining = tuple(b for b in hand.busts if b.entry != entry)
        if len(remaining) != len(hand.busts):
            found = True
            if remaining:
                out.append(HandBusts(hand.players_before, remaining))
        else:
            out.append(hand)
    if not found:
        raise DomainError(
            "not_eliminated",
            MSG_ENTRY_NOT_ELIMINATED,
            fields={"entry": entry},
            status=409,
        )
    return tuple(out)
