"""Issue 28: the desk's "Other events" panel and the waiting list across events, as the desk
screen shows them (tourney/views/desk_events.py, templates/desk/_events.html)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tourney import services
from tourney.models import Entry, Event, Player

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def clerk(desk_clerk) -> Client:
    c = Client()
    c.force_login(desk_clerk)
    return c


def _event(director, name, *, seats=9, tables=1, auto=True, **options):
    return services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=seats,
        tables=tables,
        buy_in=5000,
        fee=500,
        seed=3,
        options={"auto_open_tables": auto, **options},
    )


@pytest.fixture
def two(director):
    """Event A (the desk's) and event B, full: two seats, both taken, no new tables."""
    a = _event(director, "Main Event")
    b = _event(
        director, "Turbo", seats=2, auto=False, starts_at=timezone.now() + timedelta(hours=2)
    )
    for name in ("Bea One", "Bea Two"):
        services.entry_register(tournament_id=b.pk, name=name, actor=director)
    return a, b


def _rows(html: str) -> int:
    return html.count('class="ev ev-')


def test_the_desk_page_lists_the_other_events_with_seats_price_and_start(clerk, two, director):
    a, b = two
    roomy = _event(director, "Deepstack", seats=6, tables=2)
    r = clerk.get(reverse("tourney-desk", args=[a.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="desk-events"' in html
    assert _rows(html) == 2  # B and the deepstack, not A itself
    assert f'href="/desk/{b.pk}/"' in html and f'href="/desk/{roomy.pk}/"' in html
    panel = html[html.index('id="desk-events"') :]
    assert "<b>12</b> seats left" in panel and "+ new tables" in panel
    assert '<b class="ev-bad">full</b>' in panel
    assert "<b>55.00</b>" in panel and "(50.00 + 5.00)" in panel
    assert "registration open" in panel
    assert "today " in panel  # B's start, in the room's zone


def test_the_panel_for_a_player_offers_the_waiting_list_of_a_full_event_only(clerk, two, director):
    a, b = two
    roomy = _event(director, "Deepstack")
    ann = Player.objects.create(name="Ann Lee")
    r = clerk.get(reverse("tourney-desk-events", args=[a.pk]), {"player": ann.pk}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert html.lstrip().startswith("<section") or 'id="desk-events"' in html[:300]
    b_row = html[html.index(f'data-event="{b.pk}"') :]
    b_row = b_row[: b_row.index("</li>")]
    assert "Join the waiting list · 55.00" in b_row
    roomy_row = html[html.index(f'data-event="{roomy.pk}"') :]
    roomy_row = roomy_row[: roomy_row.index("</li>")]
    assert f'href="/desk/{roomy.pk}/?q=Ann+Lee"' in roomy_row
    assert "Join the waiting list" not in roomy_row


def test_joining_the_waiting_list_from_another_events_desk(clerk, two, desk_clerk):
    a, b = two
    ann = Player.objects.create(name="Ann Lee")
    r = clerk.post(
        reverse("tourney-desk-events-join", args=[a.pk]),
        {"event": b.pk, "player_id": ann.pk},
        **HTMX,
    )
    assert r.status_code == 200
    entry = Entry.objects.get(tournament=b, player=ann)
    assert entry.status == Entry.Status.ALTERNATE and entry.created_by == desk_clerk
    html = r.content.decode()
    assert "Ann Lee is on the waiting list of Turbo: alternate no. 1" in html
    assert "On its waiting list, no. 1" in html
    assert f'name="entry" value="{entry.pk}"' in html  # the undo
    assert not Entry.objects.filter(tournament=a).exists()
    # B's own desk lists her among its alternates
    side = clerk.get(reverse("tourney-desk-side", args=[b.pk]), **HTMX).content.decode()
    assert "#3 Ann Lee" in side[side.index('id="alternates"') :]


def test_a_typed_name_joins_and_the_undo_takes_it_back(clerk, two):
    a, b = two
    r = clerk.post(
        reverse("tourney-desk-events-join", args=[a.pk]),
        {"event": b.pk, "name": "Cy New"},
        **HTMX,
    )
    entry = Entry.objects.get(tournament=b, player__name="Cy New")
    r = clerk.post(
        reverse("tourney-desk-events-undo", args=[a.pk]),
        {"event": b.pk, "entry": entry.pk},
        **HTMX,
    )
    assert r.status_code == 200
    assert "Undone: #3 Cy New is off the waiting list." in r.content.decode()
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Player.objects.filter(name="Cy New").exists()


def _refused(clerk, a, data, code, status=409):
    before = (Entry.objects.count(), Event.objects.count(), Player.objects.count())
    r = clerk.post(reverse("tourney-desk-events-join", args=[a.pk]), data, **HTMX)
    assert r.status_code == status
    assert f'data-code="{code}"' in r.content.decode()
    assert (Entry.objects.count(), Event.objects.count(), Player.objects.count()) == before
    return r.content.decode()


def test_refusals_are_shown_in_the_events_row_nothing_written(clerk, two, director):
    a, b = two
    bea = Entry.objects.filter(tournament=b).first()
    html = _refused(clerk, a, {"event": b.pk, "player_id": bea.player_id}, "player_in_play")
    row = html[html.index(f'data-event="{b.pk}"') :]
    assert "already has an entry in play" in row[: row.index("</li>")]
    roomy = _event(director, "Deepstack")
    _refused(clerk, a, {"event": roomy.pk, "name": "Dee"}, "seats_open")
    _refused(clerk, a, {"event": a.pk, "name": "Dee"}, "bad_input", 400)
    _refused(clerk, a, {"event": "x", "name": "Dee"}, "bad_input", 400)
    _refused(clerk, a, {"event": b.pk, "name": "  "}, "bad_input", 400)
    _refused(clerk, a, {"event": 10**9, "name": "Dee"}, "not_found", 404)
    services.registration_close(tournament_id=b.pk, actor=director)
    _refused(clerk, a, {"event": b.pk, "name": "Dee"}, "registration_closed")


def test_without_javascript_the_join_answers_with_the_desk(clerk, two):
    a, b = two
    r = clerk.post(reverse("tourney-desk-events-join", args=[a.pk]), {"event": b.pk, "name": "Eve"})
    assert r.status_code == 303
    entry = Entry.objects.get(tournament=b, player__name="Eve")
    assert r["Location"] == f"/desk/{a.pk}/?ep={entry.player_id}"
    page = clerk.get(r["Location"]).content.decode()
    assert "Eve is on the waiting list of Turbo: alternate no. 1" in page
    assert "On its waiting list, no. 1" in page
    r = clerk.post(reverse("tourney-desk-events-join", args=[a.pk]), {"event": b.pk, "name": ""})
    assert r.status_code == 400 and 'id="desk-main"' in r.content.decode()


def test_the_search_offers_other_events_for_each_player(clerk, two):
    a, _b = two
    ann = Player.objects.create(name="Ann Lee")
    r = clerk.get(reverse("tourney-desk-search", args=[a.pk]), {"q": "ann"}, **HTMX)
    html = r.content.decode()
    assert f"/desk/{a.pk}/events/?player={ann.pk}" in html
    assert f"/desk/{a.pk}/events/?name=ann" in html


def test_strangers_cannot_join_a_waiting_list(two, stranger):
    a, b = two
    c = Client()
    c.force_login(stranger)
    r = c.post(reverse("tourney-desk-events-join", args=[a.pk]), {"event": b.pk, "name": "Z"})
    assert r.status_code == 403
    assert not Player.objects.filter(name="Z").exists()


# ---------------------------------------------------------------- satellites' tickets (RULES 12.5)


@pytest.fixture
def ticket(director):
    """A main event (55.00) and a ticket into it, won by Sam Sat in satellite #N."""
    from tourney.models import Tournament
    from tourney.room_models import Ticket

    main = _event(director, "Main Event")
    sat = _event(director, "Sat 55")
    Tournament.objects.filter(pk=sat.pk).update(satellite_target=main, seat_value=5500)
    won = services.entry_register(tournament_id=sat.pk, name="Sam Sat", actor=director)
    return Ticket.objects.create(
        satellite=sat, target=main, entry=won, player=won.player, value=5500
    )


def test_the_search_shows_a_players_ticket_and_registers_with_it(clerk, ticket):
    main, sat = ticket.target, ticket.satellite
    html = clerk.get(
        reverse("tourney-desk-search", args=[main.pk]), {"q": "sam"}, **HTMX
    ).content.decode()
    assert f"Ticket from satellite #{sat.pk} (Sat 55)" in html
    assert "Register with ticket" in html and "pays 55.00" in html
    assert f'name="ticket" value="{ticket.pk}"' in html
    # not at another event's desk: the ticket is into the main event only
    other = clerk.get(reverse("tourney-desk-search", args=[sat.pk]), {"q": "sam"}, **HTMX)
    assert "Register with ticket" not in other.content.decode()
    r = clerk.post(reverse("tourney-desk-ticket", args=[main.pk]), {"ticket": ticket.pk}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    entry = Entry.objects.get(tournament=main, player=ticket.player)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == ("used", entry.pk)
    assert f"Paid by ticket from satellite #{sat.pk}: no charge." in html
    assert f'data-testid="card-paid">Paid by ticket from satellite #{sat.pk}<' in html
    # the desk's undo gives the ticket back
    r = clerk.post(reverse("tourney-desk-undo", args=[main.pk]), {"entry": entry.pk}, **HTMX)
    assert r.status_code == 200, r.content.decode()
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == ("issued", None)
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_a_used_or_unknown_ticket_is_refused_in_place(clerk, ticket, director):
    main = ticket.target
    from tourney.services.tickets import ticket_register

    ticket_register(ticket_id=ticket.pk, actor=director)
    before = (Entry.objects.count(), Event.objects.count())
    for data, status, code in (
        ({"ticket": ticket.pk}, 409, "ticket_used"),
        ({"ticket": "x"}, 400, "bad_input"),
        ({"ticket": 10**9}, 404, "ticket_not_found"),
    ):
        r = clerk.post(reverse("tourney-desk-ticket", args=[main.pk]), data, **HTMX)
        assert r.status_code == status
        assert f'data-code="{code}"' in r.content.decode()
    # a ticket into another event is no ticket of this desk
    r = clerk.post(
        reverse("tourney-desk-ticket", args=[ticket.satellite_id]), {"ticket": ticket.pk}, **HTMX
    )
    assert r.status_code == 404
    assert (Entry.objects.count(), Event.objects.count()) == before
