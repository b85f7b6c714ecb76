"""Prize pool, payouts and prizes of a tournament (RULES 7.2, 8.1, 8.2), from the payouts
engine. Called inside the services' transactions."""

from __future__ import annotations

from django.db.models import Count, Q, Sum

from tourney.engine import payouts as payouts_engine
from tourney.models import Entry, Tournament


def pool_of(t: Tournament) -> int:
    agg = Entry.objects.filter(tournament=t).aggregate(
        n=Count("id"),
        paid=Sum("paid"),
        rebuys=Sum("rebuys"),
        addons=Sum("addons"),
    )
    return (
        payouts_engine.prize_pool(
            entries=1,
            buy_in=agg["paid"] or 0,  # what each entry actually paid for the pool (RULES 8.1)
            rebuys=(agg["rebuys"] or 0) * t.rebuy_price,
            addons=(agg["addons"] or 0) * t.addon_price,
            added=t.added_money,
            guarantee=t.guarantee,
        )
        if agg["n"]
        else max(t.added_money, t.guarantee)
    )


def prizes_of(t: Tournament) -> tuple[int, ...]:
    """Prize per place, first place first (RULES 8.2)."""
    entries = Entry.objects.filter(tournament=t).count()
    if entries == 0:
        return ()
    percentages = t.payout_percentages or payouts_engine.default_percentages(entries)
    return payouts_engine.payouts(
        pool=pool_of(t), percentages=percentages, rounding_unit=t.rounding_unit
    )


def prizes_assign(t: Tournament) -> None:
    """Give every finished entry its prize (RULES 7.2: ties share their places' prizes)."""
    prizes = prizes_of(t)
    paid = len(prizes)
    finished = list(
        Entry.objects.filter(tournament=t, place__isnull=False, place__lte=paid).values_list(
            "pk", "place", "place_to", "bust_table", "bust_seat", "prize"
        )
    )
    money = payouts_engine.place_prizes(
        prizes=prizes,
        finishers=[(pk, p, pt, bt or 0, bs or 0) for pk, p, pt, bt, bs, _ in finished],
    )
    changed = [(pk, money[pk]) for pk, *_, prize in finished if money[pk] != prize]
    for pk, amount in changed:
        Entry.objects.filter(pk=pk).update(prize=amount)
    Entry.objects.filter(tournament=t).filter(Q(place__gt=paid) | Q(place__isnull=True)).exclude(
        prize=0
    ).update(prize=0)
