"""Issue 5: the three stateless floor endpoints of docs/api.md (RULES 5, 6, 8.3): the contract's
own examples verbatim, a replay by seed, settle by ranks, and the 400s of bad input."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

pytestmark = pytest.mark.django_db

SETTLE = "/api/v1/floor/settle"
RACE = "/api/v1/floor/chip-race"
ICM = "/api/v1/floor/icm"

# docs/api.md, POST /api/v1/floor/settle: the request and the response, as written there.
SETTLE_EXAMPLE = """
{"button_seat": 3, "chip_unit": 1, "board": "AdKd3c9s4h",
 "players": [
   {"seat": 1, "committed": 10,  "folded": false, "cards": "AsAh"},
   {"seat": 2, "committed": 50,  "folded": false, "cards": "KsKh"},
   {"seat": 3, "committed": 200, "folded": false, "cards": "7c2d"}]}
"""
SETTLE_ANSWER = """
{"returned": {"3": 150},
 "pots": [{"amount": 30, "eligible": [1, 2, 3], "winners": [1], "shares": {"1": 30}},
          {"amount": 80, "eligible": [2, 3],    "winners": [2], "shares": {"2": 80}}],
 "payouts": {"1": 30, "2": 80, "3": 150},
 "hands": {"1": {"category": "three_of_a_kind", "best_five": ["As", "Ah", "Ad", "Kd", "9s"]}}}
"""
# docs/api.md, POST /api/v1/floor/chip-race: the request (seed form), the dealer's-cards form and
# the response, as written there.
RACE_EXAMPLE = """
{"denominations": [25, 100, 500], "remove": 25, "threshold": "half_or_more",
 "seed": 12345,
 "players": [{"seat": 1, "chips": {"25": 7, "100": 12, "500": 3}},
             {"seat": 4, "chips": {"25": 3}}]}
"""
RACE_CARDS = """{"1": ["As", "7d", "Kc"], "4": ["2h", "2c", "9s"]}"""
RACE_ANSWER = """
{"unit": 100, "awarded": 2, "value_removed": 0, "value_added": 50,
 "players": [{"seat": 1, "odd_chips": 3, "cards": ["As", "7d", "Kc"], "won": 1,
              "protected": false, "chips": {"100": 14, "500": 3}},
             {"seat": 4, "odd_chips": 3, "cards": ["2h", "2c", "9s"], "won": 1,
              "protected": false, "chips": {"100": 1}}]}
"""
# docs/api.md, POST /api/v1/floor/icm.
ICM_EXAMPLE = """{"stacks": [5000, 3000, 2000], "payouts": [500, 300, 200]}"""


def post_raw(api, path: str, raw: str):
    return api.client.post(path, data=raw, content_type="application/json", **api.headers)


def error_of(r, status: int = 400) -> dict:
    assert r.status_code == status, r.content
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
    assert body["error"]["message"]
    return body["error"]


def race_example(**change) -> dict:
    body = json.loads(RACE_EXAMPLE)
    body.update(change)
    return {k: v for k, v in body.items() if v is not None}


# ---------------------------------------------------------------- settle (RULES 6)


def test_settle_gives_the_api_md_example(desk_api):
    r = post_raw(desk_api, SETTLE, SETTLE_EXAMPLE)
    assert r.status_code == 200, r.content
    data, expected = r.json(), json.loads(SETTLE_ANSWER)
    # The example shows seat 1's hand only; the answer has every shown hand.
    assert {k: v for k, v in data.items() if k != "hands"} == {
        k: v for k, v in expected.items() if k != "hands"
    }
    assert data["hands"]["1"] == expected["hands"]["1"]
    assert data["hands"]["2"] == {
        "category": "three_of_a_kind",
        "best_five": ["Ks", "Kh", "Kd", "Ad", "9s"],
    }
    assert data["hands"]["3"]["category"] == "high_card"


def test_settle_by_ranks_has_no_hands_and_splits_a_tie(desk_api):
    """RULES 6: ranks instead of cards (no board needed), equal ranks split each pot, the
    odd chip to the first winner clockwise after the button; no ``hands`` without cards."""
    body = {
        "button_seat": 4,
        "chip_unit": 5,
        "players": [
            {"seat": 1, "committed": 105, "rank": 1},
            {"seat": 2, "committed": 300, "rank": 1},
            {"seat": 4, "committed": 300, "rank": 2},
            {"seat": 6, "committed": 40, "folded": True},
        ],
    }
    r = desk_api.post(SETTLE, body)
    assert r.status_code == 200, r.content
    data = r.json()
    assert "hands" not in data
    assert data["returned"] == {}
    # main pot 105 x 3 + 40 folded = 355 = 71 units: seats 1 and 2 tie, 36 units to seat 1
    # (first clockwise after the button at 4: 6 folded, then 1), 35 to seat 2.
    assert data["pots"] == [
        {"amount": 355, "eligible": [1, 2, 4], "winners": [1, 2], "shares": {"1": 180, "2": 175}},
        {"amount": 390, "eligible": [2, 4], "winners": [2], "shares": {"2": 390}},
    ]
    assert data["payouts"] == {"1": 180, "2": 565}
    assert sum(data["payouts"].values()) == 105 + 300 + 300 + 40


def test_settle_takes_antes_as_dead_money(desk_api):
    """RULES 6.6: the big blind posts 200 ante + 200 blind and folds to a 300 shove; the ante
    is not returned to them: seat 4 receives 800 (700 pot + 100 uncalled). Without ``ante``
    the field is 0 (the request of before)."""
    body = {
        "button_seat": 1,
        "players": [
            {"seat": 2, "committed": 100, "folded": True},
            {"seat": 3, "committed": 200, "ante": 200, "folded": True},
            {"seat": 4, "committed": 300},
        ],
    }
    r = desk_api.post(SETTLE, body)
    assert r.status_code == 200, r.content
    assert r.json() == {
        "returned": {"4": 100},
        "pots": [{"amount": 700, "eligible": [4], "winners": [4], "shares": {"4": 700}}],
        "payouts": {"4": 800},
    }
    body["players"][1]["ante"] = -1
    assert error_of(desk_api.post(SETTLE, body))["code"] == "bad_input"


def test_settle_gives_no_player_two_odd_chips_in_one_hand(desk_api):
    """RULES 6.5: the side pot's odd chip to seat 2, the main pot's to seat 3: 37 each."""
    body = {
        "button_seat": 1,
        "players": [
            {"seat": 2, "committed": 21, "rank": 1},
            {"seat": 3, "committed": 21, "rank": 1},
            {"seat": 4, "committed": 5, "folded": True},
            {"seat": 5, "committed": 16, "folded": True},
            {"seat": 6, "committed": 11, "rank": 2},
        ],
    }
    r = desk_api.post(SETTLE, body)
    assert r.status_code == 200, r.content
    assert r.json()["payouts"] == {"2": 37, "3": 37}


def two(a: dict, b: dict) -> dict:
    return {"players": [{"seat": 1, "committed": 10, **a}, {"seat": 2, "committed": 10, **b}]}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"chip_unit": 7}, "not_chip_unit"),  # 10, 50, 200 are not multiples of 7
        (two({"cards": "AsAh"}, {"rank": 1}), "showdown_mixed"),
        (two({"cards": "AsXx"}, {"cards": "KsKh"}), "bad_card"),
        (two({"cards": "AsAh"}, {"cards": "AsKh"}), "duplicate_card"),
        ({"board": "AdKd3c9s"}, "bad_board"),
        ({"chip_unit": 10**13}, "bad_input"),  # beyond the schema's bound
    ],
)
def test_settle_bad_input_is_a_400_with_its_code(desk_api, change, code):
    body = {**json.loads(SETTLE_EXAMPLE), **change}
    err = error_of(desk_api.post(SETTLE, body))
    assert err["code"] == code


# ---------------------------------------------------------------- chip race (RULES 5)


def test_chip_race_with_the_dealers_cards_gives_the_api_md_example(desk_api):
    body = race_example(seed=None, cards=json.loads(RACE_CARDS))
    r = desk_api.post(RACE, body)
    assert r.status_code == 200, r.content
    data = r.json()
    expected = json.loads(RACE_ANSWER)
    assert {k: data[k] for k in expected} == expected
    # Added fields (docs/api.md allows them): the chip removed, and no seed for dealt cards.
    assert data["remove"] == 25 and data["seed"] is None


def test_chip_race_by_seed_replays_the_same_deal(desk_api):
    first = desk_api.post(RACE, race_example())
    assert first.status_code == 200, first.content
    again = desk_api.post(RACE, race_example())
    assert again.json() == first.json()
    data = first.json()
    assert data["seed"] == 12345
    # Six odd 25s (150): one chip of 100 and half of another, so two chips race (RULES 5.6).
    assert (data["unit"], data["awarded"], data["value_added"]) == (100, 2, 50)
    assert sorted(len(p["cards"]) for p in data["players"]) == [3, 3]
    assert sum(p["won"] for p in data["players"]) == 2
    # The seed's deal, given back as the dealer's cards, is the same race.
    cards = {str(p["seat"]): p["cards"] for p in data["players"]}
    dealt = desk_api.post(RACE, race_example(seed=None, cards=cards)).json()
    assert dealt["players"] == data["players"]


def test_chip_race_without_a_seed_answers_the_seed_it_drew(desk_api):
    body = race_example(seed=None)
    data = desk_api.post(RACE, body).json()
    assert isinstance(data["seed"], int)
    replay = desk_api.post(RACE, race_example(seed=data["seed"])).json()
    assert replay == data


def test_chip_race_refuses_a_seed_and_cards_together(desk_api):
    err = error_of(desk_api.post(RACE, race_example(cards=json.loads(RACE_CARDS))))
    assert err["code"] == "no_deal"


def raw_race(
    chips: str = '{"25": 7}', deal: str = '"seed": 1', denominations="25, 100", remove="25"
):
    return (
        f'{{"denominations": [{denominations}], "remove": {remove}, {deal}, '
        f'"players": [{{"seat": 1, "chips": {chips}}}]}}'
    )


HUGE = str(10**400)


@pytest.mark.parametrize(
    "raw",
    [
        # "25" and "025" are the same chip: one count would silently replace the other.
        raw_race(chips='{"25": 1, "025": 3}'),
        # seat "1" and "01" are the same seat.
        raw_race(chips='{"25": 1}', deal='"cards": {"1": ["As"], "01": ["Kd"]}'),
        raw_race(chips='{"1.5": 1}'),
        raw_race(chips=f'{{"{"9" * 5000}": 1}}'),  # more digits than int() reads
        raw_race(chips='{"25": 1}', deal=f'"cards": {{"{HUGE}": ["As"]}}'),
        raw_race(denominations=f"25, {HUGE}"),
        raw_race(remove=HUGE),
    ],
)
def test_chip_race_bad_keys_and_numbers_are_bad_input(desk_api, raw):
    assert error_of(post_raw(desk_api, RACE, raw))["code"] == "bad_input"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"remove": 500}, "remove_last_denomination"),
        ({"remove": 50}, "unknown_denomination"),
        ({"denominations": [25, 60, 500]}, "bad_denominations"),  # 60 is not a multiple of 25
        # 19 odd 5s each (20 make a 100) at four seats: 76 cards, more than a deck (52)
        (
            {
                "denominations": [5, 100],
                "remove": 5,
                "players": [{"seat": s, "chips": {"5": 19}} for s in (1, 2, 3, 4)],
            },
            "race_too_big",
        ),
        ({"seed": None, "cards": {"1": ["As", "7d", "Kc"], "4": ["2h", "2c"]}}, "cards_count"),
        ({"seed": None, "cards": {"1": ["As", "7d", "Zz"], "4": ["2h", "2c", "9s"]}}, "bad_card"),
    ],
)
def test_chip_race_refusals_have_their_codes(desk_api, change, code):
    err = error_of(desk_api.post(RACE, race_example(**change)))
    assert err["code"] == code


# ---------------------------------------------------------------- ICM (RULES 8.3)


def harville(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """Every finishing order with its Harville probability (a reference, not the engine's
    subset walk)."""
    n = len(stacks)
    eq = [Fraction(0)] * n
    for order in itertools.permutations(range(n)):
        p, left = Fraction(1), sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            eq[i] += p * (payouts[place] if place < len(payouts) else 0)
    return eq


def test_icm_gives_the_malmuth_harville_equities_of_the_api_md_example(desk_api):
    r = post_raw(desk_api, ICM, ICM_EXAMPLE)
    assert r.status_code == 200, r.content
    equities = r.json()["equities"]
    expected = harville([5000, 3000, 2000], [500, 300, 200])
    assert equities == pytest.approx([float(e) for e in expected], abs=1e-9)
    assert sum(equities) == pytest.approx(1000)
    assert equities[0] > equities[1] > equities[2]


@pytest.mark.parametrize(
    "raw",
    [
        f'{{"stacks": [{HUGE}, 1], "payouts": [100, 50]}}',  # was a 500 (OverflowError)
        f'{{"stacks": [{10**30}, 1], "payouts": [100, 50]}}',
        '{"stacks": [-5, 1], "payouts": [100, 50]}',
        '{"stacks": [5, 1], "payouts": [-1]}',
        '{"stacks": [5, 1], "payouts": [1e300]}',
        '{"stacks": [], "payouts": [1]}',
    ],
)
def test_icm_out_of_range_is_bad_input(desk_api, raw):
    assert error_of(post_raw(desk_api, ICM, raw))["code"] == "bad_input"


def test_icm_with_no_chips_at_all_is_refused(desk_api):
    assert error_of(desk_api.post(ICM, {"stacks": [0, 0], "payouts": [1]}))["code"] == "no_chips"
