"""The whole-tournament simulation (issue 11) as a benchmark: time in all and per phase.

    .venv/bin/python benchmarks/simulation.py [--entries 10000] [--seats 10]

Uses DATABASE_URL if set (a database it may fill), else a scratch SQLite file. Target on
PostgreSQL for 10,000 entries: <= 60 s in all, every invariant kept (checked every 250 busts
and at the end); exits non-zero on a miss. On SQLite the figure is printed for comparison."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


TARGET_TOTAL_S = 60  # PostgreSQL, 10,000 entries


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--seats", type=int, default=10)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="sim-bench-"))
    # Production settings: no per-query debug bookkeeping.
    env = dict(
        os.environ,
        TOURNEY_VAR_DIR=str(tmp),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="benchmark-" + "x" * 40,
    )
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp}/sim.sqlite3")
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    r = subprocess.run(
        [
            py,
            "manage.py",
            "simulate",
            "--entries",
            str(args.entries),
            "--seats",
            str(args.seats),
            "--seed",
            "1",
            "--json",
            "--quiet",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        print(r.stdout[-2000:], r.stderr[-2000:])
        return 1
    s = json.loads(r.stdout)
    db = env["DATABASE_URL"].split(":", 1)[0]
    print(
        f"simulation of {s['entries']} entries on {db}: invariants "
        f"{'kept' if s['invariants_ok'] else 'BROKEN'}"
    )
    print(f"{'phase':<20}{'seconds':>10}")
    for k, v in s["seconds"].items():
        print(f"{k:<20}{v:>10.2f}")
    total = s["seconds"]["total"]
    if db.startswith("postgres") and args.entries >= 10000:
        met = total <= TARGET_TOTAL_S
        print(f"{'target (total)':<20}{'<= ' + str(TARGET_TOTAL_S):>10} {'✓' if met else '✗'}")
    else:
        met = True
        print(f"target (total): <= {TARGET_TOTAL_S} s on PostgreSQL at 10,000 entries")
    return 0 if met and s["invariants_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
