"""Clock figures (issue 4): lateness of level events recorded by a real Celery worker over 50
boundaries, and the time of one clock read (engine and through the service).

    .venv/bin/python benchmarks/clock.py [--boundaries 50] [--seconds 1] [--sweep 5]

Uses DATABASE_URL / CELERY_BROKER_URL if set (PostgreSQL + Redis), else a scratch SQLite file
and the embedded filesystem broker in a temporary folder. Targets: median lateness <= 100 ms,
max <= 1 s; one clock read (the engine's, from the anchor and the structure) <= 1 ms. The read
through the service with a fresh tournament row and its levels from the database is printed
for reference (no target: the screens read the clock from the cached state, issue 9).

The worker's beat sweep runs at the shipped CLOCK_SWEEP_SECONDS (5 s; the environment's value
if set, or ``--sweep``), and the output prints it: a short sweep would catch what a broken
ETA path misses and hide it."""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from common import start_worker

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boundaries", type=int, default=50)
    ap.add_argument("--seconds", type=int, default=1)
    ap.add_argument("--sweep", type=float, default=None, help="CLOCK_SWEEP_SECONDS (s)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="clock-bench-"))
    os.environ.setdefault("TOURNEY_VAR_DIR", str(tmp))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    if args.sweep is not None:
        os.environ["CLOCK_SWEEP_SECONDS"] = str(args.sweep)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from tourney import services
    from tourney.engine import clock as clock_engine
    from tourney.models import Event
    from tourney.selectors import clock as clock_reads

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    n = args.boundaries
    levels = [{"kind": "level", "small_blind": 100, "big_blind": 200, "seconds": args.seconds}]
    t = services.tournament_create(
        actor=user,
        name="Clock bench",
        tables=0,
        levels=[{**levels[0], "seconds": 5}] + levels * (n + 2),
    )
    sweep = float(settings.CLOCK_SWEEP_SECONDS)  # the worker reads the same environment
    worker = start_worker(tmp)
    try:
        time.sleep(4)
        services.clock_action(tournament_id=t.pk, action="start", actor=user)
        deadline = time.monotonic() + 5 + n * args.seconds + 10
        while time.monotonic() < deadline:
            if Event.objects.filter(tournament=t, kind="level_started").count() >= n:
                break
            time.sleep(0.2)
        lateness = []
        for e in Event.objects.filter(tournament=t, kind="level_started").order_by("id")[:n]:
            due = datetime.fromisoformat(e.payload["due"])
            lateness.append((e.created_at - due).total_seconds() * 1000)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(20)

    items = clock_reads.structure_items(t)
    anchor = clock_reads.anchor_of(t)
    now = timezone.now()
    reps = 2000
    t0 = time.perf_counter()
    for _ in range(reps):
        clock_engine.state(items, anchor, now)
    engine_us = (time.perf_counter() - t0) / reps * 1e6
    samples = []
    for _ in range(200):
        t0 = time.perf_counter()
        t.refresh_from_db()
        clock_reads.clock_read(t)
        samples.append((time.perf_counter() - t0) * 1000)
    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    broker = os.environ.get("CELERY_BROKER_URL", "filesystem")
    broker = broker.split(":", 1)[0]
    print(f"clock benchmark — database {db}, broker {broker}, sweep every {sweep:g} s")
    print(f"{'figure':<44}{'value':>12}{'target':>12}")
    if lateness:
        print(f"{'level events recorded':<44}{len(lateness):>12}{n:>12}")
        print(f"{'lateness median (ms)':<44}{statistics.median(lateness):>12.1f}{'<= 100':>12}")
        print(f"{'lateness max (ms)':<44}{max(lateness):>12.1f}{'<= 1000':>12}")
    else:
        print("no level event recorded: see", tmp / "worker.log")
    print(f"{'clock read, engine (us)':<44}{engine_us:>12.1f}{'<= 1000':>12}")
    print(
        f"{'clock read, row + levels + engine (ms, median)':<44}"
        f"{statistics.median(samples):>12.2f}{'-':>12}"
    )


if __name__ == "__main__":
    main()
