"""The processes of a card room, as docs/deploy.md runs them: gunicorn with two workers, two
Celery workers and one beat, on a scratch PostgreSQL database of their own and Redis; and the
faults done to them. Every process runs in a session of its own, so a kill takes its children
with it (a Celery worker's pool) and nothing outlives the run."""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("FAULTS_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("FAULTS_REDIS_URL", "redis://127.0.0.1:6379")
# Redis databases of the run's own (the broker, the cache): `make test` uses 0 and 1 and up.
BROKER_DB, CACHE_DB = 12, 13
PG_RESTART = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -n1) main restart"


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ScratchDatabase:
    """A database made for the run and dropped after it: never `test`, which other runs use."""

    def __init__(self) -> None:
        self.name = f"tourney_faults_{os.getpid()}"
        base = PG_ADMIN.rsplit("/", 1)[0]
        self.url = f"{base}/{self.name}"

    def create(self) -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        for _ in range(20):  # right after a restart the server may still refuse connections
            try:
                with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=2) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                return
            except psycopg.OperationalError:
                time.sleep(0.5)


class Process:
    """One long-running process (its whole session): start, wait for a line, kill."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], logs: Path, ready: str):
        self.name, self.argv, self.env, self.logs, self.ready = name, argv, env, logs, ready
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self, wait: float = 60) -> None:
        self.starts += 1
        self.log = self.logs / f"{self.name}.{self.starts}.log"
        self.proc = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.ready in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{self.name} did not start:\n{self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.starts else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (gunicorn's workers under its master)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid …": comm may hold spaces, so split after its last ")"
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d.name))
    return sorted(out)


class Cluster:
    """gunicorn (2 workers), Celery workers w1 and w2, beat; the environment they share."""

    WEB_WORKERS = 2

    def __init__(self, db_url: str, logs: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        for name in ("CLOCK_SWEEP_SECONDS", "PYTEST_XDIST_WORKER", "DJANGO_SETTINGS_MODULE"):
            env.pop(name, None)  # the shipped sweep (5 s); no test-process leftovers
        env.update(
            DATABASE_URL=db_url,
            CELERY_BROKER_URL=f"{REDIS}/{BROKER_DB}",
            REDIS_URL=f"{REDIS}/{CACHE_DB}",
            DJANGO_DEBUG="0",
            DJANGO_SECRET_KEY="faults-" + "k" * 40,
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            DJANGO_SSL_REDIRECT="0",
            DJANGO_SECURE_COOKIES="0",
            TOURNEY_VAR_DIR=str(logs / "var"),
            TIME_ZONE="UTC",
            PYTHONUNBUFFERED="1",
        )
        self.env = env
        bin_dir = Path(sys.executable).parent
        celery = [str(bin_dir / "celery"), "-A", "tourney"]
        self.web = Process(
            "web",
            [
                str(bin_dir / "gunicorn"),
                "tourney.wsgi",
                "-w",
                str(self.WEB_WORKERS),
                "-b",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "info",
            ],
            env,
            logs,
            ready="Booting worker",
        )
        self.workers = [
            Process(
                f"worker{n}",
                [*celery, "worker", "--loglevel=INFO", "--concurrency=2", "-n", f"w{n}@%h"],
                env,
                logs,
                ready="ready.",
            )
            for n in (1, 2)
        ]
        self.beat = Process(
            "beat",
            [*celery, "beat", "--loglevel=INFO", "-s", str(logs / "beat-schedule")],
            env,
            logs,
            ready="beat: Starting",
        )

    def manage(self, *args: str, timeout: float = 120) -> str:
        """``python <args>`` in the cluster's environment (manage.py, the probe)."""
        done = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
        return done.stdout

    def start(self) -> None:
        self.web.start()
        for w in self.workers:
            w.start()
        self.beat.start()
        self.wait_web()

    def wait_web(self, wait: float = 30) -> None:
        """Until both gunicorn workers run and one answers."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if len(self.web_workers()) == self.WEB_WORKERS and reachable("127.0.0.1", self.port):
                return
            time.sleep(0.2)
        raise AssertionError("gunicorn workers did not come back:\n" + self.web.tail())

    def web_workers(self) -> list[int]:
        return children(self.web.proc.pid) if self.web.alive() else []

    def stop(self) -> None:
        for p in (self.beat, *self.workers, self.web):
            p.kill(signal.SIGTERM)
        self.flush_own()

    def flush_own(self) -> None:
        try:
            for db in (BROKER_DB, CACHE_DB):
                redis.Redis.from_url(f"{REDIS}/{db}").flushdb()
        except redis.RedisError:
            pass


class Faults:
    """The faults, each done once when called; ``done`` lists them in order."""

    def __init__(self, cluster: Cluster, rng) -> None:
        self.cluster, self.rng = cluster, rng
        self.done: list[str] = []

    def kill_web_worker(self) -> None:
        pid = self.rng.choice(self.cluster.web_workers())
        os.kill(pid, signal.SIGKILL)  # the master starts another
        self.done.append(f"SIGKILL gunicorn worker {pid}")

    def kill_celery_worker(self, n: int) -> None:
        w = self.cluster.workers[n]
        w.kill()
        time.sleep(self.rng.uniform(0.5, 3))
        w.start()
        self.done.append(f"SIGKILL Celery {w.name}, restarted")

    def kill_beat(self) -> None:
        self.cluster.beat.kill()
        time.sleep(self.rng.uniform(0.5, 3))
        self.cluster.beat.start()
        self.done.append("SIGKILL beat, restarted")

    def restart_postgres(self) -> None:
        # Every connection to the server drops: the web workers', the Celery workers'.
        done = subprocess.run(["sh", "-c", PG_RESTART], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        self.done.append("PostgreSQL restarted")

    def flush_redis(self) -> None:
        redis.Redis.from_url(REDIS).flushall()  # the broker's queues and bindings, the cache
        self.done.append("Redis FLUSHALL")


class LossyLink:
    """The desks' network: a TCP relay in front of gunicorn that loses the answer of one
    request in ``1 / share``. The request reaches the app and runs; its answer is read and
    thrown away, and the client's connection is reset, as card-room Wi-Fi drops a reply:
    the client cannot tell whether its write happened."""

    def __init__(self, upstream: int, rng, share: float) -> None:
        self.upstream, self.rng, self.share = upstream, rng, share
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        self.lost = 0

    def start(self) -> None:
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            with self.lock:
                lose = self.rng.random() < self.share
            threading.Thread(target=self._relay, args=(client, lose), daemon=True).start()

    def _relay(self, client: socket.socket, lose: bool) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream), timeout=60)
        except OSError:
            client.close()
            return
        ahead = threading.Thread(target=_pump, args=(client, upstream), daemon=True)
        ahead.start()
        answered = _pump(upstream, None if lose else client)
        if lose and answered:
            with self.lock:
                self.lost += 1
            # a reset, not a clean close: the client sees a connection error
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        try:
            client.shutdown(socket.SHUT_RD)  # wakes the relay of the request, which ends
        except OSError:
            pass
        ahead.join(5)
        client.close()
        upstream.close()


def _pump(src: socket.socket, dst: socket.socket | None) -> bool:
    """Copy until ``src`` ends (``dst`` None: read and drop). Whether anything came."""
    got = False
    try:
        while data := src.recv(65536):
            got = True
            if dst is not None:
                dst.sendall(data)
    except OSError:
        pass
    if dst is not None:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    return got
