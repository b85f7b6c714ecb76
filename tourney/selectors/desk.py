"""The registration desk's reads: the header's totals and buttons, the type-ahead over known
players, the seat card, the recent entries, the alternates and those seated from the list,
today's totals by clerk. The desk's writes (register-or-re-enter, undo of the clerk's last
registration) are ``tourney.services.desk``."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tables.models import Seat, Table
from tables.selectors import blocked_sql, seats_of
from tourney.core.money_text import money_exact
from tourney.core.rows import marks
from tourney.models import Entry, Event, Player, Tournament
from tourney.selectors.bounties import bounty_totals, buy_in_split, has_bounties, heads_shown
from tourney.selectors.clock import clock_read
from tourney.selectors.desk_events import ticket_used_by, tickets_into
from tourney.selectors.flights import flight_warnings
from tourney.selectors.money import window_passed
from tourney.selectors.tickets import ticket_entry_ids

UNDO_SECONDS = 60  # a clerk may undo their last registration within a minute
SEARCH_LIMIT = 8
SEARCH_MAX_WORDS = 4


def price_text(price: int, fee: int) -> str:
    """A price the desk takes, with its fee when there is one: "20.00 + 2.00"."""
    return f"{money_exact(price)} + {money_exact(fee)}" if fee else money_exact(price)


def is_reentry_of_known_player(t: Tournament, player_id: int | None) -> bool:
    """Would Enter for this player be a re-entry (of an entry here, all of them out)?"""
    return (
        player_id is not None and Entry.objects.filter(tournament=t, player_id=player_id).exists()
    )


def undoable_entry(t: Tournament, actor, now: datetime | None = None) -> Entry | None:
    """The clerk's last registration here while the minute lasts (the screen's Undo button;
    the service checks everything again)."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        return None
    now = now or timezone.now()
    e = (
        Entry.objects.filter(
            tournament=t,
            created_by=actor,
            created_at__gt=now - timedelta(seconds=UNDO_SECONDS),
        )
        .select_related("player")
        .order_by("-created_at", "-pk")
        .first()
    )
    if e is None or now - e.created_at > timedelta(seconds=UNDO_SECONDS):
        return None
    if e.status == Entry.Status.BUSTED or e.rebuys or e.addons:
        return None
    return e


def offers(t: Tournament, now: datetime | None = None) -> dict[str, bool]:
    """Which buttons the desk shows now (the money services decide, RULES 4.4). Once the
    tournament is over (one player left) nothing: ``finished`` says why."""
    if t.status == Tournament.Status.FINISHED:
        return dict.fromkeys(("registration", "rebuy", "addon", "reentry"), False) | {
            "finished": True
        }
    index = clock_read(t, now).index if t.clock_started else None
    rebuy_passed = window_passed(t.rebuy_until, index)
    reg_passed = window_passed(t.late_reg_until, index)
    return {
        "registration": t.registration_open and not reg_passed,
        "rebuy": t.rebuy_price > 0 and t.rebuys_open and not rebuy_passed,
        "addon": t.addon_at is not None and t.addon_price > 0 and index == t.addon_at,
        "reentry": t.reentries_allowed > 0 and t.registration_open and not reg_passed,
        "finished": False,
    }


def desk_status(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """What the desk's header shows. Totals only, in one statement: the open tables with
    their usable seats and players (``Table.players``, kept by the seat triggers) and the
    entries by status — a 10,000-entry field costs no more rows than a small one."""
    with connection.cursor() as cursor:
        cursor.execute(STATUS_SQL.format(length=blocked_sql()[1]), _status_params(t))
        tables, capacity, seated, entries, in_play, alternates = cursor.fetchone()
    return {
        "offers": offers(t, now),
        "tables": tables,
        "seats_free": max(0, int(capacity) - int(seated)),
        "entries": entries,
        "in_play": in_play,
        "alternates": alternates,
        "buy_in": money_exact(t.buy_in),
        "fee": money_exact(t.fee),
        "price": money_exact(buy_in_split(t).price),  # RULES 9.1: added up in one place
        "rebuy_price": price_text(t.rebuy_price, t.rebuy_fee),
        "addon_price": price_text(t.addon_price, t.addon_fee),
        **bounty_offer(t),
    }


def bounty_offer(t: Tournament) -> dict[str, Any]:
    """What the desk says of the bounties (RULES 9.1), no query: ``bounty`` (the bounty part
    as text, "" without bounties), ``bounty_kind`` (its name), ``bounty_on_head`` (a fixed or
    progressive event: each entry, a re-entry too, starts with that bounty on its head) and
    ``reentry_hint``, what a re-entry button says of it."""
    if not has_bounties(t):
        return {"bounty": "", "bounty_kind": "", "bounty_on_head": False, "reentry_hint": ""}
    heads = heads_shown(t)
    return {
        "bounty": money_exact(t.bounty),
        "bounty_kind": Tournament.BountyKind(t.bounty_kind).label,
        "bounty_on_head": heads,
        "reentry_hint": _("new bounty %(amount)s") % {"amount": money_exact(t.bounty)}
        if heads
        else "",
    }


_ENTRIES = Entry._meta.db_table
STATUS_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(seats - {length}), 0), COALESCE(SUM(players), 0), "
    f"(SELECT COUNT(*) FROM {_ENTRIES} WHERE tournament_id = %s), "
    f"(SELECT COUNT(*) FROM {_ENTRIES} WHERE tournament_id = %s AND status IN (%s, %s)), "
    f"(SELECT COUNT(*) FROM {_ENTRIES} WHERE tournament_id = %s AND status = %s) "
    f"FROM {Table._meta.db_table} WHERE tournament_id = %s AND status = %s"
)


def _status_params(t: Tournament) -> list[Any]:
    s = Entry.Status
    return [
        t.pk,
        t.pk,
        s.SEATED.value,
        s.REGISTERED.value,
        t.pk,
        s.ALTERNATE.value,
        t.pk,
        Table.Status.OPEN.value,
    ]


def _entry_row(e: Entry, where: dict[int, tuple[int, int]]) -> dict[str, Any]:
    table, seat = where.get(e.pk, (None, None))
    return {
        "id": e.pk,
        "number": e.number,
        "status": e.status,
        "table": table,
        "seat": seat,
        "rebuys": e.rebuys,
        "addons": e.addons,
    }


def _seats(t: Tournament, entry_ids: list[int]) -> dict[int, tuple[int, int]]:
    return seats_of(t, entry_ids) if entry_ids else {}


def player_search(t: Tournament, query: str, limit: int = SEARCH_LIMIT) -> list[dict[str, Any]]:
    """Known players (the player database's records, issue 27) whose name or nickname holds
    every typed word (or whose membership number is one); exact and prefix matches first, then
    the most recently seen, then those who never played. Each row
    says what Enter would do here: register, re-enter, or nothing (still in play)."""
    # Control characters (a NUL the database refuses) match no name: they are dropped.
    query = "".join(c for c in (query or "")[:480] if unicodedata.category(c) != "Cc")
    words = " ".join(query.split())[:120].split()[:SEARCH_MAX_WORDS]
    if not words:
        return []
    text = " ".join(words)
    # Issue 27: every record of the player database (an imported one has no entry yet), but
    # merged and removed ones; a membership number typed whole finds its player too.
    qs = Player.objects.filter(merged_into__isnull=True, anonymised_at__isnull=True)
    for word in words:
        qs = qs.filter(
            Q(name__icontains=word) | Q(nickname__icontains=word) | Q(membership__iexact=word)
        )
    last = Entry.objects.filter(player=OuterRef("pk")).order_by("-created_at")
    players = list(
        qs.annotate(
            rank=Case(
                When(name__iexact=text, then=Value(0)),
                When(name__istartswith=text, then=Value(1)),
                When(nickname__iexact=text, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
            last_seen=Max("entries__created_at"),
            last_event=Subquery(last.values("tournament__name")[:1]),
        ).order_by("rank", F("last_seen").desc(nulls_last=True), "name")[:limit]
    )
    if not players:
        return []
    here: dict[int, list[Entry]] = defaultdict(list)
    for e in Entry.objects.filter(tournament=t, player__in=players).order_by("-number"):
        here[e.player_id].append(e)
    where = _seats(t, [e.pk for es in here.values() for e in es])
    warnings = flight_warnings(t, {p.pk: p.name for p in players})  # RULES 10.3: flights only
    tickets = tickets_into(t, [p.pk for p in players])  # issue 28: RULES 12.5, no charge
    rows = []
    for p in players:
        mine = here.get(p.pk, [])
        live = [e for e in mine if e.status != Entry.Status.BUSTED]
        if live:
            action, entry = "in_play", live[0]
        elif mine and len(mine) - 1 < t.reentries_allowed:
            action, entry = "reenter", mine[0]
        elif mine:  # every re-entry used: services.entry_reenter would refuse it
            action, entry = "out", mine[0]
        else:
            action, entry = "register", None
        rows.append(
            {
                "id": p.pk,
                "name": p.name,
                "nickname": p.nickname,
                "last_event": p.last_event,
                "last_seen": (
                    timezone.localtime(p.last_seen, t.zone).date() if p.last_seen else None
                ),
                "action": action,
                "entry": _entry_row(entry, where) if entry else None,
                "entries_here": len(mine),
                "reentries_left": max(0, t.reentries_allowed - (len(mine) - 1)) if mine else 0,
                "flight_warning": warnings.get(p.pk, ""),
                "tickets": tickets.get(p.pk, []) if action in ("register", "reenter") else [],
            }
        )
    return rows


def seat_card(t: Tournament, entry: Entry) -> dict[str, Any]:
    """What the printed seat card says; and ``flight_warning``, for the desk only (never
    printed): the player already holds a bag of another flight of the event (RULES 10.3)."""
    seat = Seat.objects.filter(entry=entry).select_related("table").first()
    position = None
    if entry.status == Entry.Status.ALTERNATE:
        position = Entry.objects.filter(
            tournament=t, status=Entry.Status.ALTERNATE, number__lte=entry.number
        ).count()
    first = Entry.objects.filter(tournament=t, player_id=entry.player_id).aggregate(
        n=Min("number")
    )["n"]
    return {
        "entry_id": entry.pk,
        "tournament": t.name,
        "name": entry.player.name,
        "number": entry.number,
        "status": entry.status,
        "table": seat.table.number if seat else None,
        "seat": seat.number if seat else None,
        "waits_for_button": seat.waits_for_button if seat else False,
        "alternate_position": position,
        "stack": t.starting_stack,
        "stack_text": number_format(t.starting_stack, force_grouping=True),
        "reentry": first is not None and first < entry.number,
        "registered_at": timezone.localtime(entry.created_at, t.zone),
        **_card_bounty(t, entry),
        "flight_warning": flight_warnings(t, {entry.player_id: entry.player.name}).get(
            entry.player_id, ""
        ),
        # issue 28: registered with a satellite's ticket, the card says so instead of a price
        "ticket": ticket_used_by(entry),
    }


def _card_bounty(t: Tournament, entry: Entry) -> dict[str, Any]:
    """A bounty event's receipt (RULES 9.1): the parts of the price this entry paid (the
    prize pool, the bounty, the fee) and the bounty it started with on its head."""
    if not entry.bounty_paid:
        return {"parts": None, "starting_bounty": ""}
    prize, fee = t.buy_in, t.fee
    return {
        "parts": {
            "prize_pool": money_exact(prize),
            "bounty": money_exact(entry.bounty_paid),
            "fee": money_exact(fee),
            "price": money_exact(prize + entry.bounty_paid + fee),
        },
        "starting_bounty": money_exact(entry.bounty_paid) if heads_shown(t) else "",
    }


def recent_entries(t: Tournament, limit: int = 10) -> list[dict[str, Any]]:
    # The last ``limit`` entries by number first (an index range), then their players and
    # clerks: one query, whose plan cannot join the whole field before the LIMIT.
    last = Entry.objects.filter(tournament=t).order_by("-number").values("pk")[:limit]
    entries = list(
        Entry.objects.filter(pk__in=last).select_related("player", "created_by").order_by("-number")
    )
    where = _seats(t, [e.pk for e in entries])
    mine = _entries_of_players(t, {e.player_id for e in entries if e.status == Entry.Status.BUSTED})
    rows = []
    for e in entries:
        row = _entry_row(e, where)
        row["name"] = e.player.name
        # "Re-enter" only where services.entry_reenter would take it: none of the player's
        # entries still in, and a re-entry left.
        count, live = mine.get(e.player_id, (0, 0))
        row["may_reenter"] = (
            e.status == Entry.Status.BUSTED and not live and count - 1 < t.reentries_allowed
        )
        row["clerk"] = e.created_by.get_username() if e.created_by else ""
        row["at"] = timezone.localtime(e.created_at, t.zone)
        rows.append(row)
    return rows


def _entries_of_players(t: Tournament, players: set[int]) -> dict[int, tuple[int, int]]:
    """Each player's entries in ``t`` and how many of them are not out: one query."""
    if not players:
        return {}
    rows = (
        Entry.objects.filter(tournament=t, player_id__in=players)
        .values("player_id")
        .annotate(n=Count("pk"), live=Count("pk", filter=~Q(status=Entry.Status.BUSTED)))
    )
    return {r["player_id"]: (r["n"], r["live"]) for r in rows}


def alternates(t: Tournament) -> list[dict[str, Any]]:
    """The alternates list, in the order they are seated as seats open."""
    rows = Entry.objects.filter(tournament=t, status=Entry.Status.ALTERNATE).select_related(
        "player"
    )
    return [
        {"id": e.pk, "position": i, "number": e.number, "name": e.player.name}
        for i, e in enumerate(rows.order_by("number"), start=1)
    ]


# The actions that open seats and so seat alternates (``tables.services.seat_alternates``).
SEATING_KINDS = (
    "elimination",
    "tables_opened",
    "seat_availability",
    "alternates_seated",
    "entry_registered",
    "entry_reentered",
)


def seated_from_alternates(t: Tournament, limit: int = 8) -> list[dict[str, Any]]:
    """Alternates who got a seat when one opened: entries an action's journal saw as
    alternates (first seatings are not Move rows, RULES 3.8), newest first, where they sit."""
    found: list[tuple[int, datetime]] = []
    events = Event.objects.filter(tournament=t, kind__in=SEATING_KINDS, undone=False)
    for payload, at in events.order_by("-id").values_list("payload", "created_at")[:50]:
        before = ((payload or {}).get("undo") or {}).get("entries") or {}
        for pk, fields in before.items():
            if fields.get("status") == Entry.Status.ALTERNATE:
                found.append((int(pk), at))
        if len(found) >= limit:
            break
    found = found[:limit]
    entries = Entry.objects.filter(pk__in=[pk for pk, _ in found]).select_related("player")
    by_pk = {e.pk: e for e in entries if e.status != Entry.Status.ALTERNATE}
    where = _seats(t, list(by_pk))
    rows = []
    for pk, at in found:
        e = by_pk.get(pk)
        if e is None:
            continue
        table, seat = where.get(pk, (None, None))
        rows.append(
            {
                "entry": pk,
                "number": e.number,
                "name": e.player.name,
                "table": table,
                "seat": seat,
                "at": timezone.localtime(at, t.zone),
            }
        )
    return rows


def _day_bounds(day: date, zone) -> tuple[datetime, datetime]:
    """The day from midnight to midnight in the card room's zone (issue 31)."""
    start = timezone.make_aware(datetime.combine(day, time.min), zone)
    end = timezone.make_aware(datetime.combine(day + timedelta(days=1), time.min), zone)
    return start, end


TOTALS_SQL = (
    "SELECT created_by_id, SUM(CASE WHEN number > first THEN 0 ELSE 1 END), "
    "SUM(CASE WHEN number > first THEN 1 ELSE 0 END), SUM(paid + bounty_paid + fee_paid), "
    "SUM(bounty_paid) "
    "FROM (SELECT created_by_id, number, paid, bounty_paid, fee_paid, created_at, "
    f"MIN(number) OVER (PARTITION BY player_id) AS first FROM {_ENTRIES} "
    "WHERE tournament_id = %s) AS x WHERE created_at >= %s AND created_at < %s "
    "GROUP BY created_by_id"
)


def desk_totals(t: Tournament, day: date | None = None) -> dict[str, Any]:
    """Today's desk takings by clerk: entries, re-entries, rebuys, add-ons and the money
    taken (buy-in, bounty and fee of each entry, rebuy and add-on prices and their fees; of
    it ``bounty``, the bounty parts, RULES 9.1), from Entry.created_by / created_at and the
    rebuy and add-on Events. Undone registrations are gone, so they do not count. "Today" is
    the day in the card room's zone (``t.zone``), not UTC's: a registration at 23:30 there
    counts on that day."""
    day = day or timezone.localdate(timezone=t.zone)
    start, end = _day_bounds(day, t.zone)
    extras: dict[int, int] = defaultdict(int)  # rebuy and add-on money in paid and fee_paid
    today: list[tuple[int | None, str, int]] = []
    for actor_id, kind, payload, at in Event.objects.filter(
        tournament=t, kind__in=("entry_rebuy", "entry_addon"), undone=False
    ).values_list("actor_id", "kind", "payload", "created_at"):
        amount = int(payload.get("amount") or 0) + int(payload.get("fee") or 0)
        extras[payload.get("entry")] += amount
        if start <= at < end:
            today.append((actor_id, kind, amount))
    blank = {"entries": 0, "reentries": 0, "rebuys": 0, "addons": 0, "money": 0, "bounty": 0}
    blank.update(tickets=0, ticket_money=0)  # RULES 12.5: entries by a satellite's ticket
    by_clerk: dict[int | None, dict[str, int]] = defaultdict(lambda: dict(blank))
    # Today's entries summed by clerk in the database; an entry is a re-entry when the same
    # player has an entry with a lower number in this tournament (any day).
    bounds = [connection.ops.adapt_datetimefield_value(x) for x in (start, end)]
    extra_ids = [pk for pk in extras if isinstance(pk, int)]
    with connection.cursor() as cursor:
        cursor.execute(TOTALS_SQL, [t.pk, *bounds])
        for clerk, entries, reentries, paid, bounty in cursor.fetchall():
            row = by_clerk[clerk]
            row["entries"] += int(entries)
            row["reentries"] += int(reentries)
            row["money"] += int(paid)
            row["bounty"] += int(bounty)
        if extra_ids:  # what today's entries paid since for rebuys and add-ons is not theirs
            cursor.execute(
                f"SELECT id, created_by_id FROM {_ENTRIES} WHERE tournament_id = %s "
                f"AND created_at >= %s AND created_at < %s AND id IN ({marks(extra_ids)})",
                [t.pk, *bounds, *extra_ids],
            )
            for pk, clerk in cursor.fetchall():
                by_clerk[clerk]["money"] -= extras[pk]
    _ticket_entries(t, bounds, extras, by_clerk)  # RULES 12.5: no cash for these
    for actor_id, kind, amount in today:
        row = by_clerk[actor_id]
        row["rebuys" if kind == "entry_rebuy" else "addons"] += 1
        row["money"] += amount
    names = dict(
        get_user_model()
        .objects.filter(pk__in=[k for k in by_clerk if k is not None])
        .values_list("pk", "username")
    )
    rows = [
        {
            "clerk": names.get(k, "") if k is not None else "",
            **v,
            "money_text": money_exact(v["money"]),
            "bounty_text": money_exact(v["bounty"]),
        }
        for k, v in by_clerk.items()
    ]
    rows.sort(key=lambda r: (r["clerk"] == "", r["clerk"]))
    total = {key: sum(r[key] for r in rows) for key in blank}
    total["money_text"] = money_exact(total["money"])
    total["bounty_text"] = money_exact(total["bounty"])
    total["ticket_money_text"] = money_exact(total["ticket_money"])
    return {"day": day, "rows": rows, "total": total, **_bounty_money(t)}


def _ticket_entries(t: Tournament, bounds: list, extras: dict, by_clerk: dict) -> None:
    """RULES 12.5: today's entries registered with a satellite's ticket brought no cash: their
    buy-in parts (less the rebuys and add-ons they bought since, counted apart) leave the
    clerk's money and are counted as ``tickets`` and ``ticket_money``."""
    ids = list(ticket_entry_ids(t.pk))
    if not ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, created_by_id, paid + bounty_paid + fee_paid FROM {_ENTRIES} "
            f"WHERE tournament_id = %s AND created_at >= %s AND created_at < %s "
            f"AND id IN ({marks(ids)})",
            [t.pk, *bounds, *ids],
        )
        for pk, clerk, paid in cursor.fetchall():
            part = int(paid) - extras.get(pk, 0)
            row = by_clerk[clerk]
            row["money"] -= part
            row["tickets"] += 1
            row["ticket_money"] += part


def _bounty_money(t: Tournament) -> dict[str, Any]:
    """A bounty event's bounty money (RULES 9.1, 9.9), every day's: collected, paid out to
    eliminators, still on heads or in envelopes. One query, and none without bounties."""
    if not has_bounties(t):
        return {"bounties": False}
    money = bounty_totals(t)
    return {
        "bounties": True,
        "bounty_collected": money_exact(money["collected"]),
        "bounty_paid_out": money_exact(money["paid"]),
        "bounty_in_play": money_exact(money["in_play"]),
    }
