"""Bounty writes (RULES 9): the knockouts of an elimination hand and the last player's own
bounty, recorded inside the elimination's action (its lock, transaction and undo journal),
and the director's mystery envelope set. The arithmetic is the engine's
(tourney/engine/bounties.py); this module reads the rows it needs and writes the outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import F
from django.utils.translation import gettext_noop as N_

from tourney.core.journal import current as journal_current
from tourney.core.rng import next_rng
from tourney.engine import bounties as engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Knockout, Tournament
from tourney.selectors.bounties import (
    bounty_totals,
    envelopes_drawn,
    envelopes_json,
    envelopes_of,
    has_bounties,
    settings_of,
)

MSG_WINNERS_NEEDED = N_(
    "Who won the hand? In a bounty event each player out needs the winner of the pot that "
    "busted them (RULES 9.5)."
)
MSG_WINNER_NOT_SEATED = N_("A winner of the hand must be a player still seated in this tournament.")
MSG_WINNER_IS_BUSTED = N_("A player out in this hand cannot also be its winner.")
MSG_WINNERS_TWICE = N_("List each winner of the hand once (and at least one).")
MSG_ENVELOPES_FEW = (
    "{count} mystery envelopes for {busts} players still to bust: every player busted from the "
    "stage on draws one (RULES 9.4). Add envelopes first."
)
MSG_ENVELOPES_TOTAL = (
    "The mystery envelopes add up to {envelopes} but the bounty money collected is {total}: "
    "set the envelopes to add up to it first (RULES 9.4)."
)


def winners_by_bust(
    busts: Sequence[int], winners: Mapping[Any, Sequence[int]] | Sequence[int] | None
) -> dict[int, list[int]]:
    """The winners of the pot that busted each entry: one list for the whole hand (``[7]``:
    one winner, ``[7, 9]``: a split pot) or one list per busted entry (side pots, RULES 9.7)."""
    if not winners:
        return {}
    if isinstance(winners, Mapping):
        out: dict[int, list[int]] = {}
        for key, ids in winners.items():
            try:
                out[int(key)] = [int(i) for i in ids]
            except (TypeError, ValueError):
                raise DomainError(
                    "bad_input", MSG_WINNER_NOT_SEATED, fields={"winners": str(key)}
                ) from None
        return out
    return {b: [int(i) for i in winners] for b in busts}


def winners_json(winners: dict[int, list[int]]) -> dict[str, list[int]]:
    return {str(k): list(v) for k, v in winners.items()}


def _winner_seats(t: Tournament, ids: set[int]) -> dict[int, tuple[int, int, str]]:
    """Each winner's table and seat number and name, as they sit (before any move)."""
    from tables.models import Seat

    rows = Seat.objects.filter(tournament=t, entry_id__in=ids).values_list(
        "entry_id", "table__number", "number", "entry__player__name"
    )
    return {e: (tn, s, name) for e, tn, s, name in rows}


def knockouts_check(
    t: Tournament, *, busted: Mapping[int, Entry], winners: dict[int, list[int]]
) -> dict[int, tuple[int, int, str]]:
    """The winners of the hand checked before ``elimination_record`` writes anything (a
    refusal writes nothing, not even an id): each player out has a winner in a bounty event
    (RULES 9.5), each winner listed once, not out in the same hand, seated. Returns where
    each winner sits (table, seat, name)."""
    bounties = has_bounties(t)
    if not winners:
        if bounties:
            raise DomainError(
                "winners_needed", MSG_WINNERS_NEEDED, fields={"winners": MSG_WINNERS_NEEDED}
            )
        return {}
    unknown = set(winners) - set(busted)
    if unknown or (bounties and set(busted) - set(winners)):
        raise DomainError(
            "winners_needed", MSG_WINNERS_NEEDED, fields={"winners": MSG_WINNERS_NEEDED}
        )
    if any(len(set(ws)) != len(ws) or not ws for ws in winners.values()):
        raise DomainError(
            "duplicate_entry", MSG_WINNERS_TWICE, fields={"winners": MSG_WINNERS_TWICE}
        )
    ids = {w for ws in winners.values() for w in ws}
    if ids & set(busted):
        raise DomainError(
            "winner_busted", MSG_WINNER_IS_BUSTED, fields={"winners": MSG_WINNER_IS_BUSTED}
        )
    seats = _winner_seats(t, ids)
    missing = sorted(ids - set(seats))
    if missing:
        raise DomainError(
            "winner_not_seated",
            MSG_WINNER_NOT_SEATED,
            status=409,
            fields={"winners": MSG_WINNER_NOT_SEATED, "id": missing[0]},
        )
    return seats


def knockouts_record(
    t: Tournament,
    hand: int,
    busted: Mapping[int, Entry],
    winners: dict[int, list[int]],
    players_before: int,
    seats: dict[int, tuple[int, int, str]],
) -> list[dict[str, Any]]:
    """The knockouts of one elimination hand (RULES 9.2-9.7), inside ``elimination_record``'s
    action, after the busts are written and before anyone moves (``seats``: where the winners
    sit, from ``knockouts_check``): each busted entry's bounty to the winner(s) of its pot,
    recorded as ``Knockout`` rows, the heads and the cash won updated (journaled, RULES
    9.11). Without bounties the eliminators given are recorded (no money). Returns the
    payments to announce, with where each winner sits."""
    if not winners:
        return []
    ids = {w for ws in winners.values() for w in ws}
    settings = settings_of(t)
    engine_busts = [
        engine.Bust(
            entry=eid,
            bounty=busted[eid].bounty,
            winners=tuple(engine.Winner(entry=w, table=seats[w][0], seat=seats[w][1]) for w in ws),
        )
        for eid, ws in winners.items()
    ]
    award = _hand_award(t, settings, engine_busts, players_before)
    _award_write(t, hand, award, ids)
    return _payments_answer(award, seats)


def _hand_award(t: Tournament, settings, busts: list[engine.Bust], players_before: int):
    """The engine's award of the hand; the eliminators of a bust that pays nothing (no
    bounties, a mystery bust before the stage or after a deal took the envelopes) are
    recorded with no money."""
    draw = settings.kind == engine.MYSTERY and engine.mystery_draw_due(
        settings=settings, players_before=players_before
    )
    if settings.kind == engine.NONE or (settings.kind == engine.MYSTERY and not draw):
        award = engine.Award(removed={b.entry: b.bounty for b in busts})
    elif draw and _shared_in_a_deal(t):
        award = engine.Award(removed={b.entry: b.bounty for b in busts})
    else:
        award = engine.award_hand(
            settings=settings,
            busts=busts,
            players_before=players_before,
            envelopes=_envelopes_for_draw(t, players_before) if draw else {},
            rng=next_rng(t)[0] if draw else None,
        )
        if award.draws:
            _envelopes_write(t, award.envelopes)
    paid = {p.busted for p in award.payments}
    unpaid = tuple(
        engine.Payment(busted=b.entry, winner=w.entry, cash=0, to_head=0)
        for b in sorted(busts, key=lambda b: b.entry)
        if b.entry not in paid
        for w in b.winners
    )
    if not unpaid:
        return award
    return engine.Award(
        award.payments + unpaid, award.removed, award.added, award.draws, award.envelopes
    )


def _shared_in_a_deal(t: Tournament) -> bool:
    """Whether a deal took the bounty money left (RULES 9.10): nothing is drawn after it."""
    return Event.objects.filter(
        tournament=t, kind="deal_recorded", undone=False, payload__include_bounties=True
    ).exists()


def _envelopes_for_draw(t: Tournament, players_before: int) -> dict[int, int]:
    """The envelopes to draw from (RULES 9.4). Before the first draw the set must add up to
    the bounty money collected, and hold an envelope for each player who will bust from now
    on (``players_before`` - 1; the last player takes what is left): the set cannot change
    once drawing began, and running out half way would stop the tournament."""
    envelopes = envelopes_of(t)
    if not envelopes_drawn(t):
        total = bounty_totals(t)["collected"]
        count = sum(envelopes.values())
        if engine.envelope_total(envelopes) != total:
            msg = MSG_ENVELOPES_TOTAL.format(
                envelopes=_money(engine.envelope_total(envelopes)), total=_money(total)
            )
            raise DomainError("envelopes_do_not_add_up", msg, status=409, fields={"envelopes": msg})
        if count < players_before - 1:
            msg = MSG_ENVELOPES_FEW.format(count=count, busts=players_before - 1)
            raise DomainError("envelopes_too_few", msg, status=409, fields={"envelopes": msg})
    return envelopes


def _money(cents: int) -> str:
    return f"{cents // 100:,}.{cents % 100:02d}"


def _envelopes_write(t: Tournament, envelopes: dict[int, int]) -> None:
    if j := journal_current():
        j.note_tournament(fields=("mystery_envelopes",))
    t.mystery_envelopes = envelopes_json(envelopes)
    Tournament.objects.filter(pk=t.pk).update(mystery_envelopes=t.mystery_envelopes)


def _award_write(t: Tournament, hand: int, award: engine.Award, winner_ids) -> None:
    """The heads and cash of ``award`` and its Knockout rows (journaled)."""
    j = journal_current()
    if j is not None:
        j.note_entries(sorted({*winner_ids, *award.removed}))
    if award.removed:
        Entry.objects.filter(pk__in=list(award.removed)).update(bounty=0)
    gains: dict[int, list[int]] = {}
    for p in award.payments:
        cash, head = gains.setdefault(p.winner, [0, 0])
        gains[p.winner] = [cash + p.cash, head + p.to_head]
    for entry, (cash, head) in gains.items():
        if cash or head:
            Entry.objects.filter(pk=entry).update(
                bounty_won=F("bounty_won") + cash, bounty=F("bounty") + head
            )
    envelope = {d.busted: d.amount for d in award.draws}
    rows = Knockout.objects.bulk_create(
        Knockout(
            tournament=t,
            hand=hand,
            busted_id=p.busted,
            winner_id=p.winner,
            cash=p.cash,
            to_head=p.to_head,
            envelope=envelope.get(p.busted) if p.busted != p.winner else None,
        )
        for p in award.payments
    )
    if j is not None:
        j.note_created("knockout", [k.pk for k in rows])


def _payments_answer(award: engine.Award, seats) -> list[dict[str, Any]]:
    envelope = {d.busted: d.amount for d in award.draws}
    return [
        {
            "busted": p.busted,
            "winner": p.winner,
            "cash": p.cash,
            "to_head": p.to_head,
            "envelope": envelope.get(p.busted),
            "table": seats.get(p.winner, (None, None, ""))[0],
            "seat": seats.get(p.winner, (None, None, ""))[1],
            "name": seats.get(p.winner, (None, None, ""))[2],
        }
        for p in award.payments
    ]


def last_player_bounty(t: Tournament, *, hand: int, winner: Entry) -> list[dict[str, Any]]:
    """The last player left wins their own bounty (RULES 9.8): on their head, whole in cash
    (PKO too), or every mystery envelope left. Inside the last elimination's action."""
    if not has_bounties(t):
        return []
    settings = settings_of(t)
    envelopes = envelopes_of(t) if settings.kind == engine.MYSTERY else {}
    bounty = Entry.objects.filter(pk=winner.pk).values_list("bounty", flat=True).get()
    award = engine.award_last_player(
        settings=settings, entry=winner.pk, bounty=bounty, envelopes=envelopes
    )
    if not award.payments or not award.payments[0].cash:
        return []
    if settings.kind == engine.MYSTERY:
        _envelopes_write(t, award.envelopes)
    _award_write(t, hand, award, [winner.pk])
    return _payments_answer(award, _winner_seats(t, {winner.pk}))


def deal_bounties(t: Tournament, *, hand: int, remaining: Sequence[Entry]) -> list[dict[str, Any]]:
    """A deal that includes the bounties (RULES 9.10), inside ``deal_record``'s action: each
    player still in takes their own bounty in cash (a mystery event's envelopes left are
    shared), recorded as their own-bounty knockouts; no bounty money is left in play."""
    if not has_bounties(t):
        return []
    settings = settings_of(t)
    seats = _winner_seats(t, {e.pk for e in remaining})
    players = [
        engine.Winner(
            entry=e.pk, table=seats.get(e.pk, (0, 0, ""))[0], seat=seats.get(e.pk, (0, 0, ""))[1]
        )
        for e in remaining
    ]
    heads = dict(Entry.objects.filter(pk__in=[e.pk for e in remaining]).values_list("pk", "bounty"))
    envelopes = envelopes_of(t) if settings.kind == engine.MYSTERY else {}
    award = engine.award_deal(settings=settings, heads=heads, players=players, envelopes=envelopes)
    if settings.kind == engine.MYSTERY and envelopes:
        _envelopes_write(t, award.envelopes)
    _award_write(t, hand, award, [e.pk for e in remaining])
    return _payments_answer(award, seats)
