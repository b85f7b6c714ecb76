"""Issue 31 item 1: places in a live event with late entries, re-entries and alternates
(RULES 7.1, 7.2; the reading in docs/rules.md 7.5–7.7).

Every entry ends with a place of its own from 1 to the number of entries (ties aside), in
bust order; the place announced at a bust (the elimination's answer) is the place the results
print later, unless the answer says ``provisional`` (entries can still come), and then it
moves down by exactly the number of entries that came after the bust."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.selectors import money as money_reads

pytestmark = pytest.mark.django_db


def _event(director, *, seats: int = 9, tables: int = 3, **options) -> Tournament:
    """Tables that do not open themselves: when every seat is taken, new entries wait on the
    alternate list (TOURNAMENT_DAY "the desk puts players on the alternate list")."""
    return services.tournament_create(
        actor=director,
        name="Live event",
        seats_per_table=seats,
        tables=tables,
        starting_stack=20000,
        buy_in=5000,
        seed=3,
        levels=TWO_LEVELS,
        options={"auto_open_tables": False, "reentries_allowed": 2, **options},
    )


def _seated(t: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number"))


def _bust(t: Tournament, director, *busts: tuple[Entry | int, int]) -> dict:
    return services.elimination_record(
        tournament_id=t.pk,
        busts=[(getattr(e, "pk", e), stack) for e, stack in busts],
        actor=director,
    )


def _final(t: Tournament) -> dict[int, tuple[int, int]]:
    t.refresh_from_db()
    return {r["entry"]: (r["place"], r["place_to"]) for r in money_reads.results_rows(t)}


def _announced(answer: dict) -> dict[int, tuple[int, int]]:
    return {p["entry"]: (p["place"], p["place_to"]) for p in answer["places"]}


def assert_places_cover_the_field(final: dict[int, tuple[int, int]], entries: int) -> None:
    """RULES 7.1, 7.2: one place per entry, 1..N; tied entries share a run of places, as many
    entries as places in it."""
    assert len(final) == entries
    groups: dict[tuple[int, int], int] = {}
    for span in final.values():
        groups[span] = groups.get(span, 0) + 1
    covered = []
    for (place, place_to), count in groups.items():
        assert count == place_to - place + 1, (place, place_to, count)
        covered += range(place, place_to + 1)
    assert sorted(covered) == list(range(1, entries + 1))


def test_the_issue_31_event_an_alternate_and_a_reentry_give_every_entry_its_own_place(director):
    """The issue's event: 27 seated at three full tables, one re-entry and one alternate: 29
    entries. The busts used to be announced 27th, 27th, 27th and printed 29, 27, 27 (two 27ths,
    no 28th): the alternate waiting for a seat was not counted as still in."""
    t = _event(director)
    for i in range(27):
        services.entry_register(tournament_id=t.pk, name=f"P{i + 1:02d}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    p = _seated(t)
    assert len(p) == 27

    first = _bust(t, director, (p[0], 800))
    assert _announced(first) == {p[0].pk: (27, 27)}  # 27 entries so far
    assert first["provisional"] is True  # registration is open: entries can still come
    reentry = services.entry_reenter(tournament_id=t.pk, entry_id=p[0].pk, actor=director)
    alternate = services.entry_register(tournament_id=t.pk, name="Alt", actor=director)
    alternate.refresh_from_db()
    assert alternate.status == Entry.Status.ALTERNATE  # every seat is taken

    # 28 still in: 27 seated and the alternate, who then takes the free seat.
    second = _bust(t, director, (p[1], 900))
    assert _announced(second) == {p[1].pk: (28, 28)}
    alternate.refresh_from_db()
    assert alternate.status == Entry.Status.SEATED
    assert any(m["entry"] == alternate.pk for m in second["moves"])
    third = _bust(t, director, (p[2], 700))
    assert _announced(third) == {p[2].pk: (27, 27)}

    services.registration_close(tournament_id=t.pk, actor=director)
    fourth = _bust(t, director, (p[3], 600))
    assert fourth["provisional"] is False
    assert _announced(fourth) == {p[3].pk: (26, 26)}

    final = _final(t)
    # bust order decides: the first out finishes last of all 29 entries
    assert [final[e.pk] for e in p[:4]] == [(29, 29), (28, 28), (27, 27), (26, 26)]
    assert reentry.pk not in final and alternate.pk not in final  # both still playing
    # once registration closed, what was announced is what the sheet prints
    assert _announced(fourth)[p[3].pk] == final[p[3].pk]
    # ... and a provisional place moved down by the entries that came after it (two)
    assert final[p[0].pk][0] == _announced(first)[p[0].pk][0] + 2


def test_several_busts_in_one_hand_with_alternates_waiting_count_them_as_still_in(director):
    """RULES 7.1, 7.2 with two alternates waiting: a hand that busts three (two of them tied)
    takes the three places just above those still in, the alternates included."""
    t = _event(director, seats=3, tables=2)
    for i in range(8):  # six seated, two alternates
        services.entry_register(tournament_id=t.pk, name=f"Q{i + 1}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    assert Entry.objects.filter(tournament=t, status=Entry.Status.ALTERNATE).count() == 2
    services.registration_close(tournament_id=t.pk, actor=director)
    a, b, c = _seated(t)[:3]
    answer = _bust(t, director, (a, 3000), (b, 1000), (c, 1000))
    assert answer["provisional"] is False
    # 8 entries still in before the hand: places 6, then 7–8 shared (RULES 7.2)
    assert _announced(answer) == {a.pk: (6, 6), b.pk: (7, 8), c.pk: (7, 8)}
    assert Entry.objects.filter(tournament=t, status=Entry.Status.ALTERNATE).count() == 0
    while len(seated := _seated(t)) > 1:
        _bust(t, director, (seated[-1], 500))
    final = _final(t)
    assert {e: final[e] for e in (a.pk, b.pk, c.pk)} == _announced(answer)
    assert_places_cover_the_field(final, 8)


def test_every_seated_player_busting_while_an_alternate_waits_is_refused(director):
    """A hand always has a winner: the alternate waiting does not make that possible."""
    t = _event(director, seats=2, tables=1)
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"H{i + 1}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    a, b = _seated(t)
    with pytest.raises(DomainError) as err:
        _bust(t, director, (a, 100), (b, 200))
    assert err.value.code == "no_winner" and err.value.status == 409
    assert len(_seated(t)) == 2 and not Entry.objects.filter(tournament=t, status="busted")


def test_places_are_final_once_the_late_registration_level_has_passed(director):
    """RULES 4.4: registration shuts at the end of its level, even before the clock's worker
    writes it down; from then on the answer's places are final."""
    t = _event(director, seats=3, tables=2, late_reg_until=0)
    for i in range(5):
        services.entry_register(tournament_id=t.pk, name=f"L{i + 1}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    t.refresh_from_db()
    assert services.places_provisional(t) is True
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    t.refresh_from_db()
    assert services.places_provisional(t) is False
    answer = _bust(t, director, (_seated(t)[0], 100))
    assert answer["provisional"] is False


def test_the_dashboard_says_a_place_is_provisional_while_entries_can_still_come(client, director):
    """What the eliminations panel announces: the place it shows at the bust is marked
    provisional while registration is open (a late entry would move it down), and shows the
    place as it stands; once registration closes the mark goes and the place is the final one."""
    t = _event(director, seats=3, tables=2)
    for i in range(5):
        services.entry_register(tournament_id=t.pk, name=f"D{i + 1}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    client.force_login(director)
    panel = reverse("tourney-dashboard-eliminations", args=[t.pk])
    _bust(t, director, (_seated(t)[0], 500))
    html = client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="place">5th</span>' in html and "provisional" in html
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    html = client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="place">6th</span>' in html  # moved down by the late entry
    services.registration_close(tournament_id=t.pk, actor=director)
    html = client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="place">6th</span>' in html and "provisional" not in html
    # RULES 7.3: in hand-for-hand play a later bust of the round shares the round's places
    services.hand_for_hand_set(tournament_id=t.pk, on=True, actor=director)
    _bust(t, director, (_seated(t)[0], 500))
    html = client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert "provisional until this hand-for-hand round ends" in html


def test_the_results_sheet_says_its_places_are_provisional_while_registration_is_open(
    client, director
):
    t = _event(director, seats=3, tables=2)
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"R{i + 1}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    first = _seated(t)[0]
    _bust(t, director, (first, 500))
    services.entry_register(tournament_id=t.pk, name="Late", actor=director)
    client.force_login(director)
    sheet = reverse("tourney-results-print", args=[t.pk])
    html = client.get(sheet).content.decode()
    assert "Places so far (provisional)" in html and "<td>5</td>" in html
    services.registration_close(tournament_id=t.pk, actor=director)
    html = client.get(sheet).content.decode()
    assert "provisional" not in html and "<td>5</td>" in html  # the same place, now final


# ---------------------------------------------------------------- random live events

# An action: (kind, a number that picks who and which stacks)
ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["register", "register", "reenter", "bust", "bust", "multi"]),
        st.integers(0, 10**6),
    ),
    min_size=4,
    max_size=22,
)


def _stacks(rng: random.Random, n: int) -> list[int]:
    # few distinct stacks so that ties (RULES 7.2) come up
    return [rng.choice([500, 1000, 1000, 2500]) for _ in range(n)]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS, h4h_at=st.sampled_from([None, 3]))
def test_random_live_events_end_with_places_one_to_n_in_bust_order(director, actions, h4h_at):
    """Random registrations (alternates once the seats are taken), re-entries and busts of one
    or several players per hand, registration closing, then busts to a winner (hand-for-hand
    near the end, sometimes): the places are 1..N, in bust order, and every place announced
    is final unless the answer said provisional; a provisional place moves down by exactly
    the number of entries that came after it."""
    t = _event(director, seats=3, tables=2)
    for i in range(4):
        services.entry_register(tournament_id=t.pk, name=f"S{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    entries = 4
    # hand by hand: (places announced, provisional, entries then, hand-for-hand round)
    hands: list[tuple[dict[int, tuple[int, int]], bool, int, int | None]] = []

    def bust(ids: list[int], rng: random.Random) -> None:
        t.refresh_from_db()
        key = t.hand_for_hand_round if t.hand_for_hand else None
        answer = _bust(t, director, *zip(ids, _stacks(rng, len(ids)), strict=True))
        hands.append((_announced(answer), answer["provisional"], entries, key))

    for kind, n in actions:
        rng = random.Random(n)
        seated = [e.pk for e in _seated(t)]
        if kind == "register":
            late = services.entry_register(tournament_id=t.pk, name=f"N{n}", actor=director)
            late.refresh_from_db()
            event(f"late entry: {late.status}")  # --hypothesis-show-statistics
            entries += 1
        elif kind == "reenter":
            still_in = Entry.objects.filter(tournament=t).exclude(status=Entry.Status.BUSTED)
            out = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).exclude(
                player__in=still_in.values("player")
            )
            if not out:
                continue
            try:
                services.entry_reenter(
                    tournament_id=t.pk, entry_id=rng.choice(list(out)).pk, actor=director
                )
            except DomainError as e:
                assert e.code == "no_reentries_left"
                continue
            event("re-entry")
            entries += 1
        elif kind == "bust" and len(seated) > 2:  # two or more play on
            bust([rng.choice(seated)], rng)
        elif kind == "multi" and len(seated) > 3:
            bust(rng.sample(seated, rng.randint(2, min(3, len(seated) - 2))), rng)
    services.registration_close(tournament_id=t.pk, actor=director)
    while len(seated := [e.pk for e in _seated(t)]) > 1:
        rng = random.Random(len(seated))
        t.refresh_from_db()
        if h4h_at is not None and len(seated) == h4h_at and not t.hand_for_hand:
            services.hand_for_hand_set(tournament_id=t.pk, on=True, actor=director)
        k = 1 if len(seated) == 2 else rng.randint(1, min(2, len(seated) - 1))
        bust(rng.sample(seated, k), rng)
        if hands[-1][3] is not None and len(_seated(t)) > 1 and rng.random() < 0.5:
            services.hand_for_hand_next_round(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED

    final = _final(t)
    assert_places_cover_the_field(final, entries)
    assert Entry.objects.filter(tournament=t).count() == entries
    # Bust order: everyone out in an earlier hand finishes below everyone out later (one
    # hand-for-hand round counts as one hand, RULES 7.3).
    rounds: list[tuple[set[int], int | None]] = []
    for places, _, _, key in hands:
        if rounds and key is not None and rounds[-1][1] == key:
            rounds[-1][0].update(places)
        else:
            rounds.append((set(places), key))
    for (earlier, _), (later, _) in zip(rounds, rounds[1:], strict=False):
        assert min(final[e][0] for e in earlier) > max(final[e][1] for e in later)
    for places, provisional, then, key in hands:
        came_after = entries - then
        for entry, (place, place_to) in places.items():
            if not provisional:
                assert final[entry] == (place, place_to)
            elif key is None:  # only the entries that came after moved it down
                assert final[entry] == (place + came_after, place_to + came_after)
            else:  # its hand-for-hand round shared its places anew (RULES 7.3)
                round_places = [final[e] for e in next(r for r, k in rounds if entry in r)]
                assert min(p for p, _ in round_places) <= final[entry][0]
