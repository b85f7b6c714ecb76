"""Issue 6: the money endpoints (rebuy, add-on, re-entry, summary, payouts, freeze, deal), the
results endpoint with deals, and the CSV and printable results views."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.models import Entry, Event, Player, Tournament
from tourney.services import money

pytestmark = pytest.mark.django_db


def _rebuy_tournament(director, **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Rebuy Friday",
        tables=1,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=3,
        levels=TWO_LEVELS,
        options={
            "rebuy_price": 4000,
            "rebuy_chips": 10000,
            "addon_at": 1,
            "addon_price": 3000,
            "reentries_allowed": 1,
            **options,
        },
    )
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"R{i + 1}", actor=director)
    t.refresh_from_db()
    return t


def _seated(t: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number"))


def _bust_down_to(t: Tournament, left: int, director) -> None:
    while len(seated := _seated(t)) > left:
        services.elimination_record(
            tournament_id=t.pk, busts=[(seated[-1].pk, 1000)], actor=director
        )


def _error(r) -> str:
    return r.json()["error"]["code"]


# ---------------------------------------------------------------- rebuy, add-on, re-entry


def test_desk_can_rebuy(director, desk_api):
    t = _rebuy_tournament(director)
    entry = _seated(t)[0]

    r = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries/{entry.pk}/rebuy")

    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["id"], body["paid"], body["rebuys"], body["chips_bought"]) == (
        entry.pk,
        9000,
        1,
        30000,
    )
    assert body["prize_pool"] == 4 * 5000 + 4000
    entry.refresh_from_db()
    assert (entry.paid, entry.rebuys, entry.chips_bought) == (9000, 1, 30000)
    event = Event.objects.get(tournament=t, kind="entry_rebuy")
    assert event.actor.username == "clerk"


@pytest.mark.parametrize(
    ("client", "status", "code"), [("stranger", 403, "forbidden"), ("anon", 401, "unauthorized")]
)
def test_stranger_and_anonymous_cannot_rebuy(director, stranger, anon_api, client, status, code):
    from tests.conftest import ApiClient
    from tourney.tokens import token_create

    api = ApiClient(token_create(user=stranger)) if client == "stranger" else anon_api
    t = _rebuy_tournament(director)
    entry = _seated(t)[0]

    r = api.post(f"/api/v1/tournaments/{t.pk}/entries/{entry.pk}/rebuy")

    assert r.status_code == status and _error(r) == code
    entry.refresh_from_db()
    assert (entry.paid, entry.rebuys) == (5000, 0)
    assert not Event.objects.filter(tournament=t, kind="entry_rebuy").exists()


def test_rebuy_outside_the_period_is_409_with_the_message(director, desk_api):
    t = _rebuy_tournament(director, rebuys_open=False)
    entry = _seated(t)[0]

    r = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries/{entry.pk}/rebuy")

    assert r.status_code == 409
    assert r.json()["error"]["message"] == money.MSG_REBUYS_CLOSED
    entry.refresh_from_db()
    assert entry.rebuys == 0


def test_rebuy_of_an_unknown_tournament_or_entry_is_404(director, desk_api):
    t = _rebuy_tournament(director)

    r1 = desk_api.post(f"/api/v1/tournaments/{t.pk + 100}/entries/1/rebuy")
    r2 = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries/999999/rebuy")

    assert (r1.status_code, _error(r1)) == (404, "not_found")
    assert (r2.status_code, _error(r2)) == (404, "entry_not_found")


def test_addon_at_the_break_through_the_api(director, desk_api):
    t = _rebuy_tournament(director)
    entry = _seated(t)[0]
    url = f"/api/v1/tournaments/{t.pk}/entries/{entry.pk}/addon"
    services.clock_action(tournament_id=t.pk, action="start", actor=director)

    early = desk_api.post(url)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    ok = desk_api.post(url)
    twice = desk_api.post(url)

    assert (early.status_code, _error(early)) == (409, "addon_not_now")
    assert ok.status_code == 200 and ok.json()["addons"] == 1
    assert ok.json()["chips_bought"] == 40000  # no add-on chips set: a starting stack
    assert (twice.status_code, _error(twice)) == (409, "addon_taken")
    entry.refresh_from_db()
    assert (entry.addons, entry.paid) == (1, 8000)


def test_reentry_through_the_api_seats_a_new_entry(director, desk_api):
    t = _rebuy_tournament(director)
    out = _seated(t)[-1]
    services.elimination_record(tournament_id=t.pk, busts=[(out.pk, 100)], actor=director)

    r = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries/{out.pk}/reenter")

    assert r.status_code == 201, r.content
    body = r.json()
    new = Entry.objects.get(pk=body["id"])
    assert new.player_id == out.player_id and new.status == Entry.Status.SEATED
    assert body["reentry_of"] == out.pk and body["name"] == "R4" and body["number"] == 5
    assert body["table"] == 1 and 1 <= body["seat"] <= 9
    assert body["prize_pool"] == 5 * 5000
    again = desk_api.post(f"/api/v1/tournaments/{t.pk}/entries/{out.pk}/reenter")
    assert (again.status_code, _error(again)) == (409, "player_still_in")
    assert Entry.objects.filter(tournament=t).count() == 5


# ---------------------------------------------------------------- summary, payouts, freeze


def test_money_summary(seated_tournament, desk_api):
    t = seated_tournament

    r = desk_api.get(f"/api/v1/tournaments/{t.pk}/money")

    assert r.status_code == 200
    body = r.json()
    assert body["prize_pool"] == 100000 and body["fees"] == 10000 and body["overlay"] == 0
    assert body["prizes"] == [
        {"place": 1, "prize": 42100},
        {"place": 2, "prize": 25700},
        {"place": 3, "prize": 18100},
        {"place": 4, "prize": 14100},
    ]
    assert body["paid_places"] == 4 and body["bubble_place"] == 5
    assert body["players_left"] == 20 and body["in_the_money"] is False
    assert body["frozen"] is False and body["deal"] is False


def test_only_the_director_sets_payouts(seated_tournament, director_api, desk_api):
    t = seated_tournament
    url = f"/api/v1/tournaments/{t.pk}/payouts"

    denied = desk_api.put(url, {"percentages": [6000, 4000]})
    ok = director_api.put(url, {"percentages": [6000, 4000], "rounding_unit": 500})

    assert (denied.status_code, _error(denied)) == (403, "forbidden")
    assert ok.status_code == 200
    assert ok.json()["prizes"] == [{"place": 1, "prize": 60000}, {"place": 2, "prize": 40000}]
    t.refresh_from_db()
    assert t.payout_percentages == [6000, 4000] and t.rounding_unit == 500
    assert Event.objects.filter(tournament=t, kind="payouts_set").count() == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"percentages": [6000, 3000]}, "bad_percentages"),
        ({"percentages": [4000, 6000]}, "bad_percentages"),
        ({"percentages": ["lots"]}, "bad_input"),
        ({"rounding_unit": 0}, "bad_input"),
        ({}, "bad_input"),
    ],
)
def test_bad_payouts_are_400_and_change_nothing(seated_tournament, director_api, body, code):
    t = seated_tournament

    r = director_api.put(f"/api/v1/tournaments/{t.pk}/payouts", body)

    assert r.status_code == 400 and _error(r) == code
    t.refresh_from_db()
    assert t.payout_percentages is None and t.rounding_unit == 100
    assert not Event.objects.filter(tournament=t, kind="payouts_set").exists()


def test_freeze_through_the_api(seated_tournament, director_api):
    t = seated_tournament
    url = f"/api/v1/tournaments/{t.pk}/payouts/freeze"

    early = director_api.post(url)
    Tournament.objects.filter(pk=t.pk).update(registration_open=False)
    ok = director_api.post(url)

    assert (early.status_code, _error(early)) == (409, "registration_open")
    assert ok.status_code == 200 and ok.json()["frozen"] is True
    t.refresh_from_db()
    assert t.frozen_prizes == [42100, 25700, 18100, 14100]


# ---------------------------------------------------------------- deals and results


def test_deal_quote_and_record_then_results_show_the_deal(
    seated_tournament, director, director_api
):
    t = seated_tournament
    _bust_down_to(t, 3, director)
    services.registration_close(tournament_id=t.pk, actor=director)  # a deal waits (RULES 8.3)
    x, y, z = _seated(t)
    url = f"/api/v1/tournaments/{t.pk}/deal"

    bare = director_api.get(url)
    quote = director_api.get(f"{url}?stacks={x.pk}:50000,{y.pk}:30000,{z.pk}:20000")
    recorded = director_api.post(
        url,
        {
            "method": "icm",
            "amounts": {str(x.pk): 32700, str(y.pk): 28100, str(z.pk): 25100},
            "stacks": {str(x.pk): 50000, str(y.pk): 30000, str(z.pk): 20000},
            "agreed": [x.pk, y.pk, z.pk],
        },
    )

    assert bare.status_code == 200 and bare.json()["unpaid"] == 85900
    assert [p["stack"] for p in bare.json()["players"]] == [None, None, None]
    assert quote.status_code == 200
    assert [p["icm"] for p in quote.json()["players"]] == [32700, 28100, 25100]
    assert [p["chip_chop"] for p in quote.json()["players"]] == [33900, 27600, 24400]  # by 100
    assert recorded.status_code == 200, recorded.content
    assert recorded.json()["unpaid"] == 85900
    assert recorded.json()["agreed"] == sorted([x.pk, y.pk, z.pk])
    x.refresh_from_db()
    assert x.deal_amount == 32700

    _bust_down_to(t, 1, director)
    results = director_api.get(f"/api/v1/tournaments/{t.pk}/results")
    assert results.status_code == 200
    top = results.json()["places"][:4]
    assert [(p["place"], p["prize"]) for p in top] == [
        (1, 32700),
        (2, 28100),
        (3, 25100),
        (4, 14100),
    ]
    assert results.json()["prize_pool"] == 100000
    assert sum(p["prize"] for p in results.json()["places"]) == 100000
    # "the results then show the deal": an added field of docs/api.md's rows, and the CSV's column
    assert [p["deal"] for p in results.json()["places"][:4]] == [True, True, True, False]
    csv_rows = list(
        csv.reader(
            io.StringIO(_logged_in(director).get(f"/td/{t.pk}/results.csv").content.decode())
        )
    )
    assert csv_rows[0][-1] == "deal"
    assert [(r[0], r[4], r[5]) for r in csv_rows[1:5]] == [
        ("1", "327.00", "yes"),
        ("2", "281.00", "yes"),
        ("3", "251.00", "yes"),
        ("4", "141.00", ""),
    ]


def test_a_deal_that_does_not_add_up_is_400_and_nothing_changes(
    seated_tournament, director, director_api, desk_api
):
    t = seated_tournament
    _bust_down_to(t, 3, director)
    services.registration_close(tournament_id=t.pk, actor=director)  # a deal waits (RULES 8.3)
    x, y, z = _seated(t)
    url = f"/api/v1/tournaments/{t.pk}/deal"
    short = {
        "method": "custom",
        "amounts": {str(x.pk): 40000, str(y.pk): 30000, str(z.pk): 1},
        "agreed": [x.pk, y.pk, z.pk],
    }

    r = director_api.post(url, short)
    desk = desk_api.post(
        url, {**short, "amounts": {str(x.pk): 40000, str(y.pk): 30000, str(z.pk): 15900}}
    )
    negative = director_api.post(
        url, {**short, "amounts": {str(x.pk): -1, str(y.pk): 1, str(z.pk): 85900}}
    )

    assert r.status_code == 400 and _error(r) == "deal_does_not_add_up"
    assert "adding up exactly to the prize money not yet paid" in r.json()["error"]["message"]
    assert (desk.status_code, _error(desk)) == (403, "forbidden")
    assert (negative.status_code, _error(negative)) == (400, "bad_input")
    assert not Entry.objects.filter(tournament=t, deal_amount__isnull=False).exists()
    assert not Event.objects.filter(tournament=t, kind="deal_recorded").exists()


def test_a_deal_not_every_player_agreed_to_is_400_and_nothing_changes(
    seated_tournament, director, director_api
):
    """RULES 8.3: recorded only when every remaining player agrees. One missing, none given,
    or an entry that is not still in counted as agreeing: refused, nothing written."""
    t = seated_tournament
    _bust_down_to(t, 3, director)
    services.registration_close(tournament_id=t.pk, actor=director)
    x, y, z = _seated(t)
    gone = Entry.objects.filter(tournament=t, place__isnull=False).first()
    url = f"/api/v1/tournaments/{t.pk}/deal"
    deal = {
        "method": "custom",
        "amounts": {str(x.pk): 40000, str(y.pk): 30000, str(z.pk): 15900},
    }
    before = _snapshot_money(t)

    two = director_api.post(url, {**deal, "agreed": [x.pk, y.pk]})
    none = director_api.post(url, deal)
    stranger = director_api.post(url, {**deal, "agreed": [x.pk, y.pk, z.pk, gone.pk]})

    assert (two.status_code, _error(two)) == (400, "deal_not_agreed")
    assert z.player.name in two.json()["error"]["message"]
    assert "RULES 8.3" in two.json()["error"]["message"]
    assert two.json()["error"]["fields"] == {"agreed": [z.pk]}
    assert (none.status_code, _error(none)) == (400, "deal_not_agreed")
    assert none.json()["error"]["fields"] == {"agreed": sorted([x.pk, y.pk, z.pk])}
    assert (stranger.status_code, _error(stranger)) == (400, "deal_agreed_others")
    assert stranger.json()["error"]["fields"] == {"agreed": [gone.pk]}
    assert _snapshot_money(t) == before
    assert not Event.objects.filter(tournament=t, kind="deal_recorded").exists()

    ok = director_api.post(url, {**deal, "agreed": [z.pk, x.pk, y.pk]})
    assert ok.status_code == 200, ok.content
    assert Event.objects.get(tournament=t, kind="deal_recorded").payload["agreed"] == sorted(
        [x.pk, y.pk, z.pk]
    )


def _snapshot_money(t):
    return sorted(
        Entry.objects.filter(tournament=t).values_list("pk", "deal_amount", "prize", "place")
    )


@pytest.mark.parametrize("stacks", ["abc", "1:2:3", "5:0", ""])
def test_a_bad_stacks_query_is_400(seated_tournament, director, director_api, stacks):
    t = seated_tournament
    _bust_down_to(t, 3, director)

    r = director_api.get(f"/api/v1/tournaments/{t.pk}/deal?stacks={stacks}")

    assert r.status_code == 400 and _error(r) == "bad_input"


def test_deal_quote_with_one_player_left_is_409(seated_tournament, director, director_api):
    t = seated_tournament
    _bust_down_to(t, 1, director)

    r = director_api.get(f"/api/v1/tournaments/{t.pk}/deal")

    assert (r.status_code, _error(r)) == (409, "deal_needs_players")


# ---------------------------------------------------------------- CSV and printable sheet


def _logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_results_csv_lists_finishers_best_first(seated_tournament, director, desk_clerk):
    t = seated_tournament
    Player.objects.filter(entries__tournament=t, entries__number=20).update(name="=HYPERLINK(1)")
    _bust_down_to(t, 17, director)

    r = _logged_in(desk_clerk).get(f"/td/{t.pk}/results.csv")

    assert r.status_code == 200
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="friday-50-results.csv"' in r["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    # entry_number: the ticket number (the API's "entry" is the row id, not this)
    assert rows[0] == ["place", "place_to", "name", "entry_number", "prize", "deal"]
    assert rows[1:] == [
        ["18", "18", "Player 18", "18", "0.00", ""],
        ["19", "19", "Player 19", "19", "0.00", ""],
        ["20", "20", "'=HYPERLINK(1)", "20", "0.00", ""],
    ]


def test_results_views_refuse_a_stranger(seated_tournament, stranger):
    c = _logged_in(stranger)

    assert c.get(f"/td/{seated_tournament.pk}/results.csv").status_code == 403
    assert c.get(f"/td/{seated_tournament.pk}/results/print/").status_code == 403
    assert Client().get(f"/td/{seated_tournament.pk}/results.csv").status_code == 302


def test_printable_results_sheet_shows_places_prizes_and_the_deal(seated_tournament, director):
    t = seated_tournament
    _bust_down_to(t, 5, director)
    services.registration_close(tournament_id=t.pk, actor=director)
    left = _seated(t)
    money.deal_record(
        tournament_id=t.pk,
        amounts=dict(zip([e.pk for e in left], [30000, 25000, 20000, 15000, 10000], strict=True)),
        method="custom",
        agreed=[e.pk for e in left],
        actor=director,
    )
    x, y = left[-2:]
    services.elimination_record(
        tournament_id=t.pk, busts=[(x.pk, 500), (y.pk, 500)], actor=director
    )
    names = list(
        Entry.objects.filter(pk__in=[e.pk for e in left[:3]])
        .order_by("number")
        .values_list("player__name", flat=True)
    )

    r = _logged_in(director).get(f"/td/{t.pk}/results/print/")

    assert r.status_code == 200
    html = r.content.decode()
    assert "@media print" in html
    assert "Friday 50" in html and "1,000.00" in html  # the pool
    assert "4–5" in html  # the tie
    assert "150.00 (deal)" in html and "100.00 (deal)" in html
    assert html.index("Player 06") < html.index("Player 20")
    # The three still playing, with what they were agreed (RULES 8.3).
    agreed = html[html.index("Agreed deal") :]
    for name, amount in zip(names, ("300.00", "250.00", "200.00"), strict=True):
        assert f"<td>{name}</td>" in agreed and amount in agreed
        assert agreed.index(name) < agreed.index(amount)
