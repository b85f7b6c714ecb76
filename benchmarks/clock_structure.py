"""Speed of the clock and structure engines (RULES 4).

Run: .venv/bin/python benchmarks/clock_structure.py

Prints median, p99 and max per call in microseconds. The clock is read on every display poll and
every API call, so ``state`` is the hot path.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tourney.engine import clock, structure  # noqa: E402

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
CHIPS = (25, 100, 500, 1000, 5000, 25000)


def measure(name: str, fn: Callable[[int], object], runs: int) -> tuple[str, float, float, float]:
    times = []
    for i in range(runs):
        begin = time.perf_counter_ns()
        fn(i)
        times.append((time.perf_counter_ns() - begin) / 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return name, statistics.median(times), p99, times[-1]


def main() -> None:
    rng = random.Random(7)
    items = structure.preset("regular")  # 41 items, 12.3 hours
    data = structure.items_to_data(items)
    running = clock.start(items, T0)
    paused = clock.pause(items, running, T0 + timedelta(hours=3))
    moments = [T0 + timedelta(milliseconds=rng.randint(0, 12 * 3600 * 1000)) for _ in range(5000)]
    day_end = T0 + timedelta(hours=13)

    rows = [
        measure(
            f"state, running, {len(items)} items",
            lambda i: clock.state(items, running, moments[i]),
            5000,
        ),
        measure("state, paused", lambda i: clock.state(items, paused, moments[i]), 5000),
        measure(
            "state_to_dict (API body)",
            lambda i: clock.state_to_dict(
                items, clock.state(items, running, moments[i]), moments[i]
            ),
            5000,
        ),
        measure(
            "pause + resume + adjust",
            lambda i: clock.adjust(
                items,
                clock.resume(items, clock.pause(items, running, moments[i]), moments[i]),
                moments[i],
                -30,
            ),
            5000,
        ),
        measure(
            "boundaries, whole day", lambda i: clock.boundaries(items, running, T0, day_end), 5000
        ),
        measure("parse_levels, 41 items", lambda i: structure.parse_levels(data), 2000),
        measure("check_structure", lambda i: structure.check_structure(items, CHIPS), 2000),
        measure(
            "generate, 10k stack, 8 h",
            lambda i: structure.generate(
                starting_stack=10000, denominations=CHIPS, level_minutes=20, target_hours=8
            ),
            500,
        ),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'operation':<{width}}  {'median us':>10}  {'p99 us':>10}  {'max us':>10}")
    for name, median, p99, worst in rows:
        print(f"{name:<{width}}  {median:>10.1f}  {p99:>10.1f}  {worst:>10.1f}")


if __name__ == "__main__":
    main()
