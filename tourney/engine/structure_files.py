"""Structure files (issue 29): a structure as a versioned JSON document, and the plain-text
structure format other timers use (docs/structure-files.md).

The JSON document (``static/schemas/structure-v1.schema.json`` describes it)::

    {"format": "tourney.structure", "version": 1, "name": "Friday deepstack",
     "starting_stack": 20000,
     "items": [{"kind": "level", "small_blind": 100, "big_blind": 200, "ante": 0,
                "big_blind_ante": 200, "minutes": 20},
               {"kind": "break", "minutes": 10, "label": "Break", "color_up": [25]}]}

An item lasts ``minutes`` (or ``seconds`` when not whole minutes). A break's ``label`` is read
and not kept (the app names every break "Break").

The text format, one item a line (blank lines and lines starting with ``#`` are skipped):

- a level: ``minutes, small blind, big blind[, ante[, big-blind ante]]``; ``BBA`` after the
  fourth column says that column is a big-blind ante (``20, 100, 200, 200 BBA``), and ``BBA``
  after the third a big-blind ante of one big blind (``20, 100, 200, BBA``);
- a break: ``minutes, label`` (``15, Break``, ``10 Color up the 25s``); the label's
  "color up" (or "color-up", "colour up", "chip up") followed by chip values is the
  break's color-up;
- minutes are whole (``20``) or minutes and seconds (``12:30``).

Separators and thousands (a comma is both, so the line decides):

1. a line with tabs or semicolons: they separate the columns, and ``1,000`` is a thousand;
2. else a line with a comma followed by a space: ``", "`` separates, ``1,000`` is a thousand;
3. else a line with spaces: spaces separate, ``1,000`` is a thousand;
4. else (``20,100,200,0``): commas separate, so a number cannot carry a comma; a column such
   as ``000`` (or a sixth column) is refused with that explanation rather than guessed.

``1.000`` (a dot between groups of three digits) is a thousand everywhere. Every problem names
its line (:class:`LineProblem`); its words are marked for translation (``N_``) with values
apart, so the screens show them in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.clock import BREAK, LEVEL, Item, item_to_dict
from tourney.engine.errors import N_, DomainError
from tourney.engine.structure import MAX_AMOUNT, MAX_ITEM_SECONDS, MAX_ITEMS, parse_levels

FORMAT = "tourney.structure"
VERSION = 1
MAX_NAME = 200
MAX_LABEL = 200
BREAK_LABEL = "Break"

MSG_BAD_DOCUMENT = N_("The structure file is not valid.")
MSG_NOT_A_DOCUMENT = N_('A structure file is a JSON object with "format", "version" and "items".')
MSG_BAD_FORMAT = N_('"format" must be "tourney.structure".')
MSG_BAD_VERSION = N_('"version" must be a whole number (this app writes and reads version 1).')
MSG_UNKNOWN_VERSION = N_(
    "The structure file has version %(version)s; this app reads version 1: "
    "export it again as version 1, or update the app."
)
MSG_BAD_NAME = N_("The name must be text of at most 200 characters.")
MSG_BAD_STARTING_STACK = N_("The starting stack must be a whole number above zero.")
MSG_BAD_LABEL = N_("A break's label must be text of at most 200 characters.")
MSG_BAD_TEXT = N_("The structure text has errors: see each line.")

# Per-line problems of the text format (the screens put "Line 4: " before them).
LINE_NOT_STARTING = N_(
    'the line starts with "%(value)s": a line starts with the minutes. Write a level as '
    '"20, 100, 200, 0" or a break as "15, Break"; start a note with #'
)
LINE_BAD_MINUTES = N_(
    '"%(value)s" is not a length: write whole minutes ("20") or minutes and seconds ("12:30")'
)
LINE_MINUTES_RANGE = N_(
    "the length %(value)s must be from 1 second to 24 hours (1440 minutes): write e.g. 20"
)
LINE_FEW_COLUMNS = N_(
    "a level needs the minutes, the small blind and the big blind: write e.g. "
    '"20, 100, 200" or "20, 100, 200, 25" with an ante'
)
LINE_MANY_COLUMNS = N_(
    "this line has %(count)s columns; a level has at most 5 (minutes, small blind, "
    "big blind, ante, big-blind ante): remove the extra ones"
)
LINE_COMMA_THOUSANDS = N_(
    'commas separate the columns on this line, so "%(value)s" became a column of its own: '
    'write numbers without a thousands comma (1000), or separate the columns with ", " or '
    'semicolons ("20; 1,000; 2,000; 0")'
)
LINE_BBA_TWICE = N_(
    'write the big-blind ante either as a fifth column or as "BBA" after the fourth, not both'
)
LINE_NOT_A_NUMBER = {
    "small_blind": N_('the small blind "%(value)s" is not a whole number: write digits, e.g. 100'),
    "big_blind": N_('the big blind "%(value)s" is not a whole number: write digits, e.g. 200'),
    "ante": N_('the ante "%(value)s" is not a whole number: write digits, 0 for none'),
    "big_blind_ante": N_(
        'the big-blind ante "%(value)s" is not a whole number: write digits, 0 for none'
    ),
}
LINE_TOO_BIG = N_("%(value)s is too large: amounts go up to 10^15")
LINE_ZERO_SMALL_BLIND = N_("the small blind must be above zero: write e.g. 100")
LINE_BIG_BELOW_SMALL = N_(
    "the big blind %(big)s is below the small blind %(small)s: write the small blind first "
    '("%(minutes)s, %(big)s, %(small)s")'
)
LINE_BAD_CHIP = N_(
    'the color-up "%(value)s" is not a chip value: list the chips after "color up", '
    'e.g. "15, Color up 25, 100"'
)
LINE_CHIP_TWICE = N_("the color-up names the chip %(value)s twice: name each chip once")
LINE_TOO_MANY = N_("a structure has at most 500 levels and breaks: remove lines from here on")
TEXT_NO_LEVEL = N_('the structure has no level: add a line such as "20, 100, 200, 0"')

_COLOR_UP = re.compile(r"\b(?:colou?r[\s-]*up|chip[\s-]*up)\b", re.I)
_BBA = re.compile(r"(?:^|[\s,;\t])BBA[\s,;\t]*$", re.I)
_DURATION = re.compile(r"^(\d{1,5})(?::(\d{2}))?$")
_BREAK_LINE = re.compile(r"^(\S+?)\s*[,;\t]?\s*([^\W\d_].*)$", re.S)
_PLAIN = re.compile(r"^\d+$")
_COMMA_GROUPS = re.compile(r"^\d{1,3}(?:,\d{3})+$")
_DOT_GROUPS = re.compile(r"^\d{1,3}(?:\.\d{3})+$")
_AMOUNTS = ("small_blind", "big_blind", "ante", "big_blind_ante")


@dataclass(frozen=True)
class LineProblem:
    """What is wrong on one line (0: the text as a whole). ``template`` is the English,
    marked for translation; ``params`` its values."""

    line: int
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % dict(self.params) if self.params else self.template

    @property
    def key(self) -> str:
        return f"line {self.line}" if self.line else "text"


class StructureTextError(DomainError):
    """The text's problems, line by line (``fields``: ``{"line 4": "..."}``)."""

    def __init__(self, problems: Sequence[LineProblem]) -> None:
        self.problems = tuple(problems)
        fields: dict[str, str] = {}
        for p in self.problems:
            fields.setdefault(p.key, p.message)
        super().__init__("bad_structure_text", MSG_BAD_TEXT, fields=fields)


# -- the JSON document ----------------------------------------------------------------------------


def _item_document(item: Item) -> dict[str, Any]:
    """The API's shape of an item (``item_to_dict``), with its length once (minutes when
    whole, else seconds) and a break's label."""
    data = item_to_dict(item)
    if "minutes" in data:
        del data["seconds"]
    if item.kind == BREAK:
        data["label"] = BREAK_LABEL
    return data


def to_document(
    items: Sequence[Item], *, name: str, starting_stack: int | None = None
) -> dict[str, Any]:
    """The structure as a version-1 document (``starting_stack`` left out when None)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": name[:MAX_NAME]}
    if starting_stack is not None:
        doc["starting_stack"] = starting_stack
    doc["items"] = [_item_document(item) for item in items]
    return doc


def check_header(obj: Any) -> None:
    """The document's format and version, before anything else is read (a newer version may
    have other fields: its own words, not the schema's, say what to do)."""
    if not isinstance(obj, dict):
        raise DomainError("bad_document", MSG_BAD_DOCUMENT, fields={"document": MSG_NOT_A_DOCUMENT})
    if obj.get("format") != FORMAT:
        raise DomainError("bad_document", MSG_BAD_DOCUMENT, fields={"format": MSG_BAD_FORMAT})
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise DomainError("bad_document", MSG_BAD_DOCUMENT, fields={"version": MSG_BAD_VERSION})
    if version != VERSION:
        raise DomainError(
            "unsupported_version",
            MSG_UNKNOWN_VERSION,
            fields={"version": MSG_UNKNOWN_VERSION % {"version": version}},
            params={"version": version},
        )


def from_document(obj: Any) -> tuple[Item, ...]:
    """A version-1 document → its items (the engine's rules of ``parse_levels``; problems are
    named ``items[3].big_blind``). The chip rules (RULES 4.5, 5.1) need the tournament's chips:
    the service checks them."""
    check_header(obj)
    errors: dict[str, str] = {}
    name = obj.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        errors["name"] = MSG_BAD_NAME
    stack = obj.get("starting_stack")
    if stack is not None and (not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0):
        errors["starting_stack"] = MSG_BAD_STARTING_STACK
    raw = obj.get("items")
    levels: Any = raw
    if isinstance(raw, list):
        levels = []
        for i, item in enumerate(raw):
            if isinstance(item, dict):
                label = item.get("label", "")
                if not isinstance(label, str) or len(label) > MAX_LABEL:
                    errors[f"items[{i}].label"] = MSG_BAD_LABEL
                item = {k: v for k, v in item.items() if k != "label"}
            levels.append(item)
    try:
        items = parse_levels(levels)
    except DomainError as exc:
        errors.update({_items_key(k): v for k, v in exc.fields.items()})
        items = ()
    if errors:
        raise DomainError("bad_document", MSG_BAD_DOCUMENT, fields=errors)
    return items


def _items_key(key: str) -> str:
    return "items" + key[len("levels") :] if key.startswith("levels") else key


# -- the text format ------------------------------------------------------------------------------


def _duration(raw: str) -> int | LineProblem:
    m = _DURATION.match(raw.strip())
    if not m:
        return LineProblem(0, LINE_BAD_MINUTES, {"value": raw.strip()})
    seconds = int(m[1]) * 60 + int(m[2] or 0)
    if m[2] and int(m[2]) >= 60 or not 0 < seconds <= MAX_ITEM_SECONDS:
        return LineProblem(0, LINE_MINUTES_RANGE, {"value": raw.strip()})
    return seconds


def _amount(raw: str, name: str, thousands: bool) -> int | LineProblem:
    value = raw.strip()
    if _PLAIN.match(value) or _DOT_GROUPS.match(value):
        number = int(value.replace(".", ""))
    elif thousands and _COMMA_GROUPS.match(value):
        number = int(value.replace(",", ""))
    else:
        return LineProblem(0, LINE_NOT_A_NUMBER[name], {"value": value})
    if number > MAX_AMOUNT:
        return LineProblem(0, LINE_TOO_BIG, {"value": value})
    return number


def _columns(line: str) -> tuple[list[str], bool]:
    """The columns of a level's line and whether ``1,000`` may be a thousand (the module's
    rules 1-4)."""
    if "\t" in line or ";" in line:
        return [c.strip() for c in re.split(r"[\t;]", line)], True
    if re.search(r",\s", line):
        return [c.strip() for c in re.split(r",(?!\d)|(?<!\d),", line)], True
    if re.search(r"\s", line):
        return line.split(), True
    return [c.strip() for c in line.split(",")], False


def _color_up(label: str) -> tuple[int, ...] | LineProblem:
    m = _COLOR_UP.search(label)
    if not m:
        return ()
    chips: list[int] = []
    for token in re.split(r",\s+|[\s/&+]+|,(?!\d)|(?<!\d),", label[m.end() :]):
        token = token.strip(" ,.:")
        if not token or token.lower() in ("the", "and", "chips", "chip", "all"):
            continue
        token = token.removesuffix("s").removesuffix("'")
        if _PLAIN.match(token) or _COMMA_GROUPS.match(token) or _DOT_GROUPS.match(token):
            chip = int(token.replace(",", "").replace(".", ""))
            if 0 < chip <= MAX_AMOUNT:
                if chip in chips:
                    return LineProblem(0, LINE_CHIP_TWICE, {"value": chip})
                chips.append(chip)
                continue
        return LineProblem(0, LINE_BAD_CHIP, {"value": token})
    return tuple(sorted(chips))


def _break(minutes: str, label: str) -> Item | LineProblem:
    seconds = _duration(minutes)
    if isinstance(seconds, LineProblem):
        return seconds
    chips = _color_up(label)
    if isinstance(chips, LineProblem):
        return chips
    return Item(kind=BREAK, seconds=seconds, color_up=chips)


def _level(line: str) -> Item | LineProblem:
    bba_mark = bool(_BBA.search(line))
    if bba_mark:
        line = _BBA.sub("", line).rstrip(" ,;\t")
    cols, thousands = _columns(line)
    if not thousands and (len(cols) > 5 or any(re.match(r"^0\d", c) for c in cols[1:])):
        odd = next((c for c in cols[1:] if re.match(r"^0\d", c)), cols[-1])
        return LineProblem(0, LINE_COMMA_THOUSANDS, {"value": odd})
    if len(cols) > 5:
        return LineProblem(0, LINE_MANY_COLUMNS, {"count": len(cols)})
    if len(cols) < 3:
        return LineProblem(0, LINE_FEW_COLUMNS)
    if bba_mark and len(cols) == 5:
        return LineProblem(0, LINE_BBA_TWICE)
    seconds = _duration(cols[0])
    if isinstance(seconds, LineProblem):
        return seconds
    values: dict[str, int] = {"ante": 0, "big_blind_ante": 0}
    names = list(_AMOUNTS[:2]) + (["big_blind_ante"] if bba_mark else ["ante", "big_blind_ante"])
    for name, raw in zip(names, cols[1:], strict=False):
        value = _amount(raw, name, thousands)
        if isinstance(value, LineProblem):
            return value
        values[name] = value
    if bba_mark and len(cols) == 3:
        values["big_blind_ante"] = values["big_blind"]
    if values["small_blind"] <= 0:
        return LineProblem(0, LINE_ZERO_SMALL_BLIND)
    if values["big_blind"] < values["small_blind"]:
        return LineProblem(
            0,
            LINE_BIG_BELOW_SMALL,
            {"big": values["big_blind"], "small": values["small_blind"], "minutes": cols[0]},
        )
    return Item(kind=LEVEL, seconds=seconds, **values)


def _looks_like_level(label: str) -> bool:
    """``20, x, 400``: a level with a mistyped column, not a break labelled "x, 400" (a
    break's label has no number columns after its first, unless it colors up)."""
    if _COLOR_UP.search(label):
        return False
    cols, _ = _columns(label)
    return len(cols) > 1 and all(re.fullmatch(r"[\d.,]+", c) for c in cols[1:])


def _parse_line(line: str) -> Item | LineProblem:
    m = _BREAK_LINE.match(line)
    if m and not m[2].upper().startswith("BBA") and not _looks_like_level(m[2]):
        if _DURATION.match(m[1]) or not m[1][:1].isalpha():
            return _break(m[1], m[2])
    if line[:1].isalpha():
        return LineProblem(0, LINE_NOT_STARTING, {"value": re.split(r"[\s,;]", line)[0]})
    return _level(line)


def parse_text_lines(text: str) -> tuple[tuple[Item, ...], tuple[int, ...], list[LineProblem]]:
    """The items, the line number of each, and every line's problem (all lines are read)."""
    items: list[Item] = []
    lines: list[int] = []
    problems: list[LineProblem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        if len(items) + len(problems) >= MAX_ITEMS:
            problems.append(LineProblem(number, LINE_TOO_MANY))
            break
        got = _parse_line(line)
        if isinstance(got, LineProblem):
            problems.append(LineProblem(number, got.template, got.params))
        else:
            items.append(got)
            lines.append(number)
    if not problems and not any(item.kind == LEVEL for item in items):
        problems.append(LineProblem(0, TEXT_NO_LEVEL))
    return tuple(items), tuple(lines), problems


def parse_text(text: str) -> tuple[Item, ...]:
    """The text format → items; any problem: :class:`StructureTextError` naming every line."""
    items, _, problems = parse_text_lines(text)
    if problems:
        raise StructureTextError(problems)
    return items


def _duration_text(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    return str(minutes) if not rest else f"{minutes}:{rest:02d}"


def to_text(items: Sequence[Item], *, name: str | None = None) -> str:
    """The items in the text format (read back by :func:`parse_text` to the same items)."""
    out = [f"# {name.splitlines()[0]}"] if name and name.strip() else []
    out.append("# minutes, small blind, big blind, ante[, big-blind ante]; or minutes, break")
    for item in items:
        minutes = _duration_text(item.seconds)
        if item.kind == BREAK:
            label = BREAK_LABEL
            if item.color_up:
                label = "Color up " + ", ".join(str(c) for c in item.color_up)
            out.append(f"{minutes}, {label}")
        elif item.big_blind_ante and not item.ante:
            out.append(
                f"{minutes}, {item.small_blind}, {item.big_blind}, {item.big_blind_ante} BBA"
            )
        else:
            row = [minutes, item.small_blind, item.big_blind, item.ante]
            if item.big_blind_ante:
                row.append(item.big_blind_ante)
            out.append(", ".join(str(v) for v in row))
    return "\n".join(out) + "\n"
