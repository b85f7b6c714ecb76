"""A player's record: the list with its search, the page with the history, the new and edit
forms (with the photo), the photo itself (staff only, never a public file) and the removal."""

from __future__ import annotations

import mimetypes

from django import forms
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_http_methods, require_safe

from tourney.engine.errors import DomainError
from tourney.selectors import players as reads
from tourney.selectors.standings import points_by_tournament
from tourney.services import players
from tourney.views.formatting import money_exact
from tourney.views.players import desk_page, director_page, page, player_or_404

MSG_NOT_AN_IMAGE = gettext_lazy("Upload a photo (JPEG, PNG, GIF or WebP).")
# An unfinished tournament's status on a player's history.
STATUS_WORDS = {"setup": N_("setup"), "running": N_("running")}


class PhotoForm(forms.Form):
    """Pillow checks that the upload is an image (forms.ImageField)."""

    photo = forms.ImageField(required=False, error_messages={"invalid_image": MSG_NOT_AN_IMAGE})


@desk_page
@require_safe
def players_list(request: HttpRequest) -> HttpResponse:
    """Every shown player (merged records are not), or those matching ``q``."""
    query = request.GET.get("q", "")[:200]
    rows, total = reads.players_search(query)
    ctx = {"players": rows, "total": total, "query": query, "limit": reads.LIST_LIMIT}
    if request.htmx:
        return page(request, "players/list.html#results", ctx)
    return page(request, "players/list.html", ctx)


def _form_values(request: HttpRequest) -> dict[str, str]:
    return {f: request.POST.get(f, "") for f in players.FIELDS}


def _photo(request: HttpRequest):
    """The uploaded photo once Pillow has read it, or None; DomainError when not an image."""
    upload = request.FILES.get("photo")
    if upload is not None and upload.size > players.MAX_PHOTO_BYTES:  # before Pillow reads it
        msg = players.MSG_PHOTO_TOO_BIG
        raise DomainError("photo_too_big", msg, fields={"photo": msg})
    form = PhotoForm(files=request.FILES)
    if not form.is_valid():
        msg = form.errors["photo"][0]
        raise DomainError("bad_photo", msg, fields={"photo": msg})
    return form.cleaned_data.get("photo")


@desk_page
@require_http_methods(["GET", "POST"])
def player_new(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return page(request, "players/edit.html", {"values": {}, "player": None})
    values = _form_values(request)
    try:
        p = players.player_create(data=values, photo=_photo(request), actor=request.user)
    except DomainError as exc:
        return page(request, "players/edit.html", {"values": values, "player": None}, error=exc)
    messages.success(request, _("%(name)s added.") % {"name": p.name})
    return redirect("tourney-players-detail", player_id=p.pk)


@desk_page
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    p = player_or_404(player_id)
    if request.method == "GET":
        values = {f: getattr(p, f) for f in players.FIELDS}
        return page(request, "players/edit.html", {"values": values, "player": p})
    values = _form_values(request)
    try:
        players.player_update(
            player_id=p.pk,
            data=values,
            photo=_photo(request),
            photo_clear=request.POST.get("photo_clear") == "1",
            actor=request.user,
        )
    except DomainError as exc:
        return page(request, "players/edit.html", {"values": values, "player": p}, error=exc)
    messages.success(request, _("Saved."))
    return redirect("tourney-players-detail", player_id=p.pk)


@desk_page
@require_safe
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """The record (personal fields: this page is staff only) and the history."""
    p = player_or_404(player_id)
    if p.merged_into_id:
        return redirect("tourney-players-detail", player_id=p.merged_into_id)
    history = reads.player_history(p)
    points = points_by_tournament(p.pk)  # league points, where a tournament counts toward a season
    for row in history["rows"]:
        row["points"] = points.get(row["tournament_id"])
        if row.get("status") in STATUS_WORDS:
            row["status"] = _(STATUS_WORDS[row["status"]])
        row["prize_display"] = money_exact(row["prize"]) if row["prize"] else ""
        row["bounties_display"] = money_exact(row["bounties"]) if row["bounties"] else ""
    totals = dict(history["totals"])
    totals["winnings_display"] = money_exact(totals["winnings"])
    totals["bounties_display"] = money_exact(totals["bounties"])
    totals["points"] = sum(points.values()) if points else None
    ctx = {"player": p, "rows": history["rows"], "totals": totals}
    return page(request, "players/detail.html", ctx)


@desk_page
@require_safe
def player_photo(request: HttpRequest, player_id: int) -> HttpResponse:
    """The photo, to logged-in staff only (it is not under any public static or media URL)."""
    p = player_or_404(player_id)
    if not p.photo:
        raise Http404("No photo.")
    try:
        f = p.photo.open("rb")
    except FileNotFoundError as exc:
        raise Http404("No photo.") from exc
    kind = mimetypes.guess_type(p.photo.name)[0] or "application/octet-stream"
    response = FileResponse(f, content_type=kind)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@director_page
@require_http_methods(["GET", "POST"])
def player_anonymise(request: HttpRequest, player_id: int) -> HttpResponse:
    """The removal of a person's data, confirmed by typing the name (cannot be undone)."""
    p = player_or_404(player_id)
    ctx = {"player": p, "confirm": ""}
    if request.method == "GET":
        return page(request, "players/anonymise.html", ctx)
    ctx["confirm"] = request.POST.get("confirm", "")[:200]
    try:
        players.player_anonymise(player_id=p.pk, confirm=ctx["confirm"], actor=request.user)
    except DomainError as exc:
        return page(request, "players/anonymise.html", ctx, error=exc)
    messages.success(
        request, _("The personal data of player #%(number)s was removed.") % {"number": p.pk}
    )
    return redirect(reverse("tourney-players-detail", args=[p.pk]))
