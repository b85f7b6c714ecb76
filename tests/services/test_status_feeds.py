"""Issue 29: the status feeds' payloads (the director tool's 20 fields and our JSON) for a
running tournament with entries, a rebuy, an add-on and a bust, on a break and paused; and the
feed writes (validation with nothing written, changes, deletion, the secret, the deliveries
kept)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine import payouts as payouts_engine
from tourney.engine.errors import DomainError
from tourney.feed_models import FeedDelivery, StatusFeed
from tourney.models import Entry, Event, Tournament
from tourney.selectors import status_feed as reads
from tourney.services import money
from tourney.services import status_feeds as feeds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)
OPTIONS = {
    "rebuy_price": 4000,
    "rebuy_chips": 10000,
    "addon_at": 1,  # the break of TWO_LEVELS
    "addon_price": 3000,
    "addon_chips": 15000,
    "added_money": 10000,
}


def _running(director, players: int = 6) -> Tournament:
    """Started at T0; a rebuy at T0+1 min; one bust at T0+2 min. Money: 6 × 50.00 buy-ins,
    one 40.00 rebuy, 100.00 added."""
    with time_machine.travel(T0 - timedelta(minutes=5), tick=False):
        t = services.tournament_create(
            actor=director,
            name="Feed night",
            tables=2,
            starting_stack=20000,
            buy_in=5000,
            fee=500,
            seed=3,
            levels=TWO_LEVELS,
            options=OPTIONS,
        )
        for i in range(players):
            services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    first, *_, last = Entry.objects.filter(tournament=t).order_by("number")
    with time_machine.travel(T0 + timedelta(minutes=1), tick=False):
        money.entry_rebuy(tournament_id=t.pk, entry_id=first.pk, actor=director)
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        services.elimination_record(tournament_id=t.pk, busts=[(last.pk, 20000)], actor=director)
    t.refresh_from_db()
    return t


def _td(t: Tournament, at: datetime) -> dict:
    t.refresh_from_db()
    return reads.td_payload(t, at)


def test_td_payload_has_exactly_the_twenty_fields_of_a_running_level(director):
    t = _running(director)
    body = _td(t, T0 + timedelta(minutes=5))
    assert list(body) == list(reads.TD_FIELDS) and len(body) == 20
    paid = payouts_engine.paid_places(6)
    assert body == {
        "Title": "Feed night",
        "RoundNum": 1,
        "Level": "Level 1",
        "IsBreak": False,
        "SmallBlind": 100,
        "BigBlind": 200,
        "Ante": 200,  # the big-blind ante of the level
        "NextSmallBlind": 200,
        "SecondsLeft": 15 * 60,
        "LevelDuration": 20 * 60,
        "ClockPaused": False,
        "PlayersLeft": 5,
        "Buyins": 6,
        "TotalRebuys": 1,
        "TotalAddons": 0,
        "Pot": 440,  # (6 × 50 + 40 + 100 added), currency units
        "ChipCount": 6 * 20000 + 10000,
        "InTheMoneyRank": paid,
        "BustsUntilMoney": 5 - paid,
        "StateDesc": "Running",
    }
    assert type(body["Pot"]) is int and type(body["SecondsLeft"]) is int


def test_seconds_left_rounds_up_as_the_display_counts(director):
    t = _running(director)
    body = _td(t, T0 + timedelta(minutes=5, milliseconds=1))
    assert body["SecondsLeft"] == 15 * 60  # 899.999 s left shows 15:00


def test_td_payload_on_the_break_with_an_addon(director):
    t = _running(director)
    on_break = T0 + timedelta(minutes=21)
    entry = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).first()
    with time_machine.travel(on_break, tick=False):
        money.entry_addon(tournament_id=t.pk, entry_id=entry.pk, actor=director)
    body = _td(t, on_break)
    assert body["IsBreak"] is True
    assert body["Level"] == "Break"
    assert body["RoundNum"] == 1  # the level played before the break
    assert (body["SmallBlind"], body["BigBlind"], body["Ante"]) == (0, 0, 0)
    assert body["NextSmallBlind"] == 200
    assert body["SecondsLeft"] == 9 * 60
    assert body["LevelDuration"] == 10 * 60
    assert body["StateDesc"] == "On break"
    assert body["TotalAddons"] == 1
    assert body["Pot"] == 470
    assert body["ChipCount"] == 6 * 20000 + 10000 + 15000


def test_td_payload_paused_keeps_its_seconds(director):
    t = _running(director)
    with time_machine.travel(T0 + timedelta(minutes=30), tick=False):
        services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    body = _td(t, T0 + timedelta(hours=2))
    assert body["ClockPaused"] is True
    assert body["StateDesc"] == "Paused"
    assert body["IsBreak"] is False and body["RoundNum"] == 2 and body["Level"] == "Level 2"
    assert body["SecondsLeft"] == 20 * 60 and body["NextSmallBlind"] == 0  # the last level


def test_td_payload_before_the_start_and_a_pot_in_cents(director, tournament):
    services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    Tournament.objects.filter(pk=tournament.pk).update(added_money=50)  # 0.50 more
    tournament.refresh_from_db()
    body = reads.td_payload(tournament)
    assert body["StateDesc"] == "Not started" and body["ClockPaused"] is True
    assert body["SecondsLeft"] == 20 * 60 and body["RoundNum"] == 1
    assert body["Pot"] == 50.5 and body["BustsUntilMoney"] == 0


def test_tourney_payload_shape_and_values(director):
    t = _running(director)
    body = reads.tourney_payload(t, T0 + timedelta(minutes=5), event="heartbeat")
    assert body["feed"] == "tourney.status/1" and body["event"] == "heartbeat"
    assert body["tournament"] == {"id": t.pk, "name": "Feed night", "status": "running"}
    assert body["clock"] == {
        "status": "running",
        "level_index": 0,
        "level": 1,
        "is_break": False,
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "big_blind_ante": 200,
        "seconds_left": 900,
        "level_seconds": 1200,
        "paused": False,
        "next": {"kind": "break", "seconds": 600, "color_up": [25]},
    }
    assert body["field"] == {
        "players_left": 5,
        "entries": 6,
        "rebuys": 1,
        "addons": 0,
        "chips_in_play": 130000,
        "average_stack": 26000,
    }
    paid = payouts_engine.paid_places(6)
    assert body["money"] == {"pool": 44000, "paid_places": paid, "busts_until_money": 5 - paid}
    assert body["version"] == t.version
    assert body["sent_at"] == "2026-12-03T19:05:00.000Z"


# ---------------------------------------------------------------- the writes


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"url": "ftp://example.com/feed"}, "bad_url", "url"),
        ({"url": "http://"}, "bad_url", "url"),
        ({"url": "not a url"}, "bad_url", "url"),
        ({"url": "http://example.com/" + "a" * 490}, "bad_url", "url"),
        ({"url": "http://example.com:99999/"}, "bad_url", "url"),
        ({"url": "http://exa\x00mple.com/"}, "bad_url", "url"),
        ({"every_seconds": 29}, "bad_every_seconds", "every_seconds"),
        ({"every_seconds": 86401}, "bad_every_seconds", "every_seconds"),
        ({"every_seconds": True}, "bad_every_seconds", "every_seconds"),
        ({"kind": "xml"}, "bad_kind", "kind"),
    ],
)
def test_a_bad_feed_is_refused_with_nothing_written(director, tournament, changes, code, field):
    args = {"url": "http://127.0.0.1:9/feed", "kind": "td", "every_seconds": 60, **changes}
    events = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        feeds.feed_create(tournament_id=tournament.pk, actor=director, **args)
    assert exc.value.code == code and field in exc.value.fields
    assert StatusFeed.objects.count() == 0 and Event.objects.count() == events


def test_the_shortest_heartbeat_follows_the_setting(director, tournament, settings):
    settings.STATUS_FEED_MIN_SECONDS = 45
    with pytest.raises(DomainError) as exc:
        feeds.feed_create(tournament_id=tournament.pk, url="http://h/x", every_seconds=44)
    assert exc.value.message == "Send every: a whole number of seconds from 45 to 86400."
    feed = feeds.feed_create(
        tournament_id=tournament.pk, url="http://obs-pc:8080/feed", every_seconds=45
    )
    assert feed.every_seconds == 45


def test_feed_writes_are_logged_without_the_secret_and_leave_the_tournament_alone(
    director, tournament
):
    version = Tournament.objects.get(pk=tournament.pk).version
    feed = feeds.feed_create(
        tournament_id=tournament.pk, url="https://example.com/hook", kind="tourney", actor=director
    )
    assert len(feed.secret) >= 40
    old = feed.secret
    feed = feeds.feed_secret_rotate(feed_id=feed.pk, actor=director)
    assert feed.secret != old and StatusFeed.objects.get(pk=feed.pk).secret == feed.secret
    feeds.feed_update(feed_id=feed.pk, every_seconds=120, active=False, actor=director)
    feeds.feed_delete(feed_id=feed.pk, actor=director)
    kinds = list(
        Event.objects.filter(kind__startswith="status_feed_")
        .order_by("pk")
        .values_list("kind", "tournament")
    )
    assert kinds == [
        ("status_feed_created", None),
        ("status_feed_secret_rotated", None),
        ("status_feed_updated", None),
        ("status_feed_deleted", None),
    ]
    for e in Event.objects.filter(kind__startswith="status_feed_"):
        assert old not in str(e.payload) and feed.secret not in str(e.payload)
        assert e.payload["tournament"] == tournament.pk
    assert Tournament.objects.get(pk=tournament.pk).version == version
    assert not StatusFeed.objects.exists()


def test_update_keeps_what_is_not_given_and_a_new_address_resends(director, tournament):
    feed = feeds.feed_create(
        tournament_id=tournament.pk, url="http://a.example/x", every_seconds=90
    )
    StatusFeed.objects.filter(pk=feed.pk).update(sent_version=7)
    feed = feeds.feed_update(feed_id=feed.pk, every_seconds=60)
    assert (feed.url, feed.kind, feed.every_seconds, feed.sent_version) == (
        "http://a.example/x",
        "td",
        60,
        7,
    )
    feed = feeds.feed_update(feed_id=feed.pk, url="http://b.example/y")
    assert StatusFeed.objects.get(pk=feed.pk).sent_version == 0  # sent again, to the new one
    with pytest.raises(DomainError) as exc:
        feeds.feed_update(feed_id=feed.pk, url="gopher://x", every_seconds=30)
    assert exc.value.code == "bad_url"
    assert StatusFeed.objects.get(pk=feed.pk).every_seconds == 60  # nothing half written


def test_an_unknown_feed_is_not_found(director):
    for call in (feeds.feed_delete, feeds.feed_secret_rotate, feeds.feed_update):
        with pytest.raises(DomainError) as exc:
            call(feed_id=999, actor=director)
        assert exc.value.code == "not_found" and exc.value.status == 404


def test_a_feed_keeps_its_last_fifty_deliveries(tournament):
    feed = feeds.feed_create(tournament_id=tournament.pk, url="http://a.example/x")
    for i in range(55):
        d = feeds.delivery_start(feed_id=feed.pk, version=i, attempt=1, now=T0)
        feeds.delivery_record(delivery=d, status=500 if i % 2 else 200, error="boom", ms=3, now=T0)
    kept = list(
        FeedDelivery.objects.filter(feed=feed).order_by("version").values_list("version", flat=True)
    )
    assert kept == list(range(5, 55))
    feed.refresh_from_db()
    assert (feed.last_status, feed.failures, feed.last_error) == (200, 0, "")
    d = feeds.delivery_start(feed_id=feed.pk, version=99, attempt=1, now=T0)
    feeds.delivery_record(delivery=d, status=0, error="ConnectionError: refused\x00", ms=1, now=T0)
    feed.refresh_from_db()
    assert (feed.last_status, feed.failures) == (0, 1)
    assert feed.last_error == "ConnectionError: refused" and feed.last_ok_at == T0


def test_the_signature_is_the_hmac_of_the_raw_body():
    import hashlib
    import hmac

    body = b'{"Title":"x"}'
    want = hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert feeds.sign("s3cret", body) == "sha256=" + want
