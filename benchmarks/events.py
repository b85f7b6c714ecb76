"""Twenty events at once (issue 30): the clocks of many tournaments on one worker with beat.

    .venv/bin/python benchmarks/events.py [--events 20] [--seconds 30] [--sizes 1,10,20,50]

Two parts.

1. The cost of one ``clock_sweep`` (tourney/tasks.py), called directly (not through the
   broker, the ticks it queues counted, not sent) with N running and N registering events,
   for each N of ``--sizes``: once with nothing due (20-minute levels, every boundary minutes
   away), once with every running clock's next boundary inside the sweep's horizon (the ticks
   to queue). Target: the queries of a sweep with nothing due the same at every N, and the
   queries of a sweep queueing ticks the same at every N too (the ticks are the work due,
   not the queries).

2. ``--events`` tournaments (half running on short levels of 1 and 2 s, started 0.1 s apart
   so the boundaries of different events interleave; half registering, with entries
   registered through the services during the run) and ONE real Celery worker with embedded
   beat (as benchmarks/clock.py starts it). Every level event the clocks owe in the run is
   checked: recorded once, and its lateness (the Event row's time against the boundary the
   clock derives). Targets: every boundary recorded, median lateness <= 100 ms.

Uses DATABASE_URL / CELERY_BROKER_URL if set (PostgreSQL + Redis: the database is emptied
first), else a scratch SQLite file and the embedded filesystem broker in a temporary folder.
Exits non-zero when a target is missed."""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from common import setup_django, start_worker

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LONG_LEVEL = 20 * 60  # seconds: the sweep-cost part's levels


def create(user, name: str, levels: list[int], tables: int = 0):
    from tourney import services

    return services.tournament_create(
        actor=user,
        name=name,
        tables=tables,
        levels=[
            {
                "kind": "level",
                "small_blind": 100 * (i + 1),
                "big_blind": 200 * (i + 1),
                "seconds": s,
            }
            for i, s in enumerate(levels)
        ],
    )


def sweep_cost(user, sizes: list[int], reps: int) -> list[dict]:
    """One ``clock_sweep`` at each size: (ms median, queries) with nothing due and with every
    running clock's boundary inside the horizon."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tourney import services, tasks
    from tourney.core import schedule

    queued: list[tuple] = []
    real_tick = schedule.clock_tick
    schedule.clock_tick = lambda *a: queued.append(a)  # counted, not sent
    horizon = tasks.sweep_horizon().total_seconds()
    running: list[int] = []
    rows = []
    try:
        for n in sizes:
            while len(running) < n:
                k = len(running)
                t = create(user, f"Running {k}", [LONG_LEVEL] * 40)
                services.clock_action(tournament_id=t.pk, action="start", actor=user)
                running.append(t.pk)
                create(user, f"Registering {k}", [LONG_LEVEL] * 40)
            row = {"n": n}
            for case, left in (("idle", LONG_LEVEL // 2), ("due", int(horizon // 2))):
                # every running clock 10 minutes before its boundary, or its boundary inside
                # the horizon ("set": the time left of the level, RULES 4.3)
                for tid in running:
                    services.clock_action(tournament_id=tid, action="set", seconds=left, actor=user)
                times, counts = [], []
                for _ in range(reps if case == "idle" else max(3, reps // 4)):
                    queued.clear()
                    with CaptureQueriesContext(connection) as q:
                        t0 = time.perf_counter()
                        tasks.clock_sweep()
                        times.append((time.perf_counter() - t0) * 1000)
                    counts.append(len(q.captured_queries))
                row[case] = (statistics.median(times), max(counts), len(queued))
            rows.append(row)
    finally:
        schedule.clock_tick = real_tick
    return rows


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) of every process in the group ``pgid`` (the worker and
    its embedded beat): the worker's cost, less sensitive to a loaded machine than lateness."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields from the state on: pgrp is the third
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def live(user, tmp: Path, events: int, seconds: float) -> dict:
    """``events`` tournaments, half running on 1-2 s levels and half registering, with one
    worker and beat for ``seconds``: the level events owed, recorded and their lateness."""
    from celery import current_app
    from django.utils import timezone

    from tourney import services
    from tourney.engine import clock as clock_engine
    from tourney.models import Event
    from tourney.selectors import clock as clock_reads

    n_run = events - events // 2
    # 1 and 2 s levels in a different order per event: boundaries of different events
    # interleave, never all at once. A first level of 5 s leaves time to start them all.
    levels = int(seconds) + 10
    running = [
        create(user, f"Running {i}", [5] + [1 + (i + j) % 2 for j in range(levels)])
        for i in range(n_run)
    ]
    registering = [
        create(user, f"Registering {i}", [LONG_LEVEL] * 10, tables=20) for i in range(events // 2)
    ]
    if "CELERY_BROKER_URL" in os.environ:
        current_app.control.purge()  # ticks left in the given broker by an earlier run
    worker = start_worker(tmp)
    registered = 0
    try:
        time.sleep(4)
        cpu0 = group_cpu(worker.pid)
        for t in running:
            services.clock_action(tournament_id=t.pk, action="start", actor=user)
            time.sleep(0.1)
        started = timezone.now()
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:  # the desks' write traffic, about 20 entries a second
            t = registering[registered % len(registering)]
            services.entry_register(tournament_id=t.pk, name=f"P{registered}", actor=user)
            registered += 1
            time.sleep(0.05)
        ended = timezone.now()
        time.sleep(3)  # the last ticks due before ``ended``
        cpu = group_cpu(worker.pid) - cpu0
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(20)
    owed, lateness, missing, twice, woke = 0, [], 0, 0, []
    for t in running:
        t.refresh_from_db()
        items = clock_reads.structure_items(t)
        due = clock_engine.boundaries(
            items, clock_reads.anchor_of(t), started - timedelta(seconds=10), ended
        )
        recorded: dict[int, list[datetime]] = {}
        for e in Event.objects.filter(tournament=t, kind="level_started"):
            recorded.setdefault(e.payload["index"], []).append(e.created_at)
            # when the announcement began (its ``now``): the tick's wake-up, before the lock
            woke.append(
                (
                    datetime.fromisoformat(e.payload["recorded_at"])
                    - datetime.fromisoformat(e.payload["due"])
                ).total_seconds()
                * 1000
            )
        for index, at in due:
            owed += 1
            got = recorded.get(index, [])
            missing += not got
            twice += len(got) > 1
            if got:
                lateness.append((min(got) - at).total_seconds() * 1000)
    return {
        "owed": owed,
        "lateness": lateness,
        "missing": missing,
        "twice": twice,
        "registered": registered,
        "woke": woke,
        "cpu": cpu,
        "seconds": (ended - started).total_seconds(),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=20, help="tournaments (half running)")
    ap.add_argument("--seconds", type=float, default=30, help="length of the live run")
    ap.add_argument("--sizes", default="1,10,20,50", help="running (and registering) events")
    ap.add_argument("--reps", type=int, default=20, help="sweeps measured at each size")
    ap.add_argument("--skip-live", action="store_true", help="the sweep's cost only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="events-bench-"))
    setup_django("events-bench-", tmp=tmp, flush=True)
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tourney.models import Tournament

    user, _ = get_user_model().objects.get_or_create(username="bench")
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    rows = sweep_cost(user, sizes, args.reps)
    Tournament.objects.all().delete()
    result = None if args.skip_live else live(user, tmp, args.events, args.seconds)

    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    broker = os.environ.get("CELERY_BROKER_URL", "filesystem").split(":", 1)[0]
    sweep = float(settings.CLOCK_SWEEP_SECONDS)
    print(f"events benchmark — database {db}, broker {broker}, sweep every {sweep:g} s")
    ok = True
    print("\none clock_sweep, N running + N registering events (called directly)")
    print(f"{'N':>4}{'idle ms':>10}{'idle q':>8}{'due ms':>10}{'due q':>8}{'ticks':>7}")
    for r in rows:
        (i_ms, i_q, _), (d_ms, d_q, ticks) = r["idle"], r["due"]
        print(f"{r['n']:>4}{i_ms:>10.2f}{i_q:>8}{d_ms:>10.2f}{d_q:>8}{ticks:>7}")
    idle_q = {r["idle"][1] for r in rows}
    due_q = {r["due"][1] for r in rows}
    flat = len(idle_q) == 1 and len(due_q) == 1
    ok &= flat
    print(
        f"queries per sweep flat in N (idle {sorted(idle_q)}, due {sorted(due_q)}): "
        f"{'✓' if flat else '✗'}"
    )
    if result is not None:
        r = result
        n_run = args.events - args.events // 2
        print(
            f"\nlive: {n_run} running + {args.events // 2} registering events, one worker with "
            f"beat, {r['seconds']:.0f} s, {r['registered']} entries registered meanwhile"
        )
        print(f"{'figure':<40}{'value':>12}{'target':>14}")
        good = r["missing"] == 0 and r["twice"] == 0 and r["owed"] > 0
        ok &= good
        rec = f"{r['owed'] - r['missing']}/{r['owed']}"
        print(
            f"{'level events recorded (once each)':<40}{rec:>12}{'all ✓' if good else 'all ✗':>14}"
        )
        if r["lateness"]:
            lat = sorted(r["lateness"])
            med = statistics.median(lat)
            p90 = lat[max(0, -(-9 * len(lat) // 10) - 1)]  # nearest rank: never below the median
            ok &= med <= 100
            mark = "<= 100 " + ("✓" if med <= 100 else "✗")
            print(f"{'lateness median (ms)':<40}{med:>12.1f}{mark:>14}")
            print(f"{'lateness p90 (ms)':<40}{p90:>12.1f}{'-':>14}")
            print(f"{'lateness max (ms)':<40}{lat[-1]:>12.1f}{'-':>14}")
            woke = statistics.median(r["woke"])
            print(f"{'  of which the tick waking, median (ms)':<40}{woke:>12.1f}{'-':>14}")
        else:
            ok = False
            print("no level event recorded: see", tmp / "worker.log")
        print(f"{'worker + beat CPU over the run (s)':<40}{r['cpu']:>12.2f}{'-':>14}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
