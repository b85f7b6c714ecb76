"""``tourney.core.rows.kept_cursor``: one cursor per connection for the hot statements, never at
the cost of a statement that query counting would miss, nor of a closed connection."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tourney.core.rows import kept_cursor

pytestmark = pytest.mark.django_db


def _one(sql: str) -> int:
    with kept_cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_the_same_cursor_serves_statement_after_statement(settings):
    settings.DEBUG = False
    first, second = kept_cursor(), kept_cursor()
    assert first is second
    assert (_one("SELECT 1"), _one("SELECT 2")) == (1, 2)
    with kept_cursor() as cursor:  # the end of a with block left it open for this one
        cursor.execute("SELECT 3")
        assert cursor.fetchone()[0] == 3


def test_counted_queries_still_see_every_statement(settings):
    settings.DEBUG = False
    kept = kept_cursor()
    with CaptureQueriesContext(connection) as seen:
        assert _one("SELECT 41 + 1") == 42
        assert kept_cursor() is not kept  # a logging cursor of its own while counting
    assert [q["sql"] for q in seen.captured_queries] == ["SELECT 41 + 1"]
    assert kept_cursor() is kept  # and the kept one again afterwards


@pytest.mark.django_db(transaction=True)
def test_a_new_connection_gets_a_new_cursor(settings):
    settings.DEBUG = False
    kept = kept_cursor()
    assert _one("SELECT 7") == 7
    raw = connection.connection
    connection.close()  # what Django does at the end of a request (CONN_MAX_AGE)
    assert _one("SELECT 8") == 8  # works on the new connection
    assert connection.connection is not raw
    assert kept_cursor() is not kept
