"""Issue 9: the public display, the player phone page, find-my-seat and the state endpoint
(ETag / 304, names as the director allows, nothing private, wrong token 404)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from tables.models import Move, Seat
from tourney import services
from tourney.core import events
from tourney.models import Entry, Player, Tournament
from tourney.selectors import display as public
from tourney.selectors import seat_finder

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
STATE_KEYS = {
    "format",
    "etag",
    "name",
    "status",
    "level_index",
    "remaining_ms",
    "server_time",
    "server_time_ms",
    "ms_to_next_break",
    "items",
    "more_items",
    "chips",
    "players_left",
    "entries",
    "average_stack",
    "prize_pool",
    "payouts",
    "hand_for_hand",
    "tables_in_play",
    "seating",
    "moves",
    "recent_ms",
    "finished",
    "results",
    "speech",  # issue 29: what the TV says (selectors/announcements.py)
}


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _state_url(t: Tournament) -> str:
    return reverse("tourney-display-state", args=[t.display_token])


def _get_state(client, t: Tournament, etag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(_state_url(t), **headers)


def _register(t: Tournament, director, names: list[str]) -> list[Entry]:
    return [
        services.entry_register(tournament_id=t.pk, name=name, actor=director) for name in names
    ]


def _busts_causing_a_balance(t: Tournament) -> list[tuple[int, int]]:
    """Two players of the shortest table: 7, 7, 6 becomes 7, 7, 4, so players must move."""
    by_table: dict[int, list[int]] = {}
    for entry_id, number in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)
    shortest = min(by_table.values(), key=len)
    return [(shortest[0], 5000), (shortest[1], 6000)]


# ---------------------------------------------------------------- pages


def test_display_page_shows_the_clock_seating_and_qr(client, seated_tournament):
    t = seated_tournament
    r = client.get(reverse("tourney-display", args=[t.display_token]))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Friday 50" in html
    assert 'id="level-title" class="level-title">Level 1<' in html
    assert ">100 / 200<" in html
    assert ">BB ante 200<" in html
    assert ">20:00<" in html
    assert "Starting soon" in html
    assert html.count('class="seat-row') == 20
    assert '<svg viewBox="0 0' in html and 'class="qr"' in html  # the phone page's QR code
    assert "static/js/display.js" in html and "static/css/display.css" in html
    embedded = re.search(
        r'<script id="display-state" type="application/json">(.*?)</script>', html, re.S
    )
    assert embedded is not None
    assert set(json.loads(embedded.group(1))) == STATE_KEYS


def test_seating_board_escapes_names(client, seated_tournament):
    t = seated_tournament
    e = Entry.objects.filter(tournament=t, status="seated").select_related("player").first()
    Player.objects.filter(pk=e.player_id).update(name='<img src=x onerror="alert(1)"> & Co')
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    events.record_event(t, "test_touch", {})  # a new version: the state is built anew
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert '<img src=x onerror="alert(1)">' not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co" in html


def test_public_pages_are_csp_strict_and_carry_no_inline_script(client, seated_tournament):
    token = seated_tournament.display_token
    for name in ("tourney-display", "tourney-player"):
        r = client.get(reverse(name, args=[token]))
        assert r.status_code == 200
        csp = r["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r["Referrer-Policy"] == "no-referrer"
        for tag in re.findall(r"<script[^>]*>", r.content.decode()):
            assert "src=" in tag or 'type="application/json"' in tag, tag
        assert " style=" not in r.content.decode()


@pytest.mark.parametrize(
    "name", ["tourney-display", "tourney-display-state", "tourney-player", "tourney-player-find"]
)
def test_a_wrong_token_gets_404(client, seated_tournament, name):
    r = client.get(reverse(name, args=["not-the-token"]))
    assert r.status_code == 404
    assert seated_tournament.display_token not in r.content.decode()


PUBLIC_PATHS = [
    "/display/{}/",
    "/display/{}/state.json",
    "/p/{}/",
    "/p/{}/find/?name=ann",
]
# Tokens no new_display_token could write: a NUL (PostgreSQL text refuses it: was a 500), a
# space, a dot, a non-ASCII letter, a quote, a token longer than the column.
BAD_TOKENS = ["%00", "a%00b", "a%20b", "a.b", "%C3%A9t%C3%A9", "a%27b", "x" * 65]


@pytest.mark.postgres
@pytest.mark.parametrize("token", BAD_TOKENS)
@pytest.mark.parametrize("path", PUBLIC_PATHS)
def test_a_token_no_display_could_have_answers_404_on_postgresql(client, tournament, path, token):
    # Without the NUL middleware's 400 in front, the URL itself refuses a non-slug token.
    stack = [m for m in settings.MIDDLEWARE if not m.endswith("RejectNulMiddleware")]
    with override_settings(MIDDLEWARE=stack):
        r = Client(raise_request_exception=False).get(path.format(token))
    assert r.status_code == 404, (path, token, r.status_code)
    assert tournament.display_token not in r.content.decode()


@pytest.mark.parametrize("token", BAD_TOKENS)
@pytest.mark.parametrize("path", PUBLIC_PATHS)
def test_a_token_no_display_could_have_is_refused_with_a_4xx(client, tournament, path, token):
    # The whole stack: a NUL is the middleware's 400 first, any other bad token the URL's 404.
    r = Client(raise_request_exception=False).get(path.format(token))
    assert r.status_code == (400 if "%00" in token else 404), (path, token, r.status_code)


def test_display_version_refuses_a_token_no_display_could_have_without_a_query(
    tournament, django_assert_num_queries
):
    with django_assert_num_queries(0):
        for token in ("\x00", "a\x00b", "a b", "été", "x" * 65, ""):
            assert public.display_version(token) is None, token
    assert public.display_version(tournament.display_token) is not None


def test_wrong_token_state_answers_the_error_shape(client, tournament):
    r = client.get(reverse("tourney-display-state", args=["nope"]))
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    assert r.json()["error"]["message"] == "No tournament has this display link."


def test_display_refuses_writes(client, tournament):
    r = client.post(reverse("tourney-display", args=[tournament.display_token]))
    assert r.status_code == 405


# ---------------------------------------------------------------- state, ETag, 304


def test_state_carries_the_clock_and_the_next_items(client, seated_tournament):
    t = seated_tournament
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start")
    with time_machine.travel(T0 + timedelta(minutes=5, milliseconds=250), tick=False):
        r = _get_state(client, t)
    assert r.status_code == 200
    body = r.json()
    assert set(body) == STATE_KEYS
    assert body["status"] == "running"
    assert body["level_index"] == 0
    assert body["remaining_ms"] == 15 * 60 * 1000 - 250
    assert body["server_time"] == "2026-11-27T20:05:00.250Z"
    assert body["server_time_ms"] == int(
        (T0 + timedelta(minutes=5, milliseconds=250)).timestamp() * 1000
    )
    assert body["ms_to_next_break"] == body["remaining_ms"]
    # The current item and every later one (the browser rolls over through them by itself).
    assert [it["kind"] for it in body["items"]] == ["level", "break", "level"]
    assert body["items"][0] == {
        "kind": "level",
        "number": 1,
        "seconds": 1200,
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "big_blind_ante": 200,
    }
    assert body["items"][1] == {"kind": "break", "seconds": 600, "color_up": [25]}
    assert body["items"][2]["number"] == 2
    assert body["more_items"] is False
    assert body["players_left"] == 20 and body["entries"] == 20
    assert body["average_stack"] == 20000
    assert body["prize_pool"] == "1,000"  # 20 × 5000 cents
    assert body["payouts"][0]["places"] == "1"
    assert r["ETag"] == body["etag"]
    assert r["Cache-Control"] == "no-cache"
    assert int(r["X-Server-Time"]) > 0


def test_state_limits_the_items_it_carries(client, director):
    levels = [
        {"kind": "level", "small_blind": 25 * k, "big_blind": 50 * k, "ante": 0, "seconds": 60}
        for k in range(1, 21)
    ]
    t = services.tournament_create(actor=director, name="Long", tables=1, levels=levels)
    body = _get_state(client, t).json()
    assert len(body["items"]) == public.UPCOMING_ITEMS + 1
    assert body["more_items"] is True
    assert body["ms_to_next_break"] is None


def test_a_state_the_running_clock_has_outrun_is_built_anew(client, director, monkeypatch):
    # 20 one-minute levels, 13 held. With no worker announcing the levels nothing is written
    # and the ETag stays; a screen past the held items asks without If-None-Match (display.js)
    # and must not get the same body back, or its clock stops at 0:00 on level 13.
    monkeypatch.setattr(public, "STATE_TTL_SECONDS", 3600)  # the cached body is still there
    levels = [
        {"kind": "level", "small_blind": 25 * k, "big_blind": 50 * k, "ante": 0, "seconds": 60}
        for k in range(1, 21)
    ]
    t = services.tournament_create(actor=director, name="No worker", tables=1, levels=levels)
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start")
        first = _get_state(client, t).json()
    assert first["level_index"] == 0 and len(first["items"]) == public.UPCOMING_ITEMS + 1
    with time_machine.travel(T0 + timedelta(minutes=12, seconds=59), tick=False):
        held = _get_state(client, t).json()  # still inside the held items: the cached body
        assert not public.outrun(held, public.server_time_ms())
    assert held["server_time_ms"] == first["server_time_ms"]
    with time_machine.travel(T0 + timedelta(minutes=13, seconds=5), tick=False):
        assert public.outrun(first, public.server_time_ms())
        r = _get_state(client, t)
        again = _get_state(client, t, r["ETag"])
    body = r.json()
    assert r.status_code == 200 and r["ETag"] == first["etag"]  # no write, the same ETag
    assert body["level_index"] == 13
    assert body["items"][0]["number"] == 14
    assert body["remaining_ms"] == 55_000
    assert again.status_code == 304  # screens still inside their items keep polling cheaply


def test_a_paused_or_short_state_is_never_outrun():
    items = [{"kind": "level", "seconds": 60}, {"kind": "level", "seconds": 60}]
    running = {
        "status": "running",
        "more_items": True,
        "remaining_ms": 30_000,
        "server_time_ms": 1_000_000,
        "items": items,
    }
    assert not public.outrun(running, 1_000_000 + 89_999)
    assert public.outrun(running, 1_000_000 + 90_000)
    assert not public.outrun({**running, "status": "paused"}, 1_000_000 + 10**9)
    # No items beyond: the browser finishes by itself, nothing to fetch.
    assert not public.outrun({**running, "more_items": False}, 1_000_000 + 10**9)


def test_unchanged_state_answers_304_without_a_query(
    client, seated_tournament, django_assert_num_queries
):
    first = _get_state(client, seated_tournament)
    etag = first["ETag"]
    with django_assert_num_queries(0):
        r = _get_state(client, seated_tournament, etag)
    assert r.status_code == 304
    assert r.content == b""
    assert r["ETag"] == etag
    assert int(r["X-Server-Time"]) > 0


def test_a_cold_cache_304_costs_one_small_query(
    client, seated_tournament, django_assert_num_queries
):
    etag = _get_state(client, seated_tournament)["ETag"]
    public.forget_version(seated_tournament.display_token)
    with django_assert_num_queries(1) as ctx:
        r = _get_state(client, seated_tournament, etag)
    assert r.status_code == 304
    sql = ctx.captured_queries[0]["sql"]
    assert '"version"' in sql and "player" not in sql


def test_a_service_write_changes_the_etag(client, seated_tournament):
    t = seated_tournament
    before = _get_state(client, t)
    services.clock_action(tournament_id=t.pk, action="start")
    public.forget_version(t.display_token)  # else it shows within ETAG_TTL_SECONDS
    r = _get_state(client, t, before["ETag"])
    assert r.status_code == 200
    assert r["ETag"] != before["ETag"]
    assert r.json()["status"] == "running"
    t.refresh_from_db()
    assert r["ETag"] == public.etag_of(t)


def test_a_clock_anchor_change_changes_the_etag_even_without_a_version_bump(
    client, seated_tournament
):
    t = seated_tournament
    before = _get_state(client, t)["ETag"]
    Tournament.objects.filter(pk=t.pk).update(clock_left_ms=60_000)
    public.forget_version(t.display_token)
    r = _get_state(client, t, before)
    assert r.status_code == 200
    assert r.json()["remaining_ms"] == 60_000


# A cache whose expiry follows time-machine (Redis keeps its own clock).
@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
def test_a_changed_state_shows_within_a_second_without_forgetting(client, seated_tournament):
    t = seated_tournament
    with time_machine.travel(T0, tick=False):
        etag = _get_state(client, t)["ETag"]
        services.clock_action(tournament_id=t.pk, action="start")
        assert _get_state(client, t, etag).status_code == 304  # the cached version, 1 s
    with time_machine.travel(T0 + timedelta(seconds=public.ETAG_TTL_SECONDS + 1), tick=False):
        r = _get_state(client, t, etag)
    assert r.status_code == 200
    assert r.json()["status"] == "running"


def test_a_screen_holding_a_newer_state_is_not_sent_back_an_older_one(client, seated_tournament):
    t = seated_tournament
    etag = _get_state(client, t)["ETag"]
    parts = etag.strip('"').split(".")
    parts[1] = str(int(parts[1]) + 1)
    newer = '"' + ".".join(parts) + '"'
    assert _get_state(client, t, newer).status_code == 304
    parts[1] = str(int(parts[1]) - 2)
    older = '"' + ".".join(parts) + '"'
    assert _get_state(client, t, older).status_code == 200
    assert _get_state(client, t, '"garbage"').status_code == 200
    # Crafted versions never 500: "²".isdigit() is true but int("²") raises; Latin-1 bytes
    # are what a real client may send in a header.
    for crafted in (
        '"1.\u00b2.0.0.0.00"',
        '"1.\u0663.0.0.0.00"',  # ARABIC-INDIC DIGIT THREE: isdigit, int() would take it
        '"1.' + "9" * 400 + '.0.0.0.00"',
        '"1..0.0.0.00"',
        "W/" + older + ", " + '"1.\u00b2.0.0.0.00"',
        ",,,",
    ):
        r = _get_state(client, t, crafted)
        assert r.status_code == 200, crafted
        assert r["ETag"] == etag
    assert public._version_number('"1.\u00b2.0.0.0.00"') is None
    assert public._version_number('"1.\u0663.0.0.0.00"') is None


# ---------------------------------------------------------------- what a player may see


@pytest.mark.parametrize(
    ("style", "shown", "hidden"),
    [
        ("full", ["Ann Marie Lee", "Bob Stone"], []),
        ("initial", ["Ann L.", "Bob S."], ["Marie", "Lee", "Stone", "Annie"]),
        ("nickname", ["Annie", "Bob S."], ["Marie", "Lee", "Stone"]),
    ],
)
def test_names_show_only_as_the_director_allows(client, tournament, director, style, shown, hidden):
    Tournament.objects.filter(pk=tournament.pk).update(public_names=style)
    ann = Player.objects.create(name="Ann Marie Lee", nickname="Annie")
    services.entry_register(tournament_id=tournament.pk, player_id=ann.pk, actor=director)
    _register(tournament, director, ["Bob Stone"])
    r = _get_state(client, tournament)
    body = r.json()
    assert sorted(row[0] for row in body["seating"]) == sorted(shown)
    page = client.get(reverse("tourney-display", args=[tournament.display_token])).content.decode()
    for word in hidden:
        assert word not in r.content.decode()
        assert word not in page


def test_state_carries_nothing_private(client, seated_tournament):
    t = seated_tournament
    entry = Entry.objects.filter(tournament=t).first()
    Entry.objects.filter(pk=entry.pk).update(paid=777_777, fee_paid=55_555)
    r = _get_state(client, t)
    text = r.content.decode()
    body = r.json()
    for row in body["seating"]:
        assert len(row) == 4
        assert isinstance(row[0], str)
        assert all(isinstance(x, int) for x in row[1:])
        assert row[3] == 0  # no recent move
    keys: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            keys.update(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(body)
    assert keys.isdisjoint({"id", "entry", "player", "paid", "fee_paid", "prize", "number_of"})
    assert "777777" not in text and "55555" not in text
    assert body["moves"] == []


def test_recent_moves_are_highlighted_for_ten_minutes(client, seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(public_names="full")  # "Player 0." alike else
    with time_machine.travel(T0, tick=False):
        result = services.elimination_record(
            tournament_id=t.pk, busts=_busts_causing_a_balance(t), actor=director
        )
        assert result["moves"], "the setup must cause balancing moves"
        body = _get_state(client, t).json()
    moved = {m["entry"] for m in result["moves"]}
    assert len(body["moves"]) == len(moved)
    assert body["players_left"] == 18
    names_moved = {m["name"] for m in body["moves"]}
    for m in body["moves"]:
        assert set(m) == {"name", "from", "to", "reason", "at"}
        assert m["reason"] in ("balance", "break", "redraw")
        assert m["at"] == int(T0.timestamp() * 1000)
        seat = Seat.objects.get(table__number=m["to"][0], number=m["to"][1], table__tournament=t)
        assert seat.entry_id in moved
    highlighted = [row for row in body["seating"] if row[3]]
    assert {row[0] for row in highlighted} == names_moved
    assert len(highlighted) == len(moved)

    with time_machine.travel(T0 + timedelta(minutes=10, seconds=1), tick=False):
        cache.clear()
        later = _get_state(client, t).json()
    assert later["moves"] == []
    assert not any(row[3] for row in later["seating"])
    assert Move.objects.filter(tournament=t, from_table__isnull=False).count() == len(
        result["moves"]
    )


def test_a_break_shows_its_countdown_and_the_color_up(client, seated_tournament):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="jump", index=1)
    r = client.get(reverse("tourney-display", args=[t.display_token]))
    html = r.content.decode()
    assert 'id="level-title" class="level-title">Break<' in html
    assert ">10:00<" in html
    assert "Color-up: the green 25s leave play" in html
    body = _get_state(client, t).json()
    assert body["items"][0] == {"kind": "break", "seconds": 600, "color_up": [25]}
    assert body["chips"]["25"] == "green"


# ---------------------------------------------------------------- find my seat


def _find(client, t, name, *, fragment=False):
    view = "tourney-player-find" if fragment else "tourney-player"
    return client.get(reverse(view, args=[t.display_token]), {"name": name})


@pytest.mark.parametrize("query", ["ann lee", "Lee  Ann", "ANN LEE"])
def test_find_my_seat_by_the_whole_full_name(client, tournament, director, query):
    assert tournament.public_names == "initial"
    ann, _ = _register(tournament, director, ["Ann Lee", "Bob Stone"])
    seat = Seat.objects.get(entry=ann)
    r = _find(client, tournament, query)
    assert r.status_code == 200
    html = r.content.decode()
    results = html.split('id="find-results"')[1]
    assert "Ann L." in results and "Ann Lee" not in results
    assert (
        f'Table <b class="tbl">{seat.table.number}</b> Seat <b class="st">{seat.number}</b>'
        in results
    )
    assert "Bob S." not in results


@pytest.mark.parametrize("style", ["initial", "nickname"])
@pytest.mark.parametrize("query", ["lee", "marie", "ann lee", "marie lee", "ann marie lee bob"])
def test_a_part_of_a_hidden_full_name_finds_nothing(client, tournament, director, style, query):
    # "Ann Marie Lee" shows as "Ann L." or "Annie": a surname (or any part of the full name
    # short of all of it) must not confirm who she is.
    Tournament.objects.filter(pk=tournament.pk).update(public_names=style)
    ann = Player.objects.create(name="Ann Marie Lee", nickname="Annie")
    services.entry_register(tournament_id=tournament.pk, player_id=ann.pk, actor=director)
    _register(tournament, director, ["Bob Stone"])
    results = _find(client, tournament, query).content.decode().split('id="find-results"')[1]
    assert seat_finder.MSG_FIND_NONE in results
    assert "seat-card" not in results
    whole = _find(client, tournament, "lee ann marie").content.decode()
    assert ("Annie" if style == "nickname" else "Ann L.") in whole.split('id="find-results"')[1]


def test_with_full_names_public_a_whole_word_finds(client, tournament, director):
    Tournament.objects.filter(pk=tournament.pk).update(public_names="full")
    _register(tournament, director, ["Ann Marie Lee", "Bob Stone"])
    for query in ("lee", "marie lee", "ann"):
        results = _find(client, tournament, query).content.decode().split('id="find-results"')[1]
        assert "Ann Marie Lee" in results and "Bob Stone" not in results, query
    assert seat_finder.MSG_FIND_NONE in _find(client, tournament, "stone ann").content.decode()


def test_find_my_seat_never_spells_out_more_of_a_name(client, tournament, director):
    _register(tournament, director, ["Ann Lee"])
    html = _find(client, tournament, "le").content.decode()
    assert seat_finder.MSG_FIND_NONE in html
    assert "Ann L." not in html.split('id="find-results"')[1]


def test_find_my_seat_by_public_name(client, tournament, director):
    _register(tournament, director, ["Ann Lee", "Annabel Moss", "Bob Stone"])
    html = _find(client, tournament, "ann", fragment=True).content.decode()
    assert html.count('class="seat-card') == 2
    assert "Ann L." in html and "Annabel M." in html
    assert "<html" not in html  # a fragment for the script


@pytest.mark.parametrize(
    ("query", "message"),
    [("a", seat_finder.MSG_FIND_TOO_SHORT), ("x" * 61, seat_finder.MSG_FIND_TOO_LONG)],
)
def test_find_my_seat_refuses_bad_queries(client, tournament, director, query, message):
    _register(tournament, director, ["Ann Lee"])
    html = _find(client, tournament, query).content.decode()
    assert message in html
    assert "seat-card" not in html


def test_find_my_seat_asks_for_more_when_many_match(client, seated_tournament):
    html = _find(client, seated_tournament, "player").content.decode()
    assert seat_finder.MSG_FIND_TOO_MANY in html
    assert "seat-card" not in html


def test_find_my_seat_shows_my_moves(client, seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    result = services.elimination_record(
        tournament_id=t.pk, busts=_busts_causing_a_balance(t), actor=director
    )
    move = result["moves"][0]
    name = Entry.objects.select_related("player").get(pk=move["entry"]).player.name
    html = _find(client, t, name).content.decode()
    expected = (
        f"moved from Table {move['from']['table']}, seat {move['from']['seat']} "
        f"to Table {move['to']['table']}, seat {move['to']['seat']}"
    )
    assert expected in html


def test_find_my_seat_gives_busted_players_their_place(client, seated_tournament, director):
    # Issue 31 item 10: a player out is found with the place, not "no player matches".
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    busts = _busts_causing_a_balance(t)
    services.elimination_record(tournament_id=t.pk, busts=busts, actor=director)
    e = Entry.objects.select_related("player").get(pk=busts[0][0])
    html = _find(client, t, e.player.name).content.decode()
    assert seat_finder.MSG_FIND_NONE not in html
    place, _ = e.places_now(Tournament.objects.get(pk=t.pk).place_lag)
    assert f"Out in <b>{public.ordinal(place)}</b> place" in html
    assert 'class="tbl"' not in html.split('id="find-results"')[1]  # no seat for them


def test_player_page_without_a_query_shows_the_clock_and_the_form(client, seated_tournament):
    r = client.get(reverse("tourney-player", args=[seated_tournament.display_token]))
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="countdown"' in html and ">20:00<" in html
    assert 'method="get"' in html and 'name="name"' in html
    assert "find-error" not in html


# ---------------------------------------------------------------- words


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "0:00"),
        (1, "0:01"),
        (999, "0:01"),
        (1000, "0:01"),
        (1001, "0:02"),
        (59_999, "1:00"),
        (600_000, "10:00"),
        (3_600_000, "1:00:00"),
        (3_661_001, "1:01:02"),
    ],
)
def test_countdown_seconds_round_up(ms, text):
    assert public.duration_display(ms) == text


@pytest.mark.parametrize(
    ("style", "name", "nick", "shown"),
    [
        ("full", " Ann  Lee ", "", "Ann Lee"),
        ("initial", "Ann Marie Lee", "", "Ann L."),
        ("initial", "Cher", "", "Cher"),
        ("nickname", "Ann Lee", "Annie", "Annie"),
        ("nickname", "Ann Lee", " ", "Ann L."),
    ],
)
def test_public_name(style, name, nick, shown):
    assert public.public_name(style, name, nick) == shown
