"""The desk's other events (issue 28): every event of today and upcoming that is not finished,
as the registration desk of one of them lists them ("Other events") and the API reads them
(GET /room/events-open): its start, its status and level, the seats left, the alternates
waiting, the price and whether registration is open; for a player found at the desk, what
the desk can do for them there (register at its desk, join its waiting list, or nothing).
And the satellite tickets (RULES 12) the players found at a desk hold into that event.

Readings:

* **Which events.** Not finished and not bagged (a bagged flight's day is over, RULES 10),
  and one of: no start time (set up or running without one), a start time from the start of
  today (midnight in the desk's zone, the card room's) on, or running whatever its start
  time (an event that started yesterday and plays on is today's). The soonest start first,
  the events without a start time after them; at most ``MAX_EVENTS``.
* **Seats left.** The open seats at the open tables (seats less unavailable seats less
  players, never below 0 per table), less the entries registered and waiting for the draw
  at the start (a home game's, RULES 1.3: they hold a seat that is not drawn yet). Whether a
  new table opens when they are gone is the event's *Open tables when full* setting
  (``new_tables``), not counted in the figure: a room has the tables it has.
* **Full: the waiting list.** The card room's reading: the waiting list (the alternates,
  RULES 1.3) is for events that are full. An event is full when it seats at registration
  and either somebody already waits (a new entry never goes ahead of an alternate) or no
  seat is left and no table opens by itself (*Open tables when full* off). Otherwise a
  player registers at that event's desk and gets a seat (or a table is opened for them).
* **Registration open.** As the desk's own buttons read it (``selectors.desk.offers``):
  the event's flag, and the clock not yet past its late-registration level (RULES 4.4).

Bounded: the events, their tables, their entries and their structures are four queries
whatever the number of events; a player's entries in them one more, tickets one."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time
from typing import Any

from django.db import connection
from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Table
from tables.selectors import blocked_sql
from tourney.core.money_text import money_exact
from tourney.core.rows import marks
from tourney.engine import clock as clock_engine
from tourney.engine.structure import item_number_of
from tourney.models import Entry, Tournament
from tourney.room_models import Ticket
from tourney.selectors.bounties import buy_in_split
from tourney.selectors.clock import clock_read, structures_items
from tourney.selectors.money import window_passed

MAX_EVENTS = 40
UNFINISHED = (Tournament.Status.SETUP, Tournament.Status.RUNNING)

# What the desk can do for a player in another event (``action``).
REGISTER = "register"  # seats (or a new table): register at that event's desk
WAITING_LIST = "waiting_list"  # full: join its alternates
CLOSED = "closed"  # registration closed (or over): nothing at the desk


def today_start(zone, now: datetime | None = None) -> datetime:
    """Midnight of today in ``zone`` (the card room's)."""
    day: date = timezone.localtime(now or timezone.now(), zone).date()
    return timezone.make_aware(datetime.combine(day, time.min), zone)


def _events(*, exclude_id: int | None, since: datetime, limit: int) -> list[Tournament]:
    qs = Tournament.objects.filter(status__in=UNFINISHED, bagged=False).filter(
        Q(starts_at__isnull=True) | Q(starts_at__gte=since) | Q(status=Tournament.Status.RUNNING)
    )
    if exclude_id is not None:
        qs = qs.exclude(pk=exclude_id)
    return list(qs.order_by(F("starts_at").asc(nulls_last=True), "name", "pk")[:limit])


SEATS_SQL = (
    "SELECT tournament_id, "
    "COALESCE(SUM(CASE WHEN seats - {length} - players > 0 THEN seats - {length} - players "
    "ELSE 0 END), 0), COALESCE(SUM(players), 0) "
    f"FROM {Table._meta.db_table} WHERE status = %s AND tournament_id IN ({{ids}}) "
    "GROUP BY tournament_id"
)


def _seats(ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each event's open seats and seated players at its open tables: one statement."""
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            SEATS_SQL.format(length=blocked_sql()[1], ids=marks(ids)),
            [Table.Status.OPEN.value, *ids],
        )
        return {tid: (int(room), int(players)) for tid, room, players in cursor.fetchall()}


def _entry_counts(ids: list[int]) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    rows = (
        Entry.objects.filter(tournament_id__in=ids)
        .values_list("tournament_id", "status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for tid, status, n in rows:
        counts[tid][status] += n
    return counts


def _status(t: Tournament, items, now: datetime) -> tuple[str, int | None, int | None]:
    """(what the status column says, the level number or None, the clock's item or None)."""
    if not t.clock_started or not items:
        if t.status == Tournament.Status.RUNNING:
            return _("running"), None, None
        return (_("registering") if t.registration_open else _("not started")), None, None
    state = clock_read(t, now, items=items)
    if state.item.kind == clock_engine.BREAK:
        level = {"level": state.level_number or 0}
        if t.clock_running:
            return _("running, break after level %(level)s") % level, None, state.index
        return _("running, break after level %(level)s, paused") % level, None, state.index
    level = {"level": state.level_number}
    if t.clock_running:
        return _("running, level %(level)s") % level, state.level_number, state.index
    return _("running, level %(level)s, paused") % level, state.level_number, state.index


def _registration(t: Tournament, items, index: int | None) -> tuple[bool, int | None, str]:
    late = item_number_of(items or (), clock_engine.LEVEL, t.late_reg_until)
    if not t.registration_open or window_passed(t.late_reg_until, index):
        return False, late, _("closed")
    if late:
        return True, late, _("open until the end of level %(level)s") % {"level": late}
    return True, late, _("open")


def seating_state(
    t: Tournament, *, seats: tuple[int, int], counts: dict[str, int]
) -> dict[str, Any]:
    """The seats left, the alternates waiting and whether the event is full (the module's
    readings), from its open tables' (open seats, players) and its entries by status."""
    room, players = seats
    drawn_at_start = not (t.draw_at_registration or t.clock_started or players > 0)
    waiting_draw = counts.get(Entry.Status.REGISTERED, 0) if drawn_at_start else 0
    seats_left = max(0, room - waiting_draw)
    alternates = counts.get(Entry.Status.ALTERNATE, 0)
    full = not drawn_at_start and (alternates > 0 or (seats_left == 0 and not t.auto_open_tables))
    return {
        "seats_left": seats_left,
        "new_tables": t.auto_open_tables,
        "alternates": alternates,
        "full": full,
        "entries": sum(counts.values()),
    }


def waiting_list_state(t: Tournament) -> dict[str, Any]:
    """``seating_state`` of one event (the waiting-list service asks it under the lock)."""
    return seating_state(
        t, seats=_seats([t.pk]).get(t.pk, (0, 0)), counts=_entry_counts([t.pk]).get(t.pk, {})
    )


def price_parts(t: Tournament) -> dict[str, Any]:
    """The price the desk takes and its parts (RULES 9.1, ``buy_in_split``), amounts and text."""
    split = buy_in_split(t)
    return {
        "price": split.price,
        "prize_pool": split.prize_pool,
        "bounty": split.bounty,
        "fee": split.fee,
        "price_text": money_exact(split.price),
        "parts_text": " + ".join(
            money_exact(x) for x in (split.prize_pool, split.bounty, split.fee) if x
        ),
    }


def events_open(
    *,
    exclude_id: int | None = None,
    zone=None,
    now: datetime | None = None,
    limit: int = MAX_EVENTS,
) -> list[dict[str, Any]]:
    """The other events (the module's readings), soonest first: id, name, start (``starts_at``
    and ``starts_local`` in the event's own zone), status and level, seats, alternates,
    price and registration. Four queries for any number of events."""
    now = now or timezone.now()
    zone = zone or timezone.get_current_timezone()
    events = _events(exclude_id=exclude_id, since=today_start(zone, now), limit=limit)
    ids = [t.pk for t in events]
    seats, counts, structures = _seats(ids), _entry_counts(ids), structures_items(ids)
    today = timezone.localtime(now, zone).date()
    rows = []
    for t in events:
        items = structures.get(t.pk, ())
        status_text, level, index = _status(t, items, now)
        is_open, late_level, reg_text = _registration(t, items, index)
        state = seating_state(t, seats=seats.get(t.pk, (0, 0)), counts=counts.get(t.pk, {}))
        local = timezone.localtime(t.starts_at, t.zone) if t.starts_at else None
        if not is_open:
            action = CLOSED
        else:
            action = WAITING_LIST if state["full"] else REGISTER
        rows.append(
            {
                "id": t.pk,
                "name": t.name,
                "status": t.status,
                "status_text": status_text,
                "level": level,
                "starts_at": t.starts_at,
                "starts_local": local,
                "starts_today": local is not None and local.date() == today,
                **state,
                **price_parts(t),
                "registration_open": is_open,
                "late_reg_level": late_level,
                "registration_text": reg_text,
                "action": action,
            }
        )
    return rows


def player_in_events(player_id: int | None, ids: list[int]) -> dict[int, dict[str, Any]]:
    """Where ``player_id`` stands in each of the events ``ids``: their live entry (number,
    status and, for an alternate, their place in the list). One query."""
    if player_id is None or not ids:
        return {}
    ahead = (
        Entry.objects.filter(
            tournament_id=OuterRef("tournament_id"),
            status=Entry.Status.ALTERNATE,
            number__lte=OuterRef("number"),
        )
        .order_by()
        .values("tournament_id")
        .annotate(c=Count("pk"))
        .values("c")
    )
    rows = (
        Entry.objects.filter(tournament_id__in=ids, player_id=player_id)
        .exclude(status=Entry.Status.BUSTED)
        .annotate(list_place=Coalesce(Subquery(ahead, output_field=IntegerField()), 0))
        .values_list("tournament_id", "pk", "number", "status", "list_place")
    )
    found: dict[int, dict[str, Any]] = {}
    for tid, pk, number, status, place_n in rows:
        found[tid] = {
            "entry": pk,
            "number": number,
            "status": status,
            "place": place_n if status == Entry.Status.ALTERNATE else None,
        }
    return found


def alternate_place(entry: Entry) -> int | None:
    """The entry's place in its event's waiting list (1: seated first), None if not waiting."""
    if entry.status != Entry.Status.ALTERNATE:
        return None
    return Entry.objects.filter(
        tournament_id=entry.tournament_id,
        status=Entry.Status.ALTERNATE,
        number__lte=entry.number,
    ).count()


def tickets_into(t: Tournament, player_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The issued tickets into ``t`` (RULES 12) the players ``player_ids`` hold, by player:
    id, satellite id and name and what the desk says of it. One query."""
    if not player_ids:
        return {}
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        Ticket.objects.filter(target=t, player_id__in=player_ids, status=Ticket.Status.ISSUED)
        .order_by("pk")
        .values_list("pk", "player_id", "satellite_id", "satellite__name", "value")
    )
    for pk, player_id, sat_id, sat_name, value in rows:
        found[player_id].append(
            {
                "id": pk,
                "satellite": sat_id,
                "satellite_name": sat_name,
                "value": value,
                "label": _("Ticket from satellite #%(id)s (%(name)s)")
                % {"id": sat_id, "name": sat_name},
            }
        )
    return dict(found)


def ticket_used_by(entry: Entry) -> dict[str, Any] | None:
    """The ticket an entry was registered with (its seat card and receipt say so instead of
    a price), or None."""
    row = (
        Ticket.objects.filter(used_by=entry)
        .values_list("pk", "satellite_id", "satellite__name")
        .first()
    )
    if row is None:
        return None
    pk, sat_id, sat_name = row
    return {
        "id": pk,
        "satellite": sat_id,
        "satellite_name": sat_name,
        "label": _("Paid by ticket from satellite #%(id)s") % {"id": sat_id},
    }
