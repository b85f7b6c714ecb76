"""A web worker's own copies of the polled public states (the TV display's, the lobby's):
what lets a thousand screens poll once a second on two workers (issue 30,
benchmarks/display.py).

Switched on by the web server's entry point (``tourney.wsgi``: ``enable()``); off, every
call goes straight to the shared cache as before (the tests, ``manage.py runserver``, a
shell). On, a worker keeps

* each token's version (the ETag, without the language) as the shared cache gave it, for as
  long as the cache itself keeps it (``read_at`` + the module's ETag time to live: a change
  shows no later than without the copy) and at most ``LOCAL_SECONDS``: so a poll answered with
  304 reads neither the cache nor the database. A rotated display token or a deleted lobby
  (``forget``) stops at once in the worker that did it, within ``LOCAL_SECONDS`` in the
  others;
* the bytes of each state it sent, by ETag, until the clocks outrun it (``outrun_at``,
  RULES 4.3) or ``STATE_SECONDS``, at most ``MAX_BYTES`` in all: the herd of 200s after a
  change costs a copy, not a cache read and a JSON encoding each.

One thread reads a version anew while the others go on answering from the copy they have
(stale for the few milliseconds of that read); when the version changed, that thread makes
the new state's bytes before the others see the new version. So the state is built once per
change and worker, and no request waits behind another's build but the one that builds.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import close_old_connections
from django.utils import translation

LOCAL_SECONDS = 0.25
STALE_SECONDS = 5.0  # a copy is never used longer past its time
STATE_SECONDS = 10.0
# A worker's bytes of states at most (a 10,000-player state is about 0.7 MB; issue 30: a web
# worker ≤ 150 MB resident): the oldest go first.
MAX_BYTES = 16 * 1024 * 1024
BUILD_WAIT_SECONDS = 2.0
BUILD_POLL_SECONDS = 0.005

_on = False
_versions: dict[tuple[str, str], tuple[float, Any]] = {}
_bodies: dict[tuple[str, str, str], Body] = {}
_locks: dict[tuple[str, str, str], threading.Lock] = {}
_guard = threading.Lock()
_queue: queue.SimpleQueue = queue.SimpleQueue()
_thread: threading.Thread | None = None
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Body:
    """A state as sent: its JSON bytes, its ETag (that of the row it was built from), when
    the clocks outrun it (ms since the epoch, None: never) and when it was made (monotonic)."""

    content: bytes
    etag: str
    outrun_at: int | None
    made: float

    def fresh(self, now_ms: int, now: float) -> bool:
        outrun = self.outrun_at is not None and now_ms >= self.outrun_at
        return not outrun and now - self.made < STATE_SECONDS


def enable(on: bool = True) -> None:
    """Keep the copies (the web server's workers), or stop and drop them."""
    global _on
    _on = on
    clear()


def clear() -> None:
    with _guard:
        _versions.clear()
        _bodies.clear()
        _locks.clear()


def forget(kind: str, token: str) -> None:
    """Drop this worker's copies of a token (with the cache's: a token rotated, a lobby
    changed or deleted)."""
    with _guard:
        _versions.pop((kind, token), None)
        for key in [k for k in _bodies if k[:2] == (kind, token)]:
            del _bodies[key]
        for key in [k for k in _locks if k[:2] == (kind, token)]:
            del _locks[key]


def _lock(kind: str, token: str, what: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault((kind, token, what), threading.Lock())


@dataclass(frozen=True, slots=True)
class Kind:
    """How a worker reads one kind of polled state anew by itself (the refresher thread):
    ``lookup(token)`` its version without the language (``etag``, ``read_at``) or None,
    ``spoken(version)`` in the active language, ``cached_state(token, spoken)``, the state's
    ``outrun_at``, the ETag's time to live in the shared cache. Each selector module
    registers its own (``register``)."""

    lookup: Callable
    spoken: Callable
    cached_state: Callable
    outrun_at: Callable
    ttl: float


KINDS: dict[str, Kind] = {}


def register(kind: str, spec: Kind) -> None:
    KINDS[kind] = spec


def version(kind: str, token: str, lookup: Callable, ttl: float, warm: Callable) -> Any:
    """``lookup(token)`` (a version with ``etag`` and ``read_at``, or None), from this
    worker's copy while it is fresh (the module's readings); ``warm(version)`` makes the
    bytes of a changed version before the other threads see it."""
    if not _on:
        return lookup(token)
    key = (kind, token)
    copy = _versions.get(key)
    if copy is not None and time.time() < copy[0]:
        return copy[1]
    # A copy that stayed stale past STALE_SECONDS: the thread reading it anew is stuck (a
    # database that does not answer); wait for it a while, then read it here.
    too_old = copy is None or time.time() > copy[0] + STALE_SECONDS
    lock = _lock(kind, token, "version")
    if not (lock.acquire(timeout=STALE_SECONDS) if too_old else lock.acquire(blocking=False)):
        return lookup(token) if too_old else copy[1]  # else: being read anew, a moment longer
    try:
        copy = _versions.get(key)
        if copy is not None and time.time() < copy[0]:
            return copy[1]
        return _renew(kind, token, lookup, ttl, lambda found: warm(found))
    finally:
        lock.release()


def _renew(kind: str, token: str, lookup: Callable, ttl: float, warm: Callable) -> Any:
    """Read a token's version anew into this worker's copy (its lock held)."""
    copy = _versions.get((kind, token))
    found = lookup(token)
    if found is None:
        _versions.pop((kind, token), None)
        with _guard:  # a wrong token (a rotated one) leaves nothing behind
            _locks.pop((kind, token, "version"), None)
        return None
    if copy is None or copy[1].etag != found.etag:
        warm(found)
    until = min(time.time() + LOCAL_SECONDS, found.read_at + ttl)
    _versions[(kind, token)] = (until, found)
    return found


def held_version(kind: str, token: str) -> Any:
    """This worker's copy of a token's version, even a stale one (up to STALE_SECONDS):
    then the refresher thread reads it anew, once, while the polls go on being answered
    from the copy (no request waits for that read, nor goes through Django meanwhile).
    None without a copy (then ``version`` reads it)."""
    copy = _versions.get((kind, token)) if _on else None
    if copy is None or kind not in KINDS:
        return None
    now = time.time()
    if now >= copy[0]:
        if now > copy[0] + STALE_SECONDS:
            return None
        lock = _lock(kind, token, "version")
        if lock.acquire(blocking=False):
            _refresher().put((kind, token, lock))
    return copy[1]


def _refresher() -> queue.SimpleQueue:
    global _thread
    with _guard:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_refresh_forever, name="polled", daemon=True)
            _thread.start()
    return _queue


def _refresh_forever() -> None:
    while True:
        kind, token, lock = _queue.get()
        try:
            close_old_connections()  # a connection a database restart broke is opened anew
            spec = KINDS[kind]
            _renew(kind, token, spec.lookup, spec.ttl, partial(_warm, kind, token, spec))
        except Exception:  # a poll past the copy's time asks again, but not before a pause
            logger.exception("reading the %s state of a token anew failed", kind)
            time.sleep(LOCAL_SECONDS)  # (the copy answers meanwhile, up to STALE_SECONDS)
        finally:
            lock.release()


def _warm(kind: str, token: str, spec: Kind, found: Any) -> None:
    """The bytes of a changed version in each language this worker has sent the token's
    state in (the screens that will fetch it)."""
    held = [etag for k, t, etag in list(_bodies) if (k, t) == (kind, token)]
    for code in {etag.strip('"').rsplit(".", 1)[-1] for etag in held}:
        with translation.override(code):
            spoken = spec.spoken(found)
            build = partial(spec.cached_state, token, spoken)
            body(kind, token, spoken.etag, build, spec.outrun_at)


def held_body(kind: str, token: str, etag: str) -> Body | None:
    """The bytes of the state named ``etag`` if this worker holds them fresh, else None."""
    found = _bodies.get((kind, token, etag)) if _on else None
    if found is not None and found.fresh(time.time_ns() // 1_000_000, time.monotonic()):
        return found
    return None


def built_once(key: str, build: Callable, usable: Callable) -> Any:
    """``build()`` (which stores its state under ``key`` in the shared cache), by one process
    at a time: another that finds it being built waits for it (up to ``BUILD_WAIT_SECONDS``,
    then builds it itself), so a change's state costs one build for all the workers (two
    builds at once would take both cores of a small server for their length)."""
    building = f"{key}:building"
    if cache.add(building, 1, BUILD_WAIT_SECONDS):
        try:
            return build()
        finally:
            cache.delete(building)
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(BUILD_POLL_SECONDS)
        found = cache.get(key)
        if found is not None and usable(found):
            return found
    return build()


def _made(state: dict, outrun_at: Callable) -> Body:
    content = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    return Body(content, state["etag"], outrun_at(state), time.monotonic())


def body(kind: str, token: str, etag: str, build: Callable, outrun_at: Callable) -> Body | None:
    """The bytes of the state named ``etag`` (``build()``: the state as a dict, None for a
    token gone), made once per worker while fresh."""
    if not _on:
        state = build()
        return _made(state, outrun_at) if state is not None else None
    key = (kind, token, etag)
    found = _bodies.get(key)
    if found is not None and found.fresh(time.time_ns() // 1_000_000, time.monotonic()):
        return found
    with _lock(kind, token, "body"):
        found = _bodies.get(key)
        if found is not None and found.fresh(time.time_ns() // 1_000_000, time.monotonic()):
            return found
        state = build()
        if state is None:
            return None
        found = _made(state, outrun_at)
        _keep(key, found)
        return found


def _keep(key: tuple[str, str, str], found: Body) -> None:
    now = time.monotonic()
    with _guard:
        for old in [k for k, b in _bodies.items() if now - b.made >= STATE_SECONDS]:
            del _bodies[old]
        _bodies[key] = found
        while len(_bodies) > 1 and sum(len(b.content) for b in _bodies.values()) > MAX_BYTES:
            del _bodies[min(_bodies, key=lambda k: _bodies[k].made)]
