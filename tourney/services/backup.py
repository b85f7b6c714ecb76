"""Restoring a tournament from its backup (``tourney.selectors.backup.tournament_document``).

The import writes a new tournament in one transaction: every row of the document gets a new
id and every reference follows it, the ids inside the log's payloads and undo journals
included, so that the log, undo and redo go on as before. A reference to a row the event
itself deleted (an undone registration's entry, say) becomes a negative number: it names no
row, here as there.

Players are matched by name: a player of the backup whose name is borne by exactly one
player here (and by no other player of the backup) is that player; any other is created.
Users (who registered an entry, who did an action) are matched by username; one unknown
here is left empty. The slug and the display link stay when free, else get new ones.
"""

from __future__ import annotations

import functools
from collections import Counter
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, transaction
from django.utils.text import slugify

from tables.models import Move, Seat, Table
from tourney.core.events import record_event
from tourney.engine.errors import DomainError
from tourney.models import (
    ChipCount,
    ChipDenomination,
    Entry,
    Event,
    Knockout,
    Level,
    Player,
    Tournament,
    new_display_token,
)
from tourney.selectors.backup import (
    MSG_NOT_A_BACKUP,
    USER_FIELDS,
    document_check,
    label,
    payload_ids,
)
from tourney.services.backup_sql import BATCH, insert_rows, set_columns

IMPORTED_KIND = "tournament_imported"


class _Maps:
    """Old id → new id, per kind of row."""

    def __init__(self) -> None:
        self.ids: dict[str, dict[int, int]] = {
            k: {} for k in ("entry", "player", "event", "move", "table", "knockout")
        }

    def __call__(self, kind: str, old: int) -> int:
        new = self.ids[kind].get(old)
        return new if new is not None else -abs(old)


def _when(v: Any) -> Any:
    return datetime.fromisoformat(v) if isinstance(v, str) else v


@functools.cache
def _columns(model, skip: tuple[str, ...] = ()) -> tuple[tuple[str, str, str], ...]:
    """(key in the document, attribute, "user" | "time" | "") of the model's stored fields,
    the id and ``skip`` left out: worked out once per model, not once per row."""
    out = []
    for f in model._meta.concrete_fields:
        key = f.name if f.name in USER_FIELDS else f.attname
        if key == "id" or key in skip:
            continue
        how = "user" if f.name in USER_FIELDS else ""
        if not how and f.get_internal_type() == "DateTimeField":
            how = "time"
        out.append((key, f.attname, how))
    return tuple(out)


def _fields(model, row: dict[str, Any], users: dict[str, int], skip=()) -> dict[str, Any]:
    """The row's stored fields by attribute: users by username, times parsed; keys the
    model no longer has (an older schema) are left out."""
    out: dict[str, Any] = {}
    for key, attname, how in _columns(model, tuple(skip)):
        if key not in row:
            continue
        v = row[key]
        if how == "user":
            out[attname] = users.get(v) if v is not None else None
        elif how == "time":
            out[attname] = _when(v)
        else:
            out[attname] = v
    return out


def _insert(model, rows: list[dict[str, Any]], skip=()) -> list[int]:
    """Insert rows given as attribute → value (``_fields``), in their order (so ids keep
    it). A field a row lacks (a document of an older schema) gets its default, except the
    time of creation: a row without it is refused (KeyError). The new ids, in order."""
    attnames = [a for _, a, _ in _columns(model, tuple(skip))]
    default = {
        f.attname: f.get_default()
        for f in model._meta.concrete_fields
        if f.attname in attnames and not getattr(f, "auto_now_add", False)
    }
    values = [tuple(r[a] if a in r else default[a] for a in attnames) for r in rows]
    return insert_rows(model, attnames, values)


def _users(rows: dict[str, list]) -> dict[str, int]:
    names = {r.get(f) for rows_ in rows.values() for r in rows_ for f in USER_FIELDS if r.get(f)}
    user = get_user_model()
    return dict(
        user.objects.filter(**{f"{user.USERNAME_FIELD}__in": names}).values_list(
            user.USERNAME_FIELD, "pk"
        )
    )


def _tournament(row: dict[str, Any], users: dict[str, int]) -> Tournament:
    # A restored day stands alone: its multi-day event (RULES 10), its league season
    # (issue 27) and a satellite's target (RULES 12.1, another tournament) are not in the file.
    skip = ("created_at", "multi_day_event_id", "season_id", "satellite_target_id")
    fields = _fields(Tournament, row, users, skip=skip)
    base = fields.get("slug") or slugify(fields.get("name") or "") or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base[:130]}-{n}"
    fields["slug"] = slug
    if Tournament.objects.filter(display_token=fields.get("display_token")).exists():
        fields["display_token"] = new_display_token()
    t = Tournament.objects.create(**fields)
    Tournament.objects.filter(pk=t.pk).update(created_at=_when(row["created_at"]))
    return t


def _players(rows: list[dict[str, Any]], maps: _Maps) -> None:
    """RULES-free bookkeeping: one name borne by one player here and one in the backup is the
    same person; anyone else is a new player."""
    names = Counter(r["name"] for r in rows)
    unique = [name for name, n in names.items() if n == 1]
    here: dict[str, list[int]] = {}
    for start in range(0, len(unique), BATCH):
        found = Player.objects.filter(name__in=unique[start : start + BATCH])
        for pk, name in found.values_list("pk", "name"):
            here.setdefault(name, []).append(pk)
    new = []
    for r in rows:
        found = here.get(r["name"], [])
        if len(found) == 1:
            maps.ids["player"][r["id"]] = found[0]
        else:
            new.append(r)
    # A merge (issue 27) is of this room's records: the one merged into is not in the file.
    skip = ("merged_into_id",)
    ids = _insert(Player, [_fields(Player, r, {}, skip=skip) for r in new], skip=skip)
    for r, pk in zip(new, ids, strict=True):
        maps.ids["player"][r["id"]] = pk


def _create(model, rows, t: Tournament, users, refs: dict[str, Any], kind: str | None, maps):
    """Insert the rows, references mapped by ``refs`` (attribute → function of the old
    value); the new ids, in the rows' order."""
    values = []
    for r in rows:
        fields = _fields(model, r, users)
        fields["tournament_id"] = t.pk
        for attname, fn in refs.items():
            if fields.get(attname) is not None:
                fields[attname] = fn(fields[attname])
        values.append(fields)
    ids = _insert(model, values)
    if kind is not None:
        for r, pk in zip(rows, ids, strict=True):
            maps.ids[kind][r["id"]] = pk
    return ids


def _write(doc: dict[str, Any], actor) -> Tournament:
    rows = doc["rows"]
    users = _users(rows)
    maps = _Maps()
    t = _tournament(rows[label(Tournament)][0], users)
    _players(rows.get(label(Player), []), maps)
    _create(Level, rows.get(label(Level), []), t, users, {}, None, maps)
    _create(ChipDenomination, rows.get(label(ChipDenomination), []), t, users, {}, None, maps)
    _create(Table, rows.get(label(Table), []), t, users, {}, "table", maps)
    # The log before the entries (an event names no row by a key), so an entry's bust hand
    # (the elimination's event) is mapped as it is written; the payloads come last.
    event_rows = rows.get(label(Event), [])
    events = _create(Event, [{**r, "payload": {}} for r in event_rows], t, users, {}, "event", maps)
    _create(
        Entry,
        # a Day 2 entry's bag is an entry of another day, not in the file (RULES 10.5)
        [{**r, "carried_from_id": None} for r in rows.get(label(Entry), [])],
        t,
        users,
        {
            "player_id": lambda v: maps("player", v),
            "bust_hand": lambda v: maps.ids["event"].get(v, v),
        },
        "entry",
        maps,
    )
    entry_of = {"entry_id": lambda v: maps("entry", v)}
    _create(
        Seat,
        rows.get(label(Seat), []),
        t,
        users,
        {**entry_of, "table_id": lambda v: maps("table", v)},
        None,
        maps,
    )
    _create(
        Move,
        rows.get(label(Move), []),
        t,
        users,
        {**entry_of, "event_id": lambda v: maps.ids["event"].get(v)},
        "move",
        maps,
    )
    _create(ChipCount, rows.get(label(ChipCount), []), t, users, entry_of, None, maps)
    _create(
        Knockout,
        rows.get(label(Knockout), []),
        t,
        users,
        {
            "busted_id": lambda v: maps("entry", v),
            "winner_id": lambda v: maps("entry", v),
            "hand": lambda v: maps.ids["event"].get(v, v),
        },
        "knockout",
        maps,
    )
    # The log's payloads name moves, events and knockouts: written once every id is known.
    set_columns(
        Event,
        ("payload",),
        [
            (pk, payload_ids(r["kind"], r.get("payload"), maps, t.pk))
            for r, pk in zip(event_rows, events, strict=True)
        ],
    )
    record_event(
        None,
        IMPORTED_KIND,
        {"tournament": t.pk, "source": doc.get("tournament"), "name": t.name},
        actor,
    )
    return t


def tournament_import(*, document: Any, actor=None) -> Tournament:
    """A new tournament from a backup document; nothing is written if any part is refused
    (DomainError: backup_invalid, backup_format_newer, backup_schema_newer)."""
    document_check(document)
    try:
        with transaction.atomic():
            return _write(document, actor)
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError) as exc:
        raise DomainError(
            "backup_invalid", MSG_NOT_A_BACKUP.format(why=f"{type(exc).__name__}: {exc}")
        ) from None
    except DatabaseError as exc:  # a value the column refuses (a negative count, say)
        raise DomainError(
            "backup_invalid", MSG_NOT_A_BACKUP.format(why=f"the database refused it ({exc})")
        ) from None
