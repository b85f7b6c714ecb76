"""Issue 30: a web worker's own copies of the polled public states (selectors/polled.py) and
the polls answered from them before Django's middleware (tourney/polls_wsgi.py): the same
answers, headers included, as Django's; a change as soon as without the copies; a rotated
token at once."""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from django.urls import reverse

from tourney import services
from tourney.polls_wsgi import PolledStates
from tourney.selectors import display as public
from tourney.selectors import polled
from tourney.services import accounts, lobbies

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
PER_ANSWER = {"etag", "x-server-time", "server-timing", "content-length"}
LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture(autouse=True)
def _copies():
    cache.clear()
    polled.enable()
    yield
    polled.enable(False)
    cache.clear()


def _call(app, path, etag=None, query="", host="testserver", scheme="http"):
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": host,
        "wsgi.url_scheme": scheme,
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    if etag:
        environ["HTTP_IF_NONE_MATCH"] = etag
    got = {}

    def start_response(status, headers, exc_info=None):
        got["status"], got["headers"] = int(status.split()[0]), headers

    # as Django's test client: the test's database connection outlives the request
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        body = b"".join(app(environ, start_response))
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return got["status"], {name.lower(): value for name, value in got["headers"]}, body


def _from_copy(headers: dict) -> bool:
    return 'desc="copy"' in headers.get("server-timing", "")


def _same_headers(a: dict, b: dict) -> None:
    assert {k: v for k, v in a.items() if k not in PER_ANSWER} == {
        k: v for k, v in b.items() if k not in PER_ANSWER
    }


def test_a_poll_from_the_copy_is_django_s_answer_with_its_headers(seated_tournament):
    app = PolledStates(WSGIHandler())
    path = reverse("tourney-display-state", args=[seated_tournament.display_token])
    status, first, body = _call(app, path)
    assert status == 200 and not _from_copy(first)
    status, django_304, _ = _call(app, path, first["etag"])
    assert status == 304 and not _from_copy(django_304)  # the first 304: Django's, learnt
    status, copy_304, empty = _call(app, path, first["etag"])
    assert status == 304 and _from_copy(copy_304) and empty == b""
    assert copy_304["etag"] == first["etag"] and int(copy_304["x-server-time"]) > 0
    _same_headers(copy_304, django_304)
    for name in ("content-security-policy", "x-frame-options", "x-content-type-options"):
        assert copy_304[name] == django_304[name]
    status, copy_200, same_body = _call(app, path)  # a new screen: the bytes Django sent
    assert status == 200 and _from_copy(copy_200) and same_body == body
    _same_headers(copy_200, first)
    assert copy_200["content-length"] == str(len(body))


def test_the_lobby_is_answered_from_the_copy_too(seated_tournament):
    app = PolledStates(WSGIHandler())
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[seated_tournament.pk])
    path = reverse("tourney-lobby-state", args=[lobby.token])
    _, first, _ = _call(app, path)
    _call(app, path, first["etag"])
    status, headers, _ = _call(app, path, first["etag"])
    assert status == 304 and _from_copy(headers) and headers["etag"] == first["etag"]


def test_what_django_must_judge_goes_to_django(seated_tournament, settings):
    app = PolledStates(WSGIHandler())
    path = reverse("tourney-display-state", args=[seated_tournament.display_token])
    _, first, _ = _call(app, path)
    _call(app, path, first["etag"])
    status, headers, _ = _call(app, path, first["etag"], host="evil.example")
    assert status == 400 and not _from_copy(headers)  # DisallowedHost, as without the copy
    status, headers, _ = _call(app, path, first["etag"], query="view=tv")
    assert status == 304 and not _from_copy(headers)
    status, headers, _ = _call(app, path, first["etag"], query="lang=de")
    assert status == 200 and headers["etag"].endswith('.de"')  # another language's state
    status, headers, _ = _call(app, path.replace(seated_tournament.display_token, "nope"))
    assert status == 404 and not _from_copy(headers)


def test_plain_http_is_redirected_as_without_the_copy(seated_tournament, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    app = PolledStates(WSGIHandler())  # its SecurityMiddleware reads the settings
    path = reverse("tourney-display-state", args=[seated_tournament.display_token])
    _, first, _ = _call(app, path, scheme="https")
    _call(app, path, first["etag"], scheme="https")
    status, headers, _ = _call(app, path, first["etag"], scheme="https")
    assert status == 304 and _from_copy(headers) and "strict-transport-security" in headers
    status, headers, _ = _call(app, path, first["etag"])
    assert status == 301 and not _from_copy(headers)


@override_settings(CACHES=LOCMEM)  # an expiry that follows time-machine
def test_a_change_shows_no_later_than_without_the_copies(client, seated_tournament):
    t = seated_tournament
    url = reverse("tourney-display-state", args=[t.display_token])
    with time_machine.travel(T0, tick=False):
        etag = client.get(url)["ETag"]
        services.clock_action(tournament_id=t.pk, action="start")
    with time_machine.travel(T0 + timedelta(seconds=0.9), tick=False):
        # the cache's copy, read at T0: this worker's copy of it lasts until T0 + 1 s only
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with time_machine.travel(T0 + timedelta(seconds=public.ETAG_TTL_SECONDS + 0.01), tick=False):
        r = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 200 and r.json()["status"] == "running"


def test_a_poll_from_the_copy_reads_neither_cache_nor_database(
    client, seated_tournament, monkeypatch, django_assert_num_queries
):
    url = reverse("tourney-display-state", args=[seated_tournament.display_token])
    etag = client.get(url)["ETag"]
    monkeypatch.setattr(cache, "get", lambda *a, **k: pytest.fail("read the cache"))
    with django_assert_num_queries(0):
        r = client.get(url, HTTP_IF_NONE_MATCH=etag)
        again = client.get(url)
    assert r.status_code == 304 and again.status_code == 200 and again["ETag"] == etag


def test_a_rotated_token_stops_at_once_in_the_worker_that_rotated_it(client, seated_tournament):
    t = seated_tournament
    url = reverse("tourney-display-state", args=[t.display_token])
    etag = client.get(url)["ETag"]
    accounts.display_token_rotate(tournament_id=t.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_wrong_token_leaves_no_copy_behind(client):
    for k in range(20):
        assert client.get(f"/display/no-such-token-{k}/state.json").status_code == 404
    assert not any("no-such-token" in key[1] for key in polled._locks)
    assert not any("no-such-token" in key[1] for key in polled._versions)


def test_a_worker_keeps_the_newest_states_within_its_bytes(monkeypatch):
    monkeypatch.setattr(polled, "MAX_BYTES", 150)
    never = lambda state: None  # noqa: E731 - a state no clock outruns
    for k in range(3):
        state = {"etag": f'"e{k}"', "pad": "x" * 40}
        polled.body("display", "tok", f'"e{k}"', lambda s=state: s, never)
    kept = sorted(key[2] for key in polled._bodies)
    assert kept == ['"e1"', '"e2"']  # about 64 bytes each: the oldest went
    assert polled.held_body("display", "tok", '"e2"').etag == '"e2"'
    assert polled.held_body("display", "tok", '"e0"') is None


def test_a_state_another_worker_is_building_is_waited_for_not_built_again(monkeypatch):
    monkeypatch.setattr(polled, "BUILD_WAIT_SECONDS", 0.05)
    built = []

    def build():
        built.append(1)
        cache.set("k", {"etag": '"mine"'})
        return {"etag": '"mine"'}

    assert polled.built_once("k", build, lambda s: True) == {"etag": '"mine"'}
    assert built == [1] and cache.get("k:building") is None  # the mark goes with the build
    cache.delete("k")
    cache.add("k:building", 1)  # another worker is at it, and stores its state
    monkeypatch.setattr(polled.time, "sleep", lambda s: cache.set("k", {"etag": '"theirs"'}))
    assert polled.built_once("k", build, lambda s: True) == {"etag": '"theirs"'}
    assert built == [1]
    monkeypatch.setattr(polled.time, "sleep", lambda s: None)  # it never finishes: build here
    cache.delete("k")
    assert polled.built_once("k", build, lambda s: True) == {"etag": '"mine"'}
    assert built == [1, 1]


def test_a_stale_copy_answers_while_the_refresher_reads_it_anew(monkeypatch):
    reads, builds = [], []

    class V:
        def __init__(self, etag):
            self.etag, self.read_at, self.language = etag, time.time(), "en"

    def lookup(token):
        reads.append(token)
        return V('"v2.en"')

    def cached_state(token, version):
        builds.append(version.etag)
        return {"etag": version.etag}

    kind = polled.Kind(lookup, lambda v: v, cached_state, lambda s: None, 1.0)
    monkeypatch.setitem(polled.KINDS, "fake", kind)
    old = V('"v1.en"')
    polled._versions[("fake", "tok")] = (time.time() - 0.01, old)  # just past its time
    polled.body("fake", "tok", old.etag, lambda: {"etag": old.etag}, lambda s: None)
    assert polled.held_version("fake", "tok") is old  # answered from it, not waited for
    deadline = time.monotonic() + 5
    while polled._versions[("fake", "tok")][1] is old and time.monotonic() < deadline:
        time.sleep(0.01)
    assert polled.held_version("fake", "tok").etag == '"v2.en"' and reads == ["tok"]
    assert builds == ['"v2.en"']  # the new state made before the polls see its version
    assert polled.held_body("fake", "tok", '"v2.en"').content == b'{"etag":"\\"v2.en\\""}'
    polled._versions[("fake", "tok")] = (time.time() - polled.STALE_SECONDS - 1, old)
    assert polled.held_version("fake", "tok") is None  # too stale to answer from: Django


def test_a_failed_read_leaves_the_copy_answering_and_is_tried_again(monkeypatch, caplog):
    calls = []

    def lookup(token):
        calls.append(token)
        raise ConnectionError("the database does not answer")

    monkeypatch.setitem(polled.KINDS, "down", polled.Kind(lookup, None, None, None, 1.0))
    old = type("V", (), {"etag": '"v1.en"', "read_at": time.time()})()
    polled._versions[("down", "tok")] = (time.time() - 0.01, old)
    assert polled.held_version("down", "tok") is old
    deadline = time.monotonic() + 5
    while not polled._locks[("down", "tok", "version")].acquire(blocking=False):
        assert time.monotonic() < deadline
        time.sleep(0.01)  # the refresher holds it through its pause
    polled._locks[("down", "tok", "version")].release()
    assert calls == ["tok"] and "reading the down state" in caplog.text
    assert polled.held_version("down", "tok") is old  # still answering, and asking again
    while len(calls) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.01)
