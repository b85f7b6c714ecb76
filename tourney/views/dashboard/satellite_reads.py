"""What the director's screens read of satellites (RULES 12): the money panel's satellite part
(seats and cash, seats won and left, the tickets, whether the deal may be made), a target's
tickets, and the log's words for the satellites' events. The actions are
tourney/views/dashboard/satellites.py."""

from __future__ import annotations

from typing import Any

from tourney.engine.money_format import money_exact
from tourney.models import Tournament
from tourney.selectors.satellites import (
    prize_words,
    satellite_summary,
    seats_of,
    target_summary,
)

# ---------------------------------------------------------------- the money panel


def money_satellite(t: Tournament, summary: dict[str, Any], shown: int) -> dict[str, Any]:
    """The money panel's satellite part (RULES 12.2, 12.4, 12.8) and a target's tickets
    (12.5); ``summary``: the panel's money summary, whose prizes then say "Seat". Nothing
    for a tournament that is neither."""
    out: dict[str, Any] = {}
    sat = satellite_summary(t)
    if sat is not None:
        seats = seats_of(t)
        sat["seat_value_text"] = money_exact(sat["seat_value"])
        sat["cash_text"] = money_exact(sat["cash"])
        out["satellite"] = sat
        out["money_prizes"] = [
            {"place": p["place"], "prize": prize_words(p["prize"], p["place"], seats, money_exact)}
            for p in summary["prizes"][:shown]
        ]
        out["deal_players"] = None  # RULES 12.8: a satellite's deal is its own
    target = target_summary(t)
    if target is not None:
        target["price_text"] = money_exact(target["price"])
        out["target_tickets"] = target
    return out


# ---------------------------------------------------------------- the log


def log_words(p: dict[str, Any]) -> dict[str, Any]:
    """The log's sentences for the satellites' events (RULES 12)."""
    return {
        "ticket_used": lambda: (
            f"Ticket from satellite #{p.get('satellite')}: {p.get('name', '')} registered "
            f"(entry #{p.get('number')}), no charge"
        ),
        "ticket_refunded": lambda: (
            f"Ticket #{p.get('ticket')} of {p.get('name', '')} refunded "
            f"({money_exact(int(p.get('value') or 0))}): {p.get('reason', '')}"
        ),
        "ticket_transferred": lambda: (
            f"Ticket #{p.get('ticket')} handed from {p.get('from_name', '')} to {p.get('name', '')}"
        ),
        "satellite_set": lambda: (
            f"Satellite for {p['target_name']}"
            + (
                f", seats of {money_exact(p['after']['seat_value'])}"
                if p["after"].get("seat_value")
                else ", seats at the target's price"
            )
            + (", tickets transferable" if p["after"].get("tickets_transferable") else "")
            if p.get("target_name")
            else "No longer a satellite"
        ),
        "satellite_deal": lambda: (
            f"Satellite's deal: {p.get('seats')} player(s) take seats of "
            f"{money_exact(int(p.get('value') or 0))}: " + ", ".join(p.get("names") or [])
        ),
    }


KIND_LABELS = {
    "ticket_used": "Tickets used",
    "ticket_refunded": "Tickets refunded",
    "ticket_transferred": "Tickets handed over",
    "satellite_set": "Satellite settings",
    "satellite_deal": "Satellite's deal",
}
