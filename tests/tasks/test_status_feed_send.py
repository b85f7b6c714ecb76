"""Issue 29: the status feeds' sending, against a LOCAL RECEIVER (an http.server on
127.0.0.1, a random port, in a thread). The POST carries the director tool's 20 fields, signed
with the feed's secret; a failing receiver is recorded, counted and retried with a growing
backoff; a receiver that is down gives status 0 and an error; a tournament write never waits
for a feed; the sweep sends a change once and a heartbeat after ``every_seconds``."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import time_machine
from celery import current_app

from tourney import services, tasks
from tourney.feed_models import FeedDelivery, StatusFeed
from tourney.models import Tournament
from tourney.selectors import status_feed as reads
from tourney.services import status_feeds as feeds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


class Receiver:
    """A local HTTP receiver: records each POST (headers, raw body) and answers ``status``."""

    def __init__(self) -> None:
        self.posts: list[tuple[dict[str, str], bytes]] = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 — http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.posts.append(({k.lower(): v for k, v in self.headers.items()}, body))
                answer = b"ok" if receiver.status < 300 else b"receiver broke"
                self.send_response(receiver.status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/feed"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def eager():
    """The sweep's queued sendings run at once, here (their retries too)."""
    conf = current_app.conf
    before = conf.task_always_eager
    conf.task_always_eager = True
    yield
    conf.task_always_eager = before


def _closed_port_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: connection refused
    return f"http://127.0.0.1:{port}/feed"


def _valid(secret: str, body: bytes, header: str) -> bool:
    want = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(want, header)


def test_the_post_carries_the_twenty_fields_signed_with_the_secret(tournament, receiver):
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url)
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "change"})
    assert len(receiver.posts) == 1
    headers, body = receiver.posts[0]
    assert headers["content-type"] == "application/json"
    assert headers["x-tourney-event"] == "change"
    delivery = FeedDelivery.objects.get(feed=feed)
    assert headers["x-tourney-delivery"] == str(delivery.pk)
    payload = json.loads(body)
    assert list(payload) == list(reads.TD_FIELDS)
    assert payload["Title"] == "Friday 50" and payload["StateDesc"] == "Not started"
    assert _valid(feed.secret, body, headers["x-tourney-signature"])
    assert not _valid("another secret", body, headers["x-tourney-signature"])
    assert not _valid(feed.secret, body + b" ", headers["x-tourney-signature"])
    assert (delivery.ok, delivery.status, delivery.attempt, delivery.error) == (True, 200, 1, "")
    feed.refresh_from_db()
    assert feed.last_ok_at is not None and (feed.failures, feed.last_status) == (0, 200)


def test_the_tourney_kind_sends_our_json(tournament, receiver):
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url, kind="tourney")
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "heartbeat"})
    headers, body = receiver.posts[0]
    payload = json.loads(body)
    assert payload["feed"] == "tourney.status/1" and payload["event"] == "heartbeat"
    assert payload["tournament"]["id"] == tournament.pk
    assert headers["x-tourney-event"] == "heartbeat"
    assert _valid(feed.secret, body, headers["x-tourney-signature"])


def test_a_receiver_answering_500_is_recorded_counted_and_retried_with_growing_waits(
    tournament, receiver, monkeypatch
):
    receiver.status = 500
    waits: list[int] = []
    real = tasks.feed_backoff
    monkeypatch.setattr(tasks, "feed_backoff", lambda n: waits.append(real(n)) or real(n))
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url)
    # apply(): each retry runs at once, here, instead of after its countdown
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "change"})
    tries = tasks.FEED_RETRIES + 1
    assert len(receiver.posts) == tries
    assert waits == [2, 4, 8, 16, 32]
    rows = list(FeedDelivery.objects.filter(feed=feed).order_by("id"))
    assert [d.attempt for d in rows] == list(range(1, tries + 1))
    assert all(not d.ok and d.status == 500 for d in rows)
    assert rows[0].error == "HTTP 500: receiver broke"
    # each attempt has its own delivery id
    assert [h["x-tourney-delivery"] for h, _ in receiver.posts] == [str(d.pk) for d in rows]
    feed.refresh_from_db()
    assert (feed.failures, feed.last_status, feed.last_ok_at) == (tries, 500, None)
    assert feed.last_error == "HTTP 500: receiver broke"
    assert reads.failing(feed)
    # the receiver mends: one success puts the count back to 0
    receiver.status = 204
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "change"})
    feed.refresh_from_db()
    assert (feed.failures, feed.last_status, feed.last_error) == (0, 204, "")


def test_a_retry_is_scheduled_with_its_countdown(tournament, receiver, monkeypatch):
    """Not eager: the failed attempt asks Celery for a retry after the backoff."""
    receiver.status = 503
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url)
    asked = []

    def retry(**kwargs):
        asked.append(kwargs)
        return RuntimeError("retry asked")

    monkeypatch.setattr(tasks.status_feed_send, "retry", retry)
    for n in (0, 3):
        with pytest.raises(RuntimeError):
            tasks.status_feed_send.apply(
                kwargs={"feed_id": feed.pk, "event": "change"}, retries=n, throw=True
            )
    assert [a["countdown"] for a in asked] == [2, 16]
    # the last try asks for none
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk}, retries=tasks.FEED_RETRIES)
    assert len(asked) == 2


def test_a_receiver_that_is_down_gives_status_0_and_an_error(tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url=_closed_port_url())
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "test"})  # one try
    delivery = FeedDelivery.objects.get(feed=feed)
    assert (delivery.ok, delivery.status) == (False, 0)
    assert delivery.error.startswith("ConnectionError")
    feed.refresh_from_db()
    assert (feed.failures, feed.last_status) == (1, 0) and feed.last_error == delivery.error


def test_a_tournament_write_succeeds_while_the_receiver_fails(
    tournament, director, receiver, eager, django_capture_on_commit_callbacks, monkeypatch
):
    from tourney.core import schedule

    monkeypatch.setattr(schedule, "clock_tick", lambda *a, **k: None)  # no broker here
    receiver.status = 500
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url)
    tasks.status_feed_sweep()  # fails, retried, recorded
    feed.refresh_from_db()
    assert feed.failures == tasks.FEED_RETRIES + 1
    posts, version = len(receiver.posts), Tournament.objects.get(pk=tournament.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
        services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    assert entry.pk and Tournament.objects.get(pk=tournament.pk).version > version
    assert len(receiver.posts) == posts  # the write sent nothing itself: the worker sends


def test_the_sweep_sends_a_change_once_and_a_heartbeat_after_every_seconds(
    tournament, director, receiver, eager
):
    with time_machine.travel(T0, tick=False):
        feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url, every_seconds=30)
        assert tasks.status_feed_sweep() == 1
        assert tasks.status_feed_sweep() == 0  # the same version: not again
    events = [h["x-tourney-event"] for h, _ in receiver.posts]
    assert events == ["change"]
    feed.refresh_from_db()
    assert feed.sent_version == Tournament.objects.get(pk=tournament.pk).version
    with time_machine.travel(T0 + timedelta(seconds=10), tick=False):
        services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
        assert tasks.status_feed_sweep() == 1
        assert tasks.status_feed_sweep() == 0
    assert json.loads(receiver.posts[-1][1])["StateDesc"] == "Running"
    with time_machine.travel(T0 + timedelta(seconds=39), tick=False):
        assert tasks.status_feed_sweep() == 0  # 29 s since the last sending
    with time_machine.travel(T0 + timedelta(seconds=40), tick=False):
        assert tasks.status_feed_sweep() == 1
        assert tasks.status_feed_sweep() == 0
    events = [h["x-tourney-event"] for h, _ in receiver.posts]
    assert events == ["change", "change", "heartbeat"]
    assert json.loads(receiver.posts[-1][1])["SecondsLeft"] == 20 * 60 - 30


def test_a_level_the_clock_starts_is_a_change(tournament, director, receiver, eager):
    """The clock crosses into the break without a director's write: the worker's announcement
    (``clock_announce``) records it, which moves the version, so the feed sends it."""
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
        feeds.feed_create(tournament_id=tournament.pk, url=receiver.url, every_seconds=3600)
        assert tasks.status_feed_sweep() == 1
    with time_machine.travel(T0 + timedelta(minutes=20, seconds=1), tick=False):
        assert tasks.status_feed_sweep() == 0  # nothing recorded yet
        services.clock_announce(tournament_id=tournament.pk)
        assert tasks.status_feed_sweep() == 1
    last = json.loads(receiver.posts[-1][1])
    assert (last["IsBreak"], last["StateDesc"], last["SecondsLeft"]) == (True, "On break", 599)


def test_two_sweeps_that_saw_the_same_change_claim_it_once(tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/x")
    seen_a = reads.feeds_due(T0)
    seen_b = reads.feeds_due(T0)
    assert [d.event for d in seen_a] == ["change"] and seen_a == seen_b
    won = [
        feeds.feed_claim(
            feed_id=d.feed_id,
            version=d.version,
            sent_version=d.sent_version,
            last_attempt_at=d.last_attempt_at,
            now=T0,
        )
        for d in (seen_a[0], seen_b[0])
    ]
    assert won == [True, False]
    feed.refresh_from_db()
    assert feed.last_attempt_at == T0


def test_a_retry_stops_once_a_newer_sending_is_claimed(tournament, receiver):
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url)
    StatusFeed.objects.filter(pk=feed.pk).update(last_attempt_at=T0 + timedelta(seconds=5))
    tasks.status_feed_send.apply(
        kwargs={"feed_id": feed.pk, "event": "change", "claim": T0.isoformat()}
    )
    assert receiver.posts == [] and not FeedDelivery.objects.exists()


def test_a_paused_feed_sends_nothing_but_a_test(tournament, receiver, eager):
    feed = feeds.feed_create(tournament_id=tournament.pk, url=receiver.url, active=False)
    assert tasks.status_feed_sweep() == 0
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "change"})
    assert receiver.posts == []
    tasks.status_feed_send.apply(kwargs={"feed_id": feed.pk, "event": "test"})
    assert [h["x-tourney-event"] for h, _ in receiver.posts] == ["test"]


def test_a_finished_tournament_gets_no_heartbeat(tournament, receiver, eager):
    feeds.feed_create(tournament_id=tournament.pk, url=receiver.url, every_seconds=30)
    with time_machine.travel(T0, tick=False):
        assert tasks.status_feed_sweep() == 1
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        assert tasks.status_feed_sweep() == 0


def test_beat_sweeps_the_feeds_every_two_seconds():
    from tourney.celery import app

    schedule = {v["task"]: v["schedule"] for v in app.conf.beat_schedule.values()}
    assert schedule["tourney.tasks.status_feed_sweep"] == 2.0


def test_a_sweep_that_cannot_queue_goes_on(tournament, monkeypatch):
    feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/a")
    feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/b")

    def down(**kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.status_feed_send, "apply_async", down)
    assert tasks.status_feed_sweep() == 0
    assert StatusFeed.objects.filter(last_attempt_at__isnull=False).count() == 2
