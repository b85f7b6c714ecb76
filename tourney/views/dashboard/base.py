"""What every dashboard view shares: the director check, reading posted numbers, and rendering
either one panel (htmx) or the whole page (a plain request), with the client event that tells
sibling panels to refresh after a change."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django_htmx.http import trigger_client_event

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import Tournament
from tourney.roles import is_director
from tourney.views.dashboard import log_words, reads, tables_panel

CHANGED_EVENT = "tourney-changed"  # panels listen for it on <body>
VERSION_HEADER = "X-Tourney-Version"
TEMPLATE = "dashboard/index.html"
MSG_NOT_A_NUMBER = "{label}: give a whole number."
# The same, marked for the screens (the label is translated by the caller when it is words).
_NOT_A_NUMBER = N_("%(label)s: give a whole number.")


def director_view(view: Callable) -> Callable:
    """Login required (anonymous → login page); directors only (others 403); the tournament
    row is passed in (404 when missing)."""

    @login_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, tournament_id: int, *args, **kwargs):
        if not is_director(request.user):
            raise PermissionDenied
        t = get_object_or_404(Tournament, pk=tournament_id)
        t.activate_zone()  # times in the card room's zone (issue 31)
        return view(request, t, *args, **kwargs)

    return wrapped


def director_only(view: Callable) -> Callable:
    """The same check for views without a tournament (setup)."""

    @login_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not is_director(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def int_field(data, name: str, label: str, *, required: bool = True) -> int | None:
    """A posted whole number ("5,400" allowed); DomainError with the field named if not."""
    raw = (data.get(name) or "").replace(",", "").replace(" ", "").strip()
    value = None
    if raw:
        try:
            value = int(raw)
        except ValueError:
            value = None
        if value is not None and abs(value) <= 10**12:
            return value
    elif not required:
        return None
    msg = MSG_NOT_A_NUMBER.format(label=label)
    raise DomainError(
        "bad_input", _NOT_A_NUMBER, params={"label": label}, fields={name: msg}
    ) from None


def refuse(
    code: str, english: str, template: str, field: str | None = None, **values: Any
) -> DomainError:
    """A view's refusal: its English is ``english.format(**values)`` (the constant the tests
    compare, shown by the API), its screen text ``template`` (marked with N_, ``%(name)s``
    places, the same English once filled in) in the active language."""
    msg = english.format(**values)
    fields = {field: msg} if field else None
    return DomainError(code, template, params=values or None, fields=fields, status=None)


def clean_text(raw: str) -> str:
    """Typed text for a read (a search, a filter): without NUL, which PostgreSQL refuses."""
    return (raw or "").replace("\x00", "")


def table_number_or_none(raw: str) -> int | None:
    """A table number from a query string, or None when it is not a few ASCII digits."""
    return ascii_int(raw, 6)


# ---------------------------------------------------------------- the page and its panels


def panel_context(request: HttpRequest, t: Tournament, panel: str) -> dict[str, Any]:
    if panel == "clock":
        return reads.clock_panel(t)
    if panel == "tables":
        expand = request.GET.get("table", "")
        # A table number is a few ASCII digits: anything longer is no table (and no overflow
        # in the database driver); a NUL never reaches a query (PostgreSQL refuses it).
        ctx = tables_panel.tables_panel(
            t, q=clean_text(request.GET.get("q", "")), expand=table_number_or_none(expand)
        )
        if ctx["big"]:
            ctx["mini_tiles"] = mini_tiles(
                ctx["tiles"], reverse("tourney-dashboard-tables", args=[t.pk])
            )
        return ctx
    if panel == "eliminations":
        return reads.eliminations_panel(t)
    if panel == "moves":
        return reads.moves_panel(t)
    if panel == "log":
        return reads.log_panel(t, kind=clean_text(request.GET.get("kind", ""))[:40])
    if panel == "money":
        return reads.money_context(t)
    raise ValueError(panel)


def mini_tiles(tiles, tables_url: str) -> str:
    """A big field's table grid, one small tile per table, as HTML: built in Python, since a
    template loop over a thousand tiles costs more than the rest of the page
    (benchmarks/pages.py). Every value is a number, a flag or escaped status words."""
    url = escape(tables_url)
    out = []
    for tile in tiles:
        n = int(tile["number"])
        classes = "tile mini" + (" short" if tile["short"] else "")
        classes += " open" if tile["expanded"] else ""
        title = _("Table %(table)d: %(players)d of %(capacity)d") % {
            "table": n,
            "players": int(tile["players"]),
            "capacity": int(tile["capacity"]),
        }
        if tile["button"]:
            title += _(", button seat %(seat)d") % {"seat": int(tile["button"])}
        title += _(", breaks %(rank)d") % {"rank": int(tile["break_pos"])}
        title = escape(title + "".join(f", {word}" for word in tile.get("status", ())) + ".")
        out.append(
            f'<a class="{classes}" id="mini-{n}" href="{url}?table={n}#table-{n}" '
            f'hx-get="{url}?table={n}" title="{title}">'
            f"<b>{n}</b> <span>{int(tile['players'])}/{int(tile['capacity'])}</span></a>"
        )
    return mark_safe("\n".join(out))  # noqa: S308 - numbers and an escaped URL only


MAIN_PANELS = ("clock", "tables", "eliminations", "moves", "log", "money")


def page_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    for panel in MAIN_PANELS:
        ctx.update(panel_context(request, t, panel))
    return ctx


BUST_ROWS_SHOWN = 6  # every row the elimination view accepts (panels.BUST_ROWS is this)


def _bust_rows_echo(request: HttpRequest) -> list[dict[str, str]]:
    """The elimination rows as typed, so a refused form keeps what the director entered."""
    data = request.POST if request.method == "POST" and not request.POST.get("confirm") else {}
    return [
        {
            "n": n,
            "table": data.get(f"table_{n}", ""),
            "seat": data.get(f"seat_{n}", ""),
            "stack": data.get(f"stack_{n}", ""),
        }
        for n in range(1, BUST_ROWS_SHOWN + 1)
    ]


def _refused_form(request: HttpRequest) -> str:
    """Which form was refused ("move", "table-close", "seat", …: its URL name without the
    prefix), so that form alone shows again with what was typed (issue 31, item 4)."""
    match = request.resolver_match
    return (match.url_name or "").removeprefix("tourney-dashboard-") if match else ""


def _keep_typed_ranks(ctx: dict[str, Any], data) -> None:
    """A refused break order: each tile's box shows the rank typed, not the saved one."""
    for tile in ctx.get("tiles") or ():
        typed = data.get(f"rank_{tile['number']}")
        if typed is not None:
            tile["break_pos"] = typed


def _version(t: Tournament) -> int:
    return Tournament.objects.filter(pk=t.pk).values_list("version", flat=True).first() or 0


def _refusal(panel: str, error: DomainError) -> str:
    """A refusal in the screen's language (the log's undo names the action it cannot undo)."""
    return log_words.undo_refusal(error) if panel == "log" else refusal_text(error)


def render_dashboard(
    request: HttpRequest,
    t: Tournament,
    panel: str,
    *,
    error: DomainError | None = None,
    extra: dict[str, Any] | None = None,
    changed: bool = False,
) -> HttpResponse:
    """One panel for htmx, else the whole page (a plain form post that failed lands here with
    its message). ``changed``: a service wrote, so sibling panels refresh."""
    if request.htmx:
        ctx = panel_context(request, t, panel)
        template = f"{TEMPLATE}#{panel}"
    else:
        ctx = page_context(request, t)
        template = TEMPLATE
    ctx.update(
        tournament=t,
        # Over (the last bust): the panels drop Bust, hand for hand and the table tools.
        finished=t.status == Tournament.Status.FINISHED,
        errors={panel: _refusal(panel, error)} if error else {},
        error_fields=error.fields if error else {},
        version=_version(t),
        posted=request.POST if request.method == "POST" else {},
        bust_rows=_bust_rows_echo(request),
        refused=_refused_form(request) if error else "",
        **(extra or {}),
    )
    if error and ctx["refused"] == "break-order":
        _keep_typed_ranks(ctx, request.POST)
    response = render(request, template, ctx, status=error.status if error else 200)
    response[VERSION_HEADER] = str(ctx["version"])
    if changed:
        trigger_client_event(response, CHANGED_EVENT, {"panel": panel})
    return response


def after_action(request: HttpRequest, t: Tournament, panel: str, **extra) -> HttpResponse:
    """Success: htmx gets the fresh panel and the change event; a plain form is redirected
    back to the page (post/redirect/get) at the panel's anchor."""
    if request.htmx:
        t.refresh_from_db()  # the service wrote through its own locked copy
        return render_dashboard(request, t, panel, changed=True, extra=extra)
    return redirect(reverse("tourney-dashboard", args=[t.pk]) + f"#{panel}")


def domain_errors(panel: str) -> Callable:
    """DomainError → the panel with its message and the error's status; nothing changed
    (the service's transaction rolled back)."""

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapped(request: HttpRequest, t: Tournament, *args, **kwargs):
            try:
                return fn(request, t, *args, **kwargs)
            except DomainError as exc:
                return render_dashboard(request, t, panel, error=exc)

        return wrapped

    return decorate


def action(panel: str) -> Callable:
    """A director's POST-only action on ``panel`` (a GET goes back to the page)."""

    def decorate(fn: Callable) -> Callable:
        handled = domain_errors(panel)(fn)

        @director_view
        @functools.wraps(fn)
        def wrapped(request: HttpRequest, t: Tournament, *args, **kwargs):
            if request.method != "POST":
                return redirect(reverse("tourney-dashboard", args=[t.pk]) + f"#{panel}")
            return handled(request, t, *args, **kwargs)

        return wrapped

    return decorate
