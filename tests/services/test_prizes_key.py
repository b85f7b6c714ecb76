"""The tournament lock reads the payout table and the frozen prizes only when they changed
(``Tournament.prizes_key``, set by database triggers, migration 0006); the undo journal
keeps them only for the actions that change them."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from tourney import services
from tourney.core import locking
from tourney.models import Entry, Event, Tournament
from tourney.services import money
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db


def _key(t: Tournament) -> str:
    return Tournament.objects.values_list("prizes_key", flat=True).get(pk=t.pk)


def _locked(t: Tournament) -> Tournament:
    with transaction.atomic():
        return locking.lock_tournament(t.pk)


def test_a_new_tournament_gets_a_key_and_each_write_of_the_prizes_a_new_one(tournament):
    first = _key(tournament)
    assert len(first) == 32

    Tournament.objects.filter(pk=tournament.pk).update(version=7, draw_counter=3)
    assert _key(tournament) == first  # the counters every action writes keep it

    Tournament.objects.filter(pk=tournament.pk).update(frozen_prizes=[100, 50])
    second = _key(tournament)
    assert second != first

    Tournament.objects.filter(pk=tournament.pk).update(payout_percentages=[6000, 4000])
    third = _key(tournament)
    assert third not in (first, second)

    t = Tournament.objects.get(pk=tournament.pk)
    t.save()  # a full save names both columns (the clock actions save so)
    assert _key(tournament) not in (first, second, third)


def test_the_lock_sees_every_change_of_the_prizes_whoever_wrote_it(tournament):
    assert _locked(tournament).frozen_prizes is None  # read and remembered

    Tournament.objects.filter(pk=tournament.pk).update(
        frozen_prizes=[300, 200, 100], payout_percentages=[5000, 3000, 2000]
    )
    t = _locked(tournament)
    assert t.frozen_prizes == [300, 200, 100]
    assert t.payout_percentages == [5000, 3000, 2000]

    with connection.cursor() as c:  # raw SQL, as a script or the admin might
        c.execute("UPDATE tourney_tournament SET frozen_prizes = NULL WHERE id = %s", [t.pk])
    assert _locked(tournament).frozen_prizes is None


def test_unchanged_prizes_are_not_read_again_and_each_lock_gets_its_own_lists(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(frozen_prizes=[300, 200, 100])
    a = _locked(tournament)
    with connection.cursor() as c:  # what the lock's query sends when nothing changed
        c.execute(
            f"SELECT {locking.PRIZES_SQL} FROM tourney_tournament WHERE id = %s",
            [a.prizes_key, a.prizes_key, a.pk],
        )
        assert c.fetchone() == (a.prizes_key, None, None)

    a.frozen_prizes.append(1)  # a caller changing its own copy
    b = _locked(tournament)
    assert b.frozen_prizes == [300, 200, 100]
    assert b.frozen_prizes is not a.frozen_prizes


def test_undo_data_keeps_the_payout_table_only_for_actions_that_change_it(
    seated_tournament, director
):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    money.payouts_freeze(tournament_id=t.pk, actor=director)
    frozen = Tournament.objects.get(pk=t.pk).frozen_prizes
    assert frozen

    last = Entry.objects.filter(tournament=t, status="seated").order_by("-number").first()
    services.elimination_record(tournament_id=t.pk, busts=[(last.pk, 100)], actor=director)
    bust = Event.objects.filter(tournament=t, kind="elimination").latest("pk")
    assert "frozen_prizes" not in bust.payload["undo"]["tournament"]
    assert "payout_percentages" not in bust.payload["undo"]["tournament"]

    freeze = Event.objects.filter(tournament=t, kind="payouts_frozen").latest("pk")
    assert freeze.payload["undo"]["tournament"]["frozen_prizes"] is None

    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "elimination"
    assert Tournament.objects.get(pk=t.pk).frozen_prizes == frozen  # untouched by that undo
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "payouts_frozen"
    after = Tournament.objects.get(pk=t.pk)
    assert after.frozen_prizes is None
    assert _locked(after).frozen_prizes is None  # and the lock sees it
