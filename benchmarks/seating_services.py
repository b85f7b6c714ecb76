"""Seating through the services and the database (issue 3): the draw of 10,000 entries and
`elimination_record` at 1,000 tables (median, p99, queries per elimination).

    .venv/bin/python benchmarks/seating_services.py [--entries 10000] [--eliminations 200]

Uses DATABASE_URL if set (e.g. postgres://postgres@127.0.0.1:5432/bench_seating, a database
it may empty), else a scratch SQLite file. Targets on PostgreSQL: elimination median <= 10 ms,
p99 <= 30 ms; seating 10,000 entries <= 1 s; queries per elimination flat in the table count."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="seating-bench-"))
    os.environ.setdefault("TOURNEY_VAR_DIR", str(tmp))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    # Production settings: no per-query debug bookkeeping.
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-" + "x" * 40)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import gc

    gc.freeze()  # as the web and worker processes do once loaded (tourney/wsgi.py)


def field(entries: int, tables: int, user):
    """A tournament with `entries` registered (not yet seated) entries, built in bulk."""
    from tourney import services
    from tourney.models import Entry, Player

    t = services.tournament_create(
        actor=user,
        name=f"Bench {entries}",
        tables=tables,
        seats_per_table=9,
        seed=42,
        options={"draw_at_registration": False},
    )
    players = Player.objects.bulk_create(Player(name=f"Player {i:05d}") for i in range(entries))
    Entry.objects.bulk_create(
        Entry(
            tournament=t,
            player=p,
            number=i + 1,
            status=Entry.Status.REGISTERED,
            chips_bought=t.starting_stack,
            paid=t.buy_in,
        )
        for i, p in enumerate(players)
    )
    return t


def eliminations(t, n: int, rng: random.Random):
    """Time ``n`` single eliminations; count their queries with a plain execute wrapper (no
    SQL capture, so the timing is the service's own)."""
    from django.db import connection

    from tourney import services
    from tourney.models import Entry

    times, queries = [], []
    seated = list(Entry.objects.filter(tournament=t, status="seated").values_list("pk", flat=True))
    rng.shuffle(seated)
    count = [0]

    def counter(execute, sql, params, many, context):
        count[0] += 1
        return execute(sql, params, many, context)

    for i in range(n):
        eid = seated[i]
        count[0] = 0
        with connection.execute_wrapper(counter):
            t0 = time.perf_counter()
            services.elimination_record(tournament_id=t.pk, busts=[(eid, 1000 + i)])
            times.append((time.perf_counter() - t0) * 1000)
        queries.append(count[0])
    return times, queries


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--eliminations", type=int, default=200)
    args = ap.parse_args()
    setup_django()
    from django.contrib.auth import get_user_model

    from tables import services as ts
    from tourney import services

    user, _ = get_user_model().objects.get_or_create(username="bench")
    rng = random.Random(1)
    rows = []
    t = field(args.entries, 0, user)
    t0 = time.perf_counter()
    ts.seating_draw_all(tournament_id=t.pk, actor=user)
    draw_s = time.perf_counter() - t0
    rows.append((f"draw {args.entries} entries (s)", f"{draw_s:.2f}", "<= 1"))
    services.clock_action(tournament_id=t.pk, action="start", actor=user)
    times, queries = eliminations(t, args.eliminations, rng)
    tables = t.tables.filter(status="open").count()
    rows.append(
        (
            f"elimination_record at {tables} tables: median (ms)",
            f"{statistics.median(times):.2f}",
            "<= 10",
        )
    )
    rows.append(("  p99 (ms)", f"{p99(times):.2f}", "<= 30"))
    rows.append(
        (
            "  queries per elimination: median / max",
            f"{statistics.median(queries):.0f} / {max(queries)}",
            "flat",
        )
    )
    small = field(900, 0, user)
    ts.seating_draw_all(tournament_id=small.pk, actor=user)
    services.clock_action(tournament_id=small.pk, action="start", actor=user)
    _, q_small = eliminations(small, 50, rng)
    rows.append(
        (
            "  same at 100 tables: queries median / max",
            f"{statistics.median(q_small):.0f} / {max(q_small)}",
            "flat",
        )
    )
    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    print(f"seating through the services — database {db}")
    print(f"{'figure':<52}{'value':>14}{'target':>10}")
    for name, value, target in rows:
        print(f"{name:<52}{value:>14}{target:>10}")


if __name__ == "__main__":
    main()
