"""Issue 26, the desk's warning (RULES 10.3): a player who already holds a bag of another
flight of the event is warned about as they enter this one (on the answer to the
registration, on their seat card's screen, and in the search before they buy in), in the
words of the event's stack policy; the entry is made all the same. Never printed on the
card."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.services.test_flights_services import _bag_all, _event, _flights, _play
from tourney.models import Entry, Player, Tournament
from tourney.selectors import desk as desk_reads
from tourney.services import flights

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def clerk(client, desk_clerk) -> Client:
    client.force_login(desk_clerk)
    return client


def _bagged_in_a(director, policy="largest") -> tuple[Tournament, Player, int]:
    """Day 1A played down and bagged with Ann Lee still in; returns Day 1B, Ann and her bag."""
    a, b = _flights(_event(director, letters=["A", "B"], policy=policy))
    ann = Player.objects.create(name="Ann Lee")
    _play(a, director, [*[Player.objects.create(name=f"X{i}") for i in range(4)], ann])
    a.refresh_from_db()
    counts = _bag_all(a, director)
    flights.flight_bag_close(tournament_id=a.pk, actor=director)
    return b, ann, counts[Entry.objects.get(tournament=a, player=ann).pk]


def _largest(chips: int) -> str:
    return (
        f"Ann Lee already bagged {chips:,} in Day 1A: only the largest stack goes to Day 2 "
        "(the other is forfeited)."
    )


def _register(clerk: Client, t: Tournament, **post) -> str:
    response = clerk.post(reverse("tourney-desk-register", args=[t.pk]), post, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_a_bagged_player_entering_another_flight_is_warned_and_entered(clerk, director):
    b, ann, chips = _bagged_in_a(director)
    html = _register(clerk, b, player_id=ann.pk)
    entry = Entry.objects.get(tournament=b, player=ann)  # the entry is made
    assert entry.status in (Entry.Status.SEATED, Entry.Status.ALTERNATE)
    assert escape(_largest(chips)) in html
    assert 'id="flight-warning"' in html and 'data-code="already_qualified"' in html
    # Outside the printed card (the warning is the desk's, not the player's receipt).
    card = html[html.index('<article class="seat-card') : html.index("</article>")]
    assert "already bagged" not in card
    # The seat card's screen says it again (reprint, or the page after a plain POST).
    page = clerk.get(reverse("tourney-desk", args=[b.pk]), {"entry": entry.pk})
    assert escape(_largest(chips)) in page.content.decode()


def test_without_javascript_the_page_after_registering_warns_too(clerk, director):
    b, ann, chips = _bagged_in_a(director)
    response = clerk.post(
        reverse("tourney-desk-register", args=[b.pk]), {"player_id": ann.pk}, follow=True
    )
    assert response.redirect_chain[0][1] == 303
    assert escape(_largest(chips)) in response.content.decode()


def test_a_new_player_gets_no_warning(clerk, director):
    b, _, _ = _bagged_in_a(director)
    html = _register(clerk, b, name="New Face")
    assert Entry.objects.filter(tournament=b, player__name="New Face").exists()
    assert "flight-warning" not in html and "already bagged" not in html


def test_the_first_stack_policy_says_the_new_stack_is_forfeited(clerk, director):
    b, ann, chips = _bagged_in_a(director, policy="first")
    html = _register(clerk, b, player_id=ann.pk)
    assert Entry.objects.filter(tournament=b, player=ann).exists()
    said = (
        f"Ann Lee already bagged {chips:,} in Day 1A: only that first stack goes to Day 2 "
        "(any chips bagged in Day 1B are forfeited)."
    )
    assert escape(said) in html


def test_the_search_warns_before_the_player_buys_in(clerk, director):
    b, ann, chips = _bagged_in_a(director)
    other = Player.objects.create(name="Ann Other")
    Entry.objects.create(tournament=b, player=other, number=99, status=Entry.Status.BUSTED)
    response = clerk.get(reverse("tourney-desk-search", args=[b.pk]), {"q": "Ann"}, **HTMX)
    html = response.content.decode()
    assert html.count('data-testid="search-flight-warning"') == 1
    assert escape(_largest(chips)) in html
    rows = {r["name"]: r["flight_warning"] for r in desk_reads.player_search(b, "Ann")}
    assert rows == {"Ann Lee": _largest(chips), "Ann Other": ""}


def test_the_flight_the_bag_is_of_gets_no_warning(director):
    """Day 1A's own seat card, reprinted after the bags: the bag is of this flight."""
    b, ann, _ = _bagged_in_a(director)
    a = Tournament.objects.get(multi_day_event=b.multi_day_event, flight="A")
    entry = Entry.objects.get(tournament=a, player=ann)
    assert desk_reads.seat_card(a, entry)["flight_warning"] == ""


def test_a_tournament_of_no_event_reads_nothing_for_the_warning(
    tournament, director, django_assert_num_queries
):
    from tourney.selectors.flights import flight_warnings

    with django_assert_num_queries(0):
        assert flight_warnings(tournament, {1: "Ann Lee"}) == {}
