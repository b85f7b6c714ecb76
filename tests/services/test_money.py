"""Issue 6: the money services — pool, payout tables and their freeze, rebuys, add-ons and
re-entries, tied places at the bubble, deals, results after an undone elimination."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tests.conftest import TWO_LEVELS
from tourney import selectors, services
from tourney.engine import payouts as payouts_engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament
from tourney.selectors import money as money_reads
from tourney.services import money
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db

MONEY_OPTIONS = {
    "reentries_allowed": 1,
    "rebuy_price": 4000,
    "rebuy_chips": 10000,
    "addon_at": 1,  # the break of TWO_LEVELS
    "addon_price": 3000,
    "addon_chips": 15000,
    "added_money": 10000,
}


def _create(director, *, players: int = 0, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Money night",
        tables=2,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=11,
        levels=TWO_LEVELS,
        options=options,
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    t.refresh_from_db()
    return t


def _seated(t: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number"))


def _bust_down_to(t: Tournament, left: int, director) -> None:
    """One bust per hand, the highest entry number first, until ``left`` players remain."""
    while len(seated := _seated(t)) > left:
        services.elimination_record(
            tournament_id=t.pk, busts=[(seated[-1].pk, 1000)], actor=director
        )


def _events(t: Tournament, kind: str) -> int:
    return Event.objects.filter(tournament=t, kind=kind).count()


def _snapshot(t: Tournament) -> dict[int, tuple]:
    return {
        e.pk: (e.status, e.paid, e.rebuys, e.addons, e.chips_bought, e.prize, e.deal_amount)
        for e in Entry.objects.filter(tournament=t)
    }


# ---------------------------------------------------------------- pool (RULES 8.1)


def test_pool_counts_reentries_rebuys_addons_and_added_money_with_fees_apart(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    a, b, *_ = _seated(t)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)

    money.entry_rebuy(tournament_id=t.pk, entry_id=a.pk, actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(b.pk, 20000)], actor=director)
    b2 = services.entry_reenter(tournament_id=t.pk, entry_id=b.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    money.entry_addon(tournament_id=t.pk, entry_id=a.pk, actor=director)
    money.entry_addon(tournament_id=t.pk, entry_id=b2.pk, actor=director)

    t.refresh_from_db()
    # 5 buy-ins (4 + the re-entry), 1 rebuy, 2 add-ons, added money; fees not in the pool.
    assert money_reads.pool_of(t) == 5 * 5000 + 4000 + 2 * 3000 + 10000
    summary = money_reads.money_summary(t)
    assert summary["entries"] == 5
    assert summary["players"] == 4
    assert summary["reentries"] == 1
    assert summary["rebuys"] == 1 and summary["addons"] == 2
    assert summary["fees"] == 5 * 500
    assert summary["overlay"] == 0
    assert summary["players_left"] == 4
    a.refresh_from_db()
    assert (a.paid, a.fee_paid, a.rebuys, a.addons) == (5000 + 4000 + 3000, 500, 1, 1)
    assert a.chips_bought == 20000 + 10000 + 15000
    b2.refresh_from_db()
    assert b2.player_id == b.player_id and b2.number == 5 and b2.status == Entry.Status.SEATED
    assert (b2.paid, b2.fee_paid, b2.chips_bought) == (5000 + 3000, 500, 20000 + 15000)
    assert _events(t, "entry_rebuy") == 1
    assert _events(t, "entry_addon") == 2
    reentered = Event.objects.get(tournament=t, kind="entry_reentered")
    assert {k: reentered.payload[k] for k in ("entry", "from_entry", "player", "reentry")} == {
        "entry": b2.pk,
        "from_entry": b.pk,
        "player": b.player_id,
        "reentry": 1,
    }


def test_rebuy_and_addon_fees_are_taken_apart_from_the_pool_and_undone_exactly(director):
    # RULES 8.1: prize pool = entries x buy-in + rebuys + add-ons, fees excluded.
    t = _create(director, players=2, **MONEY_OPTIONS, rebuy_fee=400, addon_fee=300)
    a, _ = _seated(t)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    pool = money_reads.pool_of(t)

    money.entry_rebuy(tournament_id=t.pk, entry_id=a.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    money.entry_addon(tournament_id=t.pk, entry_id=a.pk, actor=director)

    a.refresh_from_db()
    assert (a.paid, a.fee_paid) == (5000 + 4000 + 3000, 500 + 400 + 300)
    t.refresh_from_db()
    assert money_reads.pool_of(t) == pool + 4000 + 3000
    assert money_reads.money_summary(t)["fees"] == 2 * 500 + 400 + 300
    rebuy = Event.objects.get(tournament=t, kind="entry_rebuy").payload
    addon = Event.objects.get(tournament=t, kind="entry_addon").payload
    assert (rebuy["amount"], rebuy["fee"], addon["amount"], addon["fee"]) == (4000, 400, 3000, 300)

    action_undo(tournament_id=t.pk, actor=director)  # the add-on
    action_undo(tournament_id=t.pk, actor=director)  # the clock jump
    action_undo(tournament_id=t.pk, actor=director)  # the rebuy
    a.refresh_from_db()
    assert (a.paid, a.fee_paid, a.rebuys, a.addons) == (5000, 500, 0, 0)


def test_guarantee_raises_the_pool_and_the_overlay_is_shown(director):
    t = _create(director, players=6, guarantee=100000, added_money=5000)

    summary = money_reads.money_summary(t)

    assert summary["money_in"] == 6 * 5000
    assert summary["prize_pool"] == 100000
    assert summary["overlay"] == 100000 - 6 * 5000 - 5000
    assert sum(p["prize"] for p in summary["prizes"]) == 100000


def test_pool_without_entries_is_the_added_money_or_the_guarantee(director):
    t = _create(director, added_money=5000, guarantee=3000)

    assert money_reads.pool_of(t) == 5000
    assert money_reads.prizes_of(t) == ()
    assert money_reads.money_summary(t)["bubble_place"] is None


# ---------------------------------------------------------------- payout tables (RULES 8.2)


def test_payout_table_follows_the_field_and_sums_to_the_pool_after_rounding(director):
    t = _create(director, draw_at_registration=False, rounding_unit=500)
    Tournament.objects.filter(pk=t.pk).update(buy_in=3333, added_money=17)
    seen_places = set()
    for n in range(1, 61):
        services.entry_register(tournament_id=t.pk, name=f"P{n}", actor=director)
        t.refresh_from_db()
        prizes = money_reads.prizes_of(t)
        pool = money_reads.pool_of(t)
        assert pool == n * 3333 + 17
        assert sum(prizes) == pool, n
        assert len(prizes) == payouts_engine.paid_places(n)
        assert all(p % 500 == 0 for p in prizes[1:])  # the remainder goes to first place
        assert list(prizes) == sorted(prizes, reverse=True)
        seen_places.add(len(prizes))
    assert seen_places == set(range(1, 10))


def test_freeze_is_refused_while_registration_is_open(seated_tournament, director):
    with pytest.raises(DomainError) as err:
        money.payouts_freeze(tournament_id=seated_tournament.pk, actor=director)

    assert err.value.code == "registration_open" and err.value.status == 409
    assert err.value.message == money.MSG_FREEZE_OPEN
    seated_tournament.refresh_from_db()
    assert seated_tournament.frozen_prizes is None
    assert seated_tournament.payout_percentages is None
    assert _events(seated_tournament, "payouts_frozen") == 0


def test_freeze_pins_the_table_and_amounts_once(seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    expected = money_reads.prizes_of(t)

    first = money.payouts_freeze(tournament_id=t.pk, actor=director)
    again = money.payouts_freeze(tournament_id=t.pk, actor=director)

    assert first == again == expected == (42100, 25700, 18100, 14100)
    t.refresh_from_db()
    assert t.frozen_prizes == list(expected)
    assert t.payout_percentages == list(payouts_engine.default_percentages(20))
    event = Event.objects.get(tournament=t, kind="payouts_frozen")
    assert {k: event.payload[k] for k in ("percentages", "prizes", "pool")} == {
        "percentages": t.payout_percentages,
        "prizes": list(expected),
        "pool": 100000,
    }
    assert money_reads.money_summary(t)["frozen"] is True


def test_a_late_entry_after_the_freeze_is_shared_by_the_frozen_table(seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(registration_open=False, payout_percentages=[10000])
    t.refresh_from_db()
    money.payouts_freeze(tournament_id=t.pk, actor=director)

    services.entry_register(tournament_id=t.pk, name="Latecomer", actor=director, override=True)

    t.refresh_from_db()
    assert money_reads.prizes_of(t) == (105000,)


def _finish(t, entry):
    """(place, prize) of a finished entry as the results show it."""
    t.refresh_from_db()
    row = next(r for r in money_reads.results_rows(t) if r["entry"] == entry.pk)
    entry.refresh_from_db()
    assert entry.places_now(t.place_lag)[0] == row["place"]
    return row["place"], row["prize"]


def test_a_late_entry_moves_a_paid_finisher_down_and_pays_the_place_they_now_hold(director):
    # RULES 7.1: places count from the bottom of the whole field, so each late entry moves
    # everyone already out one place down; their prizes follow the place and the bigger pool
    # (on PostgreSQL the late entry's INSERT itself reports the finishers: this checks that
    # path too).
    t = _create(director, players=3)
    Tournament.objects.filter(pk=t.pk).update(payout_percentages=[4000, 3000, 2000, 1000])
    out = _seated(t)[-1]
    services.elimination_record(tournament_id=t.pk, busts=[(out.pk, 1000)], actor=director)
    assert _finish(t, out) == (3, 15000 * 2000 // 10000)

    services.entry_register(tournament_id=t.pk, name="Latecomer", actor=director)
    assert _finish(t, out) == (4, 20000 * 1000 // 10000)

    services.entry_register(tournament_id=t.pk, name="Later still", actor=director)
    assert _finish(t, out) == (5, 0)
    assert sum(Entry.objects.filter(tournament=t).values_list("prize", flat=True)) == 0


def test_rebuy_after_the_freeze_refreezes_the_amounts_and_logs_them(director):
    t = _create(director, players=20, **MONEY_OPTIONS)
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    money.payouts_freeze(tournament_id=t.pk, actor=director)
    entry = _seated(t)[0]

    money.entry_rebuy(tournament_id=t.pk, entry_id=entry.pk, actor=director)

    t.refresh_from_db()
    pool = 20 * 5000 + 10000 + 4000
    assert money_reads.pool_of(t) == pool
    assert sum(t.frozen_prizes) == pool
    assert t.frozen_prizes == list(
        payouts_engine.payouts(pool=pool, percentages=t.payout_percentages, rounding_unit=100)
    )
    event = Event.objects.get(tournament=t, kind="entry_rebuy")
    assert event.payload["frozen_prizes"] == t.frozen_prizes


def test_director_sets_a_payout_table_and_rounding_unit(seated_tournament, director):
    t = seated_tournament

    prizes = money.payouts_set(
        tournament_id=t.pk, percentages=[5000, 3000, 2000], rounding_unit=1000, actor=director
    )

    assert prizes == (50000, 30000, 20000)
    t.refresh_from_db()
    assert t.payout_percentages == [5000, 3000, 2000] and t.rounding_unit == 1000
    assert t.frozen_prizes is None
    event = Event.objects.get(tournament=t, kind="payouts_set")
    assert event.payload["before"]["percentages"] == list(payouts_engine.default_percentages(20))
    assert event.payload["before"]["prizes"] == [42100, 25700, 18100, 14100]
    assert event.payload["prizes"] == [50000, 30000, 20000]
    # [] goes back to the default family; the rounding unit is kept.
    back = money.payouts_set(tournament_id=t.pk, percentages=[], actor=director)
    assert back == (43000, 25000, 18000, 14000)
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 1000


@pytest.mark.parametrize(
    "table",
    [
        [5000, 3000, 1000],  # sums to 9000
        [3000, 5000, 2000],  # increasing
        [6000, 4000, 0],  # a paid place worth nothing
        [10000.0],  # not whole basis points
        [True] * 10000,  # bools are not numbers here
        "10000",
    ],
)
def test_a_bad_payout_table_is_refused_and_nothing_changes(seated_tournament, director, table):
    t = seated_tournament
    with pytest.raises(DomainError) as err:
        money.payouts_set(tournament_id=t.pk, percentages=table, actor=director)

    assert err.value.code == "bad_percentages" and err.value.status == 400
    assert err.value.message == money.MSG_BAD_TABLE
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 100
    assert _events(t, "payouts_set") == 0


def test_payout_change_after_the_freeze_recomputes_the_frozen_prizes(seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    money.payouts_freeze(tournament_id=t.pk, actor=director)

    prizes = money.payouts_set(tournament_id=t.pk, percentages=[6000, 4000], actor=director)

    assert prizes == (60000, 40000)
    t.refresh_from_db()
    assert t.frozen_prizes == [60000, 40000]
    assert _events(t, "payouts_set") == 1


def test_more_paid_places_than_entries_is_refused_once_registration_closed(director):
    t = _create(director, players=3)
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)

    with pytest.raises(DomainError) as err:
        money.payouts_set(tournament_id=t.pk, percentages=[4000, 3000, 2000, 1000], actor=director)

    assert err.value.code == "too_many_places" and err.value.status == 409
    t.refresh_from_db()
    assert t.payout_percentages is None
    assert _events(t, "payouts_set") == 0


# ---------------------------------------------------------------- places and prizes (RULES 7.2)


def test_two_players_tied_for_the_last_paid_place_split_it_with_the_zero_below(
    seated_tournament, director
):
    t = seated_tournament
    # Pool 100008, unit 1: the fourth prize is odd (14161), so one unit is left over.
    Tournament.objects.filter(pk=t.pk).update(added_money=8, rounding_unit=1)
    t.refresh_from_db()
    assert money_reads.prizes_of(t) == (42004, 25722, 18121, 14161)
    _bust_down_to(t, 5, director)
    summary = money_reads.money_summary(t)
    assert summary["on_the_bubble"] is True and summary["in_the_money"] is False
    assert summary["bubble_place"] == 5
    x, y = _seated(t)[:2]
    seats = {s.entry_id: (s.table.number, s.number) for s in Seat.objects.filter(entry__in=[x, y])}

    result = services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 3000), (y.pk, 3000)], actor=director
    )

    assert {(p["place"], p["place_to"]) for p in result["places"]} == {(4, 5)}
    x.refresh_from_db()
    y.refresh_from_db()
    # RULES 7.2: (14161 + 0) / 2; the odd unit to the lower table, then seat.
    first = x if seats[x.pk] < seats[y.pk] else y
    second = y if first is x else x
    assert (first.prize, second.prize) == (7081, 7080)
    summary = money_reads.money_summary(t)
    assert summary["in_the_money"] is True and summary["players_left"] == 3
    busted_prizes = Entry.objects.filter(tournament=t, place__gt=5).values_list("prize", flat=True)
    assert set(busted_prizes) == {0}


@pytest.mark.parametrize("frozen", [False, True])
def test_results_after_an_undone_elimination_are_recomputed_exactly(
    seated_tournament, director, frozen
):
    # RULES 7.4: undo a tied bust in the money; the results (docs/api.md) are exactly as before,
    # and the same hand recorded again without the tie pays the places it now gives.
    t = seated_tournament
    if frozen:
        services.registration_close(tournament_id=t.pk, actor=director)
    _bust_down_to(t, 5, director)
    t.refresh_from_db()
    before = (selectors.results(t), _snapshot(t), money_reads.money_summary(t))
    x, y = _seated(t)[:2]
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 3000), (y.pk, 3000)], actor=director
    )
    t.refresh_from_db()
    tied = selectors.results(t)["places"][:2]
    assert [(r["place"], r["place_to"], r["prize"]) for r in tied] == [(4, 5, 7050)] * 2

    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "elimination"

    t.refresh_from_db()
    assert (selectors.results(t), _snapshot(t), money_reads.money_summary(t)) == before
    assert Entry.objects.filter(pk__in=[x.pk, y.pk], place__isnull=True).count() == 2
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 3000), (y.pk, 2000)], actor=director
    )
    t.refresh_from_db()
    rows = {r["entry"]: r for r in selectors.results(t)["places"]}
    assert (rows[x.pk]["place"], rows[x.pk]["prize"]) == (4, 14100)
    assert (rows[y.pk]["place"], rows[y.pk]["prize"]) == (5, 0)


def test_results_pay_the_whole_pool_when_the_winner_is_crowned(seated_tournament, director):
    t = seated_tournament

    _bust_down_to(t, 1, director)

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = money_reads.results_rows(t)
    assert [r["place"] for r in rows] == list(range(1, 21))
    assert [r["prize"] for r in rows[:5]] == [42100, 25700, 18100, 14100, 0]
    assert sum(r["prize"] for r in rows) == money_reads.pool_of(t)


# ---------------------------------------------------------------- rebuys, add-ons, re-entries


def test_rebuy_outside_the_rebuy_period_is_refused_and_nothing_changes(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    Tournament.objects.filter(pk=t.pk).update(rebuys_open=False)
    entry = _seated(t)[0]
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.entry_rebuy(tournament_id=t.pk, entry_id=entry.pk, actor=director)

    assert err.value.code == "rebuys_closed" and err.value.status == 409
    assert err.value.message == money.MSG_REBUYS_CLOSED
    assert _snapshot(t) == before
    assert _events(t, "entry_rebuy") == 0


def test_rebuy_is_refused_once_the_clock_passed_the_rebuy_level(director):
    t = _create(director, players=4, rebuy_until=0, **MONEY_OPTIONS)
    entry = _seated(t)[0]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=2, actor=director)
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.entry_rebuy(tournament_id=t.pk, entry_id=entry.pk, actor=director)

    assert err.value.code == "rebuys_closed"
    assert _snapshot(t) == before


@pytest.mark.parametrize(
    ("options", "which", "code", "status"),
    [
        ({"rebuy_price": 0}, "seated", "no_rebuys", 409),
        (MONEY_OPTIONS, "busted", "entry_not_in_play", 409),
        (MONEY_OPTIONS, "missing", "entry_not_found", 404),
    ],
)
def test_rebuy_refusals(director, options, which, code, status):
    t = _create(director, players=4, **options)
    a, b = _seated(t)[:2]
    services.elimination_record(tournament_id=t.pk, busts=[(b.pk, 100)], actor=director)
    entry_id = {"seated": a.pk, "busted": b.pk, "missing": 999999}[which]
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.entry_rebuy(tournament_id=t.pk, entry_id=entry_id, actor=director)

    assert (err.value.code, err.value.status) == (code, status)
    assert _snapshot(t) == before


def test_addon_only_at_its_break_and_once_per_entry(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    entry = _seated(t)[0]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)

    with pytest.raises(DomainError) as err:
        money.entry_addon(tournament_id=t.pk, entry_id=entry.pk, actor=director)
    assert err.value.code == "addon_not_now" and err.value.message == money.MSG_ADDON_NOT_NOW

    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    money.entry_addon(tournament_id=t.pk, entry_id=entry.pk, actor=director)
    with pytest.raises(DomainError) as err:
        money.entry_addon(tournament_id=t.pk, entry_id=entry.pk, actor=director)

    assert err.value.code == "addon_taken" and err.value.status == 409
    entry.refresh_from_db()
    assert (entry.addons, entry.paid, entry.chips_bought) == (1, 8000, 35000)
    assert _events(t, "entry_addon") == 1


def test_addon_is_refused_before_the_clock_starts_and_without_an_addon(director):
    t = _create(director, players=2, **MONEY_OPTIONS)
    plain = _create(director, players=2)

    with pytest.raises(DomainError) as not_now:
        money.entry_addon(tournament_id=t.pk, entry_id=_seated(t)[0].pk, actor=director)
    with pytest.raises(DomainError) as none:
        money.entry_addon(tournament_id=plain.pk, entry_id=_seated(plain)[0].pk, actor=director)

    assert not_now.value.code == "addon_not_now"
    assert none.value.code == "no_addon"
    assert Entry.objects.filter(addons__gt=0).count() == 0


def test_reentry_refusals_change_nothing(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    a, b = _seated(t)[:2]
    services.elimination_record(tournament_id=t.pk, busts=[(b.pk, 100)], actor=director)

    def refused(entry_id: int) -> str:
        count = Entry.objects.filter(tournament=t).count()
        with pytest.raises(DomainError) as err:
            services.entry_reenter(tournament_id=t.pk, entry_id=entry_id, actor=director)
        assert Entry.objects.filter(tournament=t).count() == count
        return err.value.code

    assert refused(a.pk) == "entry_not_busted"
    b2 = services.entry_reenter(tournament_id=t.pk, entry_id=b.pk, actor=director)
    assert refused(b.pk) == "player_still_in"
    services.elimination_record(tournament_id=t.pk, busts=[(b2.pk, 100)], actor=director)
    assert refused(b2.pk) == "no_reentries_left"  # reentries_allowed = 1
    Tournament.objects.filter(pk=t.pk).update(reentries_allowed=2, registration_open=False)
    assert refused(b2.pk) == "registration_closed"
    assert _events(t, "entry_reentered") == 1


# ---------------------------------------------------------------- deals (RULES 8.3)


def _three_left(t: Tournament, director) -> list[Entry]:
    _bust_down_to(t, 3, director)
    # A deal waits until no more money can come in (RULES 8.3); this freezes the payouts.
    services.registration_close(tournament_id=t.pk, actor=director)
    return _seated(t)


def test_deal_quote_gives_icm_and_chip_chop_summing_to_the_unpaid_money(
    seated_tournament, director
):
    t = seated_tournament
    x, y, z = _three_left(t, director)

    quote = money_reads.deal_quote(t, {x.pk: 50000, y.pk: 30000, str(z.pk): 20000})

    assert quote["unpaid"] == 42100 + 25700 + 18100
    assert quote["unpaid_prizes"] == [42100, 25700, 18100]
    rows = {r["entry"]: r for r in quote["players"]}
    assert [rows[e.pk]["icm"] for e in (x, y, z)] == [32700, 28100, 25100]
    assert [rows[e.pk]["chip_chop"] for e in (x, y, z)] == [33900, 27600, 24400]  # units of 100
    assert sum(r["icm"] for r in rows.values()) == quote["unpaid"]
    assert abs(sum(r["equity"] for r in rows.values()) - quote["unpaid"]) < 1e-6
    # Without stacks: who is in and what is left to pay.
    bare = money_reads.deal_quote(t)
    assert [r["entry"] for r in bare["players"]] == [x.pk, y.pk, z.pk]
    assert "icm" not in bare["players"][0]


def test_deal_quote_needs_a_stack_for_exactly_the_players_left(seated_tournament, director):
    t = seated_tournament
    x, y, _z = _three_left(t, director)

    with pytest.raises(DomainError) as err:
        money_reads.deal_quote(t, {x.pk: 50000, y.pk: 30000})

    assert err.value.code == "deal_wrong_players"
    assert err.value.message == money_reads.MSG_STACKS_WRONG_PLAYERS


def test_a_deal_that_does_not_add_up_is_refused_and_nothing_changes(seated_tournament, director):
    t = seated_tournament
    x, y, z = _three_left(t, director)
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.deal_record(
            tournament_id=t.pk,
            amounts={x.pk: 40000, y.pk: 30000, z.pk: 15000},  # 85000, not 85900
            method="custom",
            agreed=[x.pk, y.pk, z.pk],
            actor=director,
        )

    assert err.value.code == "deal_does_not_add_up" and err.value.status == 400
    assert err.value.message == payouts_engine.MSG_DEAL_DOES_NOT_ADD_UP
    assert _snapshot(t) == before
    assert _events(t, "deal_recorded") == 0


@pytest.mark.parametrize(
    ("amounts", "method", "code"),
    [
        (lambda x, y, z: {x: 50000, y: 35900}, "custom", "deal_wrong_players"),
        (lambda x, y, z: {x: 50000, y: 35900, z: 0, 999999: 0}, "custom", "deal_wrong_players"),
        (lambda x, y, z: {x: 50000, y: 35900, z: 0}, "coin_flip", "bad_method"),
        (lambda x, y, z: {x: 50000, y: 35900, "zed": 0}, "custom", "bad_input"),
        (lambda x, y, z: {x: 50000.5, y: 35899.5, z: 0}, "custom", "deal_does_not_add_up"),
    ],
)
def test_bad_deals_are_refused_with_a_code(seated_tournament, director, amounts, method, code):
    t = seated_tournament
    x, y, z = _three_left(t, director)
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.deal_record(
            tournament_id=t.pk,
            amounts=amounts(x.pk, y.pk, z.pk),
            method=method,
            agreed=[x.pk, y.pk, z.pk],
            actor=director,
        )

    assert err.value.code == code
    assert _snapshot(t) == before


@pytest.mark.parametrize(
    ("agreed", "code", "named"),
    [
        (lambda x, y, z, gone: [x, y], "deal_not_agreed", [2]),
        (lambda x, y, z, gone: [], "deal_not_agreed", [0, 1, 2]),
        (lambda x, y, z, gone: None, "deal_not_agreed", [0, 1, 2]),
        (lambda x, y, z, gone: [x, y, z, gone], "deal_agreed_others", []),
        (lambda x, y, z, gone: [x, y, "zed"], "bad_input", []),
    ],
)
def test_a_deal_is_recorded_only_when_every_remaining_player_agrees(
    seated_tournament, director, agreed, code, named
):
    # RULES 8.3: "a deal is recorded only when every remaining player agrees".
    t = seated_tournament
    x, y, z = _three_left(t, director)
    gone = Entry.objects.filter(tournament=t, place__isnull=False).first()
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.deal_record(
            tournament_id=t.pk,
            amounts={x.pk: 40000, y.pk: 30000, z.pk: 15900},
            method="custom",
            agreed=agreed(x.pk, y.pk, z.pk, gone.pk),
            actor=director,
        )

    assert (err.value.code, err.value.status) == (code, 400)
    for i in named:
        assert (x, y, z)[i].player.name in err.value.message
    assert _snapshot(t) == before and _events(t, "deal_recorded") == 0


def test_an_undone_deal_is_redone_with_the_same_agreement(seated_tournament, director):
    t = seated_tournament
    x, y, z = _three_left(t, director)
    deal = {x.pk: 40000, y.pk: 30000, z.pk: 15900}
    money.deal_record(
        tournament_id=t.pk, amounts=deal, method="custom", agreed=list(deal), actor=director
    )
    recorded = _snapshot(t)

    action_undo(tournament_id=t.pk, actor=director)
    action_redo(tournament_id=t.pk, actor=director)

    assert _snapshot(t) == recorded
    event = Event.objects.filter(tournament=t, kind="deal_recorded", undone=False).get()
    assert event.payload["agreed"] == sorted(deal)


def test_a_recorded_deal_replaces_the_place_prizes_in_the_results(seated_tournament, director):
    t = seated_tournament
    x, y, z = _three_left(t, director)
    deal = {x.pk: 40000, y.pk: 30000, z.pk: 15900}

    stored = money.deal_record(
        tournament_id=t.pk,
        amounts=deal,
        method="custom",
        agreed=list(deal),
        actor=director,
        stacks={x.pk: 1, y.pk: 2, z.pk: 3},
    )

    assert stored == deal
    x.refresh_from_db()
    assert x.deal_amount == 40000 and x.prize == 0  # paid when they finish
    event = Event.objects.get(tournament=t, kind="deal_recorded")
    assert event.payload["method"] == "custom"
    assert event.payload["amounts"] == {str(k): v for k, v in deal.items()}
    assert event.payload["unpaid"] == 85900
    assert money_reads.money_summary(t)["deal"] is True
    with pytest.raises(DomainError) as again:
        money.deal_record(tournament_id=t.pk, amounts=deal, method="custom", actor=director)
    assert again.value.code == "deal_exists"

    # x busts third, y second: each gets the deal amount, not the place prize.
    services.elimination_record(tournament_id=t.pk, busts=[(x.pk, 100)], actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(y.pk, 100)], actor=director)

    rows = {r["entry"]: r for r in money_reads.results_rows(t)}
    assert (rows[x.pk]["place"], rows[x.pk]["prize"], rows[x.pk]["deal"]) == (3, 40000, True)
    assert (rows[y.pk]["place"], rows[y.pk]["prize"]) == (2, 30000)
    assert (rows[z.pk]["place"], rows[z.pk]["prize"]) == (1, 15900)
    assert sum(r["prize"] for r in rows.values()) == money_reads.pool_of(t) == 100000


def test_a_deal_can_include_a_player_below_the_paid_places(seated_tournament, director):
    t = seated_tournament  # 4 places paid
    _bust_down_to(t, 5, director)
    services.registration_close(tournament_id=t.pk, actor=director)
    left = _seated(t)
    amounts = dict(zip([e.pk for e in left], [30000, 25000, 20000, 15000, 10000], strict=True))

    money.deal_record(
        tournament_id=t.pk, amounts=amounts, method="custom", agreed=list(amounts), actor=director
    )
    services.elimination_record(tournament_id=t.pk, busts=[(left[-1].pk, 10)], actor=director)

    last = Entry.objects.get(pk=left[-1].pk)
    assert (last.place, last.prize) == (5, 10000)


# ---------------------------------------------------------------- undo (RULES 7.4)


def test_undoing_a_tied_bubble_elimination_restores_the_prizes_exactly(seated_tournament, director):
    t = seated_tournament
    _bust_down_to(t, 5, director)
    before = _snapshot(t)
    x, y = _seated(t)[:2]
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 3000), (y.pk, 3000)], actor=director
    )
    assert Entry.objects.get(pk=x.pk).prize == 7050

    out = action_undo(tournament_id=t.pk, actor=director)

    assert out["kind"] == "elimination"
    assert _snapshot(t) == before
    assert money_reads.money_summary(t)["on_the_bubble"] is True


def test_undo_a_rebuy_an_addon_and_a_reentry_gives_the_money_back(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    a, b = _seated(t)[:2]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(b.pk, 100)], actor=director)
    start = (_snapshot(t), money_reads.pool_of(t))

    money.entry_rebuy(tournament_id=t.pk, entry_id=a.pk, actor=director)
    services.entry_reenter(tournament_id=t.pk, entry_id=b.pk, actor=director)
    assert money_reads.pool_of(t) == 5 * 5000 + 10000 + 4000

    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "entry_reentered"
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "entry_rebuy"

    assert (_snapshot(t), money_reads.pool_of(t)) == start
    assert Entry.objects.filter(tournament=t).count() == 4


def test_undo_a_deal_and_a_payout_change_after_the_freeze(seated_tournament, director):
    t = seated_tournament
    x, y, z = _three_left(t, director)
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    money.payouts_freeze(tournament_id=t.pk, actor=director)
    money.payouts_set(tournament_id=t.pk, percentages=[5000, 3000, 2000], actor=director)
    t.refresh_from_db()
    assert t.frozen_prizes == [50000, 30000, 20000]
    money.deal_record(
        tournament_id=t.pk,
        amounts={x.pk: 50000, y.pk: 30000, z.pk: 20000},
        method="custom",
        agreed=[x.pk, y.pk, z.pk],
        actor=director,
    )

    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "deal_recorded"
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "payouts_set"

    t.refresh_from_db()
    assert t.frozen_prizes == [42100, 25700, 18100, 14100]
    assert t.payout_percentages == list(payouts_engine.default_percentages(20))
    assert money_reads.prizes_of(t) == (42100, 25700, 18100, 14100)


def test_freeze_without_entries_is_refused_and_the_locked_helper_does_nothing(director):
    t = _create(director, registration_open=False)

    with pytest.raises(DomainError) as err:
        money.payouts_freeze(tournament_id=t.pk, actor=director)

    assert err.value.code == "no_entries" and err.value.status == 409
    assert money.payouts_freeze_locked(t) == ()
    t.refresh_from_db()
    assert t.frozen_prizes is None
    assert _events(t, "payouts_frozen") == 0


def test_busts_in_the_money_after_the_freeze_get_the_prizes_a_full_recount_gives(
    seated_tournament, director
):
    # RULES 7.2, 8.2: with the prizes frozen an elimination assigns only its own finishers'
    # prizes; a full recount from scratch must find nothing to change, ties included.
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(registration_open=False, payout_percentages=None)
    money.payouts_freeze(tournament_id=t.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    left = list(Entry.objects.filter(tournament=t, status="seated").order_by("number"))
    while len(left) > 1:
        if len(left) in (4, 7):  # two out in one hand with equal stacks: a tie
            busts = [(left[0].pk, 500), (left[1].pk, 500)]
        else:
            busts = [(left[0].pk, 900)]
        services.elimination_record(tournament_id=t.pk, busts=busts, actor=director)
        before = dict(Entry.objects.filter(tournament=t).values_list("pk", "prize"))
        money.prizes_assign(Tournament.objects.get(pk=t.pk))
        assert dict(Entry.objects.filter(tournament=t).values_list("pk", "prize")) == before
        left = list(Entry.objects.filter(tournament=t, status="seated").order_by("number"))
    prizes = sorted(Entry.objects.filter(tournament=t).values_list("prize", flat=True))
    assert sum(prizes) == money_reads.pool_of(t) and prizes[-1] > 0


# ---------------------------------------------------------------- the freeze at registration close


def _clock_tournament(director, *, players: int, percentages=None, **options) -> Tournament:
    t = _create(director, late_reg_until=0, **options)  # open to the end of level 1
    if percentages:
        money.payouts_set(tournament_id=t.pk, percentages=percentages, actor=director)
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    return t


def test_the_clock_closing_registration_freezes_the_payouts_once(director):
    # RULES 4.4, 8.2: the clock leaves level 1; its announcement closes late registration and
    # the payouts freeze; a second announcement changes nothing.
    from datetime import timedelta

    from django.utils import timezone

    t = _clock_tournament(director, players=20)
    assert t.registration_open and t.frozen_prizes is None
    prizes = money_reads.prizes_of(t)
    later = timezone.now() + timedelta(minutes=21)

    assert services.clock_announce(tournament_id=t.pk, now=later) == [1]
    assert services.clock_announce(tournament_id=t.pk, now=later) == []

    t.refresh_from_db()
    assert t.registration_open is False
    assert tuple(t.frozen_prizes) == prizes and sum(prizes) == money_reads.pool_of(t)
    assert t.payout_percentages == list(payouts_engine.default_percentages(20))
    event = Event.objects.get(tournament=t, kind="payouts_frozen")
    assert event.payload["prizes"] == list(prizes) and "cut_from" not in event.payload
    with pytest.raises(DomainError) as err:
        services.entry_register(tournament_id=t.pk, name="Too late", actor=director)
    assert err.value.code == "registration_closed"


def test_a_custom_table_longer_than_the_field_is_cut_to_it_when_registration_closes(director):
    # RULES 8.2: last week's 7-place table, 5 entries tonight. The two places nobody can
    # finish in give their share to first; every cent of the pool is paid out.
    table = [3000, 2000, 1500, 1200, 1000, 800, 500]
    t = _clock_tournament(director, players=5, percentages=table)
    assert money_reads.table_of(t) == (4300, 2000, 1500, 1200, 1000)
    assert len(money_reads.prizes_of(t)) == 5

    services.clock_action(tournament_id=t.pk, action="next", actor=director)  # closes it

    t.refresh_from_db()
    pool = money_reads.pool_of(t)
    assert pool == 5 * 5000
    assert t.payout_percentages == [4300, 2000, 1500, 1200, 1000]
    # rounded down to 1.00, the remainder (0.50 + 0.50) to first (RULES 8.2)
    assert t.frozen_prizes == [10800, 5000, 3700, 3000, 2500] and sum(t.frozen_prizes) == pool
    event = Event.objects.get(tournament=t, kind="payouts_frozen")
    assert event.payload["cut_from"] == table
    _bust_down_to(t, 1, director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert sum(r["prize"] for r in money_reads.results_rows(t)) == pool


def test_undoing_the_close_of_registration_reopens_it_and_unfreezes(seated_tournament, director):
    t = seated_tournament
    summary = money_reads.money_summary(t)

    assert services.registration_close(tournament_id=t.pk, actor=director) == ["registration"]
    t.refresh_from_db()
    assert not t.registration_open and t.frozen_prizes is not None

    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "registration_closed"
    t.refresh_from_db()
    assert t.registration_open and t.frozen_prizes is None and t.payout_percentages is None
    assert money_reads.money_summary(t) == summary


def test_closing_registration_twice_is_refused_and_changes_nothing(director):
    t = _create(director, players=4, **MONEY_OPTIONS)
    assert services.registration_close(tournament_id=t.pk, actor=director) == ["registration"]
    assert services.registration_close(tournament_id=t.pk, rebuys=True, actor=director) == [
        "rebuys"
    ]
    t.refresh_from_db()
    version = t.version

    with pytest.raises(DomainError) as err:
        services.registration_close(tournament_id=t.pk, rebuys=True, actor=director)

    assert (err.value.code, err.value.status) == ("already_closed", 409)
    assert err.value.message == money.MSG_ALREADY_CLOSED
    t.refresh_from_db()
    assert t.version == version and _events(t, "registration_closed") == 2


def test_an_override_late_entry_after_the_freeze_logs_the_new_amounts(seated_tournament, director):
    # RULES 8.2: a change of the frozen prizes is logged, as for a rebuy or an add-on.
    t = seated_tournament
    services.registration_close(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    frozen = list(t.frozen_prizes)

    entry = services.entry_register(
        tournament_id=t.pk, name="Latecomer", actor=director, override=True
    )

    t.refresh_from_db()
    assert t.frozen_prizes != frozen and sum(t.frozen_prizes) == money_reads.pool_of(t) == 105000
    event = Event.objects.get(tournament=t, kind="entry_registered", payload__entry=entry.pk)
    assert event.payload["frozen_prizes"] == t.frozen_prizes


# ---------------------------------------------------------------- no money after a deal (RULES 8.3)


@pytest.mark.parametrize("window", ["registration", "rebuys"])
def test_a_deal_is_refused_while_money_can_still_come_in(director, window):
    t = _create(director, players=6, **MONEY_OPTIONS)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    _bust_down_to(t, 3, director)
    if window == "rebuys":  # registration closed, the rebuy period still open
        services.registration_close(tournament_id=t.pk, actor=director)
    left = _seated(t)
    unpaid = money_reads.deal_quote(t)["unpaid"]
    amounts = dict(zip([e.pk for e in left], [unpaid - 2, 1, 1], strict=True))
    before = _snapshot(t)

    with pytest.raises(DomainError) as err:
        money.deal_record(tournament_id=t.pk, amounts=amounts, method="custom", actor=director)

    assert (err.value.code, err.value.status) == ("deal_money_open", 409)
    assert err.value.message == money.MSG_DEAL_MONEY_OPEN
    assert money_reads.deal_quote(t)["money_open"] is True
    assert _snapshot(t) == before and _events(t, "deal_recorded") == 0


@pytest.fixture
def dealt(director):
    """Six entered, rebuys and an add-on offered; registration and rebuys closed, three left
    at the add-on break, and a custom deal among them."""
    t = _create(director, players=6, **MONEY_OPTIONS)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    _bust_down_to(t, 3, director)
    services.registration_close(tournament_id=t.pk, rebuys=True, actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)  # the break
    left = _seated(t)
    unpaid = money_reads.deal_quote(t)["unpaid"]
    money.deal_record(
        tournament_id=t.pk,
        amounts=dict(zip([e.pk for e in left], [unpaid - 20000, 12000, 8000], strict=True)),
        method="custom",
        agreed=[e.pk for e in left],
        actor=director,
    )
    t.refresh_from_db()
    return t


@pytest.mark.parametrize(
    "late_money",
    [
        lambda t, e, d: services.entry_register(
            tournament_id=t.pk, name="Latecomer", actor=d, override=True
        ),
        lambda t, e, d: money.entry_rebuy(tournament_id=t.pk, entry_id=e.pk, actor=d),
        lambda t, e, d: money.entry_addon(tournament_id=t.pk, entry_id=e.pk, actor=d),
        lambda t, e, d: money.payouts_set(tournament_id=t.pk, percentages=[10000], actor=d),
        lambda t, e, d: money.payouts_set(tournament_id=t.pk, rounding_unit=500, actor=d),
    ],
    ids=["override_entry", "rebuy", "addon", "payout_table", "rounding_unit"],
)
def test_after_a_deal_no_money_comes_in_and_the_payouts_stay(dealt, director, late_money):
    t = dealt
    entry = _seated(t)[0]
    before = (
        _snapshot(t),
        money_reads.pool_of(t),
        t.frozen_prizes,
        t.payout_percentages,
        t.version,
    )
    entries = Entry.objects.filter(tournament=t).count()

    with pytest.raises(DomainError) as err:
        late_money(t, entry, director)

    assert (err.value.code, err.value.status) == ("deal_exists", 409)
    assert err.value.message == money.MSG_AFTER_DEAL
    t.refresh_from_db()
    assert (
        _snapshot(t),
        money_reads.pool_of(t),
        t.frozen_prizes,
        t.payout_percentages,
        t.version,
    ) == (before)
    assert Entry.objects.filter(tournament=t).count() == entries
    # The deal still adds up to what is left to pay: the players finish with their amounts.
    _bust_down_to(t, 1, director)
    assert sum(r["prize"] for r in money_reads.results_rows(t)) == money_reads.pool_of(t)
