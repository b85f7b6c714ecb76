"""The room's undo journal (tourney/core/room_journal.py): rows changed, deleted and created by
one room action come back exactly; a refused action writes nothing; an undo is refused while
a later action touched the same rows, twice, or for an action without undo data."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tourney.core.room_journal import room_action, room_log, room_undo
from tourney.engine.errors import DomainError
from tourney.models import Event, League, Player, Season

pytestmark = pytest.mark.django_db


def _state():
    players = list(Player.objects.order_by("pk").values_list("pk", "name", "email", "notes"))
    seasons = list(
        Season.objects.order_by("pk").values_list("pk", "name", "starts_on", "attendance_points")
    )
    return players, seasons


def test_changed_deleted_and_created_rows_come_back(director):
    ann = Player.objects.create(name="Ann Lee", email="ann@example.com")
    bob = Player.objects.create(name="Bob Ray", notes="regular")
    league = League.objects.create(name="Tuesday", slug="tuesday")
    season = Season.objects.create(
        league=league, name="2026", starts_on=date(2026, 1, 6), attendance_points=Decimal("2.50")
    )
    before = _state()
    with room_action("mixed", director, {"why": "test"}) as j:
        j.before(ann, fields=("email",))
        Player.objects.filter(pk=ann.pk).update(email="")
        j.before(bob)
        bob.delete()
        j.before(season, fields=("starts_on", "attendance_points"))
        Season.objects.filter(pk=season.pk).update(starts_on=None, attendance_points=0)
        new = Player.objects.create(name="Cleo Day")
        j.created(new)
    assert _state() != before
    event = Event.objects.get(kind="mixed")
    assert event.tournament_id is None and event.payload["why"] == "test"
    log = room_log()
    assert log[0]["id"] == event.pk and log[0]["can_undo"] and "undo" not in log[0]["payload"]
    undone = room_undo(event_id=event.pk, actor=director)
    assert undone.kind == "room_undo" and undone.payload["undid"] == event.pk
    assert _state() == before
    assert room_log()[1]["can_undo"] is False
    with pytest.raises(DomainError) as exc:
        room_undo(event_id=event.pk, actor=director)
    assert exc.value.code == "already_undone"


def test_only_the_noted_fields_come_back(director):
    ann = Player.objects.create(name="Ann Lee", email="ann@example.com")
    with room_action("email_cleared", director, {}) as j:
        j.before(ann, fields=("email",))
        Player.objects.filter(pk=ann.pk).update(email="")
    Player.objects.filter(pk=ann.pk).update(name="Ann Lee-Smith")  # not the action's
    room_undo(event_id=Event.objects.get(kind="email_cleared").pk, actor=director)
    assert Player.objects.filter(pk=ann.pk).values_list("name", "email").get() == (
        "Ann Lee-Smith",
        "ann@example.com",
    )


def test_a_refusal_inside_the_action_writes_nothing(director):
    before = _state()
    with pytest.raises(DomainError):
        with room_action("refused", director, {}) as j:
            p = Player.objects.create(name="Half Written")
            j.created(p)
            raise DomainError("bad_input", "no")
    assert _state() == before and not Event.objects.filter(kind="refused").exists()


def test_undo_waits_for_a_later_action_on_the_same_rows(director):
    ann = Player.objects.create(name="Ann Lee", notes="a")
    for kind, notes in (("first", "b"), ("second", "c")):
        with room_action(kind, director, {}) as j:
            j.before(ann, fields=("notes",))
            Player.objects.filter(pk=ann.pk).update(notes=notes)
    first, second = (Event.objects.get(kind=k) for k in ("first", "second"))
    with pytest.raises(DomainError) as exc:
        room_undo(event_id=first.pk, actor=director)
    assert exc.value.code == "stale_undo" and exc.value.fields["event"] == second.pk
    assert Player.objects.get(pk=ann.pk).notes == "c"
    room_undo(event_id=second.pk, actor=director)
    room_undo(event_id=first.pk, actor=director)
    assert Player.objects.get(pk=ann.pk).notes == "a"


def test_unknown_and_not_undoable_actions_are_refused(director, tournament):
    with pytest.raises(DomainError) as exc:
        room_undo(event_id=999_999, actor=director)
    assert exc.value.code == "not_found"
    plain = Event.objects.create(tournament=None, kind="account_created", payload={})
    with pytest.raises(DomainError) as exc:
        room_undo(event_id=plain.pk, actor=director)
    assert exc.value.code == "not_undoable"
    of_a_tournament = Event.objects.create(tournament=tournament, kind="x", payload={"undo": {}})
    with pytest.raises(DomainError) as exc:
        room_undo(event_id=of_a_tournament.pk, actor=director)
    assert exc.value.code == "not_found"
