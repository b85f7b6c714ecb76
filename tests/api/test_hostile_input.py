"""Issue 10: hostile input. Schemathesis generates requests from /api/v1/openapi.json (a
bounded number per operation), each sent with no token, a desk clerk's and a director's: no
answer is ever a 5xx, every status is one the document declares, and every body matches its
schema (errors: the docs/api.md error body). Then ids beyond what the database holds."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tourney.wsgi import application  # noqa: E402

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


@pytest.fixture
def keep_test_connection():
    """Like Django's test client: a request must not close the test's database connection."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def auths(db, director, desk_clerk, tournament, keep_test_connection):
    """No token, then the desk's, then the director's (who may change the state last)."""
    from tourney import services
    from tourney.tokens import token_create

    for i in range(4):
        services.entry_register(tournament_id=tournament.pk, name=f"Fuzz {i}", actor=director)
    return [
        {},
        {"Authorization": f"Bearer {token_create(user=desk_clerk)}"},
        {"Authorization": f"Bearer {token_create(user=director)}"},
    ]


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case, auths):
    for headers in auths:
        case.call_and_validate(headers=headers, checks=CHECKS)


def test_every_operation_declares_the_api_md_error_body():
    """The checks above can fail only if the document says what an error looks like."""
    from tourney.api import api
    from tourney.api.common import ERROR_SCHEMA

    doc = api.get_openapi_schema()
    assert doc["components"]["schemas"]["Error"] == ERROR_SCHEMA
    undeclared = [
        (method, path, status)
        for path, operations in doc["paths"].items()
        for method, operation in operations.items()
        for status in (400, 401, 403, 404, 409)
        if operation["responses"].get(status, {}).get("content", {}).get("application/json")
        != {"schema": {"$ref": "#/components/schemas/Error"}}
    ]
    assert undeclared == []


def test_an_error_body_that_breaks_the_contract_fails_the_schema_check(director_api, tournament):
    """The error schema is not vacuous: a body without ``code`` does not match it."""
    import jsonschema_rs

    from tourney.api.common import ERROR_SCHEMA

    r = director_api.post(f"/api/v1/tournaments/{tournament.pk}/undo")
    assert r.status_code == 409
    assert jsonschema_rs.is_valid(ERROR_SCHEMA, r.json())
    assert not jsonschema_rs.is_valid(ERROR_SCHEMA, {"error": {"message": "x", "fields": {}}})
    assert not jsonschema_rs.is_valid(ERROR_SCHEMA, {"detail": "Not found"})


HUGE = 10**30


@pytest.mark.django_db
def test_ids_beyond_the_database_are_refused_as_bad_input(director_api, seated_tournament):
    from tourney.models import Entry, Event

    t = seated_tournament
    before = (Event.objects.count(), list(Entry.objects.values_list("pk", "status")))
    r = director_api.post(
        f"/api/v1/tournaments/{t.pk}/eliminations",
        {"entries": [{"id": HUGE, "starting_stack": 100}]},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    assert "entries.0.id" in r.json()["error"]["fields"]
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/entries", {"player_id": HUGE})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    r = director_api.put(f"/api/v1/tournaments/{t.pk}/tables/{HUGE}/button", {"seat": 1})
    assert r.status_code in (400, 404) and r.json()["error"]["code"] in (
        "bad_input",
        "not_found",
        "table_not_found",
    )
    assert (Event.objects.count(), list(Entry.objects.values_list("pk", "status"))) == before


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["tables/{n}/button/", "colorup/{n}/"])
def test_a_table_number_beyond_the_database_is_not_found(client, director, seated_tournament, path):
    """Plain-SQL readers (``_table_loaded``, ``colorup._table_seated``) get the number first."""
    from tourney.models import Event

    t = seated_tournament
    client.force_login(director)
    before = Event.objects.count()
    r = client.post(f"/td/{t.pk}/" + path.format(n=HUGE), {"seat": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code in (400, 404)  # the form's own check may refuse it first
    assert Event.objects.count() == before


def test_the_services_refuse_a_table_number_beyond_the_database(director, seated_tournament):
    from tables import services as ts
    from tourney.engine.errors import DomainError
    from tourney.services import colorup

    t = seated_tournament
    with pytest.raises(DomainError) as err:
        ts.table_set_button(tournament_id=t.pk, table_number=2**63, seat=1, actor=director)
    assert (err.value.code, err.value.status) == ("table_not_found", 404)
    with pytest.raises(DomainError) as err:
        colorup._table_seated(t, 2**63)
    assert (err.value.code, err.value.status) == ("table_not_found", 404)
