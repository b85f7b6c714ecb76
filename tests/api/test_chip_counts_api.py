"""Issue 26: chip counts during play through the API (RULES 10.8, docs/api.md "Chip counts
during play"): the director records counts for some players at once, the desk reads each
player's latest count and the exact average stack; refusals answer 4xx and record nothing;
an undo takes the counts back; the answers match the OpenAPI document."""

from __future__ import annotations

import jsonschema_rs
import pytest

from tables.models import Seat
from tourney import services
from tourney.api import api
from tourney.models import ChipCount
from tourney.services import chip_counts as svc

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()


def _matches(method: str, path: str, body, status: int) -> bool:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def _url(t) -> str:
    return f"/api/v1/tournaments/{t.pk}/chip-counts"


def _seated(t, table=1):
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("entry_id", "number")
    )


def test_the_director_records_counts_and_the_desk_reads_the_latest(
    seated_tournament, director_api, desk_api
):
    t = seated_tournament
    (a, sa), (b, sb), (c, _) = _seated(t)[:3]
    r = director_api.post(
        _url(t), {"counts": [{"entry": b, "chips": 15000}, {"entry": a, "chips": 32000}]}
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert [(x["entry"], x["chips"], x["table"], x["seat"]) for x in body["recorded"]] == [
        (a, 32000, 1, sa),
        (b, 15000, 1, sb),
    ]
    assert _matches("post", "tournaments/{tid}/chip-counts", body, 201)
    assert director_api.post(_url(t), {"counts": [{"entry": a, "chips": 45000}]}).status_code == 201

    r = desk_api.get(_url(t))
    assert r.status_code == 200
    got = r.json()
    assert _matches("get", "tournaments/{tid}/chip-counts", got, 200)
    assert [(x["entry"], x["chips"]) for x in got["counts"]] == [(a, 45000), (b, 15000)]
    assert got["counts"][0]["at"] >= got["counts"][1]["at"]
    assert (got["counted"], got["not_counted"], got["players"]) == (2, 18, 20)
    assert (got["chips_in_play"], got["average_stack"]) == (400000, 20000)
    assert c not in {x["entry"] for x in got["counts"]}


@pytest.mark.parametrize(
    ("counts", "status", "code"),
    [
        ([], 400, None),
        ([{"entry": 1, "chips": 0}], 400, None),
        ([{"entry": 1, "chips": -3}], 400, None),
        ([{"entry": 1, "chips": "lots"}], 400, None),
        ([{"entry": 10**9, "chips": 100}], 409, "not_seated"),
        ("twice", 400, "duplicate_entry"),
        ("too_many", 409, "more_than_in_play"),
    ],
)
def test_refusals_record_nothing(seated_tournament, director_api, counts, status, code):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    if counts == "twice":
        counts = [{"entry": a, "chips": 100}, {"entry": a, "chips": 200}]
    elif counts == "too_many":
        counts = [{"entry": a, "chips": 399999}, {"entry": b, "chips": 2}]
    r = director_api.post(_url(t), {"counts": counts})
    assert r.status_code == status, r.content
    if code:
        assert r.json()["error"]["code"] == code
    if code == "duplicate_entry":
        assert r.json()["error"]["message"] == svc.MSG_TWICE
    assert not ChipCount.objects.exists()


def test_the_desk_may_not_record_counts(seated_tournament, desk_api):
    (a, _) = _seated(seated_tournament)[0]
    r = desk_api.post(_url(seated_tournament), {"counts": [{"entry": a, "chips": 100}]})
    assert r.status_code == 403
    assert not ChipCount.objects.exists()


def test_undo_takes_the_counts_back(seated_tournament, director_api, desk_api):
    t = seated_tournament
    (a, _) = _seated(t)[0]
    director_api.post(_url(t), {"counts": [{"entry": a, "chips": 25000}]})
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/undo")
    assert r.status_code == 200, r.content
    assert desk_api.get(_url(t)).json()["counts"] == []
    assert not ChipCount.objects.exists()


def test_a_player_out_since_drops_out_of_the_counts(seated_tournament, director_api, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    director_api.post(
        _url(t), {"counts": [{"entry": a, "chips": 25000}, {"entry": b, "chips": 9000}]}
    )
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], actor=director)
    got = director_api.get(_url(t)).json()
    assert [x["entry"] for x in got["counts"]] == [a]
    assert got["players"] == 19 and got["average_stack"] == 21053  # 400,000 / 19, rounded
    r = director_api.post(_url(t), {"counts": [{"entry": b, "chips": 9000}]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_seated"
