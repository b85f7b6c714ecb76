"""The bodies the JSON API answers with (docs/api.md), declared so that the OpenAPI
document at /api/v1/openapi.json describes every success answer exactly, and a client (or
schemathesis in CI) can check each answer against it.

Closed: a key that is not declared here is refused (``extra="forbid"``), so an answer that
drifts from its declaration fails the API tests instead of passing unnoticed. The operations
answer with ``exclude_unset`` (``ROUTER_OPTIONS`` below): a key the code did not give stays
absent, as docs/api.md allows for ``hands`` and the quote's amounts. Such a key is declared
with ``may_be_absent()``: not required, never null.

Types are the ones the services give (``won`` is 0 or 1 and stays a number), so validation
never converts a value.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# Chips and money are integers (docs/api.md, Conventions); seats and entries are ids.
ByNumber = dict[str, int]  # {"3": 150}: a JSON object keyed by a seat, entry or chip value


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def may_be_absent() -> Any:
    """A key some answers leave out (never ``null`` when present)."""
    return Field(default=None, json_schema_extra=_not_nullable)


def _not_nullable(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


# ---------------------------------------------------------------- floor tools

Category = Literal[
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
]


class PotOut(Out):
    amount: int
    eligible: list[int]
    winners: list[int]
    shares: ByNumber


class HandOut(Out):
    category: Category
    best_five: list[str]


class SettleOut(Out):
    returned: ByNumber
    pots: list[PotOut]
    payouts: ByNumber
    hands: dict[str, HandOut] = may_be_absent()  # when cards were given


class RacePlayerOut(Out):
    seat: int
    odd_chips: int
    cards: list[str]
    won: int
    protected: bool
    chips: ByNumber


class ChipRaceOut(Out):
    remove: int
    unit: int
    awarded: int
    value_removed: int
    value_added: int
    players: list[RacePlayerOut]
    seed: int | None  # the seed drawn or given; null when the dealer's cards were given


class IcmOut(Out):
    equities: list[float]


# ---------------------------------------------------------------- tournaments and seating


BountyKind = Literal["none", "fixed", "progressive", "mystery"]


class TournamentOut(Out):
    id: int
    name: str
    slug: str
    status: Literal["setup", "running", "finished"]
    seats_per_table: int
    starting_stack: int
    buy_in: int
    fee: int
    guarantee: int
    seed: int
    balance_tolerance: int | None
    redraw_at_three: bool
    redraw_at_two: bool
    redraw_at_one: bool
    race_threshold: Literal["half_or_more", "more_than_half"]
    registration_open: bool
    # RULES 9.1: the bounty type, the bounty part of each buy-in, the PKO cash share (percent)
    # and, in a mystery event, the players still in from which envelopes are drawn
    bounty_kind: BountyKind
    bounty: int
    bounty_cash_percent: int
    mystery_from_players: int


EntryStatus = Literal["registered", "seated", "alternate", "busted"]


class EntryOut(Out):
    id: int
    number: int
    name: str
    table: int | None
    seat: int | None
    status: EntryStatus
    waits_for_button: bool


class SeatOut(Out):
    seat: int
    entry: int
    name: str
    waits_for_button: bool


class TableOut(Out):
    number: int
    status: Literal["open", "broken"]
    seats_total: int
    button_seat: int | None
    break_rank: int
    unavailable: list[int]
    seats: list[SeatOut]


class SeatingOut(Out):
    tables: list[TableOut]
    players_left: int


class ButtonOut(Out):
    table: int
    button_seat: int


class SeatRef(Out):
    table: int
    seat: int


class PlaceOut(Out):
    entry: int
    place: int
    place_to: int


class MoveOut(Out):
    entry: int
    from_: SeatRef | None = Field(alias="from")  # null: an alternate took a seat
    to: SeatRef
    reason: str
    waits_for_button: bool


class BountyPaidOut(Out):
    """One bounty taken in an elimination (RULES 9.2-9.8): ``cash`` to pay the winner now,
    ``to_head`` added to the winner's own bounty (PKO), ``envelope`` the mystery envelope
    drawn (shared by the winners of a split pot); ``table`` and ``seat`` where the winner sat
    in the hand (null for the last player's own bounty, RULES 9.8)."""

    busted: int
    winner: int
    cash: int
    to_head: int
    envelope: int | None
    table: int | None
    seat: int | None


class EliminationOut(Out):
    places: list[PlaceOut]
    moves: list[MoveOut]
    winner: int | None  # the last player's entry, once one is left
    # docs/rules.md 7.6: true while entries can still come (the places may still move down)
    provisional: bool
    bounties: list[BountyPaidOut]


# ---------------------------------------------------------------- clock and structure


class ClockItemOut(Out):
    kind: Literal["level", "break"]
    seconds: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    color_up: list[int]


class ClockOut(Out):
    status: Literal["not_started", "running", "paused", "finished"]
    level_index: int
    level_number: int | None
    level: ClockItemOut | None
    remaining_ms: int
    next: ClockItemOut | None
    next_break_index: int | None
    ms_to_next_break: int | None
    server_time: str


class LevelItemOut(Out):
    """A ``levels`` item of docs/api.md; ``minutes`` when the duration is whole minutes."""

    kind: Literal["level"]
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    minutes: int = may_be_absent()
    seconds: int


class BreakItemOut(Out):
    kind: Literal["break"]
    color_up: list[int]
    minutes: int = may_be_absent()
    seconds: int


StructureItem = Annotated[LevelItemOut | BreakItemOut, Field(discriminator="kind")]


class LevelsOut(Out):
    levels: list[StructureItem]


# ---------------------------------------------------------------- money


class ResultRowOut(Out):
    place: int
    place_to: int
    entry: int
    name: str
    prize: int
    deal: bool  # the prize is a deal amount (RULES 8.3)
    bounties: int  # the bounty money this entry won in cash, apart from the prize (RULES 9.9)


class ResultsOut(Out):
    places: list[ResultRowOut]
    prize_pool: int
    bounties_paid: int  # every bounty paid in cash so far, players still in included


class EntryMoneyOut(Out):
    id: int
    number: int
    name: str
    status: EntryStatus
    paid: int
    fee_paid: int
    rebuys: int
    addons: int
    chips_bought: int
    bounty: int  # on the entry's head now (RULES 9.1; 0 once out, and in a mystery event)
    bounty_won: int  # bounty money won in cash
    prize_pool: int


class ReentryOut(EntryMoneyOut):
    reentry_of: int
    table: int | None
    seat: int | None
    waits_for_button: bool


class PrizeOut(Out):
    place: int
    prize: int


class MoneyOut(Out):
    entries: int
    players: int
    reentries: int
    rebuys: int
    addons: int
    money_in: int
    added_money: int
    guarantee: int
    overlay: int
    prize_pool: int
    fees: int
    rounding_unit: int
    percentages: list[int]
    custom_table: bool
    frozen: bool
    prizes: list[PrizeOut]
    paid_places: int
    players_left: int
    bubble_place: int | None
    on_the_bubble: bool
    in_the_money: bool
    unpaid: int
    deal: bool


class QuotePlayerOut(Out):
    entry: int
    number: int
    name: str
    stack: int | None
    bounty: int  # on the player's head: what they take if a deal includes the bounties (9.10)
    # With ``stacks``: the ICM equity, the ICM deal in rounding units and the chip chop.
    equity: float = may_be_absent()
    icm: int = may_be_absent()
    chip_chop: int = may_be_absent()


class DealQuoteOut(Out):
    bounties_in_play: int  # on heads and in envelopes: a deal may include them (RULES 9.10)
    unpaid: int
    unpaid_prizes: list[int]
    rounding_unit: int
    players: list[QuotePlayerOut]
    money_open: bool


class DealOut(Out):
    method: Literal["icm", "chip_chop", "custom"]
    amounts: ByNumber
    agreed: list[int]  # every player still in agreed (RULES 8.3)
    unpaid: int
    include_bounties: bool  # RULES 9.10: each player took their own bounty in cash


# ---------------------------------------------------------------- bounties (RULES 9)


class EnvelopeOut(Out):
    amount: int
    count: int


class HeadOut(Out):
    entry: int
    number: int
    bounty: int
    won: int


class KnockoutOut(Out):
    hand: int  # the elimination's event id
    busted: int
    winner: int  # the busted entry itself: the last player's own bounty (RULES 9.8)
    cash: int
    to_head: int
    envelope: int | None


class BountiesOut(Out):
    kind: BountyKind
    bounty: int
    cash_percent: int
    mystery_from_players: int
    envelopes: list[EnvelopeOut]  # the mystery envelopes left
    collected: int
    paid: int
    on_heads: int
    in_envelopes: int
    heads: list[HeadOut]  # the players still in, biggest bounty first (fixed and PKO)
    knockouts: list[KnockoutOut]


# ---------------------------------------------------------------- chip counts (RULES 10.8)


class ChipCountOut(Out):
    """A player still in with their latest count: where they sit now (``table``, ``seat``)
    and where they were counted, when (``at``, ISO 8601)."""

    entry: int
    number: int | None
    name: str
    table: int | None
    seat: int | None
    chips: int
    counted_table: int | None
    counted_seat: int | None
    at: str


class ChipCountsOut(Out):
    counts: list[ChipCountOut]  # biggest first
    counted: int
    not_counted: int
    players: int
    chips_in_play: int
    average_stack: int  # the exact chips in play over the players, never the counts'


class ChipCountRecordedOut(Out):
    entry: int
    chips: int
    table: int
    seat: int
    at: str


class ChipCountsRecordedOut(Out):
    recorded: list[ChipCountRecordedOut]


# ---------------------------------------------------------------- color-up (RULES 5)


class ColorUpSeatOut(Out):
    seat: int
    entry: int
    name: str


class ColorUpTableOut(Out):
    table: int
    seats: list[ColorUpSeatOut]
    raced: list[int]
    to_race: list[int]


class DenominationOut(Out):
    value: int
    color: str
    unit: int | None  # the next larger chip in play; null when there is none
    removable: bool


class TableRacePlayerOut(RacePlayerOut):
    entry: int
    name: str
    whole_stack: bool


class TableRaceOut(Out):
    table: int
    break_index: int | None
    remove: int
    unit: int
    threshold: Literal["half_or_more", "more_than_half"]
    awarded: int
    value_removed: int
    value_added: int
    chips_delta: int
    seed: int | None
    cards_given: bool
    counted: int | None
    direct_chips: int | None
    players: list[TableRacePlayerOut]
    event: int


class ColorUpOut(Out):
    clock_index: int
    at_break: bool
    break_index: int | None
    in_play: list[int]
    denominations: list[DenominationOut]
    tables: list[ColorUpTableOut]
    races: list[TableRaceOut]
    total_chips: int
    players_left: int
    average_stack: int


class RackLineOut(Out):
    """One chip to remove at one table: raced (its chips) or not yet (``at_most``)."""

    remove: int
    unit: int | None
    raced: bool
    needed: int | None
    at_most: int = may_be_absent()
    race_chips: int = may_be_absent()
    direct_chips: int | None = may_be_absent()


class RackTableOut(Out):
    table: int
    players: int
    races: list[RackLineOut]


class RackTotalOut(Out):
    remove: int
    unit: int | None
    race_chips: int
    direct_chips: int
    needed: int
    tables_not_raced: list[int]
    at_most_not_raced: int


class RackPlanOut(Out):
    break_index: int | None
    new_smallest: int | None
    tables: list[RackTableOut]
    totals: list[RackTotalOut]


class RaceUndoOut(Out):
    table: int
    remove: int
    undone: int
    chips_delta: int


class ColorUpFinishOut(Out):
    removed: list[int]
    in_play: list[int]
    forced: bool
    not_raced: dict[str, list[int]]
    chips_delta: int
    event: int
    total_chips: int
    average_stack: int


# ---------------------------------------------------------------- audit, undo, accounts


class UndoOut(Out):
    undid: int
    kind: str


class RedoOut(Out):
    redid: int
    kind: str


class EventOut(Out):
    id: int
    kind: str
    at: str
    actor: str | None
    undone: bool
    payload: dict[str, Any]


class EventsOut(Out):
    events: list[EventOut]


class UserOut(Out):
    username: str
    role: Literal["director", "desk"] | None


class TokenOut(Out):
    token: str


class TokenRevokedOut(Out):
    revoked: str


class DisplayTokenOut(Out):
    display_token: str


# Every router of the API answers with these: keys the code did not give stay absent, and
# ``from`` (a Python keyword) is written under its name.
ROUTER_OPTIONS = {"exclude_unset": True, "by_alias": True}
