"""Issue 24, faults tested: a card room's processes (gunicorn with two workers, two Celery
workers, one beat: docs/deploy.md) on PostgreSQL and Redis, while eight desks register players
through the API, the clock runs through short levels and the director records busts. At
seeded random moments a gunicorn worker, each Celery worker and beat are SIGKILLed (the
workers and beat restarted, gunicorn's master restarts its own), PostgreSQL is restarted once
and Redis flushed once; the desks' network loses a few answers on the way back. The clients
send every write again with its Idempotency-Key on any error or timeout. Afterwards what the
clients saw must be what the database holds: nothing doubled, nothing refused yet written,
the seating sound, the clock's transitions each recorded once where its anchors put them, and
the display answering.

Restarting PostgreSQL drops every connection on the machine, so this runs only when asked:
`make faults` (RUN_FAULTS=1), never beside other PostgreSQL tests. FAULTS_SEED picks the
moments (24 unless set)."""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from datetime import datetime, timedelta

import pytest
import requests

from tests.faults.cluster import (
    PG_ADMIN,
    REDIS,
    Cluster,
    Faults,
    LossyLink,
    ScratchDatabase,
    reachable,
)
from tests.faults.desks import Api, Desks, Stats

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(
        os.environ.get("RUN_FAULTS") != "1",
        reason="restarts PostgreSQL: runs only with RUN_FAULTS=1 (make faults)",
    ),
    pytest.mark.skipif(
        bool(os.environ.get("PYTEST_XDIST_WORKER")),
        reason="restarts PostgreSQL: runs alone, never beside other test processes (make faults)",
    ),
]

SEED = int(os.environ.get("FAULTS_SEED", "24"))
LEVEL_SECONDS, SHORT_LEVELS = 4, 12
# Desks, director and faults run this long; the short levels end before it, so the clock
# stands in its last, long level when the run is read.
CHAOS_SECONDS = 52
# Faults fall between these seconds of the run, so everything has time to come back.
FAULTS_FROM, FAULTS_UNTIL = 4.0, 42.0
# The desks' network loses this share of the answers (the request ran, the reply is gone).
LOST_ANSWERS = 0.03
SETTLE_SECONDS = 20  # for the transitions missed at the end to be recorded (sweep: 5 s)


def _levels() -> list[dict]:
    short = [
        {"kind": "level", "small_blind": 100 * i, "big_blind": 200 * i, "seconds": LEVEL_SECONDS}
        for i in range(1, SHORT_LEVELS + 1)
    ]
    return [*short, {"kind": "level", "small_blind": 2000, "big_blind": 4000, "seconds": 3600}]


@pytest.fixture
def cluster(tmp_path):
    """The scratch database, migrated, with the logins, and every process started."""
    for url, port in ((PG_ADMIN, 5432), (REDIS, 6379)):
        assert reachable("127.0.0.1", port), f"RUN_FAULTS=1 but {url} is unreachable"
    db = ScratchDatabase()
    db.create()
    c = Cluster(db.url, tmp_path)
    try:
        c.manage("manage.py", "migrate", "--noinput")
        tokens = _last_json(c.manage("-m", "tests.faults.probe", "setup"))
        c.start()
        yield c, tokens
    finally:
        c.stop()
        db.drop()


def _last_json(out: str):
    return json.loads(out.strip().splitlines()[-1])


def _plan(rng: random.Random, faults: Faults) -> list[tuple[float, str, object]]:
    """Three gunicorn worker kills, each Celery worker and beat once, PostgreSQL, Redis."""
    plan = [("kill gunicorn worker", faults.kill_web_worker)] * 3
    plan += [
        ("kill Celery worker 1", lambda: faults.kill_celery_worker(0)),
        ("kill Celery worker 2", lambda: faults.kill_celery_worker(1)),
        ("kill beat", faults.kill_beat),
        ("restart PostgreSQL", faults.restart_postgres),
        ("FLUSHALL Redis", faults.flush_redis),
    ]
    rng.shuffle(plan)
    moments = sorted(rng.uniform(FAULTS_FROM, FAULTS_UNTIL) for _ in plan)
    return [(at, name, fn) for at, (name, fn) in zip(moments, plan, strict=True)]


def _tournament(director: Api) -> tuple[int, str]:
    """The event, its clock started before the first registration (every entry is a late
    one: RULES 1.3), and its display token."""
    body = {
        "name": "Faults",
        "seats_per_table": 9,
        "tables": 2,
        "starting_stack": 20000,
        "buy_in": 5000,
        "fee": 500,
        "seed": SEED,
        "levels": _levels(),
        "late_reg_until": SHORT_LEVELS,
    }
    made = director.write("/api/v1/tournaments", body, kind="setup", subject="")
    assert made.status == 201, made.answer
    tid = made.answer["id"]
    started = director.write(
        f"/api/v1/tournaments/{tid}/clock", {"action": "start"}, kind="setup", subject=""
    )
    assert started.status == 200, started.answer
    token = director.write(
        f"/api/v1/tournaments/{tid}/display-token/rotate", {}, kind="setup", subject=""
    )
    assert token.status == 200, token.answer
    return tid, token.answer["display_token"]


def test_what_the_desks_saw_is_what_the_database_holds_through_kills_and_restarts(cluster):
    c, tokens = cluster
    began = time.monotonic()
    director = Api(c.base, tokens["director"], Stats())
    tid, display_token = _tournament(director)
    stats = Stats()
    rng = random.Random(SEED)
    faults = Faults(c, rng)
    link = LossyLink(c.port, random.Random(SEED + 1), LOST_ANSWERS)
    link.start()
    desks = Desks(f"http://127.0.0.1:{link.port}", tokens, tid, SEED, stats)
    t0 = time.monotonic()
    desks.start()
    try:
        for at, _name, fault in _plan(rng, faults):
            time.sleep(max(0.0, t0 + at - time.monotonic()))
            fault()
        time.sleep(max(0.0, t0 + CHAOS_SECONDS - time.monotonic()))
    finally:
        desks.finish()
        link.close()
    c.wait_web()
    down = [p.name for p in (*c.workers, c.beat) if not p.alive()]
    facts = _last_json(c.manage("-m", "tests.faults.probe", "facts", str(tid), str(SETTLE_SECONDS)))
    clock = director.get(f"/api/v1/tournaments/{tid}/clock")
    display = requests.get(f"{c.base}/display/{display_token}/state.json", timeout=10)

    problems = [f"not running after the faults: {name}" for name in down]
    problems += [f"a client crashed: {exc!r}" for exc in desks.errors]
    regs, dup_regs = _registrations(desks.outcomes, facts)
    busts, dup_busts = _busts(desks.outcomes, facts)
    problems += regs + busts + _seating(facts) + _clock(facts, clock) + _display(facts, display)
    counts = {
        "seed": SEED,
        "requests": stats.counts["requests"],
        "retries": stats.counts["retries"],
        "retry reasons": {k[7:]: v for k, v in stats.counts.items() if k.startswith("retry: ")},
        "answers replayed": sum(o.replayed for o in desks.outcomes),
        "registrations seen": Counter(str(o.status) for o in desks.outcomes if o.kind != "bust"),
        "busts seen": Counter(str(o.status) for o in desks.outcomes if o.kind == "bust"),
        "entries": len(facts["entries"]),
        "level transitions": len(facts["transitions"]),
        "faults injected": len(faults.done),
        "answers lost on the way": link.lost,
        "duplicates found": dup_regs + dup_busts,
        "seconds": round(time.monotonic() - began),
    }
    print("\n== fault run\n" + "\n".join(faults.done))
    print(json.dumps(counts, indent=1, default=dict))
    print("\n".join(problems) or "no problem found")
    assert len(faults.done) == 8, faults.done
    assert problems == [], problems
    assert counts["duplicates found"] == 0


def _by_name(facts: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for e in facts["entries"]:
        out.setdefault(e["name"], []).append(e)
    return out


def _registrations(outcomes, facts: dict) -> tuple[list[str], int]:
    """Every registration seen succeed exists once, as the answer said; none seen refused
    exists; no entry nobody asked for. Returns the problems and the doubles."""
    problems, doubles = [], 0
    stored = _by_name(facts)
    asked = set()
    for o in outcomes:
        if o.kind == "bust":
            continue
        asked.add(o.subject)
        rows = stored.get(o.subject, [])
        if o.status is None:
            problems.append(f"{o.subject}: no answer after {o.attempts} attempts")
        elif o.status == 201:
            doubles += max(0, len(rows) - 1)
            if len(rows) != 1:
                problems.append(f"{o.subject}: registered once, {len(rows)} entries")
            elif rows[0]["id"] != o.answer["id"]:
                problems.append(f"{o.subject}: answered entry {o.answer['id']}, stored {rows}")
        elif rows:
            doubles += len(rows)
            problems.append(f"{o.subject}: answered {o.status} {o.answer}, yet stored {rows}")
    problems += [f"{name}: stored, never asked for" for name in stored if name not in asked]
    return problems, doubles


def _busts(outcomes, facts: dict) -> tuple[list[str], int]:
    """Every bust seen succeed is recorded once and the entry is out; none seen refused is."""
    problems, doubles = [], 0
    recorded = Counter(e for busts in facts["busts"] for e in busts)
    status = {e["id"]: e["status"] for e in facts["entries"]}
    asked = set()
    for o in outcomes:
        if o.kind != "bust":
            continue
        asked.add(o.subject)
        n = recorded[o.subject]
        if o.status is None:
            problems.append(f"bust of entry {o.subject}: no answer after {o.attempts} attempts")
        elif o.status == 200:
            doubles += max(0, n - 1)
            if n != 1 or status.get(o.subject) != "busted":
                problems.append(f"bust of entry {o.subject}: seen once, recorded {n} times")
        elif n:
            doubles += n
            problems.append(f"bust of entry {o.subject}: answered {o.status} {o.answer}, yet out")
    problems += [f"entry {e}: busted, never asked for" for e in recorded if e not in asked]
    return problems, doubles


def _seating(facts: dict) -> list[str]:
    """No seat shared, every player in exactly one seat and nobody else seated, the tables'
    counters right, and the sizes within the tolerance (RULES 3.1)."""
    problems = []
    seats = Counter((s["table"], s["seat"]) for s in facts["seats"])
    problems += [f"seat {k} shared by {n}" for k, n in seats.items() if n > 1]
    by_entry = Counter(s["entry"] for s in facts["seats"])
    for e in facts["entries"]:
        want = 1 if e["status"] == "seated" else 0
        if e["status"] not in ("seated", "busted"):
            problems.append(f"entry {e['id']} is {e['status']}")
        if by_entry[e["id"]] != want:
            problems.append(f"entry {e['id']} ({e['status']}) has {by_entry[e['id']]} seats")
    for s in facts["seats"]:
        if s["table_status"] != "open" or not 1 <= s["seat"] <= s["table_seats"]:
            problems.append(f"seat {s} is no seat of an open table")
    at = Counter(str(s["table"]) for s in facts["seats"])
    counters = facts["open_tables"]
    if any(at[n] != players for n, players in counters.items()):
        problems.append(f"table counters {counters} differ from the seats {dict(at)}")
    if counters and max(counters.values()) - min(counters.values()) > facts["tolerance"]:
        problems.append(f"tables {counters} beyond the tolerance {facts['tolerance']}")
    return problems


def _clock(facts: dict, clock: requests.Response) -> list[str]:
    """The anchor the start wrote is still the clock's; every transition up to where it says
    the clock is was recorded once, at the time it was due; the API answers the same."""
    problems = []
    anchor = facts["anchor"]
    if [a["kind"] for a in facts["clock_actions"]] != ["clock_start"]:
        problems.append(f"clock actions: {facts['clock_actions']}")
    elif facts["clock_actions"][0]["after"] != anchor:
        problems.append(f"anchor {anchor} is not the start's {facts['clock_actions'][0]}")
    if not facts["settled"]:
        problems.append(f"announced {facts['clock_announced']} of {facts['state_index']}")
    if facts["state_index"] != SHORT_LEVELS:
        problems.append(f"the clock is at index {facts['state_index']}, not {SHORT_LEVELS}")
    at = datetime.fromisoformat(anchor["at"])
    seen = Counter(t["index"] for t in facts["transitions"])
    if sorted(seen) != list(range(1, facts["state_index"] + 1)) or set(seen.values()) != {1}:
        problems.append(f"transitions recorded: {sorted(seen.elements())}")
    for t in facts["transitions"]:
        due = at + timedelta(milliseconds=sum(facts["item_ms"][: t["index"]]))
        if t["due"] != due.isoformat():
            problems.append(f"transition {t['index']} due {t['due']}, anchors say {due}")
    if clock.status_code != 200:
        return [*problems, f"GET clock: {clock.status_code} {clock.text[:300]}"]
    got = clock.json()
    server = datetime.fromisoformat(got["server_time"].replace("Z", "+00:00"))
    idx = facts["state_index"]
    ends = at + timedelta(milliseconds=sum(facts["item_ms"][: idx + 1]))
    left = (ends - server).total_seconds() * 1000
    if got["level_index"] != idx or abs(got["remaining_ms"] - left) > 50:
        problems.append(
            f"GET clock {got['level_index']}, {got['remaining_ms']} ms; anchors: "
            f"{idx}, {left:.0f} ms"
        )
    return problems


def _display(facts: dict, display: requests.Response) -> list[str]:
    if display.status_code != 200:
        return [f"display state: {display.status_code} {display.text[:300]}"]
    got = display.json()
    seated = sum(e["status"] == "seated" for e in facts["entries"])
    want = {
        "level_index": facts["state_index"],
        "entries": len(facts["entries"]),
        "players_left": seated,
    }
    have = {k: got.get(k) for k in want}
    return [] if have == want else [f"display state {have}, database {want}"]
