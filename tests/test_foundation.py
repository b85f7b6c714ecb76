"""Issue 2: settings, the demo command, the seat constraint, API auth and error shape, and the
purity of the engines."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse

from tables.models import Seat, Table
from tourney.middleware import MSG_NUL
from tourney.models import Entry, Event, Lobby, Player, Tournament

ROOT = Path(__file__).resolve().parent.parent


def _run_python(code: str, **env) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter with these variables (None: not set at all)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    full_env.update(env)
    full_env = {k: v for k, v in full_env.items() if v is not None}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    r = _run_python("import tourney.settings", DJANGO_DEBUG="0", TOURNEY_VAR_DIR=str(tmp_path))
    assert r.returncode != 0
    assert "DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0" in r.stderr


def test_production_starts_with_a_secret_key(tmp_path):
    r = _run_python(
        "import tourney.settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE)",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="k" * 50,
        TOURNEY_VAR_DIR=str(tmp_path),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False True"


PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 50}


@pytest.mark.parametrize(
    "name, value, extra, message",
    [
        ("DJANGO_DEBUG", "maybe", {}, "is not a boolean"),
        ("CLOCK_SWEEP_SECONDS", "abc", {}, "is not a number"),
        ("CLOCK_SWEEP_SECONDS", "0", {}, "of at least 0.1 is needed"),
        ("CLOCK_SWEEP_SECONDS", "nan", {}, "of at least 0.1 is needed"),
        ("VACUUM_SECONDS", "x", {}, "is not a number"),
        ("VACUUM_SECONDS", "-300", {}, "of at least 1 is needed"),
        ("DJANGO_HSTS_SECONDS", "1y", PRODUCTION, "is not a whole number"),
        ("DJANGO_HSTS_SECONDS", "-1", PRODUCTION, "of at least 0 is needed"),
        ("DATABASE_PREPARE_THRESHOLD", "-2", {"DATABASE_URL": "postgres://h/x"}, "at least 0"),
        ("DATABASE_URL", "nope", {}, "is not a database URL"),
        ("CELERY_BROKER_URL", "bogus://x", {}, "is not a URL"),
        ("CELERY_BROKER_URL", "127.0.0.1:6379", {}, "is not a URL"),
        ("CELERY_BROKER_URL", "redis://127.0.0.1:port/0", {}, "is not a URL"),
        ("CELERY_BROKER_URL", "redis://a:6379/0;rabbit", {}, "is not a URL"),
        ("REDIS_URL", "notaurl", {}, "is not a URL"),
        ("REDIS_URL", "redis:///1", {}, "is not a URL"),
        ("REDIS_URL", "http://127.0.0.1:6379/1", {}, "is not a URL"),
        ("DJANGO_CSRF_TRUSTED_ORIGINS", "tourney.example.org", {}, "is not a URL"),
        ("TIME_ZONE", "Mars/Olympus", {}, "is not a time zone"),
        ("LOG_LEVEL", "loud", {}, "is not DEBUG, INFO"),
    ],
)
def test_a_bad_setting_stops_the_app_with_a_message_naming_it(
    tmp_path, name, value, extra, message
):
    env = {**extra, name: value, "TOURNEY_VAR_DIR": str(tmp_path)}
    r = _run_python("import tourney.settings", **env)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: " + name), last
    assert message in last and (name == "DATABASE_URL" or repr(value.upper()) in last.upper())


@pytest.mark.parametrize(
    "name, value, setting, expected",
    [
        ("CLOCK_SWEEP_SECONDS", "0.5", "CLOCK_SWEEP_SECONDS", 0.5),
        ("VACUUM_SECONDS", " 60 ", "VACUUM_SECONDS", 60.0),
        ("CELERY_BROKER_URL", "redis://:pw@127.0.0.1:6379/0", "CELERY_BROKER_URL", None),
        ("CELERY_BROKER_URL", "amqp://guest@rabbit//", "CELERY_BROKER_URL", None),
        ("REDIS_URL", "rediss://cache.example.org:6380/1", "REDIS_URL", None),
        ("REDIS_URL", "unix:///run/redis.sock?db=1", "REDIS_URL", None),
        ("DJANGO_CSRF_TRUSTED_ORIGINS", "https://a.example,https://*.b.example", None, None),
        ("TIME_ZONE", "Europe/Paris", "TIME_ZONE", None),
    ],
)
def test_good_settings_are_taken_as_given(tmp_path, name, value, setting, expected):
    code = f"import tourney.settings as s; print(repr(s.{setting or 'CSRF_TRUSTED_ORIGINS'}))"
    r = _run_python(code, **{name: value, "TOURNEY_VAR_DIR": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    if expected is not None:
        assert r.stdout.strip() == repr(expected)
    elif setting:
        assert r.stdout.strip() == repr(value.strip())
    else:
        assert r.stdout.strip() == repr(value.split(","))


def test_postgresql_binds_and_prepares_on_the_server_unless_told_not_to(tmp_path):
    code = "import tourney.settings as s; print(s.DATABASES['default'].get('OPTIONS', {}))"
    url = "postgres://postgres@127.0.0.1:5432/tourney"
    env = {
        "DATABASE_URL": url,
        "TOURNEY_VAR_DIR": str(tmp_path),
        "DATABASE_SERVER_SIDE_BINDING": None,
        "DATABASE_PREPARE_THRESHOLD": None,
    }
    default = _run_python(code, **env)
    assert default.returncode == 0, default.stderr
    assert "'server_side_binding': True" in default.stdout
    assert "'prepare_threshold': 2" in default.stdout
    never = _run_python(code, **{**env, "DATABASE_PREPARE_THRESHOLD": ""})
    assert "'server_side_binding': True" in never.stdout, never.stderr
    assert "prepare_threshold" not in never.stdout  # empty: bound by the server, not prepared
    off = _run_python(code, **{**env, "DATABASE_SERVER_SIDE_BINDING": "0"})
    assert off.returncode == 0, off.stderr
    assert "server_side_binding" not in off.stdout and "prepare_threshold" not in off.stdout
    five = _run_python(code, **{**env, "DATABASE_PREPARE_THRESHOLD": "5"})
    assert "'prepare_threshold': 5" in five.stdout, five.stderr
    bad = _run_python(code, **{**env, "DATABASE_PREPARE_THRESHOLD": "often"})
    assert bad.returncode != 0
    assert "DATABASE_PREPARE_THRESHOLD='often' is not a whole number" in bad.stderr


def test_development_generates_a_secret_key_once(tmp_path):
    code = "import tourney.settings as s; print(s.SECRET_KEY)"
    first = _run_python(code, TOURNEY_VAR_DIR=str(tmp_path))
    second = _run_python(code, TOURNEY_VAR_DIR=str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and len(first.stdout.strip()) >= 50
    assert (tmp_path / "secret_key").exists()


def test_engines_import_no_django_module():
    code = (
        "import sys, importlib, pkgutil, tourney.engine, tables.engine\n"
        "for pkg in (tourney.engine, tables.engine):\n"
        "    for m in pkgutil.iter_modules(pkg.__path__):\n"
        "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'kombu'))\n"
        "prefixes = ('tourney.engine.', 'tables.engine.')\n"
        "mods = sorted(m for m in sys.modules if m.startswith(prefixes))\n"
        "print(len(mods)); print(bad)\n"
    )
    r = _run_python(code)
    assert r.returncode == 0, r.stderr
    count, bad = r.stdout.strip().splitlines()
    assert int(count) >= 10  # every engine module was really imported
    assert bad == "[]"


@pytest.mark.django_db
def test_demo_command_is_idempotent(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    second = capsys.readouterr().out
    assert "Created the demo tournament (23 players seated)." in first
    assert "already there" in second
    t = Tournament.objects.get(slug="demo-friday-100")
    assert Tournament.objects.filter(slug="demo-friday-100").count() == 1
    assert Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == 23
    assert Seat.objects.filter(tournament=t).count() == 23
    assert Table.objects.filter(tournament=t).count() == 3
    sizes = sorted(Seat.objects.filter(tournament=t, table__number=n).count() for n in (1, 2, 3))
    assert sizes == [7, 8, 8]  # RULES 1.2: even fill
    assert not t.clock_started
    assert t.levels.count() > 10 and t.chips.count() == 6
    # issue 28: a satellite into the demo and a lobby showing both, once, on their own tables
    sat = Tournament.objects.get(satellite_target=t)
    assert sat.entries.count() == 8 and sat.starts_at is not None
    assert set(Table.objects.filter(tournament=sat).values_list("number", flat=True)) == {4}
    lobby = Lobby.objects.get()
    assert f"/lobby/{lobby.token}/" in first and f"/lobby/{lobby.token}/" in second
    # the login printed is the one that works
    password = [ln for ln in first.splitlines() if "Director login" in ln][0].split(" / ")[1]
    from django.contrib.auth import authenticate

    assert authenticate(username="director", password=password) is not None


def _demo_is_whole(t: Tournament) -> None:
    assert Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).count() == 23
    assert sorted(
        Seat.objects.filter(tournament=t, table__number=n).count() for n in (1, 2, 3)
    ) == [7, 8, 8]
    names = sorted(Entry.objects.filter(tournament=t).values_list("player__name", flat=True))
    from tourney.management.commands.demo import NAMES

    assert names == sorted(NAMES)  # each once


@pytest.mark.django_db
def test_an_interrupted_demo_leaves_nothing_and_the_next_run_makes_it_whole(monkeypatch):
    from tourney import services

    real_register = services.entry_register
    calls = []

    def register_then_ctrl_c(**kwargs):
        calls.append(kwargs["name"])
        if len(calls) == 10:
            raise KeyboardInterrupt  # Ctrl-C during `make run`'s registrations
        return real_register(**kwargs)

    monkeypatch.setattr(services, "entry_register", register_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        call_command("demo")
    assert len(calls) == 10
    assert not Tournament.objects.exists() and not Entry.objects.exists()
    monkeypatch.setattr(services, "entry_register", real_register)
    call_command("demo")
    _demo_is_whole(Tournament.objects.get(slug="demo-friday-100"))


@pytest.mark.django_db
def test_a_demo_left_half_registered_is_finished_on_the_next_run(monkeypatch, capsys):
    # What an older, non-atomic `make run` left after a Ctrl-C: the demo with 9 players.
    from tourney.management.commands import demo

    monkeypatch.setattr(demo, "NAMES", demo.NAMES[:9])
    call_command("demo")
    monkeypatch.undo()
    t = Tournament.objects.get(slug="demo-friday-100")
    assert t.entries.count() == 9
    capsys.readouterr()
    call_command("demo")
    assert "Finished the demo tournament (14 more players seated)." in capsys.readouterr().out
    _demo_is_whole(t)
    assert Tournament.objects.count() == 2  # the demo and its satellite, once each
    call_command("demo")
    assert "already there" in capsys.readouterr().out
    _demo_is_whole(t)


@pytest.mark.django_db
def test_a_demo_in_play_is_not_filled_up_again(monkeypatch, capsys):
    from tourney import services
    from tourney.management.commands import demo

    monkeypatch.setattr(demo, "NAMES", demo.NAMES[:9])
    call_command("demo")
    monkeypatch.undo()
    t = Tournament.objects.get(slug="demo-friday-100")
    director = t.events.first().actor
    # the director started the demo's clock with its 9 players: it is theirs to play now
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = t.entries.count(), Event.objects.count()
    capsys.readouterr()
    call_command("demo")
    assert "already there" in capsys.readouterr().out
    assert (t.entries.count(), Event.objects.count()) == before == (9, before[1])


@pytest.mark.django_db
def test_the_demo_director_opens_the_admin(client, capsys):
    call_command("demo")
    password = [ln for ln in capsys.readouterr().out.splitlines() if "Director login" in ln][0]
    assert client.login(username="director", password=password.split(" / ")[1])
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/tourney/tournament/").status_code == 200
    client.logout()
    from django.conf import settings

    desk_password = (settings.VAR_DIR / "desk_password").read_text().strip()
    assert client.login(username="desk", password=desk_password)
    assert client.get("/admin/").status_code == 302  # the desk login is not staff


@pytest.mark.django_db
def test_database_refuses_a_second_entry_in_a_seat(seated_tournament):
    seat = Seat.objects.filter(tournament=seated_tournament).first()
    intruder = Entry.objects.create(
        tournament=seated_tournament, player=Player.objects.create(name="Intruder"), number=999
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            tournament=seated_tournament, table=seat.table, number=seat.number, entry=intruder
        )
    assert Seat.objects.filter(table=seat.table, number=seat.number).count() == 1


@pytest.mark.django_db
def test_database_refuses_an_entry_in_two_seats(seated_tournament):
    seat = Seat.objects.filter(tournament=seated_tournament).first()
    empty = next(
        n for n in range(1, 10) if not Seat.objects.filter(table=seat.table, number=n).exists()
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            tournament=seated_tournament, table=seat.table, number=empty, entry=seat.entry
        )
    assert Seat.objects.filter(entry=seat.entry).count() == 1


def _row(kind: str, t: Tournament, **values):
    """One row of ``kind`` with valid values, then ``values`` on top, written raw (no form,
    no service): only the database's own checks stand between it and the table."""
    from tourney.models import ChipDenomination, Level

    if kind == "tournament":
        return Tournament.objects.create(name="Raw", slug=f"raw-{secrets.token_hex(4)}", **values)
    if kind == "level":
        fields = {"index": 90, "small_blind": 100, "big_blind": 200, "seconds": 600}
        return Level.objects.create(tournament=t, **{**fields, **values})
    if kind == "chip":
        return ChipDenomination.objects.create(tournament=t, **{"value": 777777, **values})
    player = Player.objects.create(name="Raw Player")
    if kind == "entry":
        return Entry.objects.create(tournament=t, player=player, **{"number": 900, **values})
    if kind == "table":
        return Table.objects.create(tournament=t, **{"number": 50, "seats": 9, **values})
    entry = Entry.objects.create(tournament=t, player=player, number=901)
    table = Table.objects.create(tournament=t, number=51, seats=9)
    return Seat.objects.create(tournament=t, table=table, entry=entry, **{"number": 1, **values})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind, values, named",
    [
        ("tournament", {"starting_stack": 0}, "stack_positive"),
        ("tournament", {"rounding_unit": 0}, "rounding_positive"),
        ("tournament", {"seats_per_table": 1}, "seats_at_least_2"),
        ("tournament", {"clock_left_ms": -1}, "clock_left_nonneg"),
        ("tournament", {"buy_in": -1}, "buy_in"),
        ("tournament", {"fee": -1}, "fee"),
        ("tournament", {"guarantee": -1}, "guarantee"),
        ("tournament", {"rebuy_price": -1}, "rebuy_price"),
        ("level", {"seconds": 0}, "level_seconds_positive"),
        ("level", {"small_blind": 300, "big_blind": 200}, "level_bb_at_least_sb"),
        ("level", {"ante": -25}, "ante"),
        ("chip", {"value": 0}, "chip_value_positive"),
        ("chip", {"value": -5}, "value"),
        ("entry", {"prize": -1}, "prize"),
        ("entry", {"chips_bought": -1}, "chips_bought"),
        ("entry", {"paid": -100}, "paid"),
        ("entry", {"place": 5, "place_to": 4}, "entry_place_range"),
        ("table", {"seats": 1}, "table_seats_at_least_2"),
        ("table", {"number": 0}, "table_number_positive"),
        ("table", {"button_seat": 0}, "table_button_positive"),
        ("seat", {"number": 0}, "seat_number_positive"),
    ],
)
def test_the_database_refuses_amounts_below_their_floor(tournament, kind, values, named):
    # The same row with valid values goes in: the refusal below is the value's alone.
    with transaction.atomic():
        _row(kind, tournament)
        transaction.set_rollback(True)
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        _row(kind, tournament, **values)
    message = str(refused.value).lower()
    assert "check" in message and named in message, message


@pytest.mark.django_db
def test_api_without_credentials_is_401_with_the_error_shape(anon_api):
    r = anon_api.post("/api/v1/floor/icm", {"stacks": [1, 1], "payouts": [1]})
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"
    assert set(r.json()["error"]) == {"code", "message", "fields"}


@pytest.mark.django_db
def test_api_with_a_wrong_token_is_401():
    from tests.conftest import ApiClient

    r = ApiClient("tny_not-a-real-token").get("/api/v1/tournaments/1")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"


@pytest.mark.django_db
def test_api_token_command_prints_a_working_token_on_its_last_line(director, capsys):
    call_command("api_token", "td")
    token = capsys.readouterr().out.strip().splitlines()[-1]
    from tests.conftest import ApiClient

    r = ApiClient(token).post("/api/v1/floor/icm", {"stacks": [5000, 5000], "payouts": [700, 300]})
    assert r.status_code == 200
    assert r.json()["equities"] == pytest.approx([500.0, 500.0])
    from tourney.models import ApiToken

    stored = ApiToken.objects.get(user=director)
    assert stored.key_hash != token and token not in stored.key_hash  # stored hashed


@pytest.mark.django_db
def test_api_bad_input_is_400_with_fields_and_changes_nothing(director_api):
    before = Tournament.objects.count(), Event.objects.count()
    r = director_api.post("/api/v1/tournaments", {"name": "X", "starting_stack": "5O0"})
    assert r.status_code == 400
    body = r.json()["error"]
    assert body["code"] == "bad_input" and "starting_stack" in body["fields"]
    assert (Tournament.objects.count(), Event.objects.count()) == before


@pytest.mark.django_db
def test_an_id_beyond_any_row_is_404_not_a_server_error(director_api):
    # Found by schemathesis: a tournament id past what a database integer holds.
    huge = 5376416758791541882880
    for path in (
        f"/api/v1/tournaments/{huge}/entries/1/addon",
        f"/api/v1/tournaments/{huge}/clock",
    ):
        r = director_api.post(path, {"action": "start"})
        assert r.status_code == 404, (path, r.status_code)
        assert r.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_api_desk_clerk_cannot_start_the_clock(desk_api, tournament):
    r = desk_api.post(f"/api/v1/tournaments/{tournament.pk}/clock", {"action": "start"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "forbidden"
    tournament.refresh_from_db()
    assert not tournament.clock_started


@pytest.mark.django_db
def test_openapi_document_lists_the_contract_paths(client):
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in (
        "/api/v1/floor/settle",
        "/api/v1/floor/chip-race",
        "/api/v1/floor/icm",
        "/api/v1/tournaments",
        "/api/v1/tournaments/{tid}/entries",
        "/api/v1/tournaments/{tid}/seating",
        "/api/v1/tournaments/{tid}/eliminations",
        "/api/v1/tournaments/{tid}/clock",
        "/api/v1/tournaments/{tid}/results",
        "/api/v1/tournaments/{tid}/tables/{number}/button",
    ):
        assert p in paths


@pytest.mark.django_db
def test_login_page_and_screens_need_login(client, director, tournament):
    assert client.get("/login/").status_code == 200
    r = client.get(f"/td/{tournament.pk}/")
    assert r.status_code == 302 and r["Location"].startswith("/login/")
    client.force_login(director)
    r = client.get(f"/td/{tournament.pk}/")
    assert r.status_code == 200 and b"Friday 50" in r.content


def test_production_settings_pass_check_deploy(tmp_path):
    r = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "tourney.example.org",
            "TOURNEY_VAR_DIR": str(tmp_path),
        },
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_script(client, director):
    # Issue 29: django-csp's nonce-based policy; no 'unsafe-inline' for scripts or styles.
    client.force_login(director)
    r = client.get("/")
    policy = dict(
        part.strip().split(" ", 1) for part in r["Content-Security-Policy"].split(";") if part
    )
    assert policy["default-src"] == "'self'"
    for directive in ("script-src", "style-src"):
        sources = policy[directive].split()
        assert "'self'" in sources and "'unsafe-inline'" not in sources, policy[directive]
    assert b"<script>" not in r.content


@pytest.mark.django_db
def test_a_page_with_its_own_style_names_its_fresh_nonce_in_the_policy(
    client, director, seated_tournament
):
    # The printed results carry a <style> of their own: allowed by the response's nonce only.
    client.force_login(director)
    seen = []
    for _ in range(2):
        r = client.get(reverse("tourney-results-print", args=[seated_tournament.pk]))
        assert r.status_code == 200
        nonce = re.search(rb'<style nonce="([^"]+)"', r.content).group(1).decode()
        policy = dict(
            part.strip().split(" ", 1) for part in r["Content-Security-Policy"].split(";") if part
        )
        assert f"'nonce-{nonce}'" in policy["style-src"].split()
        seen.append(nonce)
    assert seen[0] != seen[1]


@pytest.mark.django_db
def test_a_deep_stack_structure_fits_the_database(director_api):
    # schemathesis found it on PostgreSQL: a generated structure for a 10^9 stack climbs
    # past 2^31 chips per blind.
    r = director_api.post("/api/v1/tournaments", {"name": "Deep", "starting_stack": 10**9})
    assert r.status_code == 201
    levels = director_api.get(f"/api/v1/tournaments/{r.json()['id']}/levels").json()["levels"]
    assert max(lv.get("big_blind", 0) for lv in levels) > 2**31


def _counts():
    return [m.objects.count() for m in (Tournament, Entry, Player, Event)]


@pytest.mark.django_db
def test_a_nul_character_anywhere_in_an_api_request_is_400_and_changes_nothing(
    director_api, tournament
):
    # PostgreSQL text cannot hold NUL (a DataError: was a 500); SQLite stored it. Unmarked, so
    # it runs on both databases in .ci/run.
    tid = tournament.pk
    before = _counts()
    calls = [
        ("post", "/api/v1/tournaments", {"name": "a\x00b"}, "name"),
        ("post", f"/api/v1/tournaments/{tid}/entries", {"name": "a\x00b"}, "name"),
        ("post", f"/api/v1/tournaments/{tid}/entries", {"name": "Al", "x\x00": 1}, "x\x00"),
        ("get", f"/api/v1/tournaments/{tid}/events?kind=a%00b", None, "kind"),
        ("put", "/api/v1/users/a%00b/role", {"role": "desk"}, "path"),
    ]
    for method, path, body, field in calls:
        r = getattr(director_api, method)(path, body) if body else director_api.get(path)
        assert r.status_code == 400, (path, r.status_code, r.content[:200])
        error = r.json()["error"]
        assert error["code"] == "bad_input", path
        assert "NUL" in error["message"] and field in error["fields"], (path, error)
    # a JSON list nested in the body, and a form body on the API
    r = director_api.client.post(
        f"/api/v1/tournaments/{tid}/entries",
        data='{"name": "Bo", "notes": ["ok", "a\\u0000b"]}',
        content_type="application/json",
        **director_api.headers,
    )
    assert r.status_code == 400 and r.json()["error"]["fields"] == {"notes.1": MSG_NUL}
    r = director_api.client.post("/api/v1/tournaments", {"name": "a\x00b"}, **director_api.headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    assert _counts() == before
    # an escaped backslash before "u0000" is text, not a NUL: it goes through
    r = director_api.post(f"/api/v1/tournaments/{tid}/entries", {"name": "Back\\u0000slash"})
    assert r.status_code == 201, r.content
    assert Player.objects.filter(name="Back\\u0000slash").exists()


@pytest.mark.django_db
def test_a_nul_character_in_a_page_request_is_a_plain_400_and_changes_nothing(
    client, director, tournament
):
    client.force_login(director)
    before = _counts()
    for r in (
        client.post(f"/desk/{tournament.pk}/register/", {"name": "x\x00y"}),
        client.post(f"/desk/{tournament.pk}/register/?name=a%00b", {"name": "Cy"}),
        client.get(f"/td/{tournament.pk}/?panel=log&kind=a%00b", HTTP_HX_REQUEST="true"),
        client.get("/display/a%00b/"),
    ):
        assert r.status_code == 400
        assert r["Content-Type"].startswith("text/html")
        assert b"NUL character" in r.content and b"Nothing was changed" in r.content
    assert _counts() == before
    # the same form without the NUL registers (the guard refuses only the NUL)
    r = client.post(f"/desk/{tournament.pk}/register/", {"name": "Cy Diaz"})
    assert r.status_code == 303
    assert Entry.objects.filter(tournament=tournament, player__name="Cy Diaz").count() == 1


@pytest.mark.django_db
def test_every_api_error_is_in_the_api_md_shape(director_api, tournament):
    h = director_api.headers
    c = director_api.client
    cases = [
        (c.get("/api/v1/nope", **h), 404, "not_found"),
        (c.get("/api/v1/tournaments/1/nope/deeper", **h), 404, "not_found"),
        (c.delete("/api/v1/tournaments", **h), 405, "method_not_allowed"),
        (c.post("/api/v1/users/td/role", **h), 405, "method_not_allowed"),
        (
            c.post("/api/v1/tournaments", "{not json", content_type="application/json", **h),
            400,
            "bad_input",
        ),
    ]
    for r, status, code in cases:
        assert r.status_code == status, (status, r.status_code, r.content[:200])
        assert r["Content-Type"].startswith("application/json")
        body = r.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
        assert body["error"]["code"] == code and body["error"]["message"]
    assert "POST" in cases[2][0]["Allow"]  # a 405 still says which methods are allowed
    assert cases[4][0].json()["error"]["message"] == "The body is not valid JSON."
    # pages outside the API keep Django's own 404
    r = c.get("/nope/")
    assert r.status_code == 404 and not r["Content-Type"].startswith("application/json")


@pytest.mark.redis
def test_the_celery_broker_is_the_configured_redis_and_carries_a_message():
    import uuid

    from tourney.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        assert conn.transport.driver_type == "redis"
        assert conn.as_uri().split("@")[-1] in os.environ["CELERY_BROKER_URL"]
        queue = conn.SimpleQueue(f"tourney-test-{uuid.uuid4().hex}")
        try:
            sent = {"ping": uuid.uuid4().hex}
            queue.put(sent)
            message = queue.get(timeout=5)
            message.ack()
            assert message.payload == sent
        finally:
            queue.queue(conn.default_channel).delete()
            queue.close()


@pytest.mark.redis
def test_the_cache_is_the_configured_redis():
    import uuid

    import redis
    from django.conf import settings
    from django.core.cache import cache

    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        pytest.skip("REDIS_URL is not set: the cache is local memory (.ci/run sets it)")
    assert settings.CACHES["default"]["BACKEND"].endswith(".RedisCache")
    key, value = f"foundation-{uuid.uuid4().hex}", {"level": 7, "left_ms": 734512}
    cache.set(key, value, 30)
    try:
        assert cache.get(key) == value
        # really in that Redis, not in this process: read it with a client of our own (under
        # pytest-xdist each test process has its own database there: tests/conftest.py)
        location = settings.CACHES["default"]["LOCATION"]
        assert urlparse(location).netloc == urlparse(url).netloc
        direct = redis.Redis.from_url(location)
        assert direct.exists(cache.make_key(key)) == 1
        assert 0 < direct.ttl(cache.make_key(key)) <= 30
    finally:
        cache.delete(key)
    assert cache.get(key) is None
