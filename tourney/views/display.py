"""The public screens: the TV display, the player phone page, find-my-seat and the state the
browser polls. No login: the tournament's display token is the key; a wrong token is a 404.

The pages carry a strict Content-Security-Policy: script from static/js/display.js only (the
first state is embedded as JSON data, never as code).

They speak the tournament's language unless the URL says ``?lang=`` (issue 29,
``core.language.activate_screen_language``); the state is built, cached and tagged per
language, and the words the scripts write as they count down come with the page
(``screen_strings``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from html import escape

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from tourney.core.language import activate_screen_language, shipped
from tourney.models import Tournament
from tourney.selectors import display as public
from tourney.selectors import polled, seat_finder
from tourney.views import public_url
from tourney.views.formatting import QR_DARK_DISPLAY, qr_svg

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'; object-src 'none'"
)
MSG_NO_DISPLAY = "No tournament has this display link."


def _public_headers(response: HttpResponse) -> HttpResponse:
    # The token is in the URL: never leak it through a referrer, never let a crawler index it.
    response["Content-Security-Policy"] = CSP
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def screen_strings() -> dict[str, str]:
    """The words static/js/display.js and lobby.js write as they count down, in the active
    language (the page hands them over as JSON data, ``display-strings``): the same msgids as
    the server's first frame (``selectors.display_words``), ``%(name)s`` filled in by
    clockcore.js; ``thousands``: how chips are grouped, as the server groups them."""
    return {
        "thousands": str(formats.get_format("THOUSAND_SEPARATOR")),
        "level": _("Level %(number)s"),
        "break": _("Break"),
        "break_for": _("Break · %(duration)s"),
        "last_level": _("Last level"),
        "bag_and_tag": _("Bag and tag"),
        "now": _("Now"),
        "starting_soon": _("Starting soon"),
        "paused": _("Paused"),
        "day_over": _("Day over"),
        "tournament_complete": _("Tournament complete"),
        "ante": _("Ante %(chips)s"),
        "bb_ante": _("BB ante %(chips)s"),
        "no_ante": _("No ante"),
        "color_up": _("Color-up: the %(chips)s leave play"),
        "color_up_chip": pgettext("color-up: a colour and a chip value", "%(color)s %(chips)ss"),
        "color_up_value": pgettext("color-up: a chip value", "%(chips)ss"),
        "and_list": _("%(chips)s and %(last)s"),
        "table_seat": pgettext("table and seat, short", "T%(table)s S%(seat)s"),
        "more_places": _("+%(count)s more: places %(from)s–%(to)s"),
        "more_place": _("+%(count)s more: place %(place)s"),
        "page_of": _("Page %(page)s of %(pages)s"),
        "no_moves": _("No moves"),
        "earlier": _("+%(count)s earlier"),
        "sound_on": _("Sound on"),
        "sound_off": _("Sound off · click to turn on"),
        # the lobby's cards (lobby.js)
        "next_break_for": _("Next: break · %(duration)s"),
        "next_blinds": _("Next: %(blinds)s"),
        "in_seconds": _("in %(seconds)s s"),
        "in_minutes": _("in %(minutes)s min"),
        "in_hours": _("in %(hours)s h"),
        "in_hours_minutes": _("in %(hours)s h %(minutes)s min"),
        "in_days": _("in %(days)s d %(hours)s h"),
        "starts": _("Starts"),
        "seats_left": pgettext("clock stat", "Seats left"),
        "buy_in": _("Buy-in"),
        "entries": _("Entries"),
        "players": _("Players"),
        "avg_stack": _("Avg stack"),
        "next_break": pgettext("clock stat", "Next break"),
        "seating_board": _("Seating board ›"),
        "registering": _("Registering"),
        "complete": _("Complete"),
        "hand_for_hand": _("Hand for hand"),
        "running": _("Running"),
        "no_event": _("No event to show yet."),
    }


def asked_language(request: HttpRequest) -> str:
    """The shipped language the URL's ``?lang=`` asks for, "" without one."""
    asked = (request.GET.get("lang") or "").strip().lower()
    return asked if shipped(asked) else ""


def lang_query(request: HttpRequest, sep: str = "?") -> str:
    """The URL's own ``?lang=``, for the links and polls a page builds ("" without one)."""
    asked = asked_language(request)
    return f"{sep}lang={asked}" if asked else ""


def _version(request: HttpRequest, token: str) -> public.Version | None:
    """The token's version in the screen's language: the tournament's (the version carries
    it, no row read), unless the URL says ``?lang=``; activated for the rest of the request."""
    version = public.display_version(token)
    if version is None:
        return None
    activate_screen_language(request, version)
    return public.spoken(version)


def _state_or_404(request: HttpRequest, token: str) -> tuple[public.Version, dict]:
    version = _version(request, token)
    state = public.cached_state(token, version) if version is not None else None
    if state is None:
        raise Http404(MSG_NO_DISPLAY)
    return version, state


def seating_rows(seating) -> str:
    """The seating board's rows as HTML: built in Python, since a template loop over the
    10,000 players of a big field takes a third of a second (benchmarks/pages.py). The
    standard library's ``html.escape`` (what Django's ``escape`` calls, without its lazy
    wrapper, which was most of the time here)."""
    row = (
        '<li class="seat-row{}"><span class="who">{}</span>{}<span class="tbl">{}</span>'
        '<span class="st">{}</span></li>'
    )
    return mark_safe(  # noqa: S308 - every value is escaped here
        "".join(
            row.format(
                " moved" if moved else "",
                escape(str(name)),
                # A bounty event's head (RULES 9.1): the row's fifth value, beside the name.
                f'<span class="bty">{escape(str(bounty[0]))}</span>' if bounty else "",
                escape(str(table)),
                escape(str(seat)),
            )
            for name, table, seat, moved, *bounty in seating
        )
    )


def _strings_for(state: dict) -> dict[str, str]:
    """``screen_strings`` for one tournament's page: the clock's end in its one wording (a
    day of a multi-day event stops, RULES 10.2; a tournament completes), the other left out."""
    strings = screen_strings()
    day_over, complete = strings.pop("day_over"), strings.pop("tournament_complete")
    strings["finished"] = day_over if "flight" in state else complete
    return strings


def _page_context(request: HttpRequest, token: str, state: dict) -> dict:
    # The QR code's phone page speaks the tournament's language or the phone's own, not the
    # TV's ?lang=: a player reads their own phone.
    player_url = public_url(request, reverse("tourney-player", args=[token]))
    return {
        "state": state,
        "seating_rows": seating_rows(state.get("seating", ())),
        "words": public.clock_words(state),
        "strings": _strings_for(state),
        "lang": translation.get_language(),
        "lang_asked": asked_language(request),
        "state_url": reverse("tourney-display-state", args=[token]) + lang_query(request),
        "player_url": player_url,
        "find_url": reverse("tourney-player-find", args=[token]) + lang_query(request),
        "server_now": public.server_time_ms(),
    }


@require_safe
def display(request: HttpRequest, token: str) -> HttpResponse:
    """The full-screen TV page: clock and seating board (?view=clock|seating, ?rotate=20,
    ?sound=1); display.js counts down and polls the state."""
    _, state = _state_or_404(request, token)
    context = _page_context(request, token, state)
    context["mode"] = "tv"
    context["qr"] = qr_svg(context["player_url"], QR_DARK_DISPLAY)
    response = render(request, "display/index.html", context)
    response["Cache-Control"] = "no-store"
    return _public_headers(response)


@require_safe
def player(request: HttpRequest, token: str) -> HttpResponse:
    """The phone page: the clock, find my seat (a GET form that works without JavaScript), my
    moves."""
    version, state = _state_or_404(request, token)
    context = _page_context(request, token, state)
    context["mode"] = "phone"
    context["find"] = _find(version.tournament_id, token, request.GET.get("name", ""))
    response = render(request, "display/player.html", context)
    response["Cache-Control"] = "no-store"
    return _public_headers(response)


def _find(tournament_id: int, token: str, query: str) -> dict:
    t = Tournament.objects.filter(pk=tournament_id, display_token=token).first()
    if t is None:
        raise Http404(MSG_NO_DISPLAY)
    t.activate_zone()  # the moves' times in the card room's zone (issue 31)
    return seat_finder.find_seat(t, query)


@require_safe
def player_find(request: HttpRequest, token: str) -> HttpResponse:
    """Find my seat as a fragment (the phone page refreshes it when the state changes); the
    whole page when opened directly."""
    version = _version(request, token)
    if version is None:
        raise Http404(MSG_NO_DISPLAY)
    find = _find(version.tournament_id, token, request.GET.get("name", ""))
    response = render(request, "display/player.html#results", {"find": find})
    response["Cache-Control"] = "no-store"
    return _public_headers(response)


@dataclass(frozen=True)
class PolledKind:
    """A polled public state (the TV's, the lobby's) as ``polled_state`` answers it: ``lookup``
    a token's version without the language (``etag``, ``read_at``), ``speak`` it in the
    screen's language for a request (activating it), ``is_current``, ``cached_state`` of a
    spoken version, ``outrun_at`` of a state, the ETag's time to live in the cache."""

    kind: str
    lookup: Callable
    speak: Callable
    is_current: Callable
    cached_state: Callable
    outrun_at: Callable
    ttl: float
    missing: str


def _speak_display(request: HttpRequest, found: public.Version) -> public.Version:
    activate_screen_language(request, found)
    return public.spoken(found)


DISPLAY = PolledKind(
    kind=public.POLLED_KIND,
    lookup=public.display_version,
    speak=_speak_display,
    is_current=public.is_current,
    cached_state=public.cached_state,
    outrun_at=public.outrun_at,
    ttl=public.ETAG_TTL_SECONDS,
    missing=MSG_NO_DISPLAY,
)


@require_safe
def state(request: HttpRequest, token: str) -> HttpResponse:
    """The display state as compact JSON with an ETag. An unchanged state answers 304 from the
    cached version (no query, nothing built). Every answer carries X-Server-Time (ms since the
    epoch), from which the browser measures its clock offset once per poll."""
    return polled_state(request, token, DISPLAY)


def polled_state(request: HttpRequest, token: str, of: PolledKind) -> HttpResponse:
    """A polled public state (the TV's, the lobby's): compact JSON with its ETag, 304 while
    the version the browser holds is current, 404 for an unknown token; X-Server-Time on
    every answer. Under the web server from the worker's own copies (``selectors.polled``)."""
    started = time.perf_counter()

    def body(version):
        build = partial(of.cached_state, token, version)
        return polled.body(of.kind, token, version.etag, build, of.outrun_at)

    found = polled.version(
        of.kind, token, of.lookup, of.ttl, warm=lambda v: body(of.speak(request, v))
    )
    version = of.speak(request, found) if found is not None else None
    if version is None:
        response: HttpResponse = JsonResponse(
            {"error": {"code": "not_found", "message": of.missing, "fields": {}}}, status=404
        )
    elif of.is_current(request.headers.get("If-None-Match", ""), version):
        response = HttpResponse(status=304)
        response["ETag"] = version.etag
    else:
        sent = body(version)
        if sent is None:
            raise Http404(of.missing)
        response = HttpResponse(sent.content, content_type="application/json")
        response["ETag"] = sent.etag
    response["Cache-Control"] = "no-cache"
    response["X-Server-Time"] = str(public.server_time_ms())
    response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
