"""What the benchmark scripts share: Django set up on the given database or a scratch SQLite
file, in production settings, and one Celery worker with embedded beat."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(
    prefix: str, *, tmp: Path | None = None, flush: bool = False, freeze: bool = False
) -> bool:
    """Django on ``DATABASE_URL`` if set (a database the script may fill; emptied first with
    ``flush``), else a scratch SQLite file in ``tmp`` (a new temporary folder by default),
    migrated, in production settings (no per-query debug bookkeeping). ``freeze``: the objects
    loaded so far kept out of the garbage collector's passes, as the web and worker processes
    do (tourney/wsgi.py). True when the database was given."""
    tmp = tmp or Path(tempfile.mkdtemp(prefix=prefix))
    given = "DATABASE_URL" in os.environ
    os.environ.setdefault("TOURNEY_VAR_DIR", str(tmp))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-" + "x" * 40)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if given and flush:
        call_command("flush", interactive=False, verbosity=0)
    if freeze:
        import gc

        gc.freeze()
    return given


def start_worker(tmp: Path) -> subprocess.Popen:
    """ONE Celery worker with embedded beat (threads pool, concurrency 2), its output in
    ``tmp``/worker.log, in a session of its own (stopped with its whole group)."""
    log = (tmp / "worker.log").open("w")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tourney",
            "worker",
            "-B",
            "-s",
            str(tmp / "beat"),
            "--pool=threads",
            "--concurrency=2",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
