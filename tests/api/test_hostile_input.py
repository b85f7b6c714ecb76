"""Issue 10: hostile input. Schemathesis generates requests from /api/v1/openapi.json (a
bounded number per operation): no answer is ever a 5xx, and answers match the schema."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

schemathesis = pytest.importorskip("schemathesis")

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
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
def auth(db, director, tournament, keep_test_connection):
    from tourney import services
    from tourney.tokens import token_create

    for i in range(4):
        services.entry_register(tournament_id=tournament.pk, name=f"Fuzz {i}", actor=director)
    return {"Authorization": f"Bearer {token_create(user=director)}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case, auth):
    case.call_and_validate(
        headers=auth,
        checks=[not_a_server_error, content_type_conformance, response_schema_conformance],
    )
