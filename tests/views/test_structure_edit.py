"""Issue 4 ("Editable"): the dashboard's structure page edits the structure after creation,
with typed lines or a preset / the generator filling the box, through
``services.structure_set`` (played items frozen, chip rules RULES 4.5 / 5.1)."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from tourney import form_messages, services
from tourney.engine import structure as structure_engine
from tourney.models import Event
from tourney.selectors import clock as clock_reads
from tourney.services.setup import MSG_BAD_LINE, levels_text
from tourney.views.dashboard.tools import MSG_BAD_HOURS, MSG_LEVELS_TOO_LONG

pytestmark = pytest.mark.django_db

LINES = "25/50 20\n50/100 20\nbreak 10 color-up 25\n100/200/200 20"


@pytest.fixture
def t(director):
    return services.tournament_create(actor=director, name="Edit me", tables=0)


def _url(t) -> str:
    return reverse("tourney-dashboard-structure", args=[t.pk])


def _structure_events(t) -> int:
    return Event.objects.filter(tournament=t, kind="structure_set").count()


def test_the_page_shows_the_structure_as_lines_in_the_editor(td, t):
    html = td.get(_url(t)).content.decode()
    assert 'id="structure-editor"' in html
    first = levels_text(clock_reads.structure_items(t)).splitlines()[0]
    assert first in html and first == "25/50 20"


def test_typed_lines_replace_the_structure_and_record_an_event(td, t):
    r = td.post(_url(t), {"levels_text": LINES, "save": "1"})
    assert r.status_code == 302 and r["Location"].endswith("?saved=1")
    items = clock_reads.structure_items(t)
    assert levels_text(items) == LINES
    assert [i.kind for i in items] == ["level", "level", "break", "level"]
    assert _structure_events(t) == 1
    assert "The structure was saved." in td.get(r["Location"]).content.decode()


@pytest.mark.parametrize(
    ("text", "status", "message"),
    [
        ("25/50 20\nblinds go up", 400, MSG_BAD_LINE % {"n": 2}),
        (  # RULES 4.5: 25s are the smallest; the message names the level and the fix
            "10/20 20",
            400,
            form_messages.MSG_NOT_MULTIPLE
            % {"where": "Level 1", "what": "small blind", "value": "10", "chip": "25"},
        ),
        (
            "25/50 20\nbreak 10 color-up 25 100 500 1000 5000 25000",
            400,
            "The break after level 1 (line 2): it removes every chip",
        ),
        ("", 400, form_messages.MSG_NO_LEVEL),
        ("25/50 20\n" * 3000, 400, MSG_LEVELS_TOO_LONG),
        (
            "9" * 40 + "/" + "9" * 40 + " 20",
            400,
            f"Level 1: {form_messages.FIELD_FIX['small_blind']}.",
        ),
        (  # issue 31 item 5: the level and the line, not "levels[2].big_blind"
            "100/200 20\nbreak 10\n200/100 20",
            400,
            f"Level 2 (line 3): {form_messages.FIELD_FIX['big_blind']}.",
        ),
    ],
)
def test_bad_lines_show_the_message_and_change_nothing(td, t, text, status, message):
    before = clock_reads.structure_items(t)
    r = td.post(_url(t), {"levels_text": text, "save": "1"})
    assert r.status_code == status
    html = r.content.decode()
    # the message as the director reads it ("RULES 4.5" in it is a link to the rule)
    assert 'role="alert"' in html and message in unescape(strip_tags(html))
    assert clock_reads.structure_items(t) == before and _structure_events(t) == 0


def test_after_the_start_played_levels_stay_and_later_ones_change(td, t, director):
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    items = clock_reads.structure_items(t)
    lines = levels_text(items).splitlines()
    # the running level (index 0) rewritten: refused, as the API refuses it (409)
    r = td.post(_url(t), {"levels_text": "\n".join(["25/50 30", *lines[1:]]), "save": "1"})
    assert r.status_code == 409 and services.MSG_STRUCTURE_PAST in r.content.decode()
    assert clock_reads.structure_items(t) == items
    # a later level changed: saved
    changed = [*lines[:1], "50/100 25", *lines[2:]]
    r = td.post(_url(t), {"levels_text": "\n".join(changed), "save": "1"})
    assert r.status_code == 302
    assert clock_reads.structure_items(t)[1].seconds == 25 * 60
    assert clock_reads.structure_items(t)[0] == items[0]


def test_a_preset_fills_the_box_keeping_the_played_items_and_writes_nothing(td, t, director):
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=2, actor=director)
    items = clock_reads.structure_items(t)
    r = td.post(_url(t), {"levels_text": "", "fill": "turbo"})
    assert r.status_code == 200
    turbo = structure_engine.preset("turbo", starting_stack=t.starting_stack)
    expected = levels_text(tuple(items[:3]) + tuple(turbo[3:]))
    assert r.context["editor_text"] == expected
    assert clock_reads.structure_items(t) == items and _structure_events(t) == 0
    # saving what was filled passes the service's checks
    r = td.post(_url(t), {"levels_text": expected, "save": "1"})
    assert r.status_code == 302 and clock_reads.structure_items(t)[3:] == turbo[3:]


def test_the_generator_fills_the_box_with_its_settings(td, t):
    data = {
        "fill": "generate",
        "level_minutes": "15",
        "target_hours": "5",
        "break_every": "0",
        "break_minutes": "10",
        "bb_ante_from": "0",
    }
    r = td.post(_url(t), data)
    assert r.status_code == 200
    text = r.context["editor_text"]
    expected = structure_engine.generate(
        starting_stack=t.starting_stack,
        denominations=[v for v, _ in services.DEFAULT_CHIPS],
        level_minutes=15,
        target_hours=5,
        break_every=0,
        break_minutes=10,
        bb_ante_from_level=0,
    )
    assert text == levels_text(expected) and "break" not in text
    r = td.post(_url(t), {**data, "target_hours": "long"})
    assert r.status_code == 400 and MSG_BAD_HOURS in r.content.decode()
    r = td.post(_url(t), {**data, "level_minutes": "0"})
    assert r.status_code == 400 and structure_engine.MSG_BAD_MINUTES in r.content.decode()
    assert _structure_events(t) == 0


def test_htmx_gets_the_editor_alone_and_a_client_redirect_after_saving(td, t):
    headers = {"HTTP_HX_REQUEST": "true"}
    r = td.post(_url(t), {"levels_text": "nonsense", "save": "1"}, **headers)
    html = r.content.decode()
    assert r.status_code == 400 and html.lstrip().startswith('<form id="structure-editor"')
    assert "<html" not in html
    r = td.post(_url(t), {"levels_text": LINES, "save": "1"}, **headers)
    assert r["HX-Redirect"].endswith("?saved=1") and _structure_events(t) == 1


def test_only_the_director_edits_and_the_edit_is_undoable(client, t, desk_clerk, director):
    from tourney.services.undo import action_undo

    before = clock_reads.structure_items(t)
    r = client.post(_url(t), {"levels_text": LINES, "save": "1"})
    assert r.status_code == 302 and "/login" in r["Location"]
    client.force_login(desk_clerk)
    assert client.post(_url(t), {"levels_text": LINES, "save": "1"}).status_code == 403
    assert clock_reads.structure_items(t) == before and _structure_events(t) == 0
    client.force_login(director)
    assert client.post(_url(t), {"levels_text": LINES, "save": "1"}).status_code == 302
    assert clock_reads.structure_items(t) != before
    action_undo(tournament_id=t.pk, actor=director)
    assert clock_reads.structure_items(t) == before
