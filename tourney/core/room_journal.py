"""The room's undo journal: actions that belong to no one tournament (the player database,
leagues and seasons, issue 27) are undone the way a tournament's are (tourney/core/journal.py),
from the images of the rows they changed.

A service opens ``room_action(kind, actor, payload)``; before it changes or deletes a row it
calls ``before(row)`` (only the ``fields`` it changes, or every stored field), and for each row
it creates ``created(row)``. At the end of the block one ``Event`` (``tournament`` None) is
written with the images in ``payload["undo"]``; an exception inside the block writes nothing.

``room_undo`` puts the images back in reverse (rows deleted come back with their ids, rows
changed get their noted fields back, rows created are deleted). It is refused while a later
room action that is not undone touched one of the same rows: undo that one first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.db import transaction
from django.db.models import Model, QuerySet

from tourney.core.events import record_event
from tourney.engine.errors import DomainError
from tourney.models import Event

MSG_NOT_FOUND = "No such action in the room's log."
MSG_NO_UNDO = "This action cannot be undone."
MSG_ALREADY_UNDONE = "This action was undone already."
MSG_STALE = (
    "A later action changed the same records ({kind}, #{event}): undo that one first, then this."
)
UNDO_KIND = "room_undo"


def _out(v: Any) -> Any:
    if isinstance(v, datetime):
        return {"__dt__": v.isoformat()}
    if isinstance(v, date):
        return {"__d__": v.isoformat()}
    if isinstance(v, Decimal):
        return {"__dec__": str(v)}
    if hasattr(v, "name") and hasattr(v, "storage"):  # a file field: its stored name
        return v.name or ""
    return v


def _in(v: Any) -> Any:
    if isinstance(v, dict):
        if "__dt__" in v:
            return datetime.fromisoformat(v["__dt__"])
        if "__d__" in v:
            return date.fromisoformat(v["__d__"])
        if "__dec__" in v:
            return Decimal(v["__dec__"])
    return v


def _image(row: Model, fields: Iterable[str] | None) -> dict[str, Any]:
    names = {f.name: f.attname for f in row._meta.concrete_fields}
    attnames = [names.get(f, f) for f in fields] if fields else list(names.values())
    return {a: _out(getattr(row, a)) for a in attnames}


class RoomJournal:
    """What one room action changed: before images by (model label, pk), in noting order,
    and the rows it created."""

    def __init__(self) -> None:
        self.images: list[list[Any]] = []  # [label, pk, fields | None (all), image]
        self.seen: set[tuple[str, Any]] = set()
        self.made: list[list[Any]] = []  # [label, pk]

    def before(self, row: Model, fields: Iterable[str] | None = None) -> None:
        """Keep ``row`` as it is now (its first image in this action), ``fields`` only or
        every stored field (a row about to be deleted: all of them)."""
        key = (row._meta.label_lower, row.pk)
        if key in self.seen:
            return
        self.seen.add(key)
        fields = tuple(fields) if fields else None
        self.images.append([key[0], row.pk, list(fields) if fields else None, _image(row, fields)])

    def before_many(self, rows: QuerySet | Iterable[Model], fields: Iterable[str] | None = None):
        fields = tuple(fields) if fields else None
        for row in rows:
            self.before(row, fields)

    def created(self, row: Model) -> None:
        self.made.append([row._meta.label_lower, row.pk])

    def created_many(self, model: type[Model], pks: Iterable[Any]) -> None:
        self.made.extend([model._meta.label_lower, pk] for pk in pks)

    def data(self) -> dict[str, Any]:
        rows = sorted({(a, b) for a, b, *_ in self.images} | {(a, b) for a, b in self.made})
        return {"images": self.images, "created": self.made, "rows": [list(r) for r in rows]}


@contextmanager
def room_action(kind: str, actor, payload: dict[str, Any]) -> Iterator[RoomJournal]:
    """One room action: a transaction, its journal, and its Event at the end."""
    with transaction.atomic():
        j = RoomJournal()
        yield j
        record_event(None, kind, {**payload, "undo": j.data()}, actor)


def _later_overlap(event: Event) -> Event | None:
    mine = {tuple(r) for r in event.payload["undo"].get("rows", [])}
    later = Event.objects.filter(tournament__isnull=True, pk__gt=event.pk, undone=False)
    for other in later.exclude(kind=UNDO_KIND).order_by("pk"):
        undo = (other.payload or {}).get("undo")
        if undo and mine & {tuple(r) for r in undo.get("rows", [])}:
            return other
    return None


def _restore(undo: dict[str, Any]) -> None:
    for label, pk in reversed(undo.get("created", [])):
        apps.get_model(label).objects.filter(pk=pk).delete()
    for label, pk, fields, image in reversed(undo.get("images", [])):
        model = apps.get_model(label)
        values = {k: _in(v) for k, v in image.items()}
        pk_name = model._meta.pk.attname
        if model.objects.filter(pk=pk).update(**{k: v for k, v in values.items() if k != pk_name}):
            continue
        if fields is None:  # a row the action deleted: back with its id
            model(**values).save(force_insert=True)


def room_undo(*, event_id: int, actor=None) -> Event:
    """Undo the room action ``event_id`` (see the module's docstring)."""
    with transaction.atomic():
        event = (
            Event.objects.select_for_update()
            .filter(pk=event_id, tournament__isnull=True)
            .exclude(kind=UNDO_KIND)
            .first()
        )
        if event is None:
            raise DomainError("not_found", MSG_NOT_FOUND, status=404)
        undo = (event.payload or {}).get("undo")
        if not undo:
            raise DomainError("not_undoable", MSG_NO_UNDO, status=409)
        if event.undone:
            raise DomainError("already_undone", MSG_ALREADY_UNDONE, status=409)
        later = _later_overlap(event)
        if later is not None:
            msg = MSG_STALE.format(kind=later.kind, event=later.pk)
            raise DomainError("stale_undo", msg, status=409, fields={"event": later.pk})
        _restore(undo)
        Event.objects.filter(pk=event.pk).update(undone=True)
        return record_event(None, UNDO_KIND, {"undid": event.pk, "kind": event.kind}, actor)


def room_log(kinds: Iterable[str] | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """The latest room actions, newest first: id, kind, the payload without its undo data,
    who, when, undone, and whether it can be undone now (has undo data, not undone)."""
    qs = Event.objects.filter(tournament__isnull=True).select_related("actor").order_by("-pk")
    if kinds is not None:
        qs = qs.filter(kind__in=list(kinds))
    out = []
    for e in qs[:limit]:
        payload = dict(e.payload or {})
        undo = payload.pop("undo", None)
        out.append(
            {
                "id": e.pk,
                "kind": e.kind,
                "payload": payload,
                "actor": e.actor.get_username() if e.actor else "",
                "at": e.created_at,
                "undone": e.undone,
                "can_undo": bool(undo) and not e.undone,
            }
        )
    return out
