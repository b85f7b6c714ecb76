"""Issue 10: undo (and redo) of the last actions in reverse order, exactly."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
import time_machine
from django.forms.models import model_to_dict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services as ts
from tables.models import Move, Seat, Table
from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.core import events
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Knockout, Level, Player, Tournament
from tourney.selectors.bounties import bounty_totals
from tourney.services import accounts, money, setup
from tourney.services.undo import (
    MSG_CANNOT_UNDO,
    action_redo,
    action_undo,
    event_changes,
    undo_target,
)

from ..threads import at_once
from .test_table_players import assert_table_players_true

pytestmark = pytest.mark.django_db


def _rows(model, keys, **where) -> list:
    """Every row of ``model`` as ``model_to_dict`` (every stored field), with ids replaced by
    what a director sees (entry and table numbers, player names): a redo creates new ids."""
    out = []
    for row in model.objects.filter(**where):
        d = model_to_dict(row)
        d.pop("id", None)
        d.pop("tournament", None)
        for field, key in keys.items():
            if field in d:
                d[field] = key(d[field])
        out.append(sorted(d.items(), key=lambda kv: kv[0]))
    return sorted(out, key=str)


def snapshot(t: Tournament, *, times: bool = True) -> dict:
    """The whole state of a tournament: every stored field of the tournament (its version
    aside: screens poll it, it only grows), its entries, seats, tables, moves and structure
    levels, and the players (ids and the log excluded)."""
    t = Tournament.objects.get(pk=t.pk)
    assert_table_players_true(t)
    entry_no = dict(Entry.objects.filter(tournament=t).values_list("pk", "number"))
    table_no = dict(Table.objects.filter(tournament=t).values_list("pk", "number"))
    player = dict(Player.objects.values_list("pk", "name"))
    tournament = model_to_dict(t)
    tournament.pop("version")
    tournament.pop("id")
    # bust_hand is the elimination event's id (a redo's is new): keep which busts share a
    # hand and in what order (RULES 3.2), not the number.
    hands = sorted(
        set(Entry.objects.filter(tournament=t).values_list("bust_hand", flat=True)) - {None}
    )
    hand_no = {h: i for i, h in enumerate(hands)}
    entries = _rows(
        Entry, {"player": player.get, "bust_hand": lambda h: hand_no.get(h)}, tournament=t
    )
    if not times:  # busted_at: when the elimination was done, which a later redo changes
        entries = [[kv for kv in row if kv[0] != "busted_at"] for row in entries]
    return {
        "t": tournament,
        "entries": entries,
        "seats": _rows(Seat, {"entry": entry_no.get, "table": table_no.get}, tournament=t),
        "tables": _rows(Table, {}, tournament=t),
        "moves": _rows(Move, {"entry": entry_no.get, "event": bool}, tournament=t),
        "levels": _rows(Level, {}, tournament=t),
        "players": sorted(player.values()),
        # RULES 9.11: who knocked out whom, and the bounty money each took
        "knockouts": _rows(
            Knockout,
            {"busted": entry_no.get, "winner": entry_no.get, "hand": hand_no.get},
            tournament=t,
        ),
    }


def test_undo_an_elimination_restores_places_seats_tables_and_moves(director):
    t = services.tournament_create(
        actor=director, name="U", tables=3, seats_per_table=4, seed=3, buy_in=1000
    )
    e = [
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director) for i in range(9)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = snapshot(t)
    r = services.elimination_record(tournament_id=t.pk, busts=[(e[0].pk, 500), (e[1].pk, 500)])
    assert r["moves"]  # a table broke: moves and a redraw happened
    assert snapshot(t) != before
    out = action_undo(tournament_id=t.pk, actor=director)
    assert out["kind"] == "elimination"
    assert snapshot(t) == before
    assert Event.objects.get(pk=out["undid"]).undone
    # redo replays the same draw
    action_redo(tournament_id=t.pk, actor=director)
    after_redo = snapshot(t, times=False)
    action_undo(tournament_id=t.pk, actor=director)
    assert snapshot(t) == before
    action_redo(tournament_id=t.pk, actor=director)
    assert snapshot(t, times=False) == after_redo


def test_undo_goes_back_action_by_action_and_then_refuses(director):
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    s0 = snapshot(t)
    a = services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    s1 = snapshot(t)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    s3 = snapshot(t)
    ts.table_set_button(tournament_id=t.pk, table_number=1, seat=Seat.objects.get(entry=a).number)
    action_undo(tournament_id=t.pk)
    assert snapshot(t) == s3
    action_undo(tournament_id=t.pk)  # clock start (and its button draw)
    action_undo(tournament_id=t.pk)
    assert snapshot(t) == s1
    action_undo(tournament_id=t.pk)
    assert snapshot(t) == s0
    with pytest.raises(DomainError) as err:
        action_undo(tournament_id=t.pk)
    assert err.value.code == "nothing_to_undo"


def test_redo_is_refused_after_a_new_action(director):
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    action_undo(tournament_id=t.pk)
    services.entry_register(tournament_id=t.pk, name="Cy", actor=director)
    with pytest.raises(DomainError) as err:
        action_redo(tournament_id=t.pk)
    assert err.value.code == "nothing_to_redo"


# What _act can do to a tournament (tests/services/test_backup.py draws from them too).
ACTION_KINDS = (
    "register",
    "bust",
    "bust2",
    "button",
    "move",
    "pause",
    "next",
    "previous",
    "adjust",
    "jump",
    "rebuy",
    "addon",
    "reenter",
)
ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(ACTION_KINDS),
        st.integers(0, 10**6),
        st.booleans(),  # then undo and redo it at once: the same state again
    ),
    min_size=1,
    max_size=12,
)


def money_tournament(director) -> Tournament:
    """Rebuys, an add-on in the first level (``addon_at=0``) and re-entries (RULES 4.4), and
    progressive knockouts (RULES 9.3)."""
    return services.tournament_create(
        actor=director,
        name="H",
        tables=2,
        seats_per_table=4,
        seed=9,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        levels=TWO_LEVELS,
        options={
            "reentries_allowed": 3,
            "rebuy_price": 4000,
            "rebuy_chips": 10000,
            "addon_at": 0,
            "addon_price": 3000,
            "addon_chips": 15000,
            "added_money": 10000,
            "bounty_kind": "progressive",
            "bounty": 2001,  # odd: the cash share rounds (RULES 9.3)
        },
    )


def bounty_money_conserved(t: Tournament) -> None:
    """RULES 9.1: every entry's bounty part is paid to someone or still on a head."""
    totals = bounty_totals(Tournament.objects.get(pk=t.pk))
    assert totals["collected"] == totals["paid"] + totals["on_heads"] + totals["in_envelopes"]
    assert not Entry.objects.filter(tournament=t, status="busted", bounty__gt=0).exists()


def _act(t: Tournament, director, kind: str, rng: random.Random) -> bool:
    """One action of ``kind``; False when it does not apply to the state (nothing done)."""
    entries = Entry.objects.filter(tournament=t).order_by("pk")
    seated = list(entries.filter(status="seated").values_list("pk", flat=True))
    busted = list(entries.filter(status="busted").values_list("pk", flat=True))
    tid = t.pk
    if kind == "register":
        services.entry_register(tournament_id=tid, name=f"R{rng.random()}", actor=director)
    elif kind in ("bust", "bust2") and len(seated) > 2:
        k = 2 if kind == "bust2" and len(seated) > 3 else 1
        busts = [(pk, rng.choice([100, 200])) for pk in rng.sample(seated, k)]
        left = [pk for pk in seated if pk not in {b[0] for b in busts}]
        winners = rng.sample(left, rng.choice([1, 1, 2]) if len(left) > 1 else 1)
        services.elimination_record(tournament_id=tid, busts=busts, winners=winners, actor=director)
    elif kind == "button":
        table = rng.choice(list(Table.objects.filter(tournament=t, status="open")))
        ts.table_set_button(
            tournament_id=tid,
            table_number=table.number,
            seat=rng.randint(1, table.seats),
            actor=director,
        )
    elif kind == "move" and seated:
        table = rng.choice(list(Table.objects.filter(tournament=t, status="open")))
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        free = [s for s in range(1, table.seats + 1) if s not in taken]
        if not free:
            return False
        ts.move_manual(
            tournament_id=tid,
            entry_id=rng.choice(seated),
            table_number=table.number,
            seat=rng.choice(free),
            actor=director,
        )
    elif kind == "pause":
        action = "pause" if Tournament.objects.get(pk=tid).clock_running else "resume"
        services.clock_action(tournament_id=tid, action=action, actor=director)
    elif kind in ("next", "previous"):
        services.clock_action(tournament_id=tid, action=kind, actor=director)
    elif kind == "adjust":
        seconds = rng.randint(-300, 300)
        services.clock_action(tournament_id=tid, action="adjust", seconds=seconds, actor=director)
    elif kind == "jump":
        index = rng.randint(0, len(TWO_LEVELS) - 1)
        services.clock_action(tournament_id=tid, action="jump", index=index, actor=director)
    elif kind == "rebuy" and seated:
        money.entry_rebuy(tournament_id=tid, entry_id=rng.choice(seated), actor=director)
    elif kind == "addon" and seated:
        money.entry_addon(tournament_id=tid, entry_id=rng.choice(seated), actor=director)
    elif kind == "reenter" and busted:
        services.entry_reenter(tournament_id=tid, entry_id=rng.choice(busted), actor=director)
    else:
        return False
    return True


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_random_actions_undone_in_reverse_restore_every_snapshot(director, actions):
    """Issue 10: random actions (the clock's included), some undone and redone at once; then
    everything undone in reverse, each step back to the whole state before that action."""
    # The clock stands still within a step (a redo then replays at the same moment) and
    # moves on between steps.
    with time_machine.travel(datetime(2026, 5, 1, 18, tzinfo=UTC), tick=False) as clock:
        t = money_tournament(director)
        for i in range(7):
            services.entry_register(tournament_id=t.pk, name=f"S{i}", actor=director)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
        snaps = []
        for kind, n, redo in actions:
            clock.shift(n % 97)
            rng = random.Random(n)
            before = snapshot(t)
            try:
                if not _act(t, director, kind, rng):
                    continue
            except DomainError:
                assert snapshot(t) == before  # a refusal changes nothing
                continue
            snaps.append(before)
            bounty_money_conserved(t)
            if redo:
                after = snapshot(t)
                action_undo(tournament_id=t.pk, actor=director)
                assert snapshot(t) == before
                action_redo(tournament_id=t.pk, actor=director)
                assert snapshot(t) == after
        for before in reversed(snaps):
            action_undo(tournament_id=t.pk, actor=director)
            assert snapshot(t) == before


def test_undo_of_an_add_on_gives_back_its_chips_and_money(director):
    """RULES 4.4: an add-on undone leaves the entry, the pool and the chips as before."""
    t = money_tournament(director)
    e = [
        services.entry_register(tournament_id=t.pk, name=f"A{i}", actor=director) for i in range(3)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = snapshot(t)
    money.entry_addon(tournament_id=t.pk, entry_id=e[0].pk, actor=director)
    e[0].refresh_from_db()
    assert (e[0].addons, e[0].chips_bought) == (1, 20000 + 15000)
    out = action_undo(tournament_id=t.pk, actor=director)
    assert out["kind"] == "entry_addon"
    assert snapshot(t) == before
    e[0].refresh_from_db()
    assert (e[0].addons, e[0].chips_bought) == (0, 20000)
    money.entry_addon(tournament_id=t.pk, entry_id=e[0].pk, actor=director)  # allowed again


def _bust_with_moves(director):
    t = services.tournament_create(
        actor=director, name="U", tables=3, seats_per_table=4, seed=3, buy_in=1000
    )
    e = [
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director) for i in range(9)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    before = snapshot(t)
    services.elimination_record(
        tournament_id=t.pk, busts=[(e[0].pk, 500), (e[1].pk, 500)], actor=director
    )
    return t, before


def test_announcing_the_moves_does_not_block_undo_of_the_elimination(director):
    """TOURNAMENT_DAY "bust the wrong player": undo, and everything it caused (RULES 7.4),
    also after the director ticked off the moves it caused."""
    t, before = _bust_with_moves(director)
    moves = list(Move.objects.filter(tournament=t).values_list("pk", flat=True))
    assert moves
    setup.move_mark_announced(tournament_id=t.pk, move_ids=moves, actor=director)
    out = action_undo(tournament_id=t.pk, actor=director)
    assert out["kind"] == "elimination"
    assert snapshot(t) == before
    assert not Move.objects.filter(tournament=t).exists()
    action_redo(tournament_id=t.pk, actor=director)  # redo walks past the bookkeeping too
    assert Entry.objects.filter(tournament=t, status="busted").count() == 2


def test_rotating_the_display_token_does_not_block_undo(director):
    t, before = _bust_with_moves(director)
    accounts.display_token_rotate(tournament_id=t.pk, actor=director)
    token = Tournament.objects.get(pk=t.pk).display_token
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "elimination"
    after = snapshot(t)
    assert after["t"]["display_token"] == token  # the new token stays: not an action
    after["t"]["display_token"] = before["t"]["display_token"]
    assert after == before


def test_a_copied_tournament_has_nothing_to_undo(director):
    src = services.tournament_create(actor=director, name="Src", tables=1, seed=1)
    t = setup.tournament_copy(source_id=src.pk, name="Next week", actor=director)
    with pytest.raises(DomainError) as err:
        action_undo(tournament_id=t.pk, actor=director)
    assert err.value.code == "nothing_to_undo"


def test_an_action_without_undo_record_is_refused_with_an_honest_message(director):
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    events.record_event(t, "hand_for_hand_round", {"round": 1}, director)
    with pytest.raises(DomainError) as err:
        action_undo(tournament_id=t.pk, actor=director)
    assert err.value.code == "cannot_undo"
    assert str(err.value.message) == MSG_CANNOT_UNDO.format(kind="hand_for_hand_round")
    assert "undo of its own" not in err.value.message
    assert Entry.objects.filter(tournament=t).count() == 1


def test_undo_and_redo_of_an_expected_event_act_once(director):
    """The screen says which event it undoes; a second click on the same button is stale."""
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    target = undo_target(Tournament.objects.get(pk=t.pk))
    action_undo(tournament_id=t.pk, actor=director, expected=target.pk)
    with pytest.raises(DomainError) as err:
        action_undo(tournament_id=t.pk, actor=director, expected=target.pk)
    assert err.value.code == "stale" and err.value.status == 409
    assert list(Entry.objects.filter(tournament=t).values_list("player__name", flat=True)) == [
        "Ann"
    ]
    action_redo(tournament_id=t.pk, actor=director, expected=target.pk)
    with pytest.raises(DomainError) as err:
        action_redo(tournament_id=t.pk, actor=director, expected=target.pk)
    assert err.value.code == "stale"
    assert Entry.objects.filter(tournament=t).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_redos_at_once_apply_the_rebuy_once(director):
    t = money_tournament(director)
    e = services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    money.entry_rebuy(tournament_id=t.pk, entry_id=e.pk, actor=director)
    action_undo(tournament_id=t.pk, actor=director)
    out = at_once(2, lambda: action_redo(tournament_id=t.pk, actor=director))
    assert sorted(type(x).__name__ for x in out) == ["DomainError", "dict"]
    assert [x.code for x in out if isinstance(x, DomainError)] == ["nothing_to_redo"]
    assert Entry.objects.get(pk=e.pk).rebuys == 1
    assert Event.objects.filter(tournament=t, kind="entry_rebuy", undone=False).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_undos_of_the_same_action_at_once_undo_it_once(director):
    t = money_tournament(director)
    e = services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    money.entry_rebuy(tournament_id=t.pk, entry_id=e.pk, actor=director)
    target = undo_target(Tournament.objects.get(pk=t.pk))
    out = at_once(2, lambda: action_undo(tournament_id=t.pk, actor=director, expected=target.pk))
    assert [x.code for x in out if isinstance(x, DomainError)] == ["stale"]
    assert [x["kind"] for x in out if isinstance(x, dict)] == ["entry_rebuy"]
    assert Entry.objects.get(pk=e.pk).rebuys == 0
    assert Tournament.objects.get(pk=t.pk).clock_started  # the start stays
    assert Event.objects.filter(tournament=t, kind="undo").count() == 1


def test_dashboard_undo_and_redo_buttons(client, director):
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    client.force_login(director)
    url = f"/td/{t.pk}/log/undo/"
    r = client.post(url)
    assert r.status_code == 302  # a plain form: back to the page
    assert not Entry.objects.filter(tournament=t).exists()
    r = client.post(url, {"redo": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and b"Event log" in r.content
    assert Entry.objects.filter(tournament=t, player__name="Ann").count() == 1
    r = client.post(url, HTTP_HX_REQUEST="true")
    r = client.post(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and b"There is nothing to undo." in r.content


def test_undo_is_for_directors_only(client, desk_clerk, tournament):
    client.force_login(desk_clerk)
    assert client.post(f"/td/{tournament.pk}/log/undo/").status_code == 403


def test_event_log_filters_and_exports_csv(client, director):
    t = services.tournament_create(actor=director, name="Log", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name='Ann, "the Rock"', actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    client.force_login(director)
    r = client.get(f"/td/{t.pk}/log/?kind=clock_start", HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Clock start" in body and "Entry #1" not in body
    r = client.get(f"/td/{t.pk}/log.csv")
    import csv
    import io

    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0] == ["id", "time", "actor", "kind", "undone", "details"]
    kinds = [row[3] for row in rows[1:]]
    assert kinds == ["clock_start", "entry_registered", "tournament_created"]
    assert all(row[2] in ("td", "system") for row in rows[1:])
    assert "undo" not in rows[1][5]
    r = client.get(f"/td/{t.pk}/log.csv?kind=entry_registered")
    assert [row[3] for row in csv.reader(io.StringIO(r.content.decode()))][1:] == [
        "entry_registered"
    ]


def test_log_detail_shows_the_state_before_and_after_an_action(client, director):
    """Issue 10 audit: "after" is worked out when the detail is opened — the next later
    action's before-image of the same row, else the row as it is now."""
    t = money_tournament(director)
    e = [
        services.entry_register(tournament_id=t.pk, name=f"D{i}", actor=director) for i in range(3)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    money.entry_rebuy(tournament_id=t.pk, entry_id=e[0].pk, actor=director)
    first = Event.objects.filter(tournament=t, kind="entry_rebuy").get()
    changes = {row["row"]: row["changes"] for row in event_changes(first)}
    assert ("rebuys", 0, 1) in changes["Entry #1 D0"]  # after: the row as it is now
    assert ("chips_bought", 20000, 30000) in changes["Entry #1 D0"]
    money.entry_rebuy(tournament_id=t.pk, entry_id=e[0].pk, actor=director)
    changes = {row["row"]: row["changes"] for row in event_changes(first)}
    assert ("rebuys", 0, 1) in changes["Entry #1 D0"]  # after: the second rebuy's before
    second = Event.objects.filter(tournament=t, kind="entry_rebuy").latest("pk")
    assert ("rebuys", 1, 2) in {r["row"]: r["changes"] for r in event_changes(second)}[
        "Entry #1 D0"
    ]
    action_undo(tournament_id=t.pk, actor=director)
    second.refresh_from_db()
    undone = {r["row"]: r["changes"] for r in event_changes(second)}
    assert ("rebuys", 1, "(undone)") in undone["Entry #1 D0"]
    client.force_login(director)
    r = client.get(f"/td/{t.pk}/log/{first.pk}/", HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert r.status_code == 200 and 'id="log-detail"' in body and "<html" not in body
    assert '<td class="before">0</td><td class="after">1</td>' in body
    assert client.get(f"/td/{t.pk}/log/{first.pk}/").status_code == 200  # a plain page too
    other = services.tournament_create(actor=director, name="Other", tables=1, seed=2)
    assert client.get(f"/td/{other.pk}/log/{first.pk}/").status_code == 404
    assert client.get(f"/td/{t.pk}/log/{10**30}/").status_code == 404


def test_log_detail_of_a_bookkeeping_event_says_it_has_no_before_image(client, director):
    t, _before = _bust_with_moves(director)
    moves = list(Move.objects.filter(tournament=t).values_list("pk", flat=True))
    setup.move_mark_announced(tournament_id=t.pk, move_ids=moves, actor=director)
    ev = Event.objects.get(tournament=t, kind="moves_announced")
    assert event_changes(ev) == []
    client.force_login(director)
    body = client.get(f"/td/{t.pk}/log/{ev.pk}/").content.decode()
    assert "keeps no before-image" in body
    bust = Event.objects.get(tournament=t, kind="elimination")
    rows = [r["row"] for r in event_changes(bust)]
    assert any(r.startswith("Seat of Entry") for r in rows)  # the busted players' seats


def test_the_undo_button_names_the_action_and_a_stale_click_is_refused(client, director):
    t = services.tournament_create(actor=director, name="U", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    client.force_login(director)
    body = client.get(f"/td/{t.pk}/log/", HTTP_HX_REQUEST="true").content.decode()
    assert "Undo: Entry #2 Bo" in body
    bo = Event.objects.filter(tournament=t, kind="entry_registered").latest("pk")
    r = client.post(f"/td/{t.pk}/log/undo/", {"event": bo.pk}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "Undo: Entry #1 Ann" in r.content.decode()
    assert "Redo: Entry #2 Bo" in r.content.decode()
    r = client.post(f"/td/{t.pk}/log/undo/", {"event": bo.pk}, HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and "someone else just did" in r.content.decode()
    assert Entry.objects.filter(tournament=t).count() == 1  # Ann stays
