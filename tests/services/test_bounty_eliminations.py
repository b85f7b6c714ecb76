"""Issue 25: bounties through the elimination service (RULES 9): who takes what, the heads,
the cash won, the knockouts recorded, the last player's own bounty, mystery draws from the
recorded seed, undo and redo exactly, and bounty money conserved over random tournaments."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Knockout, Tournament
from tourney.selectors.bounties import bounty_totals
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db


def _create(director, *, players: int, kind: str, bounty: int = 2000, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Knockout night",
        tables=2,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=25,
        levels=TWO_LEVELS,
        options={"bounty_kind": kind, "bounty": bounty, **options},
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    t.refresh_from_db()
    return t


def _seated(t: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number"))


def _heads(t: Tournament) -> dict[int, tuple[int, int]]:
    return {e.pk: (e.bounty, e.bounty_won) for e in Entry.objects.filter(tournament=t)}


def test_fixed_bounty_goes_whole_to_the_winner_in_cash(director):
    # RULES 9.2
    t = _create(director, players=12, kind="fixed")
    a, b, *_ = _seated(t)
    seat = Seat.objects.get(entry=a)  # the bounty is paid where the winner sat in the hand
    out = services.elimination_record(
        tournament_id=t.pk, busts=[(b.pk, None)], winners=[a.pk], actor=director
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.bounty, a.bounty_won) == (2000, 2000)
    assert (b.bounty, b.bounty_won) == (0, 0)
    assert out["bounties"] == [
        {
            "busted": b.pk,
            "winner": a.pk,
            "cash": 2000,
            "to_head": 0,
            "envelope": None,
            "table": seat.table.number,
            "seat": seat.number,
            "name": a.player.name,
        }
    ]
    assert Knockout.objects.filter(tournament=t, busted=b, winner=a, cash=2000).count() == 1


def test_pko_half_in_cash_half_on_the_head_and_undo_redo_exactly(director):
    # RULES 9.3, 9.11
    t = _create(director, players=6, kind="progressive", bounty=2001)
    a, b, c, *_ = _seated(t)
    before = _heads(t)
    services.elimination_record(
        tournament_id=t.pk, busts=[(b.pk, None)], winners=[a.pk], actor=director
    )
    a.refresh_from_db()
    assert (a.bounty, a.bounty_won) == (2001 + 1001, 1000)  # odd unit stays on the head
    after = _heads(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert _heads(t) == before
    assert not Knockout.objects.filter(tournament=t).exists()
    action_redo(tournament_id=t.pk, actor=director)
    assert _heads(t) == after
    assert Knockout.objects.filter(tournament=t).count() == 1


def test_bounty_event_needs_the_winner_and_changes_nothing_without(director):
    t = _create(director, players=4, kind="fixed")
    a, b, *_ = _seated(t)
    before = _heads(t)
    with pytest.raises(DomainError) as exc:
        services.elimination_record(tournament_id=t.pk, busts=[(b.pk, None)], actor=director)
    assert exc.value.code == "winners_needed"
    with pytest.raises(DomainError) as exc:
        services.elimination_record(
            tournament_id=t.pk, busts=[(b.pk, None)], winners=[b.pk], actor=director
        )
    assert exc.value.code == "winner_busted"
    assert _heads(t) == before
    assert Entry.objects.get(pk=b.pk).status == Entry.Status.SEATED


def test_last_player_wins_own_bounty_whole_in_pko(director):
    # RULES 9.8, money conserved at the end: everything paid
    t = _create(director, players=3, kind="progressive")
    a, b, c = _seated(t)
    services.elimination_record(
        tournament_id=t.pk, busts=[(c.pk, 1000), (b.pk, 2000)], winners=[a.pk], actor=director
    )
    totals = bounty_totals(t)
    assert totals["collected"] == 6000
    assert totals["paid"] == 6000 and totals["on_heads"] == 0
    a.refresh_from_db()
    assert a.bounty_won == 6000 and a.place == 1
