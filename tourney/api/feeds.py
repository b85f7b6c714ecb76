"""Status feeds (issue 29): a tournament's outbound webhooks, the director's. A feed POSTs the
tournament's clock and field to its ``url`` on each change and every ``every_seconds``, in the
director tool's field names (``td``) or our own JSON (``tourney``), signed with its ``secret``
(docs/api.md, "Status feeds": the bodies, the headers, the signature, the retries).

Readings:

* ``PUT /feeds/{id}`` changes the fields given and keeps the rest; ``"rotate_secret": true``
  gives the feed a new secret (the answer shows it).
* ``POST /feeds/{id}/test`` queues one sending now (``X-Tourney-Event: test``), paused or not:
  202; its delivery shows in ``GET /feeds/{id}/deliveries`` a moment later.
* Times are ISO 8601 in UTC; ``null`` for what has not happened yet.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import director_tournament, need_director
from tourney.api.room import row_id
from tourney.engine.clock import format_time
from tourney.feed_models import FeedDelivery, StatusFeed
from tourney.selectors import status_feed as reads
from tourney.services import status_feeds as writes

router = Router(tags=["status feeds"], **out.ROUTER_OPTIONS)

TEXT_MAX = 2000  # the service refuses past its own limit (500), naming the field
SECONDS_MAX = 10**9


# ---------------------------------------------------------------- the answers


class FeedOut(out.Out):
    id: int
    tournament: int
    url: str
    kind: str
    every_seconds: int
    active: bool
    secret: str
    created: str
    last_attempt_at: str | None
    last_ok_at: str | None
    last_status: int
    last_error: str
    failures: int
    failing: bool
    sent_version: int


class FeedsOut(out.Out):
    feeds: list[FeedOut]


class FeedDeletedOut(out.Out):
    deleted: int


class DeliveryOut(out.Out):
    id: int
    at: str
    attempt: int
    version: int
    status: int
    ok: bool
    error: str
    ms: int


class DeliveriesOut(out.Out):
    feed: int
    deliveries: list[DeliveryOut]


class FeedTestOut(out.Out):
    feed: int
    queued: bool


def _time(at: datetime | None) -> str | None:
    return format_time(at) if at is not None else None


def feed_dict(feed: StatusFeed) -> dict[str, Any]:
    return {
        "id": feed.pk,
        "tournament": feed.tournament_id,
        "url": feed.url,
        "kind": feed.kind,
        "every_seconds": feed.every_seconds,
        "active": feed.active,
        "secret": feed.secret,
        "created": format_time(feed.created_at),
        "last_attempt_at": _time(feed.last_attempt_at),
        "last_ok_at": _time(feed.last_ok_at),
        "last_status": feed.last_status,
        "last_error": feed.last_error,
        "failures": feed.failures,
        "failing": reads.failing(feed),
        "sent_version": feed.sent_version,
    }


def delivery_dict(d: FeedDelivery) -> dict[str, Any]:
    return {
        "id": d.pk,
        "at": format_time(d.at),
        "attempt": d.attempt,
        "version": d.version,
        "status": d.status,
        "ok": d.ok,
        "error": d.error,
        "ms": d.ms,
    }


def _feed(request, feed_id: int) -> StatusFeed:
    need_director(request)  # the role first (403), then the lookup (404)
    return writes.feed_get(row_id(feed_id))


# ---------------------------------------------------------------- the operations


class FeedIn(Schema):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(max_length=TEXT_MAX)
    kind: str = Field(default="td", max_length=TEXT_MAX)
    every_seconds: int = Field(default=60, ge=-SECONDS_MAX, le=SECONDS_MAX)
    active: bool = True


class FeedPutIn(Schema):
    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(default=None, max_length=TEXT_MAX)
    kind: str | None = Field(default=None, max_length=TEXT_MAX)
    every_seconds: int | None = Field(default=None, ge=-SECONDS_MAX, le=SECONDS_MAX)
    active: bool | None = None
    rotate_secret: bool = False


@router.get(
    "/tournaments/{tid}/feeds",
    auth=api_auth.DIRECTOR,
    response=FeedsOut,
    summary="The tournament's status feeds (webhooks), with their last sending",
)
def feeds_get(request, tid: int):
    t = director_tournament(request, tid)
    return {"feeds": [feed_dict(f) for f in reads.feeds_of(t)]}


@router.post(
    "/tournaments/{tid}/feeds",
    auth=api_auth.DIRECTOR,
    response={201: FeedOut},
    summary="Add a status feed: a URL the state is POSTed to on each change and every N s",
)
def feed_create(request, tid: int, payload: FeedIn):
    t = director_tournament(request, tid)
    feed = writes.feed_create(
        tournament_id=t.pk,
        url=payload.url,
        kind=payload.kind,
        every_seconds=payload.every_seconds,
        active=payload.active,
        actor=request.user,
    )
    return Status(201, feed_dict(feed))


@router.get(
    "/feeds/{feed_id}",
    auth=api_auth.DIRECTOR,
    response=FeedOut,
    summary="A status feed: its settings, secret and last sending",
)
def feed_get(request, feed_id: int):
    return feed_dict(_feed(request, feed_id))


@router.put(
    "/feeds/{feed_id}",
    auth=api_auth.DIRECTOR,
    response=FeedOut,
    summary="Change a status feed (what is left out keeps its value; rotate_secret: a new secret)",
)
def feed_put(request, feed_id: int, payload: FeedPutIn):
    feed = _feed(request, feed_id)
    feed = writes.feed_update(
        feed_id=feed.pk,
        url=payload.url,
        kind=payload.kind,
        every_seconds=payload.every_seconds,
        active=payload.active,
        rotate_secret=payload.rotate_secret,
        actor=request.user,
    )
    return feed_dict(feed)


@router.delete(
    "/feeds/{feed_id}",
    auth=api_auth.DIRECTOR,
    response=FeedDeletedOut,
    summary="Delete a status feed and its deliveries",
)
def feed_delete(request, feed_id: int):
    feed = _feed(request, feed_id)
    return {"deleted": writes.feed_delete(feed_id=feed.pk, actor=request.user)}


@router.get(
    "/feeds/{feed_id}/deliveries",
    auth=api_auth.DIRECTOR,
    response=DeliveriesOut,
    summary="A status feed's last 50 attempts, newest first",
)
def feed_deliveries_get(request, feed_id: int):
    feed = _feed(request, feed_id)
    return {"feed": feed.pk, "deliveries": [delivery_dict(d) for d in reads.deliveries_of(feed)]}


@router.post(
    "/feeds/{feed_id}/test",
    auth=api_auth.DIRECTOR,
    response={202: FeedTestOut},
    summary="Send the state to a status feed now, once (X-Tourney-Event: test)",
)
def feed_test(request, feed_id: int):
    feed = _feed(request, feed_id)
    writes.feed_test(feed_id=feed.pk, actor=request.user)
    return Status(202, {"feed": feed.pk, "queued": True})
