"""Issue 7: the registration desk screen — register by name or known player, the seat card,
re-entry, rebuy, add-on, alternates, refusal after registration closes (director override),
undo of the clerk's own last registration, today's totals by clerk, and the desk role."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Move, Seat
from tables.services import move_manual, seat_set_available
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.roles import DESK_GROUP
from tourney.selectors import desk as desk_reads
from tourney.services import desk, money
from tourney.views import desk as desk_views

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def clerk_client(desk_clerk) -> Client:
    return _client(desk_clerk)


@pytest.fixture
def director_client(director) -> Client:
    return _client(director)


@pytest.fixture
def other_clerk(django_user_model):
    user = django_user_model.objects.create_user("clerk2", password="clerk2-pass-123")
    user.groups.add(Group.objects.get_or_create(name=DESK_GROUP)[0])
    return user


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


def snapshot(t: Tournament) -> tuple:
    """Everything a refused desk action must leave as it was."""
    return (
        list(
            Entry.objects.filter(tournament=t)
            .order_by("pk")
            .values_list("pk", "status", "paid", "rebuys", "addons", "chips_bought")
        ),
        list(Seat.objects.filter(tournament=t).order_by("pk").values_list("pk", "entry_id")),
        Player.objects.count(),
        Event.objects.filter(tournament=t).count(),
        Move.objects.filter(tournament=t).count(),
    )


def register(client: Client, t: Tournament, htmx: bool = False, **data):
    return client.post(url("tourney-desk-register", t), data, **(HTMX if htmx else {}))


def bust(t: Tournament, entry: Entry, director) -> None:
    services.elimination_record(tournament_id=t.pk, busts=[(entry.pk, 20000)], actor=director)


# ---------------------------------------------------------------- roles


def test_desk_clerk_and_director_see_the_desk(clerk_client, director_client, tournament):
    for client in (clerk_client, director_client):
        response = client.get(url("tourney-desk", tournament))
        assert response.status_code == 200
        body = response.content.decode()
        assert 'id="desk-name"' in body
        assert "Registration open" in body
        assert "js/desk.js" in body and "<script>" not in body  # no inline script


def test_stranger_gets_403_on_every_desk_url(stranger, tournament):
    client = _client(stranger)
    before = snapshot(tournament)
    assert client.get(url("tourney-desk", tournament)).status_code == 403
    assert client.get(url("tourney-desk-search", tournament), {"q": "a"}, **HTMX).status_code == 403
    assert client.get(url("tourney-desk-side", tournament), **HTMX).status_code == 403
    assert register(client, tournament, name="Ann Lee").status_code == 403
    assert client.post(url("tourney-desk-undo", tournament), {"entry": 1}).status_code == 403
    assert snapshot(tournament) == before


def test_anonymous_is_sent_to_login_and_nothing_changes(tournament):
    client = Client()
    before = snapshot(tournament)
    response = client.get(url("tourney-desk", tournament))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    response = register(client, tournament, name="Ann Lee")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert snapshot(tournament) == before


def test_desk_clerk_cannot_open_the_director_dashboard(clerk_client, tournament):
    assert clerk_client.get(reverse("tourney-dashboard", args=[tournament.pk])).status_code == 403


def test_unknown_tournament_is_404(clerk_client):
    assert clerk_client.get(reverse("tourney-desk", args=[999999])).status_code == 404


# ---------------------------------------------------------------- registering


def test_register_new_player_without_javascript_redirects_to_the_seat_card(
    clerk_client, desk_clerk, tournament
):
    response = register(clerk_client, tournament, name="  Ann   Lee ")
    assert response.status_code == 303
    entry = Entry.objects.get(tournament=tournament, player__name="Ann Lee")
    assert response["Location"] == f"{url('tourney-desk', tournament)}?entry={entry.pk}"

    page = clerk_client.get(response["Location"])
    body = page.content.decode()
    seat = Seat.objects.select_related("table").get(entry=entry)
    assert (
        f"Registered #{entry.number} Ann Lee: table {seat.table.number}, seat {seat.number}."
        in body
    )
    assert f'data-testid="card-table">{seat.table.number}<' in body
    assert f'data-testid="card-seat">{seat.number}<' in body
    assert "20,000" in body  # the starting stack
    assert 'class="qr"' in body and "<svg" in body  # the QR code to the phone page, inline

    entry.refresh_from_db()
    assert entry.status == Entry.Status.SEATED
    assert entry.created_by == desk_clerk
    assert entry.paid == tournament.buy_in and entry.fee_paid == tournament.fee
    assert entry.chips_bought == tournament.starting_stack == 20000
    event = Event.objects.get(tournament=tournament, kind="entry_registered")
    assert event.actor == desk_clerk and event.payload["entry"] == entry.pk
    assert not Move.objects.filter(entry=entry).exists()  # a first seating is no move (3.8)


def test_seat_card_qr_encodes_the_players_phone_page(
    clerk_client, tournament, monkeypatch, settings
):
    seen = []
    real = desk_views.qr_svg
    monkeypatch.setattr(desk_views, "qr_svg", lambda u, *a: seen.append(u) or real(u, *a))
    register(clerk_client, tournament, name="Ann Lee-O'Neil")
    entry = Entry.objects.get(tournament=tournament)
    seat = Seat.objects.select_related("table").get(entry=entry)
    settings.PUBLIC_BASE_URL = ""
    clerk_client.get(url("tourney-desk", tournament), {"entry": entry.pk})
    path = f"/p/{tournament.display_token}/?name=Ann+Lee-O%27Neil"
    assert seen == [f"http://testserver{path}"]
    # The code opens the player's own view: their table and seat, found by their name.
    phone = Client().get(path).content.decode()
    assert phone.count('<article class="seat-card') == 1 and "find-error" not in phone
    assert (
        f'Table <b class="tbl">{seat.table.number}</b> Seat <b class="st">{seat.number}</b>'
        in phone
    )
    # A desk laptop serving on localhost prints codes for the address phones reach.
    settings.PUBLIC_BASE_URL = "https://poker.example.org"
    seen.clear()
    clerk_client.get(url("tourney-desk", tournament), {"entry": entry.pk})
    assert seen == [f"https://poker.example.org{path}"]
    from tourney.views import display

    shown = []
    monkeypatch.setattr(display, "qr_svg", lambda u, *a: shown.append(u) or real(u, *a))
    Client().get(reverse("tourney-display", args=[tournament.display_token]))
    assert shown == [f"https://poker.example.org/p/{tournament.display_token}/"]


def test_register_with_htmx_answers_the_main_fragment_and_tells_the_side_to_refresh(
    clerk_client, tournament
):
    response = register(clerk_client, tournament, htmx=True, name="Bob Stone")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and 'id="seat-card"' in body
    assert "Registered #1 Bob Stone" in body
    assert "desk-changed" in response["HX-Trigger"]
    assert Entry.objects.filter(tournament=tournament, player__name="Bob Stone").count() == 1


def test_register_a_known_player_of_a_past_tournament_reuses_the_player(
    clerk_client, director, tournament
):
    past = services.tournament_create(actor=director, name="Last week", tables=1, seed=1)
    old = services.entry_register(tournament_id=past.pk, name="Carla Okafor", actor=director)
    players = Player.objects.count()
    response = register(clerk_client, tournament, player_id=old.player_id)
    assert response.status_code == 303
    entry = Entry.objects.get(tournament=tournament)
    assert entry.player_id == old.player_id and entry.status == Entry.Status.SEATED
    assert Player.objects.count() == players


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", services.MSG_NAME_REQUIRED),
        ("   ", services.MSG_NAME_REQUIRED),
        ("x" * 121, "The name is too long (120 characters at most)."),
        ("\x07\x08", services.MSG_NAME_CONTROL),  # only control characters
        ("Ann\x1b[2JLee", services.MSG_NAME_CONTROL),  # an escape sequence inside
    ],
)
def test_bad_name_shows_the_message_and_changes_nothing(clerk_client, tournament, name, message):
    before = snapshot(tournament)
    for htmx in (False, True):
        response = register(clerk_client, tournament, htmx=htmx, name=name)
        assert response.status_code == 400
        body = response.content.decode()
        assert message in body and 'data-code="bad_input"' in body
        assert ("<html" in body) is not htmx  # the page without JS, the fragment with it
        assert "HX-Trigger" not in response
    assert snapshot(tournament) == before


def test_a_120_character_name_is_accepted(clerk_client, tournament):
    assert register(clerk_client, tournament, name="y" * 120).status_code == 303
    assert Entry.objects.get(tournament=tournament).player.name == "y" * 120


def test_bad_player_id_is_refused(clerk_client, tournament):
    before = snapshot(tournament)
    response = register(clerk_client, tournament, player_id="abc")
    assert response.status_code == 400
    assert desk_views.MSG_BAD_PLAYER in response.content.decode()
    response = register(clerk_client, tournament, player_id="987654")
    assert response.status_code == 404
    assert "No such player." in response.content.decode()
    assert snapshot(tournament) == before


HUGE = "99999999999999999999"  # beyond a 64-bit id: SQLite's driver overflowed on it


def test_oversized_ids_are_refused_and_change_nothing(clerk_client, director, tournament):
    register(clerk_client, tournament, name="Ann Lee")
    entry = Entry.objects.get(tournament=tournament)
    before = snapshot(tournament)
    for raw in (HUGE, "-1", "0", "9" * 5000):
        response = register(clerk_client, tournament, player_id=raw)
        assert response.status_code == 400
        assert desk_views.MSG_BAD_PLAYER in response.content.decode()
        response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": raw})
        assert response.status_code == 404
        assert desk.MSG_ENTRY_NOT_FOUND in response.content.decode()
        page = clerk_client.get(url("tourney-desk", tournament), {"entry": raw})
        assert page.status_code == 200 and 'id="seat-card"' not in page.content.decode()
    response = clerk_client.post(f"/desk/{tournament.pk}/entries/{HUGE}/rebuy/")
    assert 400 <= response.status_code < 500
    with pytest.raises(DomainError) as refused:
        desk.desk_register(tournament_id=tournament.pk, player_id=2**63, actor=director)
    assert refused.value.code == "not_found"
    with pytest.raises(DomainError) as refused:
        services.entry_register(tournament_id=tournament.pk, player_id=2**64, actor=director)
    assert refused.value.code == "not_found"
    assert snapshot(tournament) == before
    assert Entry.objects.get(tournament=tournament).pk == entry.pk


def test_nul_and_control_characters_never_reach_the_database(
    clerk_client, director, tournament, settings
):
    # Whatever the edge does with a NUL (tourney.middleware may refuse it first), the desk's
    # own reads and writes refuse or drop control characters (PostgreSQL text cannot hold a
    # NUL: a DataError, a 500; SQLite stored it).
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "RejectNul" not in m]
    services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    before = snapshot(tournament)
    for name in ("Ann\x00Lee", "\x00"):
        for htmx in (False, True):
            response = register(clerk_client, tournament, htmx=htmx, name=name)
            assert response.status_code == 400
            body = response.content.decode()
            assert services.MSG_NAME_CONTROL in body and 'data-code="bad_input"' in body
    response = clerk_client.get(url("tourney-desk-search", tournament), {"q": "an\x00n"}, **HTMX)
    assert response.status_code == 200 and "Ann Lee" in response.content.decode()
    page = clerk_client.get(url("tourney-desk", tournament), {"q": "Ann\x00\x07"})
    assert page.status_code == 200 and "Ann Lee" in page.content.decode()
    with pytest.raises(DomainError) as refused:
        desk.desk_register(tournament_id=tournament.pk, name="Bob\x00Stone", actor=director)
    assert (refused.value.code, refused.value.message) == ("bad_input", services.MSG_NAME_CONTROL)
    found = desk_reads.player_search(tournament, "An\x00n L\x07ee")
    assert [r["name"] for r in found] == ["Ann Lee"]
    assert desk_reads.player_search(tournament, "\x00\x01") == []
    assert snapshot(tournament) == before


def test_a_player_still_in_play_is_not_registered_twice(clerk_client, tournament):
    register(clerk_client, tournament, name="Ann Lee")
    entry = Entry.objects.get(tournament=tournament)
    before = snapshot(tournament)
    response = register(clerk_client, tournament, htmx=True, player_id=entry.player_id)
    assert response.status_code == 409
    body = response.content.decode()
    assert desk.MSG_PLAYER_IN_PLAY in body and 'data-code="player_in_play"' in body
    assert f'data-entry="{entry.pk}"' in body  # their seat card, to reprint
    assert snapshot(tournament) == before


# ---------------------------------------------------------------- search


def test_search_lists_known_players_best_match_first(clerk_client, director, tournament):
    past = services.tournament_create(actor=director, name="Last week", tables=1, seed=1)
    for name in ("Annette Berg", "Ann Lee", "Joanna Annis", "Bob Stone"):
        services.entry_register(tournament_id=past.pk, name=name, actor=director)
    response = clerk_client.get(url("tourney-desk-search", tournament), {"q": "ann"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and 'data-q="ann"' in body
    assert body.index("Ann Lee") < body.index("Annette Berg") < body.index("Joanna Annis")
    assert "Bob Stone" not in body and "last played Last week" in body
    assert "New player “ann”" in body

    rows = desk_reads.player_search(tournament, "ann lee")
    assert [r["name"] for r in rows] == ["Ann Lee"] and rows[0]["action"] == "register"


def test_search_says_who_is_in_play_or_may_re_enter(clerk_client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    tournament.refresh_from_db()
    a = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Ann Other", actor=director)
    bust(tournament, a, director)
    rows = {r["name"]: r for r in desk_reads.player_search(tournament, "ann")}
    assert rows["Ann Lee"]["action"] == "reenter" and rows["Ann Lee"]["reentries_left"] == 1
    assert rows["Ann Other"]["action"] == "in_play" and rows["Ann Other"]["entry"]["table"]
    body = clerk_client.get(url("tourney-desk-search", tournament), {"q": "ann"}, **HTMX)
    assert ">Re-enter<" in body.content.decode() and ">Show card<" in body.content.decode()


def test_search_without_javascript_lists_players_on_the_page(clerk_client, director, tournament):
    services.entry_register(tournament_id=tournament.pk, name="Dmitri Novak", actor=director)
    response = clerk_client.get(url("tourney-desk-search", tournament), {"q": "dmi"})
    assert response.status_code == 302
    page = clerk_client.get(response["Location"])
    assert "Dmitri Novak" in page.content.decode() and 'data-q="dmi"' in page.content.decode()


# ---------------------------------------------------------------- re-entry, rebuy, add-on


def test_enter_on_a_busted_player_re_enters(clerk_client, desk_clerk, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    first = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Bob Stone", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Cy Berg", actor=director)
    bust(tournament, first, director)
    response = register(clerk_client, tournament, htmx=True, player_id=first.player_id)
    assert response.status_code == 200
    assert "Re-entered #4 Ann Lee" in response.content.decode()
    new = Entry.objects.get(tournament=tournament, number=4)
    assert new.player_id == first.player_id and new.status == Entry.Status.SEATED
    assert new.created_by == desk_clerk
    # A re-entry is a new buy-in: its money and a starting stack of its own (RULES 4.4).
    assert (new.paid, new.fee_paid, new.chips_bought) == (5000, 500, 20000)
    first.refresh_from_db()
    assert (first.paid, first.fee_paid, first.chips_bought) == (5000, 500, 20000)
    assert Player.objects.filter(name="Ann Lee").count() == 1
    assert "re-entry" in response.content.decode()  # on the seat card
    ev = Event.objects.get(tournament=tournament, kind="entry_reentered")
    assert ev.payload["from_entry"] == first.pk and ev.actor == desk_clerk


def test_re_enter_button_and_its_refusal_when_none_are_left(clerk_client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    first = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Bob Stone", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Cy Berg", actor=director)
    bust(tournament, first, director)
    response = clerk_client.post(url("tourney-desk-reenter", tournament, first.pk))
    assert response.status_code == 303
    second = Entry.objects.get(tournament=tournament, number=4)
    assert second.player_id == first.player_id
    bust(tournament, second, director)
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-reenter", tournament, second.pk), **HTMX)
    assert response.status_code == 409
    assert money.MSG_NO_REENTRIES in response.content.decode()
    assert snapshot(tournament) == before


def test_rebuy_takes_the_money_and_the_chips(clerk_client, desk_clerk, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        rebuy_price=5000, rebuy_chips=20000, rebuy_until=0
    )
    e = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    response = clerk_client.post(url("tourney-desk-rebuy", tournament, e.pk), **HTMX)
    assert response.status_code == 200
    assert f"Rebuy for #{e.number} Ann Lee: 50.00 taken, 20,000 chips." in response.content.decode()
    e.refresh_from_db()
    assert (e.rebuys, e.paid, e.chips_bought) == (1, 10000, 40000)
    ev = Event.objects.get(tournament=tournament, kind="entry_rebuy")
    assert ev.actor == desk_clerk and ev.payload["amount"] == 5000


def test_rebuy_after_its_window_is_refused(clerk_client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_price=5000, rebuys_open=False)
    e = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-rebuy", tournament, e.pk))
    assert response.status_code == 409
    body = response.content.decode()
    assert money.MSG_REBUYS_CLOSED in body and 'data-code="rebuys_closed"' in body
    assert snapshot(tournament) == before


def test_addon_only_during_its_break(clerk_client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        addon_at=1, addon_price=3000, addon_chips=15000
    )
    e = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-addon", tournament, e.pk), **HTMX)
    assert response.status_code == 409
    assert money.MSG_ADDON_NOT_NOW in response.content.decode()
    assert snapshot(tournament) == before

    services.clock_action(tournament_id=tournament.pk, action="jump", index=1, actor=director)
    response = clerk_client.post(url("tourney-desk-addon", tournament, e.pk), **HTMX)
    assert response.status_code == 200
    e.refresh_from_db()
    assert (e.addons, e.paid, e.chips_bought) == (1, 8000, 35000)
    assert Event.objects.filter(tournament=tournament, kind="entry_addon").count() == 1
    response = clerk_client.post(url("tourney-desk-addon", tournament, e.pk), **HTMX)
    assert response.status_code == 409 and money.MSG_ADDON_TAKEN in response.content.decode()


# ---------------------------------------------------------------- closed registration


def test_closed_registration_is_refused_for_the_clerk(clerk_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=False)
    before = snapshot(tournament)
    response = register(clerk_client, tournament, htmx=True, name="Late Larry")
    assert response.status_code == 409
    body = response.content.decode()
    assert services.MSG_REGISTRATION_CLOSED in body
    assert 'data-code="registration_closed"' in body
    assert "Register anyway" not in body
    response = register(clerk_client, tournament, name="Late Larry", override="1")
    assert response.status_code == 403
    assert desk_views.MSG_OVERRIDE_DIRECTOR_ONLY in response.content.decode()
    assert snapshot(tournament) == before


def test_director_overrides_closed_registration_after_confirming(director_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=False)
    before = snapshot(tournament)
    response = register(director_client, tournament, htmx=True, name="Late Larry")
    assert response.status_code == 409
    body = response.content.decode()
    assert services.MSG_REGISTRATION_CLOSED in body
    assert 'id="override-confirm"' in body and 'name="override" value="1"' in body
    assert snapshot(tournament) == before  # asking is not doing

    response = register(director_client, tournament, htmx=True, name="Late Larry", override="1")
    assert response.status_code == 200
    entry = Entry.objects.get(tournament=tournament, player__name="Late Larry")
    assert entry.status == Entry.Status.SEATED


def test_registration_closes_by_the_clock_at_the_end_of_late_registration(
    clerk_client, director, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(late_reg_until=0, reentries_allowed=1)
    ann = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=tournament.pk, name=name, actor=director)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
        bust(tournament, ann, director)
        assert register(clerk_client, tournament, name="In Time").status_code == 303
    # RULES 4.4: level 1 (20 minutes) is the last of late registration. Past it the clock
    # itself closes the desk, before any announcement flips registration_open.
    with time_machine.travel(start + timedelta(minutes=21), tick=False):
        tournament.refresh_from_db()
        assert tournament.registration_open is True
        before = snapshot(tournament)
        page = clerk_client.get(url("tourney-desk", tournament)).content.decode()
        assert "Registration closed" in page
        response = register(clerk_client, tournament, htmx=True, name="Too Late")
        assert response.status_code == 409
        assert 'data-code="registration_closed"' in response.content.decode()
        response = register(clerk_client, tournament, htmx=True, player_id=ann.player_id)
        assert response.status_code == 409  # a re-entry closes with it
        assert services.MSG_REGISTRATION_CLOSED in response.content.decode()
        assert "anyway" not in response.content.decode()  # no override for the clerk
        assert snapshot(tournament) == before


def test_director_overrides_a_closed_re_entry_after_confirming(
    director_client, clerk_client, director, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    ann = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    for name in ("Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=tournament.pk, name=name, actor=director)
    bust(tournament, ann, director)
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=False)
    before = snapshot(tournament)

    response = register(clerk_client, tournament, player_id=ann.player_id, override="1")
    assert response.status_code == 403  # the clerk may not
    response = register(director_client, tournament, htmx=True, player_id=ann.player_id)
    assert response.status_code == 409
    body = response.content.decode()
    assert "Re-enter <b>Ann Lee</b> anyway?" in body and 'id="override-confirm"' in body
    assert f'name="player_id" value="{ann.player_id}"' in body
    # The side panel's Re-enter button leads to the same confirmation.
    response = director_client.post(url("tourney-desk-reenter", tournament, ann.pk), **HTMX)
    assert response.status_code == 409
    assert f'name="player_id" value="{ann.player_id}"' in response.content.decode()
    assert snapshot(tournament) == before  # asking is not doing

    response = register(
        director_client, tournament, htmx=True, player_id=ann.player_id, override="1"
    )
    assert response.status_code == 200
    assert "Re-entered #4 Ann Lee" in response.content.decode()
    new = Entry.objects.get(tournament=tournament, number=4)
    assert new.player_id == ann.player_id and new.status == Entry.Status.SEATED
    assert (new.paid, new.fee_paid, new.chips_bought) == (5000, 500, 20000)
    assert Player.objects.filter(name="Ann Lee").count() == 1  # no second Ann Lee
    ev = Event.objects.get(tournament=tournament, kind="entry_reentered")
    assert ev.payload["from_entry"] == ann.pk
    assert ev.payload["call"]["kwargs"]["override"] is True  # a redo overrides again
    # The re-entry limit still holds under an override.
    bust(tournament, new, director)
    response = register(
        director_client, tournament, htmx=True, player_id=ann.player_id, override="1"
    )
    assert response.status_code == 409 and money.MSG_NO_REENTRIES in response.content.decode()


# ---------------------------------------------------------------- alternates


def test_full_room_makes_alternates_who_are_seated_in_order(clerk_client, director):
    t = services.tournament_create(
        actor=director,
        name="Small",
        seats_per_table=2,
        tables=1,
        seed=3,
        options={"auto_open_tables": False},
    )
    for name in ("Ann Lee", "Bob Stone", "Cy Berg", "Dee Novak"):
        response = register(clerk_client, t, name=name)
        assert response.status_code == 303
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    dee = Entry.objects.get(tournament=t, player__name="Dee Novak")
    assert (cy.status, dee.status) == (Entry.Status.ALTERNATE, Entry.Status.ALTERNATE)
    page = clerk_client.get(url("tourney-desk", t), {"entry": dee.pk}).content.decode()
    assert "Alternates <b>2</b>" in page
    assert "no. 2" in page  # Dee's card: second on the list
    assert page.index("#3 Cy Berg") < page.index("#4 Dee Novak")

    ann = Entry.objects.get(tournament=t, player__name="Ann Lee")
    bust(t, ann, director)
    cy.refresh_from_db()
    assert cy.status == Entry.Status.SEATED
    side = clerk_client.get(url("tourney-desk-side", t), **HTMX).content.decode()
    seat = Seat.objects.select_related("table").get(entry=cy)
    assert f"#3 Cy Berg → <b>table {seat.table.number} seat {seat.number}</b>" in side
    assert "#4 Dee Novak" in side


def _small(director, **options):
    return services.tournament_create(
        actor=director,
        name="Small",
        seats_per_table=2,
        tables=1,
        seed=3,
        options={"auto_open_tables": False, **options},
    )


def test_undo_gives_the_freed_seat_to_the_first_alternate_and_dee_waits_behind(
    clerk_client, desk_clerk, director
):
    from tests.services.test_table_players import assert_table_players_true
    from tourney.services.undo import action_undo

    t = _small(director)
    register(clerk_client, t, name="Ann Lee")
    register(clerk_client, t, name="Bob Stone")
    services.entry_register(tournament_id=t.pk, name="Cy Berg", actor=director)
    bob = Entry.objects.get(tournament=t, player__name="Bob Stone")
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    assert cy.status == Entry.Status.ALTERNATE

    response = clerk_client.post(url("tourney-desk-undo", t), {"entry": bob.pk}, **HTMX)
    assert response.status_code == 200
    cy.refresh_from_db()
    assert cy.status == Entry.Status.SEATED  # RULES 1.3: the seat Bob held is Cy's now
    assert desk_reads.desk_status(t)["seats_free"] == 0
    seated = Event.objects.get(tournament=t, kind="alternates_seated")
    assert seated.actor == desk_clerk and seated.payload["entries"] == [cy.pk]
    side = clerk_client.get(url("tourney-desk-side", t), **HTMX).content.decode()
    seat = Seat.objects.select_related("table").get(entry=cy)
    assert f"#3 Cy Berg → <b>table {seat.table.number} seat {seat.number}</b>" in side

    register(clerk_client, t, name="Dee Novak")
    dee = Entry.objects.get(tournament=t, player__name="Dee Novak")
    assert dee.status == Entry.Status.ALTERNATE  # behind Cy, not ahead of him
    # Dee's registration undone, then the director undoes the seating of Cy: Cy waits again.
    assert clerk_client.post(url("tourney-desk-undo", t), {"entry": dee.pk}).status_code == 303
    assert action_undo(tournament_id=t.pk, actor=director)["kind"] == "alternates_seated"
    cy.refresh_from_db()
    assert cy.status == Entry.Status.ALTERNATE and not Seat.objects.filter(entry=cy).exists()
    assert desk_reads.desk_status(t)["seats_free"] == 1
    assert_table_players_true(t)  # the seat counters agree with the seats


def test_undo_of_an_alternate_frees_no_seat_and_seats_nobody(clerk_client, director):
    t = _small(director)
    for name in ("Ann Lee", "Bob Stone", "Cy Berg", "Dee Novak"):
        register(clerk_client, t, name=name)
    dee = Entry.objects.get(tournament=t, player__name="Dee Novak")
    assert clerk_client.post(url("tourney-desk-undo", t), {"entry": dee.pk}).status_code == 303
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    assert cy.status == Entry.Status.ALTERNATE
    assert not Event.objects.filter(tournament=t, kind="alternates_seated").exists()


def test_undo_is_refused_when_its_registration_moved_other_players(clerk_client, director):
    t = services.tournament_create(actor=director, name="Bal", seats_per_table=3, tables=2, seed=5)
    for i in range(6):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    register(clerk_client, t, name="Late Larry")
    late = Entry.objects.get(tournament=t, player__name="Late Larry")
    reg = Event.objects.get(kind="entry_registered", payload__entry=late.pk)
    # RULES 3.3: the table opened for Larry was filled by moving a player from the others
    assert Move.objects.filter(event=reg).exclude(entry=late).exists()
    before = snapshot(t)
    response = clerk_client.post(url("tourney-desk-undo", t), {"entry": late.pk}, **HTMX)
    assert response.status_code == 409
    assert 'data-code="undo_depends"' in response.content.decode()
    assert desk.MSG_UNDO_DEPENDS in response.content.decode()
    assert snapshot(t) == before
    reg.refresh_from_db()
    assert not reg.undone


def test_undo_is_refused_once_the_alternate_was_seated_since(clerk_client, director):
    t = _small(director)
    ann = services.entry_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bob Stone", actor=director)
    register(clerk_client, t, name="Cy Berg")
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    assert cy.status == Entry.Status.ALTERNATE
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    bust(t, ann, director)
    cy.refresh_from_db()
    assert cy.status == Entry.Status.SEATED
    before = snapshot(t)
    response = clerk_client.post(url("tourney-desk-undo", t), {"entry": cy.pk})
    assert response.status_code == 409 and desk.MSG_UNDO_DEPENDS in response.content.decode()
    assert snapshot(t) == before


def test_full_room_opens_a_table_when_the_director_allows_it(clerk_client, director):
    t = services.tournament_create(
        actor=director, name="Small", seats_per_table=2, tables=1, seed=3
    )
    for name in ("Ann Lee", "Bob Stone", "Cy Berg"):
        register(clerk_client, t, name=name)
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    assert cy.status == Entry.Status.SEATED and cy.seat.table.number == 2


# ---------------------------------------------------------------- undo


def test_undo_removes_the_entry_its_seat_and_move_exactly(clerk_client, desk_clerk, tournament):
    register(clerk_client, tournament, name="Ann Lee")
    before = snapshot(tournament)
    register(clerk_client, tournament, name="Typo Nmae")
    entry = Entry.objects.get(tournament=tournament, player__name="Typo Nmae")
    seat = Seat.objects.select_related("table").get(entry=entry)
    reg = Event.objects.get(kind="entry_registered", payload__entry=entry.pk)

    page = clerk_client.get(url("tourney-desk", tournament), {"entry": entry.pk}).content.decode()
    assert 'id="undo-button"' in page

    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": entry.pk}, **HTMX)
    assert response.status_code == 200
    assert f"Undone: #{entry.number} Typo Nmae." in response.content.decode()
    assert "desk-changed" in response["HX-Trigger"]
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert not Player.objects.filter(name="Typo Nmae").exists()
    reg.refresh_from_db()
    assert reg.undone
    undone = Event.objects.get(tournament=tournament, kind="entry_registration_undone")
    assert undone.actor == desk_clerk
    assert undone.payload["entry"] == entry.pk
    assert (undone.payload["table"], undone.payload["seat"]) == (seat.table.number, seat.number)
    assert undone.payload["moves"] == [] and undone.payload["player_removed"] is True
    after = snapshot(tournament)
    assert after[:3] == before[:3]  # entries, seats and players as before the typo
    assert after[4] == before[4]


def test_undo_keeps_a_known_player(clerk_client, director, tournament):
    past = services.tournament_create(actor=director, name="Last week", tables=1, seed=1)
    old = services.entry_register(tournament_id=past.pk, name="Carla Okafor", actor=director)
    register(clerk_client, tournament, player_id=old.player_id)
    entry = Entry.objects.get(tournament=tournament)
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": entry.pk})
    assert response.status_code == 303
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert Player.objects.filter(pk=old.player_id).exists()
    ev = Event.objects.get(kind="entry_registration_undone")
    assert ev.payload["player_removed"] is False


def test_undo_after_a_minute_is_refused(clerk_client, tournament):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        register(clerk_client, tournament, name="Ann Lee")
    entry = Entry.objects.get(tournament=tournament)
    before = snapshot(tournament)
    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        page = clerk_client.get(url("tourney-desk", tournament), {"entry": entry.pk})
        assert 'id="undo-button"' not in page.content.decode()
        response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": entry.pk})
    assert response.status_code == 409
    assert desk.MSG_UNDO_TOO_LATE in response.content.decode()
    assert snapshot(tournament) == before


def test_undo_only_of_your_own_last_registration(clerk_client, other_clerk, tournament):
    register(clerk_client, tournament, name="Ann Lee")
    register(clerk_client, tournament, name="Bob Stone")
    ann = Entry.objects.get(player__name="Ann Lee")
    bob = Entry.objects.get(player__name="Bob Stone")
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": ann.pk})
    assert response.status_code == 409 and desk.MSG_UNDO_NOT_LAST in response.content.decode()
    response = _client(other_clerk).post(url("tourney-desk-undo", tournament), {"entry": bob.pk})
    assert response.status_code == 403 and desk.MSG_UNDO_NOT_YOURS in response.content.decode()
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": "x"})
    assert response.status_code == 404 and desk.MSG_ENTRY_NOT_FOUND in response.content.decode()
    assert snapshot(tournament) == before


def test_undo_is_refused_once_something_depends_on_the_entry(clerk_client, director, tournament):
    register(clerk_client, tournament, name="Ann Lee")
    entry = Entry.objects.get(tournament=tournament)
    seat = Seat.objects.select_related("table").get(entry=entry)
    target = 2 if seat.table.number != 2 else 1
    move_manual(
        tournament_id=tournament.pk, entry_id=entry.pk, table_number=target, seat=1, actor=director
    )
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": entry.pk}, **HTMX)
    assert response.status_code == 409
    assert desk.MSG_UNDO_DEPENDS in response.content.decode()
    assert 'data-code="undo_depends"' in response.content.decode()
    assert snapshot(tournament) == before


def test_undo_of_a_rebought_entry_is_refused(clerk_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_price=5000)
    register(clerk_client, tournament, name="Ann Lee")
    entry = Entry.objects.get(tournament=tournament)
    clerk_client.post(url("tourney-desk-rebuy", tournament, entry.pk))
    before = snapshot(tournament)
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": entry.pk})
    assert response.status_code == 409 and desk.MSG_UNDO_DEPENDS in response.content.decode()
    assert snapshot(tournament) == before


def test_undo_of_a_re_entry_marks_both_events_undone(clerk_client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    first = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Bob Stone", actor=director)
    services.entry_register(tournament_id=tournament.pk, name="Cy Berg", actor=director)
    bust(tournament, first, director)
    register(clerk_client, tournament, player_id=first.player_id)
    new = Entry.objects.get(tournament=tournament, number=4)
    response = clerk_client.post(url("tourney-desk-undo", tournament), {"entry": new.pk})
    assert response.status_code == 303
    assert not Entry.objects.filter(pk=new.pk).exists()
    kinds = set(
        Event.objects.filter(payload__entry=new.pk, undone=True).values_list("kind", flat=True)
    )
    assert kinds == {"entry_registered", "entry_reentered"}
    assert Player.objects.filter(pk=first.player_id).exists()


# ---------------------------------------------------------------- totals


def test_todays_totals_by_clerk(clerk_client, other_clerk, desk_clerk, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        reentries_allowed=1, rebuy_price=4000, rebuy_chips=10000
    )
    yesterday = timezone.now() - timedelta(days=1)
    with time_machine.travel(yesterday, tick=False):
        register(clerk_client, tournament, name="Old Timer")
    register(clerk_client, tournament, name="Ann Lee")
    register(clerk_client, tournament, name="Bob Stone")
    register(_client(other_clerk), tournament, name="Cy Berg")
    ann = Entry.objects.get(player__name="Ann Lee")
    bob = Entry.objects.get(player__name="Bob Stone")
    clerk_client.post(url("tourney-desk-rebuy", tournament, bob.pk))
    bust(tournament, ann, director)
    register(clerk_client, tournament, player_id=ann.player_id)  # a re-entry

    totals = desk_reads.desk_totals(tournament)
    rows = {r["clerk"]: r for r in totals["rows"]}
    price = tournament.buy_in + tournament.fee  # 5,500
    assert rows["clerk"]["entries"] == 2 and rows["clerk"]["reentries"] == 1
    assert rows["clerk"]["rebuys"] == 1 and rows["clerk"]["addons"] == 0
    assert rows["clerk"]["money"] == 3 * price + 4000
    assert rows["clerk2"]["entries"] == 1 and rows["clerk2"]["money"] == price
    assert totals["total"]["money"] == 4 * price + 4000
    assert totals["total"]["entries"] == 3  # yesterday's entry is not today's

    side = clerk_client.get(url("tourney-desk-side", tournament), **HTMX).content.decode()
    assert "<td>clerk</td><td>2</td><td>1</td><td>1</td><td>0</td><td>205.00</td>" in side
    assert "<th>Total</th><th>3</th><th>1</th><th>1</th><th>0</th><th>260.00</th>" in side
    assert desk_clerk.username == "clerk"


def test_todays_totals_count_add_ons_and_their_money(
    clerk_client, other_clerk, director, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(
        addon_at=1, addon_price=3000, addon_chips=15000
    )
    register(clerk_client, tournament, name="Ann Lee")
    register(_client(other_clerk), tournament, name="Bob Stone")
    services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    services.clock_action(tournament_id=tournament.pk, action="jump", index=1, actor=director)
    for p in ("Ann Lee", "Bob Stone"):  # both take the add-on at the clerk's desk
        e = Entry.objects.get(player__name=p)
        assert clerk_client.post(url("tourney-desk-addon", tournament, e.pk)).status_code == 303
    rows = {r["clerk"]: r for r in desk_reads.desk_totals(tournament)["rows"]}
    price = tournament.buy_in + tournament.fee
    assert (rows["clerk"]["entries"], rows["clerk"]["addons"]) == (1, 2)
    assert rows["clerk"]["money"] == price + 2 * 3000
    # Bob's entry is clerk2's; the add-on money is the clerk's who took it.
    assert (rows["clerk2"]["entries"], rows["clerk2"]["addons"]) == (1, 0)
    assert rows["clerk2"]["money"] == price
    side = clerk_client.get(url("tourney-desk-side", tournament), **HTMX).content.decode()
    assert "<th>Total</th><th>2</th><th>0</th><th>0</th><th>2</th><th>170.00</th>" in side


def test_todays_totals_and_the_desk_count_rebuy_and_add_on_fees(clerk_client, director, tournament):
    """The money a clerk took is the price and its fee (the fee stays out of the pool)."""
    Tournament.objects.filter(pk=tournament.pk).update(
        rebuy_price=4000, rebuy_fee=400, addon_at=1, addon_price=3000, addon_fee=300
    )
    register(clerk_client, tournament, name="Ann Lee")
    e = Entry.objects.get(player__name="Ann Lee")
    services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    side = clerk_client.get(url("tourney-desk", tournament)).content.decode()
    assert "Rebuys 40.00 + 4.00" in side

    r = clerk_client.post(url("tourney-desk-rebuy", tournament, e.pk), follow=True)
    assert "44.00 taken" in r.content.decode()
    services.clock_action(tournament_id=tournament.pk, action="jump", index=1, actor=director)
    assert clerk_client.post(url("tourney-desk-addon", tournament, e.pk)).status_code == 303

    row = desk_reads.desk_totals(tournament)["total"]
    assert (row["rebuys"], row["addons"]) == (1, 1)
    assert row["money"] == tournament.buy_in + tournament.fee + 4400 + 3300
    e.refresh_from_db()
    assert (e.paid, e.fee_paid) == (tournament.buy_in + 7000, tournament.fee + 700)


def test_a_re_entry_today_of_yesterdays_entry_counts_as_a_re_entry(
    clerk_client, director, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(reentries_allowed=1)
    yesterday = timezone.now() - timedelta(days=1)
    with time_machine.travel(yesterday, tick=False):
        for name in ("Old Timer", "Ann Lee", "Cy Berg"):
            assert register(clerk_client, tournament, name=name).status_code == 303
    old = Entry.objects.get(player__name="Old Timer")
    bust(tournament, old, director)
    assert register(clerk_client, tournament, player_id=old.player_id).status_code == 303
    assert register(clerk_client, tournament, name="Bob Stone").status_code == 303
    total = desk_reads.desk_totals(tournament)["total"]
    assert (total["entries"], total["reentries"]) == (1, 1)
    assert total["money"] == 2 * (tournament.buy_in + tournament.fee)


def test_desk_status_counts_seats_and_entries_as_the_rows_do(clerk_client, director):
    t = services.tournament_create(
        actor=director,
        name="Small",
        seats_per_table=3,
        tables=2,
        seed=3,
        options={"auto_open_tables": False},
    )
    seat_set_available(tournament_id=t.pk, table_number=1, seat=3, available=False)
    for name in ("Ann Lee", "Bob Stone", "Cy Berg", "Dee Novak", "Eve Park", "Fay Wu"):
        assert register(clerk_client, t, name=name).status_code == 303
    t.refresh_from_db()
    status = desk_reads.desk_status(t)
    # 5 usable seats (one blocked), all taken; the sixth player waits
    assert (status["tables"], status["seats_free"]) == (2, 0)
    assert (status["entries"], status["in_play"], status["alternates"]) == (6, 5, 1)
    bust(t, Entry.objects.get(tournament=t, player__name="Ann Lee"), director)
    status = desk_reads.desk_status(t)
    assert (status["entries"], status["in_play"], status["alternates"]) == (6, 5, 0)
    assert status["seats_free"] == 0
    bust(t, Entry.objects.get(tournament=t, player__name="Bob Stone"), director)
    status = desk_reads.desk_status(t)
    assert (status["in_play"], status["seats_free"]) == (4, 1)


def test_undo_closes_a_table_the_registration_opened(clerk_client, director):
    t = services.tournament_create(
        actor=director, name="Small", seats_per_table=2, tables=1, seed=3
    )
    register(clerk_client, t, name="Ann Lee")
    register(clerk_client, t, name="Bob Stone")
    register(clerk_client, t, name="Cy Berg")
    cy = Entry.objects.get(tournament=t, player__name="Cy Berg")
    t.refresh_from_db()
    assert cy.seat.table.number == 2 and t.started_tables == 2
    response = clerk_client.post(url("tourney-desk-undo", t), {"entry": cy.pk})
    assert response.status_code == 303
    t.refresh_from_db()
    assert list(t.tables.values_list("number", flat=True)) == [1]
    assert t.started_tables == 1
    ev = Event.objects.get(tournament=t, kind="entry_registration_undone")
    assert ev.payload["tables_removed"] == [2]


def _place_now(tournament, entry) -> tuple[int | None, int | None]:
    """The entry's places as they stand (RULES 7.1: stored ones plus ``place_lag``)."""
    tournament.refresh_from_db()
    entry.refresh_from_db()
    return entry.places_now(tournament.place_lag)


def test_undo_moves_players_already_out_back_up_a_place(clerk_client, director, tournament):
    for name in ("Ann Lee", "Bob Stone", "Cy Berg"):
        services.entry_register(tournament_id=tournament.pk, name=name, actor=director)
    ann = Entry.objects.get(player__name="Ann Lee")
    bust(tournament, ann, director)
    assert _place_now(tournament, ann) == (3, 3)
    register(clerk_client, tournament, name="Late Dee")
    # one more entry: the first out finishes one place lower
    assert _place_now(tournament, ann) == (4, 4)
    dee = Entry.objects.get(player__name="Late Dee")
    assert (
        clerk_client.post(url("tourney-desk-undo", tournament), {"entry": dee.pk}).status_code
        == 303
    )
    assert _place_now(tournament, ann) == (3, 3)
    assert tournament.place_lag == 0
