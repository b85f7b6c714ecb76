"""Lobby displays (issue 28) on the screens: the director's list, new, edit, delete and undo,
and the public lobby by its link with its state (ETag, 304) under the display's CSP."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tourney import services
from tourney.models import Event, Lobby
from tourney.selectors import lobby as reads
from tourney.services import lobbies

pytestmark = pytest.mark.django_db


def test_the_director_creates_a_lobby_and_sees_its_link(td, seated_tournament):
    t = seated_tournament
    r = td.get(reverse("tourney-lobbies"))
    assert r.status_code == 200
    assert f'value="{t.pk}"' in r.content.decode()  # its checkbox
    r = td.post(
        reverse("tourney-lobbies"),
        {
            "name": "Main lobby",
            "mode": "chosen",
            "tournaments": [str(t.pk)],
            "per_page": "4",
            "page_seconds": "12",
        },
    )
    lobby = Lobby.objects.get()
    assert r.status_code == 302 and r["Location"].endswith(f"#lobby-{lobby.pk}")
    assert (lobby.name, lobby.per_page, lobby.page_seconds) == ("Main lobby", 4, 12)
    assert list(lobby.tournaments.values_list("pk", flat=True)) == [t.pk]
    html = td.get(reverse("tourney-lobbies")).content.decode()
    assert f"/lobby/{lobby.token}/" in html and "Friday 50" in html


def test_a_refusal_shows_in_place_with_what_was_typed(td, tournament):
    r = td.post(
        reverse("tourney-lobbies"),
        {"name": "Typed name", "mode": "all", "per_page": "30", "page_seconds": "15"},
    )
    assert r.status_code == 400
    html = r.content.decode()
    assert lobbies.MSG_PER_PAGE in html and 'value="Typed name"' in html
    assert not Lobby.objects.exists()
    r = td.post(
        reverse("tourney-lobbies"),
        {"name": "X", "mode": "all", "per_page": "six", "page_seconds": "15"},
    )
    assert r.status_code == 400 and "Events per page: type a whole number." in r.content.decode()


def test_edit_all_of_today_then_delete_and_undo(td, tournament):
    lobby = lobbies.lobby_create(name="L", tournament_ids=[tournament.pk])
    url = reverse("tourney-lobbies-edit", args=[lobby.pk])
    assert td.get(url).status_code == 200
    r = td.post(
        url,
        {
            "name": "Renamed",
            "mode": "all",
            "tournaments": [str(tournament.pk)],
            "per_page": "6",
            "page_seconds": "5",
        },
    )
    assert r.status_code == 302
    lobby.refresh_from_db()
    assert lobby.name == "Renamed" and lobby.page_seconds == 5
    assert not lobby.tournaments.exists()  # "every event of today and upcoming"
    assert td.post(reverse("tourney-lobbies-delete", args=[lobby.pk])).status_code == 302
    assert not Lobby.objects.exists()
    event = Event.objects.get(kind="lobby_deleted")
    r = td.post(reverse("tourney-lobbies-undo"), {"event": str(event.pk)})
    assert r.status_code == 302 and Lobby.objects.get().name == "Renamed"
    r = td.post(reverse("tourney-lobbies-undo"), {"event": "x"})
    assert r.status_code == 404


def test_the_lobby_screens_are_the_directors(client, desk_clerk):
    client.force_login(desk_clerk)
    assert client.get(reverse("tourney-lobbies")).status_code == 403


def test_the_public_lobby_shows_the_events_under_the_display_csp(client, director, tournament):
    services.clock_action(tournament_id=tournament.pk, action="start")
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk], per_page=2)
    r = client.get(reverse("tourney-lobby", args=[lobby.token]))
    assert r.status_code == 200
    assert "script-src 'self'" in r["Content-Security-Policy"]
    assert r["Referrer-Policy"] == "no-referrer"
    html = r.content.decode()
    assert "Friday 50" in html and "Level 1" in html and "20:00" in html
    assert f"/display/{tournament.display_token}/?view=seating" in html
    assert "<script>" not in html and 'id="lobby-state"' in html


def test_an_unknown_lobby_is_a_404(client):
    assert client.get("/lobby/no-such-lobby/").status_code == 404
    r = client.get("/lobby/no-such-lobby/state.json")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_the_state_answers_304_while_nothing_changed(client, director, tournament):
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk])
    url = reverse("tourney-lobby-state", args=[lobby.token])
    r = client.get(url)
    assert r.status_code == 200 and r["X-Server-Time"].isdigit()
    body = json.loads(r.content)
    assert r["ETag"] == body["etag"] and [e["name"] for e in body["events"]] == ["Friday 50"]
    assert client.get(url, HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304
    services.entry_register(tournament_id=tournament.pk, name="Ann", actor=director)
    reads.forget_version(lobby.token)
    again = client.get(url, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 200 and again["ETag"] != r["ETag"]
    assert json.loads(again.content)["events"][0]["entries"] == 1


def test_the_home_page_links_the_lobby_displays_for_directors(client, director, desk_clerk):
    client.force_login(director)
    assert 'id="lobbies-link" href="/td/lobbies/"' in client.get("/").content.decode()
    client.force_login(desk_clerk)
    assert "lobbies-link" not in client.get("/").content.decode()


def test_an_unchanged_lobby_answers_304_without_a_query(
    client, director, tournament, django_assert_num_queries
):
    lobby = lobbies.lobby_create(name="Room")
    url = reverse("tourney-lobby-state", args=[lobby.token])
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        r = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 304 and r["ETag"] == etag
