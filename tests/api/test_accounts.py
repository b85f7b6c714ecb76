"""Issue 10: users and roles, API tokens (hashed, revocable, shown once), display tokens."""

from __future__ import annotations

import pytest

from tests.conftest import ApiClient
from tourney.models import ApiToken, Event

pytestmark = pytest.mark.django_db


def test_director_adds_a_desk_clerk_who_can_register_but_not_run_the_clock(
    director_api, tournament
):
    r = director_api.post(
        "/api/v1/users", {"username": "kim", "password": "desk-pass-9x", "role": "desk"}
    )
    assert r.status_code == 201
    from django.contrib.auth import get_user_model

    kim = get_user_model().objects.get(username="kim")
    from tourney.tokens import token_create

    kim_api = ApiClient(token_create(user=kim))
    r = kim_api.post(f"/api/v1/tournaments/{tournament.pk}/entries", {"name": "Ann Lee"})
    assert r.status_code == 201
    r = kim_api.post(f"/api/v1/tournaments/{tournament.pk}/clock", {"action": "start"})
    assert r.status_code == 403
    assert Event.objects.filter(kind="user_created").exists()


def test_bad_users_are_refused(director_api, desk_api):
    r = director_api.post("/api/v1/users", {"username": "x", "password": "short", "role": "desk"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password"
    r = director_api.post(
        "/api/v1/users", {"username": "x", "password": "long-enough-1", "role": "king"}
    )
    assert r.status_code == 400
    r = desk_api.post(
        "/api/v1/users", {"username": "y", "password": "long-enough-1", "role": "director"}
    )
    assert r.status_code == 403


def test_tokens_are_shown_once_stored_hashed_and_revocable(director_api):
    r = director_api.post("/api/v1/tokens")
    token = r.json()["token"]
    assert r.status_code == 201 and token.startswith("tny_")
    assert not ApiToken.objects.filter(key_hash=token).exists()
    mine = ApiClient(token)
    assert mine.get("/api/v1/tournaments/999").status_code == 404  # authenticated
    r = mine.client.delete(f"/api/v1/tokens/{token[:12]}", **mine.headers)
    assert r.status_code == 200
    assert mine.get("/api/v1/tournaments/999").status_code == 401


def test_rotating_the_display_token_retires_the_old_screens(director_api, tournament, client):
    old = tournament.display_token
    assert client.get(f"/display/{old}/").status_code == 200
    r = director_api.post(f"/api/v1/tournaments/{tournament.pk}/display-token/rotate")
    new = r.json()["display_token"]
    assert new != old and len(new) >= 24
    assert client.get(f"/display/{old}/").status_code == 404
    assert client.get(f"/display/{new}/").status_code == 200
