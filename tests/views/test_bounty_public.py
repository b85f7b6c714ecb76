"""Issue 25 on the public screens and at the desk: in a progressive knockout the display's
seating board shows each player's bounty and the clock view the biggest ones, the phone page a
player's own bounty and what they have won, the desk the price in its parts, the bounty on
the seat card (a new one for a re-entry) and the bounty money taken; a mystery event shows
its envelopes; an event without bounties shows none of it, at no extra query."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tourney import services
from tourney.models import Entry, Tournament
from tourney.selectors import desk as desk_reads
from tourney.selectors import display as public

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Ann Lee", "Bob Stone", "Carla Okafor", "Dmitri Novak", "Elena Garcia", "Farid Haddad"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _event(director, kind: str = "progressive", *, players=NAMES, **options) -> Tournament:
    """An event of 30.00 prize pool + 20.00 bounty + 5.00 fee (or 50.00 + 5.00 without)."""
    bounty = {"bounty_kind": kind, "bounty": 2000} if kind != "none" else {}
    t = services.tournament_create(
        actor=director,
        name="Thursday PKO" if kind != "none" else "Thursday Freezeout",
        tables=2,
        starting_stack=20000,
        buy_in=3000 if kind != "none" else 5000,
        fee=500,
        seed=5,
        options={"public_names": "full", **bounty, **options},
    )
    for name in players:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    t.refresh_from_db()
    return t


def _entry(t: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=t, player__name=name, status="seated")


def _knock_out(t: Tournament, busted: str, winner: str, director) -> Entry:
    """``winner`` busts ``busted`` in one hand (RULES 9.3); the winner's entry, refreshed."""
    w = _entry(t, winner)
    services.elimination_record(
        tournament_id=t.pk, busts=[(_entry(t, busted).pk, 20000)], winners=[w.pk], actor=director
    )
    w.refresh_from_db()
    return w


def _state(client: Client, t: Tournament) -> dict:
    public.forget_version(t.display_token)
    return client.get(reverse("tourney-display-state", args=[t.display_token])).json()


def _page(client: Client, name: str, t: Tournament, query: str = "") -> str:
    path = reverse(name, args=[t.display_token])
    return client.get(f"{path}?name={query}" if query else path).content.decode()


def _desk(client: Client, t: Tournament, name: str = "tourney-desk", *args) -> str:
    return client.get(reverse(name, args=[t.pk, *args]), **HTMX).content.decode()


# ---------------------------------------------------------------- the TV display


def test_pko_display_shows_each_head_and_the_biggest_bounties(client, director):
    t = _event(director)
    ann = _knock_out(t, "Bob Stone", "Ann Lee", director)
    assert (ann.bounty, ann.bounty_won) == (3000, 1000)  # 20.00 taken: half cash, half head

    state = _state(client, t)
    board = {row[0]: row for row in state["seating"]}
    assert "Bob Stone" not in board
    assert board["Ann Lee"][4] == "30" and board["Carla Okafor"][4] == "20"
    assert all(len(row) == 5 for row in state["seating"])
    panel = state["bounties"]
    assert panel["kind"] == "progressive" and panel["heads"] is True
    assert panel["title"] == "Biggest bounties"
    seat = ann.seat
    assert panel["biggest"] == [
        {"name": "Ann Lee", "table": seat.table.number, "seat": seat.number, "amount": "30"}
    ]  # only the heads that grew: the others still carry the starting 20
    assert panel["note"] == "Start 20 · 50% cash, 50% on the head"

    html = _page(client, "tourney-display", t)
    assert 'class="board has-bounties"' in html
    assert '<span class="who">Ann Lee</span><span class="bty">30</span>' in html
    assert '<span class="who">Carla Okafor</span><span class="bty">20</span>' in html
    assert 'id="bounty-title">Biggest bounties<' in html
    assert re.search(r'<span class="who">Ann Lee</span><span class="where">T\d+ S\d+</span>', html)
    assert '<span class="amount">30</span>' in html


def test_final_results_show_the_bounties_won_apart_from_the_prizes(client, director):
    # RULES 9.8, 9.9: the winner takes their own bounty; each row shows its bounties won
    t = _event(director, players=NAMES[:3])
    _knock_out(t, "Carla Okafor", "Ann Lee", director)  # Ann: 10.00 cash, 30.00 on her head
    _knock_out(t, "Bob Stone", "Ann Lee", director)  # 20.00 more, then her own 40.00
    ann = Entry.objects.get(tournament=t, player__name="Ann Lee")
    assert (ann.place, ann.bounty_won) == (1, 6000)
    tv = _page(client, "tourney-display", t)
    assert '<p class="winner-bounties">+ 60.00 in bounties</p>' in tv
    phone = _page(client, "tourney-player", t)
    assert '<p class="winner-bounties">+ 60.00 in bounties</p>' in phone
    plain = _event(director, "none", players=NAMES[:2])
    services.elimination_record(
        tournament_id=plain.pk, busts=[(_entry(plain, "Bob Stone").pk, None)], actor=director
    )
    assert "bounties" not in _page(client, "tourney-display", plain).split("results-view")[1]


def test_pko_before_any_knockout_says_where_every_bounty_starts(client, director):
    t = _event(director)
    panel = _state(client, t)["bounties"]
    assert panel["biggest"] == []
    assert panel["note"] == "Every bounty starts at 20 · 50% cash"
    html = _page(client, "tourney-display", t)
    assert 'id="bounty-list" class="bounty-list" hidden' in html
    assert ">Every bounty starts at 20 · 50% cash<" in html


def test_biggest_bounties_are_the_five_biggest_heads_biggest_first(client, director):
    names = [f"Player {i:02d}" for i in range(1, 15)]
    t = _event(director, players=names)
    # Player 01 busts 02 and 03, Player 04 busts 05, ... each a hand of its own.
    _knock_out(t, "Player 02", "Player 01", director)
    _knock_out(t, "Player 03", "Player 01", director)
    for busted, winner in [(5, 4), (7, 6), (9, 8), (11, 10), (13, 12)]:
        _knock_out(t, f"Player {busted:02d}", f"Player {winner:02d}", director)
    panel = _state(client, t)["bounties"]
    shown = [(h["name"], h["amount"]) for h in panel["biggest"]]
    assert shown == [
        ("Player 01", "40"),
        ("Player 04", "30"),
        ("Player 06", "30"),
        ("Player 08", "30"),
        ("Player 10", "30"),
    ]


def test_fixed_bounty_display_shows_the_bounty_on_every_head(client, director):
    t = _event(director, "fixed")
    ann = _knock_out(t, "Bob Stone", "Ann Lee", director)
    assert (ann.bounty, ann.bounty_won) == (2000, 2000)  # RULES 9.2: the head stays
    state = _state(client, t)
    assert {row[4] for row in state["seating"]} == {"20"}
    panel = state["bounties"]
    assert panel["figures"] == [{"label": "On every head", "value": "20"}]
    assert panel["biggest"] == []


def test_mystery_display_shows_the_envelopes_left_and_no_heads(client, director):
    t = _event(director, "mystery", mystery_envelopes={"5000": 1, "1000": 5, "500": 2})
    state = _state(client, t)
    assert all(len(row) == 4 for row in state["seating"])  # nobody has a bounty on the head
    panel = state["bounties"]
    assert panel["heads"] is False
    assert panel["figures"] == [
        {"label": "Envelopes left", "value": "8"},
        {"label": "In envelopes", "value": "110"},
    ]
    assert panel["note"] == "Top envelope 50"  # 6 players left: at the stage of 9 already
    Tournament.objects.filter(pk=t.pk).update(mystery_from_players=3)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)  # a new version
    note = _state(client, t)["bounties"]["note"]
    assert note == "Top envelope 50 · from 3 players left"
    html = _page(client, "tourney-display", t)
    assert 'class="board"' in html and "has-bounties" not in html
    assert 'class="bty"' not in html
    assert "<dt>Envelopes left</dt><dd>8</dd>" in html


def test_an_event_without_bounties_shows_none_at_no_extra_query(client, director):
    plain = _event(director, "none")
    pko = _event(director)
    _knock_out(pko, "Bob Stone", "Ann Lee", director)
    _knock_out(plain, "Bob Stone", "Ann Lee", director)
    state = _state(client, plain)
    assert "bounties" not in state
    assert all(len(row) == 4 for row in state["seating"])
    for name in ("tourney-display", "tourney-player"):
        html = _page(client, name, plain)
        assert "ounty" not in html and "bty" not in html, name

    def queries(t: Tournament) -> int:
        t.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            public.build_state(t)
        return len(ctx.captured_queries)

    # The heads come with the seating board's own query, the envelopes with the row.
    assert queries(pko) == queries(plain)
    mystery = _event(director, "mystery", mystery_envelopes={"1000": 12})
    assert queries(mystery) == queries(plain)


# ---------------------------------------------------------------- the phone page


def test_phone_find_shows_my_bounty_and_what_i_won(client, director):
    t = _event(director)
    _knock_out(t, "Bob Stone", "Ann Lee", director)
    html = _page(client, "tourney-player", t, "Ann Lee")
    assert 'Your bounty <b class="bounty-head">30</b>' in html
    assert 'Bounties won <b class="bounty-won">10</b>' in html
    # Out: no head any more, what they won stays.
    bob = _page(client, "tourney-player", t, "Bob Stone")
    assert "bounty-head" not in bob
    assert 'Bounties won <b class="bounty-won">0</b>' in bob
    # The fragment the page refreshes says the same.
    frag = client.get(
        reverse("tourney-player-find", args=[t.display_token]), {"name": "Ann Lee"}
    ).content.decode()
    assert 'class="bounty-head">30<' in frag
    # And the phone's panel lists the biggest bounties as the TV does.
    assert 'id="bounty-title">Biggest bounties<' in html


def test_phone_find_in_a_mystery_event_shows_bounties_won_only(client, director):
    t = _event(director, "mystery", mystery_envelopes={"2000": 6})
    html = _page(client, "tourney-player", t, "Ann Lee")
    assert "bounty-head" not in html
    assert 'Bounties won <b class="bounty-won">0</b>' in html


def test_phone_find_without_bounties_says_nothing_of_them(client, director):
    t = _event(director, "none")
    html = _page(client, "tourney-player", t, "Ann Lee")
    assert "Table <b" in html
    assert "ounty" not in html


# ---------------------------------------------------------------- the desk


def test_desk_shows_the_price_in_its_parts(client, director):
    t = _event(director, players=[])
    client.force_login(director)
    html = _desk(client, t)
    assert (
        'Price <b>55.00</b> = <b>30.00</b> prize pool + <b class="bounty-part">20.00</b> bounty'
        " + <b>5.00</b> fee" in html
    )
    assert "Progressive knockout (PKO)" in html
    assert desk_reads.desk_status(t)["price"] == "55.00"


def test_desk_registration_prints_the_parts_and_the_starting_bounty(client, director):
    t = _event(director, players=[])
    client.force_login(director)
    r = client.post(reverse("tourney-desk-register", args=[t.pk]), {"name": "Ann Lee"}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Your bounty" in html and 'data-testid="card-starting-bounty">20.00<' in html
    assert "Paid <b>55.00</b> = 30.00 prize pool + 20.00 bounty + 5.00 fee" in html
    e = Entry.objects.get(tournament=t, player__name="Ann Lee")
    assert (e.paid, e.bounty_paid, e.fee_paid, e.bounty) == (3000, 2000, 500, 2000)


def test_desk_re_entry_carries_a_new_bounty_and_says_so(client, director):
    t = _event(director, players=["Ann Lee", "Bob Stone", "Carla Okafor"], reentries_allowed=1)
    _knock_out(t, "Bob Stone", "Ann Lee", director)
    client.force_login(director)
    bob = Entry.objects.get(tournament=t, player__name="Bob Stone")
    side = _desk(client, t, "tourney-desk-side")
    assert 'data-action="reenter">Re-enter <small class="btn-hint">new bounty 20.00</small>' in side
    search = client.get(
        reverse("tourney-desk-search", args=[t.pk]), {"q": "Bob"}, **HTMX
    ).content.decode()
    assert "1 re-entry left · new bounty 20.00" in search

    r = client.post(reverse("tourney-desk-reenter", args=[t.pk, bob.pk]), follow=True)
    html = r.content.decode()
    again = Entry.objects.filter(tournament=t, player__name="Bob Stone").latest("number")
    assert again.pk != bob.pk and (again.bounty, again.bounty_paid) == (2000, 2000)
    assert f"Re-entered #{again.number} Bob Stone: " in html
    assert "A new bounty of 20.00 on their head." in html
    assert "New bounty</span> <b" in html and "re-entry" in html


def test_desk_totals_take_the_bounty_and_show_the_bounty_money(client, director):
    t = _event(director, players=[])
    client.force_login(director)
    for name in ("Ann Lee", "Bob Stone", "Carla Okafor"):
        client.post(reverse("tourney-desk-register", args=[t.pk]), {"name": name})
    _knock_out(t, "Bob Stone", "Ann Lee", director)
    totals = desk_reads.desk_totals(t)
    assert totals["total"]["money"] == 3 * 5500  # the price with its bounty part
    assert totals["total"]["bounty"] == 3 * 2000
    assert totals["bounty_collected"] == "60.00"
    assert totals["bounty_paid_out"] == "10.00"  # Ann's cash half of Bob's bounty
    assert totals["bounty_in_play"] == "50.00"  # Ann's 30 and Carla's 20
    side = _desk(client, t, "tourney-desk-side")
    assert "<th>of it bounties</th>" in side
    assert '<td>165.00</td><td class="bounty-part">60.00</td>' in side
    assert 'data-testid="bounty-collected">60.00<' in side


def test_desk_without_bounties_is_as_before(client, director):
    t = _event(director, "none", players=[], reentries_allowed=1)
    client.force_login(director)
    html = _desk(client, t)
    assert '<li class="pill">Buy-in <b>50.00</b> + <b>5.00</b></li>' in html
    r = client.post(reverse("tourney-desk-register", args=[t.pk]), {"name": "Ann Lee"}, **HTMX)
    card = r.content.decode()
    assert "sc-bounty" not in card and "bounty" not in card.lower()
    side = _desk(client, t, "tourney-desk-side")
    assert "bount" not in side.lower()
    assert desk_reads.desk_status(t)["price"] == "55.00"
    assert desk_reads.desk_totals(t)["bounties"] is False
