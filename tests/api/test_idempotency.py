"""The API's Idempotency-Key (docs/api.md, "Idempotency"): a write sent again with its key is
answered from the first sending and done once; the key's row is stored in the write's own
transaction; keys expire after 24 hours (beat)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone

from tourney import services
from tourney.celery import app as celery_app
from tourney.core import idempotency
from tourney.models import Entry, Event, IdempotentRequest
from tourney.services.maintenance import idempotent_requests_expire
from tourney.tasks import idempotency_expire
from tourney.tokens import token_create

from ..threads import at_once


def _post(api, path, body, key=None, method="post"):
    headers = dict(api.headers)
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return getattr(api.client, method)(
        path, data=json.dumps(body), content_type="application/json", **headers
    )


def _entries(t) -> int:
    return Entry.objects.filter(tournament=t).count()


@pytest.mark.django_db
def test_a_registration_sent_twice_with_its_key_is_one_entry_and_the_same_answer(
    desk_api, tournament
):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    first = _post(desk_api, path, {"name": "Ann"}, key="reg-ann-1")
    assert first.status_code == 201, first.content
    assert "Idempotent-Replayed" not in first
    second = _post(desk_api, path, {"name": "Ann"}, key="reg-ann-1")
    assert second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert second["Content-Type"] == "application/json; charset=utf-8"
    assert second.json() == first.json()
    assert _entries(tournament) == 1
    assert Event.objects.filter(tournament=tournament, kind="entry_registered").count() == 1
    row = IdempotentRequest.objects.get(key="reg-ann-1")
    assert row.status == 201 and json.loads(bytes(row.content)) == first.json()
    # Without a key, the same body is another entry, as always.
    assert _post(desk_api, path, {"name": "Ann"}).status_code == 201
    assert _entries(tournament) == 2


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_and_writes_nothing(desk_api, tournament):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    assert _post(desk_api, path, {"name": "Ann"}, key="k1").status_code == 201
    r = _post(desk_api, path, {"name": "Bob"}, key="k1")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "idempotency_key_reused"
    assert r.json()["error"]["message"] == idempotency.MSG_REUSED
    assert _entries(tournament) == 1
    # ...and with another path.
    r = _post(desk_api, f"/api/v1/tournaments/{tournament.pk}/entries?x=1", {"name": "Ann"}, "k1")
    assert r.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_bad_key_is_400_and_nothing_is_written(desk_api, tournament, key):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    client = desk_api.client
    r = client.post(
        path,
        data=json.dumps({"name": "Ann"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=desk_api.headers["HTTP_AUTHORIZATION"],
        HTTP_IDEMPOTENCY_KEY=key.encode().decode("latin-1"),
    )
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "bad_idempotency_key"
    assert _entries(tournament) == 0
    assert not IdempotentRequest.objects.exists()


@pytest.mark.django_db
def test_a_key_of_255_printable_characters_is_taken(desk_api, tournament):
    key = "~ !" + "k" * 252
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    assert _post(desk_api, path, {"name": "Ann"}, key=key).status_code == 201
    assert _post(desk_api, path, {"name": "Ann"}, key=key)["Idempotent-Replayed"] == "true"
    assert _entries(tournament) == 1


@pytest.mark.django_db
def test_a_refusal_is_stored_and_the_same_retry_gets_it_again(director_api, seated_tournament):
    t = seated_tournament
    path = f"/api/v1/tournaments/{t.pk}/eliminations"
    body = {"entries": [{"id": 999999, "starting_stack": 20000}]}
    first = _post(director_api, path, body, key="bust-1")
    assert first.status_code in (400, 404, 409), first.content
    again = _post(director_api, path, body, key="bust-1")
    assert again.status_code == first.status_code
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
def test_a_bust_sent_twice_is_one_bust(director_api, seated_tournament):
    t = seated_tournament
    victim = Entry.objects.filter(tournament=t, status="seated").order_by("pk").first()
    path = f"/api/v1/tournaments/{t.pk}/eliminations"
    body = {"entries": [{"id": victim.pk, "starting_stack": 20000}]}
    first = _post(director_api, path, body, key="bust-2")
    assert first.status_code == 200, first.content
    second = _post(director_api, path, body, key="bust-2")
    assert second.status_code == 200 and second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Event.objects.filter(tournament=t, kind="elimination").count() == 1
    # Without the key, the repeat is refused by the state: the player is out already.
    assert _post(director_api, path, body).status_code == 409


@pytest.mark.django_db
def test_keys_belong_to_their_user(desk_api, director_api, tournament):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    assert _post(desk_api, path, {"name": "Ann"}, key="same").status_code == 201
    r = _post(director_api, path, {"name": "Ann"}, key="same")
    assert r.status_code == 201 and "Idempotent-Replayed" not in r
    assert _entries(tournament) == 2


@pytest.mark.django_db
def test_a_put_and_a_delete_are_replayed_too(director_api, director):
    token = token_create(user=director)
    prefix = token[:12]
    first = _post(director_api, f"/api/v1/tokens/{prefix}", None, key="rm", method="delete")
    assert first.status_code == 200, first.content
    again = _post(director_api, f"/api/v1/tokens/{prefix}", None, key="rm", method="delete")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    role = _post(director_api, "/api/v1/users/td/role", {"role": "director"}, "r", method="put")
    assert role.status_code in (200, 404)
    assert (
        _post(director_api, "/api/v1/users/td/role", {"role": "director"}, "r", "put")[
            "Idempotent-Replayed"
        ]
        == "true"
    )


@pytest.mark.django_db
def test_a_server_error_keeps_no_key_and_no_write(desk_api, tournament, monkeypatch):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    real = services.entry_register

    def broken(**kwargs):
        real(**kwargs)  # the write is done...
        raise RuntimeError("the answer is lost")  # ...and then the request dies

    monkeypatch.setattr(services, "entry_register", broken)
    client = Client(raise_request_exception=False)
    r = client.post(
        path,
        data=json.dumps({"name": "Ann"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=desk_api.headers["HTTP_AUTHORIZATION"],
        HTTP_IDEMPOTENCY_KEY="dies",
    )
    assert r.status_code == 500
    assert _entries(tournament) == 0  # rolled back with the key
    assert not IdempotentRequest.objects.exists()
    monkeypatch.setattr(services, "entry_register", real)
    again = _post(desk_api, path, {"name": "Ann"}, key="dies")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert _entries(tournament) == 1


@pytest.mark.django_db
def test_a_key_without_credentials_is_401_and_stores_nothing(anon_api, tournament):
    r = _post(anon_api, f"/api/v1/tournaments/{tournament.pk}/entries", {"name": "A"}, "k")
    assert r.status_code == 401
    assert not IdempotentRequest.objects.exists()


@pytest.mark.django_db
def test_a_key_past_24_hours_runs_again_and_beat_deletes_it(desk_api, tournament, time_machine):
    path = f"/api/v1/tournaments/{tournament.pk}/entries"
    assert _post(desk_api, path, {"name": "Ann"}, key="old").status_code == 201
    time_machine.move_to(timezone.now() + timedelta(hours=23, minutes=59))
    assert _post(desk_api, path, {"name": "Ann"}, key="old")["Idempotent-Replayed"] == "true"
    assert idempotent_requests_expire() == 0
    time_machine.move_to(timezone.now() + timedelta(minutes=2))
    r = _post(desk_api, path, {"name": "Ann"}, key="old")
    assert r.status_code == 201 and "Idempotent-Replayed" not in r
    assert _entries(tournament) == 2
    assert _post(desk_api, path, {"name": "Bob"}, key="older").status_code == 201
    time_machine.move_to(timezone.now() + timedelta(hours=24, minutes=1))
    assert idempotency_expire() == 2  # the Celery task, run in place
    assert not IdempotentRequest.objects.exists()


def test_beat_runs_the_expiry_every_hour():
    schedule = {v["task"]: v["schedule"] for v in celery_app.conf.beat_schedule.values()}
    assert schedule["tourney.tasks.idempotency_expire"] == 3600.0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_repeats_at_once_make_one_entry(desk_clerk, tournament):
    token = token_create(user=desk_clerk)
    path = f"/api/v1/tournaments/{tournament.pk}/entries"

    def send():
        r = Client().post(
            path,
            data=json.dumps({"name": "Rush"}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
            HTTP_IDEMPOTENCY_KEY="rush-1",
        )
        return r.status_code, r.get("Idempotent-Replayed"), r.json()

    out = at_once(8, send)
    connections.close_all()
    assert not [o for o in out if isinstance(o, BaseException)], out
    assert [s for s, _, _ in out] == [201] * 8
    assert sorted(str(h) for _, h, _ in out) == ["None"] + ["true"] * 7
    assert len({json.dumps(body, sort_keys=True) for *_, body in out}) == 1
    assert _entries(tournament) == 1
    assert IdempotentRequest.objects.count() == 1
