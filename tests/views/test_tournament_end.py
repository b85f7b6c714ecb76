"""Issue 31 items 3 and 10, through the screens: at the last bust the TV and the phone show
the winner and the final results (deal amounts included), the TV's payouts follow a recorded
deal, the dashboard offers the results, the desk and the API stop registering; the phone's
find-my-seat finds the players out and the winner with their place and prize."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tourney import services
from tourney.models import Entry, Tournament
from tourney.services import money
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db

NAMES = ["Ann Lee", "Bob Stone", "Cy Diaz", "Gina Hall", "Ed Fox", "Flo Grey"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def event(director):
    """Six players at 100.00; four paid (40/30/20/10 %: 240, 180, 120, 60); registration
    closed; Flo, Ed and Gina out (6th, 5th, 4th). Three left: Ann, Bob, Cy."""
    t = services.tournament_create(
        actor=director, name="Friday 100", tables=1, seats_per_table=9, seed=4, buy_in=10000
    )
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    e = {n: services.entry_register(tournament_id=t.pk, name=n, actor=director) for n in NAMES}
    services.registration_close(tournament_id=t.pk, actor=director)
    money.payouts_set(tournament_id=t.pk, percentages=[4000, 3000, 2000, 1000], actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    for n in ("Flo Grey", "Ed Fox", "Gina Hall"):
        services.elimination_record(tournament_id=t.pk, busts=[(e[n].pk, 100)], actor=director)
    t.refresh_from_db()
    return t, e


def _deal(t, e, director):
    amounts = {e["Ann Lee"].pk: 20000, e["Bob Stone"].pk: 19000, e["Cy Diaz"].pk: 15000}
    money.deal_record(
        tournament_id=t.pk, amounts=amounts, method="custom", agreed=list(amounts), actor=director
    )


def _finish(t, e, director):
    for n in ("Cy Diaz", "Bob Stone"):
        services.elimination_record(tournament_id=t.pk, busts=[(e[n].pk, 100)], actor=director)


def _state(client, t):
    cache.clear()  # the ETag a screen polled a moment ago is kept for a second
    r = client.get(reverse("tourney-display-state", args=[t.display_token]))
    assert r.status_code == 200
    return r.json()


def test_the_state_says_finished_with_the_winner_and_the_results(client, event, director):
    t, e = event
    before = _state(client, t)
    assert before["finished"] is False and before["results"] == []
    assert before["status"] == "running"
    _deal(t, e, director)
    _finish(t, e, director)
    s = _state(client, t)
    assert s["finished"] is True
    assert s["status"] == "finished"
    assert [(r["place_text"], r["name"], r["prize"], r["deal"]) for r in s["results"]] == [
        ("1st", "Ann Lee", "200.00", True),
        ("2nd", "Bob Stone", "190.00", True),
        ("3rd", "Cy Diaz", "150.00", True),
        ("4th", "Gina Hall", "60.00", False),
        ("5th", "Ed Fox", "", False),
        ("6th", "Flo Grey", "", False),
    ]


def test_the_payouts_follow_the_recorded_deal_while_play_goes_on(client, event, director):
    t, e = event
    assert [(p["places"], p["amount"]) for p in _state(client, t)["payouts"]] == [
        ("1", "240"),
        ("2", "180"),
        ("3", "120"),
        ("4", "60"),
    ]
    _deal(t, e, director)
    services.elimination_record(tournament_id=t.pk, busts=[(e["Cy Diaz"].pk, 100)], actor=director)
    payouts = _state(client, t)["payouts"]
    assert [(p["places"], p.get("name"), p["amount"]) for p in payouts] == [
        ("Deal", "Ann Lee", "200"),
        ("Deal", "Bob Stone", "190"),
        ("3", "Cy Diaz", "150"),
        ("4", None, "60"),
    ]
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert '<span class="who">Bob Stone</span><span class="amount">190</span>' in html


def test_the_tv_shows_the_winner_and_the_results_instead_of_the_clock(client, event, director):
    t, e = event
    _deal(t, e, director)
    _finish(t, e, director)
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert 'id="results-view"' in html
    assert re.search(r'id="winner-name" class="winner-name">Ann Lee<', html)
    assert "200.00 <small>deal</small>" in html
    assert re.search(r'id="clock-view" class="view clock-view" aria-label="Clock" hidden', html)
    assert re.search(r'<span id="badge-final" class="badge badge-final" hidden>', html)
    places = html.split('id="results"')[1].split("</ol>")[0]
    assert re.findall(r'class="place">([^<]+)<', places) == ["2nd", "3rd", "4th", "5th", "6th"]
    embedded = re.search(r'id="display-state" type="application/json">(.*?)</script>', html, re.S)
    assert json.loads(embedded.group(1))["finished"] is True


def test_the_phone_shows_the_winner_and_the_results(client, event, director):
    t, e = event
    _finish(t, e, director)
    html = client.get(reverse("tourney-player", args=[t.display_token])).content.decode()
    final = html.split('id="final-results"')[1].split("</section>")[0]
    assert 'id="winner-name" class="winner-name">Ann Lee<' in final
    assert "240.00" in final  # no deal: first place's prize
    assert '<span class="who">Gina Hall</span><span class="amount">60.00</span>' in final
    assert re.search(r'<section class="p-clock" aria-label="Clock" hidden>', html)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("gina hall", 'Out in <b>4th</b> place · <b class="prize">60.00</b>'),
        ("flo", "Out in <b>6th</b> place</p>"),
    ],
)
def test_find_my_seat_finds_the_players_out_with_place_and_prize(client, event, query, expected):
    t, _ = event
    r = client.get(reverse("tourney-player-find", args=[t.display_token]), {"name": query})
    assert r.status_code == 200
    html = r.content.decode()
    assert "No player" not in html
    assert expected in html


def test_find_my_seat_finds_the_winner_and_a_deal(client, event, director):
    t, e = event
    _deal(t, e, director)
    _finish(t, e, director)
    html = client.get(
        reverse("tourney-player", args=[t.display_token]), {"name": "ann lee"}
    ).content.decode()
    card = html.split('id="find-results"')[1]
    assert '<article class="seat-card is-out is-winner">' in card
    assert '<b>Winner</b> · <b class="prize">200.00</b> (deal)' in card


def test_find_my_seat_says_a_place_is_so_far_while_registration_is_open(client, director):
    t = services.tournament_create(actor=director, name="Open", tables=1, seed=1, buy_in=1000)
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    a, *_ = (services.entry_register(tournament_id=t.pk, name=n, actor=director) for n in NAMES[:4])
    services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 100)], actor=director)
    html = client.get(
        reverse("tourney-player-find", args=[t.display_token]), {"name": "ann lee"}
    ).content.decode()
    assert "Out in <b>4th</b> place" in html
    assert "Place so far" in html


def test_the_dashboard_offers_the_results_once_finished(client, event, director):
    t, e = event
    client.force_login(director)
    url = reverse("tourney-dashboard", args=[t.pk])
    html = client.get(url).content.decode()
    assert 'id="tournament-over"' not in html
    _finish(t, e, director)
    html = client.get(url).content.decode()
    over = html.split('id="tournament-over"')[1].split("</div>")[0]
    assert "winner <b>Ann Lee</b>" in over
    assert reverse("tourney-results-print", args=[t.pk]) in over
    assert reverse("tourney-results-csv", args=[t.pk]) in over
    clock = html.split('id="clock"')[1].split("</section>")[0]
    assert 'value="pause"' not in clock and 'value="resume"' not in clock
    assert "Stopped at the last elimination" in clock and "Last item" not in clock


def test_the_desk_stops_offering_registration_once_finished(client, event, director, desk_clerk):
    t, e = event
    _finish(t, e, director)
    client.force_login(desk_clerk)
    html = client.get(reverse("tourney-desk", args=[t.pk])).content.decode()
    assert "Tournament over" in html
    assert 'id="register-form"' not in html
    assert 'id="desk-over"' in html
    r = client.post(reverse("tourney-desk-register", args=[t.pk]), {"name": "Late Larry"})
    assert r.status_code == 409
    assert services.MSG_REGISTER_FINISHED in r.content.decode()
    assert not Entry.objects.filter(tournament=t, player__name="Late Larry").exists()


def test_the_api_refuses_registration_once_finished(event, director, director_api):
    t, e = event
    _finish(t, e, director)
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/entries", {"name": "Late Larry"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "tournament_finished"
    assert r.json()["error"]["message"] == services.MSG_REGISTER_FINISHED
    clock = director_api.get(f"/api/v1/tournaments/{t.pk}/clock").json()
    assert clock["status"] == "finished"
    assert Entry.objects.filter(tournament=t).count() == len(NAMES)


def test_undoing_the_last_bust_gives_the_screens_the_clock_back(client, event, director):
    t, e = event
    _finish(t, e, director)
    assert _state(client, t)["finished"] is True
    action_undo(tournament_id=t.pk, actor=director)
    s = _state(client, t)
    assert (s["finished"], s["results"], s["status"], s["players_left"]) == (
        False,
        [],
        "running",
        2,
    )
    html = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert 'id="results-view"' not in html
    assert re.search(r'id="clock-view" class="view clock-view" aria-label="Clock">', html)
