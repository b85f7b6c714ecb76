"""The dashboard page, its panels (GET) and the actions on them (POST). Thin: check access,
read the form, call one service, render."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_safe

from tables import services as table_services
from tables.models import Move, Seat
from tourney import services
from tourney.engine import clock as clock_engine
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import Tournament
from tourney.services import setup
from tourney.views.dashboard import bounties as bounty_screens
from tourney.views.dashboard import reads
from tourney.views.dashboard.base import (
    BUST_ROWS_SHOWN,
    VERSION_HEADER,
    action,
    after_action,
    clean_text,
    director_view,
    domain_errors,
    int_field,
    refuse,
    render_dashboard,
    table_number_or_none,
)
from tourney.views.dashboard.reads import TO_ANNOUNCE

BUST_ROWS = BUST_ROWS_SHOWN  # a hand with up to this many busts is entered at once
MSG_NOBODY_THERE = "Nobody sits at table {table} seat {seat}."
MSG_GIVE_A_BUST = "Give the table and seat of at least one player who is out."
MSG_ROW_INCOMPLETE = "Row {n}: give the table and the seat."
MSG_STACK_NEEDED = (
    "Row {n}: several players are out in this hand: give each one's stack at the start of "
    "the hand (the bigger stack finishes higher)."
)
MSG_STACK_NEEDED_H4H = (
    "Row {n}: hand for hand is on: give the stack at the start of the hand (every bust of "
    "the round is ordered by it)."
)
MSG_BAD_STACK = (
    "Row {n}: the stack at the start of the hand must be a number of chips above zero, e.g. 12500."
)
MSG_SAME_PLAYER_TWICE = (
    "Rows {first} and {n} both name table {table} seat {seat}: give each player who is out "
    "once (clear one of the rows)."
)
MSG_BAD_ORDER_TEXT = 'List the table numbers in the order they break, e.g. "8 7 6".'
# The same refusals for the screens (issue 29): marked for translation, %(name)s places.
_NOBODY_THERE = N_("Nobody sits at table %(table)s seat %(seat)s.")
_GIVE_A_BUST = N_("Give the table and seat of at least one player who is out.")
_ROW_INCOMPLETE = N_("Row %(n)s: give the table and the seat.")
_STACK_NEEDED = N_(
    "Row %(n)s: several players are out in this hand: give each one's stack at the start of "
    "the hand (the bigger stack finishes higher)."
)
_STACK_NEEDED_H4H = N_(
    "Row %(n)s: hand for hand is on: give the stack at the start of the hand (every bust of "
    "the round is ordered by it)."
)
_BAD_STACK = N_(
    "Row %(n)s: the stack at the start of the hand must be a number of chips above zero, "
    "e.g. 12500."
)
_SAME_PLAYER_TWICE = N_(
    "Rows %(first)s and %(n)s both name table %(table)s seat %(seat)s: give each player who "
    "is out once (clear one of the rows)."
)
_BAD_ORDER_TEXT = N_('List the table numbers in the order they break, e.g. "8 7 6".')


@director_view
@require_safe
def page(request: HttpRequest, t: Tournament):
    return render_dashboard(request, t, "clock")


@director_view
@require_safe
def version(request: HttpRequest, t: Tournament):
    """The cheap number other directors' screens poll every 2 s (bumped by every service)."""
    v = Tournament.objects.filter(pk=t.pk).values_list("version", flat=True).first()
    response = JsonResponse({"version": v})
    response[VERSION_HEADER] = str(v)
    response["Cache-Control"] = "no-store"
    return response


def _panel(name: str):
    @director_view
    @require_safe
    def view(request: HttpRequest, t: Tournament):
        return render_dashboard(request, t, name)

    view.__name__ = f"{name}_panel"
    return view


tables_panel = _panel("tables")
eliminations_panel = _panel("eliminations")
moves_panel = _panel("moves")
log_panel = _panel("log")


# ---------------------------------------------------------------- clock


@director_view
def clock(request: HttpRequest, t: Tournament):
    if request.method != "POST":
        return render_dashboard(request, t, "clock")
    return _clock_action(request, t)


def time_left_seconds(text: str) -> int | None:
    """What a director types as the time left: "12" (minutes), "12:30" (minutes:seconds) or
    "1:05:00" (hours:minutes:seconds) → seconds; None when it is none of these."""
    parts = (text or "").strip().split(":")
    if not 1 <= len(parts) <= 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    if any(len(p) > 4 for p in parts) or any(int(p) >= 60 for p in parts[1:]):
        return None
    total = 0
    for p in parts if len(parts) > 1 else [*parts, "0"]:
        total = total * 60 + int(p)
    return total


@domain_errors("clock")
def _clock_action(request: HttpRequest, t: Tournament):
    act = request.POST.get("action", "")
    if act == "set":
        seconds = time_left_seconds(request.POST.get("left", ""))
        if not seconds:
            raise DomainError(
                "bad_input",
                clock_engine.MSG_BAD_TIME_LEFT,
                fields={"left": clock_engine.MSG_BAD_TIME_LEFT},
            )
        services.clock_action(tournament_id=t.pk, action="set", seconds=seconds, actor=request.user)
        return after_action(request, t, "clock")
    seconds = int_field(request.POST, "seconds", _("Seconds"), required=act == "adjust")
    index = int_field(request.POST, "index", _("Level"), required=act == "jump")
    services.clock_action(
        tournament_id=t.pk, action=act, seconds=seconds, index=index, actor=request.user
    )
    return after_action(request, t, "clock")


@action("eliminations")
def hand_for_hand(request: HttpRequest, t: Tournament):
    if request.POST.get("next"):
        services.hand_for_hand_next_round(tournament_id=t.pk, actor=request.user)
    else:
        services.hand_for_hand_set(
            tournament_id=t.pk, on=request.POST.get("on") == "1", actor=request.user
        )
    return after_action(request, t, "eliminations")


# ---------------------------------------------------------------- tables


@action("tables")
def button(request: HttpRequest, t: Tournament, number: int):
    seat = int_field(request.POST, "seat", _("Seat"))
    table_services.table_set_button(
        tournament_id=t.pk, table_number=number, seat=seat, actor=request.user
    )
    return after_action(request, t, "tables")


@action("tables")
def table_open(request: HttpRequest, t: Tournament):
    count = int_field(request.POST, "count", _("Tables to open"), required=False) or 1
    table_services.table_open(tournament_id=t.pk, count=count, actor=request.user)
    return after_action(request, t, "tables")


@action("tables")
def table_close(request: HttpRequest, t: Tournament):
    number = int_field(request.POST, "table", _("Table"))
    table_services.table_close(tournament_id=t.pk, table_number=number, actor=request.user)
    return after_action(request, t, "tables")


@action("tables")
def seat_available(request: HttpRequest, t: Tournament):
    number = int_field(request.POST, "table", _("Table"))
    seat = int_field(request.POST, "seat", _("Seat"))
    table_services.seat_set_available(
        tournament_id=t.pk,
        table_number=number,
        seat=seat,
        available=request.POST.get("available") == "1",
        actor=request.user,
    )
    return after_action(request, t, "tables")


@action("tables")
def break_order(request: HttpRequest, t: Tournament):
    """Either ``order`` ("8 7 6 …", first breaks first) or one ``rank_<table>`` per tile."""
    text = request.POST.get("order", "").replace(",", " ").split()
    if text:
        order = [table_number_or_none(x) for x in text]
        if None in order:
            raise refuse("bad_order", MSG_BAD_ORDER_TEXT, _BAD_ORDER_TEXT, "order")
    else:
        ranks = []
        for key in request.POST:
            number = table_number_or_none(key[5:]) if key.startswith("rank_") else None
            if number is not None:
                rank = int_field(request.POST, key, _("Table %(n)s") % {"n": number})
                ranks.append((rank, number))
        order = [n for _rank, n in sorted(ranks)]
    table_services.table_break_order_set(tournament_id=t.pk, order=order, actor=request.user)
    return after_action(request, t, "tables")


def _entry_at(t: Tournament, table: int, seat: int) -> int:
    entry = (
        Seat.objects.filter(tournament=t, table__number=table, number=seat)
        .values_list("entry_id", flat=True)
        .first()
    )
    if entry is None:
        exc = refuse("seat_empty", MSG_NOBODY_THERE, _NOBODY_THERE, "seat", table=table, seat=seat)
        exc.status = 409
        raise exc
    return entry


@action("tables")
def move_manual(request: HttpRequest, t: Tournament):
    entry = _entry_at(
        t,
        int_field(request.POST, "from_table", _("From table")),
        int_field(request.POST, "from_seat", _("From seat")),
    )
    table_services.move_manual(
        tournament_id=t.pk,
        entry_id=entry,
        table_number=int_field(request.POST, "to_table", _("To table")),
        seat=int_field(request.POST, "to_seat", _("To seat")),
        actor=request.user,
    )
    return after_action(request, t, "tables")


# ---------------------------------------------------------------- eliminations


def _bust_rows(t: Tournament, data) -> list[dict[str, Any]]:
    """The rows typed in (table, seat, stack) → who sits there; nothing is written. The
    starting stack is needed only when several players are out in one hand, or in hand-for-
    hand play (RULES 7.1, 7.3): it orders them; one player alone is simply next out."""
    rows: list[dict[str, Any]] = []
    seen: dict[int, int] = {}  # entry → the row that named it
    for n in range(1, BUST_ROWS + 1):
        keys = (f"table_{n}", f"seat_{n}", f"stack_{n}")
        if not any((data.get(k) or "").strip() for k in keys):
            continue
        if not all((data.get(k) or "").strip() for k in keys[:2]):
            raise refuse("bad_input", MSG_ROW_INCOMPLETE, _ROW_INCOMPLETE, f"row_{n}", n=n)
        table = int_field(data, keys[0], _("Row %(n)s table") % {"n": n})
        seat = int_field(data, keys[1], _("Row %(n)s seat") % {"n": n})
        stack = None
        if (data.get(keys[2]) or "").strip():
            stack = int_field(data, keys[2], _("Row %(n)s starting stack") % {"n": n})
            if stack <= 0:
                raise refuse("bad_input", MSG_BAD_STACK, _BAD_STACK, keys[2], n=n)
        entry = _entry_at(t, table, seat)
        if entry in seen:
            raise refuse(
                "bad_input",
                MSG_SAME_PLAYER_TWICE,
                _SAME_PLAYER_TWICE,
                f"row_{n}",
                first=seen[entry],
                n=n,
                table=table,
                seat=seat,
            )
        seen[entry] = n
        rows.append({"n": n, "table": table, "seat": seat, "stack": stack, "entry": entry})
    if not rows:
        raise refuse("bad_input", MSG_GIVE_A_BUST, _GIVE_A_BUST, "row_1")
    for r in rows:
        if r["stack"] is None and (len(rows) > 1 or t.hand_for_hand):
            english, template = (
                (MSG_STACK_NEEDED_H4H, _STACK_NEEDED_H4H)
                if len(rows) == 1
                else (MSG_STACK_NEEDED, _STACK_NEEDED)
            )
            raise refuse("bad_input", english, template, f"stack_{r['n']}", n=r["n"])
    return rows


@director_view
def eliminations(request: HttpRequest, t: Tournament):
    if request.method != "POST":
        return render_dashboard(request, t, "eliminations")
    return _eliminate(request, t)


@domain_errors("eliminations")
def _eliminate(request: HttpRequest, t: Tournament):
    """Step 1 (no ``confirm``): show who sits in the seats typed, with their stacks, and the
    players at their table to pick the winner of the hand from (RULES 9.5). Step 2: record
    those entries (ids, so a seat that changed meanwhile cannot hit someone else) and the
    winners ticked; a refusal (no winner in a bounty event) shows step 1 again with its
    message and what was ticked."""
    if not request.POST.get("confirm"):
        return _bust_preview(request, t, _bust_rows(t, request.POST))
    rows = []
    for n in range(1, BUST_ROWS + 1):
        if request.POST.get(f"entry_{n}"):
            rows.append(
                {
                    "n": n,
                    "entry": int_field(request.POST, f"entry_{n}", _("Row %(n)s entry") % {"n": n}),
                    # Blank: one player alone, no stack needed (the service checks, RULES 7.1).
                    "stack": int_field(
                        request.POST, f"stack_{n}", _("Row %(n)s starting stack") % {"n": n}
                    )
                    if (request.POST.get(f"stack_{n}") or "").strip()
                    else None,
                }
            )
    if not rows:
        raise refuse("bad_input", MSG_GIVE_A_BUST, _GIVE_A_BUST, "row_1")
    try:
        services.elimination_record(
            tournament_id=t.pk,
            busts=[(r["entry"], r["stack"]) for r in rows],
            winners=bounty_screens.posted_winners(
                request.POST, [(i, r["entry"]) for i, r in enumerate(rows, start=1)]
            ),
            actor=request.user,
        )
    except DomainError as exc:
        if not _seated_now(t, rows):  # someone moved or went out meanwhile: start again
            raise
        return _bust_preview(request, t, rows, error=exc, data=request.POST)
    return after_action(request, t, "eliminations")


def _seated_now(t: Tournament, rows: list[dict[str, Any]]) -> bool:
    """Fill each row's table and seat from where its entry sits; False when one is gone."""
    where = {
        e: (tn, s)
        for e, tn, s in Seat.objects.filter(
            tournament=t, entry_id__in=[r["entry"] for r in rows]
        ).values_list("entry_id", "table__number", "number")
    }
    for r in rows:
        if r["entry"] not in where:
            return False
        r["table"], r["seat"] = where[r["entry"]]
    return True


def _bust_preview(
    request: HttpRequest,
    t: Tournament,
    rows: list[dict[str, Any]],
    *,
    error: DomainError | None = None,
    data=None,
) -> HttpResponse:
    names = dict(
        Seat.objects.filter(entry_id__in=[r["entry"] for r in rows]).values_list(
            "entry_id", "entry__player__name"
        )
    )
    for r in rows:
        r["name"] = names.get(r["entry"], "")
    extra = {"preview": rows, **bounty_screens.preview_context(t, rows, data)}
    return render_dashboard(request, t, "eliminations", error=error, extra=extra)


# ---------------------------------------------------------------- moves


@director_view
def moves(request: HttpRequest, t: Tournament):
    if request.method != "POST":
        return render_dashboard(request, t, "moves")
    return _announce(request, t)


@domain_errors("moves")
def _announce(request: HttpRequest, t: Tournament):
    if request.POST.get("all"):
        ids = list(
            Move.objects.filter(tournament=t, announced=False)
            .filter(TO_ANNOUNCE)
            .values_list("pk", flat=True)
        )
    else:
        ids = []
        for raw in request.POST.getlist("move"):
            # ASCII digits, and few enough for the id column (no overflow in the driver).
            if (move_id := ascii_int(raw)) is None:
                raise DomainError("bad_input", setup.MSG_MOVE_NOT_FOUND, fields={"moves": raw})
            ids.append(move_id)
    setup.move_mark_announced(tournament_id=t.pk, move_ids=ids, actor=request.user)
    return after_action(request, t, "moves")


# ---------------------------------------------------------------- undo and redo (issue 10)


@action("log")
def undo(request: HttpRequest, t: Tournament):
    from tourney.services.undo import action_redo, action_undo

    # ``event``: the action the button named; a stale click (another director, a double
    # click) is refused under the lock instead of undoing the action before it.
    raw = (request.POST.get("event") or "").strip()
    expected = ascii_int(raw)
    if request.POST.get("redo"):
        action_redo(tournament_id=t.pk, actor=request.user, expected=expected)
    else:
        action_undo(tournament_id=t.pk, actor=request.user, expected=expected)
    return after_action(request, t, "log")


@director_view
@require_safe
def log_event(request: HttpRequest, t: Tournament, event_id: int) -> HttpResponse:
    """One event of the log in detail: who, when, what, and the state before and after
    (worked out now, from the undo journal: ``tourney.services.undo.event_changes``)."""
    from django.shortcuts import render

    from tourney.models import Event
    from tourney.services.undo import event_changes

    ev = (
        Event.objects.filter(tournament=t, pk=event_id).select_related("actor").first()
        if 0 < event_id < 2**63
        else None
    )
    if ev is None:
        return HttpResponse(_("No such event in this tournament."), status=404)
    ctx = {
        "tournament": t,
        "ev": ev,
        "words": reads._event_words(ev.kind, ev.payload or {}, reads.log_lookups(t, [ev])),
        "details": {
            k: v for k, v in (ev.payload or {}).items() if k not in ("undo", "call", "bounties")
        },
        # RULES 9: an elimination's bounties, one row per payment (names looked up)
        "bounties": bounty_screens.log_rows((ev.payload or {}).get("bounties"))
        if ev.kind in ("elimination", "deal_recorded")
        else [],
        "changes": event_changes(ev),
        "journaled": "undo" in (ev.payload or {}),
    }
    template = "dashboard/log_event.html"
    return render(request, template + "#detail" if request.htmx else template, ctx)


@director_view
def log_csv(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The audit log as CSV (issue 10): who, when, what, and the action's details; the undo
    journal itself stays out."""
    import csv
    import json

    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}-log.csv"'
    writer = csv.writer(response)
    writer.writerow(("id", "time", "actor", "kind", "undone", "details"))
    kind = clean_text(request.GET.get("kind", ""))[:40]
    for ev in reads.log_events(t, kind).iterator(chunk_size=500):
        details = {k: v for k, v in (ev.payload or {}).items() if k not in ("undo", "call")}
        writer.writerow(
            (
                ev.pk,
                ev.created_at.isoformat(),
                ev.actor.get_username() if ev.actor else "system",
                ev.kind,
                int(ev.undone),
                json.dumps(details, sort_keys=True),
            )
        )
    return response
