"""The director's lobby display screens (issue 28): the lobbies with their public links, a new
one, one's settings (name, the events it shows: some chosen, or every event of today and
upcoming; events per page, seconds per page), its deletion, and the recent changes with
undo. Directors only (others 403, anonymous to the login page). Thin: read the form, call one
service (tourney/services/lobbies.py), render; a refusal shows in place with what was typed
kept."""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_POST

from tourney.core.room_journal import room_log, room_undo
from tourney.engine.errors import DomainError
from tourney.models import Event, Lobby, Tournament
from tourney.selectors.lobby import lobby_events
from tourney.services import lobbies
from tourney.views import public_url
from tourney.views.dashboard.base import director_only
from tourney.views.refusals import field_texts, refusal_text

KINDS = ("lobby_created", "lobby_updated", "lobby_deleted")
KIND_WORDS = {
    "lobby_created": N_("Lobby created"),
    "lobby_updated": N_("Lobby changed"),
    "lobby_deleted": N_("Lobby deleted"),
}
MSG_NUMBER = N_("%(label)s: type a whole number.")
MSG_NO_CHANGE = N_("No such lobby change.")
LABEL_PER_PAGE = N_("Events per page")
LABEL_PAGE_SECONDS = N_("Seconds per page")
CHOICES_MAX = 300  # the unfinished tournaments offered as checkboxes, newest first


def _number(data, name: str, label: str) -> int:
    raw = (data.get(name) or "").strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        error = DomainError("bad_input", MSG_NUMBER, params={"label": _(label)})
        error.fields = {name: error.message}
        raise error
    return int(raw)


def _chosen(data) -> list[int]:
    """The ticked tournaments (none when "every event of today and upcoming" is picked)."""
    if data.get("mode") != "chosen":
        return []
    ids = []
    for raw in data.getlist("tournaments"):
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
            msg = lobbies.MSG_TOURNAMENTS
            raise DomainError("bad_tournaments", msg, fields={"tournaments": msg})
        ids.append(int(raw))
    return ids


def _form_values(data) -> dict:
    return {
        "name": data.get("name", ""),
        "tournament_ids": _chosen(data),
        "per_page": _number(data, "per_page", LABEL_PER_PAGE),
        "page_seconds": _number(data, "page_seconds", LABEL_PAGE_SECONDS),
    }


def _typed(data=None, lobby: Lobby | None = None) -> dict:
    """What the form shows: what was typed, else the lobby's values, else the defaults."""
    if data is not None:
        ticked = {int(x) for x in data.getlist("tournaments") if x.isascii() and x.isdigit()}
        return {
            "name": data.get("name", ""),
            "mode": "chosen" if data.get("mode") == "chosen" else "all",
            "ticked": ticked,
            "per_page": data.get("per_page", ""),
            "page_seconds": data.get("page_seconds", ""),
        }
    if lobby is None:
        return {"name": "", "mode": "all", "ticked": set(), "per_page": 6, "page_seconds": 15}
    ticked = set(lobby.tournaments.values_list("pk", flat=True))
    return {
        "name": lobby.name,
        "mode": "chosen" if ticked else "all",
        "ticked": ticked,
        "per_page": lobby.per_page,
        "page_seconds": lobby.page_seconds,
    }


def _choices(ticked: set[int]) -> list[Tournament]:
    """The unfinished tournaments to tick, newest first; those ticked always among them."""
    unfinished = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    rows = list(
        unfinished.order_by("-created_at", "-pk").only("pk", "name", "status")[:CHOICES_MAX]
    )
    shown = {t.pk for t in rows}
    rows += [t for t in unfinished.filter(pk__in=ticked - shown).only("pk", "name", "status")]
    return rows


def _link(request: HttpRequest, lobby: Lobby) -> str:
    return public_url(request, reverse("tourney-lobby", args=[lobby.token]))


def _changes(limit: int = 20) -> list[dict]:
    return [
        {
            **row,
            "words": _(KIND_WORDS[row["kind"]]) if row["kind"] in KIND_WORDS else row["kind"],
            "what": row["payload"].get("name"),
        }
        for row in room_log(kinds=KINDS, limit=limit)
    ]


def _list_context(request: HttpRequest, typed: dict, message: str = "", fields=None) -> dict:
    rows = [{"lobby": x, "url": _link(request, x)} for x in Lobby.objects.all()]
    for row in rows:
        row["events"] = [t.name for t in lobby_events(row["lobby"])]
        row["chosen"] = row["lobby"].tournaments.exists()
    return {
        "rows": rows,
        "typed": typed,
        "choices": _choices(typed["ticked"]),
        "message": message,
        "fields": fields or {},
        "log": _changes(),
    }


@director_only
def lobbies_list(request: HttpRequest):
    """The lobby displays with their links; POST creates one from the form below them."""
    if request.method == "POST":
        try:
            lobby = lobbies.lobby_create(actor=request.user, **_form_values(request.POST))
            return redirect(reverse("tourney-lobbies") + f"#lobby-{lobby.pk}")
        except DomainError as exc:
            ctx = _list_context(request, _typed(request.POST), refusal_text(exc), field_texts(exc))
            return render(request, "lobbies/index.html", ctx, status=exc.status)
    return render(request, "lobbies/index.html", _list_context(request, _typed()))


@director_only
def lobby_edit(request: HttpRequest, lobby_id: int):
    """One lobby's settings (GET), changed (POST)."""
    lobby = get_object_or_404(Lobby, pk=lobby_id)
    message, fields, status = "", {}, 200
    typed = _typed(lobby=lobby)
    if request.method == "POST":
        typed = _typed(request.POST)
        try:
            lobbies.lobby_update(
                lobby_id=lobby.pk, actor=request.user, **_form_values(request.POST)
            )
            return redirect(reverse("tourney-lobbies") + f"#lobby-{lobby.pk}")
        except DomainError as exc:
            message, fields, status = refusal_text(exc), field_texts(exc), exc.status
    ctx = {
        "lobby": lobby,
        "url": _link(request, lobby),
        "typed": typed,
        "choices": _choices(typed["ticked"]),
        "message": message,
        "fields": fields,
    }
    return render(request, "lobbies/edit.html", ctx, status=status)


@director_only
@require_POST
def lobby_delete(request: HttpRequest, lobby_id: int):
    """Delete a lobby display (its link stops working; undo from the list brings it back)."""
    lobby = get_object_or_404(Lobby, pk=lobby_id)
    lobbies.lobby_delete(lobby_id=lobby.pk, actor=request.user)
    return redirect("tourney-lobbies")


@director_only
@require_POST
def lobbies_undo(request: HttpRequest):
    """Undo one lobby change (POST ``event``); a refusal shows above the list."""
    raw = request.POST.get("event", "")
    try:
        ours = Event.objects.filter(tournament__isnull=True, kind__in=KINDS)
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not (
            ours.filter(pk=int(raw)).exists()
        ):
            raise DomainError("not_found", MSG_NO_CHANGE, status=404)
        room_undo(event_id=int(raw), actor=request.user)
    except DomainError as exc:
        ctx = _list_context(request, _typed())
        ctx["undo_message"] = refusal_text(exc)
        return render(request, "lobbies/index.html", ctx, status=exc.status)
    return redirect("tourney-lobbies")
