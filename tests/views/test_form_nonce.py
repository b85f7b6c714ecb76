"""Every form of the screens that writes carries a one-time nonce ({% nonce %}); a form posted
twice with the same nonce does its write once and answers the repeat with the first answer
(tourney/middleware.py, IdempotencyMiddleware)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Seat
from tourney.models import Entry, Event, IdempotentRequest

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
FORM = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>(.*?)</form>", re.S)
NONCE = re.compile(r'<input type="hidden" name="nonce" value="([A-Za-z0-9_-]{24})">')


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _forms_without_nonce(html: str) -> list[str]:
    return [
        body[:120]
        for body in FORM.findall(html)
        if not NONCE.search(body) and "Log out" not in body
    ]


def test_every_writing_form_of_the_screens_has_a_fresh_nonce(director, seated_tournament):
    c = _client(director)
    t = seated_tournament
    pages = [
        reverse("tourney-dashboard", args=[t.pk]),
        reverse("tourney-desk", args=[t.pk]) + "?q=Player",
        reverse("tourney-dashboard-settings", args=[t.pk]),
        reverse("tourney-dashboard-structure", args=[t.pk]),
        reverse("tourney-dashboard-colorup", args=[t.pk]),
        reverse("tourney-dashboard-floor", args=[t.pk]),
        reverse("tourney-dashboard-display-token", args=[t.pk]),
        reverse("tourney-dashboard-setup"),
        reverse("tourney-dashboard-users"),
        reverse("tourney-dashboard-restore"),
    ]
    seen: set[str] = set()
    for path in pages:
        r = c.get(path)
        assert r.status_code == 200, path
        html = r.content.decode()
        assert FORM.search(html), path
        assert _forms_without_nonce(html) == [], path
        nonces = NONCE.findall(html)
        assert len(nonces) == len(set(nonces)) and not seen & set(nonces), path
        seen |= set(nonces)


def test_a_registration_posted_twice_with_its_nonce_is_one_entry_and_the_same_card(
    desk_clerk, tournament
):
    c = _client(desk_clerk)
    path = reverse("tourney-desk-register", args=[tournament.pk])
    data = {"name": "Ann Lee", "nonce": "n-register-1", "csrfmiddlewaretoken": "a"}
    first = c.post(path, data, **HX)
    assert first.status_code == 200
    assert 'id="seat-card"' in first.content.decode()
    again = c.post(path, {**data, "csrfmiddlewaretoken": "b"}, **HX)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.content == first.content  # the same seat card
    assert again["HX-Trigger"] == first["HX-Trigger"]
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert Event.objects.filter(tournament=tournament, kind="entry_registered").count() == 1
    assert IdempotentRequest.objects.get(key="n-register-1").scope == "form"
    # A new nonce is a new registration, as a second press later would be.
    c.post(path, {**data, "nonce": "n-register-2"}, **HX)
    assert Entry.objects.filter(tournament=tournament).count() == 2


def test_a_registration_without_javascript_posted_twice_redirects_to_the_same_card(
    desk_clerk, tournament
):
    c = _client(desk_clerk)
    path = reverse("tourney-desk-register", args=[tournament.pk])
    first = c.post(path, {"name": "Bo", "nonce": "plain-1"})
    again = c.post(path, {"name": "Bo", "nonce": "plain-1"})
    assert first.status_code == again.status_code == 303
    assert again["Location"] == first["Location"]
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_bust_posted_twice_with_its_nonce_is_one_bust(director, seated_tournament):
    c = _client(director)
    t = seated_tournament
    seat = Seat.objects.filter(tournament=t, table__number=1).order_by("number")[0]
    path = reverse("tourney-dashboard-eliminations", args=[t.pk])
    data = {"confirm": "1", "entry_1": seat.entry_id, "stack_1": "5400", "nonce": "bust-once"}
    first = c.post(path, data, **HX)
    assert first.status_code == 200
    again = c.post(path, data, **HX)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.content == first.content
    assert Event.objects.filter(tournament=t, kind="elimination").count() == 1
    assert Entry.objects.filter(tournament=t, status="busted").count() == 1


def test_the_same_nonce_with_other_values_is_refused_and_writes_nothing(desk_clerk, tournament):
    c = _client(desk_clerk)
    path = reverse("tourney-desk-register", args=[tournament.pk])
    c.post(path, {"name": "Ann", "nonce": "n1"}, **HX)
    r = c.post(path, {"name": "Bob", "nonce": "n1"}, **HX)
    assert r.status_code == 422
    assert 'data-code="idempotency_key_reused"' in r.content.decode()
    assert list(
        Entry.objects.filter(tournament=tournament).values_list("player__name", flat=True)
    ) == ["Ann"]


def test_a_bad_nonce_is_400_and_writes_nothing(desk_clerk, tournament):
    c = _client(desk_clerk)
    path = reverse("tourney-desk-register", args=[tournament.pk])
    r = c.post(path, {"name": "Ann", "nonce": "x" * 256}, **HX)
    assert r.status_code == 400
    assert 'data-code="bad_idempotency_key"' in r.content.decode()
    assert not Entry.objects.exists()


def test_nonces_belong_to_their_user(desk_clerk, director, tournament):
    path = reverse("tourney-desk-register", args=[tournament.pk])
    _client(desk_clerk).post(path, {"name": "Ann", "nonce": "shared"}, **HX)
    r = _client(director).post(path, {"name": "Ann", "nonce": "shared"}, **HX)
    assert "Idempotent-Replayed" not in r
    assert Entry.objects.filter(tournament=tournament).count() == 2
