"""Issue 25: bounties through the API (RULES 9, docs/api.md "Bounties"): a knockout event
created with its bounty settings, eliminations with the winners of the hand (one, a split pot,
the winner of each side pot), the knockouts and the bounty money read back, the results with
each player's bounties, the refusals (4xx, nothing changed) and an elimination sent twice with
its Idempotency-Key."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from tables.models import Seat
from tests.conftest import TWO_LEVELS, ApiClient
from tourney import services
from tourney.api import api
from tourney.models import Entry, Event, Knockout, Tournament
from tourney.services.bounties import MSG_WINNER_IS_BUSTED, MSG_WINNER_NOT_SEATED
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()


def _matches(method: str, path: str, body, status: int = 200) -> bool:
    """The answer matches what /api/v1/openapi.json declares for it."""
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def _create(director_api, **fields) -> dict:
    body = {
        "name": "Knockout night",
        "tables": 2,
        "starting_stack": 20000,
        "buy_in": 5000,
        "fee": 500,
        "seed": 25,
        "levels": TWO_LEVELS,
        **fields,
    }
    r = director_api.post("/api/v1/tournaments", body)
    assert r.status_code == 201, r.content
    assert _matches("post", "tournaments", r.json(), 201), r.json()
    return r.json()


def _register(desk_api, tid: int, players: int) -> list[int]:
    ids = []
    for i in range(players):
        r = desk_api.post(f"/api/v1/tournaments/{tid}/entries", {"name": f"P{i + 1:02d}"})
        assert r.status_code == 201, r.content
        ids.append(r.json()["id"])
    return ids


def _bust(director_api, tid: int, entries, winners=None, key: str | None = None):
    body: dict = {"entries": entries}
    if winners is not None:
        body["winners"] = winners
    headers = dict(director_api.headers)
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return director_api.client.post(
        f"/api/v1/tournaments/{tid}/eliminations",
        data=json.dumps(body),
        content_type="application/json",
        **headers,
    )


def _where(entry: int) -> tuple[int, int]:
    seat = Seat.objects.select_related("table").get(entry_id=entry)
    return seat.table.number, seat.number


def _state(tid: int):
    """Everything a refused elimination must leave as it was."""
    return (
        sorted(Entry.objects.filter(tournament_id=tid).values_list("pk", "status", "bounty")),
        sorted(Entry.objects.filter(tournament_id=tid).values_list("pk", "bounty_won", "place")),
        Knockout.objects.filter(tournament_id=tid).count(),
        Event.objects.filter(tournament_id=tid).count(),
        sorted(
            Seat.objects.filter(tournament_id=tid).values_list("entry_id", "table_id", "number")
        ),
    )


@pytest.fixture
def pko(director_api, desk_api) -> tuple[int, list[int]]:
    """A progressive knockout of six players: 2000 of each 5000 buy-in is the bounty."""
    t = _create(director_api, bounty_kind="progressive", bounty=2000, bounty_cash_percent=50)
    return t["id"], _register(desk_api, t["id"], 6)


def test_the_tournament_is_created_and_read_with_its_bounty_settings(director_api, desk_api):
    t = _create(
        director_api,
        bounty_kind="mystery",
        bounty=1500,
        mystery_from_players=4,
        mystery_envelopes=[{"amount": 500, "count": 2}, {"amount": 5000, "count": 1}],
    )
    want = {
        "bounty_kind": "mystery",
        "bounty": 1500,
        "bounty_cash_percent": 50,
        "mystery_from_players": 4,
    }
    assert {k: t[k] for k in want} == want
    r = desk_api.get(f"/api/v1/tournaments/{t['id']}")
    assert r.status_code == 200 and r.json() == t
    row = Tournament.objects.get(pk=t["id"])
    assert (row.bounty_kind, row.bounty, row.mystery_from_players) == ("mystery", 1500, 4)
    assert row.mystery_envelopes == {"500": 2, "5000": 1}
    r = desk_api.get(f"/api/v1/tournaments/{t['id']}/bounties")
    assert r.json()["envelopes"] == [{"amount": 500, "count": 2}, {"amount": 5000, "count": 1}]
    # Without bounty fields: no bounties, the model's defaults.
    plain = _create(director_api, name="Plain")
    assert (plain["bounty_kind"], plain["bounty"], plain["bounty_cash_percent"]) == ("none", 0, 50)


@pytest.mark.parametrize(
    "fields, code, field",  # field: the one the error names
    [
        ({"bounty_kind": "pko", "bounty": 1000}, "bad_input", "bounty_kind"),
        ({"bounty_kind": "progressive", "bounty": -1}, "bad_input", "bounty"),
        (
            {"bounty_kind": "progressive", "bounty": 1000, "bounty_cash_percent": 101},
            "bad_input",
            "bounty_cash_percent",
        ),
        (
            {"bounty_kind": "mystery", "bounty": 1000, "mystery_from_players": 0},
            "bad_input",
            "mystery_from_players",
        ),
        (
            {"bounty_kind": "mystery", "mystery_envelopes": [{"amount": 0, "count": 1}]},
            "bad_input",
            "mystery_envelopes.0.amount",
        ),
        (
            {
                "bounty_kind": "mystery",
                "bounty": 1000,
                "mystery_envelopes": [{"amount": 500, "count": 1}, {"amount": 500, "count": 3}],
            },
            "bad_input",
            "mystery_envelopes",
        ),
        # RULES 9.1: a bounty type needs a bounty, a bounty needs a type (the service's checks)
        ({"bounty_kind": "fixed"}, "bad_bounty", "bounty"),
        ({"bounty": 1000}, "bad_bounty", "bounty_kind"),
        (
            {
                "bounty_kind": "fixed",
                "bounty": 1000,
                "mystery_envelopes": [{"amount": 1, "count": 1}],
            },
            "not_mystery",
            "mystery_envelopes",
        ),
    ],
)
def test_bad_bounty_settings_are_400_and_create_nothing(director_api, fields, code, field):
    r = director_api.post("/api/v1/tournaments", {"name": "Bad", **fields})
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == code
    assert field in error["fields"], error
    assert not Tournament.objects.exists()


def test_a_pko_elimination_pays_the_winner_and_the_bounties_read_it_back(
    director_api, desk_api, pko
):
    tid, (a, b, c, d, e, f) = pko
    table, seat = _where(a)
    r = _bust(director_api, tid, [{"id": b, "starting_stack": 20000}], winners=[a])
    assert r.status_code == 200, r.content
    body = r.json()
    # RULES 9.3: half in cash, half on the winner's head, paid where the winner sat
    assert body["bounties"] == [
        {
            "busted": b,
            "winner": a,
            "cash": 1000,
            "to_head": 1000,
            "envelope": None,
            "table": table,
            "seat": seat,
        }
    ]
    assert body["places"] == [{"entry": b, "place": 6, "place_to": 6}]
    assert _matches("post", "tournaments/{tid}/eliminations", body)
    winner, busted = Entry.objects.get(pk=a), Entry.objects.get(pk=b)
    assert (winner.bounty, winner.bounty_won) == (3000, 1000)
    assert (busted.bounty, busted.status) == (0, Entry.Status.BUSTED)
    hand = Event.objects.get(tournament_id=tid, kind="elimination").pk

    r = desk_api.get(f"/api/v1/tournaments/{tid}/bounties")
    assert r.status_code == 200, r.content
    got = r.json()
    assert _matches("get", "tournaments/{tid}/bounties", got)
    assert {k: got[k] for k in ("kind", "bounty", "cash_percent", "envelopes")} == {
        "kind": "progressive",
        "bounty": 2000,
        "cash_percent": 50,
        "envelopes": [],
    }
    # RULES 9.1: every bounty part is paid or still on a head
    assert (got["collected"], got["paid"], got["on_heads"], got["in_envelopes"]) == (
        12000,
        1000,
        11000,
        0,
    )
    assert got["heads"][0] == {"entry": a, "number": 1, "bounty": 3000, "won": 1000}
    assert [h["entry"] for h in got["heads"]] == [a, c, d, e, f]
    assert got["knockouts"] == [
        {"hand": hand, "busted": b, "winner": a, "cash": 1000, "to_head": 1000, "envelope": None}
    ]


def test_a_split_pot_and_side_pots_give_each_bounty_to_its_winners(director_api, pko):
    tid, (a, b, c, d, e, f) = pko
    # RULES 9.5: a and c split the pot that busted b: 1000 each, half of it in cash
    r = _bust(director_api, tid, [{"id": b, "starting_stack": 20000}], winners=[a, c])
    assert r.status_code == 200, r.content
    assert [(p["winner"], p["cash"], p["to_head"]) for p in r.json()["bounties"]] == [
        (a, 500, 500),
        (c, 500, 500),
    ]
    # RULES 9.7: d lost the main pot to e, f the side pot to a; an entry without winners of
    # its own takes the hand's
    r = _bust(
        director_api,
        tid,
        [{"id": d, "starting_stack": 3000}, {"id": f, "starting_stack": 8000, "winners": [a]}],
        winners=[e],
    )
    assert r.status_code == 200, r.content
    assert {(p["busted"], p["winner"], p["cash"]) for p in r.json()["bounties"]} == {
        (d, e, 1000),
        (f, a, 1000),
    }
    heads = dict(Entry.objects.filter(tournament_id=tid).values_list("pk", "bounty"))
    assert heads == {a: 2000 + 500 + 1000, b: 0, c: 2500, d: 0, e: 3000, f: 0}
    assert Knockout.objects.filter(tournament_id=tid).count() == 4


def test_the_results_carry_each_players_bounties_and_the_total_paid(director_api, desk_api, pko):
    tid, (a, b, c, d, e, f) = pko
    for busted, winner in ((b, a), (c, a), (d, e), (e, a), (f, a)):
        r = _bust(director_api, tid, [{"id": busted, "starting_stack": 20000}], winners=[winner])
        assert r.status_code == 200, r.content
    last = r.json()
    assert last["winner"] == a
    # RULES 9.8: the last player takes their own bounty, whole in cash, where they sit
    own = [p for p in last["bounties"] if p["busted"] == a]
    seat = Seat.objects.select_related("table").get(entry_id=a)
    assert own == [
        {
            "busted": a,
            "winner": a,
            "cash": own[0]["cash"],
            "to_head": 0,
            "envelope": None,
            "table": seat.table.number,
            "seat": seat.number,
        }
    ]
    r = desk_api.get(f"/api/v1/tournaments/{tid}/results")
    assert r.status_code == 200, r.content
    results = r.json()
    assert _matches("get", "tournaments/{tid}/results", results)
    won = dict(Entry.objects.filter(tournament_id=tid).values_list("pk", "bounty_won"))
    assert {row["entry"]: row["bounties"] for row in results["places"]} == won
    assert won[a] > 0 and won[e] > 0 and won[b] == 0
    # every bounty part collected has been paid (RULES 9.1, 9.8)
    assert results["bounties_paid"] == sum(won.values()) == 12000
    assert [row["entry"] for row in results["places"]] == [a, f, e, d, c, b]
    assert {"place", "place_to", "entry", "name", "prize", "deal"} < set(results["places"][0])


def test_the_entry_money_answers_carry_the_bounty_on_the_head(director_api, desk_api, pko):
    tid, (a, b, *_) = pko
    Tournament.objects.filter(pk=tid).update(
        rebuy_price=5000, rebuy_chips=20000, rebuy_until=1, reentries_allowed=1
    )
    assert _bust(director_api, tid, [{"id": b, "starting_stack": 20000}], [a]).status_code == 200
    r = desk_api.post(f"/api/v1/tournaments/{tid}/entries/{a}/rebuy")
    assert r.status_code == 200, r.content
    assert (r.json()["bounty"], r.json()["bounty_won"]) == (3000, 1000)
    assert _matches("post", "tournaments/{tid}/entries/{eid}/rebuy", r.json())
    # RULES 9.1: a re-entry carries a new bounty of its own
    r = desk_api.post(f"/api/v1/tournaments/{tid}/entries/{b}/reenter")
    assert r.status_code == 201, r.content
    assert (r.json()["bounty"], r.json()["bounty_won"]) == (2000, 0)
    assert _matches("post", "tournaments/{tid}/entries/{eid}/reenter", r.json(), 201)


@pytest.mark.parametrize(
    "case, status, code",
    [
        ("no_winners", 400, "winners_needed"),
        ("winner_busted", 400, "winner_busted"),
        ("unknown_winner", 409, "winner_not_seated"),
        ("winner_out_earlier", 409, "winner_not_seated"),
        ("one_pot_without_winner", 400, "winners_needed"),
        ("winner_twice", 400, "bad_input"),
        ("empty_winners", 400, "bad_input"),
    ],
)
def test_a_refused_bounty_elimination_is_4xx_and_changes_nothing(
    director_api, pko, case, status, code
):
    tid, (a, b, c, d, e, f) = pko
    r = _bust(director_api, tid, [{"id": f, "starting_stack": 20000}], winners=[e])
    assert r.status_code == 200, r.content
    bust_b = {"id": b, "starting_stack": 20000}
    bust_c = {"id": c, "starting_stack": 1000}
    entries, winners = {
        "no_winners": ([bust_b], None),
        "winner_busted": ([bust_b, bust_c], [c]),
        "unknown_winner": ([bust_b], [999999]),
        "winner_out_earlier": ([bust_b], [f]),
        "one_pot_without_winner": ([bust_b, {**bust_c, "winners": [a]}], None),
        "winner_twice": ([bust_b], [a, a]),
        "empty_winners": ([bust_b], []),
    }[case]
    before = _state(tid)
    r = _bust(director_api, tid, entries, winners=winners)
    assert r.status_code == status, r.content
    error = r.json()["error"]
    assert error["code"] == code
    assert "winners" in error["fields"]
    if code == "winner_busted":
        assert error["message"] == MSG_WINNER_IS_BUSTED
    if code == "winner_not_seated":
        assert error["message"] == MSG_WINNER_NOT_SEATED
    assert _state(tid) == before


def test_an_elimination_with_winners_sent_twice_with_its_key_is_one_knockout(director_api, pko):
    tid, (a, b, c, *_) = pko
    bust = [{"id": b, "starting_stack": 20000}]
    first = _bust(director_api, tid, bust, winners=[a], key="ko-b-1")
    assert first.status_code == 200, first.content
    assert "Idempotent-Replayed" not in first
    heads = _state(tid)
    second = _bust(director_api, tid, bust, winners=[a], key="ko-b-1")
    assert second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert _state(tid) == heads
    assert Knockout.objects.filter(tournament_id=tid).count() == 1
    assert Entry.objects.get(pk=a).bounty_won == 1000
    # The same key with other winners is another request: refused, nothing done.
    other = _bust(director_api, tid, bust, winners=[a, c], key="ko-b-1")
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert _state(tid) == heads


def test_mystery_envelopes_that_do_not_add_up_are_409_at_the_first_draw(director_api, desk_api):
    t = _create(
        director_api,
        bounty_kind="mystery",
        bounty=1000,
        mystery_from_players=9,
        mystery_envelopes=[{"amount": 500, "count": 2}],
    )
    a, b, c = _register(desk_api, t["id"], 3)
    before = _state(t["id"])
    r = _bust(director_api, t["id"], [{"id": c, "starting_stack": 20000}], winners=[a])
    assert r.status_code == 409, r.content
    assert r.json()["error"]["code"] == "envelopes_do_not_add_up"
    assert _state(t["id"]) == before


def test_without_bounties_the_answer_lists_none_and_winners_are_optional(
    director_api, seated_tournament
):
    tid = seated_tournament.pk
    a, b, c = Entry.objects.filter(tournament_id=tid).order_by("number")[:3]
    r = _bust(director_api, tid, [{"id": b.pk, "starting_stack": 20000}])
    assert r.status_code == 200, r.content
    assert r.json()["bounties"] == []
    # Given anyway, the eliminator is recorded, with no money (RULES 9: no bounty event).
    r = _bust(director_api, tid, [{"id": c.pk, "starting_stack": 20000}], winners=[a.pk])
    assert r.status_code == 200, r.content
    assert [(p["winner"], p["cash"], p["to_head"]) for p in r.json()["bounties"]] == [(a.pk, 0, 0)]
    r = director_api.get(f"/api/v1/tournaments/{tid}/bounties")
    assert r.json()["kind"] == "none" and r.json()["heads"] == []
    assert r.json()["collected"] == 0
    assert r.json()["knockouts"][0]["winner"] == a.pk


def test_the_bounties_are_read_by_the_roles_that_read_the_results(
    anon_api, stranger, desk_api, pko
):
    tid, _ = pko
    assert desk_api.get(f"/api/v1/tournaments/{tid}/bounties").status_code == 200
    assert anon_api.get(f"/api/v1/tournaments/{tid}/bounties").status_code == 401
    strangers = ApiClient(token_create(user=stranger))
    r = strangers.get(f"/api/v1/tournaments/{tid}/bounties")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = desk_api.get("/api/v1/tournaments/999999/bounties")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_deal_that_includes_the_bounties_pays_each_head_and_quotes_them(
    director, director_api, desk_api, pko
):
    tid, (a, b, c, d, e, f) = pko
    for busted in (d, e, f):
        r = _bust(director_api, tid, [{"id": busted, "starting_stack": 20000}], winners=[a])
        assert r.status_code == 200, r.content
    services.registration_close(tournament_id=tid, actor=director)
    quote = desk_api.get(f"/api/v1/tournaments/{tid}/deal")
    assert quote.status_code == 200, quote.content
    assert _matches("get", "tournaments/{tid}/deal", quote.json())
    # RULES 9.10: the bounty money not yet won, and each player's head
    assert quote.json()["bounties_in_play"] == 2000 * 6 - 3000
    heads = {p["entry"]: p["bounty"] for p in quote.json()["players"]}
    assert heads == {a: 2000 + 3000, b: 2000, c: 2000}
    unpaid = quote.json()["unpaid_prizes"]
    amounts = {str(a): unpaid[0], str(b): unpaid[1], str(c): sum(unpaid[2:])}
    r = director_api.post(
        f"/api/v1/tournaments/{tid}/deal",
        {"method": "custom", "amounts": amounts, "agreed": [a, b, c], "include_bounties": True},
    )
    assert r.status_code == 200, r.content
    assert r.json()["include_bounties"] is True
    assert _matches("post", "tournaments/{tid}/deal", r.json())
    got = desk_api.get(f"/api/v1/tournaments/{tid}/bounties").json()
    assert (got["paid"], got["on_heads"]) == (12000, 0)
    won = dict(Entry.objects.filter(tournament_id=tid).values_list("pk", "bounty_won"))
    assert (won[a], won[b], won[c]) == (3000 + 5000, 2000, 2000)
