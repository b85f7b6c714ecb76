"""The public lobby display (issue 28): several events' clocks on one screen, by the lobby's
token; no login, a wrong token is a 404, as the display's (``tourney.views.display``, whose
headers and Content-Security-Policy these pages share: script from static/js/lobby.js only,
the first state embedded as JSON data). Several tournaments, so one language: the URL's
``?lang=``, else the browser's or the site's (issue 29; the middleware has activated it)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from tourney.selectors import display as public
from tourney.selectors import lobby as lobby_reads
from tourney.views.display import CSP, PolledKind, lang_query, polled_state, screen_strings

MSG_NO_LOBBY = lobby_reads.MSG_NO_LOBBY
# Columns and rows of the grid for n cards on a page (a 16:9 screen); lobby.js has the same.
GRID = [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (3, 2), (4, 2), (4, 2), (3, 3), (4, 3), (4, 3)]
GRID += [(4, 3)] + [(4, 4)] * 4 + [(5, 4)] * 4 + [(6, 4)] * 4


def grid_class(cards: int) -> str:
    """The grid's classes (lobby.css) for a page of ``cards`` cards (1 to 24)."""
    cols, rows = GRID[min(max(cards, 1), len(GRID)) - 1]
    return f"cols-{cols} rows-{rows}"


def _public_headers(response: HttpResponse) -> HttpResponse:
    # The token is in the URL: never leak it through a referrer, never let a crawler index it.
    response["Content-Security-Policy"] = CSP
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _cards(state: dict, lang: str = "") -> list[dict]:
    """The cards of the first page as the server renders them (lobby.js takes over)."""
    out = []
    for card in state["events"]:
        words = public.clock_words({**card, "chips": {}})
        out.append({**card, "words": words, "seating_url": seating_url(card["token"], lang)})
    return out


def seating_url(token: str, lang: str = "") -> str:
    """An event's own display on its seating board (``display.js``: ?view=seating), in the
    lobby's ``?lang=`` when its URL has one (``lang``: "&lang=de")."""
    return reverse("tourney-display", args=[token]) + "?view=seating" + lang


@require_safe
def lobby(request: HttpRequest, token: str) -> HttpResponse:
    """The full-screen lobby: a grid of event cards, pages turning every ``page_seconds``
    when more events than ``per_page``; lobby.js counts down and polls the state."""
    found = lobby_reads.lobby_state(token)
    if found is None:
        raise Http404(MSG_NO_LOBBY)
    _, state = found
    per_page = state["per_page"]
    cards = _cards(state, lang_query(request, "&"))
    context = {
        "state": state,
        "cards": cards[:per_page],
        "pages": max(1, -(-len(cards) // per_page)),
        "grid": grid_class(min(per_page, len(cards))),
        "state_url": reverse("tourney-lobby-state", args=[token]) + lang_query(request),
        "seating_pattern": seating_url("__token__", lang_query(request, "&")),
        "server_now": public.server_time_ms(),
        "strings": {k: v for k, v in screen_strings().items() if k != "tournament_complete"},
        "lang": translation.get_language(),
    }
    response = render(request, "display/lobby.html", context)
    response["Cache-Control"] = "no-store"
    return _public_headers(response)


LOBBY = PolledKind(
    kind=lobby_reads.POLLED_KIND,
    lookup=lobby_reads.unspoken_version,
    speak=lambda request, found: lobby_reads.spoken(found),  # the middleware's language
    is_current=lobby_reads.is_current,
    cached_state=lobby_reads.cached_state,
    outrun_at=lobby_reads.outrun_at,
    ttl=lobby_reads.ETAG_TTL_SECONDS,
    missing=MSG_NO_LOBBY,
)


@require_safe
def state(request: HttpRequest, token: str) -> HttpResponse:
    """The lobby's state as compact JSON with one ETag for the whole lobby; an unchanged
    lobby answers 304 from the cached version (no query). X-Server-Time as the display's."""
    return polled_state(request, token, LOBBY)
