"""Satellites' actions on the director's screens (RULES 12): the one-click deal and a ticket's
refund on the money panel, and the settings page's satellite form. Thin: the writes are
tourney/services/satellites.py and tourney/services/tickets.py; what the panels read is
tourney/views/dashboard/satellite_reads.py."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.room_models import Ticket
from tourney.selectors.satellites import satellite_locks
from tourney.services import satellite_setup, satellites, tickets
from tourney.views.dashboard.base import action, after_action, director_view

MSG_CONFIRM = N_("Tick the box to confirm: the satellite ends and every player left takes a seat.")
MSG_TICKET_NOT_HERE = N_("No such ticket in this satellite.")


@action("money")
def deal(request: HttpRequest, t: Tournament):
    """RULES 12.8: every player left takes a seat; the satellite ends (confirmed)."""
    if not request.POST.get("confirm"):
        raise DomainError("confirm_needed", MSG_CONFIRM, fields={"confirm": MSG_CONFIRM})
    satellites.satellite_deal(tournament_id=t.pk, actor=request.user)
    return after_action(request, t, "money")


@action("money")
def ticket_refund(request: HttpRequest, t: Tournament, ticket_id: int):
    """RULES 12.6: a director refunds an unused ticket of this satellite, with the reason."""
    if not Ticket.objects.filter(pk=ticket_id, satellite=t).exists():
        raise DomainError("ticket_not_found", MSG_TICKET_NOT_HERE, status=404)
    tickets.ticket_refund(
        ticket_id=ticket_id, reason=request.POST.get("reason", ""), actor=request.user
    )
    return after_action(request, t, "money")


# ---------------------------------------------------------------- the settings page


def settings_context(t: Tournament, form=None) -> dict[str, Any]:
    """The settings page's satellite form (RULES 12.1) and why it is locked, if it is."""
    return {
        "satellite_form": form or satellite_setup.settings_form(t),
        "satellite_locked": satellite_locks(t),
    }


@director_view
def settings(request: HttpRequest, t: Tournament) -> HttpResponse:
    """POST: the satellite settings (``satellite_set``, one undoable action). A refusal or a
    bad value answers 4xx with the message, what was typed kept; nothing changed."""
    if request.method != "POST":
        return redirect(reverse("tourney-dashboard-settings", args=[t.pk]) + "#satellite")
    form = satellite_setup.settings_form(t, request.POST)
    message, status = "", 200
    if not form.is_valid():
        message, status = _("Some fields need a look: nothing was saved."), 400
    else:
        try:
            data = form.cleaned_data
            target = data.get("satellite_target") or ""
            satellites.satellite_set(
                tournament_id=t.pk,
                satellite_target=int(target) if target.isdigit() else None,
                seat_value=satellite_setup.seat_value_parse(data.get("seat_value")),
                tickets_transferable=bool(data.get("tickets_transferable")),
                actor=request.user,
            )
        except DomainError as exc:
            for name, msg in exc.fields.items():
                if name in form.fields:
                    form.add_error(name, str(msg))
            message, status = refusal_text(exc), exc.status
        else:
            if not request.htmx:
                messages.success(request, _("Saved the satellite settings."))
                return redirect(reverse("tourney-dashboard-settings", args=[t.pk]) + "#satellite")
            t.refresh_from_db()
            form = None
    ctx = {"tournament": t, "satellite_message": message, **settings_context(t, form)}
    ctx["satellite_saved"] = status == 200
    template = "dashboard/_satellite_settings.html"
    if not request.htmx:
        template = "dashboard/satellite_settings.html"
    return render(request, template, ctx, status=status)
