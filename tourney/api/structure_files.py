"""Structure files (issue 29, docs/structure-files.md): a tournament's structure as the
versioned JSON document, and imports of a document or of the text format. Imports go through
``services.structure_files.structure_import`` (``structure_set``'s rules: 409
``structure_past`` once the clock has played an item the file changes)."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Body, Field, Router, Schema

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament, director_tournament
from tourney.engine import structure as structure_engine
from tourney.services import structure_files as files

router = Router(tags=["clock"], **out.ROUTER_OPTIONS)


class StructureFileItemOut(out.Out):
    """An item of a structure file (static/schemas/structure-v1.schema.json): a level has its
    blinds and antes, a break its label and color-up; the length is minutes, or seconds when
    it is not whole minutes."""

    kind: Literal["level", "break"]
    small_blind: int = out.may_be_absent()
    big_blind: int = out.may_be_absent()
    ante: int = out.may_be_absent()
    big_blind_ante: int = out.may_be_absent()
    minutes: int = out.may_be_absent()
    seconds: int = out.may_be_absent()
    label: str = out.may_be_absent()
    color_up: list[int] = out.may_be_absent()


class StructureDocumentOut(out.Out):
    format: Literal["tourney.structure"]
    version: Literal[1]
    name: str
    starting_stack: int = out.may_be_absent()
    items: list[StructureFileItemOut]


@router.get(
    "/tournaments/{tid}/structure/document",
    auth=api_auth.DESK,
    response=StructureDocumentOut,
    summary="The structure as a structure file (static/schemas/structure-v1.schema.json)",
)
def structure_document_get(request, tid: int):
    return files.export_document(desk_tournament(request, tid))


@router.post(
    "/tournaments/{tid}/structure/document",
    auth=api_auth.DIRECTOR,
    response=out.LevelsOut,
    summary="Replace the structure with a structure file's (JSON)",
)
def structure_document_post(request, tid: int, payload: Any = Body(...)):  # noqa: B008
    director_tournament(request, tid)
    items = files.document_items(payload)
    read = files.ReadFile(files.JSON, items, (0,) * len(items))
    items = files.structure_import(tournament_id=tid, read=read, actor=request.user)
    return {"levels": structure_engine.items_to_data(items)}


class TextIn(Schema):
    text: str = Field(max_length=files.MAX_CHARS)


@router.post(
    "/tournaments/{tid}/structure/text",
    auth=api_auth.DIRECTOR,
    response=out.LevelsOut,
    summary="Replace the structure with one in the text format (one level a line)",
)
def structure_text_post(request, tid: int, payload: TextIn):
    director_tournament(request, tid)
    read = files.read_text(payload.text)
    items = files.structure_import(tournament_id=tid, read=read, actor=request.user)
    return {"levels": structure_engine.items_to_data(items)}
