"""Issue 29: the director's dashboard speaks the director's language (the browser's
Accept-Language, or the language chosen: Django's cookie), German and Spanish to start: the
panels' titles, the clock's words, the event log's lines (built at read time from the stored
payload, so an old line reads in the language of today's screen), the refusals (a view's own
and a service's or an engine's, translated at the screen with their values filled in), the
printouts. The API and an English screen stay as they were."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tables.models import Seat
from tourney.engine import clock as clock_engine
from tourney.models import Tournament
from tourney.views.dashboard import log_words, panels

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _client(user, *, accept: str | None = None, cookie: str | None = None) -> Client:
    c = Client(**({"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}))
    if cookie:
        c.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    c.force_login(user)
    return c


def url(name: str, t: Tournament, *args) -> str:
    return reverse(name, args=[t.pk, *args])


def _running_with_a_bust(c: Client, t: Tournament) -> None:
    """The clock started and one player out (a log line each, a last hand, moves maybe)."""
    assert c.post(url("tourney-dashboard-clock", t), {"action": "start"}, **HX).status_code == 200
    seat = Seat.objects.filter(tournament=t, table__number=1, entry__isnull=False).first()
    r = c.post(
        url("tourney-dashboard-eliminations", t),
        {"confirm": "1", "entry_1": seat.entry_id},
        **HX,
    )
    assert r.status_code == 200, r.content.decode()[:500]


# The panels' words (as the catalog translates them: a shared word may be worded by another
# screen's translator), each of which must read differently from the English.
PANEL_WORDS = [
    "Event log",
    "Moves to announce",
    "Money",
    "Tables",
    "Eliminations",
    "Running",
    "Pause",
    "Last hand",
    "Find a player",
]
# The log line of the bust and the clock's level, exactly.
EXACT = {"de": ["Ausgeschieden: 20.", "Level 1"], "es": ["Eliminados: 20.º", "Nivel 1"]}


@pytest.mark.parametrize(
    ("how", "lang"),
    [({"accept": "de"}, "de"), ({"cookie": "es"}, "es")],
    ids=["de-accept-language", "es-cookie"],
)
def test_the_dashboard_speaks_the_directors_language(seated_tournament, director, how, lang):
    c = _client(director, **how)
    _running_with_a_bust(c, seated_tournament)
    html = c.get(url("tourney-dashboard", seated_tournament)).content.decode()
    with translation.override(lang):
        words = [translation.gettext(w) for w in PANEL_WORDS]
    for english, translated in zip(PANEL_WORDS, words, strict=True):
        assert translated != english or english == "Pause", english
        assert escape(translated) in html, translated
    for words in EXACT[lang]:
        assert words in html, words
    for english in ("Event log", "Last hand", "Moves to announce"):
        assert english not in html, english
    assert f'<html lang="{lang}">' in html


def test_english_is_unchanged(seated_tournament, director):
    c = _client(director)
    _running_with_a_bust(c, seated_tournament)
    html = c.get(url("tourney-dashboard", seated_tournament)).content.decode()
    for words in ("Event log", "Moves to announce", "Last hand", "Out: 20th", "Clock start"):
        assert words in html, words
    assert "Ereignisprotokoll" not in html and "Registro de eventos" not in html


def test_a_refusal_of_the_view_reads_in_german_with_its_values(seated_tournament, director):
    c = _client(director, accept="de")
    r = c.post(
        url("tourney-dashboard-eliminations", seated_tournament),
        {"table_1": "9", "seat_1": "9"},
        **HX,
    )
    assert r.status_code == 409
    assert "An Tisch 9 Platz 9 sitzt niemand." in r.content.decode()
    # The English a test or the API compares is still the constant, filled in.
    with translation.override("en"):
        assert panels.MSG_NOBODY_THERE.format(table=9, seat=9) == ("Nobody sits at table 9 seat 9.")


def test_a_refusal_of_the_engine_reads_in_spanish(seated_tournament, director):
    c = _client(director, accept="es")
    r = c.post(url("tourney-dashboard-clock", seated_tournament), {"action": "pause"}, **HX)
    assert r.status_code == 409
    html = r.content.decode()
    with translation.override("es"):
        spanish = translation.gettext(clock_engine.MSG_NOT_STARTED)
    assert spanish != clock_engine.MSG_NOT_STARTED and escape(spanish) in html
    assert clock_engine.MSG_NOT_STARTED not in html


def test_a_bad_number_names_its_field_in_german(seated_tournament, director):
    c = _client(director, accept="de")
    r = c.post(url("tourney-dashboard-table-close", seated_tournament), {"table": "x"}, **HX)
    assert r.status_code == 400
    with translation.override("de"):
        german = translation.gettext("%(label)s: give a whole number.") % {
            "label": translation.gettext("Table")
        }
    assert german.startswith("Tisch") and escape(german) in r.content.decode()


def test_the_api_keeps_english(seated_tournament, director_api):
    director_api.headers["HTTP_ACCEPT_LANGUAGE"] = "de"
    r = director_api.post(f"/api/v1/tournaments/{seated_tournament.pk}/clock", {"action": "pause"})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "clock_not_started",
        "message": clock_engine.MSG_NOT_STARTED,
        "fields": {},
    }
    assert clock_engine.MSG_NOT_STARTED == "The clock has not started."


def test_log_lines_are_built_at_read_time_in_the_active_language():
    p = {"table": 3, "seat": 4, "available": False}
    with translation.override("de"):
        assert log_words._event_words("seat_availability", p) == "Tisch 3 Platz 4 gesperrt"
        assert log_words.place_words(12, 13) == "12.–13. (geteilt)"
        assert log_words._event_words("clock_start", {}) == "Uhr gestartet"
    with translation.override("es"):
        assert log_words._event_words("hand_for_hand", {"on": True}) == "Mano a mano activado"
        assert log_words.place_words(1, None) == "1.º"
    with translation.override("en"):
        assert log_words._event_words("seat_availability", p) == "Table 3 seat 4 unavailable"
        assert log_words.place_words(12, 13) == "12th–13th (tie)"
        assert log_words._event_words("clock_start", {}) == "Clock start"


@pytest.mark.parametrize(
    ("name", "german"),
    [
        ("tourney-dashboard-print-seating", "Sitzliste"),
        ("tourney-dashboard-print-tables", "Tischblätter"),
        ("tourney-dashboard-print-redraw", "Neuauslosung"),
        ("tourney-dashboard-colorup", "Color-up"),
        ("tourney-dashboard-floor", "Side-Pots"),
        ("tourney-dashboard-display-token", "Anzeige-Link"),
    ],
)
def test_the_other_director_pages_speak_german(seated_tournament, director, name, german):
    c = _client(director, accept="de")
    html = c.get(url(name, seated_tournament)).content.decode()
    assert german in html
    assert "Turnierleitung" in html  # the top bar: Director tools
