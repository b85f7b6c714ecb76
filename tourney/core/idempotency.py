"""Exactly once: a write sent again with the same key gets the first answer, never a second
write. The key is the API's ``Idempotency-Key`` header or a form's one-time nonce (the hidden
field ``nonce``); tourney/middleware.py calls ``run_once`` around the view.

The key's row (``IdempotentRequest``, unique per user, scope and key) is inserted first thing
in the transaction that then runs the view, whose services nest their own transactions in it
(``tournament_action``: savepoints). So the key is stored exactly when the write is: a crash
between the two cannot happen. A repeat that comes while the first still runs waits at that
insert (PostgreSQL holds it on the unique index; SQLite's writers take turns); once the first
commits, the repeat finds its row and replays the answer. It waits at most ``WAIT_SECONDS``,
then gets 409 ``idempotency_key_in_use``. A server error (5xx) rolls everything back, the
key's row with it, so that a retry runs again. A refusal (4xx) is stored: the same retry gets
the same refusal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from tourney.engine.errors import DomainError
from tourney.models import IdempotentRequest

KEY_MAX_LENGTH = 255
EXPIRES_AFTER = timedelta(hours=24)
WAIT_SECONDS = 10
REPLAYED_HEADER = "Idempotent-Replayed"
# The headers of an answer that are stored with it and replayed (what a client or htmx reads).
STORED_HEADERS = (
    "Content-Type",
    "Content-Disposition",
    "Location",
    "Allow",
    "HX-Location",
    "HX-Push-Url",
    "HX-Redirect",
    "HX-Refresh",
    "HX-Replace-Url",
    "HX-Reselect",
    "HX-Reswap",
    "HX-Retarget",
    "HX-Trigger",
    "HX-Trigger-After-Settle",
    "HX-Trigger-After-Swap",
)

MSG_BAD_KEY = "The idempotency key must be 1 to 255 printable ASCII characters."
MSG_REUSED = (
    "This idempotency key was already used for another request: send a new key with a new request."
)
MSG_IN_USE = (
    "A request with this idempotency key is still running: wait for its answer, then send "
    "the request again with the same key."
)


@dataclass(frozen=True)
class Answer:
    """An answer as stored: status, body and the headers of ``STORED_HEADERS``. ``live`` is
    the view's own response object (None when replayed)."""

    status: int
    content: bytes
    headers: dict[str, str] = field(default_factory=dict)
    replayed: bool = False
    live: Any = None


def check_key(key: str) -> str:
    """The key if it is 1 to 255 printable ASCII characters; else 400 bad_idempotency_key."""
    if not 0 < len(key) <= KEY_MAX_LENGTH or not all(" " <= c <= "~" for c in key):
        raise DomainError("bad_idempotency_key", MSG_BAD_KEY, fields={"key": MSG_BAD_KEY})
    return key


def request_hash(method: str, path: str, body: bytes | Iterable[tuple[str, str]]) -> str:
    """What makes two requests the same: the method, the path (with its query) and the body
    (raw bytes, or form fields as pairs, in a stable order)."""
    h = hashlib.sha256()
    h.update(f"{method.upper()}\0{path}\0".encode())
    if isinstance(body, bytes):
        h.update(body)
    else:
        for name, value in sorted(body):
            h.update(f"{name}\0{value}\0".encode())
    return h.hexdigest()


def run_once(
    *, user_id: int, scope: str, key: str, fingerprint: str, run: Callable[[], Answer]
) -> Answer:
    """``run()`` once for this user's key: the first time it runs in one transaction with the
    key's row, which then stores its answer (unless a 5xx: then nothing is kept). Later the
    stored answer comes back (``replayed``), or 422 ``idempotency_key_reused`` if the key
    came with another request."""
    check_key(key)
    with transaction.atomic():
        stored = _claim(user_id=user_id, scope=scope, key=key, fingerprint=fingerprint)
        if stored is not None:
            return stored
        answer = run()
        if answer.status >= 500:
            transaction.set_rollback(True)
            return answer
        IdempotentRequest.objects.filter(user_id=user_id, scope=scope, key=key).update(
            status=answer.status, content=answer.content, headers=answer.headers
        )
        return answer


def _claim(*, user_id: int, scope: str, key: str, fingerprint: str) -> Answer | None:
    """Insert the key's row (None: this request runs), or the stored answer of the first."""
    for _ in range(2):
        now = timezone.now()
        try:
            with transaction.atomic(), _bounded_wait():
                IdempotentRequest.objects.create(
                    user_id=user_id, scope=scope, key=key, request_hash=fingerprint, created_at=now
                )
            return None
        except IntegrityError:
            pass
        except OperationalError as exc:
            # PostgreSQL's lock_timeout: the first request still holds the key.
            raise DomainError("idempotency_key_in_use", MSG_IN_USE, status=409) from exc
        row = IdempotentRequest.objects.filter(user_id=user_id, scope=scope, key=key).first()
        if row is not None and _expired(row.created_at, now):
            row.delete()  # past its 24 hours, not yet swept: the key is free again
            continue
        if row is None:
            continue  # swept between the insert and the read
        if row.request_hash != fingerprint:
            raise DomainError("idempotency_key_reused", MSG_REUSED, status=422)
        return Answer(row.status, bytes(row.content), dict(row.headers), replayed=True)
    raise DomainError("idempotency_key_in_use", MSG_IN_USE, status=409)


def _expired(created_at: datetime, now: datetime) -> bool:
    return created_at < now - EXPIRES_AFTER


@contextmanager
def _bounded_wait():
    """On PostgreSQL, the insert waits for a key another transaction holds at most
    ``WAIT_SECONDS`` (then OperationalError); the write after it keeps the usual timeout."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
            [f"{WAIT_SECONDS}s"],
        )
        before = cursor.fetchone()[0]
    yield
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])


def expired_before(now: datetime | None = None) -> datetime:
    """Keys made before this moment have expired."""
    return (now or timezone.now()) - EXPIRES_AFTER
