"""Speed of the display state endpoint (issue 9) behind 2 gunicorn workers.

Run: .venv/bin/python benchmarks/display.py [--rate 200] [--seconds 10] [--players 200]

Seeds a tournament in a scratch SQLite database (or the configured DATABASE_URL), starts
gunicorn on a free 127.0.0.1 port, then measures
  1. the unchanged-state path (If-None-Match → 304): median and p99, sequential;
  2. a load of --rate requests/s for --seconds from a second process (wrk when installed,
     else a Python thread pool with http.client): 95% polls holding the current ETag (304),
     5% screens without one (200 with the whole state).
Targets (issue 9): 304 median ≤ 2 ms; p99 under load ≤ 20 ms; (issue 11) each web process
≤ 200 MB resident after the load. Exits non-zero on a miss.
Bounded: at most about (20 + seconds) s and rate × seconds + 2,000 requests, 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
TARGET_304_MEDIAN_MS = 2.0
TARGET_LOAD_P99_MS = 20.0
TARGET_RSS_MB = 200  # issue 11: the web process under this load

SEED = """
import django, sys
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0, interactive=False)
from tourney import services
t = services.tournament_create(actor=None, name="Bench display", tables={tables}, seed=1)
for i in range({players}):
    services.entry_register(tournament_id=t.pk, name=f"Player {{i:04d}} Bench")
services.clock_action(tournament_id=t.pk, action="start")
t.refresh_from_db()
print(t.display_token)
"""


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker_rss_mb(master: int) -> dict[str, float]:
    """Resident memory of the gunicorn master and each worker (Linux /proc)."""
    out = {"master": _rss_mb(master)}
    children = Path(f"/proc/{master}/task/{master}/children")
    pids = children.read_text().split() if children.exists() else []
    for i, pid in enumerate(pids, start=1):
        out[f"worker {i}"] = _rss_mb(int(pid))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get(port: int, path: str, etag: str | None = None) -> tuple[int, float, dict[str, str]]:
    headers = {"If-None-Match": etag} if etag else {}
    start = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        resp.read()
        elapsed = (time.perf_counter() - start) * 1000
        return resp.status, elapsed, {k.lower(): v for k, v in resp.getheaders()}
    finally:
        conn.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name:36} n={len(times):>5}  median {statistics.median(times):7.2f} ms"
        f"  p99 {pct(times, 0.99):7.2f} ms  max {max(times):7.2f} ms"
    )


# ---------------------------------------------------------------- the load process


def load(port: int, path: str, etag: str, rate: float, seconds: float) -> dict:
    """Open loop: request k is sent at start + k / rate, whatever the earlier ones do."""
    total = int(rate * seconds)
    results: list[tuple[int, float]] = []
    lock = threading.Lock()
    start = time.perf_counter() + 0.2

    def one(k: int) -> None:
        delay = start + k / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        try:
            status, ms, _ = get(port, path, None if k % 20 == 0 else etag)
        except OSError:
            status, ms = 0, 0.0
        with lock:
            results.append((status, ms))

    with ThreadPoolExecutor(max_workers=64) as pool:
        list(pool.map(one, range(total)))
    wall = time.perf_counter() - start
    return {"results": results, "wall": wall}


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--load", nargs=3, metavar=("PORT", "PATH", "ETAG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.rate = min(args.rate, 1000)
    args.seconds = min(args.seconds, 60)
    if args.load:
        port, path, etag = args.load
        out = load(int(port), path, etag, args.rate, args.seconds)
        json.dump(out, sys.stdout)
        return 0

    scratch = Path(tempfile.mkdtemp(prefix="tourney-bench-"))
    env = dict(os.environ)
    env.update(
        TOURNEY_VAR_DIR=str(scratch),
        DJANGO_SETTINGS_MODULE="tourney.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_COOKIES="0",
        DJANGO_SSL_REDIRECT="0",  # plain HTTP on loopback
        LOG_LEVEL="WARNING",
    )
    env.setdefault("DATABASE_URL", f"sqlite:///{scratch / 'bench.sqlite3'}")
    python = sys.executable
    gunicorn = str(Path(python).with_name("gunicorn"))
    server = None
    try:
        seed = SEED.format(players=args.players, tables=max(1, -(-args.players // 9)))
        done = subprocess.run(
            [python, "-c", seed], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 2
        token = done.stdout.strip().splitlines()[-1]
        port = free_port()
        server = subprocess.Popen(
            [gunicorn, "tourney.wsgi", "-w", "2", "-b", f"{HOST}:{port}", "--log-level", "warning"],
            cwd=ROOT,
            env=env,
        )
        path = f"/display/{token}/state.json"
        deadline = time.monotonic() + 20
        while True:
            try:
                status, _, headers = get(port, path)
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("gunicorn did not come up", file=sys.stderr)
                return 2
            time.sleep(0.2)
        etag = headers["etag"]
        for _ in range(50):  # warm both workers' caches
            get(port, path, etag)

        fresh = [get(port, path)[1] for _ in range(200)]
        seq, app = [], []
        for _ in range(2000):
            status, ms, headers = get(port, path, etag)
            assert status == 304, status
            seq.append(ms)
            app.append(float(headers["server-timing"].split("dur=")[1]))
        print(f"state endpoint, {args.players} players, 2 gunicorn workers, {HOST}:{port}")
        print(summary("full state (200), sequential", fresh))
        print(summary("unchanged (304), sequential", seq))
        print(summary("unchanged (304), in the app", app))

        if shutil.which("wrk"):
            wrk = subprocess.run(
                [
                    "wrk",
                    "-t2",
                    "-c16",
                    f"-d{int(args.seconds)}s",
                    "--latency",
                    "-H",
                    f"If-None-Match: {etag}",
                    f"http://{HOST}:{port}{path}",
                ],
                capture_output=True,
                text=True,
                timeout=args.seconds + 30,
            )
            print("wrk (unpaced, 16 connections):\n" + wrk.stdout)

        child = subprocess.run(
            [
                python,
                __file__,
                "--rate",
                str(args.rate),
                "--seconds",
                str(args.seconds),
                "--load",
                str(port),
                path,
                etag,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=args.seconds + 60,
        )
        out = json.loads(child.stdout)
        ok = [ms for status, ms in out["results"] if status in (200, 304)]
        errors = sum(1 for status, _ in out["results"] if status not in (200, 304))
        by_status = {s: [ms for st, ms in out["results"] if st == s] for s in (200, 304)}
        achieved = len(out["results"]) / out["wall"]
        print(
            f"load from a second process: {achieved:.0f} requests/s for {out['wall']:.1f} s, "
            f"{errors} errors"
        )
        print(summary("load, all answers", ok))
        for s, times in by_status.items():
            if times:
                print(summary(f"load, {s}", times))

        rss = worker_rss_mb(server.pid)
        print(
            "web process memory after the load (RSS, MB): "
            + ", ".join(f"{name} {mb:.0f}" for name, mb in rss.items())
        )
        misses = []
        if max(rss.values(), default=0) > TARGET_RSS_MB:
            misses.append(f"a web process above {TARGET_RSS_MB} MB")
        if statistics.median(seq) > TARGET_304_MEDIAN_MS:
            misses.append(f"304 median > {TARGET_304_MEDIAN_MS} ms")
        if pct(ok, 0.99) > TARGET_LOAD_P99_MS:
            misses.append(f"load p99 > {TARGET_LOAD_P99_MS} ms")
        if errors:
            misses.append(f"{errors} failed requests")
        print("targets: " + ("MISS " + "; ".join(misses) if misses else "ok"))
        return 1 if misses else 0
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
