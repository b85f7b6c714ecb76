"""Issue 24: a tournament's backup (tournament_export) and its restore (tournament_import)."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.apps import apps
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services as ts
from tables.models import Move, Seat, Table
from tourney import selectors, services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Knockout, Player, Tournament
from tourney.selectors import backup as reads
from tourney.selectors.money import money_summary
from tourney.services import money
from tourney.services.backup import tournament_import
from tourney.services.undo import action_undo

from .test_undo import ACTION_KINDS, _act, money_tournament, snapshot

pytestmark = pytest.mark.django_db

KIND_OF = {
    "tourney.tournament": "tournament",
    "tourney.player": "player",
    "tourney.entry": "entry",
    "tourney.event": "event",
    "tables.table": "table",
    "tables.move": "move",
    "tourney.knockout": "knockout",
    "tourney.chipcount": "chipcount",
}
# Columns naming another row (their attribute name), by the kind they name.
REFS = {
    "tournament_id": "tournament",
    "player_id": "player",
    "entry_id": "entry",
    "event_id": "event",
    "table_id": "table",
    "bust_hand": "event",
    "busted_id": "entry",
    "winner_id": "entry",
    "hand": "event",
}
NOW = datetime(2026, 5, 1, 18, tzinfo=UTC)


def normalised(doc: dict) -> dict:
    """The document with every id replaced by its rank among the rows of its kind (ids that
    name no row of the document: -1), and the tournament's slug and display link (unique per
    database) left out: two documents of the same tournament are then equal."""
    rank = {
        KIND_OF[name]: {r["id"]: i for i, r in enumerate(rows)}
        for name, rows in doc["rows"].items()
        if name in KIND_OF
    }
    # Players are ranked by their first entry (an import may find some of them here, with
    # their own ids, and create the others).
    first = [r["player_id"] for r in doc["rows"]["tourney.entry"]]
    rank["player"] = {p: i for i, p in enumerate(dict.fromkeys(first))}

    def fn(kind: str, old: int) -> int:
        return rank.get(kind, {}).get(old, -1)

    out = {}
    for name, rows in doc["rows"].items():
        kind = KIND_OF.get(name)
        new_rows = []
        for r in rows:
            r = dict(r)
            if "id" in r:
                r["id"] = fn(kind, r["id"]) if kind else None
            for col, what in REFS.items():
                if r.get(col) is not None:
                    r[col] = fn(what, r[col])
            if name == "tourney.event":
                r["payload"] = reads.payload_ids(r["kind"], r["payload"], fn, 0)
            if name == "tourney.tournament":
                r.pop("slug")
                r.pop("display_token")
            new_rows.append(r)
        out[name] = sorted(new_rows, key=lambda r: r["id"]) if kind == "player" else new_rows
    return {"format": doc["format"], "schema": doc["schema"], "rows": out}


def derived(t: Tournament, now: datetime) -> dict:
    """What the screens derive: the clock at ``now``, the seating, the money and results
    (entries by number, not id)."""
    t = Tournament.objects.get(pk=t.pk)
    number = dict(Entry.objects.filter(tournament=t).values_list("pk", "number"))
    seating = selectors.seating(t)
    for table in seating["tables"]:
        for s in table["seats"]:
            s["entry"] = number[s["entry"]]
    results = selectors.results(t)
    for p in results["places"]:
        p["entry"] = number[p["entry"]]
    clock = selectors.clock_payload(t, now)
    return {
        "clock": clock,
        "seating": seating,
        "money": money_summary(t),
        "results": results,
        "chips": selectors.total_chips(t),
    }


def round_trip(t: Tournament) -> tuple[dict, Tournament, dict]:
    first = reads.tournament_document(t.pk)
    copy = tournament_import(document=json.loads(json.dumps(first)))
    second = reads.tournament_document(copy.pk)
    return first, copy, second


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from([*ACTION_KINDS, "close_table", "undo"]),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=10,
)


def _step(t: Tournament, director, kind: str, rng: random.Random) -> None:
    if kind == "close_table":
        open_ = list(
            Table.objects.filter(tournament=t, status="open").values_list("number", flat=True)
        )
        if len(open_) > 1:
            ts.table_close(tournament_id=t.pk, table_number=rng.choice(open_), actor=director)
    elif kind == "undo":
        action_undo(tournament_id=t.pk, actor=director)
    else:
        _act(t, director, kind, rng)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS, start=st.booleans())
def test_random_tournaments_round_trip_exactly(director, actions, start):
    """Export, import, export again: the same document but for ids; the copy's clock,
    seating, money and results equal the original's, and undo goes on the same in both."""
    with time_machine.travel(NOW, tick=False) as clock:
        t = money_tournament(director)
        for i in range(9):
            services.entry_register(tournament_id=t.pk, name=f"S{i}", actor=director)
        if start:
            services.clock_action(tournament_id=t.pk, action="start", actor=director)
        for kind, n in actions:
            clock.shift(n % 97)
            try:
                _step(t, director, kind, random.Random(n))
            except DomainError:
                pass
        first, copy, second = round_trip(t)
        assert normalised(second) == normalised(first)
        later = NOW + timedelta(hours=1)
        assert derived(copy, later) == derived(t, later)
        assert _names(snapshot(copy)) == _names(snapshot(t))
        # The log goes on: undo of the last action does the same to both.
        outcomes = []
        for x in (t, copy):
            try:
                outcomes.append(action_undo(tournament_id=x.pk, actor=director)["kind"])
            except DomainError as exc:
                outcomes.append(exc.code)
        assert outcomes[0] == outcomes[1]
        assert derived(copy, later) == derived(t, later)


def _names(snap: dict) -> dict:
    snap["t"] = {k: v for k, v in snap["t"].items() if k not in ("slug", "display_token")}
    snap["t"].pop("prizes_key", None)
    return snap


def test_every_model_with_a_key_to_tournament_is_in_the_backup():
    """A model added with a foreign key to Tournament must be exported, or be listed as left
    out with its reason."""
    covered = {reads.label(m) for m in reads.EXPORTED} | set(reads.NOT_EXPORTED)
    keyed = {
        reads.label(m)
        for m in apps.get_models()
        for f in m._meta.concrete_fields
        if f.is_relation and f.related_model is Tournament
    }
    assert keyed - covered == set()
    assert keyed >= {"tables.seat", "tables.move", "tourney.event", "tourney.entry"}


def _live_event(director) -> Tournament:
    """Rebuys, add-ons, a bust with moves, a re-entry, a table broken, a deal; the clock paused."""
    with time_machine.travel(NOW, tick=False) as clock:
        t = money_tournament(director)
        e = [
            services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
            for i in range(7)
        ]
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
        clock.shift(300)
        money.entry_rebuy(tournament_id=t.pk, entry_id=e[0].pk, actor=director)
        money.entry_addon(tournament_id=t.pk, entry_id=e[1].pk, actor=director)
        services.elimination_record(
            tournament_id=t.pk, busts=[(e[2].pk, 100)], winners=[e[0].pk], actor=director
        )
        services.entry_reenter(tournament_id=t.pk, entry_id=e[2].pk, actor=director)
        services.elimination_record(  # a split pot (RULES 9.5): two knockouts each
            tournament_id=t.pk,
            busts=[(e[3].pk, 100), (e[4].pk, 200)],
            winners=[e[0].pk, e[1].pk],
            actor=director,
        )
        seat = Seat.objects.filter(tournament=t).select_related("table").first()
        taken = set(Seat.objects.filter(table=seat.table).values_list("number", flat=True))
        free = min(set(range(1, seat.table.seats + 1)) - taken)
        ts.move_manual(
            tournament_id=t.pk,
            entry_id=seat.entry_id,
            table_number=seat.table.number,
            seat=free,
            actor=director,
        )
        clock.shift(60)
        services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    return t


def test_a_live_event_round_trips_with_its_log_moves_and_clock(director):
    t = _live_event(director)
    first, copy, second = round_trip(t)
    assert copy.pk != t.pk and copy.name == t.name and copy.slug != t.slug
    assert normalised(second) == normalised(first)
    assert (
        Move.objects.filter(tournament=copy).count()
        == Move.objects.filter(tournament=t).count()
        > 0
    )
    assert (  # RULES 9: the knockouts, their winners and money come along
        sorted(Knockout.objects.filter(tournament=copy).values_list("winner__number", "cash"))
        == sorted(Knockout.objects.filter(tournament=t).values_list("winner__number", "cash"))
    )
    assert Knockout.objects.filter(tournament=copy).count() == 5
    assert (
        Event.objects.filter(tournament=copy).count() == Event.objects.filter(tournament=t).count()
    )
    # The clock anchors are the row's own: paused, so the same time left at any moment.
    copy.refresh_from_db()
    assert (copy.clock_index, copy.clock_left_ms, copy.clock_at, copy.clock_running) == (
        t.clock_index,
        Tournament.objects.get(pk=t.pk).clock_left_ms,
        Tournament.objects.get(pk=t.pk).clock_at,
        False,
    )
    # References point inside the copy: seats at the copy's tables, moves by the copy's log.
    assert set(
        Seat.objects.filter(tournament=copy).values_list("table__tournament", flat=True)
    ) == {copy.pk}
    assert set(
        Move.objects.filter(tournament=copy).values_list("event__tournament", flat=True)
    ) == {copy.pk}
    hands = set(
        Entry.objects.filter(tournament=copy, bust_hand__isnull=False).values_list(
            "bust_hand", flat=True
        )
    )
    assert set(Event.objects.filter(pk__in=hands).values_list("kind", flat=True)) == {"elimination"}
    assert Event.objects.filter(
        tournament=None, kind="tournament_imported", payload__tournament=copy.pk
    ).exists()
    later = NOW + timedelta(hours=2)
    assert derived(copy, later) == derived(t, later)


def test_players_are_matched_by_a_unique_name_else_created(director):
    t = _live_event(director)
    doc = reads.tournament_document(t.pk)
    before = Player.objects.count()
    copy = tournament_import(document=doc)
    assert Player.objects.count() == before  # every name known once: the same players
    assert set(Entry.objects.filter(tournament=copy).values_list("player", flat=True)) == set(
        Entry.objects.filter(tournament=t).values_list("player", flat=True)
    )
    Player.objects.create(name="P0")  # now two players here bear that name
    third = tournament_import(document=doc)
    assert Player.objects.count() == before + 2  # the ambiguous one is a new player
    p0 = Entry.objects.get(tournament=third, number=1).player
    assert p0.name == "P0" and p0.entries.count() == 1


def _doc(director) -> dict:
    t = services.tournament_create(actor=director, name="V", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    return reads.tournament_document(t.pk)


def test_a_backup_from_a_newer_schema_is_refused_and_nothing_is_written(director, tmp_path):
    doc = _doc(director)
    doc["schema"]["tourney"] = "9999_from_the_future"
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    counts = (Tournament.objects.count(), Entry.objects.count(), Event.objects.count())
    with pytest.raises(CommandError) as err:
        call_command("tournament_import", str(path))
    assert "newer version of Tourney" in str(err.value)
    assert "9999_from_the_future" in str(err.value)
    assert (Tournament.objects.count(), Entry.objects.count(), Event.objects.count()) == counts


def test_a_backup_in_a_newer_format_is_refused(director):
    doc = _doc(director)
    doc["format"] = reads.FORMAT + 1
    with pytest.raises(DomainError) as err:
        tournament_import(document=doc)
    assert err.value.code == "backup_format_newer"
    assert err.value.message == reads.MSG_FORMAT_NEWER.format(
        found=reads.FORMAT + 1, known=reads.FORMAT
    )


def test_a_broken_backup_is_refused_whole(director):
    doc = _doc(director)
    doc["rows"]["tourney.entry"][0]["player_id"] = None  # half a file: an entry of nobody
    counts = (Tournament.objects.count(), Entry.objects.count(), Player.objects.count())
    with pytest.raises(DomainError) as err:
        tournament_import(document=doc)
    assert err.value.code == "backup_invalid"
    assert (Tournament.objects.count(), Entry.objects.count(), Player.objects.count()) == counts
    with pytest.raises(DomainError) as err:
        tournament_import(document={"hello": 1})
    assert err.value.code == "backup_invalid"


def test_the_commands_write_and_read_the_same_document(director, tmp_path):
    t = _live_event(director)
    out = io.StringIO()
    call_command("tournament_export", str(t.pk), stdout=out)
    path = tmp_path / "t.json"
    path.write_text(out.getvalue())
    said = io.StringIO()
    call_command("tournament_import", str(path), stdout=said)
    copy = Tournament.objects.order_by("-pk").first()
    assert f"tournament {copy.pk}" in said.getvalue()
    again = reads.tournament_document(copy.pk)
    assert normalised(json.loads(out.getvalue())) == normalised(json.loads(json.dumps(again)))
    with pytest.raises(CommandError):
        call_command("tournament_export", "999999")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError) as err:
        call_command("tournament_import", str(tmp_path / "bad.json"))
    assert "not a JSON file" in str(err.value)
