"""Issue 31 item 2: the printable redraw sheet (RULES 3.7, 3.8), linked from the dashboard's
move list while a redraw is to be announced: every player from the seat they sit in to the
seat they drew, in call-out order, then each new table seat by seat."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tables.models import Move, Seat
from tourney import services

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _field(director, players=19):
    t = services.tournament_create(
        actor=director, name="Sheet", tables=3, seats_per_table=9, seed=7
    )
    for i in range(players):
        services.entry_register(tournament_id=t.pk, name=f"Player {i:02d}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    return t


def _where(t):
    return {
        e: (name, tn, s)
        for e, name, tn, s in Seat.objects.filter(tournament=t).values_list(
            "entry_id", "entry__player__name", "table__number", "number"
        )
    }


def _rows(html: str, label: str) -> list[list[str]]:
    """The body rows of the section ``label`` as cell texts (tags stripped)."""
    section = html.split(f'aria-label="{label}"', 1)[1].split("</section>", 1)[0]
    body = section.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_the_redraw_sheet_lists_every_player_from_their_real_seat(client, director):
    t = _field(director)
    client.force_login(director)
    sheet_url = reverse("tourney-dashboard-print-redraw", args=[t.pk])
    moves_url = reverse("tourney-dashboard-moves", args=[t.pk])
    # before any redraw: no link, and the sheet says so
    assert sheet_url not in client.get(moves_url, **HX).content.decode()
    assert "There has been no redraw yet" in client.get(sheet_url).content.decode()

    before = _where(t)
    victim = next(e for e, (_, tn, _) in before.items() if tn == 3)
    services.elimination_record(tournament_id=t.pk, busts=[(victim, 500)], actor=director)
    del before[victim]
    after = _where(t)
    assert Move.objects.filter(tournament=t, reason="redraw").exists()

    panel = client.get(moves_url, **HX).content.decode()
    assert f'href="{sheet_url}"' in panel and "Redraw sheet (print)" in panel
    page = client.get(reverse("tourney-dashboard", args=[t.pk])).content.decode()
    assert f'href="{sheet_url}"' in page  # the whole page (plain request) too

    r = client.get(sheet_url)
    assert r.status_code == 200
    html = r.content.decode()
    call_out = _rows(html, "Redraw: call out")
    # every player once, sorted by the seat they sit in (the floor's call-out order)
    assert len(call_out) == len(after) == 18
    expected = []
    for e, (name, tn, s) in sorted(before.items(), key=lambda kv: (kv[1][1], kv[1][2])):
        _, nt, ns = after[e]
        to = "stays" if (tn, s) == (nt, ns) else f"→ T{nt} S{ns}"
        expected.append([f"T{tn} S{s}", name, to])
    assert [[c[0], c[1].rsplit(" #", 1)[0], c[2]] for c in call_out] == expected
    assert any(c[0].startswith("T3 ") for c in call_out)  # the broken table's real seats
    # then each new table, seat by seat, with where each player comes from
    for number in (1, 2):
        rows = _rows(html, f"New table {number}")
        seated = sorted((s, e) for e, (_, tn, s) in after.items() if tn == number)
        assert [int(r[0]) for r in rows] == [s for s, _ in seated]
        for row, (s, e) in zip(rows, seated, strict=True):
            name, tn, fs = before[e]
            assert row[1].rsplit(" #", 1)[0] == escape(name)
            assert row[2] == ("stays" if (tn, fs) == (number, s) else f"T{tn} S{fs}")


def test_the_redraw_sheet_is_for_directors_only(client, director, desk_clerk):
    t = _field(director, players=4)
    sheet_url = reverse("tourney-dashboard-print-redraw", args=[t.pk])
    assert client.get(sheet_url).status_code == 302  # to the login page
    client.force_login(desk_clerk)
    assert client.get(sheet_url).status_code == 403
    assert client.post(sheet_url).status_code in (403, 405)
