"""A tournament as one JSON document (the backup), and what an import checks first.

``tournament_document`` reads every row of one tournament: the tournament row (its clock
anchors and money counters), the structure, the chips, the tables, the entries and the
players they name, the seats, the moves and the log (each Event with its payload and undo
journal). Rows keep their ids; references are ids too, and users are named by username (an
other machine has other users). ``tourney.services.backup.tournament_import`` writes such a
document back as a new tournament, every id given anew and every reference remapped, the
ids inside the log's payloads included (``payload_ids``).

The document carries ``format`` (how it is laid out) and ``schema`` (the last migration of
each app): an import refuses a document from a newer format or schema (``document_check``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.migrations.loader import MigrationLoader
from django.db.models import Model

from tables.models import Move, Seat, Table
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
)

FORMAT = 1
APPS = ("tourney", "tables")
# Every model with a foreign key to Tournament, in the order an import writes them (a row
# after the rows it names). tests/services/test_backup.py fails when a model with such a key
# is neither here nor in NOT_EXPORTED.
EXPORTED: tuple[type[Model], ...] = (
    Level,
    ChipDenomination,
    Table,
    Entry,
    Event,
    Seat,
    Move,
    Knockout,
    ChipCount,
)
# Models with a key to Tournament that a backup leaves out on purpose, with the reason.
NOT_EXPORTED: dict[str, str] = {
    # RULES 12: a ticket joins two tournaments (the satellite that issued it, the target it
    # registers into); the backup of one tournament restores it alone, so without them (its
    # places and prizes are in the file). The tournament row is the document's head; its key
    # to another tournament (a satellite's target) is not restored.
    "tourney.ticket": "a satellite's ticket names two tournaments; a restored one stands alone",
    "tourney.tournament": "the document's head; its satellite target is another tournament",
    # Issue 29: a free-text announcement is spoken once, when it is made; a feed names another
    # tool's address and its secret, which a copy on another machine must not start feeding.
    "tourney.announcement": "spoken once when made: a restored display has nothing to replay",
    "tourney.statusfeed": "a receiver's address and secret: the director adds feeds again",
}
# Kept by the database itself (triggers): an import lets the database set them again.
DERIVED = {"tourney.tournament": {"prizes_key"}, "tables.table": {"players"}}
# Foreign keys to users: written as the username.
USER_FIELDS = {"created_by", "actor"}

MSG_NOT_A_BACKUP = "This file is not a tournament backup: {why}."
MSG_FORMAT_NEWER = (
    "This backup is in format {found}, newer than this version of Tourney reads ({known}). "
    "Update Tourney on this machine, then import it."
)
MSG_SCHEMA_NEWER = (
    "This backup was made by a newer version of Tourney (database schema {app} {found}, "
    "unknown here). Update Tourney on this machine, then import it."
)


def label(model: type[Model]) -> str:
    return model._meta.label_lower


def schema_current() -> dict[str, str]:
    """The last migration of each app, as this version of the code has them (from disk)."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    out = {}
    for app in APPS:
        leaves = graph.leaf_nodes(app)
        out[app] = leaves[-1][1] if leaves else ""
    return out


def schema_known(app: str, name: str) -> bool:
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    return (app, name) in graph.nodes


# ---------------------------------------------------------------- reading


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _fields(model: type[Model]) -> list[tuple[str, str]]:
    """(key in the document, attribute) of every stored field, derived ones left out."""
    skip = DERIVED.get(label(model), set())
    out = []
    for f in model._meta.concrete_fields:
        if f.name in skip:
            continue
        out.append((f.name if f.name in USER_FIELDS else f.attname, f.attname))
    return out


def _rows(model: type[Model], users: dict[int, str], **where) -> list[dict[str, Any]]:
    fields = _fields(model)
    keys = [key for key, _ in fields]
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    # Only users and times need a change to be JSON: found once per model, not per value.
    user_at = [i for i, key in enumerate(keys) if key in USER_FIELDS]
    time_at = [
        i
        for i, (key, attname) in enumerate(fields)
        if key not in USER_FIELDS
        and by_attname[attname].get_internal_type() in ("DateTimeField", "DateField")
    ]
    rows = []
    for values in model.objects.filter(**where).order_by("pk").values_list(*(a for _, a in fields)):
        row = dict(zip(keys, values, strict=True))
        for i in user_at:
            v = values[i]
            row[keys[i]] = users.get(v) if v is not None else None
        for i in time_at:
            row[keys[i]] = _jsonable(values[i])
        rows.append(row)
    return rows


def _usernames(tournament_id: int) -> dict[int, str]:
    from django.contrib.auth import get_user_model

    ids = set(Tournament.objects.filter(pk=tournament_id).values_list("created_by_id", flat=True))
    ids |= set(
        Entry.objects.filter(tournament_id=tournament_id).values_list("created_by_id", flat=True)
    )
    ids |= set(Event.objects.filter(tournament_id=tournament_id).values_list("actor_id", flat=True))
    ids.discard(None)
    user = get_user_model()
    return dict(user.objects.filter(pk__in=ids).values_list("pk", user.USERNAME_FIELD))


def tournament_document(tournament_id: int) -> dict[str, Any]:
    """Every row of the tournament, read under its lock (every writer takes that lock first,
    so the document is one consistent moment of the event). Raises DomainError not_found."""
    with transaction.atomic():
        if not Tournament.objects.select_for_update().filter(pk=tournament_id).exists():
            raise DomainError("not_found", "No such tournament.", status=404)
        users = _usernames(tournament_id)
        rows: dict[str, list[dict[str, Any]]] = {
            label(Tournament): _rows(Tournament, users, pk=tournament_id),
            label(Player): _rows(Player, users, entries__tournament_id=tournament_id),
        }
        rows[label(Player)] = list({r["id"]: r for r in rows[label(Player)]}.values())
        for model in EXPORTED:
            rows[label(model)] = _rows(model, users, tournament_id=tournament_id)
    return {
        "format": FORMAT,
        "schema": schema_current(),
        "tournament": tournament_id,
        "rows": rows,
    }


# ---------------------------------------------------------------- the ids in the log

# The ids an Event's payload holds, by what they name. Keys mean the same thing in every
# kind of event (and in a journal's ``call`` arguments), except where a kind is named.
_ENTRY = {"entry", "from_entry", "winner", "after_undo_of", "entry_id"}
_ENTRY_LISTS = {"alternates", "alternates_seated", "agreed", "entries"}
_PLAYER = {"player", "player_id"}
_EVENT = {"undid", "redo_of", "race", "finish"}
_EVENT_LISTS = {"events", "races"}
_MOVE_LISTS = {"moves"}
# Keys whose dict is keyed by entry ids, in these kinds only ("before" is the clock's
# anchors in a clock event).
_ENTRY_KEYED = {"elimination": {"before"}, "deal_recorded": {"amounts", "stacks"}}
_CALL_ENTRY_KEYED = {"deal_record": {"amounts", "stacks"}}

IdMap = Callable[[str, int], int]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _keyed(d: Any, kind: str, fn: IdMap) -> Any:
    if not isinstance(d, dict):
        return d
    return {str(fn(kind, int(k))) if k.lstrip("-").isdigit() else k: v for k, v in d.items()}


def _plain(d: dict[str, Any], fn: IdMap, keyed: set[str]) -> dict[str, Any]:
    """The ids at the top of one payload (or of a ``call``'s arguments), by key."""
    out = dict(d)
    for key, v in d.items():
        if key in _ENTRY and _int(v):
            out[key] = fn("entry", v)
        elif key in _PLAYER and _int(v):
            out[key] = fn("player", v)
        elif key in _EVENT and _int(v):
            out[key] = fn("event", v)
        elif isinstance(v, list) and key in _ENTRY_LISTS | _EVENT_LISTS | _MOVE_LISTS:
            kind = "entry" if key in _ENTRY_LISTS else "event" if key in _EVENT_LISTS else "move"
            out[key] = [fn(kind, x) if _int(x) else x for x in v]
        elif key == "busts" and isinstance(v, list):
            out[key] = [[fn("entry", b[0]), *b[1:]] for b in v]
        elif key == "bounties" and isinstance(v, list):  # an elimination's (RULES 9)
            out[key] = [
                {**p, "busted": fn("entry", p["busted"]), "winner": fn("entry", p["winner"])}
                for p in v
            ]
        elif key == "winners" and isinstance(v, dict):  # a redo's winners by busted entry
            out[key] = {
                str(fn("entry", int(k))): [fn("entry", x) for x in ids] for k, ids in v.items()
            }
        elif key == "places" and isinstance(v, list):
            out[key] = [{**p, "entry": fn("entry", p["entry"])} for p in v]
        elif key == "players" and isinstance(v, list):  # a chip race's players
            out[key] = [
                {**p, "entry": fn("entry", p["entry"])} if _int(p.get("entry")) else p for p in v
            ]
        elif key in keyed:
            out[key] = _keyed(v, "entry", fn)
    return out


def _journal(undo: dict[str, Any], fn: IdMap, tournament_id: int) -> dict[str, Any]:
    """An undo journal (tourney/core/journal.py) with its ids mapped."""
    out = dict(undo)
    out["tournament_id"] = tournament_id
    out["entries"] = _keyed(undo.get("entries") or {}, "entry", fn)
    out["seats"] = {
        str(fn("entry", int(k))): ([fn("table", v[0]), *v[1:]] if v else v)
        for k, v in (undo.get("seats") or {}).items()
    }
    out["tables"] = _keyed(undo.get("tables") or {}, "table", fn)
    created = undo.get("created") or {}
    out["created"] = {k: [fn(k, i) for i in ids] for k, ids in created.items()}
    return out


def payload_ids(kind: str, payload: Any, fn: IdMap, tournament_id: int) -> Any:
    """The payload of an Event of ``kind`` with every id it holds replaced by
    ``fn(what, id)`` (what: "entry", "player", "event", "move", "table") and the journal's
    tournament by ``tournament_id``."""
    if not isinstance(payload, dict):
        return payload
    out = _plain(payload, fn, _ENTRY_KEYED.get(kind, set()))
    if isinstance(payload.get("undo"), dict):
        out["undo"] = _journal(payload["undo"], fn, tournament_id)
    call = payload.get("call")
    if isinstance(call, dict) and isinstance(call.get("kwargs"), dict):
        keyed = _CALL_ENTRY_KEYED.get(call.get("service"), set())
        out["call"] = {**call, "kwargs": _plain(call["kwargs"], fn, keyed)}
    return out


# ---------------------------------------------------------------- checking a document


def _not_a_backup(why: str) -> DomainError:
    return DomainError("backup_invalid", MSG_NOT_A_BACKUP.format(why=why))


def document_check(doc: Any) -> None:
    """Refuse (DomainError) what is not a backup, or one from a newer format or schema."""
    if not isinstance(doc, dict) or "rows" not in doc or "format" not in doc:
        raise _not_a_backup("no format or rows")
    found = doc["format"]
    if not _int(found) or found < 1:
        raise _not_a_backup("the format is not a number")
    if found > FORMAT:
        raise DomainError("backup_format_newer", MSG_FORMAT_NEWER.format(found=found, known=FORMAT))
    schema = doc.get("schema")
    if not isinstance(schema, dict):
        raise _not_a_backup("no schema")
    for app in APPS:
        name = schema.get(app)
        if not isinstance(name, str) or not name:
            raise _not_a_backup(f"no migration named for {app}")
        if not schema_known(app, name):
            raise DomainError("backup_schema_newer", MSG_SCHEMA_NEWER.format(app=app, found=name))
    rows = doc["rows"]
    if not isinstance(rows, dict) or len(rows.get(label(Tournament)) or []) != 1:
        raise _not_a_backup("not exactly one tournament")
    for model in (Player, *EXPORTED):
        if not isinstance(rows.get(label(model), []), list):
            raise _not_a_backup(f"{label(model)} is not a list")
