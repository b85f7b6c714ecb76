"""Issue 29: the status feeds' screens: the dashboard's panel (it loads itself, shows each
feed's last success, failures in a row, last error and "Failing"), the feeds page (add,
change, pause, resume, test, a new secret and deletion behind a confirmation, the last
deliveries), refusals shown with nothing written, German on ?lang=de, director only."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from tourney.feed_models import FeedDelivery, StatusFeed
from tourney.models import Event
from tourney.services import status_feeds as feeds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 21, 0, tzinfo=UTC)


def _page_url(t) -> str:
    return reverse("tourney-dashboard-feeds", args=[t.pk])


def _feed_url(t, feed) -> str:
    return reverse("tourney-dashboard-feed", args=[t.pk, feed.pk])


@pytest.fixture
def queued(monkeypatch):
    """The test sendings the screens queue, kept here instead of on the broker."""
    sent = []

    def queue(feed_id, event, claim=None):
        sent.append((feed_id, event))
        return True

    monkeypatch.setattr(feeds, "queue_send", queue)
    return sent


def test_the_dashboard_includes_the_panel_that_loads_itself(td, tournament):
    r = td.get(reverse("tourney-dashboard", args=[tournament.pk]))
    html = r.content.decode()
    panel = reverse("tourney-dashboard-feeds-panel", args=[tournament.pk])
    assert f'hx-get="{panel}"' in html and 'hx-trigger="load, every 10s"' in html
    assert _page_url(tournament) in html


def test_the_panel_shows_a_failing_feed(td, tournament):
    ok = feeds.feed_create(tournament_id=tournament.pk, url="http://ok.example/x")
    bad = feeds.feed_create(tournament_id=tournament.pk, url="http://bad.example/y")
    d = feeds.delivery_start(feed_id=ok.pk, version=1, attempt=1, now=T0)
    feeds.delivery_record(delivery=d, status=200, error="", ms=4, now=T0)
    for _ in range(3):
        d = feeds.delivery_start(feed_id=bad.pk, version=1, attempt=1, now=T0)
        feeds.delivery_record(delivery=d, status=502, error="HTTP 502: gateway", ms=9, now=T0)
    r = td.get(
        reverse("tourney-dashboard-feeds-panel", args=[tournament.pk]), HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 200
    html = r.content.decode()
    assert html.strip().startswith('<section id="feeds"')
    assert 'hx-trigger="every 10s"' in html
    assert "http://ok.example/x" in html and "http://bad.example/y" in html
    assert html.count(">Failing<") == 2  # the heading's badge and the feed's
    assert "3 failures in a row" in html and "HTTP 502: gateway" in html
    assert "Last success:" in html and "never" in html


def test_the_panel_without_feeds_invites_to_add_one(td, tournament):
    r = td.get(reverse("tourney-dashboard-feeds-panel", args=[tournament.pk]))
    assert "No status feed" in r.content.decode() and "Failing" not in r.content.decode()


def test_add_a_feed_from_the_page(td, tournament):
    r = td.post(
        _page_url(tournament),
        {
            "url": "https://overlay.example/feed",
            "kind": "tourney",
            "every_seconds": "45",
            "active": "1",
        },
    )
    feed = StatusFeed.objects.get()
    assert r.status_code == 302 and r["Location"].endswith(f"#feed-{feed.pk}")
    assert (feed.url, feed.kind, feed.every_seconds, feed.active) == (
        "https://overlay.example/feed",
        "tourney",
        45,
        True,
    )
    page = td.get(_page_url(tournament)).content.decode()
    assert "https://overlay.example/feed" in page and feed.secret in page
    assert "Feed added" in page and "Nothing sent yet." in page


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"url": "ftp://x", "kind": "td", "every_seconds": "60"}, "http:// or https://"),
        ({"url": "http://x/", "kind": "td", "every_seconds": "10"}, "from 30 to 86400"),
        ({"url": "http://x/", "kind": "td", "every_seconds": "soon"}, "whole number"),
        ({"url": "http://x/", "kind": "rss", "every_seconds": "60"}, "Pick the kind"),
    ],
)
def test_a_bad_feed_is_refused_on_the_page_with_nothing_written(td, tournament, form, words):
    r = td.post(_page_url(tournament), form)
    assert r.status_code == 400
    html = r.content.decode()
    assert words in html and 'role="alert"' in html
    assert not StatusFeed.objects.exists()
    assert f'value="{form["url"]}"' in html  # what was typed stays in the form


def test_change_pause_resume_and_test(td, tournament, queued):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    url = _feed_url(tournament, feed)
    r = td.post(
        url,
        {
            "op": "edit",
            "url": "http://b.example/y",
            "kind": "td",
            "every_seconds": "90",
            "active": "1",
        },
    )
    assert r.status_code == 302
    feed.refresh_from_db()
    assert (feed.url, feed.every_seconds, feed.active) == ("http://b.example/y", 90, True)
    td.post(url, {"op": "pause"})
    feed.refresh_from_db()
    assert not feed.active
    assert ">Paused<" in td.get(_page_url(tournament)).content.decode()
    td.post(url, {"op": "resume"})
    feed.refresh_from_db()
    assert feed.active
    r = td.post(url, {"op": "test"})
    assert r.status_code == 302 and queued == [(feed.pk, "test")]
    assert "Test queued" in td.get(_page_url(tournament)).content.decode()


def test_a_refused_change_keeps_the_feed_and_shows_the_typed_values(td, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    r = td.post(
        _feed_url(tournament, feed),
        {"op": "edit", "url": "mailto:x@y", "kind": "td", "every_seconds": "60", "active": "1"},
    )
    assert r.status_code == 400 and 'value="mailto:x@y"' in r.content.decode()
    feed.refresh_from_db()
    assert feed.url == "http://a.example/x"


def test_delete_and_rotate_ask_first(td, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    secret = feed.secret
    url = _feed_url(tournament, feed)
    r = td.post(url, {"op": "rotate"})
    assert r.status_code == 200 and "Yes, make a new secret" in r.content.decode()
    feed.refresh_from_db()
    assert feed.secret == secret
    td.post(url, {"op": "rotate", "confirm": "yes"})
    feed.refresh_from_db()
    assert feed.secret != secret
    r = td.post(url, {"op": "delete"})
    assert "Yes, delete the feed" in r.content.decode() and StatusFeed.objects.exists()
    r = td.post(url, {"op": "delete", "confirm": "yes"})
    assert r.status_code == 302 and not StatusFeed.objects.exists()
    assert Event.objects.filter(kind="status_feed_deleted").count() == 1


def test_the_page_lists_the_last_deliveries(td, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    d = feeds.delivery_start(feed_id=feed.pk, version=3, attempt=2, now=T0)
    feeds.delivery_record(delivery=d, status=0, error="ConnectTimeout: too slow", ms=5004, now=T0)
    html = td.get(_page_url(tournament)).content.decode()
    assert "ConnectTimeout: too slow" in html and "5004" in html and "no answer" in html
    assert FeedDelivery.objects.count() == 1


def test_a_feed_of_another_tournament_is_not_found(td, tournament, director):
    from tourney import services

    other = services.tournament_create(actor=director, name="Other", tables=1, starting_stack=1000)
    feed = feeds.feed_create(tournament_id=other.pk, url="http://a.example/x")
    r = td.post(_feed_url(tournament, feed), {"op": "delete", "confirm": "yes"})
    assert r.status_code == 404 and StatusFeed.objects.filter(pk=feed.pk).exists()


def test_the_page_and_the_panel_speak_german(td, tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    d = feeds.delivery_start(feed_id=feed.pk, version=1, attempt=1, now=T0)
    feeds.delivery_record(delivery=d, status=500, error="HTTP 500", ms=1, now=T0)
    page = td.get(_page_url(tournament) + "?lang=de").content.decode()
    assert "Statusfeeds" in page and "Jetzt einen Test senden" in page
    panel = td.get(reverse("tourney-dashboard-feeds-panel", args=[tournament.pk]) + "?lang=de")
    assert "Fehlerhaft" in panel.content.decode()
    r = td.post(
        _page_url(tournament) + "?lang=de", {"url": "ftp://x", "kind": "td", "every_seconds": "60"}
    )
    assert "http:// oder https://" in r.content.decode()


def test_only_a_director_may(tournament, desk_clerk):
    c = Client()
    c.force_login(desk_clerk)
    assert c.get(_page_url(tournament)).status_code == 403
    assert (
        c.post(
            _page_url(tournament), {"url": "http://x/", "kind": "td", "every_seconds": "60"}
        ).status_code
        == 403
    )
    assert not StatusFeed.objects.exists()
