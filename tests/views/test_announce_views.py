"""Issue 29: the dashboard's "Announce now" panel and the announcement settings. The panel
loads itself into the dashboard, posts with htmx (the field cleared, the latest listed with
their time) and works as a plain form; the settings show each kind's default as its
placeholder and a preview, save as one undoable action, refuse an unknown place at its field
with nothing saved; German screens read German. Directors only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tourney.feed_models import Announcement
from tourney.models import Event
from tourney.services.announcements import announce

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _panel(t) -> str:
    return reverse("tourney-dashboard-announce", args=[t.pk])


def _settings(t) -> str:
    return reverse("tourney-dashboard-announce-settings", args=[t.pk])


def test_the_dashboard_and_the_settings_page_load_the_panels(td, tournament):
    page = td.get(reverse("tourney-dashboard", args=[tournament.pk])).content.decode()
    assert f'hx-get="{_panel(tournament)}" hx-trigger="load"' in page
    page = td.get(reverse("tourney-dashboard-settings", args=[tournament.pk])).content.decode()
    assert f'hx-get="{_settings(tournament)}" hx-trigger="load"' in page


def test_announce_now_with_htmx_clears_the_field_and_lists_it(td, tournament, director):
    r = td.post(_panel(tournament), {"text": "  Seat open at table 7 "}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Announced: Seat open at table 7" in html
    assert 'value=""' in html  # the field is empty again
    assert "<time" in html and "Seat open at table 7</li>" in html
    assert r.headers["HX-Trigger"].startswith('{"tourney-changed"')
    made = Announcement.objects.get()
    assert (made.text, made.created_by) == ("Seat open at table 7", director)
    assert Event.objects.filter(tournament=tournament, kind="announced").count() == 1


def test_a_refused_text_is_kept_with_the_message_and_nothing_is_written(td, tournament):
    r = td.post(_panel(tournament), {"text": "x" * 301}, **HTMX)
    assert r.status_code == 400
    html = r.content.decode()
    assert "An announcement is at most 300 characters; this one has 301." in html
    assert 'aria-invalid="true"' in html
    assert Announcement.objects.count() == 0
    r = td.post(_panel(tournament), {"text": "   "}, **HTMX)
    assert r.status_code == 400 and "Type what to announce" in r.content.decode()
    assert not Event.objects.filter(kind="announced").exists()


def test_announce_now_works_as_a_plain_form(td, tournament):
    r = td.post(_panel(tournament), {"text": "Last hand at table 3"})
    assert r.status_code == 302 and r.url == _panel(tournament)
    page = td.get(r.url).content.decode()
    assert "Announced: Last hand at table 3" in page
    assert Announcement.objects.get().text == "Last hand at table 3"


def test_the_settings_show_defaults_as_placeholders_and_previews(td, tournament):
    html = td.get(_settings(tournament), **HTMX).content.decode()
    assert 'placeholder="We are coloring up the %(chips)s chips."' in html
    assert "Level 1, blinds 100 – 200, big-blind ante 200." in html  # the level's preview
    assert "We are coloring up the 25 chips." in html  # the break after level 1
    assert 'name="speech" value="1" checked' in html


def test_a_preview_of_typed_texts_saves_nothing(td, tournament):
    data = {"action": "preview", "speech": "1", "text_level": "Now level %(level)s!"}
    r = td.post(_settings(tournament), data, **HTMX)
    assert r.status_code == 200
    assert "Now level 1!" in r.content.decode()
    tournament.refresh_from_db()
    assert tournament.announce_templates == {}


def test_saving_the_settings_is_one_undoable_action(td, tournament):
    data = {"action": "save", "language": "es", "text_break": "Descanso."}
    r = td.post(_settings(tournament), data, **HTMX)
    assert r.status_code == 200
    assert "Saved." in r.content.decode()
    tournament.refresh_from_db()
    assert tournament.language == "es"
    assert tournament.announce_speech is False  # the box was not ticked
    assert tournament.announce_templates == {"break": "Descanso."}
    event = Event.objects.filter(tournament=tournament).latest("id")
    assert event.kind == "settings_changed" and "undo" in event.payload
    # The placeholders follow the screens' language now.
    html = td.get(_settings(tournament), **HTMX).content.decode()
    assert 'placeholder="Hacemos el cambio de color de las fichas de %(chips)s."' in html


def test_an_unknown_place_is_refused_at_its_field_and_nothing_is_saved(td, tournament):
    data = {"action": "save", "speech": "1", "text_level": "Level %(lvl)s"}
    r = td.post(_settings(tournament), data, **HTMX)
    assert r.status_code == 400
    html = r.content.decode()
    assert "names an unknown place %(lvl)s" in html
    assert "Level %(lvl)s</textarea>" in html  # what was typed stays
    tournament.refresh_from_db()
    assert tournament.announce_templates == {}
    assert not Event.objects.filter(tournament=tournament, kind="settings_changed").exists()


def test_the_settings_work_as_a_plain_form(td, tournament):
    r = td.post(_settings(tournament), {"action": "save", "language": "de"})
    assert r.status_code == 302 and r.url == _settings(tournament)
    tournament.refresh_from_db()
    assert tournament.language == "de"


def test_german_screens_read_german(td, tournament):
    announce(tournament_id=tournament.pk, text="Freier Platz an Tisch 7")
    html = td.get(_panel(tournament) + "?lang=de", **HTMX).content.decode()
    assert "Jetzt ansagen" in html and "Freier Platz an Tisch 7" in html
    html = td.get(_settings(tournament) + "?lang=de", **HTMX).content.decode()
    assert "Sprache der Anzeigen" in html and "Vorschau" in html
    r = td.post(_settings(tournament) + "?lang=de", {"text_level": "%(x)s"}, **HTMX)
    assert "unbekannten Platzhalter %(x)s" in r.content.decode()


def test_the_display_page_has_the_test_button_and_the_banner_in_its_language(client, tournament):
    tournament.language = "de"
    tournament.save(update_fields=["language"])
    html = client.get(reverse("tourney-display", args=[tournament.display_token])).content
    html = html.decode()
    assert ">Ton testen</button>" in html
    assert 'id="announce-banner"' in html and "js/announce.js" in html
    assert 'data-chime-level="/static/sounds/chime.wav"' in html


@pytest.mark.parametrize("who", ["desk_clerk", "stranger"])
def test_only_directors_announce(client, tournament, request, who):
    client.force_login(request.getfixturevalue(who))
    assert client.post(_panel(tournament), {"text": "Hello"}).status_code == 403
    assert client.post(_settings(tournament), {"language": "de"}).status_code == 403
    assert Announcement.objects.count() == 0
