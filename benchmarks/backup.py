"""A 10,000-entry tournament's backup (issue 30): the export and the import (restore), timed.

    .venv/bin/python benchmarks/backup.py [--entries 10000] [--left N] [--tournament ID]
                                          [--profile]

Builds the tournament the way ``manage.py simulate`` plays one (issue 11: registrations at the
desk, late entries and re-entries, every elimination with its balancing, button moves,
color-ups with chip races, the invariants checked every 250 busts) and stops it when ``--left``
players are still seated (a tenth of the entries by default) and late registration has
closed: a day well under way, with its seats, moves and long log. ``--tournament ID`` times an
existing tournament of the database instead (no build: quick reruns).

Then it times what the backup download and the restore do (tourney/views/dashboard/backup.py,
the tournament_export / tournament_import commands): the export is ``tournament_document``
and its JSON text, the import the JSON parsed and ``tournament_import``. It prints the
document's size, the seconds, the queries of each, the peak memory of each (tracemalloc, in a
second pass: tracing slows Python), and checks the copy: exported again, it is the same
document but for ids (every row, the log's payloads and undo journals included), and its
entries, seats, chips and log agree with the original's. The copies are deleted at the end.

Uses DATABASE_URL if set (a database it may fill; a build empties it first), else a scratch
SQLite file. Production settings (DEBUG off). Targets at 10,000 entries (on PostgreSQL):
export <= 5 s, import <= 15 s. Exits non-zero on a miss or when the copy differs."""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from common import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
EXPORT_S = 5.0
IMPORT_S = 15.0
WORKER_MB = 150  # a web worker after the loads (issue 30)


# ---------------------------------------------------------------- the tournament


def build(entries: int, seats: int, left: int) -> int:
    """A day played by the simulation (tourney/management/commands/simulate.py) until
    ``left`` players are seated and late registration is over; its invariants checked."""
    from django.core.management import call_command

    from tourney.management.commands.simulate import Simulation

    class Stop(Exception):
        pass

    class Day(Simulation):
        def hand(self) -> None:
            super().hand()
            if len(self.where) <= left and not self.t.registration_open:
                raise Stop

    call_command("flush", interactive=False, verbosity=0)
    sim = Day(entries=entries, seats=seats, seed=1, reentry_rate=0.3, progress=False)
    t0 = time.perf_counter()
    gc.freeze()  # as the simulate command does (the web and worker processes do it too)
    try:
        sim.run()
        raise SystemExit(f"the tournament finished before {left} players were left")
    except Stop:
        sim.check_all("when the day is stopped")
    finally:
        gc.unfreeze()
    c = sim.counts
    print(
        f"built in {time.perf_counter() - t0:.0f} s: {c['entries']} entries "
        f"({c['reentries']} re-entries), {c['busts']} busts in {c['hands']} hands, "
        f"{sum(v for k, v in c.items() if k.startswith('moves_'))} moves, "
        f"{c['button_moves']} button moves, {c['color_ups']} color-ups ({c['races']} races), "
        f"{len(sim.where)} seated; invariants kept ({sum(sim.checks.values())} checks)"
    )
    return sim.t.pk


# ---------------------------------------------------------------- the runs


class Queries:
    """Counts the queries run on the connection (no SQL kept: a 10,000-row insert is long)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def export(tid: int) -> str:
    """What the download sends (tourney/views/dashboard/backup.py)."""
    from tourney.selectors.backup import tournament_document

    return json.dumps(tournament_document(tid), ensure_ascii=False, sort_keys=True)


def restore(text: str) -> int:
    """What the restore form does with the file: parse it, import it."""
    from tourney.services.backup import tournament_import

    return tournament_import(document=json.loads(text)).pk


def run(fn, arg, *, memory: bool = False, profile: bool = False):
    """(result, seconds, CPU seconds, queries, peak bytes or None) of ``fn(arg)``."""
    from django.db import connection

    q = Queries()
    gc.collect()
    if memory:
        tracemalloc.start()
    prof = cProfile.Profile() if profile else None
    with connection.execute_wrapper(q):
        t0, c0 = time.perf_counter(), time.process_time()
        if prof:
            prof.enable()
        out = fn(arg)
        if prof:
            prof.disable()
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = None
    if memory:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    if prof:
        print(f"\n-- profile of {fn.__name__} (cumulative, top 25)")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return out, seconds, cpu, q.n, peak


WORKER_MEMORY = """
import json, os, sys
import django
django.setup()
from tourney.core.memory import release_memory
from tourney.selectors.backup import tournament_document
def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))
before = rss()
body = json.dumps(tournament_document(int(sys.argv[1])), ensure_ascii=False, sort_keys=True)
held = rss()
del body
freed = rss()
release_memory()  # what gunicorn.conf.py's post_request does after a backup's download
print(json.dumps([before, held, freed, rss()]))
"""


def worker_memory(tid: int) -> list[int] | None:
    """RSS (MB) of a fresh process, as a web worker: loaded, holding the export's answer,
    after freeing it, after ``release_memory``; None where /proc is missing."""
    if not os.path.exists("/proc/self/status"):
        return None
    r = subprocess.run(
        [sys.executable, "-c", WORKER_MEMORY, str(tid)],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def elsewhere(text: str, mark: str) -> str:
    """The document with every player's name marked, so that the import finds none of them
    here and creates them all, as on another machine (the slowest case)."""
    doc = json.loads(text)
    for r in doc["rows"]["tourney.player"]:
        r["name"] += mark
    return json.dumps(doc, ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------- the copy is the original


KIND_OF = {
    "tourney.tournament": "tournament",
    "tourney.player": "player",
    "tourney.entry": "entry",
    "tourney.event": "event",
    "tables.table": "table",
    "tables.move": "move",
    "tourney.knockout": "knockout",
    "tourney.chipcount": "chipcount",
}
# Columns naming another row, by the kind of row they name.
REFS = {
    "tournament_id": "tournament",
    "player_id": "player",
    "entry_id": "entry",
    "event_id": "event",
    "table_id": "table",
    "bust_hand": "event",
    "busted_id": "entry",
    "winner_id": "entry",
    "hand": "event",
    "carried_from_id": "entry",
}


def normalised(doc: dict) -> dict:
    """The document with every id replaced by its rank among the rows of its kind (-1: an id
    naming no row of the document), slug and display link (unique per database) left out;
    players ranked by their first entry (an import may find them here)."""
    from tourney.selectors.backup import payload_ids

    rows = doc["rows"]
    rank = {
        KIND_OF[name]: {r["id"]: i for i, r in enumerate(rs)}
        for name, rs in rows.items()
        if name in KIND_OF
    }
    first = dict.fromkeys(r["player_id"] for r in rows["tourney.entry"])
    rank["player"] = {p: i for i, p in enumerate(first)}

    def fn(kind: str, old: int) -> int:
        return rank.get(kind, {}).get(old, -1)

    out = {}
    for name, rs in rows.items():
        kind = KIND_OF.get(name)
        new = []
        for r in rs:
            r = dict(r)
            r["id"] = fn(kind, r["id"]) if kind else None
            for col, what in REFS.items():
                if r.get(col) is not None:
                    r[col] = fn(what, r[col])
            if name == "tourney.event":
                r["payload"] = payload_ids(r["kind"], r["payload"], fn, 0)
            if name == "tourney.tournament":
                r.pop("slug"), r.pop("display_token")
            new.append(r)
        out[name] = sorted(new, key=lambda r: r["id"]) if kind == "player" else new
    return {"format": doc["format"], "schema": doc["schema"], "rows": out}


def facts(tid: int) -> dict:
    """What a director sees of a tournament: entries, who sits where, chips, log, moves."""
    from django.db.models import Count

    from tables.models import Move, Seat
    from tourney import selectors
    from tourney.models import Entry, Event, Tournament

    t = Tournament.objects.get(pk=tid)
    return {
        "entries": Entry.objects.filter(tournament=t).count(),
        "by status": dict(
            Entry.objects.filter(tournament=t).values_list("status").annotate(n=Count("pk"))
        ),
        "seats (table, seat, entry number)": sorted(
            Seat.objects.filter(tournament=t).values_list(
                "table__number", "number", "entry__number"
            )
        ),
        "places (entry number, place, prize)": sorted(
            Entry.objects.filter(tournament=t, place__isnull=False).values_list(
                "number", "place", "prize"
            )
        ),
        "chips in play": selectors.total_chips(t),
        "events": Event.objects.filter(tournament=t).count(),
        "moves": Move.objects.filter(tournament=t).count(),
        "status": t.status,
    }


def same(original: int, copy: int, doc: str) -> list[str]:
    """What differs between the original (its document ``doc``) and the copy."""
    from tourney.selectors.backup import tournament_document

    wrong = []
    a, b = facts(original), facts(copy)
    wrong += [f"{k}: {a[k]!r:.60} != {b[k]!r:.60}" for k in a if a[k] != b[k]]
    first, second = normalised(json.loads(doc)), normalised(tournament_document(copy))
    for name in first["rows"]:
        x, y = first["rows"][name], second["rows"].get(name)
        if x != y:
            n = next((i for i, (r, s) in enumerate(zip(x, y or [], strict=False)) if r != s), None)
            wrong.append(f"{name}: {len(x)} rows, copy {len(y or [])}; first difference at {n}")
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--seats", type=int, default=10)
    ap.add_argument("--left", type=int, help="players seated when the day stops (entries/10)")
    ap.add_argument("--tournament", type=int, help="time this tournament (no build)")
    ap.add_argument("--profile", action="store_true", help="cProfile of each (slower)")
    args = ap.parse_args()
    setup_django("backup-bench-")
    from tourney.models import Entry, Event, Player, Tournament

    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    left = args.left if args.left is not None else max(2, args.entries // 10)
    tid = args.tournament or build(args.entries, args.seats, left)
    n_entries = Entry.objects.filter(tournament_id=tid).count()
    n_events = Event.objects.filter(tournament_id=tid).count()

    text, ex_s, ex_cpu, ex_q, _ = run(export, tid)
    passes = [f" ·{i}{time.time_ns()}" for i in range(3)]  # one set of new players a pass
    doc = elsewhere(text, passes[0])
    copy, im_s, im_cpu, im_q, _ = run(restore, doc)
    wrong = same(tid, copy, doc)
    *_, ex_mem = run(export, tid, memory=True)
    copy2, *_, im_mem = run(restore, elsewhere(text, passes[1]), memory=True)
    copies = [copy, copy2]
    if args.profile:
        run(export, tid, profile=True)
        copies.append(run(restore, elsewhere(text, passes[2]), profile=True)[0])
    Tournament.objects.filter(pk__in=copies).delete()  # the copies, then their players
    for mark in passes:
        Player.objects.filter(name__endswith=mark).delete()

    mb = 1024 * 1024
    print(
        f"\nbackup of a tournament of {n_entries} entries and {n_events} events on {db}: "
        f"document {len(text.encode()) / mb:.1f} MB"
    )
    print(f"{'':<10}{'seconds':>10}{'CPU s':>8}{'queries':>10}{'peak MB':>10}   target")
    misses = []
    for name, s, cpu, q, mem, target in (
        ("export", ex_s, ex_cpu, ex_q, ex_mem, EXPORT_S),
        ("import", im_s, im_cpu, im_q, im_mem, IMPORT_S),
    ):
        ok = s <= target
        mark = "✓" if ok else "✗"
        print(f"{name:<10}{s:>10.2f}{cpu:>8.2f}{q:>10}{mem / mb:>10.1f}   <= {target:g} s {mark}")
        if not ok:
            misses.append(f"{name} {s:.2f} s > {target:g} s")
    print("the copy equals the original: " + ("yes ✓" if not wrong else "NO ✗"))
    rss = worker_memory(tid)
    if rss is not None:
        ok = rss[3] <= WORKER_MB
        print(
            f"a web worker serving the export, RSS MB: loaded {rss[0]}, holding it {rss[1]}, "
            f"freed {rss[2]}, given back {rss[3]} (<= {WORKER_MB} {'✓' if ok else '✗'})"
        )
        if not ok:
            misses.append(f"worker memory {rss[3]} MB > {WORKER_MB} MB")
    for w in wrong:
        print("  " + w)
    if n_entries < 10000:
        print(f"(targets are for 10,000 entries; this run has {n_entries})")
    if misses or wrong:
        print("MISS: " + "; ".join(misses + (["the copy differs"] if wrong else [])))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
