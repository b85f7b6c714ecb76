"""Issue 29: the status feeds' API (docs/api.md, "Status feeds"): the director lists, adds,
reads, changes (a new secret too), deletes and tests a tournament's feeds and reads their
deliveries; bad input is refused with nothing written; the desk is refused; every answer
matches the schema the OpenAPI document declares."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.api.test_response_schemas import _matches
from tourney.feed_models import StatusFeed
from tourney.services import status_feeds as feeds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 22, 0, tzinfo=UTC)


@pytest.fixture
def queued(monkeypatch):
    sent = []

    def queue(feed_id, event, claim=None):
        sent.append((feed_id, event))
        return True

    monkeypatch.setattr(feeds, "queue_send", queue)
    return sent


def _create(api, tid, **body):
    return api.post(f"/api/v1/tournaments/{tid}/feeds", {"url": "http://127.0.0.1:9/feed", **body})


def test_add_read_list_and_change_a_feed(director_api, tournament):
    tid = tournament.pk
    r = _create(director_api, tid, kind="tourney", every_seconds=45)
    assert r.status_code == 201, r.content
    body = r.json()
    feed = StatusFeed.objects.get()
    assert body["id"] == feed.pk and body["tournament"] == tid
    assert (body["url"], body["kind"], body["every_seconds"], body["active"]) == (
        "http://127.0.0.1:9/feed",
        "tourney",
        45,
        True,
    )
    assert body["secret"] == feed.secret and body["last_ok_at"] is None
    assert (body["failures"], body["failing"], body["sent_version"]) == (0, False, 0)
    assert _matches("post", "tournaments/{tid}/feeds", body, 201)

    listed = director_api.get(f"/api/v1/tournaments/{tid}/feeds")
    assert listed.status_code == 200 and listed.json() == {"feeds": [body]}
    assert _matches("get", "tournaments/{tid}/feeds", listed.json())
    one = director_api.get(f"/api/v1/feeds/{feed.pk}")
    assert one.json() == body and _matches("get", "feeds/{feed_id}", one.json())

    changed = director_api.put(f"/api/v1/feeds/{feed.pk}", {"active": False, "kind": "td"})
    assert changed.status_code == 200, changed.content
    assert (changed.json()["active"], changed.json()["kind"]) == (False, "td")
    assert changed.json()["url"] == body["url"] and changed.json()["secret"] == body["secret"]
    assert _matches("put", "feeds/{feed_id}", changed.json())
    rotated = director_api.put(f"/api/v1/feeds/{feed.pk}", {"rotate_secret": True})
    feed.refresh_from_db()
    assert rotated.json()["secret"] == feed.secret != body["secret"]


def test_deliveries_newest_first(director_api, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    for status in (200, 500):
        d = feeds.delivery_start(feed_id=feed.pk, version=2, attempt=1, now=T0)
        feeds.delivery_record(delivery=d, status=status, error="HTTP 500", ms=12, now=T0)
    r = director_api.get(f"/api/v1/feeds/{feed.pk}/deliveries")
    assert r.status_code == 200
    rows = r.json()["deliveries"]
    assert [(x["status"], x["ok"], x["error"]) for x in rows] == [
        (500, False, "HTTP 500"),
        (200, True, ""),
    ]
    assert rows[0]["at"] == "2026-12-03T22:00:00.000Z" and rows[0]["ms"] == 12
    assert _matches("get", "feeds/{feed_id}/deliveries", r.json())
    got = director_api.get(f"/api/v1/feeds/{feed.pk}").json()
    assert got["failing"] is True and got["failures"] == 1 and got["last_status"] == 500


def test_a_test_is_queued(director_api, tournament, queued):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    r = director_api.post(f"/api/v1/feeds/{feed.pk}/test")
    assert r.status_code == 202 and r.json() == {"feed": feed.pk, "queued": True}
    assert queued == [(feed.pk, "test")]
    assert _matches("post", "feeds/{feed_id}/test", r.json(), 202)


def test_a_test_with_the_queue_down_is_a_409(director_api, tournament, monkeypatch):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    monkeypatch.setattr(feeds, "queue_send", lambda *a, **k: False)
    r = director_api.post(f"/api/v1/feeds/{feed.pk}/test")
    assert r.status_code == 409 and r.json()["error"]["code"] == "queue_unavailable"


def test_delete(director_api, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    r = director_api.client.delete(f"/api/v1/feeds/{feed.pk}", **director_api.headers)
    assert r.status_code == 200 and r.json() == {"deleted": feed.pk}
    assert _matches("delete", "feeds/{feed_id}", r.json())
    assert not StatusFeed.objects.exists()
    again = director_api.client.delete(f"/api/v1/feeds/{feed.pk}", **director_api.headers)
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"url": "ftp://x/"}, "bad_url", "url"),
        ({"url": "x" * 600}, "bad_url", "url"),
        ({"every_seconds": 29}, "bad_every_seconds", "every_seconds"),
        ({"every_seconds": 10**12}, "bad_input", "every_seconds"),
        ({"kind": "xml"}, "bad_kind", "kind"),
        ({"secret": "mine"}, "bad_input", "secret"),
        ({"active": "maybe"}, "bad_input", "active"),
    ],
)
def test_bad_input_is_refused_with_nothing_written(director_api, tournament, body, code, field):
    r = _create(director_api, tournament.pk, **body)
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == code and field in error["fields"]
    assert not StatusFeed.objects.exists()


def test_a_bad_change_writes_nothing(director_api, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    r = director_api.put(
        f"/api/v1/feeds/{feed.pk}", {"every_seconds": 3600, "url": "javascript:alert(1)"}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_url"
    feed.refresh_from_db()
    assert feed.every_seconds == 60


def test_the_desk_is_refused_and_unknown_ids_are_not_found(desk_api, director_api, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://127.0.0.1:9/feed")
    assert desk_api.get(f"/api/v1/feeds/{feed.pk}").status_code == 403
    assert desk_api.get(f"/api/v1/tournaments/{tournament.pk}/feeds").status_code == 403
    assert _create(desk_api, tournament.pk).status_code == 403
    assert StatusFeed.objects.count() == 1
    assert director_api.get("/api/v1/feeds/999").status_code == 404
    assert director_api.get(f"/api/v1/feeds/{2**63}").status_code == 404
    assert director_api.get("/api/v1/tournaments/999/feeds").status_code == 404
