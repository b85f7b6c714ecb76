"""Speed of the polled public states (issues 9 and 30) behind 2 gunicorn workers: the TV
display's and the lobby display's (issue 28).

Run: .venv/bin/python benchmarks/display.py [--rate 1000] [--seconds 10] [--players 200]
                [--write-every 5] [--lobby 0.5] [--events 6] [--procs 1] [--dump FILE]

Seeds a tournament (and a lobby showing it beside --events - 1 registering events) in a
scratch SQLite database (or the configured DATABASE_URL), starts gunicorn (gunicorn.conf.py,
two workers) on a free 127.0.0.1 port, then measures
  1. the unchanged-state path (If-None-Match → 304): median and p99, sequential;
  2. a room: --rate screens each polling once a second (--rate requests/s, open loop: request
     k leaves at start + k / rate whatever the earlier ones do) for --seconds. The screens
     are played by --procs load processes, each an asyncio loop sending one HTTP/1.1 request
     per fresh connection (Connection: close, as a browser whose keep-alive has lapsed in the
     second between two polls), so the load costs a fraction of a core and never waits for an
     answer before sending the next request; the output gives the load processes' own CPU and
     how late they sent (if they fall behind, the figures are the generator's, not the
     server's). Each screen keeps its own ETag and takes the new one from every 200 it gets,
     as display.js does; a --lobby share of the screens (spread among the others) poll the
     lobby's state (lobby.js), the others the tournament's. Meanwhile a third process records a bust
     through services.elimination_record every --write-every seconds (its balancing moves
     included), which changes both states, so after each change every screen fetches the
     whole new state within about a second: the 200s come in a herd, as in a card room.
The p99 of all answers (304s and 200s together) is checked against the target, and the p99 of
the answers in the 1.5 s after each write is printed beside it, with the web workers' CPU time
per request (from /proc, a figure a loaded machine disturbs less than the latencies). An
answer a worker gave from its own copy, before Django's middleware (tourney/polls_wsgi.py),
says so in its Server-Timing (desc="copy"); --dump keeps every answer for a closer look.
Targets (issues 9 and 30): 304 median ≤ 2 ms; p99 of all answers under load ≤ 20 ms, no
error; (issue 30) each web process ≤ 150 MB resident after the load. Exits non-zero on a miss.
Not wrk: wrk 4.1 sends as fast as its connections allow (no fixed rate) and one header for
all, so it can neither pace the screens nor let each keep its own ETag.
The cache is Redis when REDIS_URL is set (as in production: one state built per change for
both workers), else each worker's local memory; the output says which.
Bounded: at most about (30 + seconds) s and rate × seconds + 2,000 requests, 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
TARGET_304_MEDIAN_MS = 2.0
TARGET_LOAD_P99_MS = 20.0
TARGET_RSS_MB = 150  # issue 30: a web worker after the loads
TIMEOUT_S = 10.0

SEED = """
import django, sys
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0, interactive=False)
from tourney import services
from tourney.services import lobbies
t = services.tournament_create(actor=None, name="Bench display", tables={tables}, seed=1)
for i in range({players}):
    services.entry_register(tournament_id=t.pk, name=f"Player {{i:04d}} Bench")
services.clock_action(tournament_id=t.pk, action="start")
t.refresh_from_db()
ids = [t.pk]
for k in range(1, {events}):  # the lobby's other events, still registering
    e = services.tournament_create(actor=None, name=f"Bench event {{k}}", tables=3, buy_in=100)
    for i in range(5 * k):
        services.entry_register(tournament_id=e.pk, name=f"Guest {{k}}-{{i}}")
    ids.append(e.pk)
lobby = lobbies.lobby_create(name="Bench lobby", tournament_ids=ids)
print(t.display_token, lobby.token)
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


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def worker_rss_mb(master: int) -> dict[str, float]:
    """Resident memory of the gunicorn master and each worker (Linux /proc)."""
    out = {"master": _rss_mb(master)}
    for i, pid in enumerate(worker_pids(master), start=1):
        out[f"worker {i}"] = _rss_mb(pid)
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the processes so far (/proc/<pid>/stat, clock ticks)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get(port: int, path: str, etag: str | None = None) -> tuple[int, float, dict[str, str]]:
    headers = {"If-None-Match": etag} if etag else {}
    start = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT_S)
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
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name:36} n={len(times):>5}  median {statistics.median(times):7.2f} ms"
        f"  p99 {pct(times, 0.99):7.2f} ms  max {max(times):7.2f} ms"
    )


# ---------------------------------------------------------------- the load processes


class _Get(asyncio.Protocol):
    """One request on a fresh connection; the answer is what the server sent until it closed."""

    def __init__(self, request: bytes, done: asyncio.Future) -> None:
        self.request, self.done, self.chunks = request, done, []

    def connection_made(self, transport) -> None:
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)

    def connection_lost(self, exc) -> None:
        if not self.done.done():
            self.done.set_result(b"".join(self.chunks))


def parse(raw: bytes) -> tuple[int, dict[str, str]]:
    """Status and headers of an HTTP/1.1 answer; 0 when it is cut short (the body shorter
    than its Content-Length counts as an error too)."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not sep or len(lines[0].split()) < 2:
        return 0, {}
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if int(headers.get("content-length", len(body))) != len(body):
        return 0, headers
    return int(lines[0].split()[1]), headers


async def _one(port: int, path: str, etag: str) -> tuple[int, float, dict[str, str]]:
    loop = asyncio.get_running_loop()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n"
        f"If-None-Match: {etag}\r\n\r\n"
    ).encode("latin-1")
    began = time.perf_counter()
    done = loop.create_future()
    try:
        transport, _ = await loop.create_connection(lambda: _Get(request, done), HOST, port)
        try:
            raw = await asyncio.wait_for(done, TIMEOUT_S)
        finally:
            transport.close()
        status, headers = parse(raw)
    except (OSError, TimeoutError, ValueError):
        status, headers = 0, {}
    return status, (time.perf_counter() - began) * 1000, headers


async def _load(opts: dict) -> dict:
    """Open loop from wall-clock time ``start``: request k leaves at start + k / rate, whatever
    the earlier ones do, by screen k mod screens (each screen polls once a second) with the
    ETag that screen holds; a 200 gives that screen the new one. This process sends the
    requests k ≡ part (mod parts), the screens ≡ part (mod parts) when parts divides rate."""
    rate, start, port = opts["rate"], opts["start"], opts["port"]
    screens = max(1, int(rate))
    share = opts["lobby_share"]  # the lobby's screens spread evenly among the others
    lobby = [int((s + 1) * share) > int(s * share) for s in range(screens)]
    paths = [opts["lobby_path"] if lobby[s] else opts["path"] for s in range(screens)]
    held = [opts["lobby_etag"] if lobby[s] else opts["etag"] for s in range(screens)]
    # status, ms at the client, sent at (wall clock), ms inside the app, lobby?, sent late ms,
    # answered from the worker's copy before Django?
    results: list[tuple[int, float, float, float, bool, float]] = []

    async def one(k: int, due: float) -> None:
        screen = k % screens
        sent = time.time()
        status, ms, headers = await _one(port, paths[screen], held[screen])
        if status == 200 and headers.get("etag"):
            held[screen] = headers["etag"]
        timing = headers.get("server-timing", "")
        app = float(timing.split("dur=")[1].split(";")[0]) if "dur=" in timing else 0.0
        copy = 'desc="copy"' in timing  # answered before Django (tourney/polls_wsgi.py)
        results.append((status, ms, sent, app, lobby[screen], (sent - due) * 1000, copy))

    tasks = set()
    total = int(rate * opts["seconds"])
    k = opts["part"]
    while k < total:
        now = time.time()
        while k < total and start + k / rate <= now:
            task = asyncio.create_task(one(k, start + k / rate))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            k += opts["parts"]
        if k < total:
            await asyncio.sleep(max(0.0, start + k / rate - time.time()))
    while tasks:
        await asyncio.gather(*list(tasks))
    return {"results": results, "changes": len(set(held))}


def load(opts: dict) -> dict:
    cpu = time.process_time()
    out = asyncio.run(_load(opts))
    out["wall"] = time.time() - opts["start"]
    out["cpu"] = time.process_time() - cpu
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def start_loaders(args, port: int, paths: dict, start: float) -> list[subprocess.Popen]:
    loaders = []
    for part in range(args.procs):
        opts = {
            "port": port,
            "rate": args.rate,
            "seconds": args.seconds,
            "start": start,
            "lobby_share": args.lobby,
            "part": part,
            "parts": args.procs,
            **paths,
        }
        loaders.append(
            subprocess.Popen(
                [sys.executable, __file__, "--load", json.dumps(opts)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    return loaders


def gather_loads(loaders: list[subprocess.Popen], seconds: float) -> dict:
    outs = [json.loads(p.communicate(timeout=seconds + 60)[0]) for p in loaders]
    return {
        "results": [r for out in outs for r in out["results"]],
        "wall": max(out["wall"] for out in outs),
        "cpu": sum(out["cpu"] for out in outs),
    }


# ---------------------------------------------------------------- main


def environment(scratch: Path) -> dict[str, str]:
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
        WEB_CONCURRENCY="2",  # issue 30: two workers, whatever the database
    )
    env.setdefault("DATABASE_URL", f"sqlite:///{scratch / 'bench.sqlite3'}")
    return env


def start_server(env: dict, port: int, path: str) -> tuple[subprocess.Popen, dict] | None:
    """gunicorn with gunicorn.conf.py (its access log to /dev/null: the log's cost stays in
    the figures, its lines leave the output), once it answers; None if it does not."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    server = subprocess.Popen(
        [gunicorn, "-c", "gunicorn.conf.py", "-b", f"{HOST}:{port}", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            status, _, headers = get(port, path)
            if status == 200:
                return server, headers
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.terminate()
            return None
        time.sleep(0.2)


def sequential(port: int, path: str, etag: str) -> tuple[list[float], list[float]]:
    """The unchanged state 2,000 times one after the other: ms at the client and in the app."""
    seq, app = [], []
    for _ in range(2000):
        status, ms, headers = get(port, path, etag)
        assert status == 304, status
        seq.append(ms)
        app.append(float(headers["server-timing"].split("dur=")[1].split(";")[0]))
    return seq, app


def report_load(args, out: dict, writes: list, cpu_workers: float, env: dict) -> list[float]:
    """Print the load's figures; the times of every answer that came."""
    results = out["results"]
    ok = [r[1] for r in results if r[0] in (200, 304)]
    errors = sum(1 for r in results if r[0] not in (200, 304))
    achieved = len(results) / out["wall"]
    cache_kind = "Redis (REDIS_URL set)" if env.get("REDIS_URL") else "local memory per worker"
    print(
        f"load from {args.procs} process(es): {int(args.rate)} screens polling every second "
        f"({args.lobby:.0%} the lobby), {achieved:.0f} requests/s for {out['wall']:.1f} s, "
        f"{errors} errors; cache: {cache_kind}"
    )
    late = [r[5] for r in results]
    print(
        f"the load processes' own CPU: {out['cpu'] / out['wall']:.0%} of a core; sent late "
        f"(behind the schedule) median {statistics.median(late):.2f} ms, "
        f"p99 {pct(late, 0.99):.2f} ms"
    )
    print(
        f"writes from a third process: {len(writes)} busts, one every {args.write_every:g} s"
        + (f" (each {statistics.median(w for _, w in writes):.0f} ms median)" if writes else "")
        + f"; {sum(1 for r in results if r[0] == 200)} full states sent"
    )
    print(
        f"web workers' CPU during the load: {cpu_workers / out['wall']:.0%} of a core, "
        f"{cpu_workers / max(1, len(results)) * 1000:.2f} ms a request"
    )
    print(summary("load, all answers", ok))
    for name, pick in (
        ("load, 200", lambda r: r[0] == 200),
        ("load, 304", lambda r: r[0] == 304),
        ("load, lobby", lambda r: r[4] and r[0] in (200, 304)),
        ("load, display", lambda r: not r[4] and r[0] in (200, 304)),
        (
            "load, within 1.5 s after a write",
            lambda r: r[0] in (200, 304) and any(0 <= r[2] - at <= 1.5 for at, _ in writes),
        ),
    ):
        times = [r[1] for r in results if pick(r)]
        if times and len(times) < len(ok) or name == "load, 200":
            print(summary(name, times or [0.0]))
    print(summary("load, all answers, in the app", [r[3] for r in results if r[0] in (200, 304)]))
    return ok


def run_load(args, env: dict, server: subprocess.Popen, port: int, paths: dict, token: str):
    """The room: the load processes and the writer start together, a little later (both
    import first); returns the load's output, the writes and the workers' CPU seconds."""
    start = time.time() + 2.5
    first = min(args.write_every, args.seconds) / 2
    writes_n = max(1, int((args.seconds - first) // args.write_every) + 1)
    loaders = start_loaders(args, port, paths, start)
    writer = subprocess.Popen(
        [
            sys.executable,
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
    pids = worker_pids(server.pid)
    time.sleep(max(0.0, start - time.time()))
    cpu_before = cpu_seconds(pids)
    out = gather_loads(loaders, args.seconds)
    cpu_workers = cpu_seconds(pids) - cpu_before
    writes = json.loads(writer.communicate(timeout=args.seconds + 60)[0] or "[]")
    return out, writes, cpu_workers, writes_n


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=1000, help="screens (requests/s)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--events", type=int, default=6, help="events the lobby shows")
    parser.add_argument("--write-every", type=float, default=5.0, help="seconds between busts")
    parser.add_argument("--lobby", type=float, default=0.5, help="share of screens on the lobby")
    parser.add_argument("--procs", type=int, default=1, help="load processes")
    parser.add_argument(
        "--dump",
        help="a JSON file for every answer (status, ms, sent at, ms in the app, lobby?, "
        "ms late, from the copy?) and the writes",
    )
    parser.add_argument("--load", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.rate = max(1, min(args.rate, 2000))
    args.seconds = min(args.seconds, 60)
    args.write_every = max(args.write_every, 0.5)
    args.lobby = min(max(args.lobby, 0.0), 1.0)
    args.procs = min(max(args.procs, 1), 4)
    args.events = min(max(args.events, 1), 24)
    return args


def seed(args, env: dict) -> tuple[str, str] | None:
    """The tournament's display token and the lobby's, or None (the error printed)."""
    code = SEED.format(
        players=args.players, tables=max(1, -(-args.players // 9)), events=args.events
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return None
    token, lobby_token = done.stdout.strip().splitlines()[-1].split()
    return token, lobby_token


def measure_sequential(args, server, port: int, paths: dict) -> list[float]:
    """Warm both workers, then the sequential figures; the 304s' times."""
    path, etag, lobby_path, lobby_etag = (
        paths[k] for k in ("path", "etag", "lobby_path", "lobby_etag")
    )
    for _ in range(50):  # warm both workers' caches
        get(port, path, etag)
        get(port, lobby_path, lobby_etag)
    fresh = [get(port, path)[1] for _ in range(200)]
    pids = worker_pids(server.pid)
    cpu = cpu_seconds(pids)
    seq, app = sequential(port, path, etag)
    cpu = (cpu_seconds(pids) - cpu) / len(seq) * 1000
    print(f"state endpoint, {args.players} players, 2 gunicorn workers, {HOST}:{port}")
    print(summary("full state (200), sequential", fresh))
    print(summary("unchanged (304), sequential", seq))
    print(summary("unchanged (304), in the app", app))
    print(f"unchanged (304), the web workers' CPU: {cpu:.3f} ms a request")
    lobby_seq = sequential(port, lobby_path, lobby_etag)[0]
    print(summary("lobby, unchanged (304), sequential", lobby_seq))
    return seq


def missed(rss: dict, seq: list[float], ok: list[float], errors: int, wrote: bool) -> list[str]:
    misses = []
    if max(rss.values(), default=0) > TARGET_RSS_MB:
        misses.append(f"a web process above {TARGET_RSS_MB} MB")
    if statistics.median(seq) > TARGET_304_MEDIAN_MS:
        misses.append(f"304 median > {TARGET_304_MEDIAN_MS} ms")
    if pct(ok, 0.99) > TARGET_LOAD_P99_MS:
        misses.append(f"load p99 (all answers) > {TARGET_LOAD_P99_MS} ms")
    if not wrote:
        misses.append("no write during the load")
    if errors:
        misses.append(f"{errors} failed requests")
    return misses


def main() -> int:
    args = arguments()
    if args.load:
        json.dump(load(json.loads(args.load)), sys.stdout)
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="tourney-bench-"))
    env = environment(scratch)
    server = None
    try:
        tokens = seed(args, env)
        if tokens is None:
            return 2
        token, lobby_token = tokens
        port = free_port()
        path, lobby_path = f"/display/{token}/state.json", f"/lobby/{lobby_token}/state.json"
        started = start_server(env, port, path)
        if started is None:
            print("gunicorn did not come up", file=sys.stderr)
            return 2
        server, headers = started
        lobby_etag = get(port, lobby_path)[2]["etag"]
        paths = {"path": path, "etag": headers["etag"], "lobby_path": lobby_path}
        paths["lobby_etag"] = lobby_etag
        seq = measure_sequential(args, server, port, paths)

        out, writes, cpu_workers, writes_n = run_load(args, env, server, port, paths, token)
        ok = report_load(args, out, writes, cpu_workers, env)
        if args.dump:
            Path(args.dump).write_text(json.dumps({"results": out["results"], "writes": writes}))
        rss = worker_rss_mb(server.pid)
        print(
            "web process memory after the load (RSS, MB): "
            + ", ".join(f"{name} {mb:.0f}" for name, mb in rss.items())
        )
        errors = len(out["results"]) - len(ok)
        misses = missed(rss, seq, ok, errors, bool(writes) or not writes_n)
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
