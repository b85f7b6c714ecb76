"""API v1 endpoints for money (mounted by tourney/api/__init__): rebuys, add-ons, re-entries, the
money summary, payout tables and their freeze, deals (RULES 7.2, 8). Thin: check the role,
validate the schema, call one service in tourney/services/money.py, shape the answer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Field, Router, Schema, Status

from tourney import services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import (
    MAX_CHIPS,
    MAX_MONEY,
    desk_tournament,
    need_desk,
    need_director,
    seat_of,
    tournament_or_404,
)
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import Entry
from tourney.selectors import money as money_reads
from tourney.services import money

router = Router(tags=["money"], **out.ROUTER_OPTIONS)

MAX_DEAL_PLAYERS = 100

MSG_BAD_STACKS_QUERY = (
    "Give stacks as entry:chips pairs separated by commas, e.g. stacks=81:50000,90:30000."
)
MSG_AMOUNT_RANGE = "Amounts are whole numbers between 0 and 10^13."
MSG_STACK_RANGE = "Stacks are whole numbers of chips between 1 and 10^12."


def entry_money(e: Entry) -> dict[str, Any]:
    return {
        "id": e.pk,
        "number": e.number,
        "name": e.player.name,
        "status": e.status,
        "paid": e.paid,
        "fee_paid": e.fee_paid,
        "rebuys": e.rebuys,
        "addons": e.addons,
        "chips_bought": e.chips_bought,
        # RULES 9.1: the bounty on the entry's head now and the bounty money it won in cash
        "bounty": e.bounty,
        "bounty_won": e.bounty_won,
    }


def _bought(e: Entry, tid: int) -> dict[str, Any]:
    """A rebuy's or an add-on's answer: the entry's money and the prize pool after it."""
    return {**entry_money(e), "prize_pool": money_reads.pool_of(tournament_or_404(tid))}


# ---------------------------------------------------------------- rebuy, add-on, re-entry


@router.post(
    "/tournaments/{tid}/entries/{eid}/rebuy",
    auth=api_auth.DESK,
    response=out.EntryMoneyOut,
    summary="Rebuy (RULES 4.4, 8.1)",
)
def rebuy_create(request, tid: int, eid: int):
    need_desk(request)
    e = money.entry_rebuy(tournament_id=tid, entry_id=eid, actor=request.user)
    return _bought(e, tid)


@router.post(
    "/tournaments/{tid}/entries/{eid}/addon",
    auth=api_auth.DESK,
    response=out.EntryMoneyOut,
    summary="Add-on (RULES 4.4, 8.1)",
)
def addon_create(request, tid: int, eid: int):
    need_desk(request)
    e = money.entry_addon(tournament_id=tid, entry_id=eid, actor=request.user)
    return _bought(e, tid)


@router.post(
    "/tournaments/{tid}/entries/{eid}/reenter",
    auth=api_auth.DESK,
    response={201: out.ReentryOut},
    summary="Re-entry of a busted entry: a new entry of the same player",
)
def reentry_create(request, tid: int, eid: int):
    need_desk(request)
    e = services.entry_reenter(tournament_id=tid, entry_id=eid, actor=request.user)
    e = Entry.objects.select_related("player").get(pk=e.pk)
    return Status(
        201,
        {
            **entry_money(e),
            "reentry_of": eid,
            **seat_of(e),
            "prize_pool": money_reads.pool_of(e.tournament),
        },
    )


# ---------------------------------------------------------------- summary and payout tables


@router.get(
    "/tournaments/{tid}/money",
    auth=api_auth.DESK,
    response=out.MoneyOut,
    summary="Prize pool, prizes and the bubble",
)
def money_get(request, tid: int):
    return money_reads.money_summary(desk_tournament(request, tid))


class PayoutsIn(Schema):
    percentages: list[int] | None = Field(default=None, max_length=money.MAX_PLACES)
    rounding_unit: int | None = Field(default=None, ge=1, le=10**9)


@router.put(
    "/tournaments/{tid}/payouts",
    auth=api_auth.DIRECTOR,
    response=out.MoneyOut,
    summary="Set the payout table (RULES 8.2)",
)
def payouts_put(request, tid: int, payload: PayoutsIn):
    need_director(request)
    money.payouts_set(
        tournament_id=tid,
        percentages=payload.percentages,
        rounding_unit=payload.rounding_unit,
        actor=request.user,
    )
    return money_reads.money_summary(tournament_or_404(tid))


@router.post(
    "/tournaments/{tid}/payouts/freeze",
    auth=api_auth.DIRECTOR,
    response=out.MoneyOut,
    summary="Freeze the prizes (RULES 8.2)",
)
def payouts_freeze(request, tid: int):
    need_director(request)
    money.payouts_freeze(tournament_id=tid, actor=request.user)
    return money_reads.money_summary(tournament_or_404(tid))


# ---------------------------------------------------------------- deals (RULES 8.3)


def _parse_stacks(text: str) -> dict[int, int]:
    stacks: dict[int, int] = {}
    try:
        for part in text.split(","):
            entry, chips = part.split(":")
            stacks[int(entry)] = int(chips)
    except ValueError:
        raise DomainError(
            "bad_input", MSG_BAD_STACKS_QUERY, fields={"stacks": MSG_BAD_STACKS_QUERY}
        ) from None
    if len(stacks) > MAX_DEAL_PLAYERS or not all(1 <= v <= MAX_CHIPS for v in stacks.values()):
        raise DomainError("bad_input", MSG_STACK_RANGE, fields={"stacks": MSG_STACK_RANGE})
    return stacks


@router.get(
    "/tournaments/{tid}/deal",
    auth=api_auth.DESK,
    response=out.DealQuoteOut,
    summary="Deal quote: ICM and chip chop (RULES 8.3)",
)
def deal_get(request, tid: int, stacks: str | None = None):
    """Without ``stacks``: the players still in and the unpaid prizes. With
    ``stacks=81:50000,90:30000`` (one per player still in): ICM and chip-chop amounts."""
    t = desk_tournament(request, tid)
    return money_reads.deal_quote(t, None if stacks is None else _parse_stacks(stacks))


class DealIn(Schema):
    method: Literal["icm", "chip_chop", "custom"]
    amounts: dict[str, int] = Field(min_length=2, max_length=MAX_DEAL_PLAYERS)
    stacks: dict[str, int] | None = Field(default=None, max_length=MAX_DEAL_PLAYERS)
    # RULES 8.3: the entries of the players who agreed; every player still in must be here.
    agreed: list[Annotated[int, Field(ge=1, le=MAX_ID)]] = Field(
        default_factory=list, max_length=MAX_DEAL_PLAYERS
    )
    # RULES 9.10: the bounties still in play are shared too (each player takes their own)
    include_bounties: bool = False


@router.post(
    "/tournaments/{tid}/deal",
    auth=api_auth.DIRECTOR,
    response=out.DealOut,
    summary="Record a deal (RULES 8.3)",
)
def deal_post(request, tid: int, payload: DealIn):
    need_director(request)
    if not all(0 <= v <= MAX_MONEY for v in payload.amounts.values()):
        raise DomainError("bad_input", MSG_AMOUNT_RANGE, fields={"amounts": MSG_AMOUNT_RANGE})
    if payload.stacks is not None and not all(1 <= v <= MAX_CHIPS for v in payload.stacks.values()):
        raise DomainError("bad_input", MSG_STACK_RANGE, fields={"stacks": MSG_STACK_RANGE})
    amounts = money.deal_record(
        tournament_id=tid,
        amounts=payload.amounts,
        method=payload.method,
        agreed=payload.agreed,
        stacks=payload.stacks,
        include_bounties=payload.include_bounties,
        actor=request.user,
    )
    return {
        "method": payload.method,
        "amounts": {str(k): v for k, v in amounts.items()},
        "agreed": sorted(amounts),
        "unpaid": sum(amounts.values()),
        "include_bounties": payload.include_bounties,
    }
