"""Issue 31, item 6: a tournament's settings edited after creation — each change recorded,
undone and redone through the log's undo; what no longer makes sense refused, nothing
written (tourney/services/tournament_settings.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.models import Table
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event, Tournament
from tourney.selectors import money as money_reads
from tourney.services import money, undo
from tourney.services.tournament_settings import (
    LABELS,
    MSG_BAD_ZONE,
    MSG_BREAK_OVER,
    MSG_DRAW_AFTER_ENTRIES,
    MSG_FEE_NEEDS_PRICE,
    MSG_FROZEN,
    MSG_LEVEL_OVER,
    MSG_NOTHING_CHANGED,
    MSG_PAID_ALREADY,
    MSG_REGISTRATION_CLOSED,
    MSG_SEATED_ALREADY,
    MSG_TAKEN_ALREADY,
    MSG_UNKNOWN_SETTING,
    tournament_settings_update,
)

pytestmark = pytest.mark.django_db


def _level(sb: int, minutes: int = 20) -> dict:
    return {
        "kind": "level",
        "small_blind": sb,
        "big_blind": 2 * sb,
        "ante": 0,
        "big_blind_ante": 0,
        "minutes": minutes,
    }


# items: 0 L1, 1 L2, 2 break 1, 3 L3, 4 L4, 5 break 2, 6 L5, 7 L6
LEVELS = [
    _level(25),
    _level(50),
    {"kind": "break", "minutes": 10, "color_up": []},
    _level(100),
    _level(200),
    {"kind": "break", "minutes": 10, "color_up": []},
    _level(300),
    _level(400),
]


@pytest.fixture
def t(director):
    return services.tournament_create(
        actor=director,
        name="Sunday 100",
        seats_per_table=9,
        tables=2,
        starting_stack=10000,
        buy_in=10000,
        fee=2000,
        seed=3,
        levels=LEVELS,
        options={"late_reg_until": 3, "reentries_allowed": 1, "time_zone": "UTC"},
    )


def _register(t, n, director):
    for i in range(n):
        services.entry_register(tournament_id=t.pk, name=f"Player {i + 1:02d}", actor=director)


def _row(t) -> dict:
    fields = [f.name for f in Tournament._meta.fields if f.name not in ("version", "prizes_key")]
    return dict(Tournament.objects.filter(pk=t.pk).values(*fields).get())


EVERY_FIELD = [
    ("name", "Sunday Deepstack"),
    ("seats_per_table", 8),
    ("starting_stack", 20000),
    ("buy_in", 15000),
    ("fee", 1500),
    ("guarantee", 500000),
    ("added_money", 20000),
    ("late_reg_until", 6),
    ("late_reg_until", None),
    ("reentries_allowed", 2),
    ("rebuy_until", 4),
    ("rebuy_price", 5000),
    ("rebuy_chips", 10000),
    ("addon_at", 5),
    ("addon_price", 5000),
    ("addon_chips", 15000),
    ("balance_tolerance", 2),
    ("redraw_at_three", False),
    ("redraw_at_two", False),
    ("redraw_at_one", False),
    ("race_threshold", "more_than_half"),
    ("auto_open_tables", False),
    ("draw_at_registration", False),
    ("public_names", "full"),
    ("time_zone", "America/Chicago"),
]


@pytest.mark.parametrize(("field", "value"), EVERY_FIELD)
def test_each_setting_changes_is_logged_and_undone_and_redone(t, director, field, value):
    before = _row(t)
    assert before[field] != value
    done = tournament_settings_update(tournament_id=t.pk, changes={field: value}, actor=director)
    assert done == {field: [before[field], value]}
    after = _row(t)
    assert after[field] == value
    assert {k: v for k, v in after.items() if k != field} == {
        k: v for k, v in before.items() if k != field
    }
    event = Event.objects.get(tournament=t, kind="settings_changed")
    assert event.payload["changes"] == {field: [before[field], value]}
    assert event.actor == director
    assert "→" in event.payload["summary"]

    assert undo.action_undo(tournament_id=t.pk, actor=director)["kind"] == "settings_changed"
    assert _row(t) == before
    undo.action_redo(tournament_id=t.pk, actor=director)
    assert _row(t)[field] == value


def test_seats_per_table_resizes_the_open_tables_and_undo_puts_them_back(t, director):
    tournament_settings_update(tournament_id=t.pk, changes={"seats_per_table": 6}, actor=director)
    assert set(Table.objects.filter(tournament=t).values_list("seats", flat=True)) == {6}
    undo.action_undo(tournament_id=t.pk, actor=director)
    assert set(Table.objects.filter(tournament=t).values_list("seats", flat=True)) == {9}


def test_payouts_and_rounding_go_through_the_payout_table_and_undo_together(t, director):
    _register(t, 10, director)
    done = tournament_settings_update(
        tournament_id=t.pk,
        changes={"payout_percentages": [6000, 4000], "rounding_unit": 500, "name": "Renamed"},
        actor=director,
    )
    assert done["payout_percentages"] == [None, [6000, 4000]]
    assert done["rounding_unit"] == [100, 500]
    t.refresh_from_db()
    assert t.payout_percentages == [6000, 4000] and t.rounding_unit == 500
    assert money_reads.prizes_of(t)[:2] == (60000, 40000)  # 10 x 100.00 in the pool, 60/40
    undo.action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 100 and t.name == "Sunday 100"
    # the payout table's own event went with it: nothing left to undo but the registrations
    assert Event.objects.get(tournament=t, kind="payouts_set").undone
    undo.action_redo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.payout_percentages == [6000, 4000] and t.rounding_unit == 500 and t.name == "Renamed"


def test_a_finished_tournament_keeps_its_settings(t, director):
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(DomainError) as exc:
        tournament_settings_update(tournament_id=t.pk, changes={"name": "Later"}, actor=director)
    assert exc.value.code == "tournament_finished" and exc.value.status == 409
    assert Tournament.objects.get(pk=t.pk).name == "Sunday 100"


def test_several_changes_are_one_action(t, director):
    tournament_settings_update(
        tournament_id=t.pk,
        changes={"reentries_allowed": 3, "balance_tolerance": 2, "public_names": "nickname"},
        actor=director,
    )
    assert Event.objects.filter(tournament=t, kind="settings_changed").count() == 1
    undo.action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert (t.reentries_allowed, t.balance_tolerance, t.public_names) == (1, None, "initial")


def _refused(t, changes, code, message, field, director):
    before = _row(t)
    events = Event.objects.filter(tournament=t).count()
    with pytest.raises(DomainError) as exc:
        tournament_settings_update(tournament_id=t.pk, changes=changes, actor=director)
    assert exc.value.code == code
    assert exc.value.message == message
    assert field in exc.value.fields
    assert _row(t) == before
    assert Event.objects.filter(tournament=t).count() == events


def test_buy_in_fee_stack_and_seating_mode_refused_after_the_first_entry(t, director):
    _register(t, 3, director)
    for field, value, label in (
        ("buy_in", 1, "Buy-in"),
        ("fee", 1, "Fee"),
        ("starting_stack", 5000, "Starting stack"),
    ):
        msg = MSG_PAID_ALREADY % {"label": label, "n": 3}
        _refused(t, {field: value, "name": "X"}, "settings_locked", msg, field, director)
    msg = MSG_DRAW_AFTER_ENTRIES % {"n": 3}
    _refused(
        t, {"draw_at_registration": False}, "settings_locked", msg, "draw_at_registration", director
    )
    msg = MSG_SEATED_ALREADY % {"n": 3}
    _refused(t, {"seats_per_table": 10}, "settings_locked", msg, "seats_per_table", director)


def test_the_form_shows_the_services_own_reasons_and_an_unchanged_locked_field_passes(t, director):
    from tourney.services.tournament_settings import MODEL_TO_FORM, field_locks, locked_fields

    _register(t, 3, director)
    locks = field_locks(t)
    assert {"buy_in", "fee", "starting_stack", "draw_at_registration"} <= set(locks)
    # one source: what the form shows under a read-only field is what the service refuses with
    assert locked_fields(t) == {MODEL_TO_FORM.get(f, f): msg for f, (_c, msg) in locks.items()}
    t.refresh_from_db()
    for field, (code, msg) in locks.items():
        wrong = not getattr(t, field) if isinstance(getattr(t, field), bool) else 7
        _refused(t, {field: wrong}, code, msg, field, director)
    # the locked fields sent back as they are, with a real change: saved
    same = {f: getattr(t, f) for f in locks}
    done = tournament_settings_update(
        tournament_id=t.pk, changes={**same, "name": "Kept"}, actor=director
    )
    assert set(done) == {"name"}


def test_late_registration_cannot_end_at_a_level_already_over(t, director):
    start = timezone.now() - timedelta(minutes=45)  # break 1 (item 2), after level 2, runs
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=start)
    msg = MSG_LEVEL_OVER % {"what": "Late registration", "level": 2, "now": "break 1", "next": 3}
    assert msg == (
        "Late registration cannot end at level 2: that level is already over (the clock is at "
        "break 1). Choose level 3 or later."
    )
    _refused(t, {"late_reg_until": 1}, "window_passed", msg, "late_reg_until", director)
    msg = MSG_LEVEL_OVER % {"what": "Rebuys", "level": 1, "now": "break 1", "next": 3}
    _refused(t, {"rebuy_until": 0}, "window_passed", msg, "rebuy_until", director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)  # level 3 now
    _refused(t, {"addon_at": 2}, "window_passed", MSG_BREAK_OVER % {"n": 1}, "addon_at", director)
    # the level running now, or later, is fine
    tournament_settings_update(tournament_id=t.pk, changes={"late_reg_until": 4}, actor=director)
    t.refresh_from_db()
    assert t.late_reg_until == 4 and t.registration_open


def test_closed_registration_and_frozen_prizes_stay_so(t, director):
    _register(t, 4, director)
    services.registration_close(tournament_id=t.pk, actor=director)
    _refused(
        t,
        {"late_reg_until": 7},
        "registration_closed",
        MSG_REGISTRATION_CLOSED,
        "late_reg_until",
        director,
    )
    _refused(
        t,
        {"reentries_allowed": 3},
        "registration_closed",
        MSG_REGISTRATION_CLOSED,
        "reentries_allowed",
        director,
    )
    _refused(t, {"guarantee": 100000}, "prizes_frozen", MSG_FROZEN, "guarantee", director)


def test_fewer_reentries_than_already_made_hold_from_now_on(t, director):
    _register(t, 3, director)
    first = t.entries.order_by("number").first()
    services.elimination_record(tournament_id=t.pk, busts=[(first.pk, None)], actor=director)
    services.entry_reenter(tournament_id=t.pk, entry_id=first.pk, actor=director)
    # Re-entries off although one was made: nobody's entry is taken back (module docstring)
    tournament_settings_update(tournament_id=t.pk, changes={"reentries_allowed": 0})
    t.refresh_from_db()
    assert t.reentries_allowed == 0 and t.entries.count() == 4


def test_a_closed_rebuy_period_stays_closed(t, director):
    Tournament.objects.filter(pk=t.pk).update(rebuy_until=1, rebuys_open=False)
    from tourney.services.tournament_settings import MSG_REBUYS_CLOSED

    _refused(t, {"rebuy_until": 4}, "rebuys_closed", MSG_REBUYS_CLOSED, "rebuy_until", director)


def test_rebuy_price_refused_once_a_rebuy_was_taken(t, director):
    tournament_settings_update(
        tournament_id=t.pk,
        changes={"rebuy_until": 4, "rebuy_price": 5000, "rebuy_chips": 10000},
        actor=director,
    )
    _register(t, 2, director)
    entry = t.entries.order_by("number").first()
    money.entry_rebuy(tournament_id=t.pk, entry_id=entry.pk, actor=director)
    msg = MSG_TAKEN_ALREADY["rebuy"] % {"n": 1}
    _refused(t, {"rebuy_price": 6000}, "settings_locked", msg, "rebuy_price", director)


def test_bad_values_are_refused_with_the_field(t, director):
    _refused(
        t,
        {"rebuy_fee": 500},
        "bad_input",
        MSG_FEE_NEEDS_PRICE["rebuy"],
        "rebuy_fee",
        director,
    )
    _refused(
        t,
        {"time_zone": "Mars/Olympus"},
        "bad_input",
        MSG_BAD_ZONE % {"zone": "Mars/Olympus"},
        "time_zone",
        director,
    )
    _refused(
        t,
        {"status": "finished"},
        "bad_input",
        MSG_UNKNOWN_SETTING % {"field": "status"},
        "status",
        director,
    )
    with pytest.raises(DomainError) as exc:
        tournament_settings_update(tournament_id=t.pk, changes={"name": "Sunday 100"})
    assert exc.value.code == "nothing_changed" and exc.value.message == MSG_NOTHING_CHANGED
    with pytest.raises(DomainError) as exc:
        tournament_settings_update(tournament_id=t.pk, changes={"balance_tolerance": 0})
    assert exc.value.code == "bad_input" and "balance_tolerance" in exc.value.fields


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=2**70),
    st.text(max_size=12),
    st.lists(st.integers(min_value=-1, max_value=10001), max_size=4),
    st.sampled_from(["Europe/Paris", "full", "more_than_half", "Mars/Olympus", ""]),
    st.floats(allow_nan=True),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=st.dictionaries(st.sampled_from(sorted(LABELS)), _VALUES, max_size=4))
def test_any_changes_either_apply_or_are_refused_with_nothing_written(t, director, changes):
    before = _row(t)
    events = Event.objects.filter(tournament=t).count()
    try:
        done = tournament_settings_update(tournament_id=t.pk, changes=changes, actor=director)
    except DomainError as exc:
        assert 400 <= exc.status < 500 and exc.message
        assert _row(t) == before
        assert Event.objects.filter(tournament=t).count() == events
        return
    assert done
    undo.action_undo(tournament_id=t.pk, actor=director)
    assert _row(t) == before
