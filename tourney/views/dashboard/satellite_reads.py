"""What the director's screens read of satellites (RULES 12): the money panel's satellite part
(seats and cash, seats won and left, the tickets, whether the deal may be made), a target's
tickets, and the log's words for the satellites' events. The actions are
tourney/views/dashboard/satellites.py."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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


def _satellite_set_words(p: dict[str, Any]) -> str:
    if not p.get("target_name"):
        return _("No longer a satellite")
    after = p["after"]
    out = _("Satellite for %(target)s") % {"target": p["target_name"]}
    if after.get("seat_value"):
        out += ", " + _("seats of %(value)s") % {"value": money_exact(after["seat_value"])}
    else:
        out += ", " + _("seats at the target's price")
    if after.get("tickets_transferable"):
        out += ", " + _("tickets transferable")
    return out


def log_words(p: dict[str, Any]) -> dict[str, Any]:
    """The log's sentences for the satellites' events (RULES 12)."""
    return {
        "ticket_used": lambda: (
            _(
                "Ticket from satellite #%(satellite)s: %(name)s registered (entry #%(number)s), "
                "no charge"
            )
            % {
                "satellite": p.get("satellite"),
                "name": p.get("name", ""),
                "number": p.get("number"),
            }
        ),
        "ticket_refunded": lambda: (
            _("Ticket #%(ticket)s of %(name)s refunded (%(value)s): %(reason)s")
            % {
                "ticket": p.get("ticket"),
                "name": p.get("name", ""),
                "value": money_exact(int(p.get("value") or 0)),
                "reason": p.get("reason", ""),
            }
        ),
        "ticket_transferred": lambda: (
            _("Ticket #%(ticket)s handed from %(from)s to %(to)s")
            % {"ticket": p.get("ticket"), "from": p.get("from_name", ""), "to": p.get("name", "")}
        ),
        "satellite_set": lambda: _satellite_set_words(p),
        "satellite_deal": lambda: (
            _("Satellite's deal: %(n)s player(s) take seats of %(value)s: %(names)s")
            % {
                "n": p.get("seats"),
                "value": money_exact(int(p.get("value") or 0)),
                "names": ", ".join(p.get("names") or []),
            }
        ),
    }


KIND_LABELS = {
    "ticket_used": gettext_lazy("Tickets used"),
    "ticket_refunded": gettext_lazy("Tickets refunded"),
    "ticket_transferred": gettext_lazy("Tickets handed over"),
    "satellite_set": gettext_lazy("Satellite settings"),
    "satellite_deal": gettext_lazy("Satellite's deal"),
}
