"""Shared fixtures: personas (director, desk_clerk, stranger), tournaments, API clients."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from tourney import services
from tourney.roles import DESK_GROUP, DIRECTOR_GROUP
from tourney.tokens import token_create

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def _missing_services() -> dict[str, str]:
    db_url = os.environ.get("DATABASE_URL", "")
    broker = os.environ.get("CELERY_BROKER_URL", "") or os.environ.get("REDIS_URL", "")
    reasons = {}
    if not db_url.startswith("postgres"):
        reasons["postgres"] = "DATABASE_URL does not point at PostgreSQL"
    elif not _reachable(db_url, 5432):
        reasons["postgres"] = f"PostgreSQL at {db_url} is unreachable"
    if not broker.startswith("redis"):
        reasons["redis"] = "CELERY_BROKER_URL / REDIS_URL do not point at Redis"
    elif not _reachable(broker, 6379):
        reasons["redis"] = f"Redis at {broker} is unreachable"
    return reasons


MISSING = _missing_services()


def pytest_configure(config):
    """Under pytest-xdist, each test process gets a Redis cache database of its own (the
    configured one plus its worker number): the display tests clear the cache between tests,
    and Django's RedisCache.clear() flushes the whole database, the other process's entries
    with it."""
    from django.conf import settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cache = settings.CACHES["default"]
    if not worker.startswith("gw") or not cache["BACKEND"].endswith(".RedisCache"):
        return
    n = int(worker[2:])
    given = cache["LOCATION"]
    locations = given if isinstance(given, list) else given.split(",")
    moved = []
    for loc in locations:
        parsed = urlparse(loc)
        db = int(parsed.path.strip("/") or 0) + n
        if db > 15:
            raise pytest.UsageError(f"{loc}: no Redis database {db} for test process {worker}")
        moved.append(parsed._replace(path=f"/{db}").geturl())
    cache["LOCATION"] = moved if isinstance(given, list) else ",".join(moved)


def pytest_runtest_setup(item):
    """Tests marked postgres/redis need those services: they skip with the reason when the
    environment does not point at a reachable one, unless REQUIRE_SERVICES=1 (then fail)."""
    for mark, reason in MISSING.items():
        if item.get_closest_marker(mark):
            if REQUIRE_SERVICES:
                pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
            pytest.skip(reason)


@pytest.fixture
def director(django_user_model):
    user = django_user_model.objects.create_user("td", password="td-pass-123")
    user.groups.add(Group.objects.get_or_create(name=DIRECTOR_GROUP)[0])
    return user


@pytest.fixture
def desk_clerk(django_user_model):
    user = django_user_model.objects.create_user("clerk", password="clerk-pass-123")
    user.groups.add(Group.objects.get_or_create(name=DESK_GROUP)[0])
    return user


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", password="stranger-pass-123")


class ApiClient:
    """JSON calls with a bearer token (or none)."""

    def __init__(self, token: str | None):
        self.client = Client()
        self.headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}

    def _call(self, method: str, path: str, body=None):
        fn = getattr(self.client, method)
        kwargs = dict(self.headers)
        if body is not None:
            import json

            kwargs.update(data=json.dumps(body), content_type="application/json")
        return fn(path, **kwargs)

    def get(self, path):
        return self._call("get", path)

    def post(self, path, body=None):
        return self._call("post", path, body if body is not None else {})

    def put(self, path, body=None):
        return self._call("put", path, body if body is not None else {})


@pytest.fixture
def director_api(director) -> ApiClient:
    return ApiClient(token_create(user=director))


@pytest.fixture
def desk_api(desk_clerk) -> ApiClient:
    return ApiClient(token_create(user=desk_clerk))


@pytest.fixture
def anon_api() -> ApiClient:
    return ApiClient(None)


TWO_LEVELS = [
    {
        "kind": "level",
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "big_blind_ante": 200,
        "minutes": 20,
    },
    {"kind": "break", "minutes": 10, "color_up": [25]},
    {
        "kind": "level",
        "small_blind": 200,
        "big_blind": 400,
        "ante": 0,
        "big_blind_ante": 400,
        "minutes": 20,
    },
]


@pytest.fixture
def tournament(director):
    return services.tournament_create(
        actor=director,
        name="Friday 50",
        seats_per_table=9,
        tables=3,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=7,
        levels=TWO_LEVELS,
    )


@pytest.fixture
def seated_tournament(tournament, director):
    for i in range(20):
        services.entry_register(
            tournament_id=tournament.pk, name=f"Player {i + 1:02d}", actor=director
        )
    tournament.refresh_from_db()
    return tournament
