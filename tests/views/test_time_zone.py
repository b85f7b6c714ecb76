"""Issue 31, item 11: "Today at the desk" counts in the card room's time zone (a setting per
tournament, set at setup, the machine's zone by default), and the desk prints times there."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tourney import services
from tourney.models import Tournament
from tourney.selectors import desk as desk_reads
from tourney.services import setup

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _at(y, mo, d, h, mi):
    return datetime(y, mo, d, h, mi, tzinfo=UTC)


def _register(t, name, director, when):
    with time_machine.travel(when, tick=False):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)


@pytest.mark.parametrize(
    ("zone", "now", "today", "yesterday", "local_day"),
    [
        # New York (UTC-5): 23:30 on 1 Dec there is 04:30 on 2 Dec in UTC; 10:00 is 15:00 UTC.
        (
            "America/New_York",
            _at(2026, 12, 2, 4, 45),
            [_at(2026, 12, 2, 4, 30), _at(2026, 12, 1, 15, 0)],
            [_at(2026, 12, 1, 4, 0)],  # 23:00 on 30 Nov there
            date(2026, 12, 1),
        ),
        # Tokyo (UTC+9): 23:30 on 1 Dec there is 14:30 on 1 Dec in UTC, the previous local
        # day of a desk at 08:00 on 2 Dec (23:00 UTC on 1 Dec), whose 00:30 is 15:30 UTC.
        (
            "Asia/Tokyo",
            _at(2026, 12, 1, 23, 0),
            [_at(2026, 12, 1, 15, 30)],
            [_at(2026, 12, 1, 14, 30)],
            date(2026, 12, 2),
        ),
    ],
)
def test_desk_today_counts_in_the_card_rooms_zone(
    director, tournament, zone, now, today, yesterday, local_day
):
    Tournament.objects.filter(pk=tournament.pk).update(time_zone=zone)
    tournament.refresh_from_db()
    for i, when in enumerate(today):
        _register(tournament, f"Today {i}", director, when)
    for i, when in enumerate(yesterday):
        _register(tournament, f"Yesterday {i}", director, when)
    with time_machine.travel(now, tick=False):
        totals = desk_reads.desk_totals(tournament)
        assert totals["day"] == local_day
        assert totals["total"]["entries"] == len(today)
        price = tournament.buy_in + tournament.fee
        assert totals["total"]["money"] == len(today) * price

        c = Client()
        c.force_login(director)
        side = c.get(reverse("tourney-desk-side", args=[tournament.pk]), **HTMX)
        assert side.status_code == 200
        assert f"Today at the desk <small>{local_day.day} Dec</small>" in side.content.decode()


def test_desk_prints_the_registration_time_in_the_card_rooms_zone(director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="America/New_York")
    c = Client()
    c.force_login(director)
    with time_machine.travel(_at(2026, 12, 2, 4, 30), tick=False):  # 23:30 in New York
        r = c.post(
            reverse("tourney-desk-register", args=[tournament.pk]), {"name": "Night Owl"}, **HTMX
        )
    assert r.status_code == 200
    assert "<dd>23:30</dd>" in r.content.decode()


def test_setup_form_offers_the_machines_zone_and_keeps_the_chosen_one(director):
    form = setup.SetupForm()
    assert form["time_zone"].initial == settings.TIME_ZONE
    data = {
        "name": "Zoned",
        "seats_per_table": 9,
        "tables": 2,
        "starting_stack": 10000,
        "buy_in": "100",
        "fee": "20",
        "chips": setup.DEFAULT_CHIPS_TEXT,
        "structure": "regular",
        "level_minutes": 20,
        "target_hours": 8,
        "break_every": 4,
        "break_minutes": 10,
        "bb_ante_from": 4,
        "reentries": 1,
        "race_threshold": "half_or_more",
        "public_names": "initial",
        "time_zone": "Europe/Paris",
    }
    form = setup.SetupForm(data)
    assert form.is_valid(), form.errors
    t = setup.setup_create(data=form.cleaned_data, actor=director)
    assert t.time_zone == "Europe/Paris"
    assert setup.tournament_copy(source_id=t.pk, actor=director).time_zone == "Europe/Paris"
    bad = setup.SetupForm({**data, "time_zone": "Mars/Olympus"})
    assert not bad.is_valid() and "time_zone" in bad.errors


def test_machine_zone_is_the_default_not_utc(monkeypatch):
    import tzlocal

    from tourney import settings as project_settings

    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: "Europe/Paris")
    assert project_settings._machine_zone() == "Europe/Paris"
    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: None)
    assert project_settings._machine_zone() == "UTC"


def test_phone_page_prints_move_times_in_the_card_rooms_zone(director, tournament):
    from tables.models import Seat, Table
    from tables.services import move_manual

    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Asia/Tokyo")
    services.entry_register(tournament_id=tournament.pk, name="Mover Kim", actor=director)
    seat = Seat.objects.get(entry__player__name="Mover Kim")
    other = Table.objects.filter(tournament=tournament).exclude(pk=seat.table_id).first()
    with time_machine.travel(_at(2026, 12, 2, 3, 5), tick=False):  # 12:05 in Tokyo
        move_manual(
            tournament_id=tournament.pk,
            entry_id=seat.entry_id,
            table_number=other.number,
            seat=1,
            actor=director,
        )
    url = reverse("tourney-player", args=[tournament.display_token])
    page = Client().get(url, {"name": "Mover Kim"}).content.decode()
    assert "12:05" in page and "03:05" not in page
