"""Money of a tournament (RULES 7.2, 8): the prize pool, payout tables and their freeze,
prizes as players finish, rebuys, add-ons and re-entries, deals. The writes only: the reads
(the table in use, the prizes, what the screens show, a deal's numbers) are in
tourney/selectors/money.py. Rules come from tourney/engine/payouts.py and icm.py.

How the rules are kept here:

* ``Entry.paid`` is all the prize-pool money an entry has put in: its buy-in, rebuys and
  add-on (fees apart in ``Entry.fee_paid``); the pool is their sum plus added money, raised to
  the guarantee (RULES 8.1). Prices may change between events without rewriting history.
* Until registration closes the prizes follow the entries (default table by field size, or
  the director's table). ``payouts_freeze`` pins the table in ``payout_percentages`` and the
  amounts in ``frozen_prizes``; later money (rebuys, add-ons) is shared by the pinned table,
  and a new table is an explicit, logged ``payouts_set``.
* A deal (RULES 8.3) stores each remaining player's amount in ``Entry.deal_amount``; it
  replaces the place prize when the player finishes.

Functions without a leading ``*`` taking a ``Tournament`` are helpers called inside a
service's transaction (the tournament row already locked).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db.models import F, Q
from django.utils.translation import gettext_noop as N_

from tourney.core.events import event_payload_set, record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.core.rows import kept_cursor
from tourney.engine import payouts as payouts_engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.selectors.clock import clock_index
from tourney.selectors.money import (
    MSG_DEAL_EXISTS,
    MSG_DEAL_FEW_PLAYERS,
    deal_recorded,
    finishers_of,
    int_keys,
    money_in,
    money_open,
    place_is_paid,
    pool_for_paid,
    pool_of,
    prizes_for,
    prizes_of,
    remaining_entries,
    table_of,
    window_passed,
)
from tourney.services.ticket_issue import tickets_issue

ENTRY = Entry._meta.db_table
MSG_NOT_IN_PLAY = N_("Only a player still in play can rebuy or take the add-on.")
MSG_NO_REBUYS = N_("This tournament has no rebuys.")
MSG_REBUYS_CLOSED = N_("The rebuy period is over.")
MSG_NO_ADDON = N_("This tournament has no add-on.")
MSG_ADDON_NOT_NOW = N_("The add-on is offered only during its break.")
MSG_ADDON_TAKEN = N_("This entry has already taken the add-on.")
MSG_REENTRY_NOT_BUSTED = N_("Only an entry that is out can re-enter.")
MSG_REENTRY_STILL_IN = N_("This player still has an entry in play.")
MSG_NO_REENTRIES = N_("This player has no re-entries left.")
MSG_REGISTRATION_CLOSED = N_("Registration is closed.")
MSG_FINISHED = N_("The tournament is finished.")
MSG_ENTRY_NOT_FOUND = N_("No such entry in this tournament.")
MSG_BAD_TABLE = N_(
    "A payout table is a list of whole basis points (1/100 of a percent), each at least 1, "
    "none larger than the one before, adding up to exactly 10000 (100 %)."
)
MSG_TOO_MANY_PLACES = N_("The payout table pays more places than there are entries.")
MSG_FREEZE_OPEN = N_("Close registration first: until then the payouts follow the entries.")
MSG_NO_ENTRIES = N_("Nobody has entered yet.")
MSG_NOTHING_TO_SET = N_("Give a payout table, a rounding unit, or both.")
MSG_BAD_METHOD = N_("A deal is made by ICM, chip chop or custom amounts.")
MSG_AFTER_DEAL = N_(
    "A deal is recorded: no more money can come in and the payouts stay as they are "
    "(undo the deal first)."
)
MSG_DEAL_MONEY_OPEN = N_(
    "Close registration and the rebuy period first: money still coming in would change "
    "the prizes the deal shares."
)
MSG_SATELLITE_TABLE = N_("A satellite pays seats (RULES 12.2): its payout table cannot be set.")
MSG_ALREADY_CLOSED = N_("Registration (and the rebuy period) are already closed.")
MSG_DEAL_NOT_AGREED = N_(
    "A deal is recorded only when every player still in agrees (RULES 8.3). Not agreed yet: "
    "%(names)s. Record it once each of them agrees."
)
MSG_DEAL_AGREED_OTHERS = N_(
    "Only the players still in agree to a deal; these entries are not: %(ids)s."
)

MAX_PLACES = 2_000  # what whole basis points can resolve (tourney.engine.payouts)
DEAL_METHODS = ("icm", "chip_chop", "custom")


# ---------------------------------------------------------------- prizes (RULES 7.2, 8.3)


def prizes_assign(t: Tournament) -> None:
    """Give every finished entry its prize: its place's prize, tied places sharing theirs
    (RULES 7.2), or its deal amount (RULES 8.3). Recomputed from scratch every time, so an
    undone elimination (place reset) gets exactly its old prizes back."""
    prizes = prizes_of(t)
    paid = len(prizes)
    lag = t.place_lag  # stored places are the places less this (RULES 7.1)
    finished = list(
        Entry.objects.filter(tournament=t, place__isnull=False)
        .filter(Q(place__lte=paid - lag) | Q(deal_amount__isnull=False))
        .values_list("pk", "place", "place_to", "bust_table", "bust_seat", "prize", "deal_amount")
    )
    money = payouts_engine.place_prizes(
        prizes=prizes,
        finishers=[
            (pk, p + lag, pt + lag, bt or 0, bs or 0)
            for pk, p, pt, bt, bs, _, d in finished
            if d is None
        ],
    )
    money.update({pk: d for pk, *_, d in finished if d is not None})
    for pk, *_, prize, _d in finished:
        if money[pk] != prize:
            Entry.objects.filter(pk=pk).update(prize=money[pk])
    Entry.objects.filter(tournament=t).filter(
        Q(place__isnull=True) | Q(place__gt=paid - lag, deal_amount__isnull=True)
    ).exclude(prize=0).update(prize=0)
    tickets_issue(t)  # RULES 12.4: a satellite's seat places hold tickets


def prizes_refresh(t: Tournament, *, finishers: tuple[int | None, int] | None = None) -> None:
    """``prizes_assign`` when it can change anything: some finished entry holds a paid place,
    a prize or a deal. Far from the money (late registration, most of the day) one look at
    the best place finished settles it. ``finishers``: (best place, how many hold a prize
    or a deal) if the caller has them."""
    if finishers is None:
        best, prized = finishers_of(t)
        finishers = (None if best is None else best + t.place_lag, prized)
    best, prized = finishers
    if best is None and not prized:
        return
    if prized or place_is_paid(t, best):
        prizes_assign(t)


def prizes_assign_placed(
    t: Tournament,
    entry_ids: Sequence[int],
    *,
    finished: Sequence[tuple[int, int, int, int, int, int]] | None = None,
) -> None:
    """The prizes of entries that just finished, once the prizes are frozen (RULES 7.2): a
    finish changes no other finisher's places, and frozen amounts do not follow the pool,
    so only these entries' prizes change (ties are among them). ``finished``: (entry, place,
    place to, bust table, bust seat, prize now) of those entries with their real places,
    when the caller has them (nothing to read)."""
    assert t.frozen_prizes is not None
    prizes = tuple(t.frozen_prizes)
    if finished is None:
        lag = t.place_lag  # stored places are the places less this (RULES 7.1)
        finished = [
            (pk, p + lag, pt + lag, bt or 0, bs or 0, prize)
            for pk, p, pt, bt, bs, prize in Entry.objects.filter(pk__in=entry_ids).values_list(
                "pk", "place", "place_to", "bust_table", "bust_seat", "prize"
            )
        ]
    money = payouts_engine.place_prizes(prizes=prizes, finishers=[f[:5] for f in finished])
    changed = [(money[pk], pk) for pk, *_, prize in finished if money[pk] != prize]
    if changed:
        with kept_cursor() as cursor:
            for amount, pk in changed:
                cursor.execute(f"UPDATE {ENTRY} SET prize = %s WHERE id = %s", [amount, pk])
    tickets_issue(t)  # RULES 12.4


# ---------------------------------------------------------------- shared checks


@contextmanager
def _action(
    tournament_id: int, service: str, kwargs: dict[str, Any], *, running: bool = True
) -> Iterator[Tournament]:
    """One money action: transaction, tournament row locked first, undo journal, and how
    to redo it (tourney/services/undo.py). ``running``: refused once the tournament is finished."""
    call = {"service": service, "kwargs": kwargs}
    with tournament_action(tournament_id, call=call) as t:
        if running and t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_FINISHED, status=409)
        yield t


def _note_entries(ids: Sequence[int]) -> None:
    if j := journal_current():
        j.note_entries(list(ids))


def _entry(t: Tournament, entry_id: int) -> Entry:
    e = Entry.objects.filter(tournament=t, pk=entry_id).select_related("player").first()
    if e is None:
        raise DomainError(
            "entry_not_found", MSG_ENTRY_NOT_FOUND, status=404, fields={"entry": entry_id}
        )
    return e


def _in_play(t: Tournament, entry_id: int) -> Entry:
    e = _entry(t, entry_id)
    if e.status != Entry.Status.SEATED or e.place is not None:
        raise DomainError(
            "entry_not_in_play", MSG_NOT_IN_PLAY, status=409, fields={"entry": entry_id}
        )
    return e


def _clock_index(t: Tournament, now: datetime | None) -> int | None:
    """The item the clock is in now; None before the start."""
    if not t.clock_started:
        return None
    return clock_index(t, now)


def _window_passed(t: Tournament, until: int | None, now: datetime | None) -> bool:
    return window_passed(until, _clock_index(t, now))


def _note_prize_fields() -> None:
    """Before the payout table or the frozen prizes change: the undo journal keeps them."""
    if j := journal_current():
        j.note_tournament()


def _money_added(t: Tournament) -> tuple[int, ...] | None:
    """After money entered: once frozen, share the new pool by the pinned table (RULES 8.2);
    then reassign prizes. Returns the new frozen amounts, if frozen."""
    amounts = None
    if t.frozen_prizes is not None:
        amounts = payouts_engine.payouts(
            pool=pool_of(t), percentages=table_of(t), rounding_unit=t.rounding_unit
        )
        _note_prize_fields()
        t.frozen_prizes = list(amounts)
        Tournament.objects.filter(pk=t.pk).update(frozen_prizes=t.frozen_prizes)
        prizes_assign(t)
    else:
        prizes_refresh(t)
    return amounts


# ---------------------------------------------------------------- rebuy, add-on, re-entry


def entry_rebuy(
    *, tournament_id: int, entry_id: int, actor=None, now: datetime | None = None
) -> Entry:
    """A rebuy (RULES 4.4, 8.1): the rebuy price into the pool and its fee (if any) apart
    with the entry's fees, the rebuy chips (a starting stack when none are set), only within
    the rebuy period and only for a player in play."""
    kwargs = {"entry_id": entry_id, "now": now.isoformat() if now else None}
    with _action(tournament_id, "entry_rebuy", kwargs) as t:
        if t.rebuy_price <= 0:
            raise DomainError("no_rebuys", MSG_NO_REBUYS, status=409)
        refuse_after_deal(t)
        if not t.rebuys_open or _window_passed(t, t.rebuy_until, now):
            raise DomainError("rebuys_closed", MSG_REBUYS_CLOSED, status=409)
        e = _in_play(t, entry_id)
        chips = t.rebuy_chips or t.starting_stack
        _chips_bought(t, e, "rebuys", t.rebuy_price, t.rebuy_fee, chips, actor=actor)
    return e


def entry_addon(
    *, tournament_id: int, entry_id: int, actor=None, now: datetime | None = None
) -> Entry:
    """The add-on (RULES 4.4, 8.1): once per entry, only while the clock is in the configured
    item (``addon_at``, usually a break)."""
    kwargs = {"entry_id": entry_id, "now": now.isoformat() if now else None}
    with _action(tournament_id, "entry_addon", kwargs) as t:
        if t.addon_at is None or t.addon_price <= 0:
            raise DomainError("no_addon", MSG_NO_ADDON, status=409)
        if _clock_index(t, now) != t.addon_at:
            raise DomainError(
                "addon_not_now", MSG_ADDON_NOT_NOW, status=409, fields={"addon_at": t.addon_at}
            )
        e = _in_play(t, entry_id)
        if e.addons:
            raise DomainError("addon_taken", MSG_ADDON_TAKEN, status=409, fields={"entry": e.pk})
        refuse_after_deal(t)
        chips = t.addon_chips or t.starting_stack
        _chips_bought(t, e, "addons", t.addon_price, t.addon_fee, chips, actor=actor)
    return e


def _chips_bought(
    t: Tournament, e: Entry, counter: str, price: int, fee: int, chips: int, *, actor
) -> None:
    """A rebuy (``counter`` "rebuys") or the add-on ("addons") once its checks passed: the
    price into the pool, the fee apart, the chips onto the entry, one more of ``counter``,
    then the event (a rebuy's also says how many the entry has now) and the prizes the new
    money changes (RULES 8.1, 8.2)."""
    _note_entries([e.pk])
    Entry.objects.filter(pk=e.pk).update(
        paid=F("paid") + price,
        fee_paid=F("fee_paid") + fee,
        **{counter: F(counter) + 1},
        chips_bought=F("chips_bought") + chips,
    )
    e.refresh_from_db()
    payload = {"entry": e.pk, "amount": price, "fee": fee, "chips": chips}
    if counter == "rebuys":
        payload["rebuys"] = e.rebuys
    kind = "entry_rebuy" if counter == "rebuys" else "entry_addon"
    event = record_event(t, kind, payload, actor)
    _log_refreeze(event, _money_added(t))


def _log_refreeze(event, amounts: tuple[int, ...] | None) -> None:
    """The amounts new money after the freeze pinned (RULES 8.2: a change of the frozen
    prizes is logged), in the action's own event; a deferred event (not yet inserted) takes
    them with its insert."""
    if amounts is not None:
        event.payload["frozen_prizes"] = list(amounts)
        if event.pk is not None:
            event.save(update_fields=["payload"])


def refuse_after_deal(t: Tournament) -> None:
    """RULES 8.3, prize money never leaves the remaining players: once a deal shares the
    unpaid prizes, no money may come in (an entry, rebuy or add-on) and the payouts may not
    change, or the amounts agreed would no longer add up to what is left to pay."""
    if deal_recorded(t):
        raise DomainError("deal_exists", MSG_AFTER_DEAL, status=409)


# ---------------------------------------------------------------- payout tables (RULES 8.2)


def _check_table(percentages: object) -> list[int]:
    ok = (
        isinstance(percentages, list | tuple)
        and 0 < len(percentages) <= MAX_PLACES
        and all(type(p) is int and p >= 1 for p in percentages)
        and sum(percentages) == payouts_engine.BASIS_POINTS
        and all(a >= b for a, b in zip(percentages, percentages[1:], strict=False))
    )
    if not ok:
        raise DomainError("bad_percentages", MSG_BAD_TABLE, fields={"percentages": MSG_BAD_TABLE})
    return list(percentages)  # type: ignore[arg-type]


def payouts_freeze_locked(t: Tournament, *, actor=None) -> tuple[int, ...]:
    """Freeze the prizes of ``t`` (row locked by the caller, registration closed): pin the
    table in use and the amounts. Idempotent: a frozen tournament is left as it is, and with
    no entries nothing is frozen (returns ()). For services that close registration
    (``clock_announce``, ``clock_action``)."""
    if t.frozen_prizes is not None:
        return tuple(t.frozen_prizes)
    money = money_in(t)
    chosen = t.payout_percentages
    # The director's table (perhaps last week's) cut to this field, else places nobody
    # can finish in would keep their prizes and the pool would not be paid out (RULES 8.2).
    table = table_of(t, money["entries"])
    if not table:
        return ()  # nobody entered: nothing to freeze
    pool = pool_for_paid(t, money["paid"])
    amounts = prizes_for(t, entries=money["entries"], pool=pool)  # a satellite's: RULES 12.2
    _note_prize_fields()
    t.payout_percentages = list(table)
    t.frozen_prizes = list(amounts)
    Tournament.objects.filter(pk=t.pk).update(
        payout_percentages=t.payout_percentages, frozen_prizes=t.frozen_prizes
    )
    payload: dict[str, Any] = {"percentages": list(table), "prizes": list(amounts), "pool": pool}
    if chosen and len(chosen) > len(table):
        payload["cut_from"] = list(chosen)
    record_event(t, "payouts_frozen", payload, actor)
    prizes_assign(t)
    return amounts


def payouts_freeze(*, tournament_id: int, actor=None) -> tuple[int, ...]:
    """Freeze the prizes once registration is closed (RULES 8.2); idempotent."""
    with _action(tournament_id, "payouts_freeze", {}, running=False) as t:
        if t.registration_open:
            raise DomainError("registration_open", MSG_FREEZE_OPEN, status=409)
        if not Entry.objects.filter(tournament=t).exists():
            raise DomainError("no_entries", MSG_NO_ENTRIES, status=409)
        return payouts_freeze_locked(t, actor=actor)


def payouts_set(
    *,
    tournament_id: int,
    percentages: Sequence[int] | None = None,
    rounding_unit: int | None = None,
    actor=None,
) -> tuple[int, ...]:
    """The director's payout table (basis points per place, first place first) and rounding
    unit (RULES 8.2). ``None`` leaves a setting as it is; ``percentages=[]`` goes back to the
    default table for the field size. Once frozen the amounts are recomputed at once: the
    explicit, logged change of RULES 8.2. Prizes of players already out are reassigned."""
    if percentages is None and rounding_unit is None:
        raise DomainError(
            "bad_input", MSG_NOTHING_TO_SET, fields={"percentages": MSG_NOTHING_TO_SET}
        )
    new_table = None if not percentages else _check_table(percentages)
    if rounding_unit is not None and (type(rounding_unit) is not int or rounding_unit < 1):
        raise DomainError(
            "bad_rounding_unit",
            payouts_engine.MSG_BAD_ROUNDING_UNIT,
            fields={"rounding_unit": payouts_engine.MSG_BAD_ROUNDING_UNIT},
        )
    kwargs = {
        "percentages": None if percentages is None else list(percentages),
        "rounding_unit": rounding_unit,
    }
    with _action(tournament_id, "payouts_set", kwargs, running=False) as t:
        refuse_after_deal(t)
        if t.satellite_target_id is not None:  # RULES 12.2: its seats are its payouts
            raise DomainError("satellite_payouts", MSG_SATELLITE_TABLE, status=409)
        money = money_in(t)
        frozen = t.frozen_prizes is not None
        table = t.payout_percentages if percentages is None else new_table
        if frozen and table is None:
            table = list(payouts_engine.default_percentages(money["entries"]))
        if (
            table is not None
            and money["entries"]
            and len(table) > money["entries"]
            and (frozen or not t.registration_open)
        ):
            raise DomainError(
                "too_many_places",
                MSG_TOO_MANY_PLACES,
                status=409,
                fields={"places": len(table), "entries": money["entries"]},
            )
        pool = pool_for_paid(t, money["paid"])
        before = {
            "percentages": list(table_of(t, money["entries"])),
            "rounding_unit": t.rounding_unit,
            "prizes": list(prizes_for(t, entries=money["entries"], pool=pool)),
        }
        _note_prize_fields()
        t.payout_percentages = table
        if rounding_unit is not None:
            t.rounding_unit = rounding_unit
        if frozen:
            t.frozen_prizes = list(
                payouts_engine.payouts(pool=pool, percentages=table, rounding_unit=t.rounding_unit)
            )
        Tournament.objects.filter(pk=t.pk).update(
            payout_percentages=t.payout_percentages,
            rounding_unit=t.rounding_unit,
            frozen_prizes=t.frozen_prizes,
        )
        prizes = prizes_for(t, entries=money["entries"], pool=pool)
        record_event(
            t,
            "payouts_set",
            {
                "before": before,
                "percentages": table,
                "rounding_unit": t.rounding_unit,
                "prizes": list(prizes),
            },
            actor,
        )
        prizes_assign(t)
    return prizes


# ---------------------------------------------------------------- deals (RULES 8.3)


def deal_record(
    *,
    tournament_id: int,
    amounts: Mapping[Any, int],
    method: str,
    agreed: Iterable[Any] | None = None,
    actor=None,
    stacks: Mapping[Any, int] | None = None,
    include_bounties: bool = False,
) -> dict[int, int]:
    """Record the deal the players still in agreed (RULES 8.3): one amount per remaining
    player, adding up exactly to the unpaid prize money (``check_deal``). Each amount replaces
    that player's place prize when they finish.

    ``include_bounties`` (RULES 9.10): the director includes the bounties still in play in
    the deal: each player takes the bounty on their own head in cash now (a mystery event's
    envelopes left are shared equally), and no bounty is won after. Without it the bounties
    stay as they are and are won as before.

    ``agreed``: the entries whose players said yes, as the director confirms them one by one
    (a tick per player on the dashboard, ``agreed`` in the API). RULES 8.3 records a deal
    "only when every remaining player agrees": one player missing refuses the whole deal,
    and an entry that is not still in cannot agree for anyone."""
    if method not in DEAL_METHODS:
        raise DomainError("bad_method", MSG_BAD_METHOD, fields={"method": MSG_BAD_METHOD})
    by_entry = int_keys(amounts, "amounts")
    said_yes = sorted(int_keys(dict.fromkeys(agreed or ()), "agreed"))
    kwargs = _deal_call(by_entry, method, said_yes, stacks, include_bounties)
    with _action(tournament_id, "deal_record", kwargs) as t:
        if deal_recorded(t):
            raise DomainError("deal_exists", MSG_DEAL_EXISTS, status=409)
        if money_open(t):
            raise DomainError(
                "deal_money_open",
                MSG_DEAL_MONEY_OPEN,
                status=409,
                fields={"registration_open": t.registration_open, "rebuys_open": t.rebuys_open},
            )
        remaining = remaining_entries(t)
        if len(remaining) < 2:
            raise DomainError("deal_needs_players", MSG_DEAL_FEW_PLAYERS, status=409)
        ids = [e.pk for e in remaining]
        if set(by_entry) != set(ids):
            raise DomainError(
                "deal_wrong_players",
                payouts_engine.MSG_DEAL_WRONG_PLAYERS,
                fields={"amounts": sorted(by_entry), "players": ids},
            )
        _check_agreed(remaining, said_yes)
        unpaid = list(prizes_of(t)[: len(ids)])
        payouts_engine.check_deal(
            amounts=[by_entry[i] for i in ids], unpaid=unpaid, players=len(ids)
        )
        _note_entries(ids)
        for e in remaining:
            e.deal_amount = by_entry[e.pk]
        Entry.objects.bulk_update(remaining, ["deal_amount"])
        event = record_event(
            t,
            "deal_recorded",
            {
                "method": method,
                "amounts": {str(i): by_entry[i] for i in ids},
                "agreed": ids,
                "stacks": None if stacks is None else {str(k): v for k, v in stacks.items()},
                "unpaid": sum(unpaid),
                "include_bounties": include_bounties,
            },
            actor,
        )
        if include_bounties:
            _deal_bounties(t, event, remaining)
        prizes_assign(t)
    return {i: by_entry[i] for i in ids}


def _deal_call(by_entry, method, said_yes, stacks, include_bounties) -> dict[str, Any]:
    """How the undo log redoes a deal."""
    kwargs = {
        "amounts": {str(k): v for k, v in by_entry.items()},
        "method": method,
        "agreed": said_yes,
        "stacks": None if stacks is None else {str(k): v for k, v in stacks.items()},
    }
    if include_bounties:
        kwargs["include_bounties"] = True
    return kwargs


def _deal_bounties(t: Tournament, event, remaining: Sequence[Entry]) -> None:
    """RULES 9.10: the bounties in play paid out with the deal, recorded in its event."""
    from tourney.services.bounties import deal_bounties

    event.payload["bounties"] = deal_bounties(t, hand=event.pk, remaining=remaining)
    event_payload_set(event, event.payload)


def _check_agreed(remaining: Sequence[Entry], agreed: Sequence[int]) -> None:
    """RULES 8.3: every player still in agreed, and nobody else is counted as agreeing."""
    ids = {e.pk for e in remaining}
    said_yes = set(agreed)
    others = [i for i in agreed if i not in ids]
    if others:
        raise DomainError(
            "deal_agreed_others",
            MSG_DEAL_AGREED_OTHERS,
            params=dict(ids=", ".join(map(str, others))),
            fields={"agreed": others},
        )
    missing = [e for e in remaining if e.pk not in said_yes]
    if missing:
        raise DomainError(
            "deal_not_agreed",
            MSG_DEAL_NOT_AGREED,
            params=dict(names=", ".join(e.player.name for e in missing)),
            fields={"agreed": [e.pk for e in missing]},
        )
