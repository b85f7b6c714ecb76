"""Lobby displays (issue 28): a screen that shows several events' clocks at once, by its own
link. Creating, editing and deleting one are room actions (tourney/core/room_journal.py): one
transaction, one ``Event`` without a tournament, undone by ``room_undo``. A refusal is a
``DomainError`` raised before anything is written.

Readings:

* ``tournament_ids``: the events the lobby shows. Empty: every event of today and upcoming
  that is not finished (``tourney.selectors.lobby.lobby_events``), so a lobby set up once
  keeps showing each new day's events. Only unfinished tournaments may be picked (a finished
  one would never show); the same id twice counts once.
* ``per_page``: events on one page, 1 to 24; ``page_seconds``: how long a page stays when
  there are more events than fit, 5 s to an hour.
* The lobby's token (its public link) is made at creation and never changes here.
* A change shows on the lobby's screens at their next poll: the cached version of its link
  is dropped once the change is committed (a deleted lobby's link answers 404 at once).
* Undo: the lobby row and its chosen events (the rows of the many-to-many table) are noted,
  so undoing a deletion brings the lobby back with the same link and the same events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from django.db import transaction
from django.utils.translation import gettext_noop as N_

from tourney.core.room_journal import RoomJournal, room_action
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import Lobby, Tournament
from tourney.selectors.lobby import forget_version

NAME_MAX = 120
PER_PAGE_MIN, PER_PAGE_MAX = 1, 24
PAGE_SECONDS_MIN, PAGE_SECONDS_MAX = 5, 3600
EVENTS_MAX = 200

MSG_NAME = N_("Give the lobby a name of 1 to 120 characters.")
MSG_PER_PAGE = N_("Events per page: a whole number from 1 to 24.")
MSG_PAGE_SECONDS = N_("Seconds per page: a whole number from 5 to 3600.")
MSG_NO_LOBBY = N_("No such lobby display.")
MSG_TOURNAMENTS = N_("Pick tournaments that exist and are not finished (or none, for all of them).")
MSG_TOO_MANY_TEMPLATE = N_("A lobby shows at most %(max)s tournaments.")
MSG_TOO_MANY = MSG_TOO_MANY_TEMPLATE % {"max": EVENTS_MAX}

Through = Lobby.tournaments.through


def _name(name: str) -> str:
    clean = " ".join(str(name or "").split())
    if not 1 <= len(clean) <= NAME_MAX:
        raise DomainError("bad_name", MSG_NAME, fields={"name": MSG_NAME})
    return clean


def _whole(value, low: int, high: int, field: str, message: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DomainError("bad_input", message, fields={field: message})
    return value


def _tournaments(ids: Iterable[int]) -> list[int]:
    """The chosen tournaments, each once, in the order given; refused unless every one exists
    and is not finished."""
    chosen = list(dict.fromkeys(ids))
    if len(chosen) > EVENTS_MAX:
        raise DomainError(
            "bad_input",
            MSG_TOO_MANY_TEMPLATE,
            params={"max": EVENTS_MAX},
            fields={"tournaments": MSG_TOO_MANY},
        )
    if any(isinstance(i, bool) or not isinstance(i, int) or not 0 < i <= MAX_ID for i in chosen):
        raise DomainError("bad_tournaments", MSG_TOURNAMENTS, fields={"tournaments": chosen})
    found = set(
        Tournament.objects.filter(pk__in=chosen)
        .exclude(status=Tournament.Status.FINISHED)
        .values_list("pk", flat=True)
    )
    if missing := [i for i in chosen if i not in found]:
        raise DomainError("bad_tournaments", MSG_TOURNAMENTS, fields={"tournaments": missing})
    return chosen


def _lobby(lobby_id: int) -> Lobby:
    lobby = Lobby.objects.select_for_update().filter(pk=lobby_id).first()
    if lobby is None:
        raise DomainError("not_found", MSG_NO_LOBBY, status=404)
    return lobby


def _set_events(j: RoomJournal, lobby: Lobby, ids: Sequence[int]) -> None:
    """The lobby's chosen events become ``ids``: the links dropped are noted whole (undo puts
    them back with their ids), the links added noted as made."""
    links = Through.objects.filter(lobby_id=lobby.pk)
    j.before_many(links.exclude(tournament_id__in=ids))
    links.exclude(tournament_id__in=ids).delete()
    have = set(links.values_list("tournament_id", flat=True))
    for tid in ids:
        if tid not in have:
            j.created(Through.objects.create(lobby_id=lobby.pk, tournament_id=tid))


def lobby_create(
    *,
    name: str,
    tournament_ids: Sequence[int] = (),
    per_page: int = 6,
    page_seconds: int = 15,
    actor=None,
) -> Lobby:
    """A new lobby display (see the module's readings)."""
    clean = _name(name)
    per_page = _whole(per_page, PER_PAGE_MIN, PER_PAGE_MAX, "per_page", MSG_PER_PAGE)
    page_seconds = _whole(
        page_seconds, PAGE_SECONDS_MIN, PAGE_SECONDS_MAX, "page_seconds", MSG_PAGE_SECONDS
    )
    ids = _tournaments(tournament_ids)
    payload = {"name": clean, "tournaments": ids}
    with room_action("lobby_created", actor, payload) as j:
        lobby = Lobby.objects.create(name=clean, per_page=per_page, page_seconds=page_seconds)
        j.created(lobby)
        _set_events(j, lobby, ids)
        payload["lobby"] = lobby.pk  # the Event is written at the block's end
    return lobby


def lobby_update(
    *,
    lobby_id: int,
    name: str | None = None,
    tournament_ids: Sequence[int] | None = None,
    per_page: int | None = None,
    page_seconds: int | None = None,
    actor=None,
) -> Lobby:
    """Change a lobby's name, events, events per page or seconds per page; what is None
    stays (``tournament_ids`` empty: every event of today and upcoming)."""
    values: dict = {}
    if name is not None:
        values["name"] = _name(name)
    if per_page is not None:
        values["per_page"] = _whole(per_page, PER_PAGE_MIN, PER_PAGE_MAX, "per_page", MSG_PER_PAGE)
    if page_seconds is not None:
        values["page_seconds"] = _whole(
            page_seconds, PAGE_SECONDS_MIN, PAGE_SECONDS_MAX, "page_seconds", MSG_PAGE_SECONDS
        )
    ids = _tournaments(tournament_ids) if tournament_ids is not None else None
    payload = {"lobby": lobby_id, **({"name": values["name"]} if "name" in values else {})}
    if ids is not None:
        payload["tournaments"] = ids
    with room_action("lobby_updated", actor, payload) as j:
        lobby = _lobby(lobby_id)
        payload.setdefault("name", lobby.name)
        j.before(lobby, ["name", "per_page", "page_seconds"])
        for field, value in values.items():
            setattr(lobby, field, value)
        if values:
            lobby.save(update_fields=list(values))
        if ids is not None:
            _set_events(j, lobby, ids)
        transaction.on_commit(partial(forget_version, lobby.token))
    return lobby


def lobby_delete(*, lobby_id: int, actor=None) -> None:
    """Delete a lobby display: its link answers 404 from now on (undo brings it back)."""
    payload: dict = {"lobby": lobby_id}
    with room_action("lobby_deleted", actor, payload) as j:
        lobby = _lobby(lobby_id)
        payload["name"] = lobby.name
        # the links first: undo puts the images back in reverse, the lobby before its links
        j.before_many(Through.objects.filter(lobby_id=lobby.pk))
        j.before(lobby)
        lobby.delete()
        transaction.on_commit(partial(forget_version, lobby.token))
