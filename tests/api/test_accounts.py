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


# ---------------------------------------------------------------- the users page (dashboard)


def test_the_users_page_is_for_directors_only(client, desk_clerk, stranger):
    assert client.get("/td/users/").status_code == 302  # anonymous: to the login page
    for user in (desk_clerk, stranger):
        client.force_login(user)
        assert client.get("/td/users/").status_code == 403
        r = client.post(
            "/td/users/",
            {"op": "create", "username": "x", "password": "p-9x!long", "role": "director"},
        )
        assert r.status_code == 403
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="x").exists()


def test_a_director_adds_a_user_sets_the_role_and_sees_it_in_the_account_log(client, director):
    from django.contrib.auth import get_user_model

    from tourney.roles import is_desk, is_director

    client.force_login(director)
    r = client.get("/td/users/")
    assert r.status_code == 200 and "one card room" in r.content.decode()
    r = client.post(
        "/td/users/",
        {"op": "create", "username": "kim", "password": "desk-pass-9x", "role": "desk"},
        follow=True,
    )
    assert r.status_code == 200 and "User kim added." in r.content.decode()
    kim = get_user_model().objects.get(username="kim")
    assert is_desk(kim) and not is_director(kim)
    r = client.post("/td/users/", {"op": "role", "username": "kim", "role": "director"})
    assert r.status_code == 302
    kim = get_user_model().objects.get(username="kim")
    assert is_director(kim)
    r = client.post("/td/users/", {"op": "role", "username": "kim", "role": ""})
    kim = get_user_model().objects.get(username="kim")
    assert not is_desk(kim)
    assert list(
        Event.objects.filter(tournament=None).order_by("pk").values_list("kind", flat=True)
    ) == ["user_created", "user_role_set", "user_role_set"]
    page = client.get("/td/users/").content.decode()
    assert page.count("user_role_set") == 2 and "user_created" in page


def test_bad_user_forms_show_the_message_and_change_nothing(client, director):
    from django.contrib.auth import get_user_model

    client.force_login(director)
    users_before = get_user_model().objects.count()
    cases = [
        ({"op": "create", "username": "x", "password": "short", "role": "desk"}, 400),
        ({"op": "create", "username": "", "password": "long-enough-1", "role": "desk"}, 400),
        ({"op": "create", "username": "td", "password": "long-enough-1", "role": "desk"}, 409),
        ({"op": "create", "username": "y", "password": "long-enough-1", "role": "king"}, 400),
        ({"op": "role", "username": "nobody", "role": "desk"}, 404),
        ({"op": "role", "username": "td", "role": "queen"}, 400),
        ({"op": "token", "username": "nobody"}, 404),
        ({"op": "revoke", "username": "td", "prefix": "tny_nothing1"}, 404),
        ({"op": "format-disk"}, 400),
    ]
    for data, status in cases:
        r = client.post("/td/users/", data)
        assert r.status_code == status, data
        assert 'role="alert"' in r.content.decode()
    assert get_user_model().objects.count() == users_before
    assert not Event.objects.exists()
    assert not ApiToken.objects.exists()


def test_the_last_director_cannot_drop_the_role(client, director):
    from tourney.roles import is_director
    from tourney.services.accounts import MSG_LAST_DIRECTOR

    client.force_login(director)
    r = client.post("/td/users/", {"op": "role", "username": "td", "role": "desk"})
    assert r.status_code == 409 and MSG_LAST_DIRECTOR in r.content.decode()
    director.refresh_from_db()
    director._tourney_groups = None
    assert is_director(director)
    assert not Event.objects.exists()


def test_a_director_issues_a_token_for_a_clerk_shown_once_and_revokes_it(
    client, director, desk_clerk, tournament
):
    client.force_login(director)
    r = client.post("/td/users/", {"op": "token", "username": "clerk"})
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    import re

    key = re.search(r'<code id="new-token">(tny_[^<]+)</code>', r.content.decode()).group(1)
    token = ApiToken.objects.get(user=desk_clerk)
    assert token.prefix == key[:12] and token.key_hash != key
    clerk_api = ApiClient(key)
    assert clerk_api.get(f"/api/v1/tournaments/{tournament.pk}").status_code == 200
    page = client.get("/td/users/").content.decode()
    assert key not in page  # shown once
    assert token.prefix in page and "never used" not in page.split(token.prefix)[1][:80]
    r = client.post("/td/users/", {"op": "revoke", "username": "clerk", "prefix": token.prefix})
    assert r.status_code == 302
    assert clerk_api.get(f"/api/v1/tournaments/{tournament.pk}").status_code == 401
    assert list(
        Event.objects.filter(tournament=None).order_by("pk").values_list("kind", "payload__user")
    ) == [("api_token_created", "clerk"), ("api_token_revoked", "clerk")]


def test_rotating_the_display_link_from_the_dashboard_asks_first(client, director, tournament):
    old = tournament.display_token
    client.force_login(director)
    r = client.get(f"/td/{tournament.pk}/display-token/")
    assert r.status_code == 200 and old in r.content.decode()
    r = client.post(f"/td/{tournament.pk}/display-token/")  # the first click only asks
    assert r.status_code == 200 and "Yes, rotate the display link" in r.content.decode()
    tournament.refresh_from_db()
    assert tournament.display_token == old
    r = client.post(f"/td/{tournament.pk}/display-token/", {"confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.display_token != old and tournament.display_token in r.content.decode()
    assert client.get(f"/display/{old}/").status_code == 404
    assert Event.objects.filter(tournament=tournament, kind="display_token_rotated").count() == 1
    assert b"Rotate display link" in client.get(f"/td/{tournament.pk}/").content


def test_a_user_without_a_role_sees_no_display_link_on_the_home_page(
    client, stranger, desk_clerk, tournament
):
    client.force_login(stranger)
    body = client.get("/").content.decode()
    assert tournament.display_token not in body and tournament.name not in body
    assert 'id="no-role"' in body
    client.force_login(desk_clerk)
    body = client.get("/").content.decode()
    assert tournament.display_token in body and "Users and roles" not in body


@pytest.mark.parametrize("twin", ["\ufb00", " ff ", "\uff46\uff46"])
def test_a_username_django_would_store_as_an_existing_one_is_refused(director_api, twin):
    """Found by schemathesis: "ﬀ" is stored as "ff" (NFKC), so checking the raw name let the
    database refuse it with a 500. Both names are compared as Django stores them."""
    body = {"password": "long-enough-1", "role": "desk"}
    first = director_api.post("/api/v1/users", {**body, "username": "ff"})
    assert first.status_code == 201, first.content

    r = director_api.post("/api/v1/users", {**body, "username": twin})

    assert (r.status_code, r.json()["error"]["code"]) == (409, "user_exists")
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(username__in=["ff", twin.strip()]).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_directors_adding_the_same_user_at_once_get_one_user_and_one_409(director):
    from django.contrib.auth import get_user_model

    from tests.threads import at_once
    from tourney.engine.errors import DomainError
    from tourney.services.accounts import user_create

    def add():
        try:
            user_create(username="twin", password="long-enough-1", role="desk", actor=director)
            return "made"
        except DomainError as exc:
            return exc.code

    results = at_once(4, add)

    assert sorted(results) == ["made", "user_exists", "user_exists", "user_exists"]
    assert get_user_model().objects.filter(username="twin").count() == 1
