"""Issue 31, found at a live event at the desk: a re-entry that opened a table says so as a
registration does; "Re-enter" is offered only while the player has re-entries left; once
the tournament is over the desk shows no free seats and no keyboard hints."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tourney import services
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def clerk(desk_clerk) -> Client:
    c = Client()
    c.force_login(desk_clerk)
    return c


def _bust(t: Tournament, entry: Entry, director) -> None:
    services.elimination_record(tournament_id=t.pk, busts=[(entry.pk, 20000)], actor=director)


def _full_room_with_ann_out(director) -> tuple[Tournament, Entry]:
    """One table of three, full again after Ann went out; tables open when full."""
    t = services.tournament_create(
        actor=director, name="Small", seats_per_table=3, tables=1, seed=3
    )
    Tournament.objects.filter(pk=t.pk).update(reentries_allowed=2, auto_open_tables=True)
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    _bust(t, ann, director)
    services.entry_register(tournament_id=t.pk, name="Dee Novak", actor=director)
    return t, ann


@pytest.mark.parametrize("how", ["button", "enter"])
def test_a_re_entry_that_opened_a_table_says_so(clerk, director, how):
    t, ann = _full_room_with_ann_out(director)
    if how == "button":
        r = clerk.post(reverse("tourney-desk-reenter", args=[t.pk, ann.pk]), **HTMX)
    else:
        r = clerk.post(
            reverse("tourney-desk-register", args=[t.pk]), {"player_id": ann.player_id}, **HTMX
        )
    assert r.status_code == 200
    html = r.content.decode()
    new = Entry.objects.get(tournament=t, number=5)
    assert new.player_id == ann.player_id and new.status == Entry.Status.SEATED
    assert "Re-entered #5 Ann Lee" in html
    assert "Every seat was taken: table 2 was opened." in html
    assert "moved there to balance the tables" in html


def test_re_enter_is_not_offered_once_every_re_entry_is_used(clerk, director):
    t = services.tournament_create(actor=director, name="One re-entry", tables=1, seed=5)
    Tournament.objects.filter(pk=t.pk).update(reentries_allowed=1)
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    _bust(t, ann, director)
    # One re-entry left: offered in the side list and in the search.
    side = clerk.get(reverse("tourney-desk-side", args=[t.pk]), **HTMX).content.decode()
    assert side.count('data-action="reenter"') == 1
    found = clerk.get(reverse("tourney-desk-search", args=[t.pk]), {"q": "Ann"}, **HTMX)
    assert 'data-action="reenter"' in found.content.decode()
    r = clerk.post(reverse("tourney-desk-reenter", args=[t.pk, ann.pk]), **HTMX)
    assert r.status_code == 200
    second = Entry.objects.get(tournament=t, number=4)
    _bust(t, second, director)
    # None left (the service would refuse it): offered nowhere, for either busted entry.
    side = clerk.get(reverse("tourney-desk-side", args=[t.pk]), **HTMX).content.decode()
    assert "Ann Lee" in side
    assert 'data-action="reenter"' not in side
    found = clerk.get(reverse("tourney-desk-search", args=[t.pk]), {"q": "Ann"}, **HTMX)
    html = found.content.decode()
    assert "Ann Lee" in html and "no re-entries left" in html
    assert 'data-action="reenter"' not in html and ">Re-enter<" not in html
    page = clerk.get(reverse("tourney-desk", args=[t.pk]), {"q": "Ann"}).content.decode()
    assert 'data-action="reenter"' not in page and ">Re-enter<" not in page


def test_the_first_busted_entry_is_not_offered_once_the_player_re_entered(clerk, director):
    t = services.tournament_create(actor=director, name="Two re-entries", tables=1, seed=5)
    Tournament.objects.filter(pk=t.pk).update(reentries_allowed=2)
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    _bust(t, ann, director)
    clerk.post(reverse("tourney-desk-reenter", args=[t.pk, ann.pk]), **HTMX)
    # Ann is in play again: her old busted row offers no re-entry (the service refuses it).
    side = clerk.get(reverse("tourney-desk-side", args=[t.pk]), **HTMX).content.decode()
    assert 'data-action="reenter"' not in side


def test_once_over_the_desk_shows_no_free_seats_and_no_keyboard_hints(clerk, director):
    t = services.tournament_create(actor=director, name="Short", tables=1, seed=6)
    e = [
        services.entry_register(tournament_id=t.pk, name=n, actor=director)
        for n in ("Ann Lee", "Bob Stone")
    ]
    before = clerk.get(reverse("tourney-desk", args=[t.pk])).content.decode()
    assert 'data-testid="seats-free"' in before and 'class="keys' in before
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    _bust(t, e[1], director)
    html = clerk.get(reverse("tourney-desk", args=[t.pk])).content.decode()
    assert 'id="desk-over"' in html
    assert 'data-testid="seats-free"' not in html and "Seats free" not in html
    assert 'class="keys' not in html
    assert "Latest entries" in html  # the lists stay
    card = clerk.get(reverse("tourney-desk", args=[t.pk]), {"entry": e[0].pk}).content.decode()
    assert 'id="seat-card"' in card
