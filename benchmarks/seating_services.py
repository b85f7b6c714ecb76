"""Seating through the services and the database: the draw of 10,000 entries, a registration
drawing its seat at 1,000 tables, and `elimination_record` at 1,000 tables (median, p99,
queries per action, the same at 100 tables).

    .venv/bin/python benchmarks/seating_services.py [--entries 10000] [--eliminations 200]
                                                    [--registrations 300]

Uses DATABASE_URL if set (e.g. postgres://postgres@127.0.0.1:5432/bench_seating, a database
it may empty), else a scratch SQLite file. Targets on PostgreSQL: seating 10,000 entries
<= 1 s; registration median <= 1.5 ms; elimination median <= 4 ms, p99 <= 15 ms; queries per
action flat in the table count. Exits non-zero when a target is missed."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from common import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def field(entries: int, tables: int, user, seats: int = 9):
    """A tournament with `entries` registered (not yet seated) entries, built in bulk."""
    from tourney import services
    from tourney.models import Entry, Player

    t = services.tournament_create(
        actor=user,
        name=f"Bench {entries}",
        tables=tables,
        seats_per_table=seats,
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


class Split:
    """Where each call's time went: the whole call, the statements (sent, run by the
    server, answered: measured around each execute), the COMMIT (its WAL flush), and the
    process's own CPU (Python, Django, the driver)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.sql: list[float] = []
        self.commit: list[float] = []
        self.queries: list[int] = []

    def medians(self) -> dict[str, float]:
        return {k: statistics.median(getattr(self, k)) for k in ("wall", "cpu", "sql", "commit")}


def counted(calls) -> Split:
    """Time each call of ``calls`` (ms), count its queries and time them with a plain
    execute wrapper (no SQL capture, so the timing is the service's own), and time its
    COMMIT."""
    from django.db import connection

    split = Split()
    now = [0, 0.0, 0.0]  # queries, seconds in statements, seconds in COMMIT

    def timed(execute, sql, params, many, context):
        now[0] += 1
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            now[1] += time.perf_counter() - t0

    commit = connection._commit

    def timed_commit():
        t0 = time.perf_counter()
        try:
            return commit()
        finally:
            now[2] += time.perf_counter() - t0

    connection._commit = timed_commit
    try:
        for call in calls:
            now[:] = [0, 0.0, 0.0]
            with connection.execute_wrapper(timed):
                c0, t0 = time.process_time(), time.perf_counter()
                call()
                split.wall.append((time.perf_counter() - t0) * 1000)
                split.cpu.append((time.process_time() - c0) * 1000)
            split.queries.append(now[0])
            split.sql.append(now[1] * 1000)
            split.commit.append(now[2] * 1000)
    finally:
        del connection._commit
    return split


def where_it_goes(split: Split) -> str:
    m = split.medians()
    return (
        f"statements {m['sql']:.2f} ({statistics.median(split.queries):.0f}), "
        f"COMMIT {m['commit']:.2f}, own CPU {m['cpu']:.2f}"
    )


def registrations(t, n: int, user):
    """Time ``n`` registrations at the desk, each drawing its seat (RULES 1.3) in play."""
    from tourney import services

    def register(i):
        return lambda: services.entry_register(tournament_id=t.pk, name=f"Late {i:05d}", actor=user)

    return counted(register(i) for i in range(n))


def eliminations(t, n: int, rng: random.Random):
    """Time ``n`` single eliminations of random seated entries."""
    from tourney import services
    from tourney.models import Entry

    seated = list(Entry.objects.filter(tournament=t, status="seated").values_list("pk", flat=True))
    rng.shuffle(seated)

    def bust(i):
        return lambda: services.elimination_record(
            tournament_id=t.pk, busts=[(seated[i], 1000 + i)]
        )

    return counted(bust(i) for i in range(n))


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))]


def upkeep() -> None:
    """What beat does every ``VACUUM_SECONDS`` on a PostgreSQL server without autovacuum
    (this machine's): the tables the draw just rewrote vacuumed before play goes on; nothing
    where the server vacuums itself, or on SQLite."""
    from tourney.services.maintenance import vacuum_hot_tables

    vacuum_hot_tables()


def check(value: float, limit: float) -> str:
    return f"<= {limit:g} {'✓' if value <= limit else '✗'}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--eliminations", type=int, default=200)
    ap.add_argument("--registrations", type=int, default=300)
    args = ap.parse_args()
    setup_django("seating-bench-", freeze=True)
    from django.contrib.auth import get_user_model

    from tables import services as ts
    from tourney import services

    user, _ = get_user_model().objects.get_or_create(username="bench")
    rng = random.Random(1)
    rows, missed = [], []

    def row(name: str, value: float, shown: str, limit: float | None) -> None:
        rows.append((name, shown, check(value, limit) if limit is not None else "—"))
        if limit is not None and value > limit:
            missed.append(name)

    t = field(args.entries, 0, user)
    t0 = time.perf_counter()
    ts.seating_draw_all(tournament_id=t.pk, actor=user)
    draw_s = time.perf_counter() - t0
    row(f"draw {args.entries} entries (s)", draw_s, f"{draw_s:.2f}", 1)
    services.clock_action(tournament_id=t.pk, action="start", actor=user)
    upkeep()
    tables = t.tables.filter(status="open").count()
    el = eliminations(t, args.eliminations, rng)
    times, queries = el.wall, el.queries
    row(
        f"elimination_record at {tables} tables: median (ms)",
        statistics.median(times),
        f"{statistics.median(times):.2f}",
        4,
    )
    row("  p99 (ms)", p99(times), f"{p99(times):.2f}", 15)
    q_large = (statistics.median(queries), max(queries))
    rows.append(
        ("  queries per elimination: median / max", f"{q_large[0]:.0f} / {q_large[1]}", "—")
    )
    # Before the start, the seats drawn at the start (RULES 1.2): 8,000 registered already.
    desk = field(args.entries * 8 // 10, 0, user, seats=10)
    rd = registrations(desk, args.registrations, user)
    row(
        "registration before the draw, 8,000 registered: median (ms)",
        statistics.median(rd.wall),
        f"{statistics.median(rd.wall):.2f}",
        1.5,
    )
    rows.append(
        (
            "  p99 (ms) / queries median",
            f"{p99(rd.wall):.2f} / {statistics.median(rd.queries):.0f}",
            "—",
        )
    )
    # 8,000 drawn over 1,000 tables of 10 (as the simulation's desk): 2,000 seats open.
    reg = field(args.entries * 8 // 10, args.entries // 10, user, seats=10)
    ts.seating_draw_all(tournament_id=reg.pk, actor=user)
    services.clock_action(tournament_id=reg.pk, action="start", actor=user)
    upkeep()
    reg_tables = reg.tables.filter(status="open").count()
    rg = registrations(reg, args.registrations, user)
    r_times, r_queries = rg.wall, rg.queries
    row(
        f"registration drawing its seat at {reg_tables} tables: median (ms)",
        statistics.median(r_times),
        f"{statistics.median(r_times):.2f}",
        1.5,
    )
    rows.append(("  p99 (ms)", f"{p99(r_times):.2f}", "—"))
    rq_large = (statistics.median(r_queries), max(r_queries))
    rows.append(
        ("  queries per registration: median / max", f"{rq_large[0]:.0f} / {rq_large[1]}", "—")
    )
    small = field(900, 0, user)
    ts.seating_draw_all(tournament_id=small.pk, actor=user)
    services.clock_action(tournament_id=small.pk, action="start", actor=user)
    q_small = eliminations(small, 50, rng).queries
    small_reg = field(args.entries * 8 // 100, args.entries // 100, user, seats=10)
    ts.seating_draw_all(tournament_id=small_reg.pk, actor=user)
    services.clock_action(tournament_id=small_reg.pk, action="start", actor=user)
    rq_small = registrations(small_reg, 50, user).queries
    flat = (statistics.median(q_small), statistics.median(rq_small)) == (q_large[0], rq_large[0])
    rows.append(
        (
            "  at 100 tables: queries median per elimination / registration",
            f"{statistics.median(q_small):.0f} / {statistics.median(rq_small):.0f}",
            f"the same {'✓' if flat else '✗'}",
        )
    )
    if not flat:
        missed.append("query counts flat")
    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    print(f"seating through the services — database {db}")
    print(f"{'figure':<66}{'value':>12}  target")
    for name, value, target in rows:
        print(f"{name:<66}{value:>12}  {target}")
    print("where the time goes, medians in ms (statements: client-observed, round trips in")
    print("brackets; own CPU: this process's, i.e. Python, Django and the driver):")
    print(f"  registration before the draw: {where_it_goes(rd)}")
    print(f"  registration drawing a seat:  {where_it_goes(rg)}")
    print(f"  elimination:                  {where_it_goes(el)}")
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
