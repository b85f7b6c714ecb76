"""Money and color-up panels: thin views over tourney.services.money and
tourney.selectors.money (pool, payouts, bubble, results, deals) and tourney.services.colorup
(pending color-up, per-table races, rack plan)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext

from tourney import services
from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_exact
from tourney.engine.numbers import ascii_int
from tourney.models import Tournament
from tourney.selectors import money as money_reads
from tourney.selectors import total_chips
from tourney.selectors.colorup import colorup_pending, colorup_rack_plan
from tourney.services import colorup, money
from tourney.services.setup import parse_money, parse_payouts
from tourney.views.dashboard.base import (
    VERSION_HEADER,
    action,
    after_action,
    director_view,
    int_field,
    render_dashboard,
)
from tourney.views.dashboard.reads import money_context


@director_view
def money_panel(request: HttpRequest, t: Tournament):
    return render_dashboard(request, t, "money")


def _stacks(request: HttpRequest) -> dict[int, int]:
    out = {}
    for key in request.POST:
        entry_id = ascii_int(key.removeprefix("stack_")) if key.startswith("stack_") else None
        if entry_id is not None:
            value = int_field(request.POST, key, _("Stack"))
            if value < 0:
                raise DomainError("bad_input", N_("Stacks are zero or more."), fields={key: value})
            out[entry_id] = value
    return out


def _amounts(request: HttpRequest, players: list[dict[str, Any]]) -> dict[int, int]:
    """The custom deal's amounts, one ``amount_<entry>`` per player still in, typed as money
    ("1,234.50")."""
    return {
        p["entry"]: parse_money(request.POST.get(f"amount_{p['entry']}"), f"amount_{p['entry']}")
        for p in players
    }


def _deal_quote_panel(
    request: HttpRequest, t: Tournament, stacks: dict[int, int], error: DomainError | None = None
) -> HttpResponse:
    """The money panel with the deal's numbers; after a refused record, with its message and
    what the director had ticked and typed, ready to correct."""
    quote = money_reads.deal_quote(t, stacks)
    for p in quote["players"]:
        p["icm_display"] = money_exact(p["icm"])
        p["chop_display"] = money_exact(p["chip_chop"])
        p["agrees"] = bool(request.POST.get(f"agree_{p['entry']}"))
        p["typed"] = request.POST.get(f"amount_{p['entry']}", p["icm_display"])
    return render_dashboard(
        request,
        t,
        "money",
        error=error,
        extra={
            "quote": quote,
            "quote_unpaid": money_exact(quote["unpaid"]),
            "stacks_warning": _stacks_warning(t, stacks),
        },
    )


MSG_STACK_NOT_A_NUMBER = "{name}'s stack: give a whole number of chips."
MSG_STACKS_DIFFER = "The stacks add up to {total:,}; {chips:,} chips are in play: {diff:,} {how}."


def _deal_form_refused(request: HttpRequest, t: Tournament) -> HttpResponse | None:
    """Step 1's stacks as typed: a stack that is no whole number is named by its player
    inside the deal form, which stays open with every stack typed (issue 31, live event).
    None when every stack reads."""
    players = money_context(t)["deal_players"] or []
    refused = False
    for p in players:
        key = f"stack_{p['entry']}"
        p["typed"] = request.POST.get(key, "")
        try:
            value = int_field(request.POST, key, _("Stack"))
        except DomainError:
            value = -1
        if value < 0:
            p["error"] = _("%(name)s's stack: give a whole number of chips.") % {"name": p["name"]}
            refused = True
    if not refused:
        return None
    response = render_dashboard(
        request, t, "money", extra={"deal_players": players, "deal_open": True}
    )
    response.status_code = 400
    return response


def _stacks_warning(t: Tournament, stacks: dict[int, int]) -> str:
    """A warning, not a refusal: stacks that do not add up to the chips in play (RULES 5.9)
    are a miscount or a typo the director should see before the players agree."""
    total, chips = sum(stacks.values()), total_chips(t)
    if total == chips:
        return ""
    values = {
        "total": number_format(total, force_grouping=True),
        "chips": number_format(chips, force_grouping=True),
        "diff": number_format(abs(chips - total), force_grouping=True),
    }
    if total < chips:
        return (
            _("The stacks add up to %(total)s; %(chips)s chips are in play: %(diff)s missing.")
            % values
        )
    return (
        _("The stacks add up to %(total)s; %(chips)s chips are in play: %(diff)s too many.")
        % values
    )


@action("money")
def deal(request: HttpRequest, t: Tournament):
    """Step 1 (``quote``): ICM and chip-chop numbers from the stacks. Step 2 (``method``):
    record the amounts every remaining player agreed (RULES 8.3): the ICM or chip-chop
    figures, or custom amounts typed in (``amount_<entry>``). The director ticks each player
    who agreed (``agree_<entry>``); the service refuses the deal while one is not ticked, and
    the numbers stay on screen with the message."""
    method = request.POST.get("method", "")
    if not method and (refused := _deal_form_refused(request, t)) is not None:
        return refused
    stacks = _stacks(request)
    if not method:
        return _deal_quote_panel(request, t, stacks)
    if method not in money.DEAL_METHODS:
        raise DomainError("bad_method", money.MSG_BAD_METHOD, fields={"method": method})
    quote = money_reads.deal_quote(t, stacks)
    agreed = [p["entry"] for p in quote["players"] if request.POST.get(f"agree_{p['entry']}")]
    try:
        if method == "custom":
            amounts = _amounts(request, quote["players"])
        else:
            amounts = {p["entry"]: p[method] for p in quote["players"]}
        money.deal_record(
            tournament_id=t.pk,
            amounts=amounts,
            method=method,
            agreed=agreed,
            stacks=stacks,
            # RULES 9.10: each player still in takes their own bounty in cash now
            include_bounties=bool(request.POST.get("include_bounties")),
            actor=request.user,
        )
    except DomainError as exc:
        return _deal_quote_panel(request, t, stacks, error=exc)
    return after_action(request, t, "money")


@action("money")
def payouts(request: HttpRequest, t: Tournament):
    """The payout table (percent per place, best first) and the rounding unit (RULES 8.2);
    ``default`` goes back to the default table for the field. After the freeze this is the
    explicit, logged change (``payouts_set`` records the before and after)."""
    if request.POST.get("default"):
        percentages: list[int] | None = []
    else:
        percentages = parse_payouts(request.POST.get("payouts", ""))
    raw_unit = request.POST.get("rounding", "")
    unit = parse_money(raw_unit, "rounding") if raw_unit.strip() else None
    money.payouts_set(
        tournament_id=t.pk, percentages=percentages, rounding_unit=unit, actor=request.user
    )
    return after_action(request, t, "money")


@action("money")
def registration_close(request: HttpRequest, t: Tournament):
    """Close late registration now (and, ticked, the rebuy period): the payouts freeze
    (RULES 8.2) and a deal can be recorded (RULES 8.3)."""
    services.registration_close(
        tournament_id=t.pk, rebuys=bool(request.POST.get("rebuys")), actor=request.user
    )
    return after_action(request, t, "money")


# ---------------------------------------------------------------- color-up


def colorup_context(t: Tournament) -> dict[str, Any]:
    pending = colorup_pending(t)
    plan = colorup_rack_plan(t)
    races_by_table: dict[int, list[dict[str, Any]]] = {}
    for race in pending["races"]:
        races_by_table.setdefault(race["table"], []).append(race)
    plan_by_table = {row["table"]: row for row in plan["tables"]}
    for row in pending["tables"]:
        row["races"] = races_by_table.get(row["table"], [])
        row["plan"] = plan_by_table.get(row["table"], {}).get("races", [])
    return {
        "tournament": t,
        "pending": pending,
        "plan": plan,
        "threshold": t.get_race_threshold_display(),
        "version": t.version,  # the page's version poll (dashboard.js), like the dashboard's
    }


@director_view
def colorup_page(request: HttpRequest, t: Tournament):
    return _colorup_render(request, t)


def _colorup_render(
    request, t, *, error: DomainError | None = None, changed: bool = False, table: int = 0
):
    """The color-up page or its races; a refused race (``table``): the message inside that
    table's form, with what was typed in it (issue 31, item 4)."""
    ctx = colorup_context(t)
    ctx["error"] = refusal_text(error) if error else None
    ctx["error_fields"] = error.fields if error else {}
    if error and table:
        for row in ctx["pending"].get("tables", []):
            if row["table"] == table and row.get("to_race"):
                _keep_typed_race(row, request.POST, refusal_text(error))
                ctx["error"] = None
    template = "dashboard/colorup.html#races" if request.htmx else "dashboard/colorup.html"
    response = render(request, template, ctx, status=error.status if error else 200)
    response[VERSION_HEADER] = str(t.version)
    if changed:
        from django_htmx.http import trigger_client_event

        trigger_client_event(response, "tourney-changed", {"panel": "colorup"})
    return response


def _keep_typed_race(row: dict[str, Any], data, message: str) -> None:
    whole = set(data.getlist("whole"))
    row["error"] = message
    row["typed_remove"] = data.get("remove", "")
    row["typed_counted"] = data.get("counted", "")
    for s in row["seats"]:
        s["typed_odd"] = data.get(f"odd_{s['seat']}", "")
        s["typed_cards"] = data.get(f"cards_{s['seat']}", "")
        s["typed_whole"] = str(s["seat"]) in whole


MSG_BAD_SEAT = N_("Seats are whole numbers.")
MSG_FINISH_NOT_RACED = (
    "Not every table with players has raced yet ({tables}). Race them, or tick "
    '"finish anyway" to take the chips out of play without those races (RULES 5).'
)
_FINISH_NOT_RACED = N_(
    "Not every table with players has raced yet (%(tables)s). Race them, or tick "
    '"finish anyway" to take the chips out of play without those races (RULES 5).'
)


def _seat_number(raw: str, field: str) -> int:
    """A seat number from a form key or value: ASCII digits only ("²" passes
    ``str.isdigit()`` but not ``int()``), and a few of them."""
    if (number := ascii_int(raw, 3)) is not None:
        return number
    raise DomainError("bad_input", MSG_BAD_SEAT, fields={field: MSG_BAD_SEAT})


def _colorup_done(request: HttpRequest, t: Tournament, anchor: str = ""):
    t.refresh_from_db()
    if request.htmx:
        return _colorup_render(request, t, changed=True)
    from django.shortcuts import redirect

    return redirect(reverse("tourney-dashboard-colorup", args=[t.pk]) + anchor)


@director_view
def colorup_race(request: HttpRequest, t: Tournament, number: int):
    """One table's race: odd chips per seat, the whole-stack seats (RULES 5.7) and either the
    cards the dealer dealt (RULES 5.8) or a software deal."""
    if request.method != "POST":
        return _colorup_render(request, t)
    try:
        remove = int_field(request.POST, "remove", _("Chip"))
        odd: dict[int, int] = {}
        cards: dict[int, list[str]] = {}
        for key in request.POST:
            if key.startswith("odd_"):
                seat = _seat_number(key[4:], key)
                n = int_field(
                    request.POST, key, _("Seat %(seat)s odd chips") % {"seat": seat}, required=False
                )
                if n:
                    odd[seat] = n
            if key.startswith("cards_"):
                seat = _seat_number(key[6:], key)
                dealt = request.POST[key].replace(",", " ").split()
                if dealt:
                    cards[seat] = dealt
        whole = [_seat_number(s, "whole") for s in request.POST.getlist("whole")]
        counted = int_field(request.POST, "counted", _("Counted"), required=False)
        colorup.colorup_race_table(
            tournament_id=t.pk,
            table_number=number,
            remove=remove,
            odd_chips=odd,
            whole_stack=whole,
            cards=cards if request.POST.get("deal") == "cards" else None,
            counted=counted,
            actor=request.user,
        )
    except DomainError as exc:
        return _colorup_render(request, t, error=exc, table=number)
    return _colorup_done(request, t, f"#table-{number}")


@director_view
def colorup_undo(request: HttpRequest, t: Tournament, number: int):
    """Undo one table's race of a chip (a mistyped count or card): the chips it added leave
    the total (RULES 5.9) and the table races again."""
    if request.method != "POST":
        return _colorup_render(request, t)
    try:
        colorup.colorup_race_undo(
            tournament_id=t.pk,
            table_number=number,
            remove=int_field(request.POST, "remove", _("Chip")),
            actor=request.user,
        )
    except DomainError as exc:
        return _colorup_render(request, t, error=exc)
    return _colorup_done(request, t, f"#table-{number}")


@director_view
def colorup_finish(request: HttpRequest, t: Tournament):
    """Take the ticked chips out of play (RULES 5.1, 5.2) once every table has raced them;
    ``force`` (the director's call) finishes without the missing races."""
    if request.method != "POST":
        return _colorup_render(request, t)
    try:
        chips = []
        for raw in request.POST.getlist("remove"):
            value = int_field({"remove": raw}, "remove", _("Chip"))
            chips.append(value)
        colorup.colorup_finish(
            tournament_id=t.pk,
            denominations=chips,
            force=bool(request.POST.get("force")),
            actor=request.user,
        )
    except DomainError as exc:
        if exc.code == "tables_not_raced":
            tables = "; ".join(
                ngettext("%(chip)ss at table %(tables)s", "%(chip)ss at tables %(tables)s", len(n))
                % {"chip": d, "tables": ", ".join(map(str, n))}
                for d, n in exc.fields.get("tables", {}).items()
            )
            exc = DomainError(
                exc.code,
                _FINISH_NOT_RACED,
                params={"tables": tables},
                fields=exc.fields,
                status=exc.status,
            )
        return _colorup_render(request, t, error=exc)
    return _colorup_done(request, t)
