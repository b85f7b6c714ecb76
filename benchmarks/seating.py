"""Seating speed: run ``.venv/bin/python benchmarks/seating.py`` from the project root.

Engine section (pure Python, no database): one elimination with its rebalancing at 1,000
tables (target: median <= 1 ms) and the initial draw of 10,000 entries (target <= 200 ms).
A services section (database round trips) can be added as more ``Case`` rows in ``main``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.engine.balancing import Rebalance, rebalance  # noqa: E402
from tables.engine.model import SeatingSettings, Table  # noqa: E402
from tables.engine.seat_draw import draw, tables_needed  # noqa: E402

SEATS = 9
TABLES = 1_000


@dataclass(frozen=True)
class Case:
    name: str
    run: Callable[[int], object]  # called with the repetition number
    repeat: int
    target_ms: float | None = None


def field(counts: dict[int, int]) -> dict[int, Table]:
    """Tables 1..n with entries number*100+seat in seats 1..count, button on seat 1."""
    return {
        n: Table(n, SEATS, {s: n * 100 + s for s in range(1, c + 1)}, button_seat=1)
        for n, c in counts.items()
    }


def elimination(counts: dict[int, int], victims: list[int]) -> Callable[[int], Rebalance]:
    """One player of table ``victims[i % len]`` is eliminated, then the field is rebalanced."""
    tables = field(counts)
    order = sorted(tables, reverse=True)
    capacity = {n: SEATS for n in tables}
    settings = SeatingSettings(started_tables=TABLES)

    def run(i: int) -> Rebalance:
        victim = victims[i % len(victims)]
        table = tables[victim]
        after = table.without_seat(max(table.occupants))
        now = dict(counts)
        now[victim] -= 1
        return rebalance(
            counts=now,
            capacity=capacity,
            break_order=order,
            load=lambda n: after if n == victim else tables[n],
            settings=settings,
            rng=random.Random(i),
        )

    return run


def quiet_field() -> dict[int, int]:
    # RULES 3.4 keeps fewer than 9 seats empty at 1,000 tables of 9: 995 full, 5 with 8.
    return {n: 8 if n % 200 == 0 else SEATS for n in range(1, TABLES + 1)}


def balancing_field() -> dict[int, int]:
    # 998 full tables tie as the fullest; two tables have 7: one more out makes a spread of 3.
    return {n: 7 if n in (500, 501) else SEATS for n in range(1, TABLES + 1)}


def tie_field() -> dict[int, int]:
    # 25 equally short tables tie for the fewest players; the elimination brings the players
    # down to where the next table breaks, and its 9 players draw seats among the 25 (RULES 3.6).
    return {n: 8 if n % 40 == 0 else SEATS for n in range(1, TABLES + 1)}


def initial_draw(entries: int) -> Callable[[int], object]:
    tables = [Table(n, SEATS, {}) for n in range(1, tables_needed(entries, SEATS) + 1)]
    return lambda i: draw(range(entries), tables, random.Random(i))


def measure(case: Case) -> dict[str, float]:
    case.run(0)  # warm up
    times = []
    for i in range(case.repeat):
        start = time.perf_counter()
        case.run(i)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "median": statistics.median(times),
        "p99": times[min(len(times) - 1, int(len(times) * 0.99))],
        "max": times[-1],
    }


def engine_cases() -> list[Case]:
    quiet, tie = quiet_field(), tie_field()
    balance = balancing_field()
    moves = {
        "quiet": len(elimination(quiet, [1])(0).moves),
        "balance": len(elimination(balance, [500])(0).moves),
        "tie": len(elimination(tie, [1])(0).moves),
    }
    return [
        Case(
            f"1,000 tables: elimination, no move ({moves['quiet']} moves)",
            elimination(quiet, list(range(1, TABLES + 1, 7))),
            2_000,
            1.0,
        ),
        Case(
            f"1,000 tables: elimination + balance, 998 tie as fullest ({moves['balance']} move)",
            elimination(balance, [500, 501]),
            2_000,
            1.0,
        ),
        Case(
            f"1,000 tables: elimination + break, 25 short tables tie ({moves['tie']} moves)",
            elimination(tie, list(range(1, 900, 13))),
            1_000,
            1.0,
        ),
        Case("draw of 10,000 entries over 1,112 tables", initial_draw(10_000), 30, 200.0),
    ]


def main() -> None:
    rows = [(case, measure(case)) for case in engine_cases()]
    width = max(len(case.name) for case, _ in rows)
    print(f"{'engine':<{width}}  {'median ms':>9}  {'p99 ms':>8}  {'max ms':>8}  {'target':>8}")
    for case, figures in rows:
        target = f"<= {case.target_ms:g}" if case.target_ms is not None else ""
        flag = "" if case.target_ms is None or figures["median"] <= case.target_ms else "  SLOW"
        print(
            f"{case.name:<{width}}  {figures['median']:>9.3f}  {figures['p99']:>8.3f}"
            f"  {figures['max']:>8.3f}  {target:>8}{flag}"
        )


if __name__ == "__main__":
    main()
