"""Issue 29, the director's other pages in German and Spanish: the language chooser (Django's
set_language, the choice kept in the language cookie), ``?lang=`` for one request, the API
in English whatever the browser asks, money in the language's separators, and the home, room,
players, leagues and lobbies pages and their refusals translated."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from tourney import services
from tourney.core import money_text
from tourney.engine.money_format import money_exact, money_whole
from tourney.models import Entry, League, Lobby, Player
from tourney.rulebook import MSG_ENGLISH_ONLY, rule_book
from tourney.services import leagues as league_writes
from tourney.services import room as room_writes
from tourney.views.leagues.rows import standings_rows

pytestmark = pytest.mark.django_db

NBSP = "\xa0"


def _choose(client, language: str, back: str = "/"):
    return client.post(reverse("set_language"), {"language": language, "next": back})


# ---------------------------------------------------------------- the chooser


def test_the_chooser_is_on_the_home_page_and_posts_to_set_language(td):
    html = td.get(reverse("home")).content.decode()
    assert 'id="language-form"' in html
    assert f'action="{reverse("set_language")}"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert '<option value="de" lang="de">Deutsch</option>' in html
    assert '<html lang="en">' in html


def test_the_chooser_switches_the_home_to_german_and_back(td):
    r = _choose(td, "de", "/past/")
    assert r.status_code == 302 and r["Location"] == "/past/"  # back to the same page
    assert td.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    html = td.get(reverse("home")).content.decode()
    assert "Heute und demnächst" in html and "Today and upcoming" not in html
    assert '<html lang="de">' in html
    assert '<option value="de" lang="de" selected>' in html
    # the choice holds on the other pages too
    assert "Vergangene Turniere" in td.get(reverse("tourney-past")).content.decode()
    _choose(td, "en")
    assert "Today and upcoming" in td.get(reverse("home")).content.decode()


def test_the_chooser_speaks_spanish_too(td):
    _choose(td, "es")
    assert "Hoy y próximos" in td.get(reverse("home")).content.decode()


def test_the_chooser_refuses_a_post_without_its_csrf_token(director):
    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    c.force_login(director)
    assert c.post(reverse("set_language"), {"language": "de"}).status_code == 403


def test_an_unknown_language_changes_nothing(td):
    _choose(td, "xx")
    assert "Today and upcoming" in td.get(reverse("home")).content.decode()


def test_lang_in_the_url_is_for_that_request_only(td):
    html = td.get(reverse("tourney-room"), {"lang": "de"}).content.decode()
    assert "Saal und Tische" in html and "Room and tables" not in html
    assert "Room and tables" in td.get(reverse("tourney-room")).content.decode()


def test_the_api_stays_english_whatever_the_browser_asks(director_api):
    with translation.override("de"):  # the screens have it in German
        assert translation.gettext(room_writes.MSG_NAME) != room_writes.MSG_NAME
    r = director_api.client.put(
        "/api/v1/room?lang=de",
        data='{"name": "%s", "floor_plan": ""}' % ("x" * 121),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="de",
        **director_api.headers,
    )
    assert r.status_code == 400
    assert r.json()["error"]["message"] == room_writes.MSG_NAME
    r = director_api.client.get(
        "/api/v1/room/tournaments?lang=de", HTTP_ACCEPT_LANGUAGE="de", **director_api.headers
    )
    assert r.status_code == 200


# ---------------------------------------------------------------- money and numbers


@pytest.mark.parametrize(
    ("amount", "thousands", "decimal", "exact", "whole"),
    [
        (123456, ",", ".", "1,234.56", "1,234.56"),
        (123400, ",", ".", "1,234.00", "1,234"),
        (123456, ".", ",", "1.234,56", "1.234,56"),
        (123400, ".", ",", "1.234,00", "1.234"),
        (100000000, ".", ",", "1.000.000,00", "1.000.000"),
        (123456, NBSP, ",", f"1{NBSP}234,56", f"1{NBSP}234,56"),
        (5, ".", ",", "0,05", "0,05"),
    ],
)
def test_the_engine_writes_money_with_the_separators_given(
    amount, thousands, decimal, exact, whole
):
    assert money_exact(amount, thousands, decimal) == exact
    assert money_whole(amount, thousands, decimal) == whole


def test_the_engine_defaults_to_english():
    assert (money_exact(123450), money_whole(123400)) == ("1,234.50", "1,234")


@pytest.mark.parametrize(
    ("lang", "exact", "whole"),
    [
        ("en", "1,234.50", "1,234"),
        ("de", "1.234,50", "1.234"),
        ("es", f"1{NBSP}234,50", f"1{NBSP}234"),
    ],
)
def test_money_follows_the_active_language(lang, exact, whole):
    """Django's locale data: German groups with ".", Spanish with a non-breaking space."""
    with translation.override(lang):
        assert money_text.money_exact(123450) == exact
        assert money_text.money_whole(123400) == whole
        rendered = Template("{% load money %}{{ x|money }}").render(Context({"x": 123450}))
        assert rendered == exact


def test_standings_points_and_money_follow_the_language():
    from decimal import Decimal

    from tourney.selectors.standings import Row

    row = Row(
        rank=1, player=1, name="Ann", nickname="", events=2, counted=2,
        points=Decimal("1234.5"), wins=1, cashes=1, winnings=123450, bounties=0, knockouts=0,
    )  # fmt: skip
    with translation.override("de"):
        shown = standings_rows([row])[0]
    assert (shown["points"], shown["winnings"]) == ("1.234,50", "1.234,50")
    with translation.override("en"):
        shown = standings_rows([row])[0]
    assert (shown["points"], shown["winnings"]) == ("1,234.50", "1,234.50")


def test_a_players_winnings_in_german_on_the_player_page(td, seated_tournament):
    entry = Entry.objects.get(tournament=seated_tournament, number=1)
    Entry.objects.filter(pk=entry.pk).update(prize=123450)
    url = reverse("tourney-players-detail", args=[entry.player_id])
    assert "1,234.50" in td.get(url).content.decode()
    html = td.get(url, {"lang": "de"}).content.decode()
    assert "1.234,50" in html and "Gewinne" in html and "Verlauf" in html


# ---------------------------------------------------------------- the pages in German


@pytest.mark.parametrize(
    ("name", "german"),
    [
        ("home", ["Heute und demnächst", "Neues Turnier", "Ligen", "Abmelden", "Sprache"]),
        ("tourney-past", ["Vergangene Turniere", "Braucht Sie"]),
        ("tourney-room", ["Saal und Tische", "Saalplan", "Noch keine Änderung."]),
        ("tourney-players", ["Neuer Spieler", "Spieler suchen", "Mitgliedschaft"]),
        ("tourney-players-new", ["Spitzname", "Mitgliedsnummer", "Speichern"]),
        ("tourney-players-import", ["Spieler aus einer CSV-Datei importieren"]),
        ("tourney-players-changes", ["Letzte Änderungen", "Noch nichts."]),
        ("tourney-leagues", ["Ligen und ihre Saisons", "Liga anlegen"]),
        ("tourney-leagues-changes", ["Letzte Liga- und Saisonänderungen"]),
        ("tourney-lobbies", ["Neue Lobby-Anzeige", "Events pro Seite", "Nur diese:"]),
    ],
)
def test_the_pages_speak_german(td, name, german):
    html = td.get(reverse(name), {"lang": "de"}).content.decode()
    missing = [text for text in german if text not in html]
    assert missing == []


def test_the_home_rows_speak_german(td, seated_tournament):
    html = td.get(reverse("tourney-home-rows"), {"lang": "de"}).content.decode()
    assert "Anmeldung" in html and "Kasse" in html and "Anzeige" in html
    assert "status-registering" in html  # the code stays for the page's colours


def test_a_season_and_its_standings_in_spanish(td, director):
    league = league_writes.league_create(name="Liga", actor=director)
    season = league_writes.season_create(
        league_id=league.pk, name="Invierno", actor=director, scoring="place_table"
    )
    html = td.get(reverse("tourney-season", args=[season.pk]), {"lang": "es"}).content.decode()
    assert "Puntuación" in html and "Torneos de la temporada" in html
    assert "Puntos por puesto (tabla)" in html  # the scoring's name
    settings_page = td.get(reverse("tourney-season-settings", args=[season.pk]), {"lang": "es"})
    assert "Nombre de la temporada" in settings_page.content.decode()
    html = td.get(reverse("tourney-league", args=[league.pk]), {"lang": "de"}).content.decode()
    assert "Punkte nach Platz (Tabelle)" in html and "Neue Saison" in html
    public = td.get(reverse("tourney-public-standings", args=[season.public_token]), {"lang": "es"})
    assert "Clasificación" in public.content.decode()


def test_a_lobby_page_in_german(td, director):
    Lobby.objects.create(name="Bar")
    lobby = Lobby.objects.get(name="Bar")
    html = td.get(reverse("tourney-lobbies-edit", args=[lobby.pk]), {"lang": "de"}).content
    assert "Diese Lobby-Anzeige löschen" in html.decode()


def test_a_player_merge_page_in_german(td, seated_tournament):
    keep, other = (Entry.objects.get(tournament=seated_tournament, number=n) for n in (1, 2))
    Player.objects.filter(pk=keep.player_id).update(email="")
    Player.objects.filter(pk=other.player_id).update(email="x@example.org")
    url = reverse("tourney-players-merge", args=[keep.player_id])
    html = td.get(url, {"other": other.player_id, "lang": "de"}).content.decode()
    assert "Bleibt: Player 01" in html and "E-Mail" in html


# ---------------------------------------------------------------- refusals on the screens


def test_a_room_refusal_in_german_while_the_api_message_stays_english(td):
    _choose(td, "de")
    r = td.post(reverse("tourney-room"), {"name": "x" * 121, "floor_plan": ""})
    assert r.status_code == 400
    html = r.content.decode()
    assert "Der Name des Saals hat höchstens 120 Zeichen." in html
    assert "The room&#x27;s name" not in html and "The room's name" not in html


def test_a_refusal_with_values_in_spanish(td, director, seated_tournament):
    services.tournament_create(actor=director, name="Main", tables=2, seed=1)
    _choose(td, "es")
    r = td.post(reverse("tourney-room"), {"name": "", "floor_plan": "1"})
    assert r.status_code == 409
    assert "El plano deja fuera la(s) mesa(s)" in r.content.decode()


def test_a_lobby_form_refusal_names_its_field_in_german(td):
    data = {"name": "Bar", "per_page": "x", "page_seconds": "15", "mode": "all"}
    r = td.post(reverse("tourney-lobbies") + "?lang=de", data)
    assert r.status_code == 400
    assert "Events pro Seite: geben Sie eine ganze Zahl ein." in r.content.decode()
    r = td.post(reverse("tourney-lobbies"), data)
    assert "Events per page: type a whole number." in r.content.decode()


def test_a_league_refusal_in_german(td):
    r = td.post(reverse("tourney-leagues") + "?lang=de", {"name": ""})
    assert r.status_code == 400
    assert "Geben Sie einen Namen mit 1 bis 120 Zeichen ein." in r.content.decode()
    assert League.objects.count() == 0


def test_a_player_form_refusal_in_german(td):
    r = td.post(reverse("tourney-players-new") + "?lang=de", {"name": ""})
    assert r.status_code == 400
    html = r.content.decode()
    assert "Einige Felder müssen korrigiert werden." in html
    assert "Geben Sie den Namen des Spielers ein." in html


# ---------------------------------------------------------------- the rule book


def test_the_rules_page_says_the_book_is_in_english_in_german_only():
    with translation.override("de"):
        assert rule_book().note == "Das Regelbuch ist auf Englisch."
    with translation.override("es"):
        assert rule_book().note == "El reglamento está en inglés."
    with translation.override("en"):
        assert rule_book().note == ""
    assert MSG_ENGLISH_ONLY == "The rule book is in English."


def test_the_rules_page_shows_the_note(td):
    html = td.get(reverse("tourney-rules"), {"lang": "es"}).content.decode()
    assert "El reglamento está en inglés." in html
    assert "The rule book is in English." not in td.get(reverse("tourney-rules")).content.decode()
