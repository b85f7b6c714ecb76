"""RULES 12.2, 12.4, 12.8: a satellite's seats and leftover cash, the seats left and the deal's
counts (tourney/engine/satellites.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.satellites import deal_check, satellite_payout, seats_left

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_no_django() -> None:
    code = (
        "import sys; import tourney.engine.satellites; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_the_standard_way_by_hand() -> None:
    # RULES 12.2: 23 entries of 100 = 2,300; seats of 550: 4 seats, 100 cash to 5th
    p = satellite_payout(pool=2300, seat_value=550, entries=23)
    assert (p.seats, p.cash, p.cash_place) == (4, 100, 5)
    assert p.prizes() == (550, 550, 550, 550, 100)
    assert [p.is_seat(i) for i in range(1, 7)] == [True] * 4 + [False] * 2


def test_exact_seats_no_cash() -> None:
    p = satellite_payout(pool=2200, seat_value=550, entries=22)
    assert (p.seats, p.cash, p.cash_place, p.prizes()) == (4, 0, 0, (550,) * 4)


def test_no_seat_the_pool_is_cash_to_first() -> None:
    p = satellite_payout(pool=400, seat_value=550, entries=4)
    assert (p.seats, p.cash, p.cash_place, p.prizes()) == (0, 400, 1, (400,))
    assert satellite_payout(pool=0, seat_value=550, entries=0).prizes() == ()


def test_a_seat_for_every_entry_leftover_rides_with_first() -> None:
    # a guarantee bigger than the field: 3 entries, pool 2,000, seats of 550
    p = satellite_payout(pool=2000, seat_value=550, entries=3)
    assert (p.seats, p.cash, p.cash_place) == (3, 350, 1)
    assert p.prizes() == (900, 550, 550)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"pool": -1, "seat_value": 5, "entries": 1}, "bad_pool"),
        ({"pool": 1.5, "seat_value": 5, "entries": 1}, "bad_pool"),
        ({"pool": 10, "seat_value": 0, "entries": 1}, "bad_seat_value"),
        ({"pool": 10, "seat_value": True, "entries": 1}, "bad_seat_value"),
        ({"pool": 10, "seat_value": 5, "entries": -1}, "bad_input"),
    ],
)
def test_bad_input_refused(kwargs, code) -> None:
    with pytest.raises(DomainError) as exc:
        satellite_payout(**kwargs)
    assert exc.value.code == code


@given(
    pool=st.integers(0, 10**12),
    seat_value=st.integers(1, 10**9),
    entries=st.integers(0, 5000),
)
def test_payout_invariants(pool, seat_value, entries) -> None:
    p = satellite_payout(pool=pool, seat_value=seat_value, entries=entries)
    prizes = p.prizes()
    # RULES 12.2: the seats and the cash are exactly the pool
    assert p.seats * seat_value + p.cash == pool == sum(prizes)
    assert 0 <= p.seats <= entries  # never more seats than entries
    assert p.seats == min(pool // seat_value, entries)
    assert all(x > 0 for x in prizes)
    if p.seats < entries:
        assert p.cash < seat_value  # less than another seat
        assert p.cash_place == (p.seats + 1 if p.cash else 0)
        assert len(prizes) == p.seats + (1 if p.cash else 0)
    assert list(prizes) == sorted(prizes, reverse=True)  # in order, first place best
    assert all(prizes[i] >= seat_value for i in range(p.seats))


@given(seats=st.integers(0, 50), won=st.integers(0, 60), players=st.integers(0, 60))
def test_deal_only_when_players_equal_seats_left(seats, won, players) -> None:
    left = seats_left(seats=seats, won=won)
    assert left == max(0, seats - won)
    if players == left and players >= 1:
        assert deal_check(players_left=players, seats=seats, won=won) == left
    else:
        with pytest.raises(DomainError) as exc:
            deal_check(players_left=players, seats=seats, won=won)
        assert exc.value.code == "deal_counts"
        assert exc.value.fields == {"players_left": players, "seats_left": left}
