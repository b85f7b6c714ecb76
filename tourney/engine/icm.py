"""ICM deal equities, Malmuth–Harville (RULES 8.3).

Pure Python. Harville's model: the chance a player finishes first among those left is their
share of the chips left; the order of the others is then drawn the same way from the rest.
Exact dynamic programming over the subsets of players still to be placed (bitmasks),
O(2^n * n), walking only the subsets whose next place still pays.

How the inputs are read:

* ``payouts[k]`` is the prize for place ``k + 1``. A shorter list is padded with zeros; a longer
  one is cut to the number of players (prizes beyond them are not these players' money).
  Payouts need not be sorted.
* A player with 0 chips finishes below everyone with chips (RULES 7.1). Zero-stack players are
  equal, so by RULES 7.2 they share the prizes of the places below the chip holders equally.
  The equities therefore always add up to the prize money of places 1..n: prize money never
  leaves the remaining players (RULES 8.3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tourney.engine.errors import N_, DomainError

# 2^17 subsets ~ 1 s of pure Python; a deal at a final table has at most 10 or so players.
MAX_STATES = 1 << 17

MSG_NO_PLAYERS = N_("Give at least one stack.")
MSG_BAD_STACK = N_("Stacks are whole numbers of chips, zero or more.")
MSG_NO_CHIPS = N_("At least one player must have chips.")
MSG_BAD_PAYOUT = N_("Payouts are amounts of money, zero or more.")
MSG_TOO_BIG = N_("Too many players with chips and paid places for an exact ICM calculation.")
MSG_STACK_TOO_LARGE = N_("A stack is at most 1,000,000,000,000 chips.")
MSG_PAYOUT_TOO_LARGE = N_("A payout is at most 10,000,000,000,000.")

# Bounds on the inputs (the API's own: MAX_CHIPS and MAX_MONEY in tourney.api.common). Beyond
# them a stack no longer converts to a float (OverflowError) and sums of prizes lose their cents.
MAX_STACK = 10**12
MAX_PAYOUT = 10**13


def _error(code: str, message: str, **fields: object) -> DomainError:
    return DomainError(code, message, fields=dict(fields), status=400)


def _validate(
    stacks: Sequence[int], payouts: Sequence[float | int]
) -> tuple[list[int], list[float]]:
    stacks = list(stacks)
    if not stacks:
        raise _error("no_players", MSG_NO_PLAYERS)
    for i, s in enumerate(stacks):
        if not isinstance(s, int) or isinstance(s, bool) or s < 0:
            raise _error("bad_stack", MSG_BAD_STACK, index=i)
        if s > MAX_STACK:
            raise _error("bad_stack", MSG_STACK_TOO_LARGE, index=i)
    if not any(stacks):
        raise _error("no_chips", MSG_NO_CHIPS)
    prizes: list[float] = []
    for i, p in enumerate(payouts):
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not math.isfinite(p) or p < 0:
            raise _error("bad_payout", MSG_BAD_PAYOUT, index=i)
        if p > MAX_PAYOUT:
            raise _error("bad_payout", MSG_PAYOUT_TOO_LARGE, index=i)
        prizes.append(float(p))
    n = len(stacks)
    return stacks, (prizes + [0.0] * n)[:n]


def icm_equities(stacks: Sequence[int], payouts: Sequence[float | int]) -> list[float]:
    """Each player's Malmuth–Harville equity, in the order of ``stacks`` (RULES 8.3).

    Raises DomainError (400): no stacks, a negative, non-integer or too large stack (over
    ``MAX_STACK``), no chips at all, a negative, non-finite or too large payout (over
    ``MAX_PAYOUT``), or too many players for the exact calculation.
    """
    stacks, prizes = _validate(stacks, payouts)
    n = len(stacks)
    holders = [i for i in range(n) if stacks[i] > 0]
    m = len(holders)
    equities = [0.0] * n

    # RULES 7.1 / 7.2: the zero stacks tie below the chip holders and share those places.
    zeros = [i for i in range(n) if stacks[i] == 0]
    if zeros:
        share = sum(prizes[m:]) / len(zeros)
        for i in zeros:
            equities[i] = share

    paid = prizes[:m]
    # Only places up to the last paying one need the subset walk.
    depth = max((k + 1 for k in range(m) if paid[k]), default=0)
    if depth == 0:
        return equities
    states = sum(math.comb(m, j) for j in range(min(depth, m)))
    if states > MAX_STATES:
        raise _error("icm_too_big", MSG_TOO_BIG, players=m, paid_places=depth)

    chips = [stacks[i] for i in holders]
    won = [0.0] * m
    # level: {mask of players still to be placed: probability of reaching that state}
    level: dict[int, float] = {(1 << m) - 1: 1.0}
    totals: dict[int, int] = {(1 << m) - 1: sum(chips)}
    for place in range(depth):
        prize = paid[place]
        nxt: dict[int, float] = {}
        nxt_totals: dict[int, int] = {}
        last = place == depth - 1
        for mask, prob in level.items():
            total = totals[mask]
            scale = prob / total
            bits = mask
            while bits:
                low = bits & -bits
                i = low.bit_length() - 1
                bits ^= low
                p = scale * chips[i]
                won[i] += p * prize
                if not last:
                    rest = mask ^ low
                    nxt[rest] = nxt.get(rest, 0.0) + p
                    if rest not in nxt_totals:
                        nxt_totals[rest] = total - chips[i]
        level, totals = nxt, nxt_totals

    for j, i in enumerate(holders):
        equities[i] = won[j]
    return equities
