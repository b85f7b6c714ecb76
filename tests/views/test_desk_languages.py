"""Issue 29: the registration desk speaks the clerk's language (the browser's Accept-Language,
or the language chosen: Django's cookie), German and Spanish to start: the page, the seat
card printed at the desk, the messages, the refusals (the services' English templates,
translated at the screen with their values filled in), numbers and money in the language's
separators, the time in the card room's zone. English stays as it was."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tourney import services
from tourney.models import Entry, Tournament
from tourney.services import desk

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE, SEAT = 'data-testid="card-table"', 'data-testid="card-seat"'
NBSP = "\xa0"  # Spanish groups thousands with a non-breaking space (Django's locale data)


def _client(user, *, accept: str | None = None, cookie: str | None = None) -> Client:
    c = Client(**({"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}))
    if cookie:
        c.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    c.force_login(user)
    return c


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


def register(client: Client, t: Tournament, **data):
    return client.post(url("tourney-desk-register", t), data, **HTMX)


@pytest.fixture
def german(desk_clerk) -> Client:
    return _client(desk_clerk, accept="de-DE,de;q=0.9,en;q=0.5")


@pytest.fixture
def spanish(desk_clerk) -> Client:
    return _client(desk_clerk, cookie="es")  # the language chosen, whatever the browser's


# ---------------------------------------------------------------- the page


def test_the_desk_page_in_german(german, tournament):
    html = german.get(url("tourney-desk", tournament)).content.decode()
    for words in (
        '<label for="desk-name">Name des Spielers</label>',
        'placeholder="Ein paar Buchstaben eintippen"',
        ">Neuen Spieler anmelden</button>",
        "<h2>Letzte Anmeldungen</h2>",
        "Heute an der Kasse",
        "<h2>Andere Turniere <small>heute und demnächst</small></h2>",
        "Anmeldung offen",
        "Buy-in <b>50,00</b> + <b>5,00</b>",  # money in German separators
        'data-server="Der Server konnte das nicht ausführen (Fehler {status}).',  # forms.js
    ):
        assert words in html, words
    assert "Player name" not in html and "Register new player" not in html


def test_the_desk_page_in_spanish_by_the_chosen_language(spanish, tournament):
    html = spanish.get(url("tourney-desk", tournament)).content.decode()
    for words in (
        '<label for="desk-name">Nombre del jugador</label>',
        ">Inscribir jugador nuevo</button>",
        "Hoy en caja",
        "<h2>Otros torneos <small>hoy y próximos</small></h2>",
        "Buy-in <b>50,00</b> + <b>5,00</b>",
    ):
        assert words in html, words


def test_english_without_a_language_is_as_before(desk_clerk, tournament):
    html = _client(desk_clerk).get(url("tourney-desk", tournament)).content.decode()
    for words in (
        '<label for="desk-name">Player name</label>',
        ">Register new player</button>",
        "Today at the desk",
        "Buy-in <b>50.00</b> + <b>5.00</b>",
    ):
        assert words in html, words


# ---------------------------------------------------------------- the seat card


def test_registering_in_german_prints_a_german_seat_card_in_the_rooms_time(german, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        time_zone="Europe/Berlin", draw_at_registration=True
    )
    with time_machine.travel(datetime(2026, 12, 3, 18, 5, tzinfo=UTC), tick=False):
        r = register(german, tournament, name="Anna Becker")
    assert r.status_code == 200
    html = r.content.decode()
    e = Entry.objects.get(tournament=tournament)
    table, seat = e.seat.table.number, e.seat.number
    assert f"Angemeldet #1 Anna Becker: Tisch {table}, Platz {seat}." in html
    card = html[html.index('id="seat-card"') :]
    for words in (
        'aria-label="Platzkarte"',
        f'<span class="sc-label">Tisch</span><span class="sc-big" {TABLE}>{table}<',
        f'<span class="sc-label">Platz</span><span class="sc-big" {SEAT}>{seat}<',
        "<dt>Stack</dt><dd>20.000</dd>",  # German thousands
        "<dt>Zeit</dt><dd>19:05</dd>",  # 18:05 UTC is 19:05 in Berlin
        "Scannen für Uhr, Platz und Tischwechsel.",
    ):
        assert words in card, words
    assert "Table" not in card and "Seat<" not in card
    assert ">Karte drucken <kbd>Enter</kbd></button>" in html


def test_the_seat_card_in_spanish(spanish, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(draw_at_registration=True)
    r = register(spanish, tournament, name="Lucía Gómez")
    html = r.content.decode()
    e = Entry.objects.get(tournament=tournament)
    table, seat = e.seat.table.number, e.seat.number
    assert f"Inscrito #1 Lucía Gómez: mesa {table}, asiento {seat}." in html
    card = html[html.index('id="seat-card"') :]
    assert f'<span class="sc-label">Mesa</span><span class="sc-big" {TABLE}>{table}<' in card
    assert f'<span class="sc-label">Asiento</span><span class="sc-big" {SEAT}>{seat}<' in card
    assert f"<dt>Fichas</dt><dd>20{NBSP}000</dd>" in card
    assert "Escanea para ver el reloj, tu asiento y los cambios." in card


def test_a_card_paid_by_a_satellites_ticket_says_so_in_german(german, director):
    from tourney.room_models import Ticket

    main = services.tournament_create(actor=director, name="Main", seats_per_table=9, tables=1)
    sat = services.tournament_create(actor=director, name="Sat", seats_per_table=9, tables=1)
    Tournament.objects.filter(pk=sat.pk).update(satellite_target=main, seat_value=5500)
    won = services.entry_register(tournament_id=sat.pk, name="Sam Sat", actor=director)
    ticket = Ticket.objects.create(
        satellite=sat, target=main, entry=won, player=won.player, value=5500
    )
    search = german.get(url("tourney-desk-search", main), {"q": "sam"}, **HTMX).content.decode()
    assert f"Ticket aus Satellite #{sat.pk} (Sat)" in search
    assert "Mit Ticket anmelden" in search and "kostenlos" in search
    r = german.post(url("tourney-desk-ticket", main), {"ticket": ticket.pk}, **HTMX)
    html = r.content.decode()
    assert f"Bezahlt mit Ticket aus Satellite #{sat.pk}: nichts zu zahlen." in html
    assert f'data-testid="card-paid">Bezahlt mit Ticket aus Satellite #{sat.pk}<' in html


# ---------------------------------------------------------------- refusals


def test_a_duplicate_registration_is_refused_in_german(german, tournament):
    register(german, tournament, name="Anna Becker")
    e = Entry.objects.get(tournament=tournament)
    r = register(german, tournament, player_id=e.player_id)
    assert r.status_code == 409
    html = r.content.decode()
    assert 'data-code="player_in_play"' in html  # the code stays
    assert "Dieser Spieler hat bereits einen Entry im Spiel." in html
    assert desk.MSG_PLAYER_IN_PLAY not in html


def test_a_closed_registration_is_refused_in_spanish(spanish, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=False)
    r = register(spanish, tournament, name="Tarde")
    assert r.status_code == 409
    html = r.content.decode()
    assert 'data-code="registration_closed"' in html
    assert "La inscripción está cerrada." in html
    r = register(spanish, tournament, name="Tarde", override="1")
    assert r.status_code == 403
    assert "Solo el director puede inscribir una vez cerrada la inscripción." in r.content.decode()


def test_a_refusal_with_values_is_translated_then_filled_in(german, director, tournament):
    """The waiting list is for full events: the event's name is filled into the German."""
    roomy = services.tournament_create(
        actor=director, name="Deepstack", seats_per_table=9, tables=2
    )
    r = german.post(
        url("tourney-desk-events-join", tournament), {"event": roomy.pk, "name": "Dee"}, **HTMX
    )
    assert r.status_code == 409
    html = r.content.decode()
    assert 'data-code="seats_open"' in html
    assert "Deepstack hat noch freie Plätze: Die Warteliste ist für volle Turniere." in html


def test_the_api_keeps_the_english_refusal(tournament, director):
    """The services' messages are unchanged: the template filled in, in English."""
    from tourney.engine.errors import DomainError
    from tourney.services.waiting_list import waiting_list_join

    with pytest.raises(DomainError) as refused:
        waiting_list_join(tournament_id=tournament.pk, player_id=None, name="Dee", actor=director)
    assert refused.value.code == "seats_open"
    assert refused.value.message == (
        "Friday 50 has open seats: the waiting list is for full events. "
        "Register the player at its desk."
    )


# ---------------------------------------------------------------- money and chips


def test_a_rebuy_message_in_german_separators(german, tournament, director):
    Tournament.objects.filter(pk=tournament.pk).update(
        rebuy_price=5000, rebuy_fee=500, rebuy_chips=20000, rebuys_open=True
    )
    register(german, tournament, name="Anna Becker")
    e = Entry.objects.get(tournament=tournament)
    r = german.post(url("tourney-desk-rebuy", tournament, e.pk), **HTMX, follow=False)
    assert r.status_code == 200, r.content.decode()
    assert "Rebuy für #1 Anna Becker: 55,00 kassiert, 20.000 Chips." in r.content.decode()
    side = german.get(url("tourney-desk-side", tournament), **HTMX).content.decode()
    assert "<td>110,00</td>" in side  # today's takings: the entry and the rebuy


def test_a_bounty_events_price_and_receipt_in_spanish(spanish, director):
    """RULES 9.1: the price's parts on the desk and on the card, in Spanish words and
    separators; a re-entry's new bounty on the button."""
    t = services.tournament_create(
        actor=director,
        name="Jueves PKO",
        tables=1,
        buy_in=8000,
        fee=1000,
        starting_stack=20000,
        options={"bounty_kind": "progressive", "bounty": 200000, "draw_at_registration": True},
    )
    r = register(spanish, t, name="Lucía Gómez")
    html = r.content.decode()
    price = (
        f'data-testid="price">Precio <b>2{NBSP}090,00</b> = <b>80,00</b> bote de premios + '
        f'<b class="bounty-part">2{NBSP}000,00</b> recompensa + <b>10,00</b> comisión</li>'
    )
    assert price in html
    card = html[html.index('id="seat-card"') :]
    assert f'data-testid="card-parts">Pagado <b>2{NBSP}090,00</b> = 80,00 bote de premios' in card
    assert "Tu recompensa" in card


# ---------------------------------------------------------------- printouts and the login


def test_the_results_sheet_in_german(german, seated_tournament):
    html = german.get(url("tourney-results-print", seated_tournament)).content.decode()
    assert '<html lang="de">' in html
    for words in (
        "Ergebnisse · gedruckt ",
        "<dt>Preisgeld</dt><dd>1.000,00</dd>",  # 20 entries of 50.00
        "<th>Platz</th><th>Name</th>",
        "Noch niemand ist ausgeschieden.",
        "CSV herunterladen",
    ):
        assert words in html, words


def test_the_login_page_in_spanish(client):
    html = client.get("/login/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<h1>Iniciar sesión</h1>" in html and "Contraseña" in html
    wrong = client.post("/login/", {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE="es")
    assert (
        "Ese usuario y esa contraseña no corresponden a ninguna cuenta." in wrong.content.decode()
    )
