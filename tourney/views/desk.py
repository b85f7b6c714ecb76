"""The registration desk screen (/desk/<tournament>/). Thin: check access, read a form, call
one service, render. With htmx a view answers with a fragment of desk/index.html (``#main``,
``#results``, ``#side``) and tells the side panel to refresh (``desk-changed``); without
JavaScript every form is a plain POST answered by a 303 to the page, or the page itself with
the message when refused."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import trigger_client_event

from tourney import services
from tourney.core.language import refusal_text
from tourney.core.money_text import money_exact
from tourney.engine.errors import DomainError
from tourney.models import Entry, Player, Tournament
from tourney.roles import is_desk, is_director
from tourney.selectors import desk as desk_reads
from tourney.services import desk, money
from tourney.services.tickets import ticket_register
from tourney.views import desk_panel, public_url
from tourney.views.formatting import qr_svg

MSG_OVERRIDE_DIRECTOR_ONLY = N_("Only the director can register after registration has closed.")
MSG_BAD_PLAYER = N_("Choose a player from the list.")
CHANGED = "desk-changed"


def _tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    # The desk role can do only this screen (and reading); strangers get 403.
    if not is_desk(request.user):
        raise PermissionDenied
    t = get_object_or_404(Tournament, pk=tournament_id)
    t.activate_zone()  # times in the card room's zone (issue 31)
    return t


desk_tournament = _tournament  # the desk's access check, for the desk's other screens


def shown(error: DomainError | None) -> dict[str, Any] | None:
    """A refusal as a screen shows it: its code, and its message in the active language."""
    if error is None:
        return None
    return {"code": error.code, "message": refusal_text(error), "fields": error.fields}


def chips_text(chips: int) -> str:
    """A chip count with the active language's thousands separator: "25,000", "25.000"."""
    return number_format(chips, force_grouping=True)


def _card(request: HttpRequest, t: Tournament, entry: Entry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    card = desk_reads.seat_card(t, entry)
    # The player's own view of the phone page: their seat and moves, found by their name.
    path = reverse("tourney-player", args=[t.display_token])
    card["player_url"] = public_url(request, f"{path}?{urlencode({'name': card['name']})}")
    card["qr"] = qr_svg(card["player_url"])
    return card


def _entry_or_none(t: Tournament, raw: Any) -> Entry | None:
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        return None
    if not 0 < pk < desk.MAX_ID:
        return None
    return Entry.objects.filter(tournament=t, pk=pk).select_related("player").first()


def _main_context(
    request: HttpRequest,
    t: Tournament,
    *,
    card_entry: Entry | None = None,
    query: str = "",
    error: DomainError | None = None,
    player_id: int | None = None,
    confirm_override: bool = False,
) -> dict[str, Any]:
    undo = desk_reads.undoable_entry(t, request.user)
    who, reentry = query, False
    if confirm_override and player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        who = player.name if player else query
        reentry = desk_reads.is_reentry_of_known_player(t, player_id)
    return {
        "tournament": t,
        "status": desk_reads.desk_status(t),
        "card": _card(request, t, card_entry),
        "undo": undo,
        "undo_expires_ms": int(undo.created_at.timestamp() * 1000) + desk_reads.UNDO_SECONDS * 1000
        if undo
        else None,
        "query": query,
        "results": desk_reads.player_search(t, query) if query.strip() else [],
        "error": shown(error),
        "player_id": player_id,
        "confirm_override": confirm_override,
        "confirm_who": who,
        "confirm_reentry": reentry,
        "director": is_director(request.user),
        "undo_seconds": desk_reads.UNDO_SECONDS,
    }


def _side_context(t: Tournament) -> dict[str, Any]:
    return {
        "tournament": t,
        "offers": desk_reads.offers(t),
        "recent": desk_reads.recent_entries(t),
        "alternates": desk_reads.alternates(t),
        "seated_alternates": desk_reads.seated_from_alternates(t),
        "totals": desk_reads.desk_totals(t),
        "bounty": desk_reads.bounty_offer(t),  # RULES 9.1: what a re-entry's button says
    }


def page_context(request: HttpRequest, t: Tournament, **main: Any) -> dict[str, Any]:
    """The whole page: the main panel (``main``: ``_main_context``'s arguments), the side
    lists and the other events (issue 28), for the player ``ep`` (an id) or ``en`` (a name)."""
    context = _main_context(request, t, **main)
    context.update(_around_context(request, t))
    return context


def _around_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    """The side lists and the other events: the page around the main panel."""
    player_id = desk_panel.int_or_none(request.GET.get("ep"))
    name = request.GET.get("en", "")
    context = _side_context(t)
    context.update(desk_panel.panel_context(request, t, player_id=player_id, name=name))
    return context


def _query(request: HttpRequest) -> str:
    # ``q`` from links; ``name`` from the name box itself (htmx sends the box's own value and
    # the Find button of the no-JavaScript form sends the form).
    return request.GET.get("q", request.GET.get("name", ""))


def _index_url(t: Tournament, **params: Any) -> str:
    url = reverse("tourney-desk", args=[t.pk])
    params = {k: v for k, v in params.items() if v not in (None, "")}
    return f"{url}?{urlencode(params)}" if params else url


def see_other(url: str) -> HttpResponseRedirect:
    response = HttpResponseRedirect(url)
    response.status_code = 303  # after a POST the browser GETs the page
    return response


def _answer(
    request: HttpRequest, t: Tournament, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """The main panel as a fragment for htmx, else the whole page."""
    if request.htmx:
        response = render(request, "desk/index.html#main", context, status=status)
    else:
        context.update(_around_context(request, t))
        response = render(request, "desk/index.html", context, status=status)
    if status < 400:
        trigger_client_event(response, CHANGED)
    return response


def _done(request: HttpRequest, t: Tournament, entry: Entry | None) -> HttpResponse:
    if request.htmx:
        return _answer(request, t, _main_context(request, t, card_entry=entry))
    return see_other(_index_url(t, entry=entry.pk if entry else None))


def _placed(card: dict[str, Any]) -> str:
    if card["table"] is not None:
        return _("table %(table)s, seat %(seat)s") % {"table": card["table"], "seat": card["seat"]}
    if card["alternate_position"]:
        return _("alternate no. %(place)s") % {"place": card["alternate_position"]}
    return _("seat drawn at the start")


def _entered(card: dict[str, Any], number: int, *, reentry: bool) -> str:
    """ "Registered #12 Ann Lee: table 3, seat 4." (or "Re-entered"), with a new bounty."""
    values = {"number": number, "name": card["name"], "placed": _placed(card)}
    if reentry:
        words = _("Re-entered #%(number)s %(name)s: %(placed)s.") % values
    else:
        words = _("Registered #%(number)s %(name)s: %(placed)s.") % values
    return words + _new_bounty(card)


# ---------------------------------------------------------------- pages


@login_required
@require_safe
def index(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The desk. ``?q=`` lists known players (the search without JavaScript); ``?entry=``
    shows that entry's seat card (to reprint it)."""
    t = _tournament(request, tournament_id)
    main = {"card_entry": _entry_or_none(t, request.GET.get("entry")), "query": _query(request)}
    if request.htmx:
        return render(request, "desk/index.html#main", _main_context(request, t, **main))
    return render(request, "desk/index.html", page_context(request, t, **main))


@login_required
@require_safe
def search(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Type-ahead: the known players matching ``q``."""
    t = _tournament(request, tournament_id)
    query = _query(request)
    if not request.htmx:
        return HttpResponseRedirect(_index_url(t, q=query))
    context = {
        "tournament": t,
        "query": query,
        "results": desk_reads.player_search(t, query),
        "status": desk_reads.desk_status(t),
    }
    return render(request, "desk/index.html#results", context)


@login_required
@require_safe
def side(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Recent entries, alternates, who got seated from them, today's totals."""
    t = _tournament(request, tournament_id)
    if not request.htmx:
        return HttpResponseRedirect(_index_url(t))
    return render(request, "desk/index.html#side", _side_context(t))


# ---------------------------------------------------------------- actions


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Register the chosen known player (re-entry if all their entries here are out) or a new
    player by name. After registration closes the director may confirm an override."""
    t = _tournament(request, tournament_id)
    name = request.POST.get("name", "")
    raw_player = request.POST.get("player_id", "").strip()
    override = request.POST.get("override") == "1"
    player_id = None
    if raw_player:
        try:
            player_id = int(raw_player)
            if not 0 < player_id < desk.MAX_ID:
                raise ValueError(raw_player)
        except ValueError:
            error = DomainError("bad_input", MSG_BAD_PLAYER, fields={"player_id": MSG_BAD_PLAYER})
            context = _main_context(request, t, query=name, error=error)
            return _answer(request, t, context, status=400)
    if override and not is_director(request.user):
        error = DomainError("override_director_only", MSG_OVERRIDE_DIRECTOR_ONLY, status=403)
        context = _main_context(request, t, query=name, error=error, player_id=player_id)
        return _answer(request, t, context, status=403)
    try:
        entry, kind = desk.desk_register(
            tournament_id=t.pk,
            name=name,
            player_id=player_id,
            actor=request.user,
            override=override,
        )
    except DomainError as exc:
        card_entry = None
        if exc.code == "player_in_play":
            card_entry = _entry_or_none(t, exc.fields.get("entry"))
        # RULES 4.4 closes registration and re-entry alike; the director may override both,
        # after confirming (a re-entry stays the known player's, not a new player's).
        confirm = exc.code == "registration_closed" and is_director(request.user)
        context = _main_context(
            request,
            t,
            card_entry=card_entry,
            query=name,
            error=exc,
            player_id=player_id,
            confirm_override=confirm,
        )
        return _answer(request, t, context, status=exc.status)
    card = desk_reads.seat_card(t, entry)
    messages.success(request, _entered(card, entry.number, reentry=kind == "reentered"))
    _say_opened(request, entry)
    return _done(request, t, entry)


MSG_BAD_TICKET = N_("Choose the player's ticket from the list.")


@login_required
@require_POST
def ticket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Issue 28, RULES 12.5: register a player with their satellite's ticket into this event,
    at no charge (``services.tickets.ticket_register``); refusals in place, as Enter's."""
    t = _tournament(request, tournament_id)
    raw = request.POST.get("ticket", "").strip()
    ticket_id = int(raw) if raw.isdigit() and 0 < int(raw) < desk.MAX_ID else None
    try:
        if ticket_id is None:
            raise DomainError("bad_input", MSG_BAD_TICKET, fields={"ticket": MSG_BAD_TICKET})
        entry = ticket_register(ticket_id=ticket_id, actor=request.user, tournament_id=t.pk)
    except DomainError as exc:
        card_entry = None
        if exc.code == "player_in_play":
            card_entry = _entry_or_none(t, exc.fields.get("entry"))
        context = _main_context(request, t, card_entry=card_entry, error=exc)
        return _answer(request, t, context, status=exc.status)
    card = desk_reads.seat_card(t, entry)
    label = card["ticket"]["label"] if card["ticket"] else _("Paid by ticket")
    words = _("Registered #%(number)s %(name)s: %(placed)s. %(ticket)s: no charge.") % {
        "number": entry.number,
        "name": card["name"],
        "placed": _placed(card),
        "ticket": label,
    }
    messages.success(request, words + _new_bounty(card))
    _say_opened(request, entry)
    return _done(request, t, entry)


def _new_bounty(card: dict[str, Any]) -> str:
    """RULES 9.1: a re-entry carries a new bounty on its head (fixed and progressive events)."""
    if card["reentry"] and card["starting_bounty"]:
        return " " + _("A new bounty of %(bounty)s on their head.") % {
            "bounty": card["starting_bounty"]
        }
    return ""


def _say_opened(request: HttpRequest, entry: Entry) -> None:
    """Issue 31: a table opened for a registration or a re-entry is never opened silently."""
    opened = getattr(entry, "table_opened", None)
    if opened is not None:
        moved = getattr(entry, "balancing_moves", 0)
        messages.warning(request, _opened_words(opened, moved))


def _opened_words(table: int, moved: int) -> str:
    words = _("Every seat was taken: table %(table)s was opened.") % {"table": table}
    if moved:
        words += " " + ngettext(
            "%(count)s player moved there to balance the tables (RULES 3.3): announce the "
            "moves (the dashboard's moves to announce).",
            "%(count)s players moved there to balance the tables (RULES 3.3): announce the "
            "moves (the dashboard's moves to announce).",
            moved,
        ) % {"count": moved}
    return words


@login_required
@require_POST
def undo(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Undo the clerk's own last registration within a minute (tourney.services.desk)."""
    t = _tournament(request, tournament_id)
    entry = _entry_or_none(t, request.POST.get("entry"))
    try:
        if entry is None:
            raise DomainError("entry_not_found", desk.MSG_ENTRY_NOT_FOUND, status=404)
        undone = desk.entry_registration_undo(
            tournament_id=t.pk, entry_id=entry.pk, actor=request.user
        )
    except DomainError as exc:
        return _answer(request, t, _main_context(request, t, error=exc), status=exc.status)
    messages.success(
        request,
        _("Undone: #%(number)s %(name)s.") % {"number": undone["number"], "name": undone["name"]},
    )
    return _done(request, t, None)


ENTRY_ACTIONS = {
    "rebuy": money.entry_rebuy,
    "addon": money.entry_addon,
    "reenter": services.entry_reenter,
}


def _taken_words(action: str) -> str:
    if action == "rebuy":
        return _("Rebuy for #%(number)s %(name)s: %(amount)s taken, %(chips)s chips.")
    return _("Add-on for #%(number)s %(name)s: %(amount)s taken, %(chips)s chips.")


@login_required
@require_POST
def entry_action(request: HttpRequest, tournament_id: int, entry_id: int, action: str):
    """Rebuy, add-on or re-entry of one entry, through the money services (RULES 4.4, 8.1)."""
    t = _tournament(request, tournament_id)
    service = ENTRY_ACTIONS[action]
    try:
        entry = service(tournament_id=t.pk, entry_id=entry_id, actor=request.user)
    except DomainError as exc:
        # A re-entry after registration closed: the director confirms it as with Enter.
        old = _entry_or_none(t, entry_id) if action == "reenter" else None
        confirm = exc.code == "registration_closed" and old is not None
        context = _main_context(
            request,
            t,
            error=exc,
            player_id=old.player_id if confirm else None,
            confirm_override=confirm and is_director(request.user),
        )
        return _answer(request, t, context, status=exc.status)
    t.refresh_from_db()
    if action == "reenter":
        card = desk_reads.seat_card(t, entry)
        messages.success(request, _entered(card, entry.number, reentry=True))
        _say_opened(request, entry)
        return _done(request, t, entry)
    chips = t.rebuy_chips if action == "rebuy" else t.addon_chips
    if action == "rebuy":
        price = t.rebuy_price + t.rebuy_fee
    else:
        price = t.addon_price + t.addon_fee
    messages.success(
        request,
        _taken_words(action)
        % {
            "number": entry.number,
            "name": entry.player.name,
            "amount": money_exact(price),
            "chips": chips_text(chips or t.starting_stack),
        },
    )
    return _done(request, t, None)
