"""RULES 12 on the director's screens: the setup page and the settings page's satellite form,
the money panel of a satellite (seats and cash, seats won and left, the tickets with their
refund, the one-click deal) and of its target (the tickets issued into it), the TV's payouts,
and the log's words."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.conftest import TWO_LEVELS
from tests.views.test_bounty_setup_views import SETUP
from tourney import services
from tourney.models import Entry, Event, Tournament
from tourney.room_models import Ticket
from tourney.selectors.display import build_state
from tourney.services.tickets import ticket_register

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _event(director, name, *, buy_in, fee, players=0, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name=name,
        tables=2,
        starting_stack=20000,
        buy_in=buy_in,
        fee=fee,
        seed=5,
        levels=TWO_LEVELS,
        options=options,
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"{name[:3]} P{i + 1:02d}", actor=director)
    t.refresh_from_db()
    return t


@pytest.fixture
def target(director):
    return _event(director, "Main event", buy_in=5000, fee=500)


@pytest.fixture
def sat(director, target):
    # 12 x 10.00: two seats of 55.00 and 10.00 cash to 3rd (RULES 12.2)
    return _event(
        director, "Satellite", buy_in=1000, fee=100, players=12, satellite_target=target.pk
    )


def _bust_down_to(t, left, director):
    while True:
        seated = list(
            Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number")
        )
        if len(seated) <= left:
            return
        services.elimination_record(tournament_id=t.pk, busts=[(seated[-1].pk, 1)], actor=director)


def _money(td, t) -> str:
    return td.get(reverse("tourney-dashboard-money", args=[t.pk]), **HX).content.decode()


def test_money_panel_shows_seats_and_cash_and_no_payout_table(td, sat, target):
    html = _money(td, sat)
    assert "<b>Satellite for" in html and ">Main event</a>:</b>" in html
    assert "2 seats of 55.00 + 10.00 cash to place 3" in html
    assert "<span>1</span> Seat (55.00)" in html and "<span>3</span> 10.00" in html
    assert 'id="seats-won">0<' in html and 'id="seats-left">2<' in html
    assert "Payout table" not in html  # RULES 12.2: the seats are the payouts
    assert "satellite-deal" not in html
    assert "opens when the players left equal the seats left: 12 players, 2 seats left" in html


def test_deal_button_confirm_step_and_the_deal(td, sat, director):
    _bust_down_to(sat, 2, director)
    html = _money(td, sat)
    assert "All 2 players take seats" in html and 'name="confirm"' in html
    deal_url = reverse("tourney-dashboard-satellite-deal", args=[sat.pk])
    events = Event.objects.filter(tournament=sat).count()
    r = td.post(deal_url, {}, **HX)  # not confirmed: refused, nothing changed
    assert r.status_code == 400 and "Tick the box to confirm" in r.content.decode()
    assert Event.objects.filter(tournament=sat).count() == events
    r = td.post(deal_url, {"confirm": "1"}, **HX)
    assert r.status_code == 200 and "tourney-changed" in r["HX-Trigger"]
    sat.refresh_from_db()
    assert sat.status == Tournament.Status.FINISHED
    assert Ticket.objects.filter(satellite=sat).count() == 2
    html = r.content.decode()
    assert 'id="seats-won">2<' in html and "Not used yet" in html


def test_deal_refused_with_the_counts(td, sat, director):
    _bust_down_to(sat, 3, director)
    r = td.post(reverse("tourney-dashboard-satellite-deal", args=[sat.pk]), {"confirm": "1"}, **HX)
    assert r.status_code == 409
    assert "3 players left, 2 seats left" in r.content.decode()
    sat.refresh_from_db()
    assert sat.status != Tournament.Status.FINISHED


def test_refund_needs_a_reason_then_shows_it(td, sat, director):
    _bust_down_to(sat, 1, director)
    ticket = Ticket.objects.filter(satellite=sat).order_by("pk").first()
    refund = reverse("tourney-dashboard-ticket-refund", args=[sat.pk, ticket.pk])
    r = td.post(refund, {"reason": "  "}, **HX)
    assert r.status_code == 400 and escape("Say why the ticket is refunded.") in r.content.decode()
    ticket.refresh_from_db()
    assert ticket.status == "issued"
    r = td.post(refund, {"reason": "Moving abroad"}, **HX)
    assert r.status_code == 200
    ticket.refresh_from_db()
    assert (ticket.status, ticket.refund_reason) == ("refunded", "Moving abroad")
    assert "Refunded" in r.content.decode() and "Moving abroad" in r.content.decode()
    # the log says it in words
    log = td.get(reverse("tourney-dashboard-log", args=[sat.pk]), **HX).content.decode()
    assert (
        f"Ticket #{ticket.pk} of {escape(ticket.player.name)} refunded (55.00): Moving abroad"
        in log
    )


def test_refund_of_another_satellites_ticket_is_404(td, sat, target, director):
    _bust_down_to(sat, 1, director)
    ticket = Ticket.objects.filter(satellite=sat).first()
    r = td.post(
        reverse("tourney-dashboard-ticket-refund", args=[target.pk, ticket.pk]),
        {"reason": "x"},
        **HX,
    )
    assert r.status_code == 404
    ticket.refresh_from_db()
    assert ticket.status == "issued"


def test_target_dashboard_lists_the_tickets_into_it(td, sat, target, director):
    _bust_down_to(sat, 1, director)
    first = Ticket.objects.filter(satellite=sat).order_by("pk").first()
    entry = ticket_register(ticket_id=first.pk, actor=director)
    html = _money(td, target)
    assert "Satellite tickets into this event" in html
    assert "1 used, 1 not used yet" in html
    assert f"Used: entry #{entry.number}" in html
    log = td.get(reverse("tourney-dashboard-log", args=[target.pk]), **HX).content.decode()
    assert f"Ticket from satellite #{sat.pk}: {escape(first.player.name)} registered" in log


def test_tv_payouts_say_seat(sat, director):
    state = build_state(sat)
    assert state["payouts"][:2] == [
        {"places": "1–2", "amount": "Seat (55)"},
        {"places": "3", "amount": "10"},
    ]


def test_setup_page_creates_a_satellite(td, target):
    html = td.get(reverse("tourney-dashboard-setup")).content.decode()
    assert '<fieldset id="satellite-fields"><legend>Satellite</legend>' in html
    assert f'<option value="{target.pk}">Main event</option>' in html
    data = dict(SETUP, name="Sat night", satellite_target=str(target.pk), seat_value="60")
    r = td.post(reverse("tourney-dashboard-setup"), data)
    t = Tournament.objects.get(name="Sat night")
    assert r.status_code == 302
    assert (t.satellite_target_id, t.seat_value, t.tickets_transferable) == (target.pk, 6000, False)


def test_setup_page_refuses_a_seat_value_without_a_target(td):
    data = dict(SETUP, name="No target", seat_value="60")
    r = td.post(reverse("tourney-dashboard-setup"), data)
    assert r.status_code >= 400
    assert "need a target" in r.content.decode()
    assert not Tournament.objects.filter(name="No target").exists()


def test_settings_page_sets_and_refuses_the_satellite(td, target, director):
    t = _event(director, "Later", buy_in=1000, fee=0, players=3)
    page = td.get(reverse("tourney-dashboard-settings", args=[t.pk])).content.decode()
    assert 'id="satellite"' in page and "Save satellite settings" in page
    assert f'<option value="{t.pk}">' not in page.split('id="satellite"')[1]  # not itself
    url = reverse("tourney-dashboard-satellite-settings", args=[t.pk])
    r = td.post(url, {"satellite_target": str(target.pk), "seat_value": ""}, **HX)
    assert r.status_code == 200 and "Saved." in r.content.decode()
    t.refresh_from_db()
    assert t.satellite_target_id == target.pk
    # the target made a satellite of its own satellite: refused, nothing changed
    url2 = reverse("tourney-dashboard-satellite-settings", args=[target.pk])
    r = td.post(url2, {"satellite_target": str(t.pk)}, **HX)
    assert r.status_code == 409 and "circle" in r.content.decode()
    target.refresh_from_db()
    assert target.satellite_target_id is None
    # a plain form: redirected back to the settings page
    r = td.post(url, {"satellite_target": str(target.pk), "tickets_transferable": "on"})
    assert r.status_code == 302
    t.refresh_from_db()
    assert t.tickets_transferable is True


def test_settings_locked_once_a_ticket_is_issued(td, sat, director):
    _bust_down_to(sat, 1, director)
    page = td.get(reverse("tourney-dashboard-settings", args=[sat.pk])).content.decode()
    assert "Locked: 2 ticket(s) already issued" in page
    r = td.post(
        reverse("tourney-dashboard-satellite-settings", args=[sat.pk]),
        {"satellite_target": str(sat.satellite_target_id), "seat_value": "1"},
        **HX,
    )
    assert r.status_code == 409
    sat.refresh_from_db()
    assert sat.seat_value == 0


def test_results_sheet_says_seat(td, sat, director):
    _bust_down_to(sat, 1, director)
    html = td.get(reverse("tourney-results-print", args=[sat.pk])).content.decode()
    assert html.count("Seat (55.00)") == 2 and "10.00" in html


def test_tv_final_results_say_seat(sat, director):
    _bust_down_to(sat, 1, director)
    sat.refresh_from_db()
    results = build_state(sat)["results"]
    assert [r["prize"] for r in results[:3]] == ["Seat (55.00)", "Seat (55.00)", "10.00"]


def test_results_csv_marks_the_seats(td, sat, director):
    # RULES 12.2: the prize stays a number a spreadsheet adds up; the seat column says which
    _bust_down_to(sat, 1, director)
    rows = list(
        csv.reader(
            io.StringIO(td.get(reverse("tourney-results-csv", args=[sat.pk])).content.decode())
        )
    )
    assert rows[0] == ["place", "place_to", "name", "entry_number", "prize", "deal", "seat"]
    assert [(r[0], r[4], r[6]) for r in rows[1:4]] == [
        ("1", "55.00", "yes"),
        ("2", "55.00", "yes"),
        ("3", "10.00", ""),
    ]
