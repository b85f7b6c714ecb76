"""Bounties: the split of a bounty buy-in, knockouts, progressive knockouts (PKO) and mystery
bounties (RULES 9).

Pure Python: no Django. Money is an ``int`` in the currency's smallest unit (cents); the
randomness of the mystery draw comes in as a ``random.Random`` (seeded from the recorded seed,
so the same seed draws the same envelopes).

How the rules are read here:

* RULES 9.1: a bounty event's buy-in is three parts, prize pool + bounty + fee; the bounty
  part never reaches the prize pool. Each entry (a re-entry too) carries a new bounty: the
  bounty part on its head for fixed and PKO, nothing on its head for mystery (the bounty parts
  are the envelopes' money) and for no bounty.
* RULES 9.2 (fixed): the eliminator takes the busted entry's whole bounty in cash.
* RULES 9.3 (PKO): of what an eliminator takes, ``cash_percent`` % (50 by default) is paid in
  cash, rounded down to the unit; the rest, the odd unit included, is added to the
  eliminator's own bounty, so nothing leaves play by rounding.
* RULES 9.4 (mystery): once the players still in *before the hand* are at most
  ``mystery_from_players``, each player busted draws one envelope (each envelope left equally
  likely) and the amount is paid in cash to the eliminator(s); busts before that pay nothing.
  The busts of one hand draw in order of entry id, so a replay draws the same. Needing an
  envelope when none is left is refused (``no_envelopes_left``).
* RULES 9.5: several winners of the pot that busted a player share the bounty equally in the
  smallest unit; the odd units go one each by table, then seat, then entry id: the rule of
  tied places' remainders (RULES 7.2, ``payouts.place_prizes``, used here as is). In PKO each
  winner's part is then split into cash and head as in 9.3.
* RULES 9.6: several players busted in one hand by one winner each pay that winner in full.
* RULES 9.7: when different players won different pots, the bounty goes to the winner(s) of
  the pot the busted player was last eligible for: the last side pot that included them, the
  one holding their last chips (``bounty_takers``). Source: PokerStars Help, "Winning
  tournament bounties" (article 10743: the bounty goes to the winner of "the pot in which the
  bounty player was all-in for their final chips"); bwin Poker, "Progressive Knockouts"
  (multi-way pots: a winner who does not cover the busted player does not take the bounty,
  the winner of the side pot against them does).
* RULES 9.8: the last player left wins their own bounty, in PKO the whole of it in cash; in
  a mystery event they take every envelope still left.
* RULES 9.11: ``revert_award`` puts the heads back exactly as ``apply_award`` changed them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tourney.engine.errors import N_, DomainError
from tourney.engine.payouts import place_prizes
from tourney.engine.pots import Pot

NONE = "none"
FIXED = "fixed"
PROGRESSIVE = "progressive"
MYSTERY = "mystery"
BOUNTY_TYPES = (NONE, FIXED, PROGRESSIVE, MYSTERY)
DEFAULT_CASH_PERCENT = 50  # RULES 9.3: half in cash, half on the eliminator's head

MSG_UNKNOWN_TYPE = N_("The bounty type must be one of: none, fixed, progressive, mystery.")
MSG_BAD_AMOUNT = N_("Money amounts must be whole amounts, zero or more.")
MSG_BAD_BOUNTY = N_(
    "A bounty event needs a bounty of at least one unit; without bounties the bounty is 0."
)
MSG_BAD_SPLIT = N_("The prize pool, bounty and fee parts must be whole amounts, zero or more.")
MSG_BAD_SHARE = N_("The cash share of a progressive bounty must be a whole percent from 0 to 100.")
MSG_BAD_STAGE = N_("The mystery bounties' stage must be a whole number of players, 1 or more.")
MSG_NO_WINNER = N_("Every player busted needs at least one winner of the pot that busted them.")
MSG_BAD_WINNER = N_("A winner needs an entry id and table and seat numbers of zero or more.")
MSG_DUPLICATE_ENTRY = N_("The same entry is listed more than once.")
MSG_WINNER_BUSTED = N_("A player busted in the hand cannot also be one of its winners.")
MSG_BAD_ENVELOPES = N_(
    "An envelope set lists amounts of at least one unit, each with a count of zero or more."
)
MSG_NO_ENVELOPES_LEFT = N_("No mystery bounty envelope is left to draw.")
MSG_ENVELOPES_DO_NOT_ADD_UP = N_("The envelopes must add up exactly to the bounty money.")
MSG_NO_RNG = N_("A mystery bounty draw needs the tournament's recorded random source.")
MSG_NOT_IN_POT = N_("The player busted was not eligible for any pot of the hand.")
MSG_BOUNTY_MISMATCH = N_("The bounty busted is not the bounty on that player's head.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _amount(name: str, value: object) -> int:
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise DomainError("bad_amount", MSG_BAD_AMOUNT, fields={name: value})
    return value  # type: ignore[return-value]


def _check_kind(kind: object) -> None:
    if kind not in BOUNTY_TYPES:
        raise DomainError("unknown_bounty_type", MSG_UNKNOWN_TYPE, fields={"kind": kind})


# --------------------------------------------------------------------------- RULES 9.1


@dataclass(frozen=True, slots=True)
class BountySettings:
    """A tournament's bounty setup (RULES 9.1). ``bounty`` is the bounty part of each buy-in;
    ``cash_percent`` the cash share of a PKO knockout; ``mystery_from_players`` the stage of
    the mystery draws (players still in before the hand)."""

    kind: str = NONE
    bounty: int = 0
    cash_percent: int = DEFAULT_CASH_PERCENT
    mystery_from_players: int = 1

    def __post_init__(self) -> None:
        _check_kind(self.kind)
        _amount("bounty", self.bounty)
        if (self.kind == NONE) != (self.bounty == 0):
            raise DomainError(
                "bad_bounty", MSG_BAD_BOUNTY, fields={"kind": self.kind, "bounty": self.bounty}
            )
        if not _is_int(self.cash_percent) or not 0 <= self.cash_percent <= 100:
            raise DomainError(
                "bad_share", MSG_BAD_SHARE, fields={"cash_percent": self.cash_percent}
            )
        if not _is_int(self.mystery_from_players) or self.mystery_from_players < 1:
            raise DomainError(
                "bad_stage",
                MSG_BAD_STAGE,
                fields={"mystery_from_players": self.mystery_from_players},
            )


@dataclass(frozen=True, slots=True)
class BuyInSplit:
    """The parts of one buy-in (RULES 9.1): the price is their sum."""

    prize_pool: int
    bounty: int
    fee: int

    @property
    def price(self) -> int:
        return self.prize_pool + self.bounty + self.fee


def buy_in_parts(*, settings: BountySettings, prize_pool: int, fee: int) -> BuyInSplit:
    """The buy-in from its prize-pool part and fee, with the settings' bounty (RULES 9.1)."""
    _amount("prize_pool", prize_pool)
    _amount("fee", fee)
    return BuyInSplit(prize_pool=prize_pool, bounty=settings.bounty, fee=fee)


def split_buy_in(*, settings: BountySettings, price: int, fee: int) -> BuyInSplit:
    """A buy-in's ``price`` split into prize pool, bounty and fee (RULES 9.1). Refused
    (``bad_split``) when the bounty and fee are more than the price."""
    _amount("price", price)
    _amount("fee", fee)
    prize = price - settings.bounty - fee
    if prize < 0:
        raise DomainError(
            "bad_split",
            MSG_BAD_SPLIT,
            fields={"price": price, "bounty": settings.bounty, "fee": fee},
        )
    return BuyInSplit(prize_pool=prize, bounty=settings.bounty, fee=fee)


def starting_bounty(settings: BountySettings) -> int:
    """The bounty on a new entry's head (RULES 9.1): fixed and PKO the bounty part, mystery
    and none nothing (a mystery bounty is drawn, RULES 9.4)."""
    return settings.bounty if settings.kind in (FIXED, PROGRESSIVE) else 0


# --------------------------------------------------------------------------- RULES 9.4


def check_envelopes(envelopes: Mapping[int, int], *, total: int | None = None) -> dict[int, int]:
    """The envelope set as ``{amount: count}``, amounts ascending, empty counts left out.
    With ``total``, the envelopes must add up to exactly that (``envelopes_do_not_add_up``)."""
    try:
        items = sorted(envelopes.items())
    except (AttributeError, TypeError):
        raise DomainError("bad_envelopes", MSG_BAD_ENVELOPES) from None
    for amount, count in items:
        if not (_is_int(amount) and _is_int(count)) or amount < 1 or count < 0:
            raise DomainError(
                "bad_envelopes", MSG_BAD_ENVELOPES, fields={"amount": amount, "count": count}
            )
    clean = {amount: count for amount, count in items if count}
    if total is not None and envelope_total(clean) != _amount("total", total):
        raise DomainError(
            "envelopes_do_not_add_up",
            MSG_ENVELOPES_DO_NOT_ADD_UP,
            fields={"envelopes": envelope_total(clean), "total": total},
        )
    return clean


def envelope_total(envelopes: Mapping[int, int]) -> int:
    """The money in an envelope set."""
    return sum(amount * count for amount, count in envelopes.items())


def draw_envelope(envelopes: Mapping[int, int], rng: random.Random) -> tuple[int, dict[int, int]]:
    """One envelope drawn from the set, each envelope left equally likely (RULES 9.4): its
    amount and the set left. Refused (``no_envelopes_left``) when the set is empty."""
    left = check_envelopes(envelopes)
    count = sum(left.values())
    if count == 0:
        raise DomainError("no_envelopes_left", MSG_NO_ENVELOPES_LEFT)
    pick = rng.randrange(count)
    for amount, n in left.items():
        if pick < n:
            left[amount] -= 1
            return amount, {a: c for a, c in left.items() if c}
        pick -= n
    raise AssertionError("unreachable: pick < count")  # pragma: no cover


def mystery_draw_due(*, settings: BountySettings, players_before: int) -> bool:
    """Whether a bust in a hand begun with ``players_before`` players still in draws an
    envelope (RULES 9.4)."""
    _amount("players_before", players_before)
    return settings.kind == MYSTERY and players_before <= settings.mystery_from_players


# --------------------------------------------------------------------------- RULES 9.5-9.8


@dataclass(frozen=True, slots=True)
class Winner:
    """A winner of the pot that busted a player, with where they sit (for the odd units)."""

    entry: int
    table: int = 0
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Bust:
    """One player busted in the hand: the entry, the bounty on its head, the winner(s) of the
    pot it was last eligible for (``bounty_takers``)."""

    entry: int
    bounty: int
    winners: tuple[Winner, ...]


@dataclass(frozen=True, slots=True)
class Payment:
    """What one winner gets from one busted entry's bounty: ``cash`` paid now, ``to_head``
    added to the winner's own bounty (PKO)."""

    busted: int
    winner: int
    cash: int
    to_head: int


@dataclass(frozen=True, slots=True)
class Draw:
    """A mystery envelope drawn for a busted entry (or taken by the last player)."""

    busted: int
    amount: int


@dataclass(frozen=True, slots=True)
class Award:
    """The bounties of one hand. ``removed`` is the bounty taken off each busted entry's head,
    ``added`` what each winner's head gains; ``envelopes`` the set left after the draws."""

    payments: tuple[Payment, ...] = ()
    removed: dict[int, int] = field(default_factory=dict)
    added: dict[int, int] = field(default_factory=dict)
    draws: tuple[Draw, ...] = ()
    envelopes: dict[int, int] = field(default_factory=dict)

    @property
    def cash(self) -> int:
        return sum(p.cash for p in self.payments)

    def cash_by_winner(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for p in self.payments:
            out[p.winner] = out.get(p.winner, 0) + p.cash
        return out


def _check_busts(busts: Sequence[Bust]) -> list[Bust]:
    busted: set[int] = set()
    for bust in busts:
        _amount("bounty", bust.bounty)
        if not _is_int(bust.entry) or bust.entry in busted:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": bust.entry})
        busted.add(bust.entry)
    for bust in busts:
        if not bust.winners:
            raise DomainError("no_winner", MSG_NO_WINNER, fields={"entry": bust.entry})
        seen: set[int] = set()
        for w in bust.winners:
            if not all(_is_int(v) for v in (w.entry, w.table, w.seat)) or w.table < 0 or w.seat < 0:
                raise DomainError("bad_winner", MSG_BAD_WINNER, fields={"winner": repr(w)})
            if w.entry in busted:
                raise DomainError("winner_busted", MSG_WINNER_BUSTED, fields={"entry": w.entry})
            if w.entry in seen:
                raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": w.entry})
            seen.add(w.entry)
    return sorted(busts, key=lambda b: b.entry)


def split_among(amount: int, winners: Sequence[Winner]) -> dict[int, int]:
    """``amount`` shared equally by ``winners`` in the smallest unit, the odd units one each by
    table, then seat, then entry (RULES 9.5, the remainder rule of tied places, RULES 7.2)."""
    _amount("amount", amount)
    k = len(winners)
    return place_prizes(
        prizes=(amount,), finishers=[(w.entry, 1, k, w.table, w.seat) for w in winners]
    )


def _payments(bust: Bust, amount: int, settings: BountySettings) -> list[Payment]:
    parts = split_among(amount, bust.winners)
    order = sorted(bust.winners, key=lambda w: (w.table, w.seat, w.entry))
    out = []
    for w in order:
        part = parts[w.entry]
        cash = part * settings.cash_percent // 100 if settings.kind == PROGRESSIVE else part
        out.append(Payment(busted=bust.entry, winner=w.entry, cash=cash, to_head=part - cash))
    return out


def award_hand(
    *,
    settings: BountySettings,
    busts: Sequence[Bust],
    players_before: int = 0,
    envelopes: Mapping[int, int] | None = None,
    rng: random.Random | None = None,
) -> Award:
    """The bounties of one elimination hand (RULES 9.2-9.6).

    Fixed: each bust's whole ``bounty`` goes in cash to its winner(s). PKO: each winner's part
    is ``cash_percent`` % cash (rounded down), the rest on their head. Mystery: when the hand
    began with at most ``mystery_from_players`` players still in (``players_before``), each
    bust (by entry id) draws one envelope from ``envelopes`` with ``rng``, paid in cash to its
    winner(s); earlier busts pay nothing. None: nothing. Several winners share by
    ``split_among``. Bad input: ``bad_amount``, ``duplicate_entry``, ``no_winner``,
    ``bad_winner``, ``winner_busted``, ``no_envelopes_left``, ``no_rng``.
    """
    ordered = _check_busts(busts)
    left = check_envelopes(envelopes or {})
    removed = {b.entry: b.bounty for b in ordered}
    if settings.kind == NONE:
        return Award(removed=removed, envelopes=left)
    payments: list[Payment] = []
    draws: list[Draw] = []
    due = mystery_draw_due(settings=settings, players_before=players_before)
    for bust in ordered:
        if settings.kind != MYSTERY:
            payments += _payments(bust, bust.bounty, settings)
        elif due:
            if rng is None:
                raise DomainError("no_rng", MSG_NO_RNG)
            amount, left = draw_envelope(left, rng)
            draws.append(Draw(busted=bust.entry, amount=amount))
            payments += _payments(bust, amount, settings)
    added: dict[int, int] = {}
    for p in payments:
        if p.to_head:
            added[p.winner] = added.get(p.winner, 0) + p.to_head
    return Award(tuple(payments), removed, added, tuple(draws), left)


def award_last_player(
    *,
    settings: BountySettings,
    entry: int,
    bounty: int,
    envelopes: Mapping[int, int] | None = None,
) -> Award:
    """The last player left wins their own bounty (RULES 9.8): fixed and PKO the whole
    ``bounty`` on their head in cash; mystery every envelope still left."""
    _amount("bounty", bounty)
    left = check_envelopes(envelopes or {})
    removed = {entry: bounty}
    if settings.kind == NONE:
        return Award(removed=removed, envelopes=left)
    if settings.kind != MYSTERY:
        return Award((Payment(entry, entry, bounty, 0),), removed)
    draws = tuple(Draw(entry, amount) for amount, n in left.items() for _ in range(n))
    payment = Payment(entry, entry, envelope_total(left), 0)
    return Award((payment,), removed, {}, draws, {})


def award_deal(
    *,
    settings: BountySettings,
    heads: Mapping[int, int],
    players: Sequence[Winner],
    envelopes: Mapping[int, int] | None = None,
) -> Award:
    """A deal that includes the bounties (RULES 9.10): the bounty money still in play is paid
    out now, and no bounty is won after it. Fixed and PKO: each player still in takes the
    bounty on their own head, whole, in cash. Mystery: the envelopes left are shared equally
    by the players (``split_among``: the odd units by table, then seat)."""
    left = check_envelopes(envelopes or {})
    ids = [w.entry for w in players]
    if len(set(ids)) != len(ids):
        raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"players": ids})
    removed = {e: _amount("bounty", heads.get(e, 0)) for e in ids}
    if settings.kind == NONE:
        return Award(removed=removed, envelopes=left)
    if settings.kind != MYSTERY:
        payments = tuple(Payment(e, e, removed[e], 0) for e in sorted(ids) if removed[e])
        return Award(payments, removed, envelopes=left)
    shares = split_among(envelope_total(left), players) if players else {}
    payments = tuple(Payment(e, e, shares[e], 0) for e in sorted(ids) if shares.get(e))
    return Award(payments, removed, envelopes={})


def bounty_takers(*, seat: int, pots: Iterable[Pot]) -> tuple[int, ...]:
    """The seats that take the bounty of the player busted at ``seat`` (RULES 9.7): the
    winners of the last pot (main pot first, as ``pots.settle`` lists them) the player was
    eligible for. Refused (``not_in_pot``) when they were eligible for none."""
    takers: tuple[int, ...] | None = None
    for pot in pots:
        if seat in pot.eligible:
            takers = pot.winners
    if takers is None:
        raise DomainError("not_in_pot", MSG_NOT_IN_POT, fields={"seat": seat})
    if seat in takers:
        raise DomainError("winner_busted", MSG_WINNER_BUSTED, fields={"seat": seat})
    return tuple(takers)


# --------------------------------------------------------------------------- RULES 9.10-9.11


def apply_award(heads: Mapping[int, int], award: Award) -> dict[int, int]:
    """The bounties on the heads still in play after ``award``: the busted entries leave,
    each winner's head gains its ``added`` (RULES 9.3). ``heads`` must hold the busted
    entries' bounties as busted (``bounty_mismatch``)."""
    out = dict(heads)
    for entry, bounty in award.removed.items():
        if out.get(entry) != bounty:
            raise DomainError(
                "bounty_mismatch",
                MSG_BOUNTY_MISMATCH,
                fields={"entry": entry, "bounty": bounty, "on_head": out.get(entry)},
            )
        del out[entry]
    for entry, amount in award.added.items():
        out[entry] = out.get(entry, 0) + amount
    return out


def revert_award(heads: Mapping[int, int], award: Award) -> dict[int, int]:
    """Undo (RULES 9.11): the heads exactly as they were before ``apply_award``."""
    out = dict(heads)
    for entry, amount in award.added.items():
        out[entry] = out.get(entry, 0) - amount
        if out[entry] < 0:
            raise DomainError(
                "bounty_mismatch",
                MSG_BOUNTY_MISMATCH,
                fields={"entry": entry, "on_head": out[entry]},
            )
    for entry, bounty in award.removed.items():
        out[entry] = bounty
    return out


def returned_envelopes(envelopes: Mapping[int, int], award: Award) -> dict[int, int]:
    """Undo of a mystery award (RULES 9.11): the envelopes it drew back into the set."""
    left = dict(check_envelopes(envelopes))
    for draw in award.draws:
        left[draw.amount] = left.get(draw.amount, 0) + 1
    return dict(sorted(left.items()))


def bounty_money_in_play(heads: Mapping[int, int], envelopes: Mapping[int, int]) -> int:
    """The bounty money not yet paid (RULES 9.10): on heads still in play plus envelopes left;
    what a deal may include when the director includes bounties."""
    return sum(_amount("bounty", b) for b in heads.values()) + envelope_total(
        check_envelopes(envelopes)
    )
