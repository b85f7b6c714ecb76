"""Speed of the display state endpoint (issue 9) behind 2 gunicorn workers.

Run: .venv/bin/python benchmarks/display.py [--rate 200] [--seconds 10] [--players 200]
                                          [--write-every 5]

Seeds a tournament in a scratch SQLite database (or the configured DATABASE_URL), starts
gunicorn on a free 127.0.0.1 port, then measures
  1. the unchanged-state path (If-None-Match → 304): median and p99, sequential;
  2. a room: --rate screens each polling once a second (--rate requests/s, open loop: request
     k leaves at start + k / rate whatever the earlier ones do) for --seconds, from a second
     process (a Python thread pool with http.client). Each screen keeps its own ETag and
     takes the new one from every 200 it gets, as display.js does. Meanwhile a third process
     records a bust through services.elimination_record every --write-every seconds (its
     balancing moves included), so after each change every screen fetches the whole new
     state within about a second: the 200s come in a herd, as in a card room.
The p99 of all answers (304s and 200s together) is checked against the target, and the p99 of
the answers in the 1.5 s after each write is printed beside it.
Targets (issue 9): 304 median ≤ 2 ms; p99 of all answers under load ≤ 20 ms; (issue 11) each
web process ≤ 200 MB resident after the load. Exits non-zero on a miss.
Not wrk: wrk 4.1 sends as fast as its connections allow (no fixed rate) and one header for
all, so it can neither pace 200 screens nor let each keep its own ETag.
The cache is Redis when REDIS_URL is set (as in production: one state built per change for
both workers), else each worker's local memory; the output says which.
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

# The third process: a bust every `every` seconds, the first `first` seconds after wall-clock
# time `start` (half a period, so each herd of 200s falls inside the load), the table draws and
# balancing moves it causes part of the write; each timed.
WRITER = """
import django, json, sys, time
django.setup()
from tables.models import Seat
from tourney import services
from tourney.models import Tournament
t = Tournament.objects.get(display_token={token!r})
start, first, every, count = {start!r}, {first!r}, {every!r}, {count!r}
writes = []
for k in range(count):
    delay = start + first + k * every - time.time()
    if delay > 0:
        time.sleep(delay)
    seat = Seat.objects.filter(tournament=t).order_by("-table__number", "-number").first()
    if seat is None:
        break
    began = time.time()
    services.elimination_record(tournament_id=t.pk, busts=[(seat.entry_id, 1000)])
    writes.append([began, (time.time() - began) * 1000])
json.dump(writes, sys.stdout)
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


def load(port: int, path: str, etag: str, rate: float, seconds: float, start: float) -> dict:
    """Open loop from wall-clock time ``start``: request k is sent at start + k / rate,
    whatever the earlier ones do, by screen k mod rate (so each screen polls once a second)
    with the ETag that screen holds; a 200 gives that screen the new one."""
    total = int(rate * seconds)
    screens = max(1, int(rate))
    held = [etag] * screens
    # status, ms at the client, sent at (wall clock), ms inside the app (Server-Timing)
    results: list[tuple[int, float, float, float]] = []
    lock = threading.Lock()

    def one(k: int) -> None:
        delay = start + k / rate - time.time()
        if delay > 0:
            time.sleep(delay)
        screen = k % screens
        sent = time.time()
        app = 0.0
        try:
            status, ms, headers = get(port, path, held[screen])
            if status == 200 and headers.get("etag"):
                held[screen] = headers["etag"]
            if "dur=" in headers.get("server-timing", ""):
                app = float(headers["server-timing"].split("dur=")[1])
        except (OSError, ValueError):
            status, ms = 0, 0.0
        with lock:
            results.append((status, ms, sent, app))

    with ThreadPoolExecutor(max_workers=64) as pool:
        list(pool.map(one, range(total)))
    wall = time.time() - start
    return {"results": results, "wall": wall, "changes": len(set(held))}


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--write-every", type=float, default=5.0, help="seconds between busts")
    parser.add_argument(
        "--load", nargs=4, metavar=("PORT", "PATH", "ETAG", "START"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    args.rate = min(args.rate, 1000)
    args.seconds = min(args.seconds, 60)
    args.write_every = max(args.write_every, 0.5)
    if args.load:
        port, path, etag, start = args.load
        out = load(int(port), path, etag, args.rate, args.seconds, float(start))
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

        # The load and the writer start together, a little later (both processes import).
        start = time.time() + 2.0
        first = min(args.write_every, args.seconds) / 2
        writes_n = max(1, int((args.seconds - first) // args.write_every) + 1)
        loader = subprocess.Popen(
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
                repr(start),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        writer = subprocess.Popen(
            [
                python,
                "-c",
                WRITER.format(
                    token=token, start=start, first=first, every=args.write_every, count=writes_n
                ),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        out = json.loads(loader.communicate(timeout=args.seconds + 60)[0])
        writes = json.loads(writer.communicate(timeout=args.seconds + 60)[0] or "[]")
        results = out["results"]
        ok = [ms for status, ms, _, _ in results if status in (200, 304)]
        errors = sum(1 for status, *_ in results if status not in (200, 304))
        by_status = {s: [ms for st, ms, _, _ in results if st == s] for s in (200, 304)}
        in_app = [app for status, _, _, app in results if status in (200, 304)]
        herd = [
            ms
            for status, ms, sent, _ in results
            if status in (200, 304) and any(0 <= sent - at <= 1.5 for at, _ in writes)
        ]
        achieved = len(results) / out["wall"]
        cache_kind = "Redis (REDIS_URL set)" if env.get("REDIS_URL") else "local memory per worker"
        print(
            f"load from a second process: {int(args.rate)} screens polling every second, "
            f"{achieved:.0f} requests/s for {out['wall']:.1f} s, {errors} errors; "
            f"cache: {cache_kind}"
        )
        print(
            f"writes from a third process: {len(writes)} busts, one every {args.write_every:g} s"
            + (f" (each {statistics.median(w for _, w in writes):.0f} ms median)" if writes else "")
            + f"; {len(by_status[200])} full states sent"
        )
        print(summary("load, all answers", ok))
        for s, times in by_status.items():
            if times:
                print(summary(f"load, {s}", times))
        if herd:
            print(summary("load, within 1.5 s after a write", herd))
        print(summary("load, all answers, in the app", in_app))

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
            misses.append(f"load p99 (all answers) > {TARGET_LOAD_P99_MS} ms")
        if writes_n and not writes:
            misses.append("no write during the load")
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
