"""The desk's "Other events" panel (issue 28): every other event of today and upcoming with its
seats, alternates, price, start and registration (``selectors.desk_events``); one click opens
an event's desk. For a player found or typed at this desk, each event says what the desk can
do for them: register at its desk (seats, or a table opens), join its waiting list (full:
``services.waiting_list``), or nothing (closed, or they are in already). A waiting-list entry
is undone like any registration (``services.desk.entry_registration_undo``).

With htmx the panel answers as a fragment (``desk/_events.html``, ``#desk-events``); without
JavaScript every form is a POST answered by a 303 to the desk (the panel keeps the player in
``ep``/``en``), or the page itself with the refusal when refused."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_POST, require_safe

from tourney.core.money_text import money_exact
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.services import desk as desk_services
from tourney.services.waiting_list import waiting_list_join
from tourney.views import desk as desk_views
from tourney.views.desk_panel import MAX_NAME, int_or_none, panel_context, who_of

MSG_NO_EVENT = N_("Choose an event from the list.")
MSG_NO_PLAYER = N_("Find the player first (a known player, or type a new name).")


def _panel(request: HttpRequest, t: Tournament, context: dict[str, Any], *, status: int = 200):
    if request.htmx:
        return render(request, "desk/_events.html", context, status=status)
    page = desk_views.page_context(request, t)
    page.update(context)
    return render(request, "desk/index.html", page, status=status)


def _back(t: Tournament, who: dict[str, Any] | None) -> HttpResponse:
    params = {}
    if who:
        params = {"ep": who["id"]} if who["id"] else {"en": who["name"]}
    url = reverse("tourney-desk", args=[t.pk])
    return desk_views.see_other(f"{url}?{urlencode(params)}" if params else url)


@login_required
@require_safe
def panel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The panel, for the player ``player`` (an id) or ``name`` (typed) if given."""
    t = desk_views.desk_tournament(request, tournament_id)
    player_id, name = int_or_none(request.GET.get("player")), request.GET.get("name", "")
    if not request.htmx:
        return _back(t, who_of(player_id, name))
    return _panel(request, t, panel_context(request, t, player_id=player_id, name=name))


@login_required
@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Put the player on the waiting list of the full event ``event``."""
    t = desk_views.desk_tournament(request, tournament_id)
    player_id, name = int_or_none(request.POST.get("player_id")), request.POST.get("name", "")
    target = int_or_none(request.POST.get("event"))
    ctx = {"player_id": player_id, "name": name}
    try:
        if target is None or target == t.pk:
            raise DomainError("bad_input", MSG_NO_EVENT, fields={"event": MSG_NO_EVENT})
        if player_id is None and not name.strip():
            raise DomainError("bad_input", MSG_NO_PLAYER, fields={"name": MSG_NO_PLAYER})
        entry, place = waiting_list_join(
            tournament_id=target, player_id=player_id, name=name[:MAX_NAME], actor=request.user
        )
    except DomainError as exc:
        context = panel_context(request, t, **ctx, error=exc, error_event=target)
        return _panel(request, t, context, status=exc.status)
    joined = _joined(entry, place)
    if not request.htmx:
        messages.success(request, joined["text"])
        return _back(t, who_of(entry.player_id, ""))
    context = panel_context(request, t, player_id=entry.player_id, joined=joined)
    return _panel(request, t, context)


def _joined(entry: Entry, place: int) -> dict[str, Any]:
    event = Tournament.objects.get(pk=entry.tournament_id)
    paid = entry.paid + entry.bounty_paid + entry.fee_paid
    return {
        "entry": entry.pk,
        "number": entry.number,
        "event": event.pk,
        "event_name": event.name,
        "name": entry.player.name,
        "place": place,
        "paid": money_exact(paid),
        "card_url": f"{reverse('tourney-desk', args=[event.pk])}?entry={entry.pk}",
        "text": _(
            "%(name)s is on the waiting list of %(event)s: alternate no. %(place)s "
            "(#%(number)s), %(amount)s taken."
        )
        % {
            "name": entry.player.name,
            "event": event.name,
            "place": place,
            "number": entry.number,
            "amount": money_exact(paid),
        },
    }


@login_required
@require_POST
def undo(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Undo the clerk's own waiting-list entry in ``event`` within the minute (the desk's undo
    of a registration: ``services.desk.entry_registration_undo``)."""
    t = desk_views.desk_tournament(request, tournament_id)
    target, entry_id = (
        int_or_none(request.POST.get("event")),
        int_or_none(request.POST.get("entry")),
    )
    try:
        if target is None or entry_id is None:
            raise DomainError("entry_not_found", desk_services.MSG_ENTRY_NOT_FOUND, status=404)
        undone = desk_services.entry_registration_undo(
            tournament_id=target, entry_id=entry_id, actor=request.user
        )
    except DomainError as exc:
        return _panel(request, t, panel_context(request, t, error=exc), status=exc.status)
    text = _("Undone: #%(number)s %(name)s is off the waiting list.") % {
        "number": undone["number"],
        "name": undone["name"],
    }
    if not request.htmx:
        messages.success(request, text)
        return _back(t, None)
    context = panel_context(request, t, joined={"undone": text})
    return _panel(request, t, context)
