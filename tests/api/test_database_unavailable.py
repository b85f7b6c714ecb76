"""The database unreachable for a moment (a PostgreSQL restart, a dropped connection): the API
answers 503 ``database_unavailable`` with ``Retry-After`` in its error shape, the screens a
short 503 page, never a 500, and nothing is written (the run with real faults,
tests/faults, restarts PostgreSQL in the middle of a day and retries on these answers)."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from tourney import services
from tourney.models import Entry
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db


def _unreachable(execute, sql, params, many, context):
    raise OperationalError("server closed the connection unexpectedly")


def test_an_api_write_while_the_database_is_away_is_a_503_and_writes_nothing(director):
    t = services.tournament_create(actor=director, name="Restart", tables=1, seed=1)
    token = token_create(user=director)
    client = Client(raise_request_exception=False)
    path = f"/api/v1/tournaments/{t.pk}/entries"
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "content_type": "application/json"}
    with connection.execute_wrapper(_unreachable):
        r = client.post(path, json.dumps({"name": "Ann Lee"}), **headers)
    assert r.status_code == 503
    assert r["Retry-After"] == "2"
    assert r.json()["error"]["code"] == "database_unavailable"
    assert not Entry.objects.filter(tournament=t).exists()
    # The same request once the database is back: done.
    r = client.post(path, json.dumps({"name": "Ann Lee"}), **headers)
    assert r.status_code == 201, r.content
    assert Entry.objects.filter(tournament=t).count() == 1


def test_a_screen_while_the_database_is_away_is_a_503_page(director):
    t = services.tournament_create(actor=director, name="Restart", tables=1, seed=1)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    with connection.execute_wrapper(_unreachable):
        r = client.get(reverse("tourney-dashboard", args=[t.pk]))
    assert r.status_code == 503 and r["Retry-After"] == "2"
    assert "Reload the page" in r.content.decode()


def test_another_server_error_stays_a_500(director, monkeypatch):
    """Only the database being away is a 503: any other failure is still reported as what
    it is (docs/api.md: server_error)."""
    t = services.tournament_create(actor=director, name="Bug", tables=1, seed=1)
    token = token_create(user=director)
    client = Client(raise_request_exception=False)

    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("tourney.selectors.clock_payload", bug)
    r = client.get(f"/api/v1/tournaments/{t.pk}/clock", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "server_error"
