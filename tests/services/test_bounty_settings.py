"""Issue 25: the bounty setup and settings (RULES 9.1, 9.3, 9.4): a tournament created with
each bounty type, refusals that name the field and write nothing, the setup form's envelopes
box, the settings changed after creation (logged, undone and redone exactly), the locks once
entries, knockouts or draws exist, and a copy that keeps the setup but not the envelopes."""

from __future__ import annotations

import pytest

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event, Knockout, Tournament
from tourney.services import setup, tournaments
from tourney.services import tournament_settings as ts
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db

ENVELOPES = {"5000": 1, "1000": 7}  # 120.00: six entries' bounties of 20.00


def _create(director, **options) -> Tournament:
    return services.tournament_create(
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


def _register(t, n, director):
    for i in range(n):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)


def _row(t) -> dict:
    fields = [f.name for f in Tournament._meta.fields if f.name not in ("version", "prizes_key")]
    return dict(Tournament.objects.filter(pk=t.pk).values(*fields).get())


def _bounty_row(t) -> tuple:
    t.refresh_from_db()
    return (
        t.bounty_kind,
        t.bounty,
        t.bounty_cash_percent,
        t.mystery_from_players,
        t.mystery_envelopes,
    )


# ---------------------------------------------------------------- creation (RULES 9.1)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, ("none", 0, 50, 9, {})),
        ({"bounty_kind": "fixed", "bounty": 2000}, ("fixed", 2000, 50, 9, {})),
        (
            {"bounty_kind": "progressive", "bounty": 2500, "bounty_cash_percent": 0},
            ("progressive", 2500, 0, 9, {}),
        ),
        (
            # RULES 9.4: the envelopes kept as {"amount": count}, int amounts or their digits
            {
                "bounty_kind": "mystery",
                "bounty": 2000,
                "mystery_from_players": 6,
                "mystery_envelopes": {5000: 1, "1000": 7, 700: 0},
            },
            ("mystery", 2000, 50, 6, ENVELOPES),
        ),
    ],
)
def test_a_tournament_is_created_with_each_bounty_type(director, options, expected):
    t = _create(director, **options)
    assert _bounty_row(t) == expected
    # RULES 9.1: each entry pays the bounty part; fixed and PKO carry it on their head
    _register(t, 1, director)
    entry = t.entries.get()
    assert entry.bounty_paid == expected[1]
    assert entry.bounty == (expected[1] if expected[0] in ("fixed", "progressive") else 0)


M = tournaments
REFUSALS = [
    ({"bounty_kind": "fixed"}, "bad_bounty", "bounty", M.MSG_BOUNTY_NEEDED),
    ({"bounty": 2000}, "bad_bounty", "bounty_kind", M.MSG_BOUNTY_WITHOUT_KIND),
    ({"bounty_kind": "pko", "bounty": 5}, "unknown_bounty_type", "bounty_kind", M.MSG_BOUNTY_KIND),
    ({"bounty_kind": "fixed", "bounty": -5}, "bad_amount", "bounty", M.MSG_BOUNTY_AMOUNT),
    ({"bounty_kind": "fixed", "bounty": "20"}, "bad_amount", "bounty", M.MSG_BOUNTY_AMOUNT),
    ({"bounty_kind": "fixed", "bounty": True}, "bad_amount", "bounty", M.MSG_BOUNTY_AMOUNT),
    (
        {"bounty_kind": "progressive", "bounty": 2000, "bounty_cash_percent": 101},
        "bad_share",
        "bounty_cash_percent",
        M.MSG_CASH_PERCENT,
    ),
    (
        {"bounty_kind": "progressive", "bounty": 2000, "bounty_cash_percent": -1},
        "bad_share",
        "bounty_cash_percent",
        M.MSG_CASH_PERCENT,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_from_players": 0},
        "bad_stage",
        "mystery_from_players",
        M.MSG_STAGE,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_from_players": 100_001},
        "bad_stage",
        "mystery_from_players",
        M.MSG_STAGE,
    ),
    (
        {"bounty_kind": "fixed", "bounty": 2000, "mystery_envelopes": {"1000": 2}},
        "not_mystery",
        "mystery_envelopes",
        M.MSG_NOT_MYSTERY,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_envelopes": {"0": 2}},
        "bad_envelopes",
        "mystery_envelopes",
        M.MSG_ENVELOPES,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_envelopes": {"ten": 2}},
        "bad_envelopes",
        "mystery_envelopes",
        M.MSG_ENVELOPES,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_envelopes": [1000, 2]},
        "bad_envelopes",
        "mystery_envelopes",
        M.MSG_ENVELOPES,
    ),
    (
        {"bounty_kind": "mystery", "bounty": 2000, "mystery_envelopes": {"1000": -1}},
        "bad_envelopes",
        "mystery_envelopes",
        M.MSG_ENVELOPES,
    ),
]


@pytest.mark.parametrize(("options", "code", "field", "message"), REFUSALS)
def test_bad_bounty_options_are_refused_naming_the_field_and_nothing_is_written(
    director, options, code, field, message
):
    with pytest.raises(DomainError) as exc:
        _create(director, **options)
    assert exc.value.code == code and exc.value.status == 400
    assert exc.value.fields == {field: message}
    assert not Tournament.objects.exists() and not Event.objects.exists()


# ---------------------------------------------------------------- the setup form


@pytest.mark.parametrize(
    ("text", "envelopes"),
    [
        ("5000 x 10, 1000 x 40", {500000: 10, 100000: 40}),
        ("5,000 x 10\n1,000 × 40", {500000: 10, 100000: 40}),
        ("12.50*2; 100 X 1", {1250: 2, 10000: 1}),
        ("250", {25000: 1}),  # an amount alone: one envelope
        ("100 x 2, 100 x 3", {10000: 5}),  # the same amount twice adds up
        ("  \n ", {}),
    ],
)
def test_the_envelopes_box_reads_amount_x_count(text, envelopes):
    # RULES 9.4
    assert setup.parse_envelopes(text) == envelopes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5000 10", setup.MSG_ENVELOPE_LINE % {"part": "5000 10"}),
        ("ten x 2", setup.MSG_ENVELOPE_LINE % {"part": "ten x 2"}),
        ("12.505 x 2", setup.MSG_ENVELOPE_LINE % {"part": "12.505 x 2"}),
        ("0 x 3", setup.MSG_ENVELOPE_AMOUNT % {"part": "0 x 3"}),
        ("50 x 0", setup.MSG_ENVELOPE_COUNT % {"part": "50 x 0"}),
        ("50 x 1000001", setup.MSG_ENVELOPE_COUNT % {"part": "50 x 1000001"}),
        ("\u0663 x 2", setup.MSG_ENVELOPE_LINE % {"part": "\u0663 x 2"}),  # Arabic-Indic 3
    ],
)
def test_a_bad_envelopes_box_says_which_envelope_and_how_to_write_it(text, message):
    with pytest.raises(DomainError) as exc:
        setup.parse_envelopes(text)
    assert exc.value.message == message
    assert exc.value.fields == {"mystery_envelopes": message}


def _form(**fields) -> dict:
    """The setup form as it first shows (its initial values), with some fields typed."""
    data = {"name": "Mystery Monday"}
    for name, field in setup.SetupForm.base_fields.items():
        value = field.initial() if callable(field.initial) else field.initial
        if value not in (None, False):
            data[name] = "on" if value is True else str(value)
    form = setup.SetupForm({**data, **fields})
    assert form.is_valid(), form.errors
    return form.cleaned_data


def test_the_setup_form_creates_a_mystery_event_with_its_envelopes(director):
    data = _form(
        buy_in="50",
        fee="5",
        bounty_kind="mystery",
        bounty="20",
        mystery_from_players="12",
        mystery_envelopes="100 x 1\n10 x 10",
    )
    t = setup.setup_create(data=data, actor=director)
    assert (t.buy_in, t.bounty, t.fee) == (5000, 2000, 500)  # RULES 9.1: the three parts
    assert _bounty_row(t) == ("mystery", 2000, 50, 12, {"1000": 10, "10000": 1})


def test_empty_share_and_stage_take_the_defaults(director):
    data = _form(
        bounty_kind="progressive", bounty="25", bounty_cash_percent="", mystery_from_players=""
    )
    t = setup.setup_create(data=data, actor=director)
    assert _bounty_row(t) == ("progressive", 2500, 50, 9, {})


def test_the_setup_plan_refuses_a_bounty_without_a_type_before_anything_is_written(director):
    with pytest.raises(DomainError) as exc:
        setup.setup_create(data=_form(bounty="20"), actor=director)
    assert exc.value.fields == {"bounty_kind": tournaments.MSG_BOUNTY_WITHOUT_KIND}
    assert not Tournament.objects.exists()


# ---------------------------------------------------------------- settings after creation


@pytest.mark.parametrize(
    "changes",
    [
        {"bounty_kind": "fixed", "bounty": 2000},
        {"bounty_kind": "progressive", "bounty": 2500, "bounty_cash_percent": 30},
        {
            "bounty_kind": "mystery",
            "bounty": 2000,
            "mystery_from_players": 6,
            "mystery_envelopes": {"5000": 1, 1000: 7},
        },
    ],
)
def test_bounty_settings_change_logged_undone_and_redone_exactly(director, changes):
    t = _create(director)
    before = _row(t)
    done = ts.tournament_settings_update(tournament_id=t.pk, changes=changes, actor=director)
    after = _row(t)
    assert after["bounty_kind"] == changes["bounty_kind"] and after["bounty"] == changes["bounty"]
    if "mystery_envelopes" in changes:
        assert after["mystery_envelopes"] == ENVELOPES
        assert done["mystery_envelopes"] == [{}, ENVELOPES]
    event = Event.objects.get(tournament=t, kind="settings_changed")
    assert event.payload["changes"] == done
    assert (
        f"Bounty type: No bounties → {Tournament.BountyKind(changes['bounty_kind']).label}"
        in (event.payload["summary"])
    )
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "settings_changed"
    assert _row(t) == before
    action_redo(tournament_id=t.pk, actor=director)  # the call read back from JSON
    assert _row(t) == after


def test_the_log_says_each_bounty_setting_in_words(director):
    t = _create(director, bounty_kind="mystery", bounty=2000, mystery_envelopes={"1000": 2})
    ts.tournament_settings_update(
        tournament_id=t.pk,
        changes={
            "bounty": 2500,
            "bounty_cash_percent": 40,
            "mystery_from_players": 18,
            "mystery_envelopes": {"10000": 1, "500": 30},
        },
        actor=director,
    )
    summary = Event.objects.get(tournament=t, kind="settings_changed").payload["summary"]
    assert summary == (
        "Bounty: 20.00 → 25.00; PKO cash share: 50 % in cash → 40 % in cash; "
        "Mystery stage: from 9 players → from 18 players; "
        "Mystery envelopes: 10.00 x 2 → 100.00 x 1, 5.00 x 30"
    )


def test_envelopes_replaced_are_put_back_exactly_by_undo(director):
    t = _create(director, bounty_kind="mystery", bounty=2000, mystery_envelopes=ENVELOPES)
    _register(t, 3, director)  # the envelopes may change after entries (until a draw)
    ts.tournament_settings_update(
        tournament_id=t.pk, changes={"mystery_envelopes": {"2000": 3}}, actor=director
    )
    assert _bounty_row(t)[4] == {"2000": 3}
    action_undo(tournament_id=t.pk, actor=director)
    assert _bounty_row(t)[4] == ENVELOPES
    action_redo(tournament_id=t.pk, actor=director)
    assert _bounty_row(t)[4] == {"2000": 3}
    # emptied: the set left is {} until set again
    ts.tournament_settings_update(
        tournament_id=t.pk, changes={"mystery_envelopes": {}}, actor=director
    )
    assert _bounty_row(t)[4] == {}


def _refused(t, changes, code, message, field, director):
    before = _row(t)
    events = Event.objects.filter(tournament=t).count()
    with pytest.raises(DomainError) as exc:
        ts.tournament_settings_update(tournament_id=t.pk, changes=changes, actor=director)
    assert (exc.value.code, exc.value.message) == (code, message)
    assert exc.value.fields == {field: message}
    assert _row(t) == before
    assert Event.objects.filter(tournament=t).count() == events


def test_the_same_rules_hold_when_settings_change(director):
    t = _create(director)
    _refused(t, {"bounty": 2000}, "bad_bounty", M.MSG_BOUNTY_WITHOUT_KIND, "bounty_kind", director)
    _refused(t, {"bounty_kind": "fixed"}, "bad_bounty", M.MSG_BOUNTY_NEEDED, "bounty", director)
    _refused(
        t, {"bounty_kind": 7}, "unknown_bounty_type", M.MSG_BOUNTY_KIND, "bounty_kind", director
    )
    _refused(
        t,
        {"bounty_cash_percent": 150},
        "bad_share",
        M.MSG_CASH_PERCENT,
        "bounty_cash_percent",
        director,
    )
    _refused(
        t, {"mystery_from_players": 0}, "bad_stage", M.MSG_STAGE, "mystery_from_players", director
    )
    _refused(
        t,
        {"mystery_envelopes": "5000 x 2"},
        "bad_envelopes",
        M.MSG_ENVELOPES,
        "mystery_envelopes",
        director,
    )


def test_envelopes_only_for_mystery_bounties(director):
    # RULES 9.4
    t = _create(director, bounty_kind="fixed", bounty=2000)
    msg = M.MSG_NOT_MYSTERY
    _refused(
        t, {"mystery_envelopes": {"1000": 2}}, "not_mystery", msg, "mystery_envelopes", director
    )
    t = _create(director, bounty_kind="mystery", bounty=2000, mystery_envelopes=ENVELOPES)
    _refused(t, {"bounty_kind": "fixed"}, "not_mystery", msg, "mystery_envelopes", director)
    # with the envelopes emptied in the same change: fine
    ts.tournament_settings_update(
        tournament_id=t.pk, changes={"bounty_kind": "fixed", "mystery_envelopes": {}}
    )
    assert _bounty_row(t)[:2] == ("fixed", 2000) and _bounty_row(t)[4] == {}


def test_envelopes_need_not_add_up_when_set_and_the_page_shows_both(director):
    # RULES 9.4: late entries still come; the first draw checks the sum
    t = _create(director, bounty_kind="mystery", bounty=2000)
    _register(t, 3, director)
    ts.tournament_settings_update(
        tournament_id=t.pk, changes={"mystery_envelopes": {"5000": 2}}, actor=director
    )
    t.refresh_from_db()
    assert ts.envelopes_hint(t) == ts.MSG_ENVELOPES_HINT % {
        "envelopes": "100.00",
        "collected": "60.00",
    }
    assert ts.envelopes_hint(_create(director, bounty_kind="fixed", bounty=2000)) is None
    assert (
        ts.price_text(t) == "Price at the desk: 75.00 = 50.00 prize pool + 20.00 bounty + 5.00 fee"
    )


def test_bounty_type_and_amount_lock_with_the_first_entry(director):
    # RULES 9.1: every entry pays the same bounty part
    t = _create(director, bounty_kind="fixed", bounty=2000)
    _register(t, 2, director)
    locks = ts.field_locks(t)
    for field, label in (("bounty_kind", "Bounty type"), ("bounty", "Bounty")):
        msg = ts.MSG_PAID_ALREADY % {"label": label, "n": 2}
        assert locks[field] == ("settings_locked", msg)
    _refused(t, {"bounty": 3000}, "settings_locked", locks["bounty"][1], "bounty", director)
    _refused(
        t,
        {"bounty_kind": "progressive"},
        "settings_locked",
        locks["bounty_kind"][1],
        "bounty_kind",
        director,
    )
    # the form shows the same reasons under its read-only fields
    shown = ts.locked_fields(t)
    assert shown["bounty"] == locks["bounty"][1] and shown["bounty_kind"] == locks["bounty_kind"][1]


def _seated_ids(t) -> list[int]:
    return list(t.entries.filter(status="seated").order_by("number").values_list("pk", flat=True))


def test_the_pko_cash_share_locks_with_the_first_knockout_paid(director):
    # RULES 9.3: every knockout is paid at the same share
    t = _create(director, bounty_kind="progressive", bounty=2000)
    _register(t, 6, director)
    ts.tournament_settings_update(tournament_id=t.pk, changes={"bounty_cash_percent": 40})
    a, b, *_ = _seated_ids(t)
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], winners=[a])
    assert Knockout.objects.get(tournament=t).cash == 800
    msg = ts.MSG_KNOCKOUTS_PAID % {"n": 1}
    _refused(t, {"bounty_cash_percent": 50}, "knockouts_paid", msg, "bounty_cash_percent", director)
    action_undo(tournament_id=t.pk, actor=director)  # the knockout taken back: free again
    assert "bounty_cash_percent" not in ts.field_locks(t)
    ts.tournament_settings_update(tournament_id=t.pk, changes={"bounty_cash_percent": 50})
    assert _bounty_row(t)[2] == 50


def test_the_mystery_stage_and_envelopes_lock_with_the_first_draw(director):
    # RULES 9.4: the draws were made from this set
    t = _create(director, bounty_kind="mystery", bounty=2000, mystery_envelopes=ENVELOPES)
    _register(t, 6, director)
    a, b, *_ = _seated_ids(t)
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], winners=[a])
    locks = ts.field_locks(t)
    msg = ts.MSG_ENVELOPES_DRAWN % {"n": 1}
    assert locks["mystery_envelopes"] == locks["mystery_from_players"] == ("envelopes_drawn", msg)
    _refused(
        t,
        {"mystery_envelopes": {"12000": 1}},
        "envelopes_drawn",
        msg,
        "mystery_envelopes",
        director,
    )
    _refused(
        t, {"mystery_from_players": 3}, "envelopes_drawn", msg, "mystery_from_players", director
    )
    action_undo(tournament_id=t.pk, actor=director)  # the envelope back in the set
    assert _bounty_row(t)[4] == ENVELOPES
    assert not {"mystery_envelopes", "mystery_from_players"} & set(ts.field_locks(t))


# ---------------------------------------------------------------- copy


def test_a_copy_keeps_the_bounty_setup_but_not_the_envelopes(director):
    src = _create(
        director,
        bounty_kind="mystery",
        bounty=2000,
        bounty_cash_percent=40,
        mystery_from_players=12,
        mystery_envelopes=ENVELOPES,
    )
    t = setup.tournament_copy(source_id=src.pk, name="Next week", actor=director)
    assert _bounty_row(t) == ("mystery", 2000, 40, 12, {})
    initial = setup.copy_initial(src)
    assert (
        initial["bounty_kind"],
        initial["bounty"],
        initial["bounty_cash_percent"],
        initial["mystery_from_players"],
    ) == ("mystery", "20", 40, 12)
    assert "mystery_envelopes" not in initial  # the form's box starts empty
    # the settings form shows the envelopes left, as typed
    assert ts.settings_initial(src)["mystery_envelopes"] == "50 x 1\n10 x 7"
