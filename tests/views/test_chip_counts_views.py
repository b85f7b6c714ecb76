"""Issue 26, chip counts during play on the screens (RULES 10.8): the dashboard's chip count
panel (a table's rows, what was typed kept on a refusal with the message in place, the next
table after a table is recorded, the latest counts with their time, a page of its own without
JavaScript), the TV's chip leaders (only once counts exist, one small query), the phone page's
leaders and a player's own latest count in find-my-seat."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.models import Seat
from tourney import services
from tourney.models import ChipCount, Event, Tournament
from tourney.selectors import display as public
from tourney.services.chip_counts import chip_counts_record
from tourney.views.dashboard import chip_counts as screen

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
T0 = datetime(2026, 3, 6, 20, 15, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _url(t: Tournament, table: int | None = None) -> str:
    url = reverse("tourney-dashboard-chip-counts", args=[t.pk])
    return url + (f"?table={table}" if table else "")


def _seats(t: Tournament, table: int = 1) -> list[tuple[int, int, str]]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )


def _post(td, t: Tournament, table: int, chips: dict[int, str], **headers):
    data = {"table": str(table)}
    for entry, seat, _ in _seats(t, table):
        data[f"entry_{seat}"] = str(entry)
        data[f"chips_{seat}"] = chips.get(seat, "")
    return td.post(_url(t), data, **headers)


def test_the_dashboard_page_loads_the_panel_by_itself(td, seated_tournament):
    t = seated_tournament
    html = td.get(reverse("tourney-dashboard", args=[t.pk])).content.decode()
    assert 'id="chip-counts"' in html
    assert f'hx-get="{_url(t)}" hx-trigger="load"' in html
    assert f'href="{_url(t)}"' in html  # without JavaScript: the page of its own


def test_a_table_shows_one_row_per_player_with_the_first_focused(td, seated_tournament):
    t = seated_tournament
    r = td.get(_url(t, 1), **HX)
    assert r.status_code == 200
    html = r.content.decode()
    seats = _seats(t)
    for entry, seat, name in seats:
        assert f'name="entry_{seat}" value="{entry}"' in html
        assert f'name="chips_{seat}"' in html and name in html
    assert html.count("autofocus") == 1
    assert "<html" not in html  # the fragment alone
    assert "0 of 20 players counted" in html and "avg stack 20,000" in html


def test_recording_a_table_writes_one_action_and_brings_up_the_next_table(td, seated_tournament):
    t = seated_tournament
    seats = _seats(t)
    r = _post(td, t, 1, {seats[0][1]: "25,400", seats[2][1]: " 18000 "}, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "tourney-changed" in r["HX-Trigger"]
    assert "Recorded 2 counts at table 1" in html
    assert 'name="table" value="2"' in html  # table by table: the next one
    assert "25,400" in html and "18,000" in html  # the latest counts listed
    rows = list(ChipCount.objects.order_by("id").values_list("entry_id", "chips", "table", "seat"))
    assert rows == [(seats[0][0], 25400, 1, seats[0][1]), (seats[2][0], 18000, 1, seats[2][1])]
    assert Event.objects.filter(tournament=t, kind="chip_counts").count() == 1


def test_the_last_count_and_its_time_show_on_the_row(td, seated_tournament, director):
    t = seated_tournament
    t.time_zone = "Europe/Paris"
    t.save(update_fields=["time_zone"])
    entry, seat, _ = _seats(t)[1]
    chip_counts_record(tournament_id=t.pk, counts={entry: 31500}, actor=director, now=T0)
    html = td.get(_url(t, 1), **HX).content.decode()
    assert "31,500 <small" in html and "21:15" in html  # 20:15 UTC in Paris


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("12k5", screen.MSG_BAD_CHIPS),
        ("0", screen.MSG_NO_CHIPS),
        ("-300", screen.MSG_NO_CHIPS),
    ],
)
def test_a_bad_row_keeps_what_was_typed_with_the_message_in_place(
    td, seated_tournament, typed, message
):
    t = seated_tournament
    seats = _seats(t)
    bad = seats[3][1]
    r = _post(td, t, 1, {seats[0][1]: "20000", bad: typed}, **HX)
    assert r.status_code == 400
    html = r.content.decode()
    assert message.format(seat=bad) in html
    assert f'name="chips_{bad}" value="{typed}"' in html
    assert f'name="chips_{seats[0][1]}" value="20000"' in html
    assert 'aria-invalid="true"' in html
    assert f'name="chips_{bad}" value="{typed}" inputmode="numeric" autocomplete="off"' in html
    assert html.count("autofocus") == 1 and re.search(rf'chips_{bad}"[^>]*autofocus', html)
    assert not ChipCount.objects.exists()


def test_a_refusal_of_the_service_shows_in_the_form(td, seated_tournament):
    t = seated_tournament
    seats = _seats(t)
    r = _post(td, t, 1, {seats[0][1]: "300000", seats[1][1]: "200000"}, **HX)
    assert r.status_code == 409
    html = r.content.decode()
    assert "more than the 400,000 in play" in html
    assert 'value="300000"' in html and 'value="200000"' in html
    assert not ChipCount.objects.exists()


def test_nothing_typed_is_refused(td, seated_tournament):
    r = _post(td, seated_tournament, 1, {}, **HX)
    assert r.status_code == 400
    assert screen.MSG_NOTHING_TYPED in r.content.decode()


def test_without_javascript_the_form_is_a_page_and_redirects(td, seated_tournament):
    t = seated_tournament
    page = td.get(_url(t, 1))
    assert page.status_code == 200 and "<html" in page.content.decode()
    seats = _seats(t)
    r = _post(td, t, 1, {seats[0][1]: "22000"})
    assert r.status_code == 302 and r["Location"] == _url(t, 2)
    refused = _post(td, t, 1, {seats[0][1]: "x"})
    assert refused.status_code == 400 and "<html" in refused.content.decode()


def test_only_the_director_enters_counts(client, desk_clerk, seated_tournament):
    client.force_login(desk_clerk)
    assert client.get(_url(seated_tournament)).status_code == 403
    assert client.post(_url(seated_tournament), {"table": "1"}).status_code == 403


# ---------------------------------------------------------------- the TV and the phone


def _state(t: Tournament) -> dict:
    t.refresh_from_db()
    return public.build_state(t)


def _queries(t: Tournament) -> int:
    t.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        public.build_state(t)
    return len(ctx.captured_queries)


def test_the_tv_shows_no_chip_leaders_before_any_count(client, seated_tournament):
    t = seated_tournament
    assert "chip_leaders" not in _state(t)
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert "chip-leaders" not in html


def test_the_chip_leaders_are_the_five_biggest_latest_counts(client, seated_tournament, director):
    t = seated_tournament
    before = _queries(t)
    seats = _seats(t) + _seats(t, 2)
    chip_counts_record(
        tournament_id=t.pk,
        counts={e: 10000 + 1000 * i for i, (e, _, _) in enumerate(seats[:7])},
        actor=director,
        now=T0,
    )
    leaders = _state(t)["chip_leaders"]
    assert [c["chips"] for c in leaders] == ["16,000", "15,000", "14,000", "13,000", "12,000"]
    assert all(c["at"] == "20:15" for c in leaders)
    assert {"name", "table", "seat"} <= set(leaders[0])
    assert _queries(t) == before  # the counts' query takes the place of the players-left one
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert 'id="chip-leaders"' in html and "16,000" in html and "Chip leaders" in html
    phone = client.get(reverse("tourney-player", args=[t.display_token])).content.decode()
    assert 'id="chip-leaders"' in phone


def test_a_player_out_leaves_the_chip_leaders(seated_tournament, director):
    t = seated_tournament
    (a, _, _), (b, _, _) = _seats(t)[:2]
    chip_counts_record(tournament_id=t.pk, counts={a: 90000, b: 5000}, actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(a, None)], actor=director)
    assert [c["chips"] for c in _state(t)["chip_leaders"]] == ["5,000"]


def test_find_my_seat_shows_my_latest_count_and_its_time(client, seated_tournament, director):
    t = seated_tournament
    entry, _, name = _seats(t)[0]
    chip_counts_record(tournament_id=t.pk, counts={entry: 27250}, actor=director, now=T0)
    url = reverse("tourney-player-find", args=[t.display_token])
    html = client.get(url, {"name": name}).content.decode()
    assert "Your chips" in html and "27,250" in html and "counted 20:15" in html


def test_the_log_says_what_the_counts_and_flights_did():
    # RULES 10.2, 10.4, 10.8: the log's words for the new kinds (not the kind's raw name)
    from tourney.views.dashboard.reads import _event_words, kind_label

    assert _event_words("chip_counts", {"counts": [{}, {}]}) == "Chip counts of 2 player(s)"
    assert _event_words("bags_recorded", {"table": 3, "counts": {"1": 5, "2": 6}}) == (
        "Table 3: 2 bag(s)"
    )
    assert _event_words("flight_bagged", {"counted": 1234567}) == "Flight bagged: 1,234,567 chips"
    assert _event_words("flight_ended", {"reason": "players"}) == (
        "Flight ended: the field reached its number"
    )
    assert _event_words("day2_seated", {"entries": 41}) == "Day 2 seated: 41 stacks drawn"
    assert kind_label("bags_recorded") == "Bags"
