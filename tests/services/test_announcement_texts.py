"""Issue 29: the texts the displays speak (tourney/selectors/announcements.py), in the display's
language: a level with and without an ante or a big-blind ante, a break, a color-up of one and
of two chips, one minute left and the day's last hand, in English, German and Spanish; the
director's templates and their checks; the ``speech`` key of the display state."""

from __future__ import annotations

import pytest
from django.utils import translation

from tourney.engine.errors import DomainError
from tourney.selectors import announcements as a
from tourney.selectors import display as public
from tourney.services.announcements import announce

LEVEL_BB = {
    "kind": "level",
    "number": 9,
    "seconds": 1200,
    "small_blind": 1000,
    "big_blind": 2000,
    "ante": 0,
    "big_blind_ante": 2000,
}
LEVEL_ANTE = {**LEVEL_BB, "number": 10, "big_blind_ante": 0, "ante": 300}
LEVEL_PLAIN = {**LEVEL_BB, "number": 1, "small_blind": 25, "big_blind": 50, "big_blind_ante": 0}
BREAK = {"kind": "break", "seconds": 600, "color_up": []}
COLORUP_ONE = {**BREAK, "color_up": [25]}
COLORUP_TWO = {**BREAK, "color_up": [25, 100]}


def _texts(lang: str, items, j: int, *, last: bool = False) -> dict:
    with translation.override(lang):
        templates = {k: a.default_text(k) for k in a.KINDS}
        return a.item_texts(templates, items, j, last=last)


EXPECTED = {
    "en": {
        "bb": "Level 9, blinds 1000 – 2000, big-blind ante 2000.",
        "ante": "Level 10, blinds 1000 – 2000, ante 300.",
        "plain": "Level 1, blinds 25 – 50.",
        "break": "Break, 10 minutes. Level 10 starts after the break.",
        "one": "We are coloring up the 25 chips.",
        "two": "We are coloring up the 25 and 100 chips.",
        "minute": "One minute left in level 9.",
        "last": "One minute left in level 10, the last level of the day.",
    },
    "de": {
        "bb": "Level 9, Blinds 1000 – 2000, Big-Blind-Ante 2000.",
        "ante": "Level 10, Blinds 1000 – 2000, Ante 300.",
        "plain": "Level 1, Blinds 25 – 50.",
        "break": "Pause, 10 Minuten. Nach der Pause beginnt Level 10.",
        "one": "Color-up: Die Chips zu 25 werden aus dem Spiel genommen.",
        "two": "Color-up: Die Chips zu 25 und 100 werden aus dem Spiel genommen.",
        "minute": "Noch eine Minute in Level 9.",
        "last": "Noch eine Minute in Level 10, dem letzten Level des Tages.",
    },
    "es": {
        "bb": "Nivel 9, ciegas 1000 – 2000, ante de ciega grande 2000.",
        "ante": "Nivel 10, ciegas 1000 – 2000, ante 300.",
        "plain": "Nivel 1, ciegas 25 – 50.",
        "break": "Descanso de 10 minutos. Después del descanso empieza el nivel 10.",
        "one": "Hacemos el cambio de color de las fichas de 25.",
        "two": "Hacemos el cambio de color de las fichas de 25 y 100.",
        "minute": "Queda un minuto del nivel 9.",
        "last": "Queda un minuto del nivel 10, el último nivel del día.",
    },
}


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_each_kind_is_said_in_the_display_language(lang):
    want = EXPECTED[lang]
    items = [LEVEL_BB, BREAK, LEVEL_ANTE]
    assert _texts(lang, items, 0)["start"] == want["bb"]  # the ante's clause left out
    assert _texts(lang, items, 2)["start"] == want["ante"]  # the big-blind ante's left out
    assert _texts(lang, [LEVEL_PLAIN], 0)["start"] == want["plain"]  # neither
    assert _texts(lang, items, 1)["start"] == want["break"]
    one = _texts(lang, [LEVEL_BB, COLORUP_ONE, LEVEL_ANTE], 1)["start"]
    assert one == want["break"] + " " + want["one"]
    two = _texts(lang, [LEVEL_BB, COLORUP_TWO, LEVEL_ANTE], 1)["start"]
    assert two == want["break"] + " " + want["two"]
    assert _texts(lang, items, 0)["minute"] == want["minute"]
    last = _texts(lang, items, 2, last=True)
    assert last["last"] is True
    assert last["minute"].startswith(want["last"])  # then what the last hand means
    assert _texts(lang, items, 2)["minute"] != last["minute"]


def test_three_chips_are_joined_as_a_list_and_numbers_have_no_separators():
    items = [{**BREAK, "color_up": [25, 100, 500]}, {**LEVEL_BB, "small_blind": 12500}]
    with translation.override("de"):
        assert a.join_words(["25", "100", "500"]) == "25, 100 und 500"
    text = _texts("en", items, 0)["start"]
    assert text.endswith("We are coloring up the 25, 100 and 500 chips.")
    assert "Level 9 starts after the break" in text  # the next level held
    assert _texts("en", items, 1)["start"].startswith("Level 9, blinds 12500 – 2000")


def test_a_clause_with_an_empty_value_goes_and_its_sentence_end_moves_back():
    assert a.fill("Level %(level)s, ante %(ante)s.", {"level": "3", "ante": ""}) == "Level 3."
    template = "Level %(level)s, ante %(ante)s. Good luck, everyone!"
    assert a.fill(template, {"level": "3", "ante": ""}) == "Level 3. Good luck, everyone!"
    assert a.fill("100% of %(level)s", {"level": "4"}) == "100% of 4"
    # A break with no level after it in the state: its "starts after" sentence is left out.
    assert _texts("en", [BREAK], 0)["start"] == "Break, 10 minutes."


def test_a_level_of_a_minute_or_less_has_no_one_minute_text():
    short = {**LEVEL_BB, "seconds": 60}
    assert _texts("en", [short, LEVEL_ANTE], 0)["minute"] == ""


def test_a_template_with_an_unknown_place_is_refused_naming_it_and_the_known_ones():
    with pytest.raises(DomainError) as exc:
        a.check_template("level", "Level %(lvl)s, blinds %(small)s")
    assert exc.value.code == "bad_template"
    assert "%(lvl)s" in exc.value.message
    for place in a.PLACES["level"]:
        assert f"%({place})s" in exc.value.message
    assert set(exc.value.fields) == {"level"}
    with pytest.raises(DomainError) as exc:  # a place of another kind is unknown here
        a.check_template("level", "We color up the %(chips)s")
    assert "%(chips)s" in exc.value.message
    with pytest.raises(DomainError) as exc:
        a.check_template("break", "Break for %(minutes)d minutes")
    assert exc.value.code == "bad_template" and "%(minutes)s" in exc.value.message
    with pytest.raises(DomainError):
        a.check_template("level", "x" * (a.MAX_TEMPLATE + 1))
    with pytest.raises(DomainError):
        a.check_template("level", "Level\x00 %(level)s")
    with pytest.raises(DomainError):
        a.check_template("jingle", "Hello")
    assert a.check_template("level", "  Level  %(level)s\n now ") == "Level %(level)s now"
    assert a.check_template("level", "") == ""


def test_the_refusal_reads_in_the_director_language_on_a_screen():
    from tourney.core.language import refusal_text

    with translation.override("de"):
        with pytest.raises(DomainError) as exc:
            a.check_template("level", "Level %(lvl)s")
        text = refusal_text(exc.value)
    assert "unbekannten Platzhalter %(lvl)s" in text


@pytest.mark.django_db
def test_the_display_state_speaks_the_director_template_in_the_active_language(tournament):
    tournament.announce_templates = {"level": "Neues Level %(level)s: %(small)s / %(big)s."}
    tournament.save(update_fields=["announce_templates"])
    announce(tournament_id=tournament.pk, text="Seat open at table 7")
    with translation.override("de"):
        state = public.build_state(tournament)
    speech = state["speech"]
    assert speech["lang"] == "de"
    assert speech["on"] is True
    assert [i["start"] for i in speech["items"]][0] == "Neues Level 1: 100 / 200."
    # The break (color-up of the 25s) in German defaults; the last level: the last hand.
    assert speech["items"][1]["start"] == (
        "Pause, 10 Minuten. Nach der Pause beginnt Level 2. "
        "Color-up: Die Chips zu 25 werden aus dem Spiel genommen."
    )
    assert speech["items"][2]["last"] is True
    assert speech["items"][2]["minute"].startswith("Noch eine Minute in Level 2, dem letzten")
    assert [x["text"] for x in speech["announcements"]] == ["Seat open at table 7"]
    assert speech["test"].startswith("Tontest.")


@pytest.mark.django_db
def test_a_stored_template_no_longer_valid_falls_back_to_the_default(tournament):
    tournament.announce_templates = {"level": "Level %(nope)s", "break": 7}
    assert a.template_of(tournament, "level") == a.default_text("level")
    assert a.template_of(tournament, "break") == a.default_text("break")


@pytest.mark.django_db
def test_the_previews_say_the_current_level_the_next_break_and_the_last_hand(tournament):
    from tourney.selectors.clock import structure_items

    items = structure_items(tournament)
    with translation.override("en"):
        shown = a.previews(a.templates_of(tournament), items, 0)
    assert shown["level"] == "Level 1, blinds 100 – 200, big-blind ante 200."
    assert shown["break"] == "Break, 10 minutes. Level 2 starts after the break."
    assert shown["colorup"] == "We are coloring up the 25 chips."
    assert shown["one_minute"] == "One minute left in level 1."
    assert shown["last_hand"].startswith("One minute left in level 2, the last level")
