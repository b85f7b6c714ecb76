"""Fixtures of the screens' tests: ``td``, the test client logged in as the director."""

import pytest


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client
