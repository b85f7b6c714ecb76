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
    out = services.elimination_record(
        tournament_id=t.pk, busts=[(c.pk, 1000), (b.pk, 2000)], winners=[a.pk], actor=director
    )
    seat = Seat.objects.get(entry=a)  # the winner's own bounty is paid where they sit
    assert out["bounties"][-1] | {"name": ""} == {
        "busted": a.pk,
        "winner": a.pk,
        "cash": 4000,  # the two heads taken, kept on a's head, then a's own whole head
        "to_head": 0,
        "envelope": None,
        "table": seat.table.number,
        "seat": seat.number,
        "name": "",
    }
    totals = bounty_totals(t)
    assert totals["collected"] == 6000
    assert totals["paid"] == 6000 and totals["on_heads"] == 0
    a.refresh_from_db()
    assert a.bounty_won == 6000 and a.place == 1


def _at_table(t: Tournament, number: int) -> list[Entry]:
    ids = Seat.objects.filter(tournament=t, table__number=number).order_by("number")
    return [Entry.objects.get(pk=s.entry_id) for s in ids]


def test_a_split_pot_shares_the_bounty_odd_unit_by_seat(director):
    # RULES 9.5: 2,001 between two winners at one table: the lower seat takes the odd unit
    t = _create(director, players=12, kind="fixed", bounty=2001)
    b, w1, w2, *_ = _at_table(t, 1)
    services.elimination_record(
        tournament_id=t.pk, busts=[(b.pk, None)], winners=[w2.pk, w1.pk], actor=director
    )
    won = {e.pk: e.bounty_won for e in Entry.objects.filter(pk__in=[w1.pk, w2.pk])}
    assert won == {w1.pk: 1001, w2.pk: 1000}
    assert Knockout.objects.filter(busted=b).count() == 2


def test_side_pots_each_bust_to_the_winner_of_its_own_pot(director):
    # RULES 9.6, 9.7: one hand, two players out, each bounty to the winner of their last pot
    t = _create(director, players=12, kind="progressive")
    x, y, big, mid, *_ = _at_table(t, 1)
    out = services.elimination_record(
        tournament_id=t.pk,
        busts=[(x.pk, 1000), (y.pk, 3000)],
        winners={x.pk: [big.pk], y.pk: [mid.pk]},
        actor=director,
    )
    assert {(p["busted"], p["winner"]) for p in out["bounties"]} == {
        (x.pk, big.pk),
        (y.pk, mid.pk),
    }
    assert {
        e.pk: (e.bounty, e.bounty_won) for e in Entry.objects.filter(pk__in=[big.pk, mid.pk])
    } == {
        big.pk: (3000, 1000),
        mid.pk: (3000, 1000),
    }


def test_one_winner_busting_two_takes_both_bounties(director):
    # RULES 9.6
    t = _create(director, players=12, kind="progressive")
    x, y, w, *_ = _at_table(t, 1)
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 1000), (y.pk, 3000)], winners=[w.pk], actor=director
    )
    w.refresh_from_db()
    assert (w.bounty, w.bounty_won) == (4000, 2000)


def test_without_bounties_the_eliminator_is_recorded_and_nothing_paid(director):
    t = _create(director, players=12, kind="none", bounty=0)
    x, w, *_ = _at_table(t, 1)
    services.elimination_record(tournament_id=t.pk, busts=[(x.pk, None)], actor=director)
    y = _at_table(t, 1)[1]
    services.elimination_record(
        tournament_id=t.pk, busts=[(y.pk, None)], winners=[w.pk], actor=director
    )
    assert list(Knockout.objects.filter(tournament=t).values_list("busted", "winner", "cash")) == [
        (y.pk, w.pk, 0)
    ]
    assert bounty_totals(t)["collected"] == 0


def test_a_winner_who_is_not_seated_is_refused_and_nothing_changes(director):
    t = _create(director, players=12, kind="fixed")
    x, y, *_ = _at_table(t, 1)
    services.elimination_record(
        tournament_id=t.pk, busts=[(y.pk, None)], winners=[x.pk], actor=director
    )
    z = _at_table(t, 1)[1]
    before = _heads(t)
    with pytest.raises(DomainError) as exc:
        services.elimination_record(
            tournament_id=t.pk, busts=[(z.pk, None)], winners=[y.pk], actor=director
        )
    assert exc.value.code == "winner_not_seated"
    assert _heads(t) == before and Entry.objects.get(pk=z.pk).status == Entry.Status.SEATED


def _mystery(director, players=6, envelopes=None, stage=3) -> Tournament:
    t = _create(director, players=players, kind="mystery", mystery_from_players=stage)
    if envelopes is not None:
        Tournament.objects.filter(pk=t.pk).update(mystery_envelopes=envelopes)
        t.refresh_from_db()
    return t


def _bust_one(t: Tournament, director) -> dict:
    seated = _seated(t)
    return services.elimination_record(
        tournament_id=t.pk, busts=[(seated[-1].pk, None)], winners=[seated[0].pk], actor=director
    )


def test_mystery_draws_only_from_the_stage_and_replays_the_same_envelope(director):
    # RULES 9.4: 6 players x 2,000 = 12,000 in envelopes; the stage is 3 players
    envelopes = {"500": 8, "4000": 2}
    t = _mystery(director, envelopes=envelopes)
    assert Entry.objects.filter(tournament=t, bounty__gt=0).count() == 0  # no heads
    for _ in range(3):  # 6 -> 3: hands begun with 6, 5, 4 players draw nothing
        assert _bust_one(t, director)["bounties"][0]["cash"] == 0
    out = _bust_one(t, director)  # begun with 3 players: draws
    drawn = out["bounties"][0]
    assert drawn["envelope"] in (500, 4000) and drawn["cash"] == drawn["envelope"]
    action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.mystery_envelopes == envelopes  # RULES 9.11: the envelope goes back
    action_redo(tournament_id=t.pk, actor=director)
    again = Knockout.objects.filter(tournament=t, envelope__isnull=False).get()
    assert again.envelope == drawn["envelope"]  # RULES 1.1: the same recorded draw
    _bust_one(t, director)  # the last bust: the winner takes every envelope left
    t.refresh_from_db()
    totals = bounty_totals(t)
    assert totals["paid"] == totals["collected"] == 12000 and totals["in_envelopes"] == 0


def test_mystery_envelopes_that_do_not_add_up_refuse_the_first_draw(director):
    t = _mystery(director, envelopes={"1000": 5}, stage=6)  # 5,000 for 12,000 collected
    with pytest.raises(DomainError) as exc:
        _bust_one(t, director)
    assert exc.value.code == "envelopes_do_not_add_up"
    assert "add up to 50.00 but the bounty money collected is 120.00" in exc.value.message
    assert len(_seated(t)) == 6


def test_too_few_envelopes_for_the_players_left_refuse_the_first_draw(director):
    # RULES 9.4: from the stage of 6 players, five busts draw one each
    t = _mystery(director, envelopes={"3000": 4}, stage=6)
    with pytest.raises(DomainError) as exc:
        _bust_one(t, director)
    assert exc.value.code == "envelopes_too_few"
    assert exc.value.message.startswith("4 mystery envelopes for 5 players still to bust")
    assert len(_seated(t)) == 6


def test_a_winner_listed_twice_is_refused(director):
    t = _create(director, players=12, kind="none", bounty=0)
    x, w, *_ = _at_table(t, 1)
    with pytest.raises(DomainError) as exc:
        services.elimination_record(
            tournament_id=t.pk, busts=[(x.pk, None)], winners=[w.pk, w.pk], actor=director
        )
    assert exc.value.code == "duplicate_entry"
    assert not Knockout.objects.filter(tournament=t).exists()


def test_a_deal_leaves_the_bounties_unless_the_director_includes_them(director):
    # RULES 9.10
    from tourney.selectors.money import deal_quote
    from tourney.services import money

    t = _create(director, players=12, kind="progressive")
    Tournament.objects.filter(pk=t.pk).update(registration_open=False, rebuys_open=False)
    t.refresh_from_db()
    while len(seated := _seated(t)) > 3:
        services.elimination_record(
            tournament_id=t.pk,
            busts=[(seated[-1].pk, None)],
            winners=[seated[0].pk],
            actor=director,
        )
    three = _seated(t)
    quote = deal_quote(t)
    assert quote["bounties_in_play"] == bounty_totals(t)["on_heads"] == 3 * 2000 + 9 * 1000
    amounts = dict(zip([e.pk for e in three], _split(quote["unpaid"]), strict=True))
    before = {e.pk: (e.bounty, e.bounty_won) for e in three}
    money.deal_record(
        tournament_id=t.pk,
        amounts=amounts,
        method="custom",
        agreed=list(amounts),
        include_bounties=True,
        actor=director,
    )
    for e in Entry.objects.filter(pk__in=list(amounts)):
        head, won = before[e.pk]
        assert (e.bounty, e.bounty_won) == (0, won + head)  # each took their own
    totals = bounty_totals(t)
    assert totals["in_play"] == 0 and totals["paid"] == totals["collected"] == 24000
    a, _, c = three
    services.elimination_record(
        tournament_id=t.pk, busts=[(c.pk, None)], winners=[a.pk], actor=director
    )
    assert bounty_totals(t)["paid"] == 24000  # nothing more to win
    action_undo(tournament_id=t.pk, actor=director)
    action_undo(tournament_id=t.pk, actor=director)  # the deal: the heads are back
    assert {e.pk: (e.bounty, e.bounty_won) for e in _seated(t)} == before


def test_a_deal_without_the_bounties_leaves_them_to_be_won(director):
    from tourney.services import money

    t = _create(director, players=3, kind="fixed")
    Tournament.objects.filter(pk=t.pk).update(registration_open=False, rebuys_open=False)
    a, b, c = _seated(t)
    unpaid = sum(money_reads_prizes(t))
    money.deal_record(
        tournament_id=t.pk,
        amounts=dict(zip([a.pk, b.pk, c.pk], _split(unpaid), strict=True)),
        method="custom",
        agreed=[a.pk, b.pk, c.pk],
        actor=director,
    )
    assert bounty_totals(t)["on_heads"] == 6000
    services.elimination_record(
        tournament_id=t.pk, busts=[(c.pk, None)], winners=[a.pk], actor=director
    )
    assert Entry.objects.get(pk=a.pk).bounty_won == 2000


def money_reads_prizes(t: Tournament) -> tuple[int, ...]:
    from tourney.selectors.money import prizes_of

    return prizes_of(t)[:3]


def _split(total: int) -> list[int]:
    third = total // 3
    return [total - 2 * third, third, third]


def test_a_reentry_carries_a_new_bounty_and_a_rebuy_none(director):
    # RULES 9.1: a re-entry is a new entry with a new bounty; a rebuy buys prize-pool chips
    from tourney.services import money

    t = _create(director, players=12, kind="progressive", reentries_allowed=1, rebuy_price=4000)
    t.rebuy_chips = 10000
    Tournament.objects.filter(pk=t.pk).update(rebuy_chips=10000)
    x, w, *_ = _at_table(t, 1)
    money.entry_rebuy(tournament_id=t.pk, entry_id=w.pk, actor=director)
    w.refresh_from_db()
    assert (w.bounty_paid, w.bounty) == (2000, 2000)
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, None)], winners=[w.pk], actor=director
    )
    new = services.entry_reenter(tournament_id=t.pk, entry_id=x.pk, actor=director)
    new.refresh_from_db()
    assert (new.bounty_paid, new.bounty, new.bounty_won) == (2000, 2000, 0)
    totals = bounty_totals(t)
    assert totals["collected"] == 13 * 2000
    assert totals["collected"] == totals["paid"] + totals["on_heads"]
