"""Speed of the floor engines (RULES 5, 6, 8.3).

Run: .venv/bin/python benchmarks/floor.py
Prints median, p99 and max per case against its target; exits non-zero if a median misses.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney.engine.cards import DECK  # noqa: E402
from tourney.engine.chip_race import RacePlayer, color_up  # noqa: E402
from tourney.engine.icm import icm_equities  # noqa: E402
from tourney.engine.pots import HandPlayer, settle  # noqa: E402


def measure(fn: Callable[[], object], runs: int) -> list[float]:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)


def settle_9_way() -> Callable[[], object]:
    rng = random.Random(7)
    deck = list(DECK)
    rng.shuffle(deck)
    players = [
        HandPlayer(seat=s, committed=100 * s, cards=deck[2 * s - 2] + deck[2 * s - 1])
        for s in range(1, 10)
    ]
    board = "".join(deck[18:23])
    return lambda: settle(players=players, button_seat=4, chip_unit=25, board=board)


def icm(n: int) -> Callable[[], object]:
    rng = random.Random(n)  # one generator: n different random stacks, the same every run
    stacks = [rng.randint(1_000, 100_000) for _ in range(n)]
    assert len(set(stacks)) > 1
    payouts = [1000 * (n - k) for k in range(n)]
    return lambda: icm_equities(stacks, payouts)


def race_10_seats() -> Callable[[], object]:
    players = [RacePlayer(seat=s, chips={25: s % 4 + 4, 100: 10, 500: 3}) for s in range(1, 11)]
    rng = random.Random(3)
    return lambda: color_up(denominations=(25, 100, 500), remove=25, players=players, rng=rng)


def main() -> int:
    cases = [
        ("settle 9-way all-in with cards", settle_9_way(), 2.0, 2000),
        ("ICM 9 players, 9 paid", icm(9), 50.0, 300),
        ("ICM 12 players, 12 paid", icm(12), 1000.0, 50),
        ("chip race, 10 seats", race_10_seats(), 1.0, 2000),
    ]
    print(f"{'case':34} {'runs':>6} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'target':>8}")
    missed = 0
    for name, fn, target, runs in cases:
        times = measure(fn, runs)
        median = statistics.median(times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        ok = "ok" if median <= target else "MISS"
        missed += ok == "MISS"
        print(
            f"{name:34} {runs:>6} {median:>10.3f} {p99:>9.3f} {times[-1]:>9.3f} "
            f"{target:>6.0f}ms {ok}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
