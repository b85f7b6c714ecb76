"""Pots, side pots and the showdown of one hand (RULES 6).

Pure Python. ``settle`` takes what every player committed in the hand and either their cards
and the board or a finishing rank, and says what goes back uncalled, how the pots are layered,
who wins each and what every seat receives.

How the rules are read:

* RULES 6.2: the chips of the single highest commitment above the second-highest commitment
  (folded or not) were matched by no one and go back to their owner (``returned``). This is
  the same thing as docs/api.md's "a top layer that only one player reached is returned".
* RULES 6.3: the layer boundaries are the distinct (capped) commitments of the players still
  in the hand. Every player's chips, folded or not, fill the layers they reach; a pot is
  contested by the non-folded players who filled its whole layer. A folded player's
  commitment is no boundary, so consecutive layers never have the same eligible players (they
  would be one pot); the main pot comes first. Chips that lie above every
  non-folded player's commitment and were matched by a second folded player cannot happen in
  a real hand and are refused (400 ``unreachable_chips``).
* RULES 6.4: the best five of the seven cards, via ``phevaluator`` (lower rank is better);
  suits never break ties. In rank mode the caller gives ``rank`` (1 = best, equal ranks tie).
* RULES 6.5: each pot is split on its own in units of ``chip_unit``; the units left over go
  one each to the winners in clockwise order starting after the button (seats above the
  button ascending, then seats up to and including the button ascending). No one receives
  more than one odd unit per hand: the pots are split from the last side pot back to the main
  pot, and in each pot the winners who have not yet had an odd unit in this hand come first
  (clockwise from the button); only when every winner of a pot already has one does the
  clockwise order start again.
* RULES 6.6: antes are dead money. A player's ``ante`` (a classic ante, or the big-blind ante
  the big blind posts before the blind) is not part of ``committed``: it is never returned as
  uncalled (6.2) and is not layered (6.3). The antes go into the main pot, contested by every
  player who has not folded; when a player who has not folded put in nothing beyond the ante
  (all in on the ante alone) they form a pot of their own ahead of the main pot, which that
  player can win. A big blind too short for both covers the ante first: the caller puts the
  first chips in ``ante`` (``forced_bets`` does it).
* A hand where only one player is left needs no showdown: then that player may carry neither
  cards nor rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from phevaluator.evaluator import evaluate_5cards, evaluate_7cards

from tourney.engine.cards import DECK, card_id, ensure_distinct, parse_cards, rank_index
from tourney.engine.errors import N_, DomainError

MSG_TOO_FEW_PLAYERS = N_("A hand needs at least two players.")
MSG_BAD_SEAT = N_("Seat numbers are whole numbers from 1.")
MSG_DUPLICATE_SEAT = N_("Each seat may appear only once.")
MSG_BAD_BUTTON = N_("The button seat is a whole number from 1.")
MSG_BAD_CHIP_UNIT = N_("The chip unit is a whole number of at least 1.")
MSG_BAD_COMMITTED = N_("Committed chips are a whole number, zero or more.")
MSG_BAD_ANTE = N_("An ante is a whole number of chips, zero or more.")
MSG_ANTE_NOT_CHIP_UNIT = N_("Every ante must be a multiple of the chip unit.")
MSG_NOT_CHIP_UNIT = N_("Every committed amount must be a multiple of the chip unit.")
MSG_NO_LIVE_PLAYER = N_("At least one player must not have folded.")
MSG_SHOWDOWN_MIXED = N_("Either every player still in the hand has cards, or every one has a rank.")
MSG_BAD_RANK = N_("A hand rank is a whole number from 1 (best).")
MSG_BAD_HOLE_CARDS = N_("Each player has exactly two hole cards.")
MSG_BAD_BOARD = N_("The board has exactly five cards when hands are shown.")
MSG_UNREACHABLE_CHIPS = N_(
    "Folded players' chips lie above every live player's commitment; no one can win them."
)

# phevaluator's rank boundaries (the Cactus Kev equivalence classes, 1 = royal flush,
# 7462 = 7-5-4-3-2 offsuit): the highest rank of each category, best category first.
CATEGORY_BOUNDS: tuple[tuple[int, str], ...] = (
    (10, "straight_flush"),
    (166, "four_of_a_kind"),
    (322, "full_house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three_of_a_kind"),
    (3325, "two_pair"),
    (6185, "pair"),
    (7462, "high_card"),
)
CATEGORIES: tuple[str, ...] = tuple(name for _, name in reversed(CATEGORY_BOUNDS))

_ACE = 12
_FIVE_OF_SEVEN = tuple(combinations(range(7), 5))
_FIVE = 3


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """One player's part in a hand: all chips put in (``committed``) and how they showed."""

    seat: int
    committed: int
    folded: bool = False
    cards: str | None = None
    rank: int | None = None
    ante: int = 0  # RULES 6.6: dead money, not part of ``committed``


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot (main pot first): its chips, who may win it, who did and what each gets."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]


@dataclass(frozen=True, slots=True)
class HandInfo:
    """A shown hand: its category name and best five cards (category cards, then kickers)."""

    category: str
    best_five: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of ``settle``. ``payouts`` includes ``returned`` chips and omits zeros."""

    returned: dict[int, int]
    pots: tuple[Pot, ...]
    payouts: dict[int, int]
    hands: dict[int, HandInfo]


def _error(code: str, message: str, **fields: object) -> DomainError:
    return DomainError(code, message, fields=dict(fields), status=400)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def category_of(rank: int) -> str:
    """Category name of a phevaluator rank (1 best .. 7462 worst). RULES 6.4."""
    for upper, name in CATEGORY_BOUNDS:
        if rank <= upper:
            return name
    raise ValueError(f"not a phevaluator rank: {rank}")


def _order_five(cards: Sequence[str], category: str) -> tuple[str, ...]:
    """Cards making the category first, then kickers high to low; a wheel ends with its ace."""
    ranks = [rank_index(c) for c in cards]
    if category in ("straight", "straight_flush") and _ACE in ranks and _FIVE in ranks:
        return tuple(
            sorted(
                cards,
                key=lambda c: ((rank_index(c) + 1) % 13, card_id(c)),
                reverse=True,
            )
        )
    counts = {r: ranks.count(r) for r in ranks}
    return tuple(sorted(cards, key=lambda c: (counts[rank_index(c)], card_id(c)), reverse=True))


def evaluate_hand(hole: Sequence[str], board: Sequence[str]) -> tuple[int, HandInfo]:
    """Best five-card hand of hole cards + board (RULES 6.4), any combination, board included.

    Returns the phevaluator rank (lower is better; equal ranks tie, suits never matter) and
    the category with the best five cards. When several five-card sets make the same hand,
    the one with the highest cards by id is shown, so the answer is deterministic.
    """
    seven = tuple(hole) + tuple(board)
    ids = [card_id(c) for c in seven]
    rank = evaluate_7cards(*ids)
    best: tuple[int, ...] | None = None
    for a, b, c, d, e in _FIVE_OF_SEVEN:
        if evaluate_5cards(ids[a], ids[b], ids[c], ids[d], ids[e]) != rank:
            continue
        key = tuple(sorted((ids[a], ids[b], ids[c], ids[d], ids[e]), reverse=True))
        if best is None or key > best:
            best = key
    assert best is not None  # the best five of seven always reaches the seven-card rank
    category = category_of(rank)
    best_five = _order_five([DECK[i] for i in best], category)
    return rank, HandInfo(category=category, best_five=best_five)


def clockwise_after(seats: Sequence[int], button_seat: int) -> tuple[int, ...]:
    """Seats in clockwise order starting after the button (RULES 6.5)."""
    return tuple(sorted(seats, key=lambda s: (s <= button_seat, s)))


def split_pot(
    amount: int,
    winners: Sequence[int],
    button_seat: int,
    chip_unit: int,
    had_odd: frozenset[int] | set[int] = frozenset(),
) -> dict[int, int]:
    """Split one pot among its winners (RULES 6.5): equal shares in units of ``chip_unit``,
    then the odd units one each clockwise from the button, the winners who already had an odd
    unit in this hand (``had_odd``) after those who have not."""
    clockwise = clockwise_after(winners, button_seat)
    ordered = [s for s in clockwise if s not in had_odd] + [s for s in clockwise if s in had_odd]
    units, remainder = divmod(amount, chip_unit)
    if remainder:
        raise ValueError("pot amount is not a multiple of the chip unit")
    base, odd = divmod(units, len(ordered))
    shares = {seat: (base + (1 if i < odd else 0)) * chip_unit for i, seat in enumerate(ordered)}
    return {seat: shares[seat] for seat in clockwise}


def forced_bets(chips: int, ante: int, blind: int = 0) -> tuple[int, int]:
    """What a player with ``chips`` posts as (ante, blind) when the level asks for ``ante`` and
    ``blind`` (RULES 6.6): a player too short for both covers the ante first, the rest (up to
    the blind) is the blind."""
    posted_ante = max(0, min(chips, ante))
    return posted_ante, max(0, min(chips - posted_ante, blind))


def _validate(players: Sequence[HandPlayer], button_seat: int, chip_unit: int) -> list[HandPlayer]:
    if not _is_int(chip_unit) or chip_unit < 1:
        raise _error("bad_chip_unit", MSG_BAD_CHIP_UNIT, chip_unit=chip_unit)
    if not _is_int(button_seat) or button_seat < 1:
        raise _error("bad_button", MSG_BAD_BUTTON, button_seat=button_seat)
    players = list(players)
    if len(players) < 2:
        raise _error("too_few_players", MSG_TOO_FEW_PLAYERS)
    seen: set[int] = set()
    for p in players:
        if not _is_int(p.seat) or p.seat < 1:
            raise _error("bad_seat", MSG_BAD_SEAT, seat=p.seat)
        if p.seat in seen:
            raise _error("duplicate_seat", MSG_DUPLICATE_SEAT, seat=p.seat)
        seen.add(p.seat)
        if not _is_int(p.committed) or p.committed < 0:
            raise _error("bad_committed", MSG_BAD_COMMITTED, seat=p.seat)
        if p.committed % chip_unit:
            raise _error("not_chip_unit", MSG_NOT_CHIP_UNIT, seat=p.seat, committed=p.committed)
        if not _is_int(p.ante) or p.ante < 0:
            raise _error("bad_ante", MSG_BAD_ANTE, seat=p.seat)
        if p.ante % chip_unit:
            raise _error("not_chip_unit", MSG_ANTE_NOT_CHIP_UNIT, seat=p.seat, ante=p.ante)
        if p.rank is not None and (not _is_int(p.rank) or p.rank < 1):
            raise _error("bad_rank", MSG_BAD_RANK, seat=p.seat)
    if all(p.folded for p in players):
        raise _error("no_live_player", MSG_NO_LIVE_PLAYER)
    return players


def _showdown_strengths(
    players: list[HandPlayer], board: str | None
) -> tuple[dict[int, int], dict[int, HandInfo]]:
    """Strength per live seat (lower is better) and the shown hands. RULES 6.4."""
    live = [p for p in players if not p.folded]
    with_cards = sum(p.cards is not None for p in live)
    with_rank = sum(p.rank is not None for p in live)
    holes: dict[int, tuple[str, ...]] = {}
    for p in players:
        if p.cards is not None:
            hole = parse_cards(p.cards)
            if len(hole) != 2:
                raise _error("bad_hole_cards", MSG_BAD_HOLE_CARDS, seat=p.seat)
            holes[p.seat] = hole
    board_cards = parse_cards(board) if board is not None else ()
    ensure_distinct([c for hole in holes.values() for c in hole] + list(board_cards))

    if with_cards == len(live) and with_rank == 0:
        if len(board_cards) != 5:
            raise _error("bad_board", MSG_BAD_BOARD, board=board)
        strengths: dict[int, int] = {}
        hands: dict[int, HandInfo] = {}
        for p in live:
            strengths[p.seat], hands[p.seat] = evaluate_hand(holes[p.seat], board_cards)
        return strengths, hands
    if with_rank == len(live) and with_cards == 0:
        return {p.seat: p.rank for p in live if p.rank is not None}, {}
    if len(live) == 1 and with_cards == 0 and with_rank == 0:
        return {live[0].seat: 1}, {}  # everyone else folded: no showdown
    raise _error("showdown_mixed", MSG_SHOWDOWN_MIXED)


def settle(
    *,
    players: Sequence[HandPlayer],
    button_seat: int,
    chip_unit: int = 1,
    board: str | None = None,
) -> Settlement:
    """Settle one hand: RULES 6.2 (uncalled chips), 6.3 (pots), 6.4 (showdown), 6.5 (splits),
    6.6 (antes).

    Raises DomainError (400) for bad input: fewer than two players, duplicate or bad seats,
    a negative or non-unit commitment or ante (``not_chip_unit``), no live player, mixed cards
    and ranks, bad or duplicate cards, a board that is not five cards when cards are shown.
    """
    players = _validate(players, button_seat, chip_unit)
    strengths, hands = _showdown_strengths(players, board)
    live = {p.seat for p in players if not p.folded}

    # RULES 6.2: the single top commitment above the second-highest goes back unmatched
    # (antes are no commitment: RULES 6.6).
    committed = {p.seat: p.committed for p in players}
    by_size = sorted(players, key=lambda p: p.committed, reverse=True)
    returned: dict[int, int] = {}
    excess = by_size[0].committed - by_size[1].committed
    if excess > 0:
        returned[by_size[0].seat] = excess
        committed[by_size[0].seat] = by_size[1].committed

    layers = _layers(committed, live)
    layers = _with_antes(layers, sum(p.ante for p in players), committed, live)

    # RULES 6.4 and 6.5: best hands among the eligible, each pot split on its own, from the
    # last side pot back to the main pot, one odd unit per player per hand.
    payouts: dict[int, int] = dict(returned)
    had_odd: set[int] = set()
    pots: list[Pot] = []
    for amount, eligible in reversed(layers):
        best = min(strengths[s] for s in eligible)
        winners = tuple(s for s in eligible if strengths[s] == best)
        shares = split_pot(amount, winners, button_seat, chip_unit, had_odd)
        fair = (amount // chip_unit // len(winners)) * chip_unit
        had_odd.update(seat for seat, share in shares.items() if share > fair)
        for seat, share in shares.items():
            payouts[seat] = payouts.get(seat, 0) + share
        pots.append(Pot(amount=amount, eligible=eligible, winners=winners, shares=shares))
    pots.reverse()  # the main pot first

    return Settlement(
        returned=returned,
        pots=tuple(pots),
        payouts={seat: payouts[seat] for seat in sorted(payouts) if payouts[seat]},
        hands=dict(sorted(hands.items())),
    )


def _layers(committed: dict[int, int], live: set[int]) -> list[tuple[int, tuple[int, ...]]]:
    """RULES 6.3: layer by the live players' commitments; folded chips fill what they reach."""
    levels = sorted({committed[s] for s in live if committed[s] > 0})
    if max(committed.values()) > (levels[-1] if levels else 0):
        raise _error("unreachable_chips", MSG_UNREACHABLE_CHIPS)
    layers: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed.values())
        # Only live commitments are boundaries, so each layer's eligible set is smaller than
        # the one before: "consecutive layers with the same eligible players" are one already.
        layers.append((amount, tuple(sorted(s for s in live if committed[s] >= level))))
        previous = level
    return layers


def _with_antes(
    layers: list[tuple[int, tuple[int, ...]]], antes: int, committed: dict[int, int], live: set[int]
) -> list[tuple[int, tuple[int, ...]]]:
    """RULES 6.6: the antes join the main pot, contested by every player who has not folded;
    when one of those put in nothing beyond the ante, they are a pot of their own ahead of it."""
    if not antes:
        return layers
    everyone = tuple(sorted(live))
    if layers and layers[0][1] == everyone:
        return [(layers[0][0] + antes, everyone), *layers[1:]]
    return [(antes, everyone), *layers]
