"""Floor tools, stateless (no tournament): pots and payouts of one hand (RULES 6), a color-up
with the odd-chip race (RULES 5), ICM deal equities (RULES 8.3). The desk may use them."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from ninja import Field, Router, Schema

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import MAX_CHIPS, MAX_MONEY, int_key
from tourney.engine import chip_race, icm, pots
from tourney.engine.errors import DomainError

router = Router(tags=["floor"], **out.ROUTER_OPTIONS)

MSG_SEED_AND_CARDS = "Give either the cards the dealer dealt or a seed, not both."


class SettlePlayer(Schema):
    seat: int = Field(ge=1, le=100)
    committed: int = Field(ge=0, le=MAX_CHIPS)
    folded: bool = False
    cards: str | None = Field(default=None, max_length=4)
    rank: int | None = Field(default=None, ge=1, le=100)
    # RULES 6.6: chips posted as an ante (a classic ante, or the big blind's big-blind ante),
    # dead money apart from ``committed``; omitted means 0.
    ante: int = Field(default=0, ge=0, le=MAX_CHIPS)


class SettleIn(Schema):
    button_seat: int = Field(ge=1, le=100)
    chip_unit: int = Field(default=1, ge=1, le=MAX_CHIPS)
    board: str | None = Field(default=None, max_length=10)
    players: list[SettlePlayer] = Field(min_length=1, max_length=23)


@router.post(
    "/floor/settle",
    auth=api_auth.DESK,
    response=out.SettleOut,
    summary="Pots and payouts of one hand (RULES 6)",
)
def floor_settle(request, payload: SettleIn):
    result = pots.settle(
        players=[
            pots.HandPlayer(
                seat=p.seat,
                committed=p.committed,
                folded=p.folded,
                cards=p.cards,
                rank=p.rank,
                ante=p.ante,
            )
            for p in payload.players
        ],
        button_seat=payload.button_seat,
        chip_unit=payload.chip_unit,
        board=payload.board,
    )
    body: dict[str, Any] = {
        "returned": {str(k): v for k, v in result.returned.items()},
        "pots": [
            {
                "amount": p.amount,
                "eligible": list(p.eligible),
                "winners": list(p.winners),
                "shares": {str(k): v for k, v in p.shares.items()},
            }
            for p in result.pots
        ],
        "payouts": {str(k): v for k, v in result.payouts.items()},
    }
    if result.hands:
        body["hands"] = {
            str(k): {"category": h.category, "best_five": list(h.best_five)}
            for k, h in result.hands.items()
        }
    return body


class RacePlayerIn(Schema):
    seat: int = Field(ge=1, le=100)
    chips: dict[str, int]


class ChipRaceIn(Schema):
    denominations: list[Annotated[int, Field(ge=1, le=MAX_CHIPS)]] = Field(
        min_length=2, max_length=20
    )
    remove: int = Field(ge=1, le=MAX_CHIPS)
    threshold: Literal["half_or_more", "more_than_half"] = "half_or_more"
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    cards: dict[str, list[str]] | None = None
    players: list[RacePlayerIn] = Field(min_length=1, max_length=23)


@router.post(
    "/floor/chip-race",
    auth=api_auth.DESK,
    response=out.ChipRaceOut,
    summary="Color-up with the odd-chip race (RULES 5)",
)
def floor_chip_race(request, payload: ChipRaceIn):
    if payload.cards is not None and payload.seed is not None:
        raise DomainError("no_deal", MSG_SEED_AND_CARDS, fields={"seed": payload.seed})
    players = []
    for p in payload.players:
        chips: dict[int, int] = {}
        seen: dict[int, str] = {}
        for k, v in p.chips.items():
            if not 0 <= v <= 10**6:
                raise DomainError(
                    "bad_input",
                    "Chip counts are between 0 and 1,000,000.",
                    fields={f"players.{p.seat}.chips.{k}": v},
                )
            chips[int_key(k, "chips", seen, MAX_CHIPS)] = v
        players.append(chip_race.RacePlayer(seat=p.seat, chips=chips))
    cards = None
    rng = None
    seed = None
    if payload.cards is not None:
        seen = {}
        cards = {int_key(k, "cards", seen, 100): tuple(v) for k, v in payload.cards.items()}
    else:
        # A drawn seed is answered too, so that the race can be replayed (RULES 1.1).
        seed = payload.seed if payload.seed is not None else random.SystemRandom().getrandbits(62)
        rng = random.Random(seed)
    result = chip_race.color_up(
        denominations=payload.denominations,
        remove=payload.remove,
        players=players,
        threshold=payload.threshold,
        rng=rng,
        cards=cards,
    )
    return {**chip_race.race_to_dict(result), "seed": seed}


class IcmIn(Schema):
    stacks: list[Annotated[int, Field(ge=0, le=MAX_CHIPS)]] = Field(min_length=1, max_length=14)
    payouts: list[float] = Field(min_length=1, max_length=100)


@router.post(
    "/floor/icm",
    auth=api_auth.DESK,
    response=out.IcmOut,
    summary="ICM deal equities (RULES 8.3)",
)
def floor_icm(request, payload: IcmIn):
    if any(p < 0 or p > MAX_MONEY for p in payload.payouts):
        raise DomainError(
            "bad_input", "Payouts are between 0 and 10^13.", fields={"payouts": "out of range"}
        )
    return {"equities": icm.icm_equities(payload.stacks, payload.payouts)}
