"""Money as the screens and the writes read it (RULES 8.1): the money paid in, the prize pool,
the finished entries with their prizes. Reads only."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Sum

from tourney.engine import payouts as payouts_engine
from tourney.models import Entry, Tournament


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
    """The prize pool (RULES 8.1); ``paid``: the money paid in, if the caller summed it."""
    return pool_for_paid(t, money_in(t)["paid"] if paid is None else paid)


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
        }
        for e in rows
    ]
