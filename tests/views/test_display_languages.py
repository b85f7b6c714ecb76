"""Issue 29, the public screens in German and Spanish: the TV display, the phone page (with
find-my-seat) and the lobby speak the tournament's language, or the URL's ``?lang=``; the
words the scripts write come with the page; chips and money in the language's separators;
the polled states are built, cached and tagged per language (a German and an English screen
never get each other's answer); the API stays English."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from tests.services.test_flights_services import _event, _flights
from tourney import services
from tourney.models import Tournament
from tourney.selectors import display as public
from tourney.selectors import lobby as lobby_reads
from tourney.services import lobbies

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _page(client, view: str, t: Tournament, **params) -> str:
    r = client.get(reverse(view, args=[t.display_token]), params)
    assert r.status_code == 200
    return r.content.decode()


def _strings(html: str) -> dict:
    found = re.search(r'<script id="display-strings" type="application/json">(.*?)</script>', html)
    assert found is not None
    return json.loads(found.group(1))


def _state(client, t: Tournament, etag: str = "", **params):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("tourney-display-state", args=[t.display_token]), params, **headers)


# ---------------------------------------------------------------- the TV


def test_the_tv_in_german_by_the_url(client, seated_tournament):
    html = _page(client, "tourney-display", seated_tournament, lang="de")
    assert '<html lang="de">' in html
    assert 'id="level-title" class="level-title">Level 1<' in html
    assert ">BB-Ante 200<" in html
    assert "Beginnt gleich" in html
    assert "<dt>Pause in</dt>" in html and "<dt>Spieler</dt>" in html
    assert "<dt>Ø Stack</dt>" in html and ">20.000<" in html  # the average stack
    assert '"prize-pool-label">Preisgeld<' in html and ">1.000<" in html  # 20 × 50
    assert "<h2>Auszahlungen</h2>" in html and "Sitzplan" in html
    assert "Finde deinen Platz<br>auf dem Handy" in html
    # The polls keep the language; the words the script writes come with the page.
    assert f'data-state-url="/display/{seated_tournament.display_token}/state.json?lang=de"' in html
    words = _strings(html)
    assert words["thousands"] == "."
    assert words["level"] == "Level %(number)s" and words["break"] == "Pause"
    assert words["more_places"] == "+%(count)s weitere: Plätze %(from)s–%(to)s"
    for english in ("Next break", "Avg stack", "Prize pool", "Payouts", "Starting soon"):
        assert english not in html


def test_the_tv_in_spanish_by_the_url(client, seated_tournament):
    html = _page(client, "tourney-display", seated_tournament, lang="es")
    assert '<html lang="es">' in html
    assert 'class="level-title">Nivel 1<' in html
    assert ">Ante BB 200<" in html and "Empieza pronto" in html
    assert "<dt>Descanso en</dt>" in html and "<dt>Jugadores</dt>" in html
    assert '"prize-pool-label">Bote<' in html and "<h2>Premios</h2>" in html
    assert _strings(html)["no_moves"] == "Sin cambios de mesa"


def test_a_break_and_its_color_up_in_german(client, seated_tournament):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="jump", index=1)
    html = _page(client, "tourney-display", t, lang="de")
    assert 'id="level-title" class="level-title">Pause<' in html
    assert "Color-up: Die 25er (grün) gehen aus dem Spiel" not in html  # the colour is the TD's
    assert "Color-up: Die 25er (green) gehen aus dem Spiel" in html


def test_the_tournaments_language_without_a_lang_and_the_url_over_it(client, seated_tournament):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(language="es")
    html = _page(client, "tourney-display", t)
    assert '<html lang="es">' in html and "Nivel 1" in html and "Bote<" in html
    assert "state.json?lang" not in html  # no ?lang= asked: the polls follow the tournament
    english = _page(client, "tourney-display", t, lang="en")
    assert '<html lang="en">' in english and "Level 1" in english and "Prize pool" in english
    assert "Bote" not in english


def test_english_stays_as_it_was(client, seated_tournament):
    html = _page(client, "tourney-display", seated_tournament)
    assert "Next break" in html and "Prize pool" in html and ">20,000<" in html
    assert _strings(html)["thousands"] == ","


# ---------------------------------------------------------------- the phone page


def test_the_phone_page_in_spanish_finds_a_seat(client, seated_tournament):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    html = _page(client, "tourney-player", t, lang="es", name="Player 01")
    assert '<html lang="es">' in html
    assert "Buscar mi asiento" in html and 'placeholder="Tu nombre"' in html
    assert '<input type="hidden" name="lang" value="es">' in html  # the form keeps it
    assert re.search(r'Mesa <b class="tbl">\d+</b> Asiento <b class="st">\d+</b>', html)
    find_url = reverse("tourney-player-find", args=[t.display_token])
    assert f'data-find-url="{find_url}?lang=es"' in html
    none = _page(client, "tourney-player-find", t, lang="es", name="Nobody Here")
    assert "Ningún jugador del torneo coincide con ese nombre." in none
    short = _page(client, "tourney-player-find", t, lang="de", name="x")
    assert "Gib mindestens 2 Buchstaben deines Namens ein." in short


def test_the_phone_page_in_german_shows_the_results_place(client, seated_tournament, director):
    t = seated_tournament
    Tournament.objects.filter(pk=t.pk).update(public_names="full")
    entry = t.entries.order_by("number").first()
    services.elimination_record(tournament_id=t.pk, busts=[(entry.pk, 5000)], actor=director)
    html = _page(client, "tourney-player", t, lang="de", name=entry.player.name)
    assert "Ausgeschieden auf Platz <b>20.</b>" in html
    html = _page(client, "tourney-player", t, lang="es", name=entry.player.name)
    assert "Eliminado en el puesto <b>20.º</b>" in html
    html = _page(client, "tourney-player", t, name=entry.player.name)
    assert "Out in <b>20th</b> place" in html


# ---------------------------------------------------------------- the words the server builds


def test_the_flight_line_places_and_bounties_in_the_screens_language(director, tournament):
    (flight,) = _flights(_event(director, letters=["A"], end_at_level=2, end_at_players=3))
    with translation.override("de"):
        assert public.build_state(flight)["flight"]["line"] == (
            "Tag 1A — Eintüten am Ende von Level 2 oder bei 3 Spielern"
        )
        assert public.place_text(4, 5) == "4.–5."
    with translation.override("es"):
        state = public.build_state(flight)
        assert state["flight"]["line"] == (
            "Día 1A — se embolsa al final del nivel 2 o al quedar 3 jugadores"
        )
        assert state["flight"]["pool_label"] == "Bote total"
        assert public.place_text(1, 1) == "1.º"
    assert public.place_text(22, 22) == "22nd"
    assert public.build_state(flight)["flight"]["pool_label"] == "Event pool"


# ---------------------------------------------------------------- the polled state and its ETag


def test_the_etag_and_the_state_differ_by_language(client, seated_tournament):
    t = seated_tournament
    english = _state(client, t)
    german = _state(client, t, lang="de")
    assert english.status_code == german.status_code == 200
    assert english["ETag"] != german["ETag"]
    assert english["ETag"].endswith('.en"') and german["ETag"].endswith('.de"')
    assert english.json()["average_stack"] == german.json()["average_stack"] == 20000
    # Each screen gets 304 for its own, never the other's answer for it.
    assert _state(client, t, german["ETag"], lang="de").status_code == 304
    assert _state(client, t, german["ETag"]).status_code == 200
    assert _state(client, t, english["ETag"], lang="de").status_code == 200
    # A newer version in another language is no answer either (is_current's version rule).
    parts = german["ETag"].strip('"').split(".")
    parts[1] = str(int(parts[1]) + 5)
    newer_german = '"' + ".".join(parts) + '"'
    assert _state(client, t, newer_german, lang="de").status_code == 304
    assert _state(client, t, newer_german).status_code == 200


def test_a_tournament_in_spanish_words_its_state_in_spanish(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        language="es", bounty_kind="fixed", bounty=2000
    )
    body = _state(client, tournament).json()
    assert body["etag"].endswith('.es"')
    assert body["bounties"]["title"] == "Bounty"  # as Spanish card rooms say it
    assert body["bounties"]["figures"][0]["label"] == "Por cada cabeza"
    english = _state(client, tournament, lang="en").json()
    assert english["bounties"]["title"] == "Bounty"


# ---------------------------------------------------------------- the lobby


def test_the_lobby_in_german_and_spanish(client, director, seated_tournament):
    tournament = seated_tournament
    services.clock_action(tournament_id=tournament.pk, action="start")
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk])
    url = reverse("tourney-lobby", args=[lobby.token])
    german = client.get(url, {"lang": "de"}).content.decode()
    assert '<html lang="de">' in german
    assert "<dt>Spieler</dt>" in german and "<dt>Ø Stack</dt>" in german
    assert "<dt>Pause in</dt>" in german and ">Sitzplan ›<" in german
    assert ">20.000<" in german and "BB-Ante 200" in german
    assert f"/display/{tournament.display_token}/?view=seating&amp;lang=de" in german
    assert 'data-state-url="/lobby/' in german and 'state.json?lang=de"' in german
    assert _strings(german)["next_break"] == "Pause in"
    assert _strings(german)["seats_left"] == "Freie Plätze"
    spanish = client.get(url, {"lang": "es"}).content.decode()
    assert "<dt>Jugadores</dt>" in spanish and "<dt>Stack medio</dt>" in spanish
    assert "Nivel 1" in spanish and "<dt>Bote</dt>" in spanish
    # The browser's language when the URL says none.
    browser = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es">' in browser and "Stack medio" in browser


def test_the_lobby_state_is_tagged_by_language(client, director, tournament):
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk])
    url = reverse("tourney-lobby-state", args=[lobby.token])
    english, german = client.get(url), client.get(url, {"lang": "de"})
    assert english["ETag"] != german["ETag"]
    assert english.json()["events"][0]["pool_label"] == "Prize pool"
    assert german.json()["events"][0]["pool_label"] == "Preisgeld"
    assert client.get(url, {"lang": "de"}, HTTP_IF_NONE_MATCH=german["ETag"]).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=german["ETag"]).status_code == 200
    lobby_reads.forget_version(lobby.token)


def test_the_api_stays_english(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(language="de")
    lobby = lobbies.lobby_create(name="Room", tournament_ids=[tournament.pk])
    r = client.get(f"/api/v1/lobby/{lobby.token}", {"lang": "de"}, HTTP_ACCEPT_LANGUAGE="de")
    assert r.status_code == 200
    assert r.json()["events"][0]["pool_label"] == "Prize pool"
