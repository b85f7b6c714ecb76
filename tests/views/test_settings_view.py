"""Issue 31, item 6: the dashboard's settings page — directors only, every change saved as one
undoable action, a refusal or a bad value answered 4xx inside the form with what was typed."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tourney.models import Event, Tournament
from tourney.services import tournament_settings

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _url(t) -> str:
    return reverse("tourney-dashboard-settings", args=[t.pk])


def _posted(t, **changes) -> dict:
    """The form as the page shows it (the current settings), with some fields changed."""
    data = {}
    for k, v in tournament_settings.settings_initial(t).items():
        if isinstance(v, bool):
            if v:
                data[k] = "on"
        elif v is not None:
            data[k] = str(v)
    for k, v in changes.items():
        if v is None:
            data.pop(k, None)
        else:
            data[k] = v
    return data


def test_only_directors_see_the_settings(tournament, director, desk_clerk, stranger):
    assert _client(desk_clerk).get(_url(tournament)).status_code == 403
    assert _client(desk_clerk).post(_url(tournament), _posted(tournament)).status_code == 403
    anon = Client().get(_url(tournament))
    assert anon.status_code == 302 and reverse("login") in anon["Location"]
    page = _client(director).get(_url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="Friday 50"' in html and "Save settings" in html
    # linked from the dashboard
    dash = _client(director).get(reverse("tourney-dashboard", args=[tournament.pk]))
    assert f'href="{_url(tournament)}"' in dash.content.decode()


def test_saving_changes_the_settings_and_logs_one_undoable_action(tournament, director):
    c = _client(director)
    r = c.post(_url(tournament), _posted(tournament, reentries="2", public_names="full"))
    assert r.status_code == 302 and r["Location"] == _url(tournament)
    tournament.refresh_from_db()
    assert tournament.reentries_allowed == 2 and tournament.public_names == "full"
    event = Event.objects.get(tournament=tournament, kind="settings_changed")
    assert set(event.payload["changes"]) == {"reentries_allowed", "public_names"}
    page = c.get(_url(tournament)).content.decode()
    assert "Saved. Re-entries per player: 0 → 2; Names on the display: initial → full" in page
    # the log shows it in words and its Undo takes it back
    log = c.get(reverse("tourney-dashboard-log", args=[tournament.pk]), **HTMX).content.decode()
    assert "Settings: Re-entries per player: 0 → 2" in log
    c.post(reverse("tourney-dashboard-undo", args=[tournament.pk]), {"action": "undo"})
    tournament.refresh_from_db()
    assert tournament.reentries_allowed == 0 and tournament.public_names == "initial"


def test_htmx_save_answers_the_form_with_what_changed(tournament, director):
    r = _client(director).post(
        _url(tournament), _posted(tournament, late_reg_level="2", name="Friday Big"), **HTMX
    )
    assert r.status_code == 200
    html = r.content.decode()
    assert html.lstrip().startswith('<form id="settings-form"')
    assert "Saved. Name: Friday 50 → Friday Big; Late registration: until closed → end of" in html
    assert Tournament.objects.get(pk=tournament.pk).late_reg_until == 2


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_change_answers_409_in_the_form_keeping_what_was_typed(
    seated_tournament, director, htmx
):
    t = seated_tournament
    headers = HTMX if htmx else {}
    r = _client(director).post(_url(t), _posted(t, buy_in="75", reentries="3"), **headers)
    assert r.status_code == 409
    html = r.content.decode()
    msg = tournament_settings.MSG_PAID_ALREADY % {"label": "Buy-in", "n": 20}
    assert f'<span class="field-error">{msg}</span>' in html  # at the buy-in field
    # the read-only buy-in shows what it is; what was typed elsewhere stays
    assert re.search(r'<input [^>]*name="buy_in" value="50"[^>]*disabled', html)
    assert 'name="reentries" value="3"' in html
    assert ("<html" in html) is not htmx  # the whole page, or the form alone for htmx
    t.refresh_from_db()
    assert t.buy_in == 5000 and t.reentries_allowed == 0
    assert not Event.objects.filter(tournament=t, kind="settings_changed").exists()


def test_a_bad_value_answers_400_with_the_field_marked(tournament, director):
    r = _client(director).post(
        _url(tournament), _posted(tournament, balance_tolerance="0", name="Kept"), **HTMX
    )
    assert r.status_code == 400
    html = r.content.decode()
    assert "Some fields need a look: nothing was saved." in html
    assert "Ensure this value is greater than or equal to 1." in html
    assert 'value="Kept"' in html
    assert Tournament.objects.get(pk=tournament.pk).name == "Friday 50"


def test_a_level_the_structure_does_not_have_is_named(tournament, director):
    r = _client(director).post(_url(tournament), _posted(tournament, rebuy_level="9"))
    assert r.status_code == 400
    assert '<span class="field-error">The structure has no level 9.</span>' in r.content.decode()


def test_saving_nothing_says_so(tournament, director):
    r = _client(director).post(_url(tournament), _posted(tournament))
    assert r.status_code == 400
    assert tournament_settings.MSG_NOTHING_CHANGED in r.content.decode()


def test_time_zone_is_edited_on_the_settings_page(tournament, director):
    r = _client(director).post(_url(tournament), _posted(tournament, time_zone="Asia/Tokyo"))
    assert r.status_code == 302
    tournament.refresh_from_db()
    assert tournament.time_zone == "Asia/Tokyo"


def test_fields_that_can_no_longer_change_are_read_only_and_say_why(seated_tournament, director):
    html = _client(director).get(_url(seated_tournament)).content.decode()
    # the service's own reasons (one source), as hints under read-only fields
    for label in ("Buy-in", "Fee", "Starting stack"):
        msg = tournament_settings.MSG_PAID_ALREADY % {"label": label, "n": 20}
        assert f'<span class="hint muted small">{msg}</span>' in html
    msg = tournament_settings.MSG_DRAW_AFTER_ENTRIES % {"n": 20}
    assert f'<span class="hint muted small">{msg}</span>' in html
    assert tournament_settings.MSG_SEATED_ALREADY % {"n": 20} in html
    for name in ("buy_in", "fee", "starting_stack", "seats_per_table", "draw_at_registration"):
        assert re.search(rf'<input [^>]*name="{name}"[^>]*disabled', html), name
    for name in ("name", "reentries", "late_reg_level", "guarantee"):
        assert not re.search(rf'<input [^>]*name="{name}"[^>]*disabled', html), name


@pytest.mark.parametrize("sent", ["current values", "nothing (disabled)"])
def test_an_unchanged_locked_field_never_refuses_the_save(seated_tournament, director, sent):
    t = seated_tournament
    locked = tournament_settings.locked_fields(t)
    assert {"buy_in", "fee", "starting_stack", "seats_per_table"} <= set(locked)
    data = _posted(t, reentries="2", name="Friday Big")
    if sent != "current values":  # what a browser posts: disabled inputs are not sent
        for name in locked:
            data.pop(name, None)
    r = _client(director).post(_url(t), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    t.refresh_from_db()
    assert t.reentries_allowed == 2 and t.name == "Friday Big" and t.buy_in == 5000
    event = Event.objects.get(tournament=t, kind="settings_changed")
    assert set(event.payload["changes"]) == {"reentries_allowed", "name"}
