"""Issue 25, bounties on the director's dashboard (RULES 9): the bust's confirm step offers the
players at the table as the winner of the hand, each with a key; a bounty event refuses a bust
without a winner (the message in place, what was ticked kept); the payments to announce after
the bust, in the event log and its detail page; the bounty money in the money panel; the
Bounties column of the results sheet and the results CSV."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from tables.models import Seat
from tourney import services
from tourney.models import Entry, Event, Knockout, Tournament
from tourney.services.bounties import MSG_WINNER_IS_BUSTED, MSG_WINNERS_NEEDED
from tourney.views.dashboard import bounties as bounty_screens

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ann Lee", "Bob Marsh", "Carla Diaz", "Dev Patel", "Eve Stone")


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


def _event(director, kind: str = "progressive", **options) -> Tournament:
    t = services.tournament_create(
        actor=director,
        name="Thursday PKO",
        tables=1,
        seed=5,
        buy_in=8000,
        fee=1000,
        starting_stack=20000,
        options={"bounty_kind": kind, "bounty": 2000, **options} if kind != "none" else {},
    )
    for name in NAMES:
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    return t


@pytest.fixture
def pko(director) -> Tournament:
    return _event(director)


def _seat(t: Tournament, name: str) -> Seat:
    return Seat.objects.select_related("table", "entry").get(tournament=t, entry__player__name=name)


def _text(response) -> str:
    return re.sub(r"\s+", " ", strip_tags(response.content.decode()))


def _preview(td, t: Tournament, name: str):
    s = _seat(t, name)
    return td.post(
        url("tourney-dashboard-eliminations", t),
        {"table_1": str(s.table.number), "seat_1": str(s.number)},
        **HX,
    )


def _confirm(td, t: Tournament, name: str, winners=(), **extra):
    data = {"confirm": "1", "entry_1": str(_seat(t, name).entry_id), "stack_1": ""}
    data["winner"] = [str(_seat(t, w).entry_id) for w in winners]
    data.update(extra)
    return td.post(url("tourney-dashboard-eliminations", t), data, **HX)


# ---------------------------------------------------------------- the confirm step


def test_the_confirm_step_offers_the_players_at_the_table_keyed_by_seat(td, pko):
    r = _preview(td, pko, "Bob Marsh")
    assert r.status_code == 200
    html = r.content.decode()
    assert "Who won the hand?" in html
    for name in NAMES:
        s = _seat(pko, name)
        box = re.search(rf'<input type="checkbox" name="winner" value="{s.entry_id}"[^>]*>', html)
        if name == "Bob Marsh":
            assert box is None  # the player out cannot win the hand
        else:
            assert box is not None, name
            assert f'data-key="{s.number}"' in box.group(0)
            assert "checked" not in box.group(0)  # four players left: nobody guessed
    assert "bounty 20.00" in _text(r)  # the bounty on the busted player's head (PKO)
    assert "js/winners.js" in td.get(url("tourney-dashboard", pko)).content.decode()


def test_heads_up_the_only_other_player_is_ticked(td, director):
    t = _event(director)
    for name in ("Carla Diaz", "Dev Patel", "Eve Stone"):
        services.elimination_record(
            tournament_id=t.pk,
            busts=[(_seat(t, name).entry_id, None)],
            winners=[_seat(t, "Ann Lee").entry_id],
            actor=director,
        )
    html = _preview(td, t, "Bob Marsh").content.decode()
    ann = _seat(t, "Ann Lee").entry_id
    assert re.search(rf'name="winner" value="{ann}"[^>]* checked', html)


def test_a_bounty_bust_without_a_winner_is_refused_in_place(td, pko):
    bob = _seat(pko, "Bob Marsh")
    r = _confirm(td, pko, "Bob Marsh")
    assert r.status_code == 400
    html = r.content.decode()
    # the message inside the winners' fieldset, the confirm step still there
    fieldset = re.search(r'<fieldset class="winners invalid".*?</fieldset>', html, re.S).group(0)
    assert MSG_WINNERS_NEEDED.split(" (RULES")[0] in strip_tags(fieldset)
    assert 'aria-invalid="true"' in fieldset
    assert f'name="entry_1" value="{bob.entry_id}"' in html
    assert "Confirm 1 out" in html
    bob.entry.refresh_from_db()
    assert bob.entry.status == Entry.Status.SEATED
    assert not Event.objects.filter(tournament=pko, kind="elimination").exists()


def test_a_refused_bust_keeps_the_winners_ticked(td, pko):
    # Ann ticked as a winner of her own bust, with Carla: the service refuses (a player out
    # cannot win the hand); the step comes back with its message and both still ticked.
    ann, carla = _seat(pko, "Ann Lee").entry_id, _seat(pko, "Carla Diaz").entry_id
    r = _confirm(td, pko, "Ann Lee", winners=("Ann Lee", "Carla Diaz"))
    assert r.status_code == 400
    html = r.content.decode()
    fieldset = re.search(r'<fieldset class="winners invalid".*?</fieldset>', html, re.S).group(0)
    assert MSG_WINNER_IS_BUSTED in fieldset
    assert re.search(rf'name="winner" value="{carla}"[^>]* checked', html)
    assert f'name="winner" value="{ann}"' not in html  # the player out is no choice
    assert not Knockout.objects.filter(tournament=pko).exists()


def test_a_winner_that_is_no_entry_id_is_refused(td, pko):
    r = _confirm(td, pko, "Ann Lee", winners=("Carla Diaz",), winner_1="junk")
    assert r.status_code == 400
    assert bounty_screens.MSG_BAD_WINNER in r.content.decode()
    assert not Event.objects.filter(tournament=pko, kind="elimination").exists()


def test_a_pko_bust_with_its_winner_pays_and_announces(td, pko):
    ann = _seat(pko, "Ann Lee")
    r = _confirm(td, pko, "Bob Marsh", winners=("Ann Lee",))
    assert r.status_code == 200
    text = _text(r)
    assert (
        f"Pay 10.00 bounty to Ann Lee, seat {ann.number}, table {ann.table.number}; "
        "10.00 more on their head" in text
    )
    assert "(Bob Marsh's bounty)" in text
    ann.entry.refresh_from_db()
    assert (ann.entry.bounty_won, ann.entry.bounty) == (1000, 3000)
    ko = Knockout.objects.get(tournament=pko)
    assert (ko.winner_id, ko.cash, ko.to_head) == (ann.entry_id, 1000, 1000)


def test_a_split_pot_pays_each_winner(td, pko):
    ann, carla = _seat(pko, "Ann Lee"), _seat(pko, "Carla Diaz")
    r = _confirm(td, pko, "Bob Marsh", winners=("Ann Lee", "Carla Diaz"))
    assert r.status_code == 200
    text = _text(r)
    for s in (ann, carla):
        # RULES 9.5, 9.3: each takes half the 20.00, half of that in cash
        assert f"Pay 5.00 bounty to {s.entry.player.name}, seat {s.number}" in text
    assert Knockout.objects.filter(tournament=pko).count() == 2


def test_a_side_pot_winner_for_one_of_two_busted(td, pko, director):
    ann, carla = _seat(pko, "Ann Lee"), _seat(pko, "Carla Diaz")
    bob, dev = _seat(pko, "Bob Marsh"), _seat(pko, "Dev Patel")
    r = td.post(
        url("tourney-dashboard-eliminations", pko),
        {
            "table_1": str(bob.table.number),
            "seat_1": str(bob.number),
            "stack_1": "5000",
            "table_2": str(dev.table.number),
            "seat_2": str(dev.number),
            "stack_2": "9000",
        },
        **HX,
    )
    html = r.content.decode()
    assert 'name="winner_1"' in html and 'name="winner_2"' in html  # a side pot per row
    r = td.post(
        url("tourney-dashboard-eliminations", pko),
        {
            "confirm": "1",
            "entry_1": str(bob.entry_id),
            "stack_1": "5000",
            "entry_2": str(dev.entry_id),
            "stack_2": "9000",
            "winner": [str(ann.entry_id)],
            "winner_2": str(carla.entry_id),
        },
        **HX,
    )
    assert r.status_code == 200
    took = dict(Knockout.objects.filter(tournament=pko).values_list("busted", "winner"))
    assert took == {bob.entry_id: ann.entry_id, dev.entry_id: carla.entry_id}


def test_without_bounties_the_winner_is_optional_and_recorded(td, director):
    t = _event(director, kind="none")
    r = _preview(td, t, "Bob Marsh")
    assert "(optional)" in _text(r)
    r = _confirm(td, t, "Bob Marsh")
    assert r.status_code == 200
    assert _seat(t, "Ann Lee")  # still seated; Bob out with no knockout
    assert not Knockout.objects.filter(tournament=t).exists()
    r = _confirm(td, t, "Carla Diaz", winners=("Ann Lee",))
    assert r.status_code == 200
    assert "Carla Diaz knocked out by Ann Lee" in _text(r)
    ko = Knockout.objects.get(tournament=t)
    assert (ko.cash, ko.to_head) == (0, 0)


def test_a_fixed_bounty_is_paid_whole(td, director):
    t = _event(director, kind="fixed")
    ann = _seat(t, "Ann Lee")
    text = _text(_confirm(td, t, "Bob Marsh", winners=("Ann Lee",)))
    assert f"Pay 20.00 bounty to Ann Lee, seat {ann.number}, table {ann.table.number}" in text
    assert "on their head" not in text


def test_a_mystery_envelope_is_announced(td, director):
    t = _event(director, kind="mystery", mystery_from_players=9)
    Tournament.objects.filter(pk=t.pk).update(mystery_envelopes={"5000": 1, "1250": 4})
    ann = _seat(t, "Ann Lee")
    text = _text(_confirm(td, t, "Bob Marsh", winners=("Ann Lee",)))
    m = re.search(
        rf"Envelope of ([\d,.]+) drawn for Bob Marsh — pay to Ann Lee, seat {ann.number}, "
        rf"table {ann.table.number}",
        text,
    )
    assert m and m.group(1) in ("50.00", "12.50"), text


# ---------------------------------------------------------------- the log


def test_the_log_names_the_bounty_and_its_detail_lists_it(td, pko, director):
    _confirm(td, pko, "Bob Marsh", winners=("Ann Lee",))
    log = _text(td.get(url("tourney-dashboard-log", pko), **HX))
    assert "bounty 20.00 to Ann Lee" in log
    ev = Event.objects.get(tournament=pko, kind="elimination")
    detail = td.get(url("tourney-dashboard-log-event", pko, ev.pk))
    assert detail.status_code == 200
    row = re.search(
        r'<table class="list tight bounties">.*?</table>', detail.content.decode(), re.S
    )
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0))
    ann = _seat(pko, "Ann Lee")
    assert cells == [
        "Bob Marsh",
        "Ann Lee",
        f"T{ann.table.number} S{ann.number}",
        "10.00",
        "10.00",
        "",
    ]


def _text_of(html: str) -> str:
    return re.sub(r"\s+", " ", strip_tags(html))


def test_undo_takes_the_announcement_back(td, pko):
    _confirm(td, pko, "Bob Marsh", winners=("Ann Lee",))
    ev = Event.objects.get(tournament=pko, kind="elimination")
    r = td.post(url("tourney-dashboard-undo", pko), {"event": str(ev.pk)}, **HX)
    assert r.status_code == 200
    panel = _text(td.get(url("tourney-dashboard-eliminations", pko), **HX))
    assert "bounty to" not in panel
    assert not Knockout.objects.filter(tournament=pko).exists()
    assert _seat(pko, "Ann Lee").entry.bounty == 2000


# ---------------------------------------------------------------- money and results


def test_the_money_panel_shows_the_bounty_money(td, pko):
    _confirm(td, pko, "Bob Marsh", winners=("Ann Lee",))
    html = td.get(url("tourney-dashboard-money", pko), **HX).content.decode()
    box = re.search(r'<dl class="stats bounty-money".*?</dl>', html, re.S).group(0)
    # five bounties of 20.00 collected; 10.00 paid in cash; 90.00 on the heads still in
    assert "<dt>PKO bounties collected</dt><dd>100.00</dd>" in box
    assert "<dt>Bounties paid</dt><dd>10.00</dd>" in box
    assert "<dt>Bounties in play</dt><dd>90.00<small> on heads</small></dd>" in box


def test_no_bounty_money_without_bounties(td, director):
    t = _event(director, kind="none")
    html = td.get(url("tourney-dashboard", t)).content.decode()
    assert 'class="stats bounty-money"' not in html


def _finish_one(director, t: Tournament) -> None:
    services.elimination_record(
        tournament_id=t.pk,
        busts=[(_seat(t, "Bob Marsh").entry_id, None)],
        winners=[_seat(t, "Ann Lee").entry_id],
        actor=director,
    )


def test_the_results_sheet_has_a_bounties_column_and_totals(td, pko, director):
    _finish_one(director, pko)
    services.elimination_record(
        tournament_id=pko.pk,
        busts=[(_seat(pko, "Ann Lee").entry_id, None)],
        winners=[_seat(pko, "Carla Diaz").entry_id],
        actor=director,
    )
    r = td.get(url("tourney-results-print", pko))
    html = r.content.decode()
    assert '<th class="num">Bounties</th>' in html
    # Ann won 10.00 in cash before Carla took her 30.00 head (15.00 in cash)
    ann_row = re.search(r"<tr>\s*<td>\d+</td>\s*<td>Ann Lee</td>.*?</tr>", html, re.S).group(0)
    assert "10.00" in _text_of(ann_row)
    assert re.search(r'<tr class="total">.*?10\.00</th>', html, re.S)
    assert "Bounties collected" in html and "Bounties paid" in html


def test_the_results_csv_adds_bounties_last(td, pko, director):
    _finish_one(director, pko)
    rows = list(csv.reader(io.StringIO(td.get(url("tourney-results-csv", pko)).content.decode())))
    assert rows[0] == ["place", "place_to", "name", "entry_number", "prize", "deal", "bounties"]
    bob = next(r for r in rows[1:] if r[2] == "Bob Marsh")
    assert bob[-1] == "0.00"


def test_no_bounties_column_without_bounties(td, director):
    t = _event(director, kind="none")
    services.elimination_record(
        tournament_id=t.pk, busts=[(_seat(t, "Bob Marsh").entry_id, None)], actor=director
    )
    rows = list(csv.reader(io.StringIO(td.get(url("tourney-results-csv", t)).content.decode())))
    assert rows[0] == ["place", "place_to", "name", "entry_number", "prize", "deal"]
    assert "Bounties" not in td.get(url("tourney-results-print", t)).content.decode()


# ---------------------------------------------------------------- words


def test_payment_lines_of_a_last_player_and_a_split_envelope(pko):
    ann, carla, bob = (_seat(pko, n).entry_id for n in ("Ann Lee", "Carla Diaz", "Bob Marsh"))
    own = bounty_screens.payment_lines(
        pko, [{"busted": ann, "winner": ann, "cash": 6000, "to_head": 0, "name": ""}]
    )
    assert own[0]["text"] == "Ann Lee wins their own bounty: pay 60.00"
    split = bounty_screens.payment_lines(
        pko,
        [
            {"busted": bob, "winner": w, "cash": 2500, "to_head": 0, "envelope": 5000}
            | {"name": n, "table": 1, "seat": s}
            for w, n, s in ((ann, "Ann Lee", 2), (carla, "Carla Diaz", 5))
        ],
    )
    assert [x["text"] for x in split] == [
        "Envelope of 50.00 drawn for Bob Marsh — pay 25.00 to Ann Lee, seat 2, table 1 "
        "and 25.00 to Carla Diaz, seat 5, table 1"
    ]


# ---------------------------------------------------------------- the deal (RULES 9.10)


def _three_left(director) -> Tournament:
    t = _event(director)
    for name in ("Dev Patel", "Eve Stone"):
        services.elimination_record(
            tournament_id=t.pk,
            busts=[(_seat(t, name).entry_id, None)],
            winners=[_seat(t, "Ann Lee").entry_id],
            actor=director,
        )
    services.registration_close(tournament_id=t.pk, actor=director)
    return t


def _deal_form(t: Tournament) -> dict[str, str]:
    left = list(Entry.objects.filter(tournament=t, status="seated").order_by("pk"))
    stacks = {f"stack_{e.pk}": str(s) for e, s in zip(left, (60000, 25000, 15000), strict=True)}
    return {**stacks, **{f"agree_{e.pk}": "1" for e in left}}


def test_the_deal_form_offers_the_bounties_and_records_them(td, director):
    t = _three_left(director)
    form = _deal_form(t)
    quote = td.post(
        url("tourney-dashboard-deal", t), {k: v for k, v in form.items() if "stack" in k}, **HX
    )
    assert "Include the bounties still in play (each player takes their own)" in _text(quote)
    heads = dict(Entry.objects.filter(tournament=t, status="seated").values_list("pk", "bounty"))
    won = dict(Entry.objects.filter(tournament=t, status="seated").values_list("pk", "bounty_won"))
    r = td.post(
        url("tourney-dashboard-deal", t), {**form, "method": "icm", "include_bounties": "1"}, **HX
    )
    assert r.status_code == 200, _text(r)
    for e in Entry.objects.filter(tournament=t, status="seated"):
        assert (e.bounty, e.bounty_won) == (0, won[e.pk] + heads[e.pk])
    ev = Event.objects.get(tournament=t, kind="deal_recorded")
    assert ev.payload["include_bounties"] is True
    assert "the bounties in play included" in _text(td.get(url("tourney-dashboard-log", t), **HX))
    detail = td.get(url("tourney-dashboard-log-event", t, ev.pk)).content.decode()
    assert '<table class="list tight bounties">' in detail


def test_a_deal_without_the_box_leaves_the_bounties_in_play(td, director):
    t = _three_left(director)
    heads = dict(Entry.objects.filter(tournament=t, status="seated").values_list("pk", "bounty"))
    r = td.post(url("tourney-dashboard-deal", t), {**_deal_form(t), "method": "icm"}, **HX)
    assert r.status_code == 200
    after = dict(Entry.objects.filter(tournament=t, status="seated").values_list("pk", "bounty"))
    assert after == heads
    assert (
        Event.objects.get(tournament=t, kind="deal_recorded").payload["include_bounties"] is False
    )
