"""Issue 27: the player database through the JSON API (docs/api.md "Players, leagues and
points"): search, add, read with the history and league points, edit, merge, removal of a
person's data, CSV import and export; the room's actions and their undo; the roles; every
refusal with its code and nothing changed."""

from __future__ import annotations

import json
from datetime import timedelta

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ApiClient
from tests.services.test_leagues import T0, _players, _season, play
from tests.services.test_players import _new_tournament, _register
from tourney import services
from tourney.api import api
from tourney.models import Entry, Event, Player
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()
PLAYERS = "/api/v1/players"
ACTIONS = "/api/v1/room/actions"


def _matches(method: str, path: str, body, status: int = 200) -> bool:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def patch(client: ApiClient, path: str, body):
    return client.client.patch(
        path, data=json.dumps(body), content_type="application/json", **client.headers
    )


def call(client: ApiClient, method: str, path: str, body=None):
    if method == "patch":
        return patch(client, path, body)
    if method == "get":
        return client.get(path)
    return getattr(client, method)(path, body)


def _state() -> tuple:
    players = list(Player.objects.order_by("pk").values())
    entries = list(Entry.objects.order_by("pk").values_list("pk", "player_id"))
    return players, entries, Event.objects.count()


def _error(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.content
    body = r.json()["error"]
    assert body["code"] == code, body
    return body


@pytest.fixture
def stranger_api(stranger) -> ApiClient:
    return ApiClient(token_create(user=stranger))


def _add(api_client, **fields) -> dict:
    r = api_client.post(PLAYERS, fields)
    assert r.status_code == 201, r.content
    return r.json()


# ---------------------------------------------------------------- the desk's


def test_the_desk_adds_finds_reads_and_edits_a_player(desk_api, director_api):
    body = _add(desk_api, name="  Ann   Lee ", email="ann@example.org", membership="M-7")
    assert _matches("post", "players", body, 201)
    p = Player.objects.get()
    assert body == {
        "id": p.pk,
        "name": "Ann Lee",
        "nickname": "",
        "email": "ann@example.org",
        "phone": "",
        "membership": "M-7",
        "notes": "",
        "photo": False,
        "merged_into": None,
        "anonymised": False,
        "created": p.created_at.isoformat(),
        "action": Event.objects.get(kind="player_created").pk,
    }
    _add(desk_api, name="Bob Ray")
    r = desk_api.get(f"{PLAYERS}?q=m-7")
    assert r.status_code == 200 and _matches("get", "players", r.json())
    found = r.json()
    assert (found["total"], found["limit"]) == (1, 200)
    assert found["players"] == [{**{k: v for k, v in body.items() if k != "action"}, "entries": 0}]
    assert [x["name"] for x in desk_api.get(PLAYERS).json()["players"]] == ["Ann Lee", "Bob Ray"]

    r = patch(desk_api, f"{PLAYERS}/{p.pk}", {"nickname": "Annie", "phone": "+44 1"})
    assert r.status_code == 200, r.content
    assert _matches("patch", "players/{player_id}", r.json())
    changed = r.json()
    assert (changed["name"], changed["nickname"], changed["phone"]) == ("Ann Lee", "Annie", "+44 1")
    assert changed["email"] == "ann@example.org"  # left out: kept
    assert changed["action"] == Event.objects.get(kind="player_updated").pk
    r = patch(desk_api, f"{PLAYERS}/{p.pk}", {"email": None})
    assert r.json()["email"] == ""

    r = desk_api.get(f"{PLAYERS}/{p.pk}")
    assert r.status_code == 200 and _matches("get", "players/{player_id}", r.json())
    assert r.json()["history"] == []
    assert r.json()["totals"] == {"events": 0, "wins": 0, "cashes": 0, "winnings": 0, "bounties": 0}

    # the director undoes the first edit: the nickname and phone go back, not the later email
    r = director_api.post(f"{ACTIONS}/{changed['action']}/undo")
    _error(r, 409, "stale_undo")
    last = Event.objects.filter(kind="player_updated").latest("pk")
    assert director_api.post(f"{ACTIONS}/{last.pk}/undo").json() == {
        "undid": last.pk,
        "kind": "player_updated",
    }
    r = director_api.post(f"{ACTIONS}/{changed['action']}/undo")
    assert r.status_code == 200, r.content
    p.refresh_from_db()
    assert (p.nickname, p.phone, p.email) == ("", "", "ann@example.org")


def test_a_players_history_shows_the_points_of_a_season(director, desk_api):
    ann, bob, cat = _players("Ann Lee", "Bob Ray", "Cat Fox")
    season = _season(director, scoring="place_table", points_table="10 6 3")
    one = play(director, [ann, bob, cat], out=[[ann], [bob]], season=season)  # Cat wins
    two = play(director, [cat, ann, bob], out=[[cat], [bob]], name="Two", at=T0 + timedelta(1))
    r = desk_api.get(f"{PLAYERS}/{cat.pk}")
    assert r.status_code == 200, r.content
    rows = {row["tournament"]: row for row in r.json()["history"]}
    assert [row["tournament"] for row in r.json()["history"]] == [two.pk, one.pk]
    assert rows[one.pk] == {
        "tournament": one.pk,
        "name": "Thursday",
        "date": one.created_at.isoformat(),
        "status": "finished",
        "place": 1,
        "place_to": 1,
        "prize": rows[one.pk]["prize"],
        "bounties": 0,
        "entries": 1,
        "rebuys": 0,
        "addons": 0,
        "season": season.pk,
        "points": "10.00",
    }
    assert rows[one.pk]["prize"] > 0
    assert (rows[two.pk]["season"], rows[two.pk]["points"], rows[two.pk]["place"]) == (
        None,
        None,
        3,
    )
    assert r.json()["totals"]["events"] == 2 and r.json()["totals"]["wins"] == 1


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": " "}, "name", "bad_input"),
        ({"name": "Ann", "email": "not-an-email"}, "email", "bad_input"),
        ({"name": "Ann\x07"}, "name", "bad_input"),
        ({"name": "A" * 121}, "name", "bad_input"),
        ({"name": "Ann", "photo": "x.png"}, "photo", "bad_input"),  # the API takes no photo
        ({"name": "Ann", "membership": "m-1"}, "membership", "membership_taken"),
    ],
)
def test_a_refused_player_writes_nothing(desk_api, body, field, code):
    _add(desk_api, name="Zed", membership="M-1")
    other = _add(desk_api, name="Yan")
    before = _state()
    assert field in _error(desk_api.post(PLAYERS, body), 400, code)["fields"]
    assert field in _error(patch(desk_api, f"{PLAYERS}/{other['id']}", body), 400, code)["fields"]
    assert _state() == before


# ---------------------------------------------------------------- roles, ids


def test_roles(anon_api, stranger_api, desk_api):
    p = Player.objects.create(name="Ann Lee")
    desk_ops = [
        ("get", PLAYERS, None),
        ("post", PLAYERS, {"name": "X"}),
        ("get", f"{PLAYERS}/{p.pk}", None),
        ("patch", f"{PLAYERS}/{p.pk}", {"name": "X"}),
    ]
    director_ops = [
        ("post", f"{PLAYERS}/{p.pk}/merge", {"into": p.pk}),
        ("post", f"{PLAYERS}/{p.pk}/anonymise", {"confirm": "Ann Lee"}),
        ("post", f"{PLAYERS}/import", {"csv": "name\nX\n"}),
        ("get", f"{PLAYERS}/export", None),
        ("get", ACTIONS, None),
        ("post", f"{ACTIONS}/1/undo", None),
    ]
    before = _state()
    for method, path, body in desk_ops + director_ops:
        _error(call(anon_api, method, path, body), 401, "unauthorized")
        _error(call(stranger_api, method, path, body), 403, "forbidden")
    for method, path, body in director_ops:
        _error(call(desk_api, method, path, body), 403, "forbidden")
    assert _state() == before


def test_ids_beyond_the_database_are_not_found(desk_api, director_api):
    huge = 10**30
    for r in (
        desk_api.get(f"{PLAYERS}/{huge}"),
        patch(desk_api, f"{PLAYERS}/{huge}", {"name": "X"}),
        director_api.post(f"{PLAYERS}/{huge}/merge", {"into": 1}),
        director_api.post(f"{PLAYERS}/{huge}/anonymise", {"confirm": "X"}),
        director_api.post(f"{ACTIONS}/{huge}/undo"),
        desk_api.get(f"{PLAYERS}/{2**63}"),
    ):
        _error(r, 404, "not_found")
    p = Player.objects.create(name="Ann Lee")
    _error(director_api.post(f"{PLAYERS}/{p.pk}/merge", {"into": huge}), 400, "bad_input")
    _error(director_api.post(f"{PLAYERS}/{p.pk}/merge", {"into": 999}), 404, "not_found")
    _error(desk_api.get(f"{PLAYERS}/abc"), 400, "bad_input")


# ---------------------------------------------------------------- merge and undo


@pytest.fixture
def two_records(director):
    """One person under two records: "Ann Lee" who played a finished tournament, and "Annie"
    (an email, a membership number) in a tournament not started."""
    ann, carl = _players("Ann Lee", "Carl Fox")
    done = play(director, [ann, carl], out=[[carl]])
    t = _new_tournament(director, "Tuesday")
    annie = _register(t, "Annie", director).player
    Player.objects.filter(pk=annie.pk).update(email="ann@example.org", membership="77")
    return ann, annie, done, t


def test_the_director_merges_two_records_and_undoes_it(director_api, two_records):
    ann, annie, done, t = two_records
    before = _state()
    r = director_api.post(f"{PLAYERS}/{annie.pk}/merge", {"into": ann.pk})
    assert r.status_code == 200, r.content
    assert _matches("post", "players/{player_id}/merge", r.json())
    event = Event.objects.get(kind="players_merged")
    assert r.json() == {
        "id": ann.pk,
        "name": "Ann Lee",
        "nickname": "",
        "email": "ann@example.org",  # Ann's empty fields filled from Annie's
        "phone": "",
        "membership": "77",
        "notes": "",
        "photo": False,
        "merged_into": None,
        "anonymised": False,
        "created": ann.created_at.isoformat(),
        "action": event.pk,
    }
    assert list(Entry.objects.filter(tournament=t).values_list("player", flat=True)) == [ann.pk]
    assert not Entry.objects.filter(player=annie).exists()
    merged = director_api.get(f"{PLAYERS}/{annie.pk}").json()
    assert (merged["merged_into"], merged["history"]) == (ann.pk, [])
    assert [x["id"] for x in director_api.get(f"{PLAYERS}?q=ann").json()["players"]] == [ann.pk]
    history = director_api.get(f"{PLAYERS}/{ann.pk}").json()["history"]
    assert [h["tournament"] for h in history] == [t.pk, done.pk]

    r = director_api.get(f"{ACTIONS}?kind=players_merged")
    assert r.status_code == 200 and _matches("get", "room/actions", r.json())
    assert r.json()["actions"] == [
        {
            "id": event.pk,
            "kind": "players_merged",
            "payload": {
                "kept": ann.pk,
                "merged": annie.pk,
                "name": "Ann Lee",
                "merged_name": "Annie",
                "entries": 1,
            },
            "actor": "td",
            "at": event.created_at.isoformat(),
            "undone": False,
            "can_undo": True,
        }
    ]
    r = director_api.post(f"{ACTIONS}/{event.pk}/undo")
    assert r.status_code == 200 and _matches("post", "room/actions/{event_id}/undo", r.json())
    assert r.json() == {"undid": event.pk, "kind": "players_merged"}
    players, entries, _ = _state()
    assert (players, entries) == before[:2]
    _error(director_api.post(f"{ACTIONS}/{event.pk}/undo"), 409, "already_undone")
    undo = Event.objects.get(kind="room_undo")
    _error(director_api.post(f"{ACTIONS}/{undo.pk}/undo"), 404, "not_found")
    tournament_event = Event.objects.filter(tournament=t).first()
    _error(director_api.post(f"{ACTIONS}/{tournament_event.pk}/undo"), 404, "not_found")


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [
        ("same", 400, "same_player"),
        ("merged", 409, "already_merged"),
        ("removed", 409, "anonymised"),
        ("live", 409, "same_tournament"),
    ],
)
def test_a_refused_merge_changes_nothing(director, director_api, two_records, case, status, code):
    ann, annie, done, t = two_records
    keep, merge = ann.pk, annie.pk
    if case == "same":
        merge = keep
    elif case == "merged":
        other = Player.objects.create(name="Ann L.", merged_into=ann)
        merge = other.pk
    elif case == "removed":
        Player.objects.filter(pk=annie.pk).update(anonymised_at=done.created_at)
    else:
        services.entry_register(tournament_id=t.pk, player_id=ann.pk, actor=director)
    before = _state()
    _error(director_api.post(f"{PLAYERS}/{merge}/merge", {"into": keep}), status, code)
    assert _state() == before


def test_undo_of_an_added_player_who_has_entered_since_is_refused(director, desk_api, director_api):
    body = _add(desk_api, name="Gus Hale")
    t = _new_tournament(director)
    r = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries", {"player_id": body["id"]})
    assert r.status_code == 201, r.content
    before = _state()
    _error(director_api.post(f"{ACTIONS}/{body['action']}/undo"), 409, "players_entered")
    assert _state() == before


# ---------------------------------------------------------------- removal


def test_the_director_removes_a_persons_data_and_the_results_stay(director_api, two_records):
    ann, annie, done, t = two_records
    url = f"{PLAYERS}/{annie.pk}/anonymise"
    before = _state()
    err = _error(director_api.post(url, {"confirm": "annie"}), 400, "confirm_mismatch")
    assert err["fields"] == {"confirm": "Type the player's name exactly as shown to confirm."}
    _error(director_api.post(url, {}), 400, "bad_input")
    assert _state() == before
    r = director_api.post(url, {"confirm": " Annie "})
    assert r.status_code == 200 and _matches("post", "players/{player_id}/anonymise", r.json())
    assert r.json() == {
        "id": annie.pk,
        "name": f"Removed player #{annie.pk}",
        "nickname": "",
        "email": "",
        "phone": "",
        "membership": "",
        "notes": "",
        "photo": False,
        "merged_into": None,
        "anonymised": True,
        "created": annie.created_at.isoformat(),
    }
    assert Entry.objects.filter(player=annie).count() == 1
    _error(director_api.post(url, {"confirm": f"Removed player #{annie.pk}"}), 409, "anonymised")
    _error(patch(director_api, f"{PLAYERS}/{annie.pk}", {"name": "Annie"}), 409, "anonymised")
    log = director_api.get(f"{ACTIONS}?kind=player_anonymised").json()["actions"]
    assert [(a["payload"], a["can_undo"]) for a in log] == [({"player": annie.pk}, False)]
    _error(director_api.post(f"{ACTIONS}/{log[0]['id']}/undo"), 409, "not_undoable")


# ---------------------------------------------------------------- import, export

CSV = "Name;E-mail;Member\nHal Ng;hal@example.org;C-102\nIda Cole;ida-at-example;C-103\n"
GOOD = "name,membership\nHal Ng,C-102\nIda Cole,C-103\n"


def test_the_import_previews_refuses_a_file_with_errors_then_imports_and_is_undone(director_api):
    url = f"{PLAYERS}/import"
    before = _state()
    r = director_api.post(url, {"csv": CSV, "dry_run": True})
    assert r.status_code == 200 and _matches("post", "players/import", r.json())
    preview = r.json()
    assert preview["mapping"] == {
        "name": 0,
        "nickname": None,
        "email": 1,
        "phone": None,
        "membership": 2,
        "notes": None,
    }
    assert (preview["count"], preview["bad"], preview["created"], preview["action"]) == (
        2,
        1,
        0,
        None,
    )
    assert [(row["line"], row["errors"]) for row in preview["rows"]] == [
        (2, {}),
        (3, {"email": "Enter a valid email address."}),
    ]
    mapping = {"name": 0, "email": 1, "membership": 2}
    err = _error(director_api.post(url, {"csv": CSV, "mapping": mapping}), 400, "import_errors")
    assert err["fields"] == {
        "rows": [{"line": 3, "errors": {"email": "Enter a valid email address."}}]
    }
    assert _state() == before

    r = director_api.post(url, {"csv": GOOD, "mapping": {"name": 0, "membership": 1}})
    assert r.status_code == 200, r.content
    done = r.json()
    event = Event.objects.get(kind="players_imported")
    assert (done["count"], done["bad"], done["created"], done["action"]) == (2, 0, 2, event.pk)
    assert list(Player.objects.order_by("name").values_list("name", "membership")) == [
        ("Hal Ng", "C-102"),
        ("Ida Cole", "C-103"),
    ]
    again = director_api.post(url, {"csv": GOOD, "dry_run": True}).json()
    assert again["bad"] == 2  # the membership numbers are taken now
    assert director_api.post(f"{ACTIONS}/{event.pk}/undo").status_code == 200
    assert _state()[:2] == before[:2]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"csv": ""}, "empty", "file"),
        ({"csv": "  \n\n"}, "empty", "file"),
        ({"csv": "x" * (1024 * 1024 + 1)}, "too_big", "file"),
        ({"csv": "a,b\n1,2\n", "mapping": {"email": 0}}, "bad_mapping", "name"),
        ({"csv": "a,b\n1,2\n", "mapping": {"name": 5}}, "bad_mapping", "name"),
        ({"csv": "a,b\n1,2\n"}, "bad_mapping", "name"),  # no header says "name"
        ({"csv": "name\nX\n", "mapping": {"name": -1}}, "bad_input", "mapping.name"),
        ({"csv": "name\nX\n", "mapping": {"name": 0, "photo": 1}}, "bad_input", "mapping.photo"),
        ({"csv": "name\nX\n", "dry_run": "maybe"}, "bad_input", "dry_run"),
        ({"mapping": {"name": 0}}, "bad_input", "csv"),
    ],
)
def test_a_refused_import_writes_nothing(director_api, body, code, field):
    before = _state()
    err = _error(director_api.post(f"{PLAYERS}/import", body), 400, code)
    assert field in err["fields"], err
    assert _state() == before


def test_the_export_lists_every_shown_player_with_the_personal_fields(director_api, two_records):
    ann, annie, done, t = two_records
    carl = Player.objects.get(name="Carl Fox")
    Player.objects.create(name="Zoe Kim", merged_into=carl)  # merged: not exported
    r = director_api.get(f"{PLAYERS}/export")
    assert r.status_code == 200 and _matches("get", "players/export", r.json())
    assert r.json() == {
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "nickname": "",
                "email": p.email,
                "phone": "",
                "membership": p.membership,
                "notes": "",
                "created": p.created_at.isoformat(),
            }
            for p in (ann, Player.objects.get(pk=annie.pk), carl)
        ]
    }


# ---------------------------------------------------------------- never a server error

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=TEXT, name=TEXT, email=TEXT, membership=TEXT)
def test_any_search_or_player_fields_answer_without_a_server_error(
    desk_api, query, name, email, membership
):
    r = desk_api.client.get(PLAYERS, {"q": query}, **desk_api.headers)
    assert r.status_code in (200, 400), r.content
    r = desk_api.post(PLAYERS, {"name": name, "email": email, "membership": membership})
    assert r.status_code in (201, 400), r.content
    if r.status_code == 400:
        assert r.json()["error"]["code"] in ("bad_input", "membership_taken")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=300), dry_run=st.booleans())
def test_any_csv_text_answers_without_a_server_error(director_api, text, dry_run):
    r = director_api.post(f"{PLAYERS}/import", {"csv": text, "dry_run": dry_run})
    assert r.status_code in (200, 400), r.content


def test_a_write_sent_twice_with_its_key_is_done_once(desk_api, director_api):
    """docs/api.md "Idempotency": the player added once, the same answer replayed."""

    def send(client: ApiClient, method: str, path: str, body: dict, key: str):
        return getattr(client.client, method)(
            path,
            data=json.dumps(body),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key,
            **client.headers,
        )

    first = send(desk_api, "post", PLAYERS, {"name": "Gus Hale"}, "gus-1")
    again = send(desk_api, "post", PLAYERS, {"name": "Gus Hale"}, "gus-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Player.objects.count() == 1
    url = f"{PLAYERS}/{first.json()['id']}"
    r = send(desk_api, "patch", url, {"phone": "1"}, "gus-2")
    assert send(desk_api, "patch", url, {"phone": "1"}, "gus-2").json() == r.json()
    assert Event.objects.filter(kind="player_updated").count() == 1
