"""Issue 28: lobby displays through the JSON API: created, read, changed, deleted (each a room
action, undone through the room's actions), the public state by the lobby's link; the roles;
every refusal with its code and nothing changed; the answers match the OpenAPI document."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_players_api import ACTIONS, _error, _matches, call
from tests.conftest import ApiClient
from tourney import services
from tourney.models import Event, Lobby, Tournament
from tourney.services import lobbies
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db

LOBBIES = "/api/v1/lobbies"


def _delete(client: ApiClient, path: str):
    return client.client.delete(path, **client.headers)


def _state() -> tuple:
    return (
        list(Lobby.objects.order_by("pk").values()),
        list(Lobby.tournaments.through.objects.order_by("pk").values()),
        Event.objects.count(),
    )


def test_a_lobby_through_the_api_from_creation_to_undone_deletion(director_api, tournament):
    r = director_api.post(
        LOBBIES,
        {"name": "Main lobby", "tournaments": [tournament.pk], "per_page": 4, "page_seconds": 10},
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert _matches("post", "lobbies", body, 201)
    lobby = Lobby.objects.get()
    assert body["id"] == lobby.pk and body["token"] == lobby.token
    assert body["url"] == f"/lobby/{lobby.token}/"
    assert (body["all_events"], body["tournaments"]) == (False, [tournament.pk])
    assert body["showing"] == [{"id": tournament.pk, "name": "Friday 50", "status": "setup"}]
    assert body["action"] == Event.objects.get(kind="lobby_created").pk

    r = director_api.get(f"{LOBBIES}/{lobby.pk}")
    assert r.status_code == 200 and _matches("get", "lobbies/{lobby_id}", r.json())
    listed = director_api.get(LOBBIES).json()["lobbies"]
    assert [x["name"] for x in listed] == ["Main lobby"]

    r = call(director_api, "patch", f"{LOBBIES}/{lobby.pk}", {"tournaments": [], "per_page": 8})
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["all_events"], body["per_page"], body["page_seconds"]) == (True, 8, 10)
    assert body["name"] == "Main lobby"  # left out: kept
    assert body["action"] == Event.objects.get(kind="lobby_updated").pk

    r = _delete(director_api, f"{LOBBIES}/{lobby.pk}")
    assert r.status_code == 200, r.content
    deleted = r.json()
    assert deleted == {"deleted": lobby.pk, "action": Event.objects.get(kind="lobby_deleted").pk}
    assert not Lobby.objects.exists()
    r = director_api.post(f"{ACTIONS}/{deleted['action']}/undo")
    assert r.status_code == 200, r.content
    back = Lobby.objects.get()
    assert (back.pk, back.token, back.per_page) == (lobby.pk, lobby.token, 8)


def test_the_public_state_by_the_lobby_link(anon_api, director, tournament):
    services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.clock_action(tournament_id=tournament.pk, action="start")
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk])
    r = anon_api.get(f"/api/v1/lobby/{lobby.token}")
    assert r.status_code == 200, r.content
    body = r.json()
    assert _matches("get", "lobby/{token}", body)
    (card,) = body["events"]
    assert (card["name"], card["phase"], card["status"]) == ("Friday 50", "running", "running")
    assert (card["players_left"], card["entries"], card["prize_pool"]) == (1, 1, "50")
    assert card["items"][0]["kind"] == "level" and card["token"] == tournament.display_token
    assert "Ann" not in r.content.decode()  # no player on a lobby
    _error(anon_api.get("/api/v1/lobby/no-such-token"), 404, "not_found")
    _error(anon_api.get("/api/v1/lobby/bad%20token"), 404, "not_found")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "bad_name"),
        ({"name": "L", "per_page": 0}, "bad_input"),
        ({"name": "L", "per_page": 25}, "bad_input"),
        ({"name": "L", "page_seconds": 4}, "bad_input"),
        ({"name": "L", "tournaments": [12345]}, "bad_tournaments"),
        ({"name": "L", "tournaments": [-1]}, "bad_tournaments"),
        ({"name": "L", "tournaments": [2**70]}, "bad_tournaments"),
        ({"name": "L", "colour": "red"}, "bad_input"),
        ({"per_page": 3}, "bad_input"),
    ],
)
def test_bad_bodies_are_refused_and_change_nothing(director_api, tournament, body, code):
    before = _state()
    r = director_api.post(LOBBIES, body)
    _error(r, 400, code)
    assert _state() == before


def test_a_finished_tournament_is_refused_and_an_unknown_lobby_is_404(director_api, tournament):
    lobby = lobbies.lobby_create(name="L")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    before = _state()
    r = call(director_api, "patch", f"{LOBBIES}/{lobby.pk}", {"tournaments": [tournament.pk]})
    assert _error(r, 400, "bad_tournaments")["fields"] == {"tournaments": [tournament.pk]}
    assert _state() == before
    _error(director_api.get(f"{LOBBIES}/999"), 404, "not_found")
    _error(call(director_api, "patch", f"{LOBBIES}/999", {"name": "x"}), 404, "not_found")
    _error(_delete(director_api, f"{LOBBIES}/{2**63}"), 404, "not_found")


def test_the_desk_reads_and_only_the_director_writes(desk_api, anon_api, stranger, tournament):
    lobby = lobbies.lobby_create(name="L")
    assert desk_api.get(LOBBIES).status_code == 200
    assert desk_api.get(f"{LOBBIES}/{lobby.pk}").status_code == 200
    before = _state()
    _error(desk_api.post(LOBBIES, {"name": "X"}), 403, "forbidden")
    _error(call(desk_api, "patch", f"{LOBBIES}/{lobby.pk}", {"name": "X"}), 403, "forbidden")
    _error(_delete(desk_api, f"{LOBBIES}/{lobby.pk}"), 403, "forbidden")
    _error(anon_api.get(LOBBIES), 401, "unauthorized")
    stranger_api = ApiClient(token_create(user=stranger))
    _error(stranger_api.get(LOBBIES), 403, "forbidden")
    assert _state() == before


TOKENS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(token=TOKENS)
def test_any_token_answers_a_lobby_or_not_found_never_an_error(anon_api, tournament, token):
    for path in (f"/api/v1/lobby/{quote(token, safe='')}", f"/lobby/{quote(token, safe='')}/"):
        r = anon_api.client.get(path)
        assert r.status_code in (200, 400, 404), (path, r.status_code)
    r = anon_api.client.get(f"/lobby/{quote(token, safe='')}/state.json")
    assert r.status_code in (200, 400, 404), (token, r.status_code)
