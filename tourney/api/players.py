"""The player database (issue 27): one record per person across tournaments. The desk
searches, reads, adds and edits players (personal fields included: they are for the desk and
directors only); the director merges two records of one person, removes a person's data,
imports players from CSV and exports them. The writes are tourney/services/players.py's and
players_import.py's (room actions, undone by ``POST /room/actions/{id}/undo``); the reads
tourney/selectors/players.py's and, for a player's league points, standings.py's.

Readings:

* ``PATCH`` changes the fields given and keeps the others (and the photo, which the API
  neither sends nor takes: the screens do).
* A merged record is still read by its id, with ``merged_into`` naming the record kept.
* A player's history gives, for each tournament that counts toward a season, its ``season``
  and the player's ``points`` there (a decimal string, "12.50"); ``null`` otherwise, or while
  the season's formula cannot score that tournament.
* The import answers every row, with its errors, on ``dry_run`` and once imported; with a
  row in error nothing is imported and the refusal (400 ``import_errors``) lists the rows in
  error. Without ``mapping`` the columns are guessed from the header row.
"""

from __future__ import annotations

from typing import Any

from ninja import Field, Query, Router, Schema, Status
from pydantic import ConfigDict

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, need_director
from tourney.api.room import action_of, created_in, row_id
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import Player, Tournament
from tourney.selectors import players as reads
from tourney.selectors.standings import points_by_tournament
from tourney.services import players as writes
from tourney.services import players_import

router = Router(tags=["players"], **out.ROUTER_OPTIONS)

TEXT_MAX = 1000  # the service refuses past each field's own limit, naming the field
NOTES_MAX = 2 * writes.MAX_NOTES
COLUMN_MAX = 10_000


# ---------------------------------------------------------------- the answers


class PlayerOut(out.Out):
    id: int
    name: str
    nickname: str
    email: str
    phone: str
    membership: str
    notes: str
    photo: bool
    merged_into: int | None
    anonymised: bool
    created: str


class PlayerWrittenOut(PlayerOut):
    action: int | None


class PlayerRowOut(PlayerOut):
    entries: int


class PlayersOut(out.Out):
    players: list[PlayerRowOut]
    total: int
    limit: int


class HistoryRowOut(out.Out):
    tournament: int
    name: str
    date: str
    status: str
    place: int | None
    place_to: int | None
    prize: int
    bounties: int
    entries: int
    rebuys: int
    addons: int
    season: int | None
    points: str | None


class TotalsOut(out.Out):
    events: int
    wins: int
    cashes: int
    winnings: int
    bounties: int


class PlayerPageOut(PlayerOut):
    history: list[HistoryRowOut]
    totals: TotalsOut


class ExportRowOut(out.Out):
    id: int
    name: str
    nickname: str
    email: str
    phone: str
    membership: str
    notes: str
    created: str


class ExportOut(out.Out):
    players: list[ExportRowOut]


class ImportValuesOut(out.Out):
    name: str
    nickname: str
    email: str
    phone: str
    membership: str
    notes: str


class ImportRowOut(out.Out):
    line: int
    values: ImportValuesOut
    errors: dict[str, str]


class MappingOut(out.Out):
    name: int | None
    nickname: int | None
    email: int | None
    phone: int | None
    membership: int | None
    notes: int | None


class ImportOut(out.Out):
    headers: list[str]
    mapping: MappingOut
    count: int
    bad: int
    rows: list[ImportRowOut]
    created: int
    action: int | None


def player_dict(p: Player) -> dict[str, Any]:
    return {
        "id": p.pk,
        "name": p.name,
        **{f: getattr(p, f) for f in writes.PERSONAL},
        "photo": bool(p.photo),
        "merged_into": p.merged_into_id,
        "anonymised": p.anonymised_at is not None,
        "created": p.created_at.isoformat(),
    }


def _player(player_id: int) -> Player:
    p = Player.objects.filter(pk=row_id(player_id)).first()
    if p is None:
        raise DomainError("not_found", writes.MSG_NOT_FOUND, status=404)
    return p


def _points(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def history_dict(p: Player) -> dict[str, Any]:
    """The player's tournaments, newest first, with the points of those in a season."""
    history = reads.player_history(p)
    tids = [r["tournament_id"] for r in history["rows"]]
    seasons = dict(Tournament.objects.filter(pk__in=tids).values_list("pk", "season_id"))
    scored = points_by_tournament(p.pk) if any(seasons.values()) else {}
    rows = [
        {
            "tournament": r["tournament_id"],
            "name": r["tournament"],
            "date": r["date"].isoformat(),
            "status": r["status"],
            "place": r["place"],
            "place_to": r["place_to"],
            "prize": r["prize"],
            "bounties": r["bounties"],
            "entries": r["entries"],
            "rebuys": r["rebuys"],
            "addons": r["addons"],
            "season": seasons.get(r["tournament_id"]),
            "points": _points(scored.get(r["tournament_id"])),
        }
        for r in history["rows"]
    ]
    return {"history": rows, "totals": history["totals"]}


# ---------------------------------------------------------------- the desk's


class PlayersQuery(Schema):
    q: str = Field(default="", max_length=200)


@router.get(
    "/players",
    auth=api_auth.DESK,
    response=PlayersOut,
    summary="Search the players (name, nickname, membership number, email); all without q",
)
def players_get(request, query: Query[PlayersQuery]):
    need_desk(request)
    rows, total = reads.players_search(query.q)
    players = [{**player_dict(p), "entries": p.n_entries} for p in rows]
    return {"players": players, "total": total, "limit": reads.LIST_LIMIT}


class PlayerIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=TEXT_MAX)
    nickname: str = Field(default="", max_length=TEXT_MAX)
    email: str = Field(default="", max_length=TEXT_MAX)
    phone: str = Field(default="", max_length=TEXT_MAX)
    membership: str = Field(default="", max_length=TEXT_MAX)
    notes: str = Field(default="", max_length=NOTES_MAX)


class PlayerPatchIn(Schema):
    """The fields to change (``null``: blank it); those left out keep their value."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=TEXT_MAX)
    nickname: str | None = Field(default=None, max_length=TEXT_MAX)
    email: str | None = Field(default=None, max_length=TEXT_MAX)
    phone: str | None = Field(default=None, max_length=TEXT_MAX)
    membership: str | None = Field(default=None, max_length=TEXT_MAX)
    notes: str | None = Field(default=None, max_length=NOTES_MAX)


@router.post(
    "/players",
    auth=api_auth.DESK,
    response={201: PlayerWrittenOut},
    summary="Add a player (name required; email valid; membership number free)",
)
def player_create(request, payload: PlayerIn):
    need_desk(request)
    p = writes.player_create(data=payload.dict(), actor=request.user)
    action = action_of(request, "player_created", created_in(writes.PLAYER_LABEL, p.pk))
    return Status(201, {**player_dict(p), "action": action})


# ---------------------------------------------------------------- import, export (the director's)


class MappingIn(Schema):
    """The column (from 0) of each field; a field left out or ``null`` is not imported."""

    model_config = ConfigDict(extra="forbid")

    name: int | None = Field(default=None, ge=0, le=COLUMN_MAX)
    nickname: int | None = Field(default=None, ge=0, le=COLUMN_MAX)
    email: int | None = Field(default=None, ge=0, le=COLUMN_MAX)
    phone: int | None = Field(default=None, ge=0, le=COLUMN_MAX)
    membership: int | None = Field(default=None, ge=0, le=COLUMN_MAX)
    notes: int | None = Field(default=None, ge=0, le=COLUMN_MAX)


class ImportIn(Schema):
    csv: str = Field(max_length=2 * players_import.MAX_BYTES)
    mapping: MappingIn | None = None
    dry_run: bool = False


def _import_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"line": r["line"], "values": r["values"], "errors": r["errors"]} for r in rows]


@router.post(
    "/players/import",
    auth=api_auth.DIRECTOR,
    response=ImportOut,
    summary="Import players from CSV: the preview with each row's errors, or every row at once",
)
def players_import_post(request, payload: ImportIn):
    need_director(request)
    if payload.mapping is None:
        headers, _rows = players_import.csv_read(payload.csv)
        mapping: dict[str, Any] = players_import.mapping_guess(headers)
    else:
        mapping = payload.mapping.dict()
    args = {"csv_text": payload.csv, "mapping": mapping, "actor": request.user}
    try:
        done = players_import.players_import(dry_run=payload.dry_run, **args)
    except DomainError as exc:
        if exc.code != "import_errors":
            raise
        preview = players_import.import_preview(payload.csv, mapping)
        bad = [{"line": r["line"], "errors": r["errors"]} for r in preview["rows"] if r["errors"]]
        raise DomainError(exc.code, exc.message, status=exc.status, fields={"rows": bad}) from None
    action = None
    if done["created"]:
        action = action_of(
            request, "players_imported", lambda pl: pl.get("count") == done["created"]
        )
    return {
        "headers": done["headers"],
        "mapping": {f: mapping.get(f) for f in writes.FIELDS},
        "count": done["count"],
        "bad": done["bad"],
        "rows": _import_rows(done["rows"]),
        "created": done["created"],
        "action": action,
    }


@router.get(
    "/players/export",
    auth=api_auth.DIRECTOR,
    response=ExportOut,
    summary="Every player (merged records aside), by name, with their personal fields",
)
def players_export(request):
    need_director(request)
    keys = reads.EXPORT_HEADERS
    rows = [dict(zip(keys, row, strict=True)) for row in reads.players_export_rows()]
    return {"players": [{**r, "created": r["created"].isoformat()} for r in rows]}


# ---------------------------------------------------------------- a player (the desk's)


@router.get(
    "/players/{player_id}",
    auth=api_auth.DESK,
    response=PlayerPageOut,
    summary="A player's record and history, with the points of tournaments in a season",
)
def player_get(request, player_id: int):
    need_desk(request)
    p = _player(player_id)
    return {**player_dict(p), **history_dict(p)}


@router.patch(
    "/players/{player_id}",
    auth=api_auth.DESK,
    response=PlayerWrittenOut,
    summary="Change a player's fields (those left out keep their value)",
)
def player_patch(request, player_id: int, payload: PlayerPatchIn):
    need_desk(request)
    p = _player(player_id)
    data = {f: getattr(p, f) for f in writes.FIELDS}
    data.update({k: v or "" for k, v in payload.dict(exclude_unset=True).items()})
    p = writes.player_update(player_id=p.pk, data=data, actor=request.user)
    action = action_of(request, "player_updated", lambda pl: pl.get("player") == p.pk)
    return {**player_dict(p), "action": action}


# ---------------------------------------------------------------- merge, removal (the director's)


class MergeIn(Schema):
    into: int = Field(ge=1, le=MAX_ID)


@router.post(
    "/players/{player_id}/merge",
    auth=api_auth.DIRECTOR,
    response=PlayerWrittenOut,
    summary="Merge this record into another of the same person (entries follow; undoable)",
)
def player_merge(request, player_id: int, payload: MergeIn):
    need_director(request)
    merged = row_id(player_id)
    keep = writes.players_merge(keep_id=payload.into, merge_id=merged, actor=request.user)

    def wrote(pl: dict[str, Any]) -> bool:
        return (pl.get("kept"), pl.get("merged")) == (keep.pk, merged)

    return {**player_dict(keep), "action": action_of(request, "players_merged", wrote)}


class AnonymiseIn(Schema):
    confirm: str = Field(max_length=TEXT_MAX)


@router.post(
    "/players/{player_id}/anonymise",
    auth=api_auth.DIRECTOR,
    response=PlayerOut,
    summary="Remove a person's data for good (typed name to confirm); results stay",
)
def player_anonymise(request, player_id: int, payload: AnonymiseIn):
    need_director(request)
    p = writes.player_anonymise(
        player_id=row_id(player_id), confirm=payload.confirm, actor=request.user
    )
    return player_dict(p)
