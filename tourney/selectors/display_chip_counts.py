"""The chip leaders as the public screens show them (RULES 10.8): the TV's clock view and the
phone page list the biggest latest counts of the players still in, with the time each was
counted, only once the director has entered counts. No writes; one small query (the counts),
the names and seats come with the seating board's query (``display._seating``).

What it shows is announced in the room anyway: a player's chips as counted, the public name
(``Tournament.public_names``), the table and seat; never who entered the count.
"""

from __future__ import annotations

from typing import Any

from tourney.engine import bags
from tourney.models import Tournament
from tourney.selectors.chip_counts import LEADERS_SHOWN, at_time, count_records, latest_counts
from tourney.selectors.display_words import chips_text


def counted_at(t: Tournament, at: int) -> str:
    """A count's time (``chip_counts.at_int``) as the room reads it: "20:15" in the card
    room's zone."""
    return at_time(at).astimezone(t.zone).strftime("%H:%M")


def leader_rows(
    t: Tournament, latest: list[bags.Count], seats: dict[int, tuple], limit: int = LEADERS_SHOWN
) -> list[dict[str, Any]]:
    """The ``limit`` biggest counts of players seated at a table, (name, table, seat,
    chips, at) each: where they sit now (a count of a player since moved says their new seat)."""
    out = []
    for c in latest:
        if c.entry not in seats:
            continue  # waiting for a seat: not on the board, so not a leader there either
        name, table, seat = seats[c.entry][:3]
        out.append(
            {
                "name": name,
                "table": table,
                "seat": seat,
                "chips": chips_text(c.chips),
                "at": counted_at(t, c.at),
            }
        )
        if len(out) == limit:
            break
    return out


def chip_leaders_panel(t: Tournament, seats: dict[int, tuple]) -> list[dict[str, Any]]:
    """The chip leaders of the clock view, [] before any count of a player still in (the
    panel is then left out). ``seats``: the seating board's (name, table, seat, …) by entry."""
    records = count_records(t)
    if not records:
        return []
    return leader_rows(t, latest_counts(records, list(seats)), seats)
