"""Issue 29: "announce now" and the announcement settings (tourney/services/announcements.py).
An announcement is trimmed, 1 to 300 characters, recorded in the event log (and the general
undo walks past it); bad input is refused with nothing written. The settings (the screens'
language, speech, the texts by kind) are one recorded action, undone and redone."""

from __future__ import annotations

import pytest

from tourney.engine.errors import DomainError
from tourney.feed_models import Announcement
from tourney.models import Event
from tourney.services.announcements import announce, announce_settings_set
from tourney.services.undo import action_redo, action_undo, undo_target

pytestmark = pytest.mark.django_db


def test_an_announcement_is_trimmed_recorded_and_bumps_the_version(tournament, director):
    before = tournament.version
    made = announce(tournament_id=tournament.pk, text="  Seat open\n at table 7  ", actor=director)
    assert made.text == "Seat open at table 7"
    assert made.created_by == director
    made.refresh_from_db()
    assert made.tournament_id == tournament.pk
    tournament.refresh_from_db()
    assert tournament.version > before  # the displays' ETag changes: they fetch it
    event = Event.objects.filter(tournament=tournament).latest("id")
    assert event.kind == "announced"
    assert event.payload == {"text": "Seat open at table 7", "announcement": made.pk}
    assert event.actor == director


def test_the_log_says_what_was_announced(tournament, director):
    from tourney.views.dashboard.reads import _event_words

    announce(tournament_id=tournament.pk, text="Seat open at table 7", actor=director)
    event = Event.objects.filter(tournament=tournament, kind="announced").get()
    assert _event_words(event.kind, event.payload) == "Announced: Seat open at table 7"


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t ", "x" * 301, "Seat\x00 open", None, 7],
    ids=["empty", "blank", "too-long", "nul", "none", "number"],
)
def test_bad_input_is_refused_and_nothing_is_written(tournament, director, text):
    events = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        announce(tournament_id=tournament.pk, text=text, actor=director)
    assert exc.value.code == "bad_input"
    assert set(exc.value.fields) == {"text"}
    assert Announcement.objects.count() == 0
    assert Event.objects.count() == events


def test_three_hundred_characters_are_enough_and_an_unknown_tournament_is_a_404(tournament):
    assert len(announce(tournament_id=tournament.pk, text="y" * 300).text) == 300
    with pytest.raises(DomainError) as exc:
        announce(tournament_id=tournament.pk + 999, text="Hello")
    assert exc.value.status == 404
    assert Announcement.objects.count() == 1


def test_undo_walks_past_an_announcement_to_the_last_action(tournament, director):
    announce_settings_set(tournament_id=tournament.pk, speech=False, actor=director)
    announce(tournament_id=tournament.pk, text="Seat open at table 7", actor=director)
    target = undo_target(tournament)
    assert target.kind == "settings_changed"
    action_undo(tournament_id=tournament.pk, actor=director)
    tournament.refresh_from_db()
    assert tournament.announce_speech is True
    assert Announcement.objects.count() == 1  # what was said stays said


def test_the_settings_are_one_action_undone_and_redone(tournament, director):
    changed = announce_settings_set(
        tournament_id=tournament.pk,
        language="de",
        speech=False,
        templates={"level": "Level %(level)s!", "break": ""},
        actor=director,
    )
    assert changed == {
        "language": ["", "de"],
        "announce_speech": [True, False],
        "announce_templates": [{}, {"level": "Level %(level)s!"}],
    }
    tournament.refresh_from_db()
    assert (tournament.language, tournament.announce_speech) == ("de", False)
    event = Event.objects.filter(tournament=tournament).latest("id")
    assert event.kind == "settings_changed"
    assert event.payload["summary"].startswith("Screens' language: the site's language → Deutsch")
    action_undo(tournament_id=tournament.pk, actor=director)
    tournament.refresh_from_db()
    assert (tournament.language, tournament.announce_speech) == ("", True)
    assert tournament.announce_templates == {}
    action_redo(tournament_id=tournament.pk, actor=director)
    tournament.refresh_from_db()
    assert tournament.language == "de"
    assert tournament.announce_templates == {"level": "Level %(level)s!"}


def test_kinds_left_out_keep_their_text_and_the_default_words_mean_the_default(tournament):
    tid = tournament.pk
    announce_settings_set(tournament_id=tid, templates={"level": "L %(level)s", "break": "B"})
    announce_settings_set(tournament_id=tid, templates={"break": ""})
    tournament.refresh_from_db()
    assert tournament.announce_templates == {"level": "L %(level)s"}
    # The German default typed back in a German room: the default (it follows the language).
    announce_settings_set(tournament_id=tid, language="de")
    german = "Level %(level)s, Blinds %(small)s – %(big)s, Ante %(ante)s, Big-Blind-Ante "
    announce_settings_set(tournament_id=tid, templates={"level": german + "%(bb_ante)s."})
    tournament.refresh_from_db()
    assert tournament.announce_templates == {}


def test_setting_what_is_set_records_nothing(tournament, director):
    events = Event.objects.count()
    assert announce_settings_set(tournament_id=tournament.pk, speech=True, language="") == {}
    assert Event.objects.count() == events


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"language": "fr"}, "language"),
        ({"speech": "yes"}, "speech"),
        ({"templates": ["level"]}, "templates"),
        ({"templates": {"level": "Level %(lvl)s"}}, "level"),
        ({"templates": {"jingle": "la la"}}, None),
    ],
    ids=["language", "speech", "templates-shape", "unknown-place", "unknown-kind"],
)
def test_bad_settings_are_refused_and_nothing_changes(tournament, director, kwargs, field):
    events = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        announce_settings_set(tournament_id=tournament.pk, actor=director, **kwargs)
    assert exc.value.status == 400
    if field:
        assert field in exc.value.fields
    tournament.refresh_from_db()
    assert (tournament.language, tournament.announce_speech) == ("", True)
    assert tournament.announce_templates == {}
    assert Event.objects.count() == events
