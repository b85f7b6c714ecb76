"""Issue 11: a whole 300-entry tournament through the real services; the invariants are
asserted from the simulation's JSON summary."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tourney.models import Entry, Tournament


@pytest.mark.django_db
def test_a_300_entry_tournament_plays_down_to_a_winner_with_every_invariant_kept():
    out = StringIO()
    call_command("simulate", entries=300, seats=10, seed=1, as_json=True, quiet=True, stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["invariants_ok"] is True
    assert summary["entries"] == 300 and summary["reentries"] > 0
    checks = summary["checks"]
    for name in (
        "seats unique",
        "tables within tolerance",
        "fewest tables",
        "chips conserved",
        "places 1..N",
        "prizes sum to the pool",
    ):
        assert checks[name] >= 1, name
    assert summary["moves"].get("balance", 0) > 0 and summary["moves"].get("break", 0) > 0
    assert summary["moves"].get("redraw", 0) > 0
    assert summary["color_ups"] >= 1 and summary["races"] >= 1
    assert summary["multi_bust_hands"] >= 1
    t = Tournament.objects.get(pk=summary["tournament"])
    assert t.status == "finished"
    places = sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True))
    assert places[0] == 1 and places[-1] <= 300
    assert (
        sum(Entry.objects.filter(tournament=t).values_list("prize", flat=True))
        == summary["prize_pool"]
    )


@pytest.mark.django_db
def test_the_simulation_follows_the_moves_when_a_late_entry_opens_a_table(monkeypatch):
    """A late entry that finds every seat taken opens a table and balancing fills it (RULES
    3.3); the simulation follows those moves instead of reading every seat again, and its
    idea of who sits where must still be the room's, right after each such entry."""
    from tables.models import Seat
    from tourney.management.commands import simulate as sim

    opened = []
    seated = sim.Simulation.seated

    def checked(self, e):
        new_table = e.seat_move is not None and e.seat_move["to"]["table"] not in self.at
        seated(self, e)
        if new_table:
            opened.append(e.pk)
            room = dict(
                Seat.objects.filter(tournament=self.t).values_list("entry_id", "table__number")
            )
            assert self.where == room

    monkeypatch.setattr(sim.Simulation, "seated", checked)
    out = StringIO()
    call_command("simulate", entries=300, seats=10, seed=1, as_json=True, quiet=True, stdout=out)
    assert json.loads(out.getvalue())["invariants_ok"] is True
    assert len(opened) >= 2  # tables did open during late registration


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["fixed", "progressive"])
def test_a_knockout_event_pays_every_bounty_by_its_end(kind):
    """RULES 9: each hand's winner takes the bounties; the money is conserved after every
    check and wholly paid at the end (the last player takes their own, RULES 9.8)."""
    from tourney.models import Knockout

    out = StringIO()
    call_command(
        "simulate", entries=90, seats=9, seed=3, as_json=True, quiet=True, bounty=kind, stdout=out
    )
    summary = json.loads(out.getvalue())
    assert summary["invariants_ok"] is True
    assert summary["checks"]["bounty money conserved"] >= 2
    t = Tournament.objects.get(pk=summary["tournament"])
    entries = Entry.objects.filter(tournament=t)
    assert (
        summary["bounties_paid"]
        == 5000 * entries.count()
        == sum(entries.values_list("bounty_won", flat=True))
    )
    # every entry but the winner was knocked out by someone (a split pot never happens here)
    assert Knockout.objects.filter(tournament=t).exclude(busted=t.entries.get(place=1)).count() == (
        entries.count() - 1
    )
