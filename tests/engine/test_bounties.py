"""Bounty engine: the buy-in split, knockouts, PKO, mystery bounties (RULES 9)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.bounties import (
    FIXED,
    MSG_BAD_AMOUNT,
    MSG_BAD_BOUNTY,
    MSG_BAD_ENVELOPES,
    MSG_BAD_SHARE,
    MSG_BAD_SPLIT,
    MSG_BAD_STAGE,
    MSG_BAD_WINNER,
    MSG_BOUNTY_MISMATCH,
    MSG_DUPLICATE_ENTRY,
    MSG_ENVELOPES_DO_NOT_ADD_UP,
    MSG_NO_ENVELOPES_LEFT,
    MSG_NO_RNG,
    MSG_NO_WINNER,
    MSG_NOT_IN_POT,
    MSG_UNKNOWN_TYPE,
    MSG_WINNER_BUSTED,
    MYSTERY,
    NONE,
    PROGRESSIVE,
    Award,
    BountySettings,
    Bust,
    BuyInSplit,
    Draw,
    Payment,
    Winner,
    apply_award,
    award_deal,
    award_hand,
    award_last_player,
    bounty_money_in_play,
    bounty_takers,
    buy_in_parts,
    check_envelopes,
    draw_envelope,
    envelope_total,
    mystery_draw_due,
    returned_envelopes,
    revert_award,
    split_among,
    split_buy_in,
    starting_bounty,
)
from tourney.engine.errors import DomainError
from tourney.engine.pots import HandPlayer, settle

FIX = BountySettings(kind=FIXED, bounty=5_000)
PKO = BountySettings(kind=PROGRESSIVE, bounty=5_000)
MYST = BountySettings(kind=MYSTERY, bounty=5_000, mystery_from_players=4)


def _error(exc: pytest.ExceptionInfo[DomainError]) -> tuple[str, str]:
    return exc.value.code, exc.value.message


# RULES 9.1 --------------------------------------------------------------------------------


def test_a_pko_buy_in_splits_into_prize_pool_bounty_and_fee() -> None:
    parts = split_buy_in(settings=PKO, price=11_000, fee=1_000)
    assert parts == BuyInSplit(prize_pool=5_000, bounty=5_000, fee=1_000)
    assert parts.price == 11_000


def test_without_bounties_the_buy_in_is_prize_pool_and_fee() -> None:
    parts = split_buy_in(settings=BountySettings(), price=11_000, fee=1_000)
    assert parts == BuyInSplit(prize_pool=10_000, bounty=0, fee=1_000)


def test_buy_in_from_its_parts_has_the_price_of_their_sum() -> None:
    parts = buy_in_parts(settings=FIX, prize_pool=10_000, fee=1_500)
    assert (parts.bounty, parts.price) == (5_000, 16_500)


def test_a_bounty_and_fee_above_the_price_are_refused() -> None:
    with pytest.raises(DomainError) as exc:
        split_buy_in(settings=PKO, price=5_500, fee=1_000)
    assert _error(exc) == ("bad_split", MSG_BAD_SPLIT)


@pytest.mark.parametrize(
    ("settings_", "bounty"), [(BountySettings(), 0), (FIX, 5_000), (PKO, 5_000), (MYST, 0)]
)
def test_a_new_entry_carries_the_bounty_on_its_head_except_mystery(settings_, bounty) -> None:
    assert starting_bounty(settings_) == bounty


@pytest.mark.parametrize(
    ("kwargs", "code", "message"),
    [
        ({"kind": "bogus", "bounty": 1}, "unknown_bounty_type", MSG_UNKNOWN_TYPE),
        ({"kind": FIXED, "bounty": -1}, "bad_amount", MSG_BAD_AMOUNT),
        ({"kind": FIXED, "bounty": 1.5}, "bad_amount", MSG_BAD_AMOUNT),
        ({"kind": FIXED, "bounty": 0}, "bad_bounty", MSG_BAD_BOUNTY),
        ({"kind": NONE, "bounty": 100}, "bad_bounty", MSG_BAD_BOUNTY),
        ({"kind": PROGRESSIVE, "bounty": 1, "cash_percent": 101}, "bad_share", MSG_BAD_SHARE),
        ({"kind": PROGRESSIVE, "bounty": 1, "cash_percent": -1}, "bad_share", MSG_BAD_SHARE),
        ({"kind": PROGRESSIVE, "bounty": 1, "cash_percent": 0.5}, "bad_share", MSG_BAD_SHARE),
        ({"kind": MYSTERY, "bounty": 1, "mystery_from_players": 0}, "bad_stage", MSG_BAD_STAGE),
    ],
)
def test_bad_settings_are_refused(kwargs, code, message) -> None:
    with pytest.raises(DomainError) as exc:
        BountySettings(**kwargs)
    assert _error(exc) == (code, message)


def test_negative_parts_are_refused() -> None:
    with pytest.raises(DomainError) as exc:
        split_buy_in(settings=FIX, price=10_000, fee=-1)
    assert _error(exc) == ("bad_amount", MSG_BAD_AMOUNT)


# RULES 9.2, 9.5, 9.6 ------------------------------------------------------------------------


def test_fixed_one_winner_takes_the_whole_bounty_in_cash() -> None:
    award = award_hand(settings=FIX, busts=[Bust(7, 5_000, (Winner(3, 1, 4),))])
    assert award.payments == (Payment(busted=7, winner=3, cash=5_000, to_head=0),)
    assert award.added == {} and award.removed == {7: 5_000}
    assert apply_award({3: 5_000, 7: 5_000}, award) == {3: 5_000}


def test_a_split_pot_shares_the_bounty_odd_units_by_table_then_seat() -> None:
    # 5003 among three: 1667 each and two odd units, to seats 2 and 5.
    winners = (Winner(30, 1, 8), Winner(10, 1, 5), Winner(20, 1, 2))
    award = award_hand(settings=FIX, busts=[Bust(7, 5_003, winners)])
    assert award.cash_by_winner() == {20: 1_668, 10: 1_668, 30: 1_667}
    assert [p.winner for p in award.payments] == [20, 10, 30]  # table, seat order


def test_split_among_orders_odd_units_by_table_before_seat_then_entry() -> None:
    winners = [Winner(1, 2, 1), Winner(2, 1, 9), Winner(3, 1, 9)]
    assert split_among(5, winners) == {2: 2, 3: 2, 1: 1}


def test_one_winner_busting_several_players_takes_each_bounty() -> None:
    w = (Winner(1, 1, 1),)
    award = award_hand(settings=FIX, busts=[Bust(8, 5_000, w), Bust(9, 5_000, w)])
    assert award.cash_by_winner() == {1: 10_000}
    assert [p.busted for p in award.payments] == [8, 9]


# RULES 9.3 ----------------------------------------------------------------------------------


def test_pko_pays_half_in_cash_and_adds_half_to_the_eliminators_head() -> None:
    award = award_hand(settings=PKO, busts=[Bust(7, 5_000, (Winner(3, 1, 4),))])
    assert award.payments == (Payment(7, 3, 2_500, 2_500),)
    assert apply_award({3: 5_000, 7: 5_000, 4: 5_000}, award) == {3: 7_500, 4: 5_000}


def test_pko_cash_share_is_a_setting_and_rounds_down_keeping_the_odd_unit_on_the_head() -> None:
    quarter = BountySettings(kind=PROGRESSIVE, bounty=1_000, cash_percent=25)
    award = award_hand(settings=quarter, busts=[Bust(7, 1_003, (Winner(3),))])
    assert award.payments == (Payment(7, 3, 250, 753),)


@pytest.mark.parametrize(("percent", "cash"), [(0, 0), (100, 7_501)])
def test_pko_cash_share_at_its_ends(percent, cash) -> None:
    s = BountySettings(kind=PROGRESSIVE, bounty=1, cash_percent=percent)
    award = award_hand(settings=s, busts=[Bust(7, 7_501, (Winner(3),))])
    assert award.payments == (Payment(7, 3, cash, 7_501 - cash),)


def test_pko_split_winners_each_split_their_part_into_cash_and_head() -> None:
    # 7501 between two: 3751 (seat 2) and 3750 (seat 6); each half cash, rounded down.
    winners = (Winner(10, 1, 6), Winner(20, 1, 2))
    award = award_hand(settings=PKO, busts=[Bust(7, 7_501, winners)])
    assert award.payments == (Payment(7, 20, 1_875, 1_876), Payment(7, 10, 1_875, 1_875))
    assert award.added == {20: 1_876, 10: 1_875}


def test_pko_one_winner_busting_two_gains_both_kept_shares() -> None:
    w = (Winner(1),)
    award = award_hand(settings=PKO, busts=[Bust(8, 5_000, w), Bust(9, 12_000, w)])
    assert award.cash == 8_500 and award.added == {1: 8_500}


# RULES 9.7 ----------------------------------------------------------------------------------


def test_the_bounty_goes_to_the_winner_of_the_last_pot_the_busted_player_was_in() -> None:
    # PokerStars' example: 100, 200, 400 all in, 1000 calls; Barry (seat 2) has the best
    # hand and wins the main pot and side pot 1; Liv (seat 4) wins side pot 2 against Vicky.
    hand = settle(
        players=[
            HandPlayer(1, 100, rank=4),
            HandPlayer(2, 200, rank=1),
            HandPlayer(3, 400, rank=3),
            HandPlayer(4, 400, rank=2),
        ],
        button_seat=4,
    )
    assert bounty_takers(seat=1, pots=hand.pots) == (2,)
    assert bounty_takers(seat=3, pots=hand.pots) == (4,)


def test_a_split_last_pot_gives_the_bounty_to_all_its_winners() -> None:
    hand = settle(
        players=[
            HandPlayer(1, 100, rank=3),
            HandPlayer(2, 300, rank=1),
            HandPlayer(3, 300, rank=1),
        ],
        button_seat=1,
    )
    assert bounty_takers(seat=1, pots=hand.pots) == (2, 3)


def test_a_player_in_no_pot_or_winning_one_is_refused() -> None:
    hand = settle(players=[HandPlayer(1, 100, rank=1), HandPlayer(2, 100, rank=2)], button_seat=1)
    with pytest.raises(DomainError) as exc:
        bounty_takers(seat=5, pots=hand.pots)
    assert _error(exc) == ("not_in_pot", MSG_NOT_IN_POT)
    with pytest.raises(DomainError) as exc:
        bounty_takers(seat=1, pots=hand.pots)
    assert _error(exc) == ("winner_busted", MSG_WINNER_BUSTED)


# RULES 9.8 ----------------------------------------------------------------------------------


def test_the_last_player_wins_their_own_pko_bounty_whole() -> None:
    award = award_last_player(settings=PKO, entry=3, bounty=42_501)
    assert award.payments == (Payment(3, 3, 42_501, 0),)
    assert apply_award({3: 42_501}, award) == {}


def test_the_last_player_wins_their_own_fixed_bounty() -> None:
    assert award_last_player(settings=FIX, entry=3, bounty=5_000).cash == 5_000


def test_the_last_player_of_a_mystery_event_takes_the_envelopes_left() -> None:
    award = award_last_player(settings=MYST, entry=3, bounty=0, envelopes={100: 1, 5_000: 1})
    assert award.cash == 5_100 and award.envelopes == {}
    assert award.draws == (Draw(3, 100), Draw(3, 5_000))


# RULES 9.10 -------------------------------------------------------------------------------


def test_a_deal_with_the_bounties_pays_each_player_their_own_head() -> None:
    heads = {3: 12_500, 4: 5_000, 5: 0}
    players = [Winner(3, 1, 2), Winner(4, 1, 5), Winner(5, 1, 7)]
    award = award_deal(settings=PKO, heads=heads, players=players)
    assert award.payments == (Payment(3, 3, 12_500, 0), Payment(4, 4, 5_000, 0))
    assert apply_award(heads, award) == {}  # nothing left on any head
    assert award.cash == sum(heads.values())


def test_a_mystery_deal_shares_the_envelopes_left_odd_units_by_table_then_seat() -> None:
    players = [Winner(9, 2, 1), Winner(4, 1, 5), Winner(7, 1, 2)]
    award = award_deal(settings=MYST, heads={}, players=players, envelopes={100: 1, 1_001: 1})
    # 1,101 shared by three: 367 each, no odd unit; 1,102 would give table 1 seat 2 the unit
    assert award.cash_by_winner() == {4: 367, 7: 367, 9: 367} and award.envelopes == {}
    award = award_deal(settings=MYST, heads={}, players=players, envelopes={1_102: 1})
    assert award.cash_by_winner() == {4: 367, 7: 368, 9: 367}


def test_a_deal_without_bounties_pays_nothing_and_repeats_are_refused() -> None:
    assert award_deal(settings=BountySettings(), heads={3: 0}, players=[Winner(3)]).cash == 0
    with pytest.raises(DomainError) as exc:
        award_deal(settings=PKO, heads={3: 1}, players=[Winner(3), Winner(3)])
    assert exc.value.code == "duplicate_entry"


def test_without_bounties_nothing_is_paid() -> None:
    award = award_hand(settings=BountySettings(), busts=[Bust(7, 0, (Winner(3),))])
    assert award.payments == () and award.cash == 0
    assert award_last_player(settings=BountySettings(), entry=3, bounty=0).cash == 0


# RULES 9.4 ----------------------------------------------------------------------------------


def test_mystery_busts_before_the_stage_pay_nothing_and_draw_nothing() -> None:
    award = award_hand(
        settings=MYST,
        busts=[Bust(7, 0, (Winner(3),))],
        players_before=5,
        envelopes={1_000: 4},
        rng=random.Random(1),
    )
    assert award.payments == () and award.draws == () and award.envelopes == {1_000: 4}


def test_mystery_busts_at_the_stage_each_draw_an_envelope_paid_in_cash() -> None:
    envelopes = {1_000: 2, 50_000: 1}
    award = award_hand(
        settings=MYST,
        busts=[Bust(9, 0, (Winner(3),)), Bust(7, 0, (Winner(3),))],
        players_before=4,
        envelopes=envelopes,
        rng=random.Random(11),
    )
    assert [d.busted for d in award.draws] == [7, 9]  # by entry id
    assert award.cash == sum(d.amount for d in award.draws)
    assert envelope_total(award.envelopes) + award.cash == envelope_total(envelopes)
    assert award.added == {}  # a mystery bounty is all cash


def test_a_mystery_envelope_is_split_between_the_pots_winners() -> None:
    award = award_hand(
        settings=MYST,
        busts=[Bust(7, 0, (Winner(3, 1, 5), Winner(4, 1, 2)))],
        players_before=2,
        envelopes={1_001: 1},
        rng=random.Random(0),
    )
    assert award.cash_by_winner() == {4: 501, 3: 500}


def test_the_draw_is_the_same_for_the_same_seed() -> None:
    envelopes = {100: 30, 1_000: 10, 10_000: 3, 100_000: 1}

    def draws(seed: int) -> list[int]:
        left, out = envelopes, []
        rng = random.Random(seed)
        while left:
            amount, left = draw_envelope(left, rng)
            out.append(amount)
        return out

    assert draws(20261202) == draws(20261202)
    assert draws(20261202) != draws(20261203)
    assert sorted(draws(5)) == sorted(a for a, n in envelopes.items() for _ in range(n))


def test_every_envelope_left_is_equally_likely() -> None:
    # One envelope of 1 against three of 2: the 1 comes first about a quarter of the time.
    firsts = [draw_envelope({1: 1, 2: 3}, random.Random(seed))[0] for seed in range(2_000)]
    assert 400 < firsts.count(1) < 600


def test_an_empty_envelope_set_is_refused_when_a_draw_is_needed() -> None:
    with pytest.raises(DomainError) as exc:
        award_hand(
            settings=MYST,
            busts=[Bust(7, 0, (Winner(3),))],
            players_before=3,
            envelopes={1_000: 0},
            rng=random.Random(0),
        )
    assert _error(exc) == ("no_envelopes_left", MSG_NO_ENVELOPES_LEFT)


def test_a_mystery_draw_without_its_random_source_is_refused() -> None:
    with pytest.raises(DomainError) as exc:
        award_hand(settings=MYST, busts=[Bust(7, 0, (Winner(3),))], players_before=3)
    assert _error(exc) == ("no_rng", MSG_NO_RNG)


def test_the_stage_counts_the_players_before_the_hand() -> None:
    assert mystery_draw_due(settings=MYST, players_before=4)
    assert not mystery_draw_due(settings=MYST, players_before=5)
    assert not mystery_draw_due(settings=PKO, players_before=1)


@pytest.mark.parametrize("envelopes", [{0: 1}, {-5: 1}, {100: -1}, {100: 1.0}, [1, 2]])
def test_bad_envelope_sets_are_refused(envelopes) -> None:
    with pytest.raises(DomainError) as exc:
        check_envelopes(envelopes)
    assert _error(exc) == ("bad_envelopes", MSG_BAD_ENVELOPES)


def test_the_envelopes_must_add_up_to_the_bounty_money_when_asked() -> None:
    assert check_envelopes({500: 2, 100: 0, 50: 1}, total=1_050) == {50: 1, 500: 2}
    with pytest.raises(DomainError) as exc:
        check_envelopes({500: 2}, total=1_050)
    assert _error(exc) == ("envelopes_do_not_add_up", MSG_ENVELOPES_DO_NOT_ADD_UP)


# bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("busts", "code", "message"),
    [
        ([Bust(7, -1, (Winner(3),))], "bad_amount", MSG_BAD_AMOUNT),
        ([Bust(7, 100, ())], "no_winner", MSG_NO_WINNER),
        (
            [Bust(7, 100, (Winner(3),)), Bust(7, 100, (Winner(3),))],
            "duplicate_entry",
            MSG_DUPLICATE_ENTRY,
        ),
        ([Bust(7, 100, (Winner(3), Winner(3)))], "duplicate_entry", MSG_DUPLICATE_ENTRY),
        ([Bust(7, 100, (Winner(7),))], "winner_busted", MSG_WINNER_BUSTED),
        (
            [Bust(7, 100, (Winner(8),)), Bust(8, 100, (Winner(3),))],
            "winner_busted",
            MSG_WINNER_BUSTED,
        ),
        ([Bust(7, 100, (Winner(3, -1, 2),))], "bad_winner", MSG_BAD_WINNER),
        ([Bust(7, 100, (Winner(3, 1, True),))], "bad_winner", MSG_BAD_WINNER),
    ],
)
def test_bad_busts_are_refused(busts, code, message) -> None:
    with pytest.raises(DomainError) as exc:
        award_hand(settings=PKO, busts=busts)
    assert _error(exc) == (code, message)


def test_applying_to_heads_that_do_not_hold_the_busted_bounty_is_refused() -> None:
    award = award_hand(settings=FIX, busts=[Bust(7, 5_000, (Winner(3),))])
    with pytest.raises(DomainError) as exc:
        apply_award({3: 5_000, 7: 4_000}, award)
    assert _error(exc) == ("bounty_mismatch", MSG_BOUNTY_MISMATCH)


# RULES 9.10, 9.11 ---------------------------------------------------------------------------


def test_undo_puts_the_heads_and_envelopes_back_exactly() -> None:
    heads = {1: 5_000, 2: 7_500, 3: 5_000}
    award = award_hand(settings=PKO, busts=[Bust(2, 7_500, (Winner(1), Winner(3, 0, 1)))])
    after = apply_award(heads, award)
    assert after == {1: 6_875, 3: 6_875}
    assert revert_award(after, award) == heads
    drawn = award_hand(
        settings=MYST,
        busts=[Bust(2, 0, (Winner(1),))],
        players_before=3,
        envelopes={10: 1, 20: 1},
        rng=random.Random(3),
    )
    assert returned_envelopes(drawn.envelopes, drawn) == {10: 1, 20: 1}


def test_bounty_money_in_play_counts_heads_and_envelopes() -> None:
    assert bounty_money_in_play({1: 7_500, 2: 2_500}, {1_000: 3}) == 13_000


# properties ---------------------------------------------------------------------------------

KINDS = [NONE, FIXED, PROGRESSIVE, MYSTERY]


@st.composite
def tournaments(draw):
    """A bounty setup, a field, and a sequence of hands, each busting some players still in
    (never all of them) with random winners among the others."""
    kind = draw(st.sampled_from(KINDS))
    bounty = 0 if kind == NONE else draw(st.integers(1, 20_000))
    players = draw(st.integers(2, 12))
    s = BountySettings(
        kind=kind,
        bounty=bounty,
        cash_percent=draw(st.integers(0, 100)),
        mystery_from_players=draw(st.integers(1, players)),
    )
    return s, players, draw(st.randoms(use_true_random=False)), draw(st.integers(0, 2**32))


def _envelope_set(total: int, count: int, rng: random.Random) -> dict[int, int]:
    """``count`` envelopes of one unit or more adding up to ``total`` (one per player at the
    stage, as a director sets them up)."""
    cuts = sorted(rng.sample(range(1, total), count - 1))
    out: dict[int, int] = {}
    for a, b in zip([0, *cuts], [*cuts, total], strict=True):
        out[b - a] = out.get(b - a, 0) + 1
    return out


def _play(s: BountySettings, players: int, rng: random.Random, seed: int):
    """Play the tournament down to one player: every hand checked, the awards returned."""
    heads = {e: starting_bounty(s) for e in range(1, players + 1)}
    paid_in = s.bounty * players
    stage = s.mystery_from_players
    envelopes = _envelope_set(paid_in, stage, rng) if s.kind == MYSTERY else {}
    draw_rng = random.Random(seed)
    paid, awards = 0, []
    while len(heads) > 1:
        alive = sorted(heads)
        busted = rng.sample(alive, rng.randint(1, len(alive) - 1))
        others = [e for e in alive if e not in busted]
        busts = [
            Bust(
                b,
                heads[b],
                tuple(
                    Winner(w, rng.randint(0, 2), rng.randint(1, 9))
                    for w in rng.sample(others, rng.randint(1, min(3, len(others))))
                ),
            )
            for b in busted
        ]
        before = dict(heads)
        award = award_hand(
            settings=s, busts=busts, players_before=len(alive), envelopes=envelopes, rng=draw_rng
        )
        heads, envelopes = apply_award(heads, award), award.envelopes
        assert revert_award(heads, award) == before
        paid += award.cash
        awards.append((before, award, heads))
        # RULES 9.1: money conserved, no negative bounty
        assert paid + sum(heads.values()) + envelope_total(envelopes) == paid_in
        assert all(v >= 0 for v in heads.values())
        assert all(p.cash >= 0 and p.to_head >= 0 for p in award.payments)
    (last,) = heads
    final = award_last_player(settings=s, entry=last, bounty=heads[last], envelopes=envelopes)
    assert apply_award(heads, final) == {}
    assert paid + final.cash == paid_in
    return awards


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_bounty_money_is_conserved_and_never_negative(t) -> None:
    _play(*t)


@settings(max_examples=200, deadline=None)
@given(tournaments().filter(lambda t: t[0].kind == PROGRESSIVE))
def test_pko_heads_grow_only_by_the_eliminators_kept_share(t) -> None:
    s = t[0]
    for before, award, after in _play(*t):
        for entry, head in after.items():
            assert head - before[entry] == award.added.get(entry, 0)
        for bust_entry, bounty in award.removed.items():
            mine = [p for p in award.payments if p.busted == bust_entry]
            assert sum(p.cash + p.to_head for p in mine) == bounty
            assert all(p.cash == (p.cash + p.to_head) * s.cash_percent // 100 for p in mine)
        kept = sum(award.removed.values()) - award.cash
        assert sum(after.values()) - (sum(before.values()) - sum(award.removed.values())) == kept


@given(
    st.integers(0, 10**9),
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(1, 10)), min_size=1, max_size=9, unique=True
    ),
)
def test_split_remainders_go_one_each_by_table_then_seat(amount, places) -> None:
    winners = [Winner(100 + i, table, seat) for i, (table, seat) in enumerate(places)]
    shares = split_among(amount, winners)
    assert sum(shares.values()) == amount
    base, odd = divmod(amount, len(winners))
    ordered = sorted(winners, key=lambda w: (w.table, w.seat, w.entry))
    assert [shares[w.entry] for w in ordered] == [base + 1] * odd + [base] * (len(winners) - odd)


@given(
    st.dictionaries(st.integers(1, 10**6), st.integers(0, 5), min_size=1, max_size=6),
    st.integers(0, 2**64),
)
def test_the_mystery_draw_is_the_same_for_the_same_seed(envelopes, seed) -> None:
    def all_draws() -> list[int]:
        rng, left, out = random.Random(seed), dict(envelopes), []
        while sum(left.values()):
            amount, left = draw_envelope(left, rng)
            out.append(amount)
        return out

    first = all_draws()
    assert first == all_draws()
    assert sorted(first) == sorted(a for a, n in envelopes.items() for _ in range(n))


def test_award_is_plain_data() -> None:
    assert Award().cash == 0 and Award().cash_by_winner() == {}
