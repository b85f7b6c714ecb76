"""Issue 31, what a live event showed on the director dashboard: the deal form's errors next
to the stack they are about (and a warning when the stacks miss chips), the moves to announce
newest batch first and cleared by "Announced", no bust or table tools once the tournament is
over, the alternates waiting, the phone page's link, and log lines that name the level and
the player."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from tables import services as table_services
from tables.models import Move, Seat
from tourney import services
from tourney.models import Entry, Event, Tournament
from tourney.selectors import clock as clock_reads
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


@pytest.fixture
def three_left(director):
    """Four players of 20,000 chips (80,000 in play), one out; registration closed."""
    t = services.tournament_create(
        actor=director, name="Small", tables=1, seed=2, buy_in=10000, starting_stack=20000
    )
    for name in ("Ann Lee", "Bob Stone", "Cy Diaz", "Di Fox"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    out = Seat.objects.filter(tournament=t, entry__player__name="Di Fox").get()
    services.elimination_record(tournament_id=t.pk, busts=[(out.entry_id, 100)], actor=director)
    services.registration_close(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    return t


def _left(t: Tournament) -> dict[str, int]:
    return dict(
        Entry.objects.filter(tournament=t, status="seated").values_list("player__name", "pk")
    )


# ---------------------------------------------------------------- 1. the deal form


def test_a_stack_that_is_no_number_is_named_inside_the_open_deal_form(td, three_left):
    t = three_left
    left = _left(t)
    typed = {
        f"stack_{left['Ann Lee']}": "40,000",
        f"stack_{left['Bob Stone']}": "abc",
        f"stack_{left['Cy Diaz']}": "20000",
    }
    r = td.post(url("tourney-dashboard-deal", t), typed, **HX)
    assert r.status_code == 400
    html = r.content.decode()
    form = html.split('class="deal"')[1].split("</form>")[0]
    assert escape("Bob Stone's stack: give a whole number of chips.") in form
    # everything typed is kept, the section stays open, no anonymous message on top
    assert 'value="40,000"' in form and 'value="abc"' in form and 'value="20000"' in form
    assert "<details open><summary>Deal (ICM / chip chop)" in html
    assert "Stack: give a whole number." not in html
    assert "Record ICM deal" not in html


def test_stacks_that_miss_chips_are_quoted_with_a_warning(td, three_left):
    t = three_left
    left = _left(t)
    stacks = {
        f"stack_{pk}": s for pk, s in zip(left.values(), ("40000", "20000", "19950"), strict=True)
    }
    html = td.post(url("tourney-dashboard-deal", t), stacks, **HX).content.decode()
    assert "Record ICM deal" in html  # a warning, not a refusal
    assert "The stacks add up to 79,950; 80,000 chips are in play: 50 missing." in html
    exact = {
        f"stack_{pk}": s for pk, s in zip(left.values(), ("40000", "20000", "20000"), strict=True)
    }
    html = td.post(url("tourney-dashboard-deal", t), exact, **HX).content.decode()
    assert "Record ICM deal" in html and "chips are in play" not in html


# ---------------------------------------------------------------- 2. moves to announce


@pytest.fixture
def redrawn(director):
    """Two tables of three; the first bust brings the redraw to the final table, then the
    floor moves a player by hand."""
    t = services.tournament_create(
        actor=director,
        name="Two tables",
        tables=2,
        seats_per_table=6,
        seed=3,
        options={"auto_open_tables": False},
    )
    es = [
        services.entry_register(tournament_id=t.pk, name=f"Guest {n}", actor=director)
        for n in range(1, 7)
    ]
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(es[0].pk, None)], actor=director)
    assert Move.objects.filter(tournament=t, reason="redraw").exists()
    seat = Seat.objects.filter(tournament=t).order_by("number").first()
    taken = set(Seat.objects.filter(tournament=t).values_list("number", flat=True))
    free = next(s for s in range(1, 7) if s not in taken)
    table_services.move_manual(
        tournament_id=t.pk,
        entry_id=seat.entry_id,
        table_number=seat.table.number,
        seat=free,
        actor=director,
    )
    t.refresh_from_db()
    return t


def test_moves_to_announce_come_newest_batch_first_and_announced_clears_a_batch(td, redrawn):
    t = redrawn
    html = td.get(url("tourney-dashboard-moves", t), **HX).content.decode()
    titles = [part.split("</span>")[0] for part in html.split('class="batch-title">')[1:]]
    assert titles == ["Moved by the floor", "Redraw to the final table"]
    redraw = html.split('class="move-batch redraw"')[1].split("</form>")[0]
    assert url("tourney-dashboard-print-redraw", t) in redraw  # the sheet, with its batch
    redraw_ids = list(
        Move.objects.filter(tournament=t, reason="redraw").values_list("pk", flat=True)
    )
    r = td.post(url("tourney-dashboard-moves", t), {"move": redraw_ids}, **HX)
    html = r.content.decode()
    assert r.status_code == 200
    assert "Redraw to the final table" not in html and "Moved by the floor" in html
    assert not Move.objects.filter(tournament=t, reason="redraw", announced=False).exists()
    assert Event.objects.filter(tournament=t, kind="moves_announced").count() == 1


# ---------------------------------------------------------------- 3. once finished


@pytest.fixture
def finished(director):
    t = services.tournament_create(actor=director, name="Heads up", tables=1, seed=4, buy_in=10000)
    es = [
        services.entry_register(tournament_id=t.pk, name=n, actor=director)
        for n in ("Ann Lee", "Bob Stone", "Cy Diaz")
    ]
    services.registration_close(tournament_id=t.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    for e in es[1:]:
        services.elimination_record(tournament_id=t.pk, busts=[(e.pk, 100)], actor=director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_once_finished_the_dashboard_drops_bust_hand_for_hand_and_table_tools(
    td, finished, director
):
    t = finished
    html = td.get(url("tourney-dashboard", t)).content.decode()
    assert 'id="tournament-over"' in html
    for gone in ("Bust…", "Hand for hand on", "Open tables", "Break table", "In the money"):
        assert gone not in html, gone
    assert 'id="undo-button"' in html and 'class="log"' in html
    for panel in ("eliminations", "tables", "money"):
        part = td.get(url(f"tourney-dashboard-{panel}", t), **HX).content.decode()
        assert "Bust…" not in part and "Open tables" not in part and "In the money" not in part
    # undo the last bust: the tools come back
    action_undo(tournament_id=t.pk, actor=director)
    html = td.get(url("tourney-dashboard", t)).content.decode()
    assert "Bust…" in html and "Open tables" in html


# ---------------------------------------------------------------- 4. alternates, phone link


def test_the_tables_panel_shows_the_alternates_waiting_in_order(td, director):
    t = services.tournament_create(
        actor=director,
        name="Small room",
        tables=1,
        seats_per_table=3,
        seed=3,
        options={"auto_open_tables": False},
    )
    for n in range(1, 6):
        services.entry_register(tournament_id=t.pk, name=f"Guest {n}", actor=director)
    waiting = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ALTERNATE)
        .order_by("number")
        .values_list("player__name", flat=True)
    )
    assert len(waiting) == 2
    html = td.get(url("tourney-dashboard", t)).content.decode()
    tables = html.split('id="tables"')[1].split("</section>")[0]
    assert "2 alternates waiting" in tables
    assert f"1. {waiting[0]}" in tables and f"2. {waiting[1]}" in tables
    assert tables.index(f"1. {waiting[0]}") < tables.index(f"2. {waiting[1]}")
    assert f'href="{reverse("tourney-player", args=[t.display_token])}"' in html


# ---------------------------------------------------------------- 5. the log's words


def test_the_log_names_the_level_or_break_jumped_to_and_the_player_who_reentered(td, director):
    t = services.tournament_create(
        actor=director,
        name="Log",
        tables=1,
        seed=5,
        buy_in=10000,
        options={"reentries_allowed": 1},
    )
    items = clock_reads.structure_items(t)
    brk = next(i for i, it in enumerate(items) if it.kind == "break")
    level_5 = [i for i, it in enumerate(items) if it.kind == "level"][4]
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bob Stone", actor=director)
    services.entry_register(tournament_id=t.pk, name="Cy Diaz", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.elimination_record(tournament_id=t.pk, busts=[(ann.pk, None)], actor=director)
    new = services.entry_reenter(tournament_id=t.pk, entry_id=ann.pk, actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=level_5, actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=brk, actor=director)
    html = td.get(url("tourney-dashboard-log", t), **HX).content.decode()
    levels_before = sum(1 for it in items[:brk] if it.kind == "level")
    assert "Clock jumped to level 5" in html
    assert f"Clock jumped to the break after level {levels_before}" in html
    assert f"Re-entry: Ann Lee (entry {new.number})" in html
    assert "Clock jumped to item" not in html and "Entry reentered" not in html
