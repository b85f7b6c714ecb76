"""Two desks registering at once never share a seat (TOURNAMENT_DAY; issue 7's load: eight
desks, 400 players, 45 tables), and eight desks choosing the same known player make one entry.
Real threads on PostgreSQL, committed transactions, through the desk's own write path
(``tourney.services.desk.desk_register``: its lock, then the known-player and re-entry branches)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connections

from tables.models import Seat, Table
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry
from tourney.selectors import money as money_reads
from tourney.services import desk

from ..threads import at_once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_desks_register_400_players_into_45_tables_at_once(director, desk_clerk):
    t = services.tournament_create(actor=director, name="Rush", tables=45, seed=1)
    errors: list[BaseException] = []

    def one_desk(k: int) -> None:
        try:
            for i in range(50):
                entry, kind = desk.desk_register(
                    tournament_id=t.pk, name=f"D{k}-{i}", actor=desk_clerk
                )
                assert kind == "registered"
        except BaseException as exc:  # noqa: BLE001 — asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one_desk, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert errors == []
    assert Entry.objects.filter(tournament=t).count() == 400
    assert Entry.objects.filter(tournament=t, status="seated").count() == 400
    seats = list(Seat.objects.filter(tournament=t).values_list("table_id", "number", "entry_id"))
    assert len(seats) == 400
    assert len({(tb, n) for tb, n, _ in seats}) == 400  # no seat shared
    assert len({e for *_, e in seats}) == 400  # no entry twice
    numbers = sorted(Entry.objects.filter(tournament=t).values_list("number", flat=True))
    assert numbers == list(range(1, 401))
    per_table = Counter(tb for tb, *_ in seats)
    sizes = [per_table.get(r.pk, 0) for r in Table.objects.filter(tournament=t)]
    assert max(sizes) - min(sizes) <= 1  # RULES 1.3 keeps the draw even
    assert set(Entry.objects.filter(tournament=t).values_list("created_by", flat=True)) == {
        desk_clerk.pk
    }


def _race(n: int, fn) -> list:
    """``fn`` in ``n`` threads released together; what each returned, a refusal's code, or the
    repr of anything else it raised."""
    return [
        x.code if isinstance(x, DomainError) else repr(x) if isinstance(x, BaseException) else x
        for x in at_once(n, fn)
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_desks_choosing_one_known_player_make_one_entry_then_one_re_entry(
    director, desk_clerk
):
    past = services.tournament_create(actor=director, name="Past", tables=1, seed=1)
    known = services.entry_register(tournament_id=past.pk, name="Known Kim", actor=director)
    t = services.tournament_create(
        actor=director, name="Rush", tables=10, seed=1, options={"reentries_allowed": 5}
    )

    def choose():
        return desk.desk_register(tournament_id=t.pk, player_id=known.player_id, actor=desk_clerk)[
            1
        ]

    out = _race(8, choose)
    # One desk registers the known player; the seven others see the entry in play.
    assert sorted(out) == ["player_in_play"] * 7 + ["registered"]
    mine = Entry.objects.filter(tournament=t, player_id=known.player_id)
    assert mine.count() == 1 and mine.get().status == Entry.Status.SEATED
    assert Seat.objects.filter(tournament=t).count() == 1

    for name in ("Ann Lee", "Bob Stone"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    first = mine.get()
    services.elimination_record(tournament_id=t.pk, busts=[(first.pk, 20000)], actor=director)
    out = _race(8, choose)
    # RULES 4.4: the busted player re-enters once, not eight times.
    assert sorted(out) == ["player_in_play"] * 7 + ["reentered"]
    live = mine.exclude(status=Entry.Status.BUSTED)
    assert live.count() == 1 and live.get().number == 4
    assert mine.count() == 2
    seats = list(Seat.objects.filter(tournament=t).values_list("table_id", "number"))
    assert len(seats) == len(set(seats)) == 3  # Ann, Bob and the re-entry


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_addons_and_deals_apply_once(director):
    # Money writers under the tournament row lock (RULES 8.1, 8.3): six add-ons of one entry
    # at once buy it once; five directors recording a deal at once record one of them.
    from itertools import count

    from tests.conftest import TWO_LEVELS
    from tourney.models import Event
    from tourney.services import money

    t = services.tournament_create(
        actor=director,
        name="Race",
        tables=1,
        starting_stack=20000,
        buy_in=5000,
        seed=3,
        levels=TWO_LEVELS,
        options={"addon_at": 1, "addon_price": 3000, "addon_chips": 15000},
    )
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"C{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)  # break
    e = Entry.objects.filter(tournament=t).order_by("number").first()

    done = _race(6, lambda: money.entry_addon(tournament_id=t.pk, entry_id=e.pk, actor=director))

    assert sorted(map(str, done)) == sorted([str(e)] + ["addon_taken"] * 5)
    e.refresh_from_db()
    assert (e.addons, e.paid, e.chips_bought) == (1, 8000, 35000)
    assert Event.objects.filter(tournament=t, kind="entry_addon").count() == 1
    assert money_reads.pool_of(t) == 4 * 5000 + 3000

    while len(seated := list(Entry.objects.filter(tournament=t, status="seated"))) > 2:
        last = max(seated, key=lambda s: s.number)
        services.elimination_record(tournament_id=t.pk, busts=[(last.pk, 100)], actor=director)
    services.registration_close(tournament_id=t.pk, actor=director)
    x, y = sorted(seated, key=lambda s: s.number)
    unpaid = money_reads.deal_quote(t)["unpaid"]
    ks = count(1)

    def deal():
        k = next(ks) * 100
        return money.deal_record(
            tournament_id=t.pk,
            amounts={x.pk: unpaid - k, y.pk: k},
            method="custom",
            agreed=[x.pk, y.pk],
            actor=director,
        )

    done = _race(5, deal)

    won = [d for d in done if isinstance(d, dict)]
    assert (
        len(won) == 1 and sorted(d for d in done if not isinstance(d, dict)) == ["deal_exists"] * 4
    )
    stored = dict(
        Entry.objects.filter(tournament=t, deal_amount__isnull=False).values_list(
            "pk", "deal_amount"
        )
    )
    assert stored == won[0] and sum(stored.values()) == unpaid
    assert Event.objects.filter(tournament=t, kind="deal_recorded").count() == 1
