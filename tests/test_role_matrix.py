"""Issue 10: every URL of the project against every role. A new URL without a rule here
makes the test fail, so no screen or endpoint ships without a decision on who may use it."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.conftest import ApiClient
from tourney.tokens import token_create

# What each role gets: "in" (served: any status but 401/403/login redirect), "login" (sent to
# the login page), 401, 403.
PUBLIC = {"anon": "in", "stranger": "in", "desk": "in", "director": "in"}
LOGIN = {"anon": "login", "stranger": "in", "desk": "in", "director": "in"}
DESK_PAGE = {"anon": "login", "stranger": 403, "desk": "in", "director": "in"}
DIRECTOR_PAGE = {"anon": "login", "stranger": 403, "desk": 403, "director": "in"}
API_ANY = {"anon": 401, "stranger": "in", "desk": "in", "director": "in"}
API_DESK = {"anon": 401, "stranger": 403, "desk": "in", "director": "in"}
API_DIRECTOR = {"anon": 401, "stranger": 403, "desk": 403, "director": "in"}

RULES = {
    "home": LOGIN,
    "login": PUBLIC,
    "logout": PUBLIC,
    "favicon": PUBLIC,  # the icon, for a response that names none (issue 31)
    "set_language": PUBLIC,  # issue 29: anyone may change their language (a cookie)
    "openapi-json": PUBLIC,
    "api-root": PUBLIC,
    "tourney-display": PUBLIC,
    "tourney-display-state": PUBLIC,
    "tourney-player": PUBLIC,
    "tourney-player-find": PUBLIC,
    "floor_settle": API_DESK,
    "floor_chip_race": API_DESK,
    "floor_icm": API_DESK,
    "tournament_create": API_DIRECTOR,
    "tournament_get": API_DESK,
    "entry_create": API_DESK,
    "seating_get": API_DESK,
    "button_set": API_DIRECTOR,
    "elimination_create": API_DIRECTOR,
    "clock_get": API_DESK,
    "clock_post": API_DIRECTOR,
    "results_get": API_DESK,
    "bounties_get": API_DESK,
    "chip_counts_get": API_DESK,
    "chip_counts_post": API_DIRECTOR,
    # Issue 26, multi-day events (RULES 10)
    "event_create": API_DIRECTOR,
    "event_get": API_DESK,
    "bags_get": API_DESK,
    "bags_post": API_DIRECTOR,
    "bags_close": API_DIRECTOR,
    "day2_create": API_DIRECTOR,
    "day2_seat": API_DIRECTOR,
    "flight_end": API_DIRECTOR,
    "levels_get": API_DESK,
    "levels_put": API_DIRECTOR,
    "structure_generate": API_DIRECTOR,
    "undo_post": API_DIRECTOR,
    "redo_post": API_DIRECTOR,
    "events_get": API_DIRECTOR,
    "user_create": API_DIRECTOR,
    "user_role": API_DIRECTOR,
    "token_new": API_ANY,
    "token_revoke": API_ANY,
    "display_rotate": API_DIRECTOR,
    "colorup_get": API_DESK,
    "colorup_rack_plan_get": API_DESK,
    "chip_race_table": API_DIRECTOR,
    "chip_race_undo": API_DIRECTOR,
    "colorup_finish": API_DIRECTOR,
    "rebuy_create": API_DESK,
    "addon_create": API_DESK,
    "reentry_create": API_DESK,
    "money_get": API_DESK,
    "payouts_put": API_DIRECTOR,
    "payouts_freeze": API_DIRECTOR,
    "deal_get": API_DESK,
    "deal_post": API_DIRECTOR,
    # Issue 27, API: the desk searches, reads, adds and edits players and reads leagues,
    # seasons and standings; merge, removal, import, export, the room's undo and every league
    # and season write are the director's; a season's public standings anyone's with the link
    "players_get": API_DESK,
    "player_create": API_DESK,
    "player_get": API_DESK,
    "player_patch": API_DESK,
    "player_merge": API_DIRECTOR,
    "player_anonymise": API_DIRECTOR,
    "players_import_post": API_DIRECTOR,
    "players_export": API_DIRECTOR,
    "room_actions_get": API_DIRECTOR,
    "room_action_undo": API_DIRECTOR,
    "leagues_get": API_DESK,
    "league_create": API_DIRECTOR,
    "league_get": API_DESK,
    "season_create": API_DIRECTOR,
    "season_get": API_DESK,
    "season_patch": API_DIRECTOR,
    "tournament_season_put": API_DIRECTOR,
    "season_standings_get": API_DESK,
    "public_standings_get": PUBLIC,
    # Issue 28, the desk across events: the events a desk registers into, a full event's
    # waiting list
    "events_open_get": API_DESK,
    "waiting_list_create": API_DESK,
    # Issue 10: the users page, the display-link rotation, one log event's before and after.
    "tourney-dashboard-users": DIRECTOR_PAGE,
    "tourney-rules": DIRECTOR_PAGE,  # the rule book (docs/rules.md), issue 22
    "tourney-dashboard-display-token": DIRECTOR_PAGE,
    "tourney-dashboard-log-event": DIRECTOR_PAGE,
    # the money panel's director actions (RULES 8.2, 8.3): payouts, closing registration
    "tourney-dashboard-payouts": DIRECTOR_PAGE,
    "tourney-dashboard-registration-close": DIRECTOR_PAGE,
    # Issue 26: a multi-day event's screens (RULES 10): the new event, its page, Day 2's build
    "tourney-event-new": DIRECTOR_PAGE,
    "tourney-event": DIRECTOR_PAGE,
    "tourney-event-day2": DIRECTOR_PAGE,
    # Issue 27, the player database: the desk lists, reads, adds and edits players; merge,
    # import, export, removal and undo are the director's
    "tourney-players-merge": DIRECTOR_PAGE,
    "tourney-players-import": DIRECTOR_PAGE,
    "tourney-players-export": DIRECTOR_PAGE,
    "tourney-players-anonymise": DIRECTOR_PAGE,
    "tourney-players-changes": DIRECTOR_PAGE,
    # Issue 27, leagues: a season's public standings, by its link (as the display's)
    "tourney-public-standings": PUBLIC,
    # Issue 28, lobby displays: the public lobby and its state by the lobby's link; the API
    # reads are the desk's, the writes the director's
    "tourney-lobby": PUBLIC,
    "tourney-lobby-state": PUBLIC,
    "lobbies_get": API_DESK,
    "lobby_create": API_DIRECTOR,
    "lobby_get": API_DESK,
    "lobby_patch": API_DIRECTOR,
    "lobby_delete": API_DIRECTOR,
    "lobby_state_get": PUBLIC,
    # Issue 28, the room (RULES 13): the home's rows and the past events are the desk's (as
    # the home); the room's settings page and its write the director's
    "tourney-home-rows": DESK_PAGE,
    "tourney-past": DESK_PAGE,
    "tourney-room": DIRECTOR_PAGE,
    "room_get": API_DESK,
    "room_put": API_DIRECTOR,
    "room_tournaments_get": API_DESK,
    # Issue 28, satellites (RULES 12): the desk reads tickets and registers with one; the
    # satellite settings, a refund, a transfer and the satellite's deal are the director's
    "tickets_get": API_DESK,
    "ticket_register": API_DESK,
    "satellite_put": API_DIRECTOR,
    "ticket_refund": API_DIRECTOR,
    "ticket_transfer": API_DIRECTOR,
    "satellite_deal": API_DIRECTOR,
    # Issue 29, status feeds (webhooks): they carry their secret, so every one is the director's
    "feeds_get": API_DIRECTOR,
    "feed_create": API_DIRECTOR,
    "feed_get": API_DIRECTOR,
    "feed_put": API_DIRECTOR,
    "feed_delete": API_DIRECTOR,
    "feed_deliveries_get": API_DIRECTOR,
    "feed_test": API_DIRECTOR,
    # Issue 29, structure files: the document is a read (the desk's, as the levels); imports
    # and the screens' downloads and import are the director's
    "structure_document_get": API_DESK,
    "structure_document_post": API_DIRECTOR,
    "structure_text_post": API_DIRECTOR,
    "tourney-dashboard-structure-json": DIRECTOR_PAGE,
    "tourney-dashboard-structure-text": DIRECTOR_PAGE,
    "tourney-dashboard-structure-import": DIRECTOR_PAGE,
    "tourney-dashboard-setup-structure-file": DIRECTOR_PAGE,
    # Issue 29, announcements: announcing and their settings are the director's
    "announcement_create": API_DIRECTOR,
    "announcements_get": API_DIRECTOR,
    "announce_settings_get": API_DIRECTOR,
    "announce_settings_put": API_DIRECTOR,
    "tourney-dashboard-announce": DIRECTOR_PAGE,
    "tourney-dashboard-announce-settings": DIRECTOR_PAGE,
}
PREFIX_RULES = [
    ("tourney-dashboard", DIRECTOR_PAGE),
    ("tourney-results-", DESK_PAGE),
    ("tourney-desk", DESK_PAGE),
    ("tourney-players", DESK_PAGE),  # issue 27: the list, a player's page, new, edit, photo
    # issue 27, leagues: every league and season screen is the director's
    ("tourney-league", DIRECTOR_PAGE),
    ("tourney-season", DIRECTOR_PAGE),
    ("tourney-lobbies", DIRECTOR_PAGE),  # issue 28: the lobby displays' director screens
]


def rule_for(name: str):
    if name in RULES:
        return RULES[name]
    for prefix, rule in PREFIX_RULES:
        if name.startswith(prefix):
            return rule
    return None


def all_patterns():
    """(route, name, methods) for every URL but the admin's (Django's own)."""
    from tourney.api import api

    methods = {}
    for _prefix, router in api._routers:
        for _path, view in router.path_operations.items():
            for op in view.operations:
                name = op.view_func.__name__
                methods[name] = op.methods

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    continue
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.name, methods.get(p.name, ["GET"])

    return list(walk(get_resolver().url_patterns))


def test_every_url_has_a_rule():
    missing = [(route, name) for route, name, _ in all_patterns() if rule_for(name) is None]
    assert missing == []


def concrete(route: str, ids: dict) -> str:
    route = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m.group(1)]), route)
    return "/" + route


@pytest.mark.django_db
def test_role_matrix(client, director, desk_clerk, stranger, seated_tournament):
    from django.test import Client

    t = seated_tournament
    entry = t.entries.first()
    ids = {
        "tournament_id": t.pk,
        "tid": t.pk,
        "number": 1,
        "entry_id": entry.pk,
        "eid": entry.pk,
        "token": t.display_token,
        "tool": "settle",
        "username": "td",
        "prefix": "tny_nothing",
        "event_id": t.events.order_by("pk").first().pk,
        "player_id": entry.player_id,
        "league_id": 1,  # issue 27: none exists; directors get a 404, the others are refused
        "season_id": 1,
        "lobby_id": 1,  # issue 28: none exists, as the league
        "ticket_id": 1,  # issue 28: none exists (RULES 12), as the league
        "feed_id": 1,  # issue 29: none exists, as the league
    }
    sessions = {"anon": Client()}
    apis = {"anon": ApiClient(None)}
    for role, user in (("stranger", stranger), ("desk", desk_clerk), ("director", director)):
        c = Client()
        c.force_login(user)
        sessions[role] = c
        apis[role] = ApiClient(token_create(user=user))
    failures = []
    seen_names = set()
    for route, name, methods in all_patterns():
        if (name, route) in seen_names:
            continue
        seen_names.add((name, route))
        rule = rule_for(name)
        url = concrete(route, ids)
        is_api = route.startswith("api/v1/")
        for role, expected in rule.items():
            for method in methods:
                m = method.lower()
                if is_api:
                    api = apis[role]
                    body = {} if m == "get" else {"data": "{}", "content_type": "application/json"}
                    r = getattr(api.client, m)(url, **body, **api.headers)
                    answers = [("", r)]
                elif name == "logout":  # a POST would end the session the walk uses
                    answers = [("", sessions[role].get(url))]
                else:
                    # GET, and POST too: a view that answers both must check the role on
                    # both. A POST-only action (GET: 405) is judged on its POST; a GET-only
                    # view may refuse the POST with 405 before it looks at the role.
                    r = sessions[role].get(url)
                    answers = [("", r)] if r.status_code != 405 else []
                    answers.append((" (POST)", sessions[role].post(url)))
                for how, r in answers:
                    got = r.status_code
                    to_login = got == 302 and r["Location"].startswith("/login/")
                    if how and got == 405 and len(answers) == 2:
                        ok = True  # the extra POST refused outright: nothing served
                    elif expected == "login":
                        ok = to_login
                    elif expected == "in":
                        ok = got not in (401, 403) and not to_login and got < 500
                    else:
                        ok = got == expected
                    if not ok:
                        failures.append(
                            f"{method}{how} {url} as {role}: {got}, expected {expected}"
                        )
    assert failures == [], "\n".join(failures)


def _write_routes():
    """(method, route, name) of every URL a browser could send a write to: every non-API
    URL (CsrfViewMiddleware guards them all, whatever the view answers) and every API
    operation that is not a GET (ninja's session auth checks the token itself)."""
    out = []
    for route, name, methods in all_patterns():
        if not route.startswith("api/v1/"):
            out.append(("post", route, name))
        else:
            out += [(m.lower(), route, name) for m in methods if m != "GET"]
    return sorted(set(out))


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "route", "name"), _write_routes())
def test_csrf_is_enforced_on_every_form_for_a_logged_in_browser(
    method, route, name, director, tournament
):
    """The middleware refuses before any view runs, so any id does (the first ones)."""
    from django.test import Client

    from tourney.models import Event

    t = tournament
    ids = {
        "tournament_id": t.pk,
        "tid": t.pk,
        "number": 1,
        "entry_id": 1,
        "eid": 1,
        "token": t.display_token,
        "tool": "settle",
        "username": "td",
        "prefix": "tny_nothing",
        "event_id": t.events.order_by("pk").first().pk,
        "player_id": 1,
        "league_id": 1,
        "season_id": 1,
        "lobby_id": 1,
        "ticket_id": 1,
        "feed_id": 1,
    }
    c = Client(enforce_csrf_checks=True)
    c.force_login(director)
    t.refresh_from_db()
    before = (Event.objects.count(), t.version, c.session.session_key)
    url = concrete(route, ids)
    body = {"action": "start", "name": "X", "op": "create", "username": "u", "confirm": "yes"}
    if route.startswith("api/v1/"):
        r = getattr(c, method)(url, data="{}", content_type="application/json")
    else:
        r = c.post(url, body)
    assert r.status_code == 403, f"{method.upper()} {url}: {r.status_code}"
    t.refresh_from_db()
    assert (Event.objects.count(), t.version, c.session.session_key) == before
