"""Issue 26, the director's screens of a multi-day event (RULES 10.1, 10.3, 10.5, 10.6): the
event created with its flights from the setup form and the event's fields (the last level
typed as the clock numbers it, stored as the structure's item index), each refusal in place
with what was typed kept and nothing created; the event's page (flights, totals, bags left
behind, the money); Day 2 refused until every flight has bagged, then built and seated; the
home page's list of events; who may see these pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.services.test_flights_services import _bag_all, _three_flights
from tourney.engine.money_format import money_exact
from tourney.engine.structure import MSG_NO_SUCH_LEVEL
from tourney.models import Entry, MultiDayEvent, Tournament
from tourney.selectors.event_view import event_summary
from tourney.services import flights, setup

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LEVELS = "100/200 20\nbreak 10\n200/400 20\n300/600 20"
FORM = {
    "name": "Main Event",
    "flights": "A, B, C",
    "end_level": "2",
    "end_players": "",
    "policy": "largest",
    "seats_per_table": "9",
    "tables": "2",
    "starting_stack": "20000",
    "buy_in": "100",
    "fee": "10",
    "guarantee": "0",
    "added_money": "0",
    "rounding": "1",
    "payouts": "",
    "chips": setup.DEFAULT_CHIPS_TEXT,
    "structure": "custom",
    "levels_text": LEVELS,
    "level_minutes": "20",
    "target_hours": "8",
    "break_every": "4",
    "break_minutes": "10",
    "bb_ante_from": "4",
    "late_reg_level": "1",
    "reentries": "1",
    "race_threshold": "half_or_more",
    "public_names": "initial",
    "bounty_kind": "none",
    "bounty": "0",
    "bounty_cash_percent": "50",
    "mystery_from_players": "9",
    "mystery_envelopes": "",
}


def _new(td, **changes):
    return td.post(reverse("tourney-event-new"), {**FORM, **changes})


def _counts() -> tuple[int, int]:
    return MultiDayEvent.objects.count(), Tournament.objects.count()


def _field_error(html: str, field: str) -> str:
    """The message shown under the form's field ``field``."""
    m = re.search(rf'name="{field}"[^>]*>.*?<span class="field-error">(.*?)</span>', html, re.S)
    return m.group(1) if m else ""


# ---------------------------------------------------------------- creating (RULES 10.1, 10.2)


def test_the_form_is_the_setup_form_with_the_events_fields(td):
    r = td.get(reverse("tourney-event-new"))
    assert r.status_code == 200
    html = r.content.decode()
    for field in ("flights", "end_level", "end_players", "policy", "levels_text", "payouts"):
        assert f'name="{field}"' in html
    assert 'value="largest" selected' in html
    assert "Create event and flights" in html


def test_an_event_created_with_its_last_level_as_a_number(td):
    r = _new(td)
    event = MultiDayEvent.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("tourney-event", args=[event.pk])
    days = list(Tournament.objects.filter(multi_day_event=event).order_by("pk"))
    assert [t.flight for t in days] == ["A", "B", "C"]
    assert [t.name for t in days] == [f"Main Event Day 1{x}" for x in "ABC"]
    # "level 2" is the third item: level 1, the break, level 2 (RULES 10.2)
    assert {(t.day, t.end_at_level, t.end_at_players) for t in days} == {(1, 2, None)}
    assert {(t.buy_in, t.fee, t.starting_stack, t.seats_per_table) for t in days} == {
        (10000, 1000, 20000, 9)
    }
    assert all(t.tables.count() == 2 for t in days)
    assert event.policy == "largest" and event.created_by.username == "td"


def test_an_event_ending_at_a_number_of_players_with_its_payouts_and_policy(td):
    r = _new(td, flights="a b", end_level="", end_players="12", policy="first", payouts="50 30 20")
    assert r.status_code == 302
    event = MultiDayEvent.objects.get()
    days = Tournament.objects.filter(multi_day_event=event).order_by("pk")
    assert [t.flight for t in days] == ["A", "B"]
    assert {(t.end_at_level, t.end_at_players) for t in days} == {(None, 12)}
    assert {tuple(t.payout_percentages) for t in days} == {(5000, 3000, 2000)}
    assert event.policy == "first"


def test_htmx_creation_sends_the_browser_to_the_event_page(td):
    r = td.post(reverse("tourney-event-new"), FORM, **HTMX)
    event = MultiDayEvent.objects.get()
    assert r.status_code == 200 and r["HX-Redirect"] == reverse("tourney-event", args=[event.pk])


@pytest.mark.parametrize(
    ("changes", "field", "message", "status"),
    [
        ({"flights": ""}, "flights", flights.MSG_FLIGHTS, 400),
        ({"flights": "A, B, A"}, "flights", flights.MSG_FLIGHTS, 400),
        ({"end_level": ""}, "end_level", "A flight needs an end", 400),
        ({"end_level": "9"}, "end_level", MSG_NO_SUCH_LEVEL % {"n": 9}, 400),
        ({"pays_on_day1": "on"}, "pays_on_day1", flights.MSG_PAYS_ON_DAY1, 400),
        ({"bounty_kind": "fixed", "bounty": "20"}, "bounty_kind", flights.MSG_NO_BOUNTIES, 400),
    ],
)
def test_a_refusal_shows_at_its_field_keeps_what_was_typed_creates_nothing(
    td, changes, field, message, status
):
    r = _new(td, **changes)
    assert r.status_code == status
    html = r.content.decode()
    assert escape(message) in _field_error(html, field)
    assert 'value="Main Event"' in html and escape(LEVELS) in html  # what was typed, kept
    assert _counts() == (0, 0)


def test_a_refusal_through_htmx_answers_the_form_alone(td):
    r = td.post(reverse("tourney-event-new"), {**FORM, "flights": "A A"}, **HTMX)
    assert r.status_code == 400
    html = r.content.decode()
    assert html.lstrip().startswith('<form id="event-form"') and "<html" not in html
    assert 'value="A A"' in html
    assert _counts() == (0, 0)


def test_preview_shows_the_structure_and_creates_nothing(td):
    r = _new(td, preview="1", structure="regular")
    assert r.status_code == 200
    html = r.content.decode()
    assert "<svg" in html and "levels." in html
    assert _counts() == (0, 0)


# ---------------------------------------------------------------- the event page (RULES 10.3, 10.6)


def test_the_event_page_lists_the_flights_and_their_totals(td, director):
    event, days, _ = _three_flights(director)
    r = td.get(reverse("tourney-event", args=[event.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    for t in days:
        assert f'href="{reverse("tourney-dashboard", args=[t.pk])}">{t.name}</a>' in html
    rows = re.findall(r'<tr class="flight[^"]*" id="flight-(\w)">(.*?)</tr>', html, re.S)
    assert [x for x, _ in rows] == ["A", "B", "C"]
    nums = [re.findall(r'<td class="num">(\d+)</td>', row)[:2] for _, row in rows]
    assert nums == [["7", "3"], ["7", "3"], ["5", "3"]]  # entries, players still in
    total = re.search(r'<tr class="total">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r'<td class="num">(\d+)</td>', total)[:2] == ["19", "9"]
    assert html.count("down to its field size") == 3
    assert money_exact(event_summary(event.pk).pool) in html
    assert "Waiting for: <b>Day 1A, Day 1B, Day 1C</b>" in html
    assert 'hx-trigger="every 5s"' in html  # flights still to bag: the page refreshes
    assert 'name="tables"' not in html  # no Day 2 form yet


def test_the_pages_own_refresh_gets_the_live_part(td, director):
    event, _, _ = _three_flights(director)
    r = td.get(reverse("tourney-event", args=[event.pk]), **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and html.lstrip().startswith('<div id="event-live"')


def test_day2_is_refused_until_every_flight_has_bagged_then_built_and_seated(td, director):
    event, days, shared = _three_flights(director)
    url = reverse("tourney-event-day2", args=[event.pk])
    for t in days[:2]:
        t.refresh_from_db()
        _bag_all(t, director)
        flights.flight_bag_close(tournament_id=t.pk, actor=director)
    r = td.post(url, {"tables": "2", "seats": "6"})
    assert r.status_code == 409
    message = flights.MSG_NOT_BAGGED % {"flights": "C"}
    assert f'<p class="error" role="alert">{escape(message)}</p>' in r.content.decode()
    assert not Tournament.objects.filter(multi_day_event=event, day=2).exists()

    days[2].refresh_from_db()
    _bag_all(days[2], director)
    flights.flight_bag_close(tournament_id=days[2].pk, actor=director)
    page = td.get(reverse("tourney-event", args=[event.pk])).content.decode()
    assert "every 5s" not in page  # every flight bagged: nothing left to refresh
    # 9 bags, 3 of them the shared players' second and third: 6 players, 1 table of 9
    assert 'name="tables" value="1"' in page and 'name="seats" value="9"' in page
    summary = event_summary(event.pk)
    left = re.search(r'<section class="panel" id="forfeited">(.*?)</section>', page, re.S)[1]
    assert len(summary.forfeited) == 3 and {f.player for f in summary.forfeited} == {
        p.name for p in shared
    }
    for f in summary.forfeited:  # the bags left behind, with the stack that goes on
        kept = f"Day 1{f.kept_flight}: {f.kept_chips:,}"
        assert re.search(rf"<td>{f.player}</td><td>Day 1{f.flight}</td>.*?{kept}", left, re.S)
    assert all(money_exact(p) in page for p in summary.prizes)

    r = td.post(url, {"tables": "2", "seats": "6"})
    day2 = Tournament.objects.get(multi_day_event=event, day=2)
    assert r.status_code == 302 and r["Location"] == reverse("tourney-event", args=[event.pk])
    assert day2.seats_per_table == 6
    assert Entry.objects.filter(tournament=day2, status=Entry.Status.SEATED).count() == 6
    page = td.get(r["Location"]).content.decode()
    assert reverse("tourney-dashboard", args=[day2.pk]) in page
    assert reverse("tourney-desk", args=[day2.pk]) in page
    assert reverse("tourney-display", args=[day2.display_token]) in page
    assert f"<b>6</b> players · <b>{summary.day2_chips:,}</b> chips" in page

    r = td.post(url, {"tables": "1", "seats": "9"})  # once only
    assert r.status_code == 409 and escape(flights.MSG_DAY2_EXISTS) in r.content.decode()


def test_day2_with_a_bad_number_keeps_what_was_typed(td, director):
    event, days, _ = _three_flights(director)
    for t in days:
        t.refresh_from_db()
        _bag_all(t, director)
        flights.flight_bag_close(tournament_id=t.pk, actor=director)
    r = td.post(reverse("tourney-event-day2", args=[event.pk]), {"tables": "x", "seats": "9"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "Tables: give a whole number." in html and 'name="tables" value="x"' in html
    assert not Tournament.objects.filter(multi_day_event=event, day=2).exists()


def test_day2_starts_at_the_level_typed_or_where_day1_stopped(td, director):
    """RULES 10.5: the flights stopped during level 1 (their field reached its number), so the
    form offers level 1; the director types level 2 (item 2, after the break)."""
    event, days, _ = _three_flights(director)
    for t in days:
        t.refresh_from_db()
        _bag_all(t, director)
        flights.flight_bag_close(tournament_id=t.pk, actor=director)
    page = td.get(reverse("tourney-event", args=[event.pk])).content.decode()
    assert 'name="level" value="1"' in page
    url = reverse("tourney-event-day2", args=[event.pk])
    r = td.post(url, {"tables": "1", "seats": "9", "level": "7"})
    assert r.status_code == 400 and 'name="level" value="7"' in r.content.decode()
    assert not Tournament.objects.filter(multi_day_event=event, day=2).exists()
    r = td.post(url, {"tables": "1", "seats": "9", "level": "2"})
    assert r.status_code == 302
    day2 = Tournament.objects.get(multi_day_event=event, day=2)
    assert (day2.clock_index, day2.clock_started) == (2, False)


# ---------------------------------------------------------------- home, access


def test_home_lists_the_events_and_offers_a_new_one(td, director):
    event, _, _ = _three_flights(director)
    html = td.get(reverse("home")).content.decode()
    assert f'href="{reverse("tourney-event", args=[event.pk])}">Main Event</a>' in html
    assert "Flights A, B, C" in html
    assert f'href="{reverse("tourney-event-new")}"' in html


def test_a_desk_clerk_sees_the_events_without_the_directors_links(client, desk_clerk, director):
    _three_flights(director)
    client.force_login(desk_clerk)
    html = client.get(reverse("home")).content.decode()
    assert "Main Event" in html and reverse("tourney-event-new") not in html


@pytest.mark.parametrize("name", ["tourney-event-new", "tourney-event", "tourney-event-day2"])
def test_only_directors(client, desk_clerk, director, name):
    event = MultiDayEvent.objects.create(name="X", slug="x")
    url = reverse(name, args=[] if name == "tourney-event-new" else [event.pk])
    r = client.get(url)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    client.force_login(desk_clerk)
    assert client.get(url).status_code == 403
    assert client.post(url, {}).status_code == 403
    assert _counts() == (1, 0)


def test_an_unknown_event_is_404(td):
    assert td.get(reverse("tourney-event", args=[999_999])).status_code == 404
    assert td.post(reverse("tourney-event-day2", args=[999_999]), {}).status_code == 404
