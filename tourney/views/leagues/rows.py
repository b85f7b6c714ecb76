"""Standings rows as the screens print them: points with their decimals only when they have
some, money in units, the name as the screen allows it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tourney.selectors.standings import Row, points_text
from tourney.views.formatting import money_exact, money_whole, separators


def _local(text: str) -> str:
    """A number written with English separators ("1,234.50") in the active language's."""
    thousands, decimal = separators()
    if (thousands, decimal) == (",", "."):
        return text
    return text.translate(str.maketrans({",": thousands, ".": decimal}))


def standings_rows(
    rows: Iterable[Row], name: Callable[[str, str], str] | None = None, *, exact: bool = True
) -> list[dict]:
    """Each row for a template; ``name(name, nickname)`` gives the shown name (default: the
    full name); money exact (1,234.00) or whole where it is (the public screens)."""
    money = money_exact if exact else money_whole
    out = []
    for r in rows:
        out.append(
            {
                "rank": r.rank,
                "player": r.player,
                "name": name(r.name, r.nickname) if name else r.name,
                "events": r.events,
                "counted": r.counted,
                "points": _local(points_text(r.points)),
                "wins": r.wins,
                "cashes": r.cashes,
                "winnings": money(r.winnings),
                "bounties": money(r.bounties),
                "knockouts": r.knockouts,
            }
        )
    return out
