"""The status feeds' screens (issue 29): the dashboard's feeds panel (it loads itself and
refreshes every 10 s) and the feeds page of a tournament: add a feed, change it, pause or resume
it, delete it, show and rotate its secret, send a test, and the last deliveries. Thin: check
access, read the form, call one service (tourney/services/status_feeds.py), render. Director
only."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.feed_models import StatusFeed
from tourney.models import Tournament
from tourney.selectors import status_feed as reads
from tourney.services import status_feeds as writes
from tourney.views.dashboard.base import director_view, int_field

PAGE = "dashboard/feeds.html"
PANEL = "dashboard/_feeds_panel.html#feeds_panel"
DELIVERIES_SHOWN = 20
# What the page asks to confirm first: a deletion, and a new secret (the receiver refuses
# what is signed with it until it is given the new one).
CONFIRMED = ("delete", "rotate")


def _rows(t: Tournament, *, deliveries: bool) -> list[dict]:
    rows = []
    for feed in reads.feeds_of(t):
        row = {"feed": feed, "failing": reads.failing(feed)}
        if deliveries:
            row["deliveries"] = reads.deliveries_of(feed, DELIVERIES_SHOWN)
        rows.append(row)
    return rows


@director_view
@require_safe
def panel(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The dashboard's panel: each feed's address, kind, last success, failures in a row and
    last error, "Failing" on those whose last sending failed."""
    rows = _rows(t, deliveries=False)
    ctx = {
        "tournament": t,
        "feeds_loaded": True,
        "feed_rows": rows,
        "feeds_failing": sum(1 for r in rows if r["failing"]),
    }
    response = render(request, PANEL, ctx)
    response["Cache-Control"] = "no-store"
    return response


def _page(
    request: HttpRequest,
    t: Tournament,
    *,
    error: DomainError | None = None,
    asking: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    ctx = {
        "tournament": t,
        "feed_rows": _rows(t, deliveries=True),
        "kinds": StatusFeed.Kind.choices,
        "min_seconds": writes.feed_every_low(),
        "error": refusal_text(error) if error else "",
        "error_fields": error.fields if error else {},
        # a refused change shows again in its feed's form, a refused new feed in the add form
        "error_feed": asking["feed_id"] if asking and asking["op"] == "error" else None,
        "posted": request.POST if request.method == "POST" else {},
        "add_posted": request.POST if error and not asking else None,
        "asking": asking,
    }
    response = render(request, PAGE, ctx, status=error.status if error else status)
    response["Cache-Control"] = "no-store"  # the page shows the secrets
    return response


def _form(data) -> dict:
    """The feed form's fields as the service takes them (an unticked box: paused)."""
    return {
        "url": data.get("url", ""),
        "kind": data.get("kind", ""),
        "every_seconds": int_field(data, "every_seconds", _("Send every (seconds)")),
        "active": data.get("active") == "1",
    }


@director_view
@require_http_methods(["GET", "POST"])
def page(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the page. POST: add a feed (then back to the page)."""
    if request.method == "GET":
        return _page(request, t)
    try:
        feed = writes.feed_create(tournament_id=t.pk, actor=request.user, **_form(request.POST))
    except DomainError as exc:
        return _page(request, t, error=exc)
    messages.success(request, _("Feed added: it sends the state at the worker's next sweep."))
    return redirect(reverse("tourney-dashboard-feeds", args=[t.pk]) + f"#feed-{feed.pk}")


def _act(request: HttpRequest, feed: StatusFeed, op: str) -> str:
    """Do ``op`` on the feed; the words to show after it."""
    actor = request.user
    if op == "edit":
        writes.feed_update(feed_id=feed.pk, actor=actor, **_form(request.POST))
        return _("Feed saved.")
    if op in ("pause", "resume"):
        writes.feed_update(feed_id=feed.pk, active=op == "resume", actor=actor)
        return _("Feed paused.") if op == "pause" else _("Feed resumed.")
    if op == "rotate":
        writes.feed_secret_rotate(feed_id=feed.pk, actor=actor)
        return _("New secret made: give it to the receiver.")
    if op == "test":
        writes.feed_test(feed_id=feed.pk, actor=actor)
        return _("Test queued: its delivery shows below in a few seconds.")
    if op == "delete":
        writes.feed_delete(feed_id=feed.pk, actor=actor)
        return _("Feed deleted.")
    raise DomainError("bad_input", _("Unknown action."), fields={"op": op[:20]})


@director_view
@require_POST
def feed_action(request: HttpRequest, t: Tournament, feed_id: int) -> HttpResponse:
    """POST ``op``: edit, pause, resume, test, rotate, delete (the last two ask first)."""
    feed = StatusFeed.objects.filter(pk=feed_id, tournament=t).first() if feed_id > 0 else None
    if feed is None:
        raise Http404
    op = request.POST.get("op", "")
    if op in CONFIRMED and request.POST.get("confirm") != "yes":
        return _page(request, t, asking={"op": op, "feed_id": feed.pk, "feed": feed})
    try:
        words = _act(request, feed, op)
    except DomainError as exc:
        return _page(request, t, error=exc, asking={"op": "error", "feed_id": feed.pk})
    messages.success(request, words)
    anchor = "" if op == "delete" else f"#feed-{feed.pk}"
    return redirect(reverse("tourney-dashboard-feeds", args=[t.pk]) + anchor)
