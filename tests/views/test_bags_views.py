"""Issue 26, bag and tag on the director's screens (RULES 10.4): the bag form of an ended
flight table by table (one row per seated player, the table's bags replaced when entered
again, the next table brought up), refusals in place with what was typed kept and nothing
written, the counted chips against the chips in play with the difference, the players still
without a bag, closing the bags (refused while one is missing), the read-only page once
closed, the bag labels with their QR, the chip count report and its CSV; who may see them."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tables.models import Seat
from tests.services.test_flights_services import _event, _flights, _play
from tourney.models import ChipCount, Event, Player, Tournament
from tourney.selectors import flights as reads
from tourney.services import flights as service
from tourney.views.dashboard import bags as screen
from tourney.views.dashboard import chip_counts as cc_screen

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _url(t: Tournament, name: str = "tourney-dashboard-bags", table: int | None = None) -> str:
    return reverse(name, args=[t.pk]) + (f"?table={table}" if table else "")


def _ended(director) -> Tournament:
    """Day 1A of a two-flight event, ended by its field (RULES 10.2): 8 of 12 players left,
    four at each of two tables of six."""
    event = _event(director, letters=["A", "B"], tables=2, seats_per_table=6, end_at_players=8)
    t = _flights(event)[0]
    _play(t, director, [Player.objects.create(name=f"Player {i:02d}") for i in range(12)])
    t.refresh_from_db()
    assert reads.flight_end_reason(t) == "players"
    return t


def _seats(t: Tournament, table: int) -> list[tuple[int, int, str]]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("entry_id", "number", "entry__player__name")
    )


def _post(td, t: Tournament, table: int, chips: list[str], *, seats=None, **headers):
    data = {"table": str(table)}
    for (entry, seat, _), typed in zip(seats or _seats(t, table), chips, strict=True):
        data[f"entry_{seat}"] = str(entry)
        data[f"chips_{seat}"] = typed
    return td.post(_url(t), data, **headers)


def _bags() -> list[tuple[int, int, int, int]]:
    return list(
        ChipCount.objects.filter(bag=True)
        .order_by("table", "seat")
        .values_list("entry_id", "chips", "table", "seat")
    )


def _bag_both_tables(td, t: Tournament, short: int = 0) -> None:
    """Both tables bagged through the form, 30,000 each, ``short`` chips fewer on the last."""
    assert reads.bag_status(t).chips_in_play == 8 * 30000
    assert _post(td, t, 1, ["30000"] * 4, **HX).status_code == 200
    assert _post(td, t, 2, ["30000"] * 3 + [str(30000 - short)], **HX).status_code == 200


# ---------------------------------------------------------------- before the end


def test_before_the_flights_end_the_page_says_so_and_shows_no_form(td, director):
    t = _flights(_event(director, letters=["A"]))[0]
    Player.objects.create(name="Early Bird")
    r = td.get(_url(t, table=1))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Bag and tag comes once the flight has ended" in html
    assert 'name="chips_' not in html and "Close the bags" not in html
    assert "<html" in html  # the page of its own


def test_a_tournament_that_is_no_flight_says_so_and_takes_no_bags(td, seated_tournament):
    t = seated_tournament
    html = td.get(_url(t), **HX).content.decode()
    assert service.MSG_NOT_A_FLIGHT in html and 'name="chips_' not in html
    entry, seat, _ = _seats(t, 1)[0]
    data = {"table": "1", f"entry_{seat}": str(entry), f"chips_{seat}": "20000"}
    r = td.post(_url(t), data, **HX)
    assert r.status_code == 409
    assert service.MSG_NOT_A_FLIGHT in r.content.decode()
    assert td.post(_url(t, "tourney-dashboard-bags-close"), **HX).status_code == 409
    assert not ChipCount.objects.exists()
    assert not Tournament.objects.filter(bagged=True).exists()


# ---------------------------------------------------------------- table by table


def test_a_table_shows_its_players_with_the_first_focused(td, director):
    t = _ended(director)
    r = td.get(_url(t, table=1), **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "<html" not in html  # the panel alone
    for entry, seat, name in _seats(t, 1):
        assert f'name="entry_{seat}" value="{entry}"' in html and name in html
    assert html.count("autofocus") == 1
    assert re.search(r'name="chips_1" value=""[^>]*autofocus', html)
    assert (
        'Counted <b>0</b> · in play <b>240,000</b> · difference <b class="off">−240,000</b>' in html
    )
    # Every player still in is missing, with their table and seat.
    missing = re.search(r'<ul class="bag-missing".*?</ul>', html, re.S).group(0)
    assert missing.count("<li>") == 8 and "T2 S6" in missing


def test_recording_a_table_writes_its_bags_and_brings_up_the_next_table(td, director):
    t = _ended(director)
    seats = _seats(t, 1)
    r = _post(td, t, 1, ["61,500", " 12000 ", "45250", "30000"], **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "tourney-changed" in r["HX-Trigger"]
    assert "Table 1: 4 bags recorded, 148,750 chips." in html
    assert 'name="table" value="2"' in html  # the next table comes up
    assert "Counted <b>148,750</b> · in play <b>240,000</b>" in html
    assert re.search(r'difference <b class="off">−91,250</b>\s+<small[^>]*>\(4 still without', html)
    assert '<th class="num">4 / 8</th>' in html  # the bags of all tables, of the players
    assert _bags() == [
        (seats[0][0], 61500, 1, seats[0][1]),
        (seats[1][0], 12000, 1, seats[1][1]),
        (seats[2][0], 45250, 1, seats[2][1]),
        (seats[3][0], 30000, 1, seats[3][1]),
    ]
    assert Event.objects.filter(tournament=t, kind="bags_recorded").count() == 1


def test_a_table_entered_again_replaces_its_bags_and_shows_them_first(td, director):
    t = _ended(director)
    seats = _seats(t, 1)
    _post(td, t, 1, ["30000", "30000", "30000", "30000"], **HX)
    html = td.get(_url(t, table=1), **HX).content.decode()
    assert f'name="chips_{seats[0][1]}" value="30000"' in html  # the bag already entered
    assert "typing again replaces its bags" in html
    r = _post(td, t, 1, ["52000", "", "30000", "8000"], **HX)
    assert r.status_code == 200
    assert _bags() == [
        (seats[0][0], 52000, 1, seats[0][1]),
        (seats[2][0], 30000, 1, seats[2][1]),
        (seats[3][0], 8000, 1, seats[3][1]),
    ]
    # The row left blank has no bag now: its player shows as missing.
    html = r.content.decode()
    missing = re.search(r'<ul class="bag-missing".*?</ul>', html, re.S).group(0)
    assert seats[1][2] in missing


@pytest.mark.parametrize(
    ("typed", "status", "message"),
    [
        ("12k5", 400, cc_screen.MSG_BAD_CHIPS.format(seat="{seat}")),
        ("0", 400, cc_screen.MSG_NO_CHIPS.format(seat="{seat}")),
        ("-300", 400, cc_screen.MSG_NO_CHIPS.format(seat="{seat}")),
    ],
)
def test_a_bad_row_is_refused_in_place_with_what_was_typed(td, director, typed, status, message):
    t = _ended(director)
    seats = _seats(t, 1)
    bad = seats[2][1]
    r = _post(td, t, 1, ["61500", "12000", typed, "30000"], **HX)
    assert r.status_code == status
    html = r.content.decode()
    assert message.format(seat=bad) in html
    assert f'name="chips_{bad}" value="{typed}"' in html
    assert f'name="chips_{seats[0][1]}" value="61500"' in html
    assert re.search(rf'name="chips_{bad}"[^>]*autofocus[^>]*aria-invalid="true"', html)
    assert html.count("autofocus") == 1
    assert not ChipCount.objects.exists()
    assert not Event.objects.filter(kind="bags_recorded").exists()


def test_a_player_of_another_table_is_refused_in_place(td, director):
    t = _ended(director)
    seats = _seats(t, 1)
    stranger = _seats(t, 2)[0]
    forged = [*seats[:3], (stranger[0], seats[3][1], stranger[2])]  # the last row: table 2's
    r = _post(td, t, 1, ["61500", "12000", "45250", "30000"], seats=forged, **HX)
    assert r.status_code == 409
    html = r.content.decode()
    assert escape(service.MSG_NOT_AT_TABLE % {"entry": stranger[0], "table": 1}) in html
    assert 'value="61500"' in html and 'value="45250"' in html
    assert not ChipCount.objects.exists()


def test_nothing_typed_is_refused(td, director):
    t = _ended(director)
    r = _post(td, t, 1, ["", "", "", ""], **HX)
    assert r.status_code == 400
    assert cc_screen.MSG_NOTHING_TYPED in r.content.decode()
    assert not ChipCount.objects.exists()


@pytest.mark.parametrize(
    ("typed", "status", "message"),
    [
        ("abc", 400, screen.MSG_BAD_TABLE),
        ("0", 400, screen.MSG_BAD_TABLE),
        ("9", 404, service.MSG_NO_TABLE % {"table": 9}),
    ],
)
def test_a_bad_table_number_is_refused_with_what_was_typed(td, director, typed, status, message):
    t = _ended(director)
    r = td.get(_url(t) + f"?table={typed}", **HX)
    assert r.status_code == status
    html = r.content.decode()
    assert escape(message) in html
    assert re.search(rf'<input name="table"[^>]*aria-label="Table to bag" value="{typed}"', html)
    assert 'name="chips_' not in html
    entry, seat, _ = _seats(t, 1)[0]
    data = {"table": typed, f"entry_{seat}": str(entry), f"chips_{seat}": "30000"}
    assert td.post(_url(t), data, **HX).status_code == status
    assert not ChipCount.objects.exists()


def test_without_javascript_a_table_recorded_redirects_to_the_next(td, director):
    t = _ended(director)
    r = _post(td, t, 1, ["30000"] * 4)
    assert r.status_code == 302
    assert r["Location"] == _url(t, table=2)
    html = td.get(r["Location"]).content.decode()
    assert "<html" in html and f'name="entry_{_seats(t, 2)[0][1]}"' in html


# ---------------------------------------------------------------- closing the bags


def test_closing_is_refused_with_players_missing_then_accepted(td, director):
    t = _ended(director)
    _post(td, t, 1, ["30000"] * 4, **HX)
    close = _url(t, "tourney-dashboard-bags-close")
    r = td.post(close, **HX)
    assert r.status_code == 409
    html = r.content.decode()
    assert escape(service.MSG_COUNTS_MISSING % {"missing": 4}).split(" (")[0] in html
    assert "Close the bags" in html
    t.refresh_from_db()
    assert not t.bagged
    assert not Event.objects.filter(kind="flight_bagged").exists()

    _post(td, t, 2, ["30000", "30000", "30000", "29400"], **HX)
    r = td.post(close, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "The bags are closed: 239,400 chips counted, difference −600." in html
    assert "tourney-changed" in r["HX-Trigger"]
    t.refresh_from_db()
    assert t.bagged
    assert Event.objects.get(kind="flight_bagged").payload["difference"] == -600
    # Read-only now, with the labels and the report.
    html = td.get(_url(t)).content.decode()
    assert "Counted <b>239,400</b> · in play <b>240,000</b> · difference" in html
    assert "−600" in html and "bags closed" in html
    assert 'name="chips_' not in html and "Close the bags" not in html
    for name in ("bag-labels", "chip-report", "chip-report-csv"):
        assert f'href="{_url(t, "tourney-dashboard-" + name)}"' in html


def test_a_table_posted_once_the_bags_are_closed_is_refused_with_what_was_typed(td, director):
    t = _ended(director)
    _bag_both_tables(td, t)
    service.flight_bag_close(tournament_id=t.pk, actor=director)
    before = _bags()
    r = _post(td, t, 1, ["11111", "22222", "33333", "44444"], **HX)
    assert r.status_code == 409
    html = r.content.decode()
    assert escape(service.MSG_FLIGHT_BAGGED) in html and 'value="22222"' in html
    assert _bags() == before
    r = td.post(_url(t, "tourney-dashboard-bags-close"), **HX)
    assert r.status_code == 409 and escape(service.MSG_FLIGHT_BAGGED) in r.content.decode()


# ---------------------------------------------------------------- labels and report


def test_the_labels_name_each_bag_with_its_count_and_a_qr(td, director, monkeypatch):
    t = _ended(director)
    _bag_both_tables(td, t, short=600)
    encoded = []
    real = screen.qr_svg
    monkeypatch.setattr(screen, "qr_svg", lambda text: encoded.append(text) or real(text))
    r = td.get(_url(t, "tourney-dashboard-bag-labels"))
    assert r.status_code == 200
    html = r.content.decode()
    assert html.count('<article class="bag-label"') == 8
    assert len(re.findall(r'<svg viewBox="[\d ]+" class="qr">', html)) == 8
    for _, _, name in _seats(t, 1) + _seats(t, 2):
        assert name in html
    assert html.count(">30,000<") == 7 and html.count(">29,400<") == 1
    assert "Main Event · Day 1A" in html and "Table 2 · Seat 6" in html and "Bag 8" in html
    assert "data-print" in html and "no-print" in html
    # Each QR opens the player's phone page, found by their name.
    first = _seats(t, 1)[0][2].replace(" ", "+")
    assert encoded[0] == f"http://testserver/p/{t.display_token}/?name={first}"
    assert len(encoded) == 8


def test_a_label_without_a_phone_page_holds_a_short_text(rf, director):
    ctx = {"event_name": "Main Event", "flight_label": "Day 1B"}
    label = {"token": "", "number": 7, "name": "Ann Lee", "chips": 61500}
    assert screen._qr_target(rf.get("/"), ctx, label) == "Main Event Day 1B bag 7: Ann Lee 61,500"


def test_the_report_lists_the_biggest_stack_first_and_each_table(td, director):
    t = _ended(director)
    _post(td, t, 1, ["61500", "12000", "45250", "30000"], **HX)
    _post(td, t, 2, ["30000", "8800", "22100", "30350"], **HX)
    r = td.get(_url(t, "tourney-dashboard-chip-report"))
    assert r.status_code == 200
    html = r.content.decode()
    first = re.search(r'<table class="list cr-chips">.*?</table>', html, re.S).group(0)
    chips = re.findall(r"<b>([\d,]+)</b>", first)
    assert chips == ["61,500", "45,250", "30,350", "30,000", "30,000", "22,100", "12,000", "8,800"]
    ranks = re.findall(r'<tr><td class="num">(\d+)</td>', first)
    assert ranks == ["1", "2", "3", "4", "4", "6", "7", "8"]  # equal stacks share a rank
    assert "Table 1 <small>· 4 bags · 148,750</small>" in html
    assert "Table 2 <small>· 4 bags · 91,250</small>" in html
    assert "Main Event — Day 1A chip counts" in html


def test_the_csv_has_one_line_per_bag_biggest_first(td, director):
    t = _ended(director)
    _post(td, t, 1, ["61500", "12000", "45250", "30000"], **HX)
    _post(td, t, 2, ["30000", "8800", "22100", "30350"], **HX)
    r = td.get(_url(t, "tourney-dashboard-chip-report-csv"))
    assert r.status_code == 200
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="main-event-day-1a-chip-counts.csv"' in r["Content-Disposition"]
    one, two = _seats(t, 1), _seats(t, 2)
    name = {(1, s): n for _, s, n in one} | {(2, s): n for _, s, n in two}
    s1, s2 = [s for _, s, _ in one], [s for _, s, _ in two]
    expected = [
        ["rank", "name", "chips", "table", "seat", "flight"],
        ["1", name[1, s1[0]], "61500", "1", str(s1[0]), "Day 1A"],
        ["2", name[1, s1[2]], "45250", "1", str(s1[2]), "Day 1A"],
        ["3", name[2, s2[3]], "30350", "2", str(s2[3]), "Day 1A"],
        ["4", name[1, s1[3]], "30000", "1", str(s1[3]), "Day 1A"],
        ["4", name[2, s2[0]], "30000", "2", str(s2[0]), "Day 1A"],
        ["6", name[2, s2[2]], "22100", "2", str(s2[2]), "Day 1A"],
        ["7", name[1, s1[1]], "12000", "1", str(s1[1]), "Day 1A"],
        ["8", name[2, s2[1]], "8800", "2", str(s2[1]), "Day 1A"],
    ]
    assert list(csv.reader(io.StringIO(r.content.decode()))) == expected


def test_a_name_that_a_spreadsheet_would_run_is_written_as_text(td, director):
    t = _ended(director)
    entry, seat, _ = _seats(t, 1)[0]
    Player.objects.filter(entries__pk=entry).update(name="=HYPERLINK(1)")
    _post(td, t, 1, ["30000", "", "", ""], **HX)
    rows = list(
        csv.reader(
            io.StringIO(td.get(_url(t, "tourney-dashboard-chip-report-csv")).content.decode())
        )
    )
    assert rows[1][1] == "'=HYPERLINK(1)"


# ---------------------------------------------------------------- who may see them

NAMES = [
    "tourney-dashboard-bags",
    "tourney-dashboard-bag-labels",
    "tourney-dashboard-chip-report",
    "tourney-dashboard-chip-report-csv",
]


@pytest.mark.parametrize("name", NAMES)
def test_only_the_director_sees_the_bag_screens(client, stranger, desk_clerk, director, name):
    t = _ended(director)
    r = client.get(_url(t, name))
    assert r.status_code == 302 and r["Location"].startswith("/login/")
    for user in (stranger, desk_clerk):
        client.force_login(user)
        assert client.get(_url(t, name)).status_code == 403


def test_only_the_director_records_or_closes_bags(client, stranger, director):
    t = _ended(director)
    entry, seat, _ = _seats(t, 1)[0]
    data = {"table": "1", f"entry_{seat}": str(entry), f"chips_{seat}": "30000"}
    close = _url(t, "tourney-dashboard-bags-close")
    assert client.post(_url(t), data)["Location"].startswith("/login/")
    client.force_login(stranger)
    assert client.post(_url(t), data).status_code == 403
    assert client.post(close).status_code == 403
    assert not ChipCount.objects.exists()
    t.refresh_from_db()
    assert not t.bagged
