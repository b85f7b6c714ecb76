"""The clients of the fault run, as a card room's would behave: eight desks registering
players and a director recording busts, through the API with bearer tokens (docs/api.md).
Every write carries an `Idempotency-Key`; on any error or timeout it is sent again with the
same key and the same body until an answer comes (a desk on card-room Wi-Fi does not know
whether the first one went through). What each client finally saw is kept, to be compared
with the database after the run."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import requests

# A desk waits this long for an answer, then sends again; it gives up after GIVE_UP seconds.
CONNECT_TIMEOUT, READ_TIMEOUT = 2.0, 3.0
GIVE_UP = 45.0
# A repeat arriving while the first request still runs (docs/api.md): try again shortly.
IN_USE = "idempotency_key_in_use"
# One registration in this many is followed by a request that reuses its key with another
# name, as a desk with a bug would: the app must refuse it (422) and write nothing.
REUSE_EVERY = 12


@dataclass
class Outcome:
    """One write as the client saw it: the answer it ended with (None: none before giving up),
    and whether an earlier attempt may have run (a timeout, a reset, a 5xx)."""

    kind: str  # "register", "reuse" (same key, another body) or "bust"
    key: str
    body: dict
    subject: str | int  # the player's name, or the entry busted
    status: int | None = None
    answer: dict = field(default_factory=dict)
    attempts: int = 0
    unsure_before: bool = False
    replayed: bool = False


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def add(self, name: str) -> None:
        with self.lock:
            self.counts[name] += 1


def _retry_reason(r: requests.Response) -> str | None:
    if r.status_code >= 500 or r.status_code == 429:
        return f"http {r.status_code}"
    if r.status_code == 409 and _code(r) == IN_USE:
        return IN_USE
    return None


def _code(r: requests.Response) -> str:
    try:
        return r.json().get("error", {}).get("code", "")
    except ValueError:
        return ""


class Api:
    """One client's connection to the app, with its token."""

    def __init__(self, base: str, token: str, stats: Stats) -> None:
        self.base, self.stats = base, stats
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def get(self, path: str) -> requests.Response:
        """A read, asked again on an error until GIVE_UP; the last answer or error."""
        deadline = time.monotonic() + GIVE_UP
        while True:
            try:
                r = self.session.get(self.base + path, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
                if r.status_code < 500 or time.monotonic() > deadline:
                    return r
            except requests.RequestException:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.3)

    def write(self, path: str, body: dict, *, kind: str, subject, key: str | None = None):
        out = Outcome(kind, key or str(uuid.uuid4()), body, subject)
        deadline = time.monotonic() + GIVE_UP
        backoff = 0.1
        while True:
            out.attempts += 1
            self.stats.add("requests")
            try:
                r = self.session.post(
                    self.base + path,
                    json=body,
                    headers={"Idempotency-Key": out.key},
                    timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                )
            except requests.Timeout:
                reason = "timeout"
            except requests.RequestException:  # refused, reset, an answer cut short
                reason = "connection error"
            else:
                reason = _retry_reason(r)
                if reason is None:
                    out.status = r.status_code
                    out.answer = r.json() if r.content else {}
                    out.replayed = r.headers.get("Idempotent-Replayed") == "true"
                    return out
            if time.monotonic() > deadline:
                return out
            out.unsure_before = True
            self.stats.add("retries")
            self.stats.add(f"retry: {reason}")
            time.sleep(backoff)
            backoff = min(backoff * 2, 2.0)


class Desks:
    """Eight desks and the director, run against tournament ``tid`` until ``stop`` is set."""

    def __init__(self, base: str, tokens: dict, tid: int, seed: int, stats: Stats) -> None:
        self.base, self.tokens, self.tid, self.seed, self.stats = base, tokens, tid, seed, stats
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.outcomes: list[Outcome] = []
        self.in_play: list[int] = []  # entries the desks saw registered, not busted since
        self.errors: list[BaseException] = []

    def _keep(self, o: Outcome) -> None:
        with self.lock:
            self.outcomes.append(o)

    def desk(self, n: int) -> None:
        api = Api(self.base, self.tokens["desks"][n - 1], self.stats)
        rng = random.Random(self.seed * 100 + n)
        path = f"/api/v1/tournaments/{self.tid}/entries"
        i = 0
        while not self.stop.is_set():
            i += 1
            name = f"Desk {n} player {i:03d}"
            o = api.write(path, {"name": name}, kind="register", subject=name)
            self._keep(o)
            if o.status == 201:
                with self.lock:
                    self.in_play.append(o.answer["id"])
            if i % REUSE_EVERY == 0:
                other = f"Desk {n} reused key {i:03d}"
                again = api.write(path, {"name": other}, kind="reuse", subject=other, key=o.key)
                self._keep(again)
            time.sleep(rng.uniform(0.05, 0.4))

    def director(self) -> None:
        api = Api(self.base, self.tokens["director"], self.stats)
        rng = random.Random(self.seed)
        path = f"/api/v1/tournaments/{self.tid}/eliminations"
        while not self.stop.wait(rng.uniform(0.8, 1.6)):
            with self.lock:
                if len(self.in_play) < 12:
                    continue
                entry = self.in_play.pop(rng.randrange(len(self.in_play)))
            body = {"entries": [{"id": entry, "starting_stack": 20000}]}
            self._keep(api.write(path, body, kind="bust", subject=entry))

    def _guarded(self, fn, *args) -> None:
        try:
            fn(*args)
        except BaseException as exc:  # noqa: BLE001 — reported by the test
            self.errors.append(exc)

    def start(self) -> None:
        self.threads = [threading.Thread(target=self._guarded, args=(self.director,))]
        self.threads += [
            threading.Thread(target=self._guarded, args=(self.desk, n)) for n in range(1, 9)
        ]
        for t in self.threads:
            t.start()

    def finish(self) -> None:
        """Stop sending new writes; the ones under way go on until they get their answer."""
        self.stop.set()
        for t in self.threads:
            t.join(GIVE_UP + 15)
