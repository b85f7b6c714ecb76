"""Structure files (issue 29, docs/structure-files.md): reading a JSON document or the text
format into items, checking them against a tournament without writing (the import's preview),
and importing them through ``structure_set`` (so its rules, lock, event and undo apply: before
the clock starts anything goes; once it runs, the items played and the current one stay)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema_rs
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.engine import structure_files as files_engine
from tourney.engine.errors import DomainError
from tourney.engine.structure_files import LineProblem, StructureTextError
from tourney.models import ChipDenomination, Tournament
from tourney.selectors.clock import anchor_of, structure_items
from tourney.services.tournaments import structure_set

SCHEMA_FILE = settings.BASE_DIR / "static" / "schemas" / "structure-v1.schema.json"
SCHEMA_URL = "/static/schemas/structure-v1.schema.json"
MAX_CHARS = 200_000
JSON, TEXT = "json", "text"

MSG_EMPTY = N_("The structure file is empty: choose a file or paste a structure.")
MSG_TOO_LONG = N_("A structure file holds at most 200,000 characters.")
MSG_NOT_UTF8 = N_("The file is not text: save it as plain text or JSON and try again.")
MSG_NOT_JSON = N_(
    'The file starts with "{" but is not valid JSON (line %(line)s, column %(column)s): %(error)s.'
)
# The schema's words where its own would name a keyword, not what to write.
MSG_DURATION = N_("Give minutes or seconds (one of them).")
MSG_PAST = N_(
    "The clock has started: keep the first %(count)s items (levels and breaks) as they are "
    "played or running; only the ones after them can change."
)
MSG_CHIP_PROBLEM = N_("The structure breaks the chip rules (RULES 4.5, 5.1): %(problem)s")


@dataclass(frozen=True)
class ReadFile:
    """A file read: its format, its items and the line (text) or 0 (JSON) of each."""

    kind: str
    items: tuple[clock_engine.Item, ...]
    lines: tuple[int, ...]
    name: str = ""
    starting_stack: int | None = None


@functools.cache
def _validator():
    return jsonschema_rs.validator_for(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "document"


def schema_problems(obj: Any) -> dict[str, str]:
    """The schema's problems with a document, by field (``items[3].big_blind``)."""
    problems: dict[str, str] = {}
    for err in _validator().iter_errors(obj):
        keyword = err.schema_path[-1] if err.schema_path else ""
        in_duration = any(p == "duration" for p in err.schema_path)
        message = MSG_DURATION if in_duration and keyword in ("anyOf", "not") else err.message
        problems.setdefault(_path(err.instance_path), message)
    return problems


def document_items(obj: Any) -> tuple[clock_engine.Item, ...]:
    """A parsed document → items: its format and version first (a newer version gets its own
    answer), then the published schema, then the engine's rules."""
    files_engine.check_header(obj)
    problems = schema_problems(obj)
    if problems:
        raise DomainError("bad_document", files_engine.MSG_BAD_DOCUMENT, fields=problems)
    return files_engine.from_document(obj)


def detect(text: str) -> str:
    """JSON when the first thing in it is "{", else the text format."""
    return JSON if text.lstrip("\ufeff \t\r\n").startswith("{") else TEXT


def decode(raw: bytes) -> str:
    """An uploaded file's text: UTF-8, else Windows-1252 (what older timers on Windows save;
    the format itself is ASCII). A NUL byte says it is no text at all (a spreadsheet, a PDF)."""
    if b"\x00" in raw:
        raise DomainError("bad_file", MSG_NOT_UTF8, fields={"file": MSG_NOT_UTF8})
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def read_file(text: str) -> ReadFile:
    """A file's text (either format) → its items; DomainError (``StructureTextError`` for the
    text format, one message per line) when it cannot be read."""
    if not text.strip():
        raise DomainError("bad_file", MSG_EMPTY, fields={"file": MSG_EMPTY})
    if len(text) > MAX_CHARS:
        raise DomainError("bad_file", MSG_TOO_LONG, fields={"file": MSG_TOO_LONG})
    if detect(text) == JSON:
        try:
            obj = json.loads(text.lstrip("\ufeff"))
        except json.JSONDecodeError as exc:
            params = {"line": exc.lineno, "column": exc.colno, "error": exc.msg}
            msg = MSG_NOT_JSON % params
            raise DomainError(
                "bad_document", MSG_NOT_JSON, fields={f"line {exc.lineno}": msg}, params=params
            ) from None
        items = document_items(obj)
        return ReadFile(
            JSON, items, (0,) * len(items), obj.get("name", ""), obj.get("starting_stack")
        )
    items, lines, problems = files_engine.parse_text_lines(text)
    if problems:
        raise StructureTextError(problems)
    return ReadFile(TEXT, items, lines)


FIELD_WORDS = {
    "small_blind": N_("small blind"),
    "big_blind": N_("big blind"),
    "ante": N_("ante"),
    "big_blind_ante": N_("big-blind ante"),
    "color_up": N_("color-up"),
}
_PROBLEM_HEAD = re.compile(r"^levels\[(\d+)\]\.(\w+): ")


def _chip_problem(problem: str, read: ReadFile) -> tuple[str, str]:
    """One of ``check_structure``'s problems → (the file's place, the words): ``line 7`` and
    "small blind: 30 is not ..." for text, ``items[3].small_blind`` and the rest for JSON."""
    m = _PROBLEM_HEAD.match(problem)
    if not m:
        return "items", problem
    index, name, rest = int(m[1]), m[2], problem[m.end() :]
    if read.kind == TEXT and index < len(read.lines):
        return f"line {read.lines[index]}", f"{FIELD_WORDS.get(name, name)}: {rest}"
    return f"items[{index}].{name}", rest


def import_problems(t: Tournament, read: ReadFile) -> list[LineProblem]:
    """What ``structure_set`` would refuse, for the preview (nothing is written): items the
    clock has played changed (RULES 4.1), the chip rules (RULES 4.5, 5.1), each on the line
    of its item (0 for a JSON file: the problem then names ``items[3]``)."""
    items = read.items
    old = structure_items(t)
    out: list[LineProblem] = []
    if t.clock_started:
        current = clock_engine.state(old, anchor_of(t), timezone.now()).index
        if tuple(items[: current + 1]) != tuple(old[: current + 1]):
            out.append(LineProblem(0, MSG_PAST, {"count": current + 1}))
    chips = list(ChipDenomination.objects.filter(tournament=t).values_list("value", flat=True))
    for problem in structure_engine.check_structure(items, chips):
        place, words = _chip_problem(problem, read)
        line = int(place[5:]) if place.startswith("line ") else 0
        if not line:
            words = f"{place}: {words}"
        out.append(LineProblem(line, MSG_CHIP_PROBLEM, {"problem": words}))
    return out


def read_text(text: str) -> ReadFile:
    """The text format only (the API's text import): ``StructureTextError`` line by line."""
    items, lines, problems = files_engine.parse_text_lines(text)
    if problems:
        raise StructureTextError(problems)
    return ReadFile(TEXT, items, lines)


def structure_import(
    *, tournament_id: int, read: ReadFile, actor=None
) -> tuple[clock_engine.Item, ...]:
    """Replace a tournament's structure with a file's items: ``structure_set`` does it (its
    checks, its lock, its ``structure_set`` event, its undo). Its chip-rule refusal names the
    file's lines (text) or items (JSON) instead of ``levels[i]``."""
    try:
        return structure_set(
            tournament_id=tournament_id,
            levels=structure_engine.items_to_data(read.items),
            actor=actor,
        )
    except DomainError as exc:
        levels = exc.fields.get("levels")
        if exc.code != "bad_structure" or not isinstance(levels, str):
            raise
        fields = dict(_chip_problem(p, read) for p in levels.split("; "))
        raise DomainError(exc.code, exc.template, fields=fields, status=exc.status) from None


def export_document(t: Tournament) -> dict[str, Any]:
    return files_engine.to_document(
        structure_items(t), name=t.name, starting_stack=t.starting_stack
    )


def export_text(t: Tournament) -> str:
    return files_engine.to_text(structure_items(t), name=t.name)
