"""Blinds, the button and positions at one table (RULES 1.3 and 2).

Pure Python. ``table.button_seat`` is where the button is for the NEXT hand (RULES 2.1); a
player is *dealt in* when seated and not waiting for the button (RULES 1.3).

Readings of the rule book:

* Heads-up (RULES 2.2): with exactly two dealt-in players and one of them on the button, the
  button posts the small blind and the other the big blind. With a dead button (the button
  seat empty or its player waiting) the plain rule applies.
* "Before the small blind" (RULES 1.3) is read as "before the first dealt-in player clockwise
  after the button" — the seat that posts the small blind when three or more play. The two
  differ only heads-up, where the button posts the small blind; there a newcomer between the
  button and the big blind would become the small blind of a three-handed table, so they wait,
  and the button seat waits too. A table with no dealt-in player has no hand to wait for: no
  one waits there.
* RULES 1.3's release: a wait ends when the button moves so that the seat is the old button
  position or lies clockwise after it, at or before the new one. A player who sat down on the
  button seat is therefore dealt in as soon as the button leaves it (the rule book says so;
  they then sit just behind the button), not a whole orbit later. A move back (a director's
  correction) counts the long way round, so it also ends the wait of the button seat and of
  every waiting seat it passes.
"""

from __future__ import annotations

import random

from tables.engine.model import Table
from tourney.engine.errors import N_, DomainError

MSG_EMPTY_TABLE = N_("No player sits at this table.")
MSG_NO_OPEN_SEAT = N_("Every available seat at this table is taken.")
MSG_BAD_BUTTON_SEAT = N_("The button must be on a seat of the table.")


def _first_dealt_in_after(table: Table, seat: int, dealt: frozenset[int] | set[int]) -> int | None:
    """First dealt-in seat clockwise after ``seat`` (``seat`` itself is looked at last)."""
    for candidate in table.clockwise_after(seat):
        if candidate in dealt:
            return candidate
    return None


def _dealt(table: Table) -> set[int]:
    waiting = table.waiting
    return {s for s, e in table.occupants.items() if e not in waiting}


def blinds(table: Table) -> tuple[int | None, int | None, int | None]:
    """(button, small blind seat, big blind seat) of the next hand — RULES 2.2.

    Only dealt-in players post. Heads-up with the button on a dealt-in player, the button posts
    the small blind. No button yet: ``(None, None, None)``. A missing blind is ``None`` (one
    dealt-in player has a small blind and no big blind).
    """
    button = table.button_seat
    if button is None:
        return (None, None, None)
    dealt = _dealt(table)
    if len(dealt) == 2 and button in dealt:
        (other,) = dealt - {button}
        return (button, button, other)
    small = _first_dealt_in_after(table, button, dealt)
    if small is None:
        return (button, None, None)
    big = _first_dealt_in_after(table, small, dealt)
    return (button, small, None if big == small else big)


def waits_for_button(table: Table, seat: int) -> bool:
    """Whether a player who sits down at ``seat`` now waits for the button — RULES 1.3.

    True when the seat is the button seat, or lies clockwise after the button and before the
    small blind (read as the first dealt-in player after the button, see the module doc). The
    player now in ``seat``, if any, is ignored. No button (RULES 2.1) or no dealt-in player:
    False.
    """
    button = table.button_seat
    if button is None:
        return False
    dealt = _dealt(table)
    dealt.discard(seat)
    if not dealt:
        return False
    if seat == button:
        return True
    first = _first_dealt_in_after(table, button, dealt)
    assert first is not None
    n = table.seats
    return 0 < (seat - button) % n < (first - button) % n


def bb_next(table: Table, rng: random.Random) -> int:
    """Seat of the player to be big blind next — RULES 2.3 (the big blind of ``blinds``).

    No button yet (play has not started): a random dealt-in seat drawn with ``rng`` (any seated
    player if all wait), because no one is due for the big blind before the high-card draw.
    Fewer than two dealt-in players: the first occupied seat clockwise after the small blind
    (waiting players included), or the only player.
    """
    if not table.occupants:
        raise DomainError(
            "empty_table", MSG_EMPTY_TABLE, fields={"table": table.number}, status=409
        )
    if table.button_seat is None:
        dealt = table.dealt_in_seats() or tuple(sorted(table.occupants))
        return rng.choice(dealt)
    button, small, big = blinds(table)
    if big is not None:
        return big
    start = small if small is not None else button
    assert start is not None
    for seat in table.clockwise_after(start):
        if seat in table.occupants:
            return seat
    raise AssertionError("unreachable: the table has occupants")


def worst_position(table: Table, rng: random.Random) -> tuple[int, bool]:
    """(seat, waits_for_button) of the worst position at ``table`` — RULES 2.4.

    The first empty available seat clockwise after the small blind seat where the player is
    dealt in; it may be the very next big blind, and is never the small blind. If the walk
    finds only seats where the player would wait (RULES 1.3), the first of them, waiting.
    No button yet: a random open seat (``rng``), not waiting (RULES 2.1). A button but no
    dealt-in player (no blinds): the first open seat clockwise after the button, not waiting.
    """
    open_seats = table.open_seats()
    if not open_seats:
        raise DomainError(
            "no_open_seat", MSG_NO_OPEN_SEAT, fields={"table": table.number}, status=409
        )
    button = table.button_seat
    if button is None:
        return (rng.choice(open_seats), False)
    _, small, _ = blinds(table)
    start = small if small is not None else button
    first_waiting: int | None = None
    for seat in table.clockwise_after(start):
        if not table.is_open(seat):
            continue
        if not waits_for_button(table, seat):
            return (seat, False)
        if first_waiting is None:
            first_waiting = seat
    assert first_waiting is not None
    return (first_waiting, True)


def released_by_button_move(table: Table, new_button_seat: int) -> frozenset[int]:
    """Entry ids whose wait ends when the button moves to ``new_button_seat`` — RULES 1.3.

    A waiting player is released when their seat is the old button position or lies clockwise
    after it, at or before the new one (a move back counts the long way round). A player who
    sat down on the button seat is released as soon as the button moves on (the module doc).
    Not moving the button, or no button before (no one waits then, RULES 2.1), releases no one.
    """
    if not isinstance(new_button_seat, int) or not 1 <= new_button_seat <= table.seats:
        raise DomainError(
            "invalid_button",
            MSG_BAD_BUTTON_SEAT,
            fields={"table": table.number, "seat": new_button_seat},
            status=400,
        )
    old = table.button_seat
    if old is None or old == new_button_seat or not table.waiting:
        return frozenset()
    n = table.seats
    reach = (new_button_seat - old) % n
    return frozenset(
        entry
        for seat, entry in table.occupants.items()
        if entry in table.waiting and (seat - old) % n <= reach
    )
