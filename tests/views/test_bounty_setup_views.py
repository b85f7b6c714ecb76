"""Issue 25: the bounty fields of the dashboard's setup and settings pages (RULES 9.1, 9.3,
9.4): posted and saved, a bad value or a refusal answered 4xx with the message at its field
and what was typed kept, the locks shown under read-only fields, the envelopes' hint."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.models import Event, Tournament
from tourney.services import setup, tournament_settings, tournaments

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SETUP = {
    "name": "Bounty Friday",
    "seats_per_table": "9",
    "tables": "2",
    "starting_stack": "10000",
    "buy_in": "50",
    "fee": "5",
    "guarantee": "0",
    "added_money": "0",
    "rounding": "1",
    "chips": setup.DEFAULT_CHIPS_TEXT,
    "structure": "regular",
    "level_minutes": "20",
    "target_hours": "8",
    "break_every": "4",
    "break_minutes": "10",
    "bb_ante_from": "4",
    "late_reg_level": "6",
    "reentries": "1",
    "race_threshold": "half_or_more",
    "public_names": "initial",
    "bounty_kind": "none",
    "bounty": "0",
    "bounty_cash_percent": "50",
    "mystery_from_players": "9",
    "mystery_envelopes": "",
}


@pytest.fixture
def td(client, director) -> Client:
    client.force_login(director)
    return client


def _setup_url() -> str:
    return reverse("tourney-dashboard-setup")


def _settings_url(t) -> str:
    return reverse("tourney-dashboard-settings", args=[t.pk])


def _error(msg: str) -> str:
    return f'<span class="field-error">{escape(msg)}</span>'


def _create(director, players: int = 0, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Knockout night",
        tables=2,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=25,
        levels=TWO_LEVELS,
        options=options,
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    t.refresh_from_db()
    return t


def _posted(t, **changes) -> dict:
    """The settings form as the page shows it, with some fields changed."""
    data = {}
    for k, v in tournament_settings.settings_initial(t).items():
        if isinstance(v, bool):
            if v:
                data[k] = "on"
        elif v is not None:
            data[k] = str(v)
    data.update(changes)
    return data


# ---------------------------------------------------------------- setup


def test_the_setup_page_has_the_bounty_fields_and_says_what_the_price_is(td):
    html = td.get(_setup_url()).content.decode()
    assert '<fieldset id="bounties"><legend>Bounties</legend>' in html
    for name in tournament_settings.BOUNTY_FIELDS:
        assert f'name="{name}"' in html, name
    assert '<option value="progressive">Progressive knockout (PKO)</option>' in html
    # RULES 9.1: the three parts of the price
    assert "price at the desk = prize pool + bounty + fee" in html
    assert "the buy-in (prize pool) + the bounty + the fee" in html


def test_setup_creates_a_progressive_knockout(td):
    data = dict(SETUP, bounty_kind="progressive", bounty="25", bounty_cash_percent="40")
    r = td.post(_setup_url(), data)
    t = Tournament.objects.get(name="Bounty Friday")
    assert r.status_code == 302 and r["Location"] == reverse("tourney-dashboard", args=[t.pk])
    assert (t.bounty_kind, t.buy_in, t.bounty, t.fee, t.bounty_cash_percent) == (
        "progressive",
        5000,
        2500,
        500,
        40,
    )


def test_setup_creates_a_mystery_event_with_its_envelopes(td):
    data = dict(
        SETUP,
        bounty_kind="mystery",
        bounty="20",
        mystery_from_players="12",
        mystery_envelopes="1,000 x 2\n100 x 10, 20 x 50",
    )
    assert td.post(_setup_url(), data).status_code == 302
    t = Tournament.objects.get(name="Bounty Friday")
    assert (t.bounty_kind, t.bounty, t.mystery_from_players) == ("mystery", 2000, 12)
    assert t.mystery_envelopes == {"2000": 50, "10000": 10, "100000": 2}


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"bounty_kind": "fixed", "bounty": "2O"},
            "bounty",
            "An amount like 100 or 12.50, zero or more.",
        ),
        ({"bounty": "20"}, "bounty_kind", tournaments.MSG_BOUNTY_WITHOUT_KIND),
        ({"bounty_kind": "fixed", "bounty": "0"}, "bounty", tournaments.MSG_BOUNTY_NEEDED),
        (
            {"bounty_kind": "progressive", "bounty": "20", "bounty_cash_percent": "120"},
            "bounty_cash_percent",
            "Ensure this value is less than or equal to 100.",
        ),
        (
            {"bounty_kind": "mystery", "bounty": "20", "mystery_from_players": "0"},
            "mystery_from_players",
            "Ensure this value is greater than or equal to 1.",
        ),
        (
            {"bounty_kind": "mystery", "bounty": "20", "mystery_from_players": "200000"},
            "mystery_from_players",
            tournaments.MSG_STAGE,
        ),
        (
            {"bounty_kind": "mystery", "bounty": "20", "mystery_envelopes": "100 x 2\n50 x lots"},
            "mystery_envelopes",
            setup.MSG_ENVELOPE_LINE % {"part": "50 x lots"},
        ),
        (
            {"bounty_kind": "fixed", "bounty": "20", "mystery_envelopes": "100 x 2"},
            "mystery_envelopes",
            tournaments.MSG_NOT_MYSTERY,
        ),
        ({"bounty_kind": "bogus"}, "bounty_kind", "Select a valid choice."),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_bounty_setup_shows_the_message_at_its_field_keeps_the_values_creates_nothing(
    td, change, field, message, htmx
):
    r = td.post(_setup_url(), dict(SETUP, **change), **(HTMX if htmx else {}))
    assert r.status_code == 400
    html = r.content.decode()
    # at its field: inside the field's own label
    label = re.search(
        rf'<label>[^<]*<(input|select|textarea)[^>]*name="{field}".*?</label>', html, re.S
    )
    assert label and escape(message) in label.group(0), html[:3000]
    for name, typed in change.items():  # what was typed stays
        if name == "mystery_envelopes":
            assert f">\n{escape(typed)}</textarea>" in html
        elif name == "bounty_kind":
            assert f'<option value="{typed}" selected>' in html or typed == "bogus"
        else:
            assert f'name="{name}" value="{escape(typed)}"' in html
    assert ("<html" in html) is not htmx
    assert not Tournament.objects.exists()


def test_edit_a_copy_fills_the_bounty_fields_but_not_the_envelopes(td, director):
    src = _create(
        director,
        bounty_kind="mystery",
        bounty=2000,
        mystery_from_players=12,
        mystery_envelopes={"5000": 4},
    )
    html = td.get(_setup_url(), {"from": src.pk}).content.decode()
    assert '<option value="mystery" selected>' in html
    assert 'name="bounty" value="20"' in html and 'name="mystery_from_players" value="12"' in html
    assert re.search(r'<textarea name="mystery_envelopes"[^>]*>\n</textarea>', html)


# ---------------------------------------------------------------- settings


def test_settings_save_a_progressive_knockout_and_the_log_says_so(td, director):
    t = _create(director)
    data = _posted(t, bounty_kind="progressive", bounty="20", bounty_cash_percent="40")
    r = td.post(_settings_url(t), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    t.refresh_from_db()
    assert (t.bounty_kind, t.bounty, t.bounty_cash_percent) == ("progressive", 2000, 40)
    page = td.get(_settings_url(t)).content.decode()
    assert (
        "Saved. Bounty type: No bounties → Progressive knockout (PKO); Bounty: 0.00 → 20.00; "
        "PKO cash share: 50 % in cash → 40 % in cash"
    ) in page
    assert "Price at the desk: 75.00 = 50.00 prize pool + 20.00 bounty + 5.00 fee" in page
    td.post(reverse("tourney-dashboard-undo", args=[t.pk]), {"action": "undo"})
    t.refresh_from_db()
    assert (t.bounty_kind, t.bounty, t.bounty_cash_percent) == ("none", 0, 50)


def test_settings_set_the_envelopes_and_show_them_against_the_money_collected(td, director):
    t = _create(director, players=3, bounty_kind="mystery", bounty=2000)
    r = td.post(_settings_url(t), _posted(t, mystery_envelopes="50 x 1\n5 x 2"), **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Saved. Mystery envelopes: none → 50.00 x 1, 5.00 x 2" in html
    t.refresh_from_db()
    assert t.mystery_envelopes == {"500": 2, "5000": 1}
    # RULES 9.4: they need not add up yet; the page shows both
    hint = tournament_settings.MSG_ENVELOPES_HINT % {"envelopes": "60.00", "collected": "60.00"}
    assert f'<span class="hint muted small">{escape(hint)}</span>' in html
    assert "50 x 1\n5 x 2</textarea>" in html


def test_a_bad_envelopes_box_answers_400_keeping_what_was_typed(td, director):
    t = _create(director, bounty_kind="mystery", bounty=2000)
    typed = "50 x 1\nfive x 2"
    r = td.post(_settings_url(t), _posted(t, mystery_envelopes=typed, name="Kept"), **HTMX)
    assert r.status_code == 400
    html = r.content.decode()
    assert _error(setup.MSG_ENVELOPE_LINE % {"part": "five x 2"}) in html
    assert f">\n{typed}</textarea>" in html and 'value="Kept"' in html
    t.refresh_from_db()
    assert t.name == "Knockout night" and t.mystery_envelopes == {}


def test_envelopes_for_an_event_that_is_not_mystery_are_refused_at_the_box(td, director):
    t = _create(director, bounty_kind="fixed", bounty=2000)
    r = td.post(_settings_url(t), _posted(t, mystery_envelopes="10 x 4"))
    assert r.status_code == 400
    assert _error(tournaments.MSG_NOT_MYSTERY) in r.content.decode()
    assert not Event.objects.filter(tournament=t, kind="settings_changed").exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_bounty_change_after_entries_answers_409_at_the_field(td, director, htmx):
    t = _create(director, players=4, bounty_kind="fixed", bounty=2000)
    headers = HTMX if htmx else {}
    r = td.post(_settings_url(t), _posted(t, bounty="30", reentries="3"), **headers)
    assert r.status_code == 409
    html = r.content.decode()
    assert _error(tournament_settings.MSG_PAID_ALREADY % {"label": "Bounty", "n": 4}) in html
    # the read-only bounty shows what it is; what was typed elsewhere stays
    assert re.search(r'<input [^>]*name="bounty" value="20"[^>]*disabled', html)
    assert 'name="reentries" value="3"' in html
    t.refresh_from_db()
    assert t.bounty == 2000 and t.reentries_allowed == 0


def test_locked_bounty_fields_are_read_only_and_say_why(td, director):
    t = _create(director, players=6, bounty_kind="mystery", bounty=2000)
    envelopes = {"5000": 1, "1000": 7}
    tournament_settings.tournament_settings_update(
        tournament_id=t.pk, changes={"mystery_envelopes": envelopes}
    )
    a, b, *_ = t.entries.order_by("number").values_list("pk", flat=True)
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], winners=[a])
    html = td.get(_settings_url(t)).content.decode()
    drawn = tournament_settings.MSG_ENVELOPES_DRAWN % {"n": 1}
    paid = tournament_settings.MSG_PAID_ALREADY % {"label": "Bounty type", "n": 6}
    for msg in (drawn, paid):
        assert f'<span class="hint muted small">{escape(msg)}</span>' in html
    assert re.search(r'<select [^>]*name="bounty_kind"[^>]*disabled', html)
    assert re.search(r'<textarea [^>]*name="mystery_envelopes"[^>]*disabled', html)
    assert re.search(r'<input [^>]*name="mystery_from_players"[^>]*disabled', html)
    # a knockout was paid in cash: the share too (RULES 9.3), by the same one source
    paid_ko = tournament_settings.MSG_KNOCKOUTS_PAID % {"n": 1}
    assert f'<span class="hint muted small">{escape(paid_ko)}</span>' in html
    assert re.search(r'<input [^>]*name="bounty_cash_percent"[^>]*disabled', html)
    assert not re.search(r'<input [^>]*name="name"[^>]*disabled', html)
    # what a browser posts: the disabled fields not at all; another change is saved
    t.refresh_from_db()
    left = t.mystery_envelopes  # one envelope fewer than set: drawn
    assert sum(left.values()) == 7
    data = _posted(t, name="Later")
    for name in tournament_settings.locked_fields(t):
        data.pop(name, None)
    r = td.post(_settings_url(t), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    t.refresh_from_db()
    assert t.name == "Later" and t.mystery_envelopes == left
