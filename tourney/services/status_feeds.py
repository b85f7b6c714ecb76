"""A tournament's outbound status feeds (issue 29): the director's writes (create, change,
delete, a new secret, a test), and the sending the worker does (tourney/tasks.py calls
``feed_claim`` and ``feed_send_once``; nothing else sends).

Readings:

* A feed POSTs its tournament's state to ``url`` (http or https) on each change and every
  ``every_seconds`` (at least ``settings.STATUS_FEED_MIN_SECONDS``, 30 by default), in one of
  two kinds: ``td`` (the director tool's field names) or ``tourney`` (our JSON); the bodies
  are tourney/selectors/status_feed.py's. Each body is signed: ``X-Tourney-Signature:
  sha256=<hex HMAC-SHA256 of the raw body, keyed with the feed's secret>``.
* A sending never blocks or fails a tournament's write: it happens in the worker only, and
  its writes touch the feed and its deliveries, never the tournament row (no lock taken).
* Each attempt is a ``FeedDelivery`` row, written before the POST (its id is the
  ``X-Tourney-Delivery`` header) and completed after it; the last 50 of a feed are kept.
  ``failures`` counts failed attempts in a row (0 after a success).
* The feed's writes are logged as events without a tournament (like the accounts'), so they
  neither bump the tournament's version nor stand in its undo stack. The secret is never
  logged.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

import requests
from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.locking import lock_tournament
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.feed_models import FeedDelivery, StatusFeed, new_feed_secret
from tourney.models import Tournament
from tourney.selectors.status_feed import DELIVERIES_KEPT, EVENTS, TEST, feed_payload

log = logging.getLogger(__name__)

URL_MAX = 500
EVERY_MAX = 86400
ERROR_MAX = 500
SEND_TASK = "tourney.tasks.status_feed_send"
SIGNATURE_HEADER = "X-Tourney-Signature"
# (connect, read) seconds: a slow receiver costs the worker at most this long per attempt.
TIMEOUT = (3.05, 5.0)
USER_AGENT = "Tourney-StatusFeed/1"
ANSWER_KEPT = 200  # characters of a failed answer's body kept in the error

MSG_URL = N_("Give the receiver's address as an http:// or https:// URL of at most 500 characters.")
MSG_EVERY = N_("Send every: a whole number of seconds from %(low)s to %(high)s.")
MSG_KIND = N_("Pick the kind of feed: td (the director tool's fields) or tourney (our JSON).")
MSG_NO_FEED = N_("No such status feed.")
MSG_QUEUE_DOWN = N_("The worker's queue cannot be reached: the test was not sent. Try again.")

KINDS = tuple(StatusFeed.Kind.values)


# ---------------------------------------------------------------- checks


def feed_url(url) -> str:
    """An http or https URL with a host, at most 500 characters, no spaces or control
    characters (a LAN name without a dot, "http://obs-pc:8080/feed", is fine)."""
    text = str(url or "").strip()
    bad = not text or len(text) > URL_MAX or any(c.isspace() or ord(c) < 32 for c in text)
    if not bad:
        try:
            parts = urlsplit(text)
            bad = parts.scheme.lower() not in ("http", "https") or not parts.hostname
            parts.port  # noqa: B018 — raises ValueError on a port out of range
        except ValueError:
            bad = True
    if bad:
        raise DomainError("bad_url", MSG_URL, fields={"url": MSG_URL})
    return text


def feed_every_low() -> int:
    """The shortest heartbeat a director may set (settings.STATUS_FEED_MIN_SECONDS)."""
    return int(settings.STATUS_FEED_MIN_SECONDS)


def feed_every(value) -> int:
    low = feed_every_low()
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= EVERY_MAX:
        params = {"low": low, "high": EVERY_MAX}
        msg = MSG_EVERY % params
        raise DomainError(
            "bad_every_seconds", MSG_EVERY, fields={"every_seconds": msg}, params=params
        )
    return value


def feed_kind(value) -> str:
    if value not in KINDS:
        raise DomainError("bad_kind", MSG_KIND, fields={"kind": MSG_KIND})
    return value


def _feed(feed_id: int, *, lock: bool = False) -> StatusFeed:
    if isinstance(feed_id, bool) or not isinstance(feed_id, int) or not 0 < feed_id <= MAX_ID:
        raise DomainError("not_found", MSG_NO_FEED, status=404)
    rows = StatusFeed.objects.select_for_update() if lock else StatusFeed.objects
    feed = rows.filter(pk=feed_id).first()
    if feed is None:
        raise DomainError("not_found", MSG_NO_FEED, status=404)
    return feed


def feed_get(feed_id: int) -> StatusFeed:
    """The feed (404 ``not_found`` for another id)."""
    return _feed(feed_id)


def _logged(feed: StatusFeed) -> dict:
    return {
        "tournament": feed.tournament_id,
        "feed": feed.pk,
        "url": feed.url,
        "kind": feed.kind,
        "every_seconds": feed.every_seconds,
        "active": feed.active,
    }


# ---------------------------------------------------------------- the director's writes


def feed_create(
    *,
    tournament_id: int,
    url: str,
    kind: str = StatusFeed.Kind.TD,
    every_seconds: int = 60,
    active: bool = True,
    actor=None,
) -> StatusFeed:
    """A new feed of the tournament, with a new secret. It sends the tournament's state at
    the worker's next sweep (its ``sent_version`` 0 is behind any tournament's version)."""
    url = feed_url(url)
    kind = feed_kind(kind)
    every_seconds = feed_every(every_seconds)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        feed = StatusFeed.objects.create(
            tournament=t, url=url, kind=kind, every_seconds=every_seconds, active=bool(active)
        )
        record_event(None, "status_feed_created", _logged(feed), actor)
    return feed


def feed_update(
    *,
    feed_id: int,
    url: str | None = None,
    kind: str | None = None,
    every_seconds: int | None = None,
    active: bool | None = None,
    rotate_secret: bool = False,
    actor=None,
) -> StatusFeed:
    """Change what is given, keep the rest (``rotate_secret``: a new secret too, in the same
    transaction). A feed paused (``active`` false) sends nothing; a feed resumed, or sent
    elsewhere or in another kind, sends the state at the next sweep."""
    changes: dict = {}
    if url is not None:
        changes["url"] = feed_url(url)
    if kind is not None:
        changes["kind"] = feed_kind(kind)
    if every_seconds is not None:
        changes["every_seconds"] = feed_every(every_seconds)
    if active is not None:
        changes["active"] = bool(active)
    with transaction.atomic():
        found = _feed(feed_id)
        lock_tournament(found.tournament_id)
        feed = _feed(feed_id, lock=True)
        resend = any(
            changes.get(k, getattr(feed, k)) != getattr(feed, k) for k in ("url", "kind")
        ) or (changes.get("active") and not feed.active)
        for name, value in changes.items():
            setattr(feed, name, value)
        fields = list(changes)
        if rotate_secret:
            feed.secret = new_feed_secret()
            fields.append("secret")
        if resend:
            feed.sent_version = 0
            fields.append("sent_version")
        if fields:
            feed.save(update_fields=fields)
        logged = {**_logged(feed), "secret_rotated": bool(rotate_secret)}
        record_event(None, "status_feed_updated", logged, actor)
    return feed


def feed_delete(*, feed_id: int, actor=None) -> int:
    """Delete the feed and its deliveries; a sending under way finds it gone and stops."""
    with transaction.atomic():
        found = _feed(feed_id)
        lock_tournament(found.tournament_id)
        feed = _feed(feed_id, lock=True)
        logged = _logged(feed)
        feed.delete()
        record_event(None, "status_feed_deleted", logged, actor)
    return feed_id


def feed_secret_rotate(*, feed_id: int, actor=None) -> StatusFeed:
    """A new secret: from the next sending on, bodies are signed with it (give it to the
    receiver, which refuses bodies signed with the old one)."""
    with transaction.atomic():
        found = _feed(feed_id)
        lock_tournament(found.tournament_id)
        feed = _feed(feed_id, lock=True)
        feed.secret = new_feed_secret()
        feed.save(update_fields=["secret"])
        record_event(
            None,
            "status_feed_secret_rotated",
            {"tournament": feed.tournament_id, "feed": feed.pk},
            actor,
        )
    return feed


def feed_test(*, feed_id: int, actor=None) -> StatusFeed:
    """Queue one sending of the state now (``X-Tourney-Event: test``, no retries), whether or
    not the feed is paused; its delivery shows in the list a moment later. 409
    ``queue_unavailable`` when the worker's queue cannot be reached."""
    feed = _feed(feed_id)
    if not queue_send(feed.pk, TEST):
        raise DomainError("queue_unavailable", MSG_QUEUE_DOWN, status=409)
    return feed


def queue_send(feed_id: int, event: str, claim: str | None = None) -> bool:
    """Ask the worker to send (by the task's name: the writes never import the tasks)."""
    try:
        current_app.send_task(
            SEND_TASK, kwargs={"feed_id": feed_id, "event": event, "claim": claim}
        )
    except Exception:  # noqa: BLE001 — any broker error: said to the caller, nothing written
        log.warning("could not queue a status feed sending for feed %s", feed_id)
        return False
    return True


# ---------------------------------------------------------------- the worker's writes


def feed_claim(
    *,
    feed_id: int,
    version: int,
    sent_version: int,
    last_attempt_at: datetime | None,
    now: datetime,
) -> bool:
    """Take the sending of ``version`` (a conditional UPDATE on what the sweep read): of two
    sweeps that saw the same feed due, one wins, so a change is sent once."""
    return bool(
        StatusFeed.objects.filter(
            pk=feed_id, active=True, sent_version=sent_version, last_attempt_at=last_attempt_at
        ).update(sent_version=version, last_attempt_at=now)
    )


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the hex HMAC-SHA256 of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _clean(text: str) -> str:
    return "".join(c for c in text if c == " " or c.isprintable())[:ERROR_MAX]


def delivery_start(
    *, feed_id: int, version: int, attempt: int, now: datetime
) -> FeedDelivery | None:
    """The attempt's row, before the POST (its id names the delivery); None when the feed
    was deleted meanwhile."""
    try:
        with transaction.atomic():
            if not StatusFeed.objects.filter(pk=feed_id).exists():
                return None
            return FeedDelivery.objects.create(
                feed_id=feed_id, at=now, attempt=attempt, version=version
            )
    except IntegrityError:  # deleted between the two statements
        return None


def delivery_record(*, delivery: FeedDelivery, status: int, error: str, ms: int, now: datetime):
    """The attempt's outcome, on its row and on the feed (last status, last success,
    failures in a row, last error); the feed keeps its last 50 deliveries."""
    ok = 200 <= status < 300
    error = "" if ok else _clean(error) or f"HTTP {status}"
    with transaction.atomic():
        FeedDelivery.objects.filter(pk=delivery.pk).update(
            status=status, ok=ok, error=error, ms=max(0, min(ms, 2**31 - 1))
        )
        values: dict = {"last_status": status, "last_error": error}
        if ok:
            values.update(last_ok_at=now, failures=0)
        else:
            values["failures"] = F("failures") + 1
        StatusFeed.objects.filter(pk=delivery.feed_id).update(**values)
        rows = FeedDelivery.objects.filter(feed_id=delivery.feed_id)
        cut = rows.order_by("-id").values_list("id", flat=True)[
            DELIVERIES_KEPT : DELIVERIES_KEPT + 1
        ]
        if cut:
            rows.filter(id__lte=cut[0]).delete()
    delivery.status, delivery.ok, delivery.error, delivery.ms = status, ok, error, ms
    return delivery


@dataclass(frozen=True, slots=True)
class Sent:
    """One attempt's outcome: the delivery row (None: nothing to send), its HTTP status (0:
    no answer) and whether the worker should try again."""

    delivery: FeedDelivery | None
    status: int = 0
    ok: bool = False
    superseded: bool = False


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str, int]:
    """(status, error, ms) of one POST; a receiver that is down or slow gives status 0."""
    start = time.monotonic()
    try:
        with requests.post(
            url, data=body, headers=headers, timeout=TIMEOUT, allow_redirects=False, stream=True
        ) as r:
            status = r.status_code
            error = ""
            if not 200 <= status < 300:
                head = next(r.iter_content(ANSWER_KEPT, decode_unicode=False), b"")
                words = head.decode("utf-8", "replace").strip()
                error = f"HTTP {status}" + (f": {words}" if words else "")
    except requests.RequestException as exc:
        status, error = 0, f"{type(exc).__name__}: {exc}"
    return status, error, int((time.monotonic() - start) * 1000)


def feed_send_once(*, feed_id: int, event: str, claim: str | None = None, attempt: int = 1) -> Sent:
    """One attempt to send the feed's state now (the worker's task calls this, and retries).
    Nothing to send when the feed is gone, paused (a test is sent anyway), or when a later
    sweep claimed it since ``claim`` (that sending carries a newer state: this one stops)."""
    if event not in EVENTS:
        event = TEST
    feed = StatusFeed.objects.select_related("tournament").filter(pk=feed_id).first()
    if feed is None or (event != TEST and not feed.active):
        return Sent(None)
    if claim is not None and event != TEST:
        mine = datetime.fromisoformat(claim)
        if feed.last_attempt_at is None or feed.last_attempt_at != mine:
            return Sent(None, superseded=True)
    t: Tournament = feed.tournament
    now = timezone.now()
    body = json.dumps(
        feed_payload(feed, t, now, event=event), separators=(",", ":"), ensure_ascii=False
    ).encode()
    delivery = delivery_start(feed_id=feed.pk, version=t.version, attempt=attempt, now=now)
    if delivery is None:
        return Sent(None)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        SIGNATURE_HEADER: sign(feed.secret, body),
        "X-Tourney-Event": event,
        "X-Tourney-Delivery": str(delivery.pk),
    }
    status, error, ms = _post(feed.url, body, headers)
    delivery_record(delivery=delivery, status=status, error=error, ms=ms, now=timezone.now())
    return Sent(delivery, status, 200 <= status < 300)
