"""Issue 4: a real Celery worker advances the levels. The worker is another process, so these
tests commit their rows (transaction=True) into a database the worker can open (a file for
SQLite, the test database for PostgreSQL), on the embedded broker or Redis, whichever the
environment configures. Every test that starts a worker is in this file: `make test` hands
pytest-xdist's processes whole files (--dist loadfile), so they run one at a time, as two
workers on one broker would take each other's ETA ticks. The worker runs with the shipped
sweep interval (5 s) unless a test says otherwise: a much shorter sweep would hide a broken
ETA path."""

from __future__ import annotations

import os
import re
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
from tourney.models import Event, Tournament
from tourney.tasks import clock_sweep, clock_tick

ROOT = Path(__file__).resolve().parents[2]
QUICK = [{"kind": "level", "small_blind": 100, "big_blind": 200, "seconds": 2}] * 12
ANCHOR = ("clock_index", "clock_left_ms", "clock_at", "clock_running", "clock_started")


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
        self.ready_at = 0.0  # time.monotonic() when the last start was ready

    def start(self, sweep: str | None = None) -> None:
        """Start and wait until ready and its start-up sweep (tourney/celery.py) has run.
        ``sweep``: CLOCK_SWEEP_SECONDS; None, the shipped default."""
        self.n += 1
        self.log = self.tmp / f"worker{self.n}.log"
        env = dict(os.environ, DATABASE_URL=_db_url(), PYTHONUNBUFFERED="1")
        env.pop("CLOCK_SWEEP_SECONDS", None)
        if sweep is not None:
            env["CLOCK_SWEEP_SECONDS"] = sweep
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
            text = self.log.read_text()
            if "ready." in text and self.ready_at == 0.0:
                self.ready_at = time.monotonic()
            if self.ready_at and _SWEPT.search(text):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("worker did not start:\n" + self.log.read_text()[-3000:])

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.ready_at = 0.0


_SWEPT = re.compile(r"tourney\.tasks\.clock_sweep\[[^\]]+\] succeeded")


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


def _anchor(tid: int) -> tuple:
    return tuple(Tournament.objects.filter(pk=tid).values_list(*ANCHOR).get())


def _due(t0, ms: int) -> str:
    return (t0 + timedelta(milliseconds=ms)).isoformat()


def _assert_each_once(tid: int) -> list[int]:
    """Every recorded transition once, and none skipped: indexes 1..n, n rows."""
    indexes = sorted(_started(tid))
    assert indexes == list(range(1, len(indexes) + 1)), indexes
    assert Event.objects.filter(tournament_id=tid, kind="level_started").count() == len(indexes)
    return indexes


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_worker_records_each_level_within_a_second_even_after_a_kill(director, worker):
    worker.start()  # the shipped sweep: 5 s
    t = services.tournament_create(actor=director, name="Quick", tables=0, levels=QUICK)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    anchor = _anchor(t.pk)
    t0 = anchor[2]

    second = _wait_for(t.pk, 1, 6)
    assert 0 <= _lateness(second) <= 1.0, second.payload
    assert second.payload["due"] == _due(t0, 2000)

    worker.kill()  # mid-level: the ETA tasks it held die with it
    killed = timezone.now()
    time.sleep(2.5)  # level index 2 starts while no worker runs
    assert 2 not in _started(t.pk)  # nobody recorded it: the kill was real
    worker.start()
    missed = _wait_for(t.pk, 2, 10)
    # recorded once the worker was back, with the time it was due (not when it was seen)
    assert missed.created_at > killed + timedelta(seconds=2)
    assert missed.payload["due"] == _due(t0, 4000)
    # after the restart the clock is back on time
    nxt = max(_started(t.pk)) + 1
    later = _wait_for(t.pk, nxt, 6)
    assert 0 <= _lateness(later) <= 1.0, later.payload
    assert later.payload["due"] == _due(t0, 2000 * nxt)
    # each transition once, and the worker never moved the clock: the anchor the start wrote
    # is the one the clock still runs from (RULES 4.3)
    assert _assert_each_once(t.pk)[-1] >= nxt
    assert _anchor(t.pk) == anchor


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_and_restarted_within_one_level_is_on_time_for_the_next(director, worker):
    """The worker dies and is back before the next boundary: the ticks it held are gone, and
    with the shipped 5 s sweep only its start-up sweep or the beat's queues them again."""
    worker.start()
    levels = [{"kind": "level", "small_blind": 100, "big_blind": 200, "seconds": 10}] * 4
    t = services.tournament_create(actor=director, name="Restart", tables=0, levels=levels)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    anchor = _anchor(t.pk)
    first = _wait_for(t.pk, 1, 13)
    assert 0 <= _lateness(first) <= 1.0, first.payload
    worker.kill()
    worker.start()
    boundary = anchor[2] + timedelta(seconds=20)
    back = timezone.now()
    assert back < boundary - timedelta(seconds=1), "the restart took a whole level"
    assert 2 not in _started(t.pk)
    second = _wait_for(t.pk, 2, 13)
    assert 0 <= _lateness(second) <= 1.0, second.payload
    assert second.payload["due"] == boundary.isoformat()
    _assert_each_once(t.pk)
    assert _anchor(t.pk) == anchor


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_eta_ticks_alone_keep_time_with_a_sweep_a_minute_apart(director, worker):
    """With the beat's sweep 60 s apart only the ETA ticks can be on time: those the start
    and each announcement queue, and after a restart those its start-up sweep queues."""
    worker.start(sweep="60")
    levels = [{"kind": "level", "small_blind": 100, "big_blind": 200, "seconds": 2}] * 3
    levels += [{"kind": "level", "small_blind": 200, "big_blind": 400, "seconds": 12}] * 2
    t = services.tournament_create(actor=director, name="ETA", tables=0, levels=levels)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    anchor = _anchor(t.pk)
    for index in (1, 2, 3):
        got = _wait_for(t.pk, index, 5)
        assert 0 <= _lateness(got) <= 1.0, got.payload
    worker.kill()  # 0-1 s into the 12-s level index 3
    worker.start(sweep="60")
    boundary = anchor[2] + timedelta(seconds=18)
    assert timezone.now() < boundary - timedelta(seconds=1), "the restart took a whole level"
    got = _wait_for(t.pk, 4, 14)
    assert 0 <= _lateness(got) <= 1.0, got.payload
    assert got.payload["due"] == boundary.isoformat()
    _assert_each_once(t.pk)
    assert _anchor(t.pk) == anchor


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


def test_the_embedded_broker_never_shows_a_half_written_message(tmp_path, monkeypatch):
    """kombu's filesystem transport made the message file before writing it; a worker that
    read it empty stopped for good (celery/kombu#1551). tourney/celery.py writes it aside
    and renames it into place: while the payload is serialised no message file exists."""
    from kombu import Connection
    from kombu.transport import filesystem

    visible = []
    real_dumps = filesystem.dumps

    def spy(obj):
        visible.append(sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".msg")))
        return real_dumps(obj)

    monkeypatch.setattr(filesystem, "dumps", spy)
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path)}
    with Connection("filesystem://", transport_options=options) as conn:
        queue = conn.SimpleQueue("clock-test")
        during = []
        for tick in (1, 2):
            n = len(visible)
            queue.put({"tick": tick})
            during.append(visible[n:])
        # while message k is serialised only the k messages before it are visible, whole
        assert during[0] and all(v == [] for v in during[0]), during
        assert during[1] and all(len(v) == 1 for v in during[1]), during
        got = [queue.get(timeout=2), queue.get(timeout=2)]
        assert sorted(m.payload["tick"] for m in got) == [1, 2]  # same ms: either order
        for m in got:
            m.ack()
        queue.close()
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.django_db
def test_a_tick_for_a_tournament_deleted_since_ends_quietly(director, caplog):
    t = services.tournament_create(actor=director, name="Gone", tables=0, levels=QUICK)
    gone = t.pk
    t.delete()
    with caplog.at_level("INFO", logger="tourney.tasks"):
        assert clock_tick(gone, 1) == []
    assert [r.levelname for r in caplog.records if r.name == "tourney.tasks"] == ["INFO"]
    assert "no longer exists" in caplog.text
