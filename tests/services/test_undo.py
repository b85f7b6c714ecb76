"""Issue 10: undo (and redo) of the last actions in reverse order, exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services as ts
from tables.models import Move, Seat, Table
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.undo import action_redo, action_undo

from .test_table_players import assert_table_players_true

pytestmark = pytest.mark.django_db

T_FIELDS = (
    "status",
    "registration_open",
    "started_tables",
    "draw_counter",
    "clock_index",
    "clock_left_ms",
    "clock_at",
    "clock_running",
    "clock_started",
    "hand_for_hand",
    "place_lag",
)


def snapshot(t: Tournament, *, times: bool = True) -> dict:
    """The whole state of a tournament a director could see (ids and the log excluded)."""
    t = Tournament.objects.get(pk=t.pk)
    assert_table_players_true(t)
    if not times:
        snap = snapshot(t)
        snap["entries"] = [row[:-1] for row in snap["entries"]]  # busted_at: when it was done
        return snap
    return {
        "t": tuple(getattr(t, f) for f in T_FIELDS),
        "entries": sorted(
            Entry.objects.filter(tournament=t).values_list(
                "pk",
                "player__name",
                "status",
                "place",
                "place_to",
                "prize",
                "chips_bought",
                "bust_stack",
                "busted_at",
            ),
            key=str,
        ),
        "seats": sorted(
            Seat.objects.filter(tournament=t).values_list(
                "entry_id", "table__number", "number", "waits_for_button"
            )
        ),
        "tables": sorted(
            Table.objects.filter(tournament=t).values_list(
                "number", "status", "button_seat", "break_rank", "unavailable_seats", "players"
            ),
            key=str,
        ),
        "moves": sorted(
            Move.objects.filter(tournament=t).values_list(
                "entry_id", "from_table", "from_seat", "to_table", "to_seat", "reason"
            ),
            key=str,
        ),
        "players": Player.objects.count(),
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


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["register", "bust", "bust2", "button", "move", "pause"]),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_random_actions_undone_in_reverse_restore_every_snapshot(director, actions):
    t = services.tournament_create(actor=director, name="H", tables=2, seats_per_table=4, seed=9)
    for i in range(7):
        services.entry_register(tournament_id=t.pk, name=f"S{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    snaps = []
    for kind, n in actions:
        rng = random.Random(n)
        seated = list(
            Entry.objects.filter(tournament=t, status="seated")
            .values_list("pk", flat=True)
            .order_by("pk")
        )
        before = snapshot(t)
        try:
            if kind == "register":
                services.entry_register(tournament_id=t.pk, name=f"R{n}", actor=director)
            elif kind in ("bust", "bust2") and len(seated) > 2:
                k = 2 if kind == "bust2" and len(seated) > 3 else 1
                busts = [(pk, rng.choice([100, 200])) for pk in rng.sample(seated, k)]
                services.elimination_record(tournament_id=t.pk, busts=busts, actor=director)
            elif kind == "button":
                table = rng.choice(list(Table.objects.filter(tournament=t, status="open")))
                ts.table_set_button(
                    tournament_id=t.pk,
                    table_number=table.number,
                    seat=rng.randint(1, table.seats),
                    actor=director,
                )
            elif kind == "move" and seated:
                table = rng.choice(list(Table.objects.filter(tournament=t, status="open")))
                taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
                free = [s for s in range(1, table.seats + 1) if s not in taken]
                if not free:
                    continue
                ts.move_manual(
                    tournament_id=t.pk,
                    entry_id=rng.choice(seated),
                    table_number=table.number,
                    seat=rng.choice(free),
                    actor=director,
                )
            elif kind == "pause":
                action = "pause" if Tournament.objects.get(pk=t.pk).clock_running else "resume"
                services.clock_action(tournament_id=t.pk, action=action, actor=director)
            else:
                continue
        except DomainError:
            assert snapshot(t) == before  # a refusal changes nothing
            continue
        snaps.append(before)
    for before in reversed(snaps):
        action_undo(tournament_id=t.pk, actor=director)
        assert snapshot(t) == before


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
