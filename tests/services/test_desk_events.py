"""Issue 28: the desk's other events (tourney.selectors.desk_events) and the waiting list
across events (tourney.services.waiting_list): RULES 1.3's alternates, joined from another
event's desk when the event is full."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.selectors import desk_events
from tourney.services import desk
from tourney.services.waiting_list import waiting_list_join

pytestmark = pytest.mark.django_db


def _event(director, name, *, seats=9, tables=1, auto=True, **options):
    return services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=seats,
        tables=tables,
        buy_in=5000,
        fee=500,
        seed=3,
        options={"auto_open_tables": auto, **options},
    )


def _fill(t, director, n, prefix="P"):
    for i in range(n):
        services.entry_register(tournament_id=t.pk, name=f"{prefix} {t.pk}-{i}", actor=director)


def _row(rows, t):
    return next(r for r in rows if r["id"] == t.pk)


def test_other_events_lists_seats_price_and_start_but_not_the_desks_own(director):
    here = _event(director, "Main")
    soon = timezone.now() + timedelta(hours=3)
    other = _event(director, "Turbo", seats=6, tables=2, auto=False, starts_at=soon)
    _fill(other, director, 5)
    rows = desk_events.events_open(exclude_id=here.pk)
    assert [r["id"] for r in rows] == [other.pk]
    row = rows[0]
    assert row["seats_left"] == 7  # 12 seats, 5 players
    assert row["new_tables"] is False
    assert row["alternates"] == 0
    assert row["full"] is False
    assert row["action"] == desk_events.REGISTER
    assert (row["price"], row["price_text"], row["parts_text"]) == (5500, "55.00", "50.00 + 5.00")
    assert row["starts_at"] == soon
    assert row["status_text"] == "registering"
    assert row["registration_open"] is True and row["registration_text"] == "open"


def test_a_bounty_events_price_is_buy_in_split(director):
    t = _event(director, "PKO", bounty_kind="progressive", bounty=2000)
    row = _row(desk_events.events_open(), t)
    assert (row["price"], row["bounty"], row["parts_text"]) == (7500, 2000, "50.00 + 20.00 + 5.00")


def test_finished_bagged_and_past_events_are_left_out_running_ones_stay(director):
    yesterday = timezone.now() - timedelta(days=2)
    past = _event(director, "Old", starts_at=yesterday)
    running = _event(director, "Overnight", starts_at=yesterday)
    services.clock_action(tournament_id=running.pk, action="start", actor=director)
    done = _event(director, "Done")
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    bagged = _event(director, "Day 1A")
    Tournament.objects.filter(pk=bagged.pk).update(bagged=True)
    ids = [r["id"] for r in desk_events.events_open()]
    assert running.pk in ids
    assert past.pk not in ids and done.pk not in ids and bagged.pk not in ids
    row = _row(desk_events.events_open(), running)
    assert row["status_text"] == "running, level 1" and row["level"] == 1


def test_the_soonest_start_comes_first_those_without_a_start_last(director):
    now = timezone.now()
    late = _event(director, "Late", starts_at=now + timedelta(hours=5))
    none = _event(director, "Whenever")
    early = _event(director, "Early", starts_at=now + timedelta(hours=1))
    ids = [r["id"] for r in desk_events.events_open()]
    assert ids == [early.pk, late.pk, none.pk]


def test_late_registration_shows_its_level_and_closes_with_the_clock(director):
    t = _event(director, "Late reg", late_reg_until=0)
    row = _row(desk_events.events_open(), t)
    assert row["registration_text"] == "open until the end of level 1"
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    later = timezone.now() + timedelta(hours=2)  # past level 1 (RULES 4.4)
    row = _row(desk_events.events_open(now=later), t)
    assert row["registration_open"] is False
    assert row["action"] == desk_events.CLOSED


def test_full_means_no_seat_and_no_new_table_or_someone_waiting(director):
    full = _event(director, "Full", seats=2, auto=False)
    _fill(full, director, 2)
    opens = _event(director, "Opens tables", seats=2, auto=True)
    _fill(opens, director, 2)
    rows = desk_events.events_open()
    assert _row(rows, full)["full"] is True
    assert _row(rows, full)["action"] == desk_events.WAITING_LIST
    assert _row(rows, opens)["full"] is False  # a table opens for the next one (RULES 1.3)
    assert _row(rows, opens)["seats_left"] == 0


def test_a_home_game_counts_registrations_waiting_for_the_draw(director):
    t = _event(director, "Home", seats=6, draw_at_registration=False)
    _fill(t, director, 4)
    row = _row(desk_events.events_open(), t)
    assert row["seats_left"] == 2
    assert row["full"] is False  # the draw at the start seats them: no waiting list


def test_the_other_events_read_is_a_fixed_number_of_queries(
    director, django_assert_max_num_queries
):
    for i in range(2):
        _fill(_event(director, f"E{i}", seats=2, auto=False), director, 1)
    with django_assert_max_num_queries(4):
        assert len(desk_events.events_open()) == 2
    for i in range(2, 10):
        t = _event(director, f"E{i}", seats=2, auto=False)
        _fill(t, director, 3)
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with django_assert_max_num_queries(4):
        assert len(desk_events.events_open()) == 10


# ---------------------------------------------------------------- the waiting list


def test_a_known_player_joins_a_full_events_waiting_list(director, desk_clerk):
    t = _event(director, "Full", seats=2, auto=False)
    _fill(t, director, 2)
    ann = Player.objects.create(name="Ann Lee")
    entry, place = waiting_list_join(tournament_id=t.pk, player_id=ann.pk, actor=desk_clerk)
    assert place == 1
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ALTERNATE and entry.player_id == ann.pk
    assert (entry.paid, entry.fee_paid, entry.created_by_id) == (5000, 500, desk_clerk.pk)
    bob, place = waiting_list_join(tournament_id=t.pk, name="Bob New", actor=desk_clerk)
    assert place == 2 and bob.player.name == "Bob New"
    assert Event.objects.filter(tournament=t, kind="entry_registered").count() == 4
    assert desk_events.player_in_events(ann.pk, [t.pk])[t.pk]["place"] == 1


def _refused(code, **kwargs):
    before = (Entry.objects.count(), Event.objects.count(), Player.objects.count())
    with pytest.raises(DomainError) as err:
        waiting_list_join(**kwargs)
    assert err.value.code == code
    assert (Entry.objects.count(), Event.objects.count(), Player.objects.count()) == before
    return err.value


def test_an_event_with_seats_is_refused_register_at_its_desk(director, desk_clerk):
    t = _event(director, "Roomy", seats=2, auto=False)
    _fill(t, director, 1)
    err = _refused("seats_open", tournament_id=t.pk, name="Cy", actor=desk_clerk)
    assert err.status == 409 and err.fields["seats_left"] == 1
    assert err.message.startswith("Roomy has open seats")
    auto = _event(director, "Auto", seats=2, auto=True)
    _fill(auto, director, 2)
    _refused("seats_open", tournament_id=auto.pk, name="Cy", actor=desk_clerk)


def test_closed_registration_and_a_player_already_there_are_refused(director, desk_clerk):
    t = _event(director, "Full", seats=2, auto=False)
    _fill(t, director, 2)
    ann = Player.objects.create(name="Ann Lee")
    waiting_list_join(tournament_id=t.pk, player_id=ann.pk, actor=desk_clerk)
    err = _refused("player_in_play", tournament_id=t.pk, player_id=ann.pk, actor=desk_clerk)
    assert err.fields["place"] == 1
    assert err.message == "This player is already on the waiting list of Full, no. 1."
    seated = Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).first()
    err = _refused(
        "player_in_play", tournament_id=t.pk, player_id=seated.player_id, actor=desk_clerk
    )
    assert err.message == desk.MSG_PLAYER_IN_PLAY
    services.registration_close(tournament_id=t.pk, actor=director)
    _refused("registration_closed", tournament_id=t.pk, name="Dee", actor=desk_clerk)
    assert _row(desk_events.events_open(), t)["status_text"] == "not started"
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    _refused("tournament_finished", tournament_id=t.pk, name="Dee", actor=desk_clerk)
    _refused("not_found", tournament_id=t.pk, player_id=2**64, actor=desk_clerk)
    _refused("not_found", tournament_id=10**9, name="Dee", actor=desk_clerk)


def test_the_desk_undoes_a_waiting_list_entry_like_any_registration(director, desk_clerk):
    t = _event(director, "Full", seats=2, auto=False)
    _fill(t, director, 2)
    entry, _ = waiting_list_join(tournament_id=t.pk, name="Eve", actor=desk_clerk)
    undone = desk.entry_registration_undo(tournament_id=t.pk, entry_id=entry.pk, actor=desk_clerk)
    assert undone["status"] == Entry.Status.ALTERNATE
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Player.objects.filter(name="Eve").exists()
    assert desk_events.waiting_list_state(t)["alternates"] == 0


def test_a_busted_player_re_enters_onto_the_waiting_list(director, desk_clerk):
    t = _event(director, "Full", seats=3, auto=False, reentries_allowed=1)
    _fill(t, director, 3)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    first = Entry.objects.filter(tournament=t).order_by("number").first()
    services.elimination_record(tournament_id=t.pk, busts=[(first.pk, 20000)], actor=director)
    services.entry_register(tournament_id=t.pk, name="Takes the seat", actor=director)
    entry, place = waiting_list_join(
        tournament_id=t.pk, player_id=first.player_id, actor=desk_clerk
    )
    assert (place, entry.status, entry.player_id) == (1, Entry.Status.ALTERNATE, first.player_id)
    assert Event.objects.filter(tournament=t, kind="entry_reentered").count() == 1
