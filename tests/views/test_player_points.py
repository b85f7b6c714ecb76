"""Issue 27: a player's page shows their league points in each tournament of a season and
their total; a tournament in no season shows none."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.services.test_leagues import T0, _players, _season, play

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_the_points_of_each_season_tournament(td, director):
    ann, bob, cat, dan = _players("Ann", "Bob", "Cat", "Dan")
    season = _season(director, scoring="place_table", points_table="10 6 3 1")
    one = play(director, [ann, bob, cat, dan], out=[[ann], [bob], [cat]], season=season)
    two = play(
        director,
        [dan, cat, bob, ann],
        out=[[dan], [cat], [bob]],
        name="Two",
        season=season,
        at=T0 + timedelta(days=7),
    )
    free = play(director, [ann, bob], name="No season", at=T0 + timedelta(days=8))
    html = td.get(reverse("tourney-players-detail", args=[ann.pk])).content.decode()
    rows = {t.pk: html.index(f'data-tournament="{t.pk}"') for t in (one, two, free)}

    def cell(t):  # the row's last cell: its points
        start = rows[t.pk]
        row = html[start : html.index("</tr>", start)]
        return row.rsplit('<td class="num points">', 1)[1].split("</td>")[0]

    assert (cell(one), cell(two), cell(free)) == ("1", "10", "")  # 4th, then 1st
    assert '<dd id="points-total">11</dd>' in html
    html = td.get(reverse("tourney-players-detail", args=[bob.pk])).content.decode()
    assert '<dd id="points-total">9</dd>' in html  # 3rd (3), then 2nd (6)
