"""Money as the screens and the writes read it (RULES 8.1, 8.2, 8.3): the money paid in, the
prize pool, the payout table in use and the prizes, the summary the screens show, the finished
entries with their prizes, and the numbers of a deal. Reads only; the writes are in
tourney/services/money.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext_noop as N_

from tourney.core.rows import kept_cursor
from tourney.engine import payouts as payouts_engine
from tourney.engine.errors import DomainError
from tourney.engine.icm import icm_equities
from tourney.models import Entry, Tournament
from tourney.selectors.bounties import bounty_totals, has_bounties
from tourney.selectors.tickets import satellite_payout_for

MSG_DEAL_EXISTS = N_("A deal is already recorded for this tournament.")
MSG_DEAL_FEW_PLAYERS = N_("A deal needs at least two players still in.")
MSG_STACKS_WRONG_PLAYERS = N_("Give one stack for each player still in, and only for them.")


def money_in(t: Tournament, **more) -> dict[str, int]:
    """Entries, players, money and fees paid in, rebuys and add-ons; ``more``: further
    aggregates over the same rows (one read)."""
    agg = Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"),
        players=Count("player", distinct=True),
        paid=Sum("paid"),
        fees=Sum("fee_paid"),
        rebuys=Sum("rebuys"),
        addons=Sum("addons"),
        **more,
    )
    return {k: v or 0 for k, v in agg.items()}


def pool_for_paid(t: Tournament, paid: int) -> int:
    # Entry.paid already holds each entry's buy-in, rebuys and add-on, fees apart (RULES 8.1).
    return payouts_engine.prize_pool(
        entries=1, buy_in=paid, added=t.added_money, guarantee=t.guarantee
    )


def pool_of(t: Tournament, *, paid: int | None = None) -> int:
    """The prize pool (RULES 8.1); ``paid``: the money paid in, if the caller summed it. A
    later day of a multi-day event: the event's pool (RULES 10.6, ``event_field``)."""
    if (field := event_field(t)) is not None:
        paid = field["paid"]
    return pool_for_paid(t, money_in(t)["paid"] if paid is None else paid)


def event_field(t: Tournament) -> dict[str, int] | None:
    """RULES 10.6: a later day of a multi-day event pays the event's prizes, from every
    flight's entries and money (its own entries paid nothing): ``entries`` and ``paid`` of
    all the Day 1 flights. None for any other tournament (a flight pays nothing on its own,
    ``prizes_for``)."""
    if t.multi_day_event_id is None or t.day < 2:
        return None
    agg = Entry.objects.filter(
        tournament__multi_day_event_id=t.multi_day_event_id, tournament__day=1
    ).aggregate(entries=Count("id"), paid=Sum("paid"))
    return {k: v or 0 for k, v in agg.items()}


# ---------------------------------------------------------------- prizes (RULES 8.1, 8.2)


def fit_table(table: Sequence[int], entries: int) -> tuple[int, ...]:
    """A table paying no more places than there are entries (RULES 8.2: the prizes sum to
    the pool, and nobody can finish below the last entry): the places cut off give their
    basis points to first place, so the table still adds up to 100 % and stays in order."""
    table = tuple(table)
    if entries < 1 or len(table) <= entries:
        return table
    return (table[0] + sum(table[entries:]), *table[1:entries])


def table_of(t: Tournament, entries: int | None = None) -> tuple[int, ...]:
    """The payout table in use, basis points per place: the one pinned at the freeze, else
    the director's cut to the field (``fit_table``), else the default for the field size;
    () before anyone enters, and for a Day 1 flight (RULES 10.7: it pays nothing on its own,
    so nothing freezes when its registration closes)."""
    if t.multi_day_event_id is not None and t.day == 1:
        return ()
    if t.payout_percentages and t.frozen_prizes is not None:
        return tuple(t.payout_percentages)
    if entries is None:
        entries = Entry.objects.filter(tournament=t).count()
    if t.payout_percentages:
        return fit_table(t.payout_percentages, entries)
    return payouts_engine.default_percentages(entries) if entries else ()


def prizes_for(t: Tournament, *, entries: int, pool: int) -> tuple[int, ...]:
    """``prizes_of`` when the caller already has the number of entries and the pool. A Day 1
    flight of a multi-day event pays nothing on its own (RULES 10.7: the event pays from
    Day 2)."""
    if t.multi_day_event_id is not None and t.day == 1:
        return ()
    if t.frozen_prizes is not None:
        frozen = tuple(t.frozen_prizes)
        if sum(frozen) == pool:
            return frozen
        # Money entered after the freeze outside services.money (a late entry by override):
        # the pinned table shares it, so no money is left unpaid.
    if t.satellite_target_id is not None and (
        seats := satellite_payout_for(t, entries=entries, pool=pool)
    ):
        return seats.prizes()  # RULES 12.2: seats and the leftover cash replace the table
    table = table_of(t, entries)
    if not table:
        return ()
    return payouts_engine.payouts(pool=pool, percentages=table, rounding_unit=t.rounding_unit)


def place_is_paid(t: Tournament, place: int, *, top: int | None = None) -> bool:
    """Whether ``place`` is among the places the prizes pay (RULES 8.2): the pinned amounts
    once frozen, else the table in use. Asked on every elimination, so for the default table
    it first looks at the highest entry number (one index entry; ``top``, if the caller read
    it): the default pays more places only for larger fields, and there are never more
    entries than that number."""
    if t.frozen_prizes is not None:
        return place <= len(t.frozen_prizes)
    if t.multi_day_event_id is not None or t.satellite_target_id is not None:  # 10.6, 12.2
        return place <= len(prizes_of(t))
    if t.payout_percentages:
        return place <= len(t.payout_percentages)
    if top is None:
        with kept_cursor() as cursor:  # plain SQL
            cursor.execute(
                f"SELECT MAX(number) FROM {Entry._meta.db_table} WHERE tournament_id = %s",
                [t.pk],
            )
            top = cursor.fetchone()[0] or 0
    if not top or place > payouts_engine.paid_places(top):
        return False
    entries = Entry.objects.filter(tournament=t).count()
    return place <= payouts_engine.paid_places(entries)


def prizes_of(t: Tournament) -> tuple[int, ...]:
    """Prize per place, first place first (RULES 8.2); the frozen amounts once frozen."""
    agg = event_field(t) or Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id"), paid=Sum("paid")
    )
    return prizes_for(t, entries=agg["entries"], pool=pool_for_paid(t, agg["paid"] or 0))


def remaining_entries(t: Tournament) -> list[Entry]:
    """Entries still in: no place yet and not out (the winner has place 1)."""
    return list(
        Entry.objects.filter(tournament=t, place__isnull=True)
        .exclude(status=Entry.Status.BUSTED)
        .select_related("player")
        .order_by("number")
    )


def money_summary(t: Tournament) -> dict[str, Any]:
    """Everything the screens show about money: pool, overlay, fees, prizes, the bubble."""
    money = money_in(
        t,
        left=Count(  # still in: no place yet and not out (the winner has place 1)
            "id", filter=Q(place__isnull=True) & ~Q(status=Entry.Status.BUSTED)
        ),
        dealt=Count("id", filter=Q(deal_amount__isnull=False)),
    )
    field = event_field(t) or money  # RULES 10.6: a later day shows the event's money
    raw = field["paid"] + t.added_money
    pool = pool_for_paid(t, field["paid"])
    prizes = prizes_for(t, entries=field["entries"], pool=pool)
    paid_places = len(prizes)
    left = money["left"]
    dealt = money["dealt"] > 0
    return {
        "entries": money["entries"],
        "players": money["players"],
        "reentries": money["entries"] - money["players"],
        "rebuys": money["rebuys"],
        "addons": money["addons"],
        "money_in": money["paid"],
        "added_money": t.added_money,
        "guarantee": t.guarantee,
        "overlay": max(0, t.guarantee - raw),
        "prize_pool": pool,
        "fees": money["fees"],
        "rounding_unit": t.rounding_unit,
        "percentages": list(table_of(t, field["entries"])),
        "custom_table": bool(t.payout_percentages) and t.frozen_prizes is None,
        "frozen": t.frozen_prizes is not None,
        "prizes": [{"place": i, "prize": p} for i, p in enumerate(prizes, start=1)],
        "paid_places": paid_places,
        "players_left": left,
        "bubble_place": paid_places + 1 if paid_places else None,
        "on_the_bubble": bool(paid_places) and left == paid_places + 1,
        "in_the_money": bool(paid_places) and left <= paid_places,
        "unpaid": sum(prizes[:left]),
        "deal": dealt,
    }


# ---------------------------------------------------------------- finished entries (RULES 7.2)


def finishers_of(t: Tournament) -> tuple[int | None, int]:
    """The best stored place of the finished entries (None: nobody has finished) and how
    many of them hold a prize or a deal."""
    with kept_cursor() as cursor:  # plain SQL: every late entry on SQLite asks
        cursor.execute(FINISHERS_SQL, [t.pk])
        best, prized = cursor.fetchone()
    return best, prized or 0


FINISHERS_SQL = (
    "SELECT MIN(place), COUNT(CASE WHEN prize > 0 OR deal_amount IS NOT NULL THEN 1 END) "
    f"FROM {Entry._meta.db_table} WHERE tournament_id = %s AND place IS NOT NULL"
)


def results_rows(t: Tournament) -> list[dict[str, Any]]:
    """Finished entries, best first (as GET .../results), with entry numbers and deals."""
    rows = (
        Entry.objects.filter(tournament=t, place__isnull=False)
        .select_related("player")
        .order_by("place", "bust_table", "bust_seat", "number")
    )
    return [
        {
            # RULES 7.1 during late registration: the stored place plus the lag
            **dict(zip(("place", "place_to"), e.places_now(t.place_lag), strict=True)),
            "entry": e.pk,
            "number": e.number,
            "name": e.player.name,
            "prize": e.prize,
            "deal": e.deal_amount is not None,
            # RULES 9.9: the bounties won, apart from the prize
            "bounties": e.bounty_won,
        }
        for e in rows
    ]


# ---------------------------------------------------------------- windows (RULES 4.4)


def window_passed(until: int | None, index: int | None) -> bool:
    """RULES 4.4: a window (late registration, rebuys) open "until the end of" item ``until``
    is shut once the clock's item ``index`` is past it. Derived from the clock, so the window
    is shut even before beat announces it; the desk's buttons and the dashboard's status read
    it here too. ``index`` is None before the clock starts."""
    return until is not None and index is not None and index > until


# ---------------------------------------------------------------- deals (RULES 8.3)


def deal_recorded(t: Tournament) -> bool:
    return Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()


def money_open(t: Tournament) -> bool:
    """Whether money can still come in: registration open, or a rebuy period open in an event
    with rebuys. A deal waits until it closes (RULES 8.3: it shares what is left to pay)."""
    return t.registration_open or (t.rebuy_price > 0 and t.rebuys_open)


def int_keys(mapping: Mapping[Any, Any], name: str) -> dict[int, Any]:
    """``mapping`` keyed by entry ids as ints (JSON and forms send strings); ``name``: the
    field the error names."""
    out: dict[int, Any] = {}
    for k, v in mapping.items():
        try:
            key = int(k)
        except (TypeError, ValueError):
            raise DomainError(
                "bad_input", f"{name}: {k!r} is not an entry id.", fields={name: str(k)}
            ) from None
        out[key] = v
    return out


def deal_quote(t: Tournament, stacks: Mapping[Any, int] | None = None) -> dict[str, Any]:
    """The numbers for a deal among the players still in (RULES 8.3): the unpaid prizes and,
    given each player's stack, ICM equities rounded to the rounding unit (summing exactly to
    the unpaid money) and the chip-chop amounts."""
    if deal_recorded(t):
        raise DomainError("deal_exists", MSG_DEAL_EXISTS, status=409)
    remaining = remaining_entries(t)
    if len(remaining) < 2:
        raise DomainError("deal_needs_players", MSG_DEAL_FEW_PLAYERS, status=409)
    unpaid = list(prizes_of(t)[: len(remaining)])
    players = [
        {
            "entry": e.pk,
            "number": e.number,
            "name": e.player.name,
            "stack": None,
            "bounty": e.bounty,  # RULES 9.10: what each takes if the bounties are included
        }
        for e in remaining
    ]
    out: dict[str, Any] = {
        "bounties_in_play": bounty_totals(t)["in_play"] if has_bounties(t) else 0,
        "unpaid": sum(unpaid),
        "unpaid_prizes": unpaid,
        "rounding_unit": t.rounding_unit,
        "players": players,
        "money_open": money_open(t),  # deal_record refuses until it closes
    }
    if stacks is None:
        return out
    by_entry = int_keys(stacks, "stacks")
    if set(by_entry) != {e.pk for e in remaining}:
        raise DomainError(
            "deal_wrong_players",
            MSG_STACKS_WRONG_PLAYERS,
            fields={"stacks": sorted(by_entry), "players": [e.pk for e in remaining]},
        )
    chips = [by_entry[e.pk] for e in remaining]
    icm = payouts_engine.icm_deal(stacks=chips, prizes=unpaid, unit=t.rounding_unit)
    chop = payouts_engine.chip_chop(stacks=chips, prizes=unpaid, unit=t.rounding_unit)
    equities = icm_equities(chips, unpaid) if sum(unpaid) else [0.0] * len(chips)
    for row, stack, eq, i, c in zip(players, chips, equities, icm, chop, strict=True):
        row.update(stack=stack, equity=eq, icm=i, chip_chop=c)
    return out


def deal_amounts(t: Tournament) -> list[dict[str, Any]]:
    """The recorded deal, one row per dealt entry (those still in first): what each was
    agreed (RULES 8.3), for the screens while the players are still playing."""
    rows = (
        Entry.objects.filter(tournament=t, deal_amount__isnull=False)
        .select_related("player")
        .order_by("place", "number")
    )
    out = [
        {
            "entry": e.pk,
            "number": e.number,
            "name": e.player.name,
            "amount": e.deal_amount,
            "place": e.place,
        }
        for e in rows
    ]
    return sorted(out, key=lambda r: r["place"] is not None)
