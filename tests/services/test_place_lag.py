"""RULES 7.1 during late registration: places count from the bottom of the whole field, so
each late entry moves every player already out one place down. The entries keep that in
``Tournament.place_lag`` instead of rewriting every busted row per entry; these tests hold
the places as the results show them, and the rows once registration closes."""

from __future__ import annotations

import pytest

from tourney import selectors, services
from tourney.models import Entry, Tournament
from tourney.selectors import money as money_reads
from tourney.services.undo import action_undo

from .test_money import _create, _seated
from .test_undo import snapshot

pytestmark = pytest.mark.django_db


def _results(t: Tournament) -> dict[int, tuple[int, int]]:
    """{entry id: (place, place_to)} as GET .../results shows them."""
    t.refresh_from_db()
    return {r["entry"]: (r["place"], r["place_to"]) for r in selectors.results(t)["places"]}


def _stored(t: Tournament) -> dict[int, tuple[int, int]]:
    return {
        pk: (p, pt)
        for pk, p, pt in Entry.objects.filter(tournament=t, place__isnull=False).values_list(
            "pk", "place", "place_to"
        )
    }


def _bust(t: Tournament, director, *busts: tuple[Entry, int]) -> dict:
    return services.elimination_record(
        tournament_id=t.pk, busts=[(e.pk, stack) for e, stack in busts], actor=director
    )


def test_each_late_entry_moves_everyone_out_one_place_down_without_writing_their_rows(director):
    t = _create(director, players=6)
    a, b, c = _seated(t)[-3:]
    _bust(t, director, (c, 1000))
    _bust(t, director, (a, 500), (b, 500))  # RULES 7.2: equal stacks tie for 4th–5th
    assert _results(t) == {c.pk: (6, 6), a.pk: (4, 5), b.pk: (4, 5)}
    rows = _stored(t)

    services.entry_register(tournament_id=t.pk, name="Late 1", actor=director)
    services.entry_register(tournament_id=t.pk, name="Late 2", actor=director)

    assert _results(t) == {c.pk: (8, 8), a.pk: (6, 7), b.pk: (6, 7)}
    assert _stored(t) == rows  # not one busted row written
    assert t.place_lag == 2
    # the next player out takes the last place of the ones still to play: 5 left → 5th
    d = _seated(t)[0]
    answer = _bust(t, director, (d, 100))
    assert answer["places"] == [{"entry": d.pk, "place": 5, "place_to": 5}]
    assert _results(t)[d.pk] == (5, 5)
    assert [r["place"] for r in money_reads.results_rows(t)] == [5, 6, 6, 8]


def test_a_late_entry_with_nobody_out_leaves_the_lag_alone(director):
    t = _create(director, players=3)
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    t.refresh_from_db()
    assert t.place_lag == 0


def test_closing_registration_writes_the_places_into_the_rows(director):
    # RULES 4.4: late registration closes at the end of level 0 here.
    t = _create(director, players=6, late_reg_until=0)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    first = _seated(t)[-1]
    _bust(t, director, (first, 1000))
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    shown = _results(t)
    assert shown == {first.pk: (7, 7)} and _stored(t) == {first.pk: (6, 6)}
    before = snapshot(t)

    services.clock_action(tournament_id=t.pk, action="next", actor=director)

    t.refresh_from_db()
    assert not t.registration_open and t.place_lag == 0
    assert _stored(t) == shown == _results(t)
    # RULES 7.4: undo puts the rows and the lag back exactly
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == before
    assert _results(t) == shown


def test_places_go_into_the_rows_before_they_could_drop_below_one_and_end_at_one(director):
    t = _create(director, players=4)
    _bust(t, director, (_seated(t)[-1], 1000))
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"Late {i}", actor=director)
    t.refresh_from_db()
    assert t.place_lag == 3
    stacks = iter(range(100, 10000, 100))
    while len(seated := _seated(t)) > 1:
        _bust(t, director, (seated[-1], next(stacks)))
        t.refresh_from_db()
        assert all(p >= 1 for p, _ in _stored(t).values())
    assert t.place_lag == 0 and t.status == Tournament.Status.FINISHED
    places = sorted(p for p, _ in _results(t).values())
    assert places == list(range(1, 8))  # 7 entries, places 1..7, the winner first
    assert _stored(t) == _results(t)
    assert sum(r["prize"] for r in money_reads.results_rows(t)) == money_reads.pool_of(t)


def test_a_reentry_moves_the_places_and_its_undo_moves_them_back(director):
    t = _create(director, players=5, reentries_allowed=1)
    out = _seated(t)[-1]
    _bust(t, director, (out, 1000))
    assert _results(t) == {out.pk: (5, 5)}
    before = snapshot(t)

    again = services.entry_reenter(tournament_id=t.pk, entry_id=out.pk, actor=director)

    assert again.status == Entry.Status.SEATED
    assert _results(t) == {out.pk: (6, 6)}
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == before
    assert _results(t) == {out.pk: (5, 5)}


def test_hand_for_hand_shares_the_round_with_the_places_as_they_stand(director):
    # RULES 7.3 with late entries in between: the round's busts share places counted from
    # the bottom of the field as it is now.
    t = _create(director, players=8)
    _bust(t, director, (_seated(t)[-1], 1000))
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    services.hand_for_hand_set(tournament_id=t.pk, on=True, actor=director)
    x, y = _seated(t)[:2]
    _bust(t, director, (x, 300))
    _bust(t, director, (y, 300))  # same round, equal stacks: they tie
    shown = _results(t)
    assert shown[x.pk] == shown[y.pk] == (7, 8)  # 8 were left: the round covers 7th–8th
    assert sorted(p for p, _ in shown.values()) == [7, 7, 9]
    assert _stored(t) == shown and t.place_lag == 0


def test_the_admin_lists_the_place_as_it_stands(admin_client, director):
    t = _create(director, players=3)
    out = _seated(t)[-1]
    _bust(t, director, (out, 1000))
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    page = admin_client.get("/admin/tourney/entry/")
    assert page.status_code == 200
    row = next(r for r in page.content.decode().split("<tr") if f"#{out.number} " in r)
    assert '<td class="field-finished">4</td>' in row  # stored 3, one late entry since
