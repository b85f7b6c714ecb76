"""Lobby displays (issue 28): the director's writes (room actions, undone by room_undo) and
what the lobby shows (tourney/selectors/lobby.py): which events, in which order, each card's
clock as its own TV has it, seats left and price, and the reads bounded whatever the count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.core.room_journal import room_undo
from tourney.engine.errors import DomainError
from tourney.models import Event, Lobby, Tournament
from tourney.selectors import display as public
from tourney.selectors import lobby as reads
from tourney.services import lobbies

pytestmark = pytest.mark.django_db


def _t(director, name, *, starts_at=None, tables=2, **options):
    t = services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=9,
        tables=tables,
        starting_stack=20000,
        buy_in=10000,
        fee=2000,
        seed=3,
        levels=TWO_LEVELS,
    )
    fields = {"starts_at": starts_at, **options}
    Tournament.objects.filter(pk=t.pk).update(**fields)
    t.refresh_from_db()
    return t


def _state(lobby: Lobby) -> dict:
    reads.forget_version(lobby.token)
    found = reads.lobby_state(lobby.token)
    assert found is not None
    return found[1]


# ---------------------------------------------------------------- the writes


def test_a_lobby_is_created_edited_and_deleted_and_each_undone(director, tournament):
    lobby = lobbies.lobby_create(
        name="  Main   lobby ",
        tournament_ids=[tournament.pk],
        per_page=4,
        page_seconds=10,
        actor=director,
    )
    lobby.refresh_from_db()
    assert (lobby.name, lobby.per_page, lobby.page_seconds) == ("Main lobby", 4, 10)
    assert list(lobby.tournaments.values_list("pk", flat=True)) == [tournament.pk]
    created = Event.objects.filter(kind="lobby_created").get()
    assert created.tournament is None and created.payload["lobby"] == lobby.pk

    lobbies.lobby_update(lobby_id=lobby.pk, name="Lobby", tournament_ids=[], actor=director)
    lobby.refresh_from_db()
    assert lobby.name == "Lobby" and not lobby.tournaments.exists()
    assert (lobby.per_page, lobby.page_seconds) == (4, 10)  # None keeps
    updated = Event.objects.get(kind="lobby_updated")
    room_undo(event_id=updated.pk, actor=director)
    lobby.refresh_from_db()
    assert lobby.name == "Main lobby"
    assert list(lobby.tournaments.values_list("pk", flat=True)) == [tournament.pk]

    token = lobby.token
    lobbies.lobby_delete(lobby_id=lobby.pk, actor=director)
    assert not Lobby.objects.exists()
    room_undo(event_id=Event.objects.get(kind="lobby_deleted").pk, actor=director)
    back = Lobby.objects.get()
    assert (back.pk, back.token, back.name) == (lobby.pk, token, "Main lobby")
    assert list(back.tournaments.values_list("pk", flat=True)) == [tournament.pk]


def test_undoing_a_creation_removes_the_lobby_and_its_links(director, tournament):
    lobbies.lobby_create(name="L", tournament_ids=[tournament.pk], actor=director)
    room_undo(event_id=Event.objects.get(kind="lobby_created").pk, actor=director)
    assert not Lobby.objects.exists()
    assert not Lobby.tournaments.through.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "code", "field", "message"),
    [
        ({"name": ""}, "bad_name", "name", lobbies.MSG_NAME),
        ({"name": "x" * 121}, "bad_name", "name", lobbies.MSG_NAME),
        ({"per_page": 0}, "bad_input", "per_page", lobbies.MSG_PER_PAGE),
        ({"per_page": 25}, "bad_input", "per_page", lobbies.MSG_PER_PAGE),
        ({"per_page": True}, "bad_input", "per_page", lobbies.MSG_PER_PAGE),
        ({"page_seconds": 4}, "bad_input", "page_seconds", lobbies.MSG_PAGE_SECONDS),
        ({"page_seconds": 3601}, "bad_input", "page_seconds", lobbies.MSG_PAGE_SECONDS),
        ({"tournament_ids": [999]}, "bad_tournaments", "tournaments", lobbies.MSG_TOURNAMENTS),
        ({"tournament_ids": [0]}, "bad_tournaments", "tournaments", lobbies.MSG_TOURNAMENTS),
    ],
)
def test_bad_settings_are_refused_with_their_field_and_nothing_is_written(
    director, kwargs, code, field, message
):
    args = {"name": "Lobby", **kwargs}
    with pytest.raises(DomainError) as exc:
        lobbies.lobby_create(actor=director, **args)
    assert (exc.value.code, exc.value.message) == (code, message)
    assert field in exc.value.fields
    assert not Lobby.objects.exists() and not Event.objects.filter(kind="lobby_created").exists()


def test_a_finished_tournament_cannot_be_picked(director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(DomainError) as exc:
        lobbies.lobby_create(name="L", tournament_ids=[tournament.pk], actor=director)
    assert exc.value.fields == {"tournaments": [tournament.pk]}


def test_an_unknown_lobby_is_not_found(director):
    with pytest.raises(DomainError) as exc:
        lobbies.lobby_update(lobby_id=5, name="x", actor=director)
    assert (exc.value.code, exc.value.status) == ("not_found", 404)
    with pytest.raises(DomainError):
        lobbies.lobby_delete(lobby_id=5, actor=director)


# ---------------------------------------------------------------- which events, in order


def test_all_of_todays_and_upcoming_running_first_then_registering_by_start(director):
    now = timezone.now()
    later = _t(director, "Later today", starts_at=now + timedelta(hours=3))
    tomorrow = _t(director, "Tomorrow", starts_at=now + timedelta(days=1))
    sooner = _t(director, "Sooner", starts_at=now + timedelta(hours=1))
    no_time = _t(director, "No time")
    stale = _t(director, "Last week", starts_at=now - timedelta(days=7))
    done = _t(director, "Done", starts_at=now, status=Tournament.Status.FINISHED)
    running = _t(director, "Running", starts_at=now - timedelta(days=1))
    services.clock_action(tournament_id=running.pk, action="start")
    lobby = lobbies.lobby_create(name="All", actor=director)
    names = [c["name"] for c in _state(lobby)["events"]]
    assert names == ["Running", "Sooner", "Later today", "Tomorrow", "No time"]
    assert stale.name not in names and done.name not in names
    assert [t.name for t in reads.lobby_events(lobby)] == names
    del later, tomorrow, sooner, no_time


def test_chosen_events_only_and_never_a_finished_one(director):
    a = _t(director, "A")
    b = _t(director, "B")
    _t(director, "C")
    lobby = lobbies.lobby_create(name="Two", tournament_ids=[a.pk, b.pk], actor=director)
    assert [c["name"] for c in _state(lobby)["events"]] == ["A", "B"]
    Tournament.objects.filter(pk=a.pk).update(status=Tournament.Status.FINISHED)
    assert [c["name"] for c in _state(lobby)["events"]] == ["B"]


# ---------------------------------------------------------------- a card


def test_a_running_card_has_the_clock_of_its_tv(director, seated_tournament):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start")
    lobby = lobbies.lobby_create(name="L", tournament_ids=[t.pk], actor=director)
    t.refresh_from_db()
    now = timezone.now()
    card = reads.build_lobby_state(lobby, [t], '"x"', now)["events"][0]
    tv = public.build_state(t, now)
    for key in (
        "status",
        "level_index",
        "remaining_ms",
        "server_time_ms",
        "ms_to_next_break",
        "items",
        "more_items",
        "players_left",
        "entries",
        "average_stack",
        "prize_pool",
    ):
        assert card[key] == tv[key], key
    assert card["phase"] == "running" and card["token"] == t.display_token
    assert card["players_left"] == 20 and card["prize_pool"] == "1,000"  # 20 × 50
    # RULES 4.4: late registration open (no end set): seats and price shown
    assert card["registering"] is True and card["seats_left"] == 27 - 20


def test_a_registering_card_has_start_seats_left_and_price(director):
    start = timezone.now() + timedelta(hours=2)
    t = _t(director, "Sunday", starts_at=start, tables=3, bounty_kind="fixed", bounty=2500)
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    lobby = lobbies.lobby_create(name="L", tournament_ids=[t.pk], actor=director)
    card = _state(lobby)["events"][0]
    assert card["phase"] == "registering" and card["registering"] is True
    assert card["seats_left"] == 3 * 9 - 4
    # RULES 9.1: prize pool 100 + bounty 25 + fee 20
    assert (card["price"], card["price_parts"]) == ("145", "100 + 25 + 20")
    assert card["starts_at_ms"] == public._epoch_ms(start)
    assert card["starts_text"] == timezone.localtime(start, t.zone).strftime("%H:%M") or (
        card["starts_text"].endswith(timezone.localtime(start, t.zone).strftime("%H:%M"))
    )


def test_seats_drawn_at_the_start_count_the_registered_as_taking_a_seat(director):
    t = _t(director, "Home game", tables=1, draw_at_registration=False)
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    lobby = lobbies.lobby_create(name="L", tournament_ids=[t.pk], actor=director)
    assert _state(lobby)["events"][0]["seats_left"] == 9 - 3


def test_no_open_table_shows_no_seat_count(director):
    t = _t(director, "No tables", tables=0)
    lobby = lobbies.lobby_create(name="L", tournament_ids=[t.pk], actor=director)
    assert _state(lobby)["events"][0]["seats_left"] is None


# ---------------------------------------------------------------- versions and queries


def test_the_etag_changes_with_any_event_and_with_the_lobby(director, tournament):
    lobby = lobbies.lobby_create(name="L", actor=director)
    first = _state(lobby)["etag"]
    assert _state(lobby)["etag"] == first
    services.entry_register(tournament_id=tournament.pk, name="Ann", actor=director)
    second = _state(lobby)["etag"]
    assert second != first
    lobbies.lobby_update(lobby_id=lobby.pk, per_page=2, actor=director)
    assert _state(lobby)["etag"] != second
    assert reads.lobby_version("no-such-token") is None
    assert reads.lobby_version("bad token!") is None


def _lobby_of(director, count: int) -> Lobby:
    ids = []
    for k in range(count):
        t = _t(director, f"Event {k}")
        services.entry_register(tournament_id=t.pk, name=f"Ann {k}", actor=director)
        if k % 2:
            services.clock_action(tournament_id=t.pk, action="start")
        ids.append(t.pk)
    return lobbies.lobby_create(name=f"L{count}", tournament_ids=ids, actor=director)


def _queries(django_assert_max_num_queries, lobby: Lobby, most: int) -> dict:
    reads.forget_version(lobby.token)
    from django.core.cache import cache

    cache.clear()
    with django_assert_max_num_queries(most):
        found = reads.lobby_state(lobby.token)
    return found[1]


def test_two_events_or_twelve_cost_the_same_reads(director, django_assert_max_num_queries):
    small = _lobby_of(director, 2)
    big = _lobby_of(director, 12)
    assert len(_queries(django_assert_max_num_queries, small, 7)["events"]) == 2
    assert len(_queries(django_assert_max_num_queries, big, 7)["events"]) == 12


# ---------------------------------------------------------------- a day of a multi-day event


def test_a_flights_card_stops_where_its_tv_stops(director):
    """RULES 10.2 and 10.6: a flight's clock stops at its last level and no break beyond it is
    counted down; its pool is the event's so far. The card is the TV's, at any instant."""
    from tourney.services import flights

    event = flights.event_create(
        actor=director,
        name="Main Event",
        flights=["A", "B"],
        levels=TWO_LEVELS,
        tables=1,
        seats_per_table=9,
        starting_stack=20000,
        buy_in=10000,
        fee=1000,
        seed=11,
        end_at_level=0,
    )
    a, b = Tournament.objects.filter(multi_day_event=event, day=1).order_by("pk")
    for t in (a, b):
        for i in range(3):
            services.entry_register(tournament_id=t.pk, name=f"P{t.pk}-{i}", actor=director)
    services.clock_action(tournament_id=a.pk, action="start", actor=director)
    lobby = lobbies.lobby_create(name="L", tournament_ids=[a.pk, b.pk], actor=director)
    a.refresh_from_db()
    b.refresh_from_db()
    for minutes in (1, 25):
        now = a.clock_at + timedelta(minutes=minutes)
        cards = reads.build_lobby_state(lobby, [a, b], '"x"', now)["events"]
        for card, t in zip(cards, (a, b), strict=True):
            tv = public.build_state(t, now)
            for key in ("status", "level_index", "remaining_ms", "ms_to_next_break", "items"):
                assert card[key] == tv[key], (t.flight, minutes, key)
            assert card["prize_pool"] == tv["prize_pool"] == "600"  # both flights' money
            assert card["pool_label"] == "Event pool"
            assert card["flight_line"] == tv["flight"]["line"]
    assert cards[0]["status"] == "finished" and cards[0]["ms_to_next_break"] is None


# ---------------------------------------------------------------- a clock past what it holds


def test_a_cached_state_the_clocks_have_outrun_is_built_anew(director, tournament):
    services.clock_action(tournament_id=tournament.pk, action="start")
    lobby = lobbies.lobby_create(name="L", tournament_ids=[tournament.pk], actor=director)
    state = _state(lobby)
    card = state["events"][0]
    assert not reads.outrun(state, card["server_time_ms"])
    # Past every item it holds (a structure longer than the items sent, no worker announcing)
    held = card["remaining_ms"] + sum(it["seconds"] * 1000 for it in card["items"][1:])
    stale = {**state, "events": [{**card, "more_items": True}]}
    assert reads.outrun(stale, card["server_time_ms"] + held)
    assert not reads.outrun(stale, card["server_time_ms"] + held - 1)
    from django.core.cache import cache

    version = reads.lobby_version(lobby.token)
    cache.set(reads._state_key(lobby.token, version.etag), stale, 60)
    later = card["server_time_ms"] + held
    import unittest.mock

    with unittest.mock.patch.object(public, "server_time_ms", return_value=later):
        fresh = reads.cached_state(lobby.token, version)
    assert fresh is not stale and fresh["events"][0]["more_items"] is False


def test_a_closed_registration_or_a_later_day_shows_no_seats_or_price(director):
    closed = _t(director, "Closed", registration_open=False)
    late_over = _t(director, "Late reg over", late_reg_until=0)
    services.clock_action(tournament_id=late_over.pk, action="start")
    services.clock_action(tournament_id=late_over.pk, action="jump", index=2)
    lobby = lobbies.lobby_create(name="L", tournament_ids=[closed.pk, late_over.pk], actor=director)
    cards = {c["name"]: c for c in _state(lobby)["events"]}
    for name in ("Closed", "Late reg over"):
        assert (cards[name]["registering"], cards[name]["seats_left"]) == (False, None), name
        assert cards[name]["price"] == "", name
