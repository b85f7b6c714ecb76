"""Issue 29: the director's setup, settings, structure, event and bag pages speak the browser's
language (Accept-Language) or the one chosen (the language cookie): the labels, the choices,
the reasons a field is locked, a structure's problems in the words of the levels box, the
refusals, numbers and dates. English stays as it was (the other view tests read it)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, strip_tags
from django.utils.translation import override

from tests.services.test_flights_services import _three_flights
from tests.views.test_bags_views import _bag_both_tables, _ended, _post
from tests.views.test_event_views import FORM
from tests.views.test_settings_view import _posted
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event
from tourney.services import setup

pytestmark = pytest.mark.django_db

SETUP_WORDS = {
    "de": [
        "Turnier anlegen",  # the big button
        "Startstack",  # a field's label
        "Regulär (20-Minuten-Level)",  # a choice of the form
        "Keine Bounties",  # a model's choice label
        "Über mehrere Tage gespielt, in Flights an Tag 1?",
        "Struktur-Vorschau",
        "Auszahlungen, % pro Platz",  # a percent sign in a label, once
    ],
    "es": [
        "Crear torneo",
        "Stack inicial",
        "Normal (niveles de 20 minutos)",
        "Sin recompensas",
        "¿Se juega en varios días, con flights en el Día 1?",
        "Vista previa de la estructura",
        "Premios, % por puesto",
    ],
    "en": [
        "Create tournament",
        "Starting stack",
        "Regular (20-minute levels)",
        "No bounties",
        "Played over several days, in Day 1 flights?",
        "Preview structure",
        "Payouts, % per place",
    ],
}


def _text(response) -> str:
    return strip_tags(response.content.decode()).replace("&#x27;", "'")


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_the_setup_page_speaks_the_browsers_language(td, lang):
    r = td.get(reverse("tourney-dashboard-setup"), HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200
    html = r.content.decode()
    for words in SETUP_WORDS[lang]:
        assert escape(words) in html, words


@pytest.mark.parametrize(
    ("lang", "headline", "field"),
    [
        ("de", "Einige Felder müssen geprüft werden.", "Ein Betrag wie 100 oder 12.50"),
        ("es", "Algunos campos necesitan revisión.", "Un importe como 100 o 12.50"),
    ],
)
def test_a_refused_setup_form_says_why_in_the_language(td, lang, headline, field):
    body = {**FORM, "name": "Sunday", "buy_in": "lots"}
    r = td.post(reverse("tourney-dashboard-setup"), body, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400
    text = _text(r)
    assert field in text  # the service's refusal at its field, translated
    assert "An amount like 100" not in text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "kann sich nicht ändern: 20 Entries haben sich bereits zum jetzigen Wert",
                "Die Plätze pro Tisch können sich nicht ändern: 20 Spieler sitzen bereits.",
                "Jede Änderung wird im Ereignisprotokoll festgehalten",
                "Preise runden auf",
            ],
        ),
        (
            "es",
            [
                "no puede cambiar: 20 entradas ya han pagado con el valor actual.",
                "Los asientos por mesa no pueden cambiar: ya hay 20 jugadores sentados.",
                "Cada cambio queda en el registro de eventos",
                "Redondear premios a",
            ],
        ),
        (
            "en",
            [
                "Buy-in cannot change: 20 entries have already bought in at the current one.",
                "Seats per table cannot change: 20 players are already seated.",
                "Every change is recorded in the event log",
                "Round prizes to",
            ],
        ),
    ],
)
def test_the_settings_page_says_why_a_field_is_locked_in_the_language(
    td, seated_tournament, lang, words
):
    td.cookies[settings.LANGUAGE_COOKIE_NAME] = lang  # the language chosen in the footer
    r = td.get(reverse("tourney-dashboard-settings", args=[seated_tournament.pk]))
    assert r.status_code == 200
    text = _text(r)
    for w in words:
        assert w in text, w


def test_a_settings_refusal_is_translated_and_the_api_keeps_english(td, tournament):
    url = reverse("tourney-dashboard-settings", args=[tournament.pk])
    r = td.post(url, _posted(tournament, payouts="50 30"), HTTP_ACCEPT_LANGUAGE="de")
    assert r.status_code == 400
    assert "Die Prozente ergeben zusammen 80, nicht 100" in _text(r)
    # the refusal itself keeps its English (what the API answers)
    with override("de"):
        with pytest.raises(DomainError) as exc:
            setup.parse_payouts("50 30")
    assert exc.value.message == setup.MSG_PAYOUTS_SUM % {"total": "80"}


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        (
            "de",
            "Level 1: der Small Blind muss eine ganze Zahl über null sein (höchstens 15 "
            "Stellen), z. B. 100.",
        ),
        (
            "es",
            "Nivel 1: la ciega pequeña debe ser un número entero mayor que cero (15 cifras "
            "como máximo), p. ej. 100.",
        ),
    ],
)
def test_a_structure_problem_is_told_in_the_words_of_the_levels_box(td, director, lang, line):
    t = services.tournament_create(actor=director, name="Edit me", tables=0)
    url = reverse("tourney-dashboard-structure", args=[t.pk])
    r = td.post(url, {"levels_text": "0/100 20", "save": "1"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400 and line in _text(r)
    # the same line under the setup form's levels box
    body = {**FORM, "name": "Typed", "structure": "custom", "levels_text": "0/100 20"}
    r = td.post(reverse("tourney-dashboard-setup"), body, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400 and line in _text(r)


def test_a_multiple_of_the_smallest_chip_is_told_with_the_languages_numbers(td, director):
    t = services.tournament_create(actor=director, name="Edit me", tables=0)
    url = reverse("tourney-dashboard-structure", args=[t.pk])
    r = td.post(
        url, {"levels_text": "25/50 20\n1010/2020 20", "save": "1"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert r.status_code == 400
    text = _text(r)
    assert "Level 2: Small Blind 1.010 ist kein Vielfaches von 25, dem kleinsten Chip" in text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "Flights von Tag 1",
                "Warten auf: Tag 1A, Tag 1B, Tag 1C",
                "auf seine Feldgröße reduziert",
                "Größter Stack kommt weiter",
                "Das Geld des Events",
            ],
        ),
        (
            "es",
            [
                "Flights del Día 1",
                "Esperando a: Día 1A, Día 1B, Día 1C",
                "reducido a su número de jugadores",
                "Pasa el stack más grande",
                "El dinero del evento",
            ],
        ),
    ],
)
def test_the_event_page_in_the_language(td, director, lang, words):
    event, _, _ = _three_flights(director)
    r = td.get(reverse("tourney-event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200
    text = " ".join(_text(r).split())
    for w in words:
        assert w in text, w


@pytest.mark.parametrize(
    ("lang", "words", "date_format"),
    [
        (
            "de",
            ["Tisch 2 · Platz 6", "Bag 8", "8 Bag-Etiketten", ">30.000<", ">29.400<"],
            "%d.%m.%Y",
        ),
        (
            "es",
            ["Mesa 2 · Asiento 6", "Bolsa 8", "8 etiquetas de bolsa", ">30\xa0000<"],
            "%d/%m/%Y",
        ),
        ("en", ["Table 2 · Seat 6", "Bag 8", "8 bag labels", ">30,000<", ">29,400<"], "%Y-%m-%d"),
    ],
)
def test_the_bag_labels_print_in_the_language(td, director, lang, words, date_format):
    t = _ended(director)
    _bag_both_tables(td, t, short=600)
    td.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    r = td.get(reverse("tourney-dashboard-bag-labels", args=[t.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    for w in words:
        assert w in html, w
    assert timezone.localdate().strftime(date_format) in html


def test_the_bag_messages_and_the_csv_header(td, director):
    t = _ended(director)
    r = _post(td, t, 1, ["30000"] * 4, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert r.status_code == 200
    assert "Tisch 1: 4 Bags erfasst, 120.000 Chips." in _text(r)
    # the CSV stays English in every language: programs read its header
    td.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    csv_text = td.get(reverse("tourney-dashboard-chip-report-csv", args=[t.pk])).content
    assert csv_text.decode().splitlines()[0] == "rank,name,chips,table,seat,flight"


def test_a_saved_change_is_worded_in_the_language_and_logged_in_english(td, tournament):
    url = reverse("tourney-dashboard-settings", args=[tournament.pk])
    body = _posted(tournament, reentries="3")
    r = td.post(url, body, HTTP_ACCEPT_LANGUAGE="de", HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    assert "Gespeichert. Re-Entries pro Spieler: 0 → 3" in " ".join(_text(r).split())
    logged = Event.objects.filter(tournament=tournament, kind="settings_changed").get()
    assert logged.payload["summary"] == "Re-entries per player: 0 → 3"


def test_a_day2_form_refusal_names_the_field_in_the_language(td, director):
    event, _, _ = _three_flights(director)
    url = reverse("tourney-event-day2", args=[event.pk])
    body = {"tables": "x", "seats": "9", "level": ""}
    r = td.post(url, body, HTTP_ACCEPT_LANGUAGE="es")
    assert r.status_code == 400
    text = _text(r)
    assert "Mesas:" in text and "Tables:" not in text
    r = td.post(url, {"tables": "2000", "seats": "9"}, HTTP_ACCEPT_LANGUAGE="de")
    assert "Tische von 0 bis 1000, Plätze pro Tisch von 2 bis 12." in _text(r)
