"""Results exports: CSV and the printable results sheet (RULES 7.2, 8.3). Thin: check access,
read through tourney.selectors.money, render."""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify

from tourney import services
from tourney.core.money_text import money_exact
from tourney.models import Tournament
from tourney.roles import is_desk
from tourney.selectors import money as money_reads
from tourney.selectors.bounties import bounty_totals, has_bounties
from tourney.selectors.satellites import prize_words, seats_of

# entry_number: the number on the player's ticket (the API's "entry" is the row's id)
CSV_HEADER = ("place", "place_to", "name", "entry_number", "prize", "deal")
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_money(amount: int) -> str:
    """An amount in the smallest unit as a plain decimal number in units: 123456 → 1234.56
    (no thousands separator, so a spreadsheet reads it as a number)."""
    return f"{amount // 100}.{amount % 100:02d}"


def _safe_cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def _tournament_for_desk(request, tournament_id: int) -> Tournament:
    if not is_desk(request.user):
        raise PermissionDenied
    t = get_object_or_404(Tournament, pk=tournament_id)
    t.activate_zone()  # times in the card room's zone (issue 31)
    return t


@login_required
def results_csv(request, tournament_id: int) -> HttpResponse:
    """place, place_to, name, entry number, prize (in the currency's units, 963.00: a
    spreadsheet reads it as money, issue 31) and whether that prize is a deal amount
    (RULES 8.3); a satellite's "seat" (yes: the prize is a seat in the target, RULES 12.2)
    and a bounty event's bounties won, last."""
    t = _tournament_for_desk(request, tournament_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(t.name) or 'tournament'}-results.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    bounties = has_bounties(t)  # RULES 9.9: the bounties won, apart from the prize, last
    seats = seats_of(t)  # RULES 12.2: a satellite's seat places say so in a column of their own
    header = (*CSV_HEADER, *(("seat",) if seats[0] else ()), *(("bounties",) if bounties else ()))
    writer.writerow(header)
    for row in money_reads.results_rows(t):
        cells = [
            row["place"],
            row["place_to"],
            _safe_cell(row["name"]),
            row["number"],
            csv_money(row["prize"]),
            "yes" if row["deal"] else "",
        ]
        if seats[0]:
            # RULES 12.2: a seat place (as prize_words reads it), whatever the screens' language
            seat = row["place_to"] <= seats[0] and row["prize"] >= seats[1]
            cells.append("yes" if seat else "")
        if bounties:
            cells.append(csv_money(row["bounties"]))
        writer.writerow(cells)
    return response


@login_required
def results_print(request, tournament_id: int) -> HttpResponse:
    t = _tournament_for_desk(request, tournament_id)
    summary = money_reads.money_summary(t)
    rows = money_reads.results_rows(t)
    seats = seats_of(t)  # RULES 12.2: a satellite's seat places say "Seat"
    for row in rows:
        row["prize_display"] = prize_words(row["prize"], row["place_to"], seats, money_exact)
        row["bounties_display"] = money_exact(row["bounties"]) if row["bounties"] else ""
    dealt = (
        [d for d in money_reads.deal_amounts(t) if d["place"] is None] if summary["deal"] else []
    )
    for d in dealt:
        d["amount_display"] = money_exact(d["amount"])
    return render(
        request,
        "money/results_print.html",
        {
            "tournament": t,
            "summary": summary,
            "rows": rows,
            "dealt_still_in": dealt,
            "pool_display": money_exact(summary["prize_pool"]),
            "overlay_display": money_exact(summary["overlay"]),
            "printed_at": timezone.localtime(),
            # docs/rules.md 7.6: entries can still come and move the places of those out
            "provisional": bool(rows) and services.places_provisional(t),
            **_bounty_figures(t, rows),
        },
    )


def _bounty_figures(t: Tournament, rows) -> dict:
    """The results sheet's bounty column and totals (RULES 9.9: listed apart from the
    prizes), only in a bounty event: the prizes and bounties of the rows listed, and the
    bounty money collected, paid and still in play."""
    if not has_bounties(t):
        return {"bounties": False}
    totals = bounty_totals(t)
    return {
        "bounties": True,
        "prize_total": money_exact(sum(r["prize"] for r in rows)),
        "bounty_total": money_exact(sum(r["bounties"] for r in rows)),
        "bounties_collected": money_exact(totals["collected"]),
        "bounties_paid": money_exact(totals["paid"]),
        "bounties_in_play": money_exact(totals["in_play"]),
        "bounties_in_play_cents": totals["in_play"],
    }
