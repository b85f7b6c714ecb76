"""The dashboard's side of bounties (RULES 9): who could have won the hand at the bust's
preview (each with a key), the winners posted back, the bounty payments to announce after a
bust and in the event log, and the bounty money of the money panel. Reads only; the writes
are ``services.elimination_record``'s."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from tables.models import Seat
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_exact
from tourney.engine.numbers import ascii_int
from tourney.models import Entry, Tournament
from tourney.selectors.bounties import bounty_totals, has_bounties, heads_shown

# The key that ticks a winner: at one table the seat's ("4" for seat 4, "0" for seat 10,
# then letters); across tables the choices in order.
KEYS = "1234567890abcdefghijklmnopqrstuvwxyz"
KIND_SHORT = {
    "fixed": gettext_lazy("Bounties"),
    "progressive": gettext_lazy("PKO bounties"),
    "mystery": gettext_lazy("Mystery bounties"),
}
MSG_BAD_WINNER = N_("Pick the winner of the hand from the players listed.")


def winner_choices(t: Tournament, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players who may have won the hand: everyone seated at the busted players'
    tables but the busted, by table and seat, each with its key."""
    tables = sorted({r["table"] for r in rows})
    busted = {r["entry"] for r in rows}
    seats = (
        Seat.objects.filter(tournament=t, table__number__in=tables, entry__isnull=False)
        .exclude(entry_id__in=busted)
        .order_by("table__number", "number")
        .values_list("entry_id", "table__number", "number", "entry__player__name", "entry__bounty")
    )
    one_table = len(tables) == 1
    out = []
    for i, (entry, table, seat, name, bounty) in enumerate(seats):
        at = seat - 1 if one_table else i
        out.append(
            {
                "entry": entry,
                "table": table,
                "seat": seat,
                "name": name,
                "bounty": money_exact(bounty) if heads_shown(t) else "",
                "key": KEYS[at] if 0 <= at < len(KEYS) else "",
            }
        )
    return out


def preview_context(t: Tournament, rows: list[dict[str, Any]], data=None) -> dict[str, Any]:
    """What the preview adds for the winners: the choices, ticked as posted (or the one
    player left at the table), and per busted player the "different winner" choices of a
    side pot (RULES 9.7) when several are out."""
    choices = winner_choices(t, rows)
    ticked = {str(x) for x in data.getlist("winner")} if data is not None else set()
    if data is None and len(choices) == 1:
        ticked = {str(choices[0]["entry"])}
    for c in choices:
        c["checked"] = str(c["entry"]) in ticked
    for i, r in enumerate(rows, start=1):
        r["i"] = i
        r["other_winners"] = [c for c in choices if c["table"] == r["table"]]
        r["other_winner"] = (data.get(f"winner_{i}") or "") if data is not None else ""
    heads = dict(
        Entry.objects.filter(pk__in=[r["entry"] for r in rows]).values_list("pk", "bounty")
    )
    for r in rows:
        r["bounty"] = money_exact(heads.get(r["entry"])) if heads_shown(t) else ""
    return {
        "winner_choices": choices,
        "bounty_event": has_bounties(t),
        "side_pots": len(rows) > 1,
        "keys_by_seat": len({r["table"] for r in rows}) == 1,
    }


def _entry_id(raw: str, field: str) -> int:
    entry = ascii_int((raw or "").strip())
    if entry is None:
        raise DomainError("bad_input", MSG_BAD_WINNER, fields={field: MSG_BAD_WINNER})
    return entry


def posted_winners(data, busted: Sequence[tuple[int, int]]):
    """The form's winners as ``elimination_record`` takes them: ``None`` (nobody ticked),
    one list for the hand (``winner``, several: a split pot), or per busted entry when a
    row names a different winner (``winner_<row>``: a side pot, RULES 9.7)."""
    hand = [_entry_id(raw, "winners") for raw in data.getlist("winner")]
    per_row = {}
    for n, entry in busted:
        raw = (data.get(f"winner_{n}") or "").strip()
        if raw:
            per_row[entry] = [_entry_id(raw, f"winner_{n}")]
    if not per_row:
        return hand or None
    return {entry: per_row.get(entry, hand) for _, entry in busted if per_row.get(entry) or hand}


# ---------------------------------------------------------------- the payments, in words


def _names(payments: Iterable[dict[str, Any]]) -> dict[int, str]:
    ids = {p.get(k) for p in payments for k in ("busted", "winner")}
    ids = {i for i in ids if isinstance(i, int)}
    if not ids:
        return {}
    return dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))


def _where(p: dict[str, Any]) -> str:
    if p.get("seat") and p.get("table"):
        return ", " + _("seat %(seat)s, table %(table)s") % {"seat": p["seat"], "table": p["table"]}
    return ""


def payment_lines(t: Tournament, payments: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bounties of one elimination as the director announces them (RULES 9.2-9.8):
    "Pay 150.00 bounty to Ann Lee, seat 4, table 7" (the cash the floor pays; a PKO adds
    "; 150.00 more on their head"); a mystery envelope is one line per player out: "Envelope of
    500.00 drawn for Bob Marsh — pay to Ann Lee, seat 4, table 7"."""
    if not payments:
        return []
    names = _names(payments)
    lines: list[dict[str, Any]] = []
    envelopes: dict[int, list[dict[str, Any]]] = {}
    for p in payments:
        winner = p.get("name") or names.get(p.get("winner"), "")
        busted = names.get(p.get("busted"), "")
        cash, head = int(p.get("cash") or 0), int(p.get("to_head") or 0)
        if p.get("envelope") is not None and p.get("busted") != p.get("winner"):
            envelopes.setdefault(p["busted"], []).append({**p, "who": winner})
            continue
        for_whom = ""
        where = _where(p)
        if p.get("busted") == p.get("winner"):
            text = _("%(winner)s wins their own bounty: pay %(cash)s") % {
                "winner": winner,
                "cash": money_exact(cash),
            }
        elif not cash and not head:
            text = _("%(busted)s knocked out by %(winner)s%(where)s (no bounty)") % {
                "busted": busted,
                "winner": winner,
                "where": where,
            }
        else:
            text = _("Pay %(cash)s bounty to %(winner)s%(where)s") % {
                "cash": money_exact(cash),
                "winner": winner,
                "where": where,
            }
            if head:  # RULES 9.3: the kept share is not paid, it goes on the winner's head
                text += "; " + _("%(amount)s more on their head") % {"amount": money_exact(head)}
            for_whom = busted
        lines.append({"text": text, "for_whom": for_whom, "cash": cash, "to_head": head})
    for busted_id, shares in envelopes.items():
        amount = money_exact(shares[0]["envelope"])
        if len(shares) == 1:
            pay = _("pay to %(winner)s%(where)s") % {
                "winner": shares[0]["who"],
                "where": _where(shares[0]),
            }
        else:
            pay = _("pay %(shares)s") % {
                "shares": _(" and ").join(
                    _("%(cash)s to %(winner)s%(where)s")
                    % {"cash": money_exact(s["cash"]), "winner": s["who"], "where": _where(s)}
                    for s in shares
                )
            }
        envelope = _("Envelope of %(amount)s drawn for %(busted)s") % {
            "amount": amount,
            "busted": names.get(busted_id, ""),
        }
        lines.append(
            {
                "text": f"{envelope} — {pay}",
                "for_whom": "",
                "cash": sum(int(s["cash"] or 0) for s in shares),
                "to_head": 0,
            }
        )
    return lines


def log_words(payments: Sequence[dict[str, Any]] | None) -> str:
    """The log line's end for an elimination with bounties: "; bounty 150.00 to Ann Lee"."""
    paid = [p for p in payments or () if int(p.get("cash") or 0) or int(p.get("to_head") or 0)]
    if not paid:
        return ""
    words = []
    for p in paid:
        amount = int(p.get("cash") or 0) + int(p.get("to_head") or 0)
        name = p.get("name") or _("the winner")
        words.append(_("%(amount)s to %(name)s") % {"amount": money_exact(amount), "name": name})
    return "; " + _("bounty %(payments)s") % {"payments": ", ".join(words)}


def log_rows(payments: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """One elimination's payments for the log's detail page, with names."""
    payments = list(payments or ())
    names = _names(payments)
    return [
        {
            "busted": names.get(p.get("busted"), _("entry %(id)s") % {"id": p.get("busted")}),
            "winner": p.get("name")
            or names.get(p.get("winner"), _("entry %(id)s") % {"id": p.get("winner")}),
            "where": _("T%(table)s S%(seat)s") % {"table": p["table"], "seat": p["seat"]}
            if p.get("table") and p.get("seat")
            else "",
            "cash": money_exact(p.get("cash")),
            "to_head": money_exact(p.get("to_head")) if p.get("to_head") else "",
            "envelope": money_exact(p["envelope"]) if p.get("envelope") is not None else "",
        }
        for p in payments
    ]


# ---------------------------------------------------------------- the money panel


def money_bounties(t: Tournament) -> dict[str, Any]:
    """The bounty money (RULES 9.1, 9.9): collected, paid in cash, still in play (on the
    heads of the players still in, or in the mystery envelopes left)."""
    if not has_bounties(t):
        return {"bounty_money": None}
    totals = bounty_totals(t)
    return {
        "bounty_money": {
            "kind": str(KIND_SHORT.get(t.bounty_kind) or _("Bounties")),
            "collected": money_exact(totals["collected"]),
            "paid": money_exact(totals["paid"]),
            "in_play": money_exact(totals["in_play"]),
            "in_play_cents": totals["in_play"],
            "where": _("in envelopes")
            if t.bounty_kind == Tournament.BountyKind.MYSTERY
            else _("on heads"),
        }
    }
