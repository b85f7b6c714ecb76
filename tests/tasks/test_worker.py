"""Issue 4: a real Celery worker advances the levels. The worker is another process, so these
tests commit their rows (transaction=True) into a database the worker can open (a file for
SQLite, the test database for PostgreSQL), on the embedded broker or Redis, whichever the
environment configures."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone

from tourney import services
from tourney.models import Event
from tourney.tasks import clock_sweep, clock_tick

ROOT = Path(__file__).resolve().parents[2]
QUICK = [{"kind": "level", "small_blind": 100, "big_blind": 200, "seconds": 2}] * 12


def _db_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    user = s.get("USER") or "postgres"
    auth = f"{user}:{s['PASSWORD']}@" if s.get("PASSWORD") else f"{user}@"
    return f"postgres://{auth}{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


class Worker:
    """A Celery worker with an embedded beat (the sweep), as `make run` runs them."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.proc: subprocess.Popen | None = None
        self.n = 0

    def start(self) -> None:
        self.n += 1
        self.log = self.tmp / f"worker{self.n}.log"
        env = dict(
            os.environ, DATABASE_URL=_db_url(), CLOCK_SWEEP_SECONDS="0.5", PYTHONUNBUFFERED="1"
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tourney",
                "worker",
                "-B",
                "-s",
                str(self.tmp / "beat-schedule"),
                "--pool=threads",
                "--concurrency=2",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"t{self.n}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if "ready." in self.log.read_text():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError("worker did not start:\n" + self.log.read_text()[-3000:])

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture
def worker(tmp_path):
    w = Worker(tmp_path)
    yield w
    w.kill()


def _started(tid: int) -> dict[int, Event]:
    out = {}
    for e in Event.objects.filter(tournament_id=tid, kind="level_started"):
        assert e.payload["index"] not in out, "a transition was recorded twice"
        out[e.payload["index"]] = e
    return out


def _lateness(e: Event) -> float:
    from datetime import datetime

    due = datetime.fromisoformat(e.payload["due"])
    return (e.created_at - due).total_seconds()


def _wait_for(tid: int, index: int, seconds: float) -> Event:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = _started(tid)
        if index in got:
            return got[index]
        time.sleep(0.05)
    raise AssertionError(f"level index {index} was not recorded; events: {sorted(_started(tid))}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_worker_records_each_level_within_a_second_even_after_a_kill(director, worker):
    worker.start()
    t = services.tournament_create(actor=director, name="Quick", tables=0, levels=QUICK)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)

    second = _wait_for(t.pk, 1, 6)
    assert 0 <= _lateness(second) <= 1.0, second.payload

    worker.kill()  # mid-level: the next ETA task dies with it
    time.sleep(2.5)  # level index 2 starts while no worker runs
    assert 2 not in _started(t.pk) or _lateness(_started(t.pk)[2]) <= 1.0
    worker.start()
    missed = _wait_for(t.pk, 2, 10)
    assert missed.payload["index"] == 2
    # after the restart the clock is back on time
    nxt = max(_started(t.pk)) + 1
    later = _wait_for(t.pk, nxt, 6)
    assert 0 <= _lateness(later) <= 1.0, later.payload
    # each transition once, and the clock itself never lost time
    t.refresh_from_db()
    state = services.clock_read(t)
    elapsed_ms = (timezone.now() - t.clock_at).total_seconds() * 1000
    assert state.index == min(int((2000 - t.clock_left_ms + elapsed_ms) // 2000), 11)
    assert len(_started(t.pk)) == len(set(_started(t.pk)))


@pytest.mark.django_db(transaction=True)
def test_tick_twice_and_sweep_concurrently_record_one_event(director):
    t = services.tournament_create(actor=director, name="Idem", tables=0, levels=QUICK)
    past = timezone.now() - timedelta(seconds=5)  # started 5 s ago: index 2 is running
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=past)
    errors = []

    def run(fn):
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 — collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(lambda: clock_tick(t.pk, 1),)),
        threading.Thread(target=run, args=(lambda: clock_tick(t.pk, 1),)),
        threading.Thread(target=run, args=(clock_sweep,)),
        threading.Thread(target=run, args=(clock_sweep,)),
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert errors == []
    got = _started(t.pk)
    assert sorted(got) == [1, 2]
    assert Event.objects.filter(tournament=t, kind="level_started").count() == 2
    # and later runs record nothing more
    assert clock_tick(t.pk, 1) == []
    assert clock_sweep() == 0


def test_worker_uses_the_configured_broker():
    url = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
    assert settings.CELERY_BROKER_URL == url
