"""A tournament's start (issue 28): typed on the setup form and the settings page in the
tournament's own zone, undone like any setting, and read and written through the API."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tests.views.test_dashboard import SETUP
from tests.views.test_settings_view import _posted
from tourney.models import Event, Tournament
from tourney.services import starts

pytestmark = pytest.mark.django_db


def test_setup_takes_the_start_in_the_rooms_zone(td):
    data = {**SETUP, "time_zone": "Europe/Paris", "starts_at": "2026-12-05T19:00"}
    assert td.post(reverse("tourney-dashboard-setup"), data).status_code == 302
    t = Tournament.objects.get(name="Friday Deepstack")
    assert t.starts_at == datetime(2026, 12, 5, 18, 0, tzinfo=UTC)  # 19:00 in Paris
    assert starts.starts_input(t) == "2026-12-05T19:00"


def test_setup_without_a_start_and_a_bad_one(td):
    assert td.post(reverse("tourney-dashboard-setup"), SETUP).status_code == 302
    assert Tournament.objects.get(name="Friday Deepstack").starts_at is None
    bad = {**SETUP, "name": "Bad", "starts_at": "tomorrow 7pm"}
    r = td.post(reverse("tourney-dashboard-setup"), bad)
    assert r.status_code == 400
    assert starts.MSG_STARTS_AT in r.content.decode()
    assert not Tournament.objects.filter(name="Bad").exists()


def test_the_setup_form_shows_the_field(td):
    html = td.get(reverse("tourney-dashboard-setup")).content.decode()
    assert 'name="starts_at"' in html and 'type="datetime-local"' in html


def test_the_settings_page_changes_the_start_and_undo_puts_it_back(td, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="America/New_York")
    tournament.refresh_from_db()
    url = reverse("tourney-dashboard-settings", args=[tournament.pk])
    page = td.get(url).content.decode()
    assert 'name="starts_at"' in page
    r = td.post(url, _posted(tournament, starts_at="2026-07-04T20:30"))
    assert r.status_code in (200, 302)
    tournament.refresh_from_db()
    assert tournament.starts_at == datetime(2026, 7, 5, 0, 30, tzinfo=UTC)  # EDT: UTC-4
    event = Event.objects.filter(tournament=tournament, kind="settings_changed").latest("pk")
    assert event.payload["changes"]["starts_at"] == [None, "2026-07-04T20:30:00-04:00"]
    assert "Starts at: none → Sat 04 Jul 20:30" in event.payload["summary"]
    td.post(reverse("tourney-dashboard-undo", args=[tournament.pk]), {"action": "undo"})
    tournament.refresh_from_db()
    assert tournament.starts_at is None
    td.post(reverse("tourney-dashboard-undo", args=[tournament.pk]), {"redo": "1"})
    tournament.refresh_from_db()
    assert tournament.starts_at == datetime(2026, 7, 5, 0, 30, tzinfo=UTC)


def test_the_api_reads_and_takes_the_start(director_api):
    r = director_api.post(
        "/api/v1/tournaments", {"name": "Sunday", "starts_at": "2026-12-06T14:00:00+01:00"}
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert datetime.fromisoformat(body["starts_at"]) == datetime(2026, 12, 6, 13, 0, tzinfo=UTC)
    t = Tournament.objects.get(pk=body["id"])
    assert t.starts_at == datetime(2026, 12, 6, 13, 0, tzinfo=UTC)
    assert director_api.get(f"/api/v1/tournaments/{t.pk}").json()["starts_at"] == body["starts_at"]
    r = director_api.post("/api/v1/tournaments", {"name": "Plain"})
    assert r.json()["starts_at"] is None


def test_the_api_refuses_a_start_without_its_offset(director_api):
    r = director_api.post("/api/v1/tournaments", {"name": "N", "starts_at": "2026-12-06T14:00"})
    assert r.status_code == 400
    assert r.json()["error"]["fields"] == {"starts_at": r.json()["error"]["message"]}
    assert not Tournament.objects.filter(name="N").exists()
