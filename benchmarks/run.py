"""Every benchmark of the project in one run, printing each one's figures.

    .venv/bin/python benchmarks/run.py [--quick]

Each script runs in its own process (they set up their own scratch databases); set
DATABASE_URL / CELERY_BROKER_URL to measure on PostgreSQL and Redis. --quick shortens the
slow ones (fewer boundaries, entries and requests)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main() -> int:
    quick = "--quick" in sys.argv
    runs = [
        ("floor engines (issue 5)", ["floor.py"]),
        ("seating engine (issue 3)", ["seating.py"]),
        (
            "seating services (issue 3)",
            ["seating_services.py"]
            + (["--entries", "3000", "--eliminations", "50"] if quick else []),
        ),
        ("clock and structure engines (issue 4)", ["clock_structure.py"]),
        (
            "clock with a real worker (issue 4)",
            ["clock.py"] + (["--boundaries", "10"] if quick else []),
        ),
        ("public display (issue 9)", ["display.py"] + (["--seconds", "3"] if quick else [])),
        (
            "screens at scale (issue 11)",
            ["pages.py"]
            + (["--small", "300", "--large", "3000", "--repeat", "3"] if quick else []),
        ),
        ("simulation (issue 11)", ["simulation.py"] + (["--entries", "1000"] if quick else [])),
        (
            "twenty events' clocks on one worker (issue 30)",
            ["events.py"] + (["--seconds", "10", "--sizes", "1,20"] if quick else []),
        ),
        (
            "backup export and import (issue 30)",
            ["backup.py"] + (["--entries", "1000"] if quick else []),
        ),
    ]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, database "
        f"{os.environ.get('DATABASE_URL', 'sqlite (scratch)').split(':')[0]}"
    )
    failed = 0
    for title, cmd in runs:
        script = HERE / cmd[0]
        if not script.exists():
            print(f"\n== {title}: {cmd[0]} missing")
            continue
        print(f"\n== {title}: python benchmarks/{' '.join(cmd)}", flush=True)
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, str(script), *cmd[1:]], cwd=ROOT)
        print(f"   ({time.perf_counter() - t0:.1f} s, exit {r.returncode})")
        failed += r.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
