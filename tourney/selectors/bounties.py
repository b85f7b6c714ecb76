"""Bounties as the screens, the API and the writes read them (RULES 9): the tournament's
settings for the engine, the envelopes left, the bounty money collected, paid and still in
play, the heads and the knockouts (GET .../bounties). Reads only; the writes are in
tourney/services/bounties.py."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, Sum

from tourney.engine import bounties as engine
from tourney.models import Entry, Knockout, Tournament


def settings_of(t: Tournament) -> engine.BountySettings:
    """The engine's view of the tournament's bounty setup (RULES 9.1)."""
    kind = t.bounty_kind if t.bounty else engine.NONE
    return engine.BountySettings(
        kind=kind,
        bounty=t.bounty if kind != engine.NONE else 0,
        cash_percent=t.bounty_cash_percent,
        mystery_from_players=max(1, t.mystery_from_players),
    )


def buy_in_split(t: Tournament) -> engine.BuyInSplit:
    """The parts of one buy-in of ``t`` (RULES 9.1): prize pool, bounty and fee; ``.price``
    is what the desk takes. The one place the price is added up."""
    return engine.buy_in_parts(settings=settings_of(t), prize_pool=t.buy_in, fee=t.fee)


def starting_bounty(t: Tournament) -> int:
    """The bounty on a new entry's head (RULES 9.1; none in a mystery event)."""
    return engine.starting_bounty(settings_of(t))


def has_bounties(t: Tournament) -> bool:
    return t.bounty_kind != Tournament.BountyKind.NONE and t.bounty > 0


def heads_shown(t: Tournament) -> bool:
    """Whether players carry a bounty on their head (fixed and PKO; RULES 9.1)."""
    return has_bounties(t) and t.bounty_kind in (
        Tournament.BountyKind.FIXED,
        Tournament.BountyKind.PROGRESSIVE,
    )


def envelopes_of(t: Tournament) -> dict[int, int]:
    """The mystery envelopes left, ``{amount: count}`` ascending (RULES 9.4)."""
    raw = t.mystery_envelopes or {}
    return engine.check_envelopes({int(a): int(c) for a, c in raw.items()})


def envelopes_json(envelopes: dict[int, int]) -> dict[str, int]:
    return {str(a): c for a, c in sorted(envelopes.items()) if c}


def bounty_totals(t: Tournament) -> dict[str, int]:
    """The bounty money (RULES 9.1, 9.9): ``collected`` (every entry's bounty part), ``paid``
    (won in cash), ``on_heads`` (on the heads of the players still in), ``in_envelopes``
    (mystery envelopes left). ``collected`` = ``paid`` + ``on_heads`` + ``in_envelopes``
    whenever the envelopes were set up to the money collected."""
    agg = Entry.objects.filter(tournament=t).aggregate(
        collected=Sum("bounty_paid"),
        paid=Sum("bounty_won"),
        on_heads=Sum("bounty", filter=~Q(status=Entry.Status.BUSTED)),
        knockouts=Count("id", filter=Q(status=Entry.Status.BUSTED)),
    )
    out = {k: v or 0 for k, v in agg.items()}
    out["in_envelopes"] = engine.envelope_total(envelopes_of(t))
    out["in_play"] = out["on_heads"] + out["in_envelopes"]
    return out


def envelopes_drawn(t: Tournament) -> int:
    """How many mystery envelopes were drawn (the set may change only before the first)."""
    return (
        Knockout.objects.filter(tournament=t, envelope__isnull=False)
        .values("hand", "busted")
        .distinct()
        .count()
    )


def knockouts_of(t: Tournament) -> list[dict[str, Any]]:
    """Every knockout, in the order they happened (GET .../bounties)."""
    return [
        {
            "hand": k.hand,
            "busted": k.busted_id,
            "winner": k.winner_id,
            "cash": k.cash,
            "to_head": k.to_head,
            "envelope": k.envelope,
        }
        for k in Knockout.objects.filter(tournament=t).order_by("id")
    ]


def bounties_payload(t: Tournament) -> dict[str, Any]:
    """The bounty setup and money as GET .../bounties answers it."""
    totals = bounty_totals(t)
    return {
        "kind": t.bounty_kind,
        "bounty": t.bounty,
        "cash_percent": t.bounty_cash_percent,
        "mystery_from_players": t.mystery_from_players,
        "envelopes": [{"amount": a, "count": c} for a, c in envelopes_of(t).items()],
        "collected": totals["collected"],
        "paid": totals["paid"],
        "on_heads": totals["on_heads"],
        "in_envelopes": totals["in_envelopes"],
        "heads": [
            {"entry": e.pk, "number": e.number, "bounty": e.bounty, "won": e.bounty_won}
            for e in Entry.objects.filter(tournament=t)
            .exclude(status=Entry.Status.BUSTED)
            .order_by("-bounty", "number")
        ]
        if heads_shown(t)
        else [],
        "knockouts": knockouts_of(t),
    }
