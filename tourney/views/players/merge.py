"""Merging two records of one person: pick the other record by search, confirm on a page that
shows both and what moves, merge (undoable from the recent changes)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tourney.engine.errors import DomainError
from tourney.models import Player
from tourney.selectors import players as reads
from tourney.services import players
from tourney.views.players import director_page, page, player_or_404

PICK_LIMIT = 30
# The personal fields a merge fills, as the confirm page names them.
FIELD_WORDS = {
    "nickname": gettext_lazy("nickname"),
    "email": gettext_lazy("email"),
    "phone": gettext_lazy("phone"),
    "membership": gettext_lazy("membership number"),
    "notes": gettext_lazy("notes"),
    "photo": gettext_lazy("photo"),
}


def _other(raw: str | None) -> Player | None:
    try:
        pk = int(raw or "")
    except ValueError:
        return None
    if not 0 < pk < 2**63:
        return None
    return Player.objects.filter(pk=pk, merged_into__isnull=True).first()


@director_page
@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """GET: search the other record (``q``), or with ``other`` the confirm page. POST: merge
    ``other`` into this player (the one kept)."""
    keep = player_or_404(player_id)
    data = request.POST if request.method == "POST" else request.GET
    other = _other(data.get("other"))
    query = request.GET.get("q", "")[:200]
    ctx = {"player": keep, "other": other, "query": query}
    if other is None:
        found = reads.players_search(query, limit=PICK_LIMIT, exclude=keep.pk)[0] if query else []
        ctx["found"] = found
        return page(request, "players/merge.html", ctx)
    ctx["preview"] = reads.merge_preview(keep, other)
    ctx["preview"]["fills"] = [str(FIELD_WORDS.get(f, f)) for f in ctx["preview"]["fills"]]
    ctx["history_keep"] = reads.player_history(keep)["totals"]
    ctx["history_other"] = reads.player_history(other)["totals"]
    if request.method == "GET":
        return page(request, "players/merge.html", ctx)
    try:
        players.players_merge(keep_id=keep.pk, merge_id=other.pk, actor=request.user)
    except DomainError as exc:
        return page(request, "players/merge.html", ctx, error=exc)
    messages.success(
        request,
        _("%(other)s merged into %(name)s. Undo it from Recent changes if wrong.")
        % {"other": other.name, "name": keep.name},
    )
    return redirect("tourney-players-detail", player_id=keep.pk)
