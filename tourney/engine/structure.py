"""Blind structures: parsing, checking, generating and presets (RULES 4.1, 4.5, 5.1).

A structure is a tuple of :class:`~tourney.engine.clock.Item` (levels and breaks, RULES 4.1).
Item ``i`` is called ``levels[i]`` in messages, as in docs/api.md (breaks count in the index).

Readings of ambiguous rules:

- RULES 4.5/5.1, "needed": with the chips in play sorted ``d1 < d2 < ... < dk``, the chips
  ``d1..dj`` may all go at a break when ``d(j+1)`` divides every positive blind and ante of every
  later level; :func:`removable_denominations` returns the longest such run (at least the
  largest chip always stays). The lowest chips always go first (002: "the lowest denomination
  ... is removed"), so a colour-up that removes a chip while a smaller one stays is a problem.
- RULES 4.5 is checked at every level, before the first colour-up too (a 10/20 level cannot be
  paid with 25s).
- :func:`generate` reads "long enough to fill target_hours, ending with the big blind around the
  total chips in play" as: keep adding levels until the levels and breaks last at least
  ``target_hours`` *and* the big blind has reached the chips of a 100-player field (a clock that
  runs out of structure while people still play is the worse failure); it stops at a sane
  maximum, a big blind of 10 x those chips or 100 levels, whichever comes first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from tourney.engine.clock import BREAK, KINDS, LEVEL, Item, item_to_dict
from tourney.engine.errors import N_, DomainError

__all__ = [
    "Item",
    "check_structure",
    "generate",
    "item_index_of",
    "item_number_of",
    "item_to_dict",
    "parse_levels",
    "preset",
    "removable_denominations",
]

MAX_ITEMS = 500
MAX_ITEM_SECONDS = 24 * 3600
MAX_AMOUNT = 10**15  # a blind, ante or chip value: far above any game, and what a column holds
FIELD_SIZE = 100  # RULES 4.5 / generate(): the field whose chips the last big blind reaches
MAX_BB_FACTOR = 10  # a big blind of 10 x the field's chips is the sane maximum
MAX_LEVELS = 100
PRESETS = ("regular", "turbo", "deep")
DEEP_STACK_FACTOR = 2

# parse_levels()
MSG_BAD_STRUCTURE = N_("The blind structure is not valid.")
MSG_NOT_A_LIST = N_("Give a list of levels and breaks.")
MSG_TOO_MANY_ITEMS = N_("A structure has at most %(n)s items.")
MSG_TOO_MANY = MSG_TOO_MANY_ITEMS % {"n": MAX_ITEMS}
MSG_NOT_AN_OBJECT = N_("Each item must be an object.")
MSG_BAD_KIND = N_('Kind must be "level" or "break".')
MSG_NO_DURATION = N_("Give minutes or seconds.")
MSG_BAD_DURATION = N_("Duration must be a whole number above zero, at most 24 hours.")
MSG_DURATION_MISMATCH = N_("Minutes and seconds disagree.")
MSG_BAD_SMALL_BLIND = N_("Small blind must be a whole number above zero, at most 10^15.")
MSG_BAD_BIG_BLIND = N_("Big blind must be a whole number, at least the small blind, at most 10^15.")
MSG_BAD_ANTE = N_("Must be a whole number, zero or more, at most 10^15.")
MSG_BAD_COLOR_UP = N_("Color-up must be a list of different chip values above zero, at most 10^15.")
MSG_NO_LEVEL = N_("The structure needs at least one level.")

# denominations and generate()
MSG_BAD_DENOMINATIONS = N_("Chip denominations must be different whole numbers above zero.")
MSG_BAD_INDEX = N_("There is no such level or break.")
MSG_BAD_PARAMETERS = N_("The structure cannot be generated from these settings.")
MSG_BAD_STACK = N_(
    "Starting stack must be a whole number above zero, a multiple of the smallest chip."
)
MSG_BAD_MINUTES = N_("Minutes must be a whole number from 1 to 240.")
MSG_BAD_HOURS = N_("Target hours must be above zero, at most 72.")
MSG_BAD_BREAK_EVERY = N_("Break every must be a whole number, zero (no breaks) or more.")
MSG_BAD_BREAK_AFTER = N_("Break after must list increasing level numbers above zero.")
MSG_BAD_BBA_FROM = N_("Big-blind ante from level must be a whole number, zero (never) or more.")
MSG_UNKNOWN_PRESET = N_("There is no such preset structure.")

# item_index_of()
MSG_NO_SUCH_LEVEL = N_("The structure has no level %(n)s.")
MSG_NO_SUCH_BREAK = N_("The structure has no break %(n)s.")
_MSG_NO_SUCH = {LEVEL: MSG_NO_SUCH_LEVEL, BREAK: MSG_NO_SUCH_BREAK}

# check_structure() problems (format with str.format)
PROBLEM_NOT_MULTIPLE = (
    "levels[{index}].{field}: {value} is not a multiple of {chip}, "
    "the smallest chip in play (RULES 4.5)."
)
PROBLEM_NOT_IN_PLAY = "levels[{index}].color_up: {chip} is not in play."
PROBLEM_REMOVES_ALL = "levels[{index}].color_up: it removes every chip in play."
PROBLEM_NOT_LOWEST = (
    "levels[{index}].color_up: {chip} goes while the smaller {smaller} stays in play (RULES 5.1)."
)
PROBLEM_STILL_NEEDED = (
    "levels[{index}].color_up: {chip} is still needed by a later blind or ante (RULES 5.1)."
)

AMOUNT_FIELDS = ("small_blind", "big_blind", "ante", "big_blind_ante")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- parsing --------------------------------------------------------------------------------------


def _parse_duration(raw: dict[str, Any], key: str, errors: dict[str, str]) -> int:
    has_min, has_sec = "minutes" in raw, "seconds" in raw
    if not has_min and not has_sec:
        errors[f"{key}.minutes"] = MSG_NO_DURATION
        return 0
    seconds = 0
    for name, factor in (("minutes", 60), ("seconds", 1)):
        if name not in raw:
            continue
        value = raw[name]
        if not _is_int(value) or value <= 0 or value * factor > MAX_ITEM_SECONDS:
            errors[f"{key}.{name}"] = MSG_BAD_DURATION
            return 0
        if seconds and seconds != value * factor:
            errors[f"{key}.seconds"] = MSG_DURATION_MISMATCH
            return 0
        seconds = value * factor
    return seconds


def parse_levels(data: Any) -> tuple[Item, ...]:
    """docs/api.md's ``levels`` list -> items (RULES 4.1).

    ``{"kind": "level", "small_blind", "big_blind", "ante" = 0, "big_blind_ante" = 0,
    "minutes" | "seconds"}`` or ``{"kind": "break", "minutes" | "seconds", "color_up" = []}``.
    When both minutes and seconds are given they must agree. Unknown keys are ignored. Every
    problem is collected; one ``DomainError("bad_structure", status=400)`` names them all in
    ``fields`` (``"levels[3].big_blind"``).
    """
    if not isinstance(data, list | tuple):
        raise DomainError("bad_structure", MSG_BAD_STRUCTURE, fields={"levels": MSG_NOT_A_LIST})
    if len(data) > MAX_ITEMS:
        raise DomainError("bad_structure", MSG_BAD_STRUCTURE, fields={"levels": MSG_TOO_MANY})
    errors: dict[str, str] = {}
    items: list[Item] = []
    for i, raw in enumerate(data):
        key = f"levels[{i}]"
        if not isinstance(raw, dict):
            errors[key] = MSG_NOT_AN_OBJECT
            continue
        kind = raw.get("kind")
        if kind not in KINDS:
            errors[f"{key}.kind"] = MSG_BAD_KIND
            continue
        seconds = _parse_duration(raw, key, errors)
        if kind == BREAK:
            color_up = raw.get("color_up", [])
            if (
                not isinstance(color_up, list | tuple)
                or not all(_is_int(c) and 0 < c <= MAX_AMOUNT for c in color_up)
                or len(set(color_up)) != len(color_up)
            ):
                errors[f"{key}.color_up"] = MSG_BAD_COLOR_UP
                color_up = []
            items.append(Item(kind=BREAK, seconds=seconds, color_up=tuple(sorted(color_up))))
            continue
        sb, bb = raw.get("small_blind"), raw.get("big_blind")
        ante, bba = raw.get("ante", 0), raw.get("big_blind_ante", 0)
        if not _is_int(sb) or not 0 < sb <= MAX_AMOUNT:
            errors[f"{key}.small_blind"] = MSG_BAD_SMALL_BLIND
        if not _is_int(bb) or not 0 < bb <= MAX_AMOUNT or (_is_int(sb) and bb < sb):
            errors[f"{key}.big_blind"] = MSG_BAD_BIG_BLIND
        for name, value in (("ante", ante), ("big_blind_ante", bba)):
            if not _is_int(value) or not 0 <= value <= MAX_AMOUNT:
                errors[f"{key}.{name}"] = MSG_BAD_ANTE
        if not any(k.startswith(key + ".") for k in errors):
            items.append(
                Item(
                    kind=LEVEL,
                    seconds=seconds,
                    small_blind=sb,
                    big_blind=bb,
                    ante=ante,
                    big_blind_ante=bba,
                )
            )
    if not errors and not any(item.kind == LEVEL for item in items):
        errors["levels"] = MSG_NO_LEVEL
    if errors:
        raise DomainError("bad_structure", MSG_BAD_STRUCTURE, fields=errors)
    return tuple(items)


def items_to_data(items: Iterable[Item]) -> list[dict[str, Any]]:
    """The inverse of :func:`parse_levels` (for storing and for the API)."""
    return [item_to_dict(item) for item in items]


# -- numbering ------------------------------------------------------------------------------------
# People count levels and breaks apart ("level 5", "break 2", as the display shows them); the
# model keeps item indexes over the whole structure (RULES 4.4 windows, the clock's index).


def item_index_of(
    items: Sequence[Item], kind: str, number: int | None, *, field: str
) -> int | None:
    """The ``number``-th (1-based) item of ``kind`` (``LEVEL`` or ``BREAK``) → its item index;
    None stays None. None such: DomainError ``bad_input`` naming ``field``."""
    if number is None:
        return None
    seen = 0
    for i, it in enumerate(items):
        if it.kind == kind:
            seen += 1
            if seen == number:
                return i
    msg = _MSG_NO_SUCH[kind] % {"n": number}
    raise DomainError("bad_input", _MSG_NO_SUCH[kind], fields={field: msg}, params={"n": number})


def item_number_of(items: Sequence[Item], kind: str, index: int | None) -> int | None:
    """Item index → the number of the last item of ``kind`` at or before it, as a person reads
    it (the level a break follows); None stays None, and so does an index before the first."""
    if index is None:
        return None
    return sum(1 for it in items[: index + 1] if it.kind == kind) or None


def level_in_play(items: Sequence[Item], index: int) -> Item | None:
    """The level whose blinds and antes the tables post with the clock at item ``index``: that
    level, or during a break the level after it (RULES 4.1); None when no level follows."""
    return next((it for it in items[max(index, 0) :] if it.kind == LEVEL), None)


# -- chips ----------------------------------------------------------------------------------------


def _chips(denominations: Iterable[int]) -> list[int]:
    chips = list(denominations)
    if not chips or not all(_is_int(c) and c > 0 for c in chips) or len(set(chips)) != len(chips):
        raise DomainError(
            "bad_denominations",
            MSG_BAD_DENOMINATIONS,
            fields={"denominations": MSG_BAD_DENOMINATIONS},
        )
    return sorted(chips)


def _amounts(items: Sequence[Item], after: int) -> set[int]:
    return {
        value
        for item in items[after + 1 :]
        if item.kind == LEVEL
        for value in (item.small_blind, item.big_blind, item.ante, item.big_blind_ante)
        if value > 0
    }


def _removable(chips: list[int], amounts: set[int]) -> tuple[int, ...]:
    best = 0
    for j in range(1, len(chips)):
        if all(value % chips[j] == 0 for value in amounts):
            best = j
    return tuple(chips[:best])


def removable_denominations(
    items: Sequence[Item], index: int, denominations: Iterable[int]
) -> tuple[int, ...]:
    """Chips in play that no level after item ``index`` needs (RULES 5.1), ascending.

    ``denominations`` are the chips in play at that point. With them sorted ``d1 < ... < dk``,
    the answer is ``d1..dj`` for the largest ``j < k`` such that ``d(j+1)`` divides every positive
    small blind, big blind, ante and big-blind ante of the later levels, so the smallest chip left
    still divides them all (RULES 4.5). The largest chip is never removable.
    """
    chips = _chips(denominations)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(items):
        raise DomainError("bad_index", MSG_BAD_INDEX, fields={"index": MSG_BAD_INDEX})
    return _removable(chips, _amounts(items, index))


def check_structure(items: Sequence[Item], denominations: Iterable[int]) -> list[str]:
    """Problems of a structure with a chip set (RULES 4.5, 5.1); empty when it is sound.

    Walking the items with the chips in play: a break's colour-up must name chips in play, the
    lowest first, never all of them, and none a later level still needs (5.1); every blind and
    ante of every level must be a multiple of the smallest chip then in play (4.5).
    """
    in_play = _chips(denominations)
    problems: list[str] = []
    for i, item in enumerate(items):
        if item.kind == BREAK and item.color_up:
            removed = [c for c in item.color_up if c in in_play]
            problems += [
                PROBLEM_NOT_IN_PLAY.format(index=i, chip=c)
                for c in item.color_up
                if c not in in_play
            ]
            if not removed:
                continue
            if len(removed) == len(in_play):
                problems.append(PROBLEM_REMOVES_ALL.format(index=i))
                continue
            lowest = in_play[: len(removed)]
            if removed != lowest:
                smaller = min(set(lowest) - set(removed))
                problems += [
                    PROBLEM_NOT_LOWEST.format(index=i, chip=c, smaller=smaller)
                    for c in removed
                    if c > smaller
                ]
            else:
                allowed = _removable(in_play, _amounts(items, i))
                problems += [
                    PROBLEM_STILL_NEEDED.format(index=i, chip=c)
                    for c in removed
                    if c not in allowed
                ]
            in_play = [c for c in in_play if c not in removed]
        elif item.kind == LEVEL:
            chip = in_play[0]
            for field in AMOUNT_FIELDS:
                value = getattr(item, field)
                if value % chip:
                    problems.append(
                        PROBLEM_NOT_MULTIPLE.format(index=i, field=field, value=value, chip=chip)
                    )
    return problems


# -- generating -----------------------------------------------------------------------------------

# "Nice" small blinds: 1, 1.5, 2, 3, 4, 5, 6, 8 x 10^k (ratios 1.2x-1.5x, ~1.33x on average).
_MANTISSAS = (10, 15, 20, 30, 40, 50, 60, 80)


def _next_small_blind(current: int, unit: int) -> int:
    """The smallest "nice" small blind above ``current`` that is a multiple of ``unit``.

    Near the unit, 1, 2, 3 and 4 units also count (25, 50, 75, 100 with 25s). Should no nice
    value lie within 2x (an odd chip like 7), the next multiple of ``unit`` above 4/3 x is used.
    """
    candidates = [n * unit for n in (1, 2, 3, 4) if n * unit > current]
    scale = 1
    while scale * 10 <= current * 20:
        for m in _MANTISSAS:
            value = m * scale
            if value % 10 == 0 and value // 10 > current and (value // 10) % unit == 0:
                candidates.append(value // 10)
        scale *= 10
    near = [c for c in candidates if c <= 2 * current]
    if near:
        return min(near)
    return max(current + unit, math.ceil(current * 4 / 3 / unit) * unit)


def _first_small_blind(target: float, unit: int) -> int:
    low = high = unit
    while high < target:
        low, high = high, _next_small_blind(high, unit)
    if low == high:
        return low
    return low if math.log(target / low) <= math.log(high / target) else high


def _bad(field: str, message: str) -> DomainError:
    return DomainError("bad_parameters", MSG_BAD_PARAMETERS, fields={field: message})


def _break_positions(break_after: Sequence[int] | None, break_every: int, levels: int) -> set[int]:
    positions = set(break_after or ())
    last = max(positions, default=0)
    if break_every:
        positions.update(range(last + break_every, levels, break_every))
    return {p for p in positions if p < levels}


def generate(
    *,
    starting_stack: int,
    denominations: Sequence[int],
    level_minutes: int,
    target_hours: float,
    break_every: int = 4,
    break_minutes: int = 10,
    bb_ante_from_level: int = 4,
    break_after: Sequence[int] | None = None,
) -> tuple[Item, ...]:
    """A blind structure for a stack and chip set (RULES 4.1, 4.5, 5.1).

    - The first big blind is the nice value nearest ``starting_stack / 200`` (a multiple of twice
      the smallest chip); each level steps to the next nice small blind (1, 1.5, 2, 3, 4, 5, 6, 8
      x 10^k, and 1-4 units of the smallest chip near the bottom), big blind = 2 x small blind:
      1.2x-1.5x a level, 2x at the very bottom (25/50 -> 50/100).
    - Big-blind ante = big blind from level ``bb_ante_from_level`` (1-based; 0 = never); no
      classic ante.
    - A break of ``break_minutes`` after each level number in ``break_after`` and then every
      ``break_every`` levels (0 = no more breaks); never after the last level. Each break colours
      up every chip no later level needs (:func:`removable_denominations`, RULES 5.1).
    - Every amount is a multiple of the smallest chip, and the colour-ups only remove chips whose
      next larger chip divides all later amounts, so RULES 4.5 holds by construction.
    - Length: see the module docstring (``target_hours`` and a 100-player field's chips).
    """
    chips = _chips(denominations)
    unit = chips[0]
    if not _is_int(starting_stack) or starting_stack <= 0 or starting_stack % unit:
        raise _bad("starting_stack", MSG_BAD_STACK)
    for name, value, high in (
        ("level_minutes", level_minutes, 240),
        ("break_minutes", break_minutes, 240),
    ):
        if not _is_int(value) or not 1 <= value <= high:
            raise _bad(name, MSG_BAD_MINUTES)
    if (
        isinstance(target_hours, bool)
        or not isinstance(target_hours, int | float)
        or not 0 < target_hours <= 72
    ):
        raise _bad("target_hours", MSG_BAD_HOURS)
    if not _is_int(break_every) or break_every < 0:
        raise _bad("break_every", MSG_BAD_BREAK_EVERY)
    if not _is_int(bb_ante_from_level) or bb_ante_from_level < 0:
        raise _bad("bb_ante_from_level", MSG_BAD_BBA_FROM)
    if break_after is not None:
        marks = list(break_after)
        if not all(_is_int(m) and m > 0 for m in marks) or marks != sorted(set(marks)):
            raise _bad("break_after", MSG_BAD_BREAK_AFTER)

    field_chips = FIELD_SIZE * starting_stack
    target_seconds = target_hours * 3600
    small_blinds = [_first_small_blind(starting_stack / 400, unit)]
    while len(small_blinds) < MAX_LEVELS:
        levels = len(small_blinds)
        breaks = len(_break_positions(break_after, break_every, levels))
        seconds = levels * level_minutes * 60 + breaks * break_minutes * 60
        big_blind = 2 * small_blinds[-1]
        if big_blind >= MAX_BB_FACTOR * field_chips:
            break
        if seconds >= target_seconds and big_blind >= field_chips:
            break
        small_blinds.append(_next_small_blind(small_blinds[-1], unit))

    positions = _break_positions(break_after, break_every, len(small_blinds))
    items: list[Item] = []
    for number, sb in enumerate(small_blinds, start=1):
        bba = 2 * sb if bb_ante_from_level and number >= bb_ante_from_level else 0
        items.append(
            Item(
                kind=LEVEL,
                seconds=level_minutes * 60,
                small_blind=sb,
                big_blind=2 * sb,
                big_blind_ante=bba,
            )
        )
        if number in positions:
            items.append(Item(kind=BREAK, seconds=break_minutes * 60))

    in_play = chips
    for i, item in enumerate(items):
        if item.kind == BREAK:
            gone = _removable(in_play, _amounts(items, i))
            if gone:
                items[i] = Item(kind=BREAK, seconds=item.seconds, color_up=gone)
                in_play = [c for c in in_play if c not in gone]
    return tuple(items)


def preset(
    name: str,
    *,
    starting_stack: int = 10000,
    denominations: Sequence[int] = (25, 100, 500, 1000, 5000, 25000),
) -> tuple[Item, ...]:
    """Ready-made structures (what a director picks before the doors open).

    - ``regular``: 20-minute levels, big-blind ante from level 4, 10-minute breaks after levels
      5, 9 and 12 and then every 4 levels; for 10,000 it is the book's example: 25/50, 50/100,
      75/150, 100/200 (200), 150/300 (300), break (colour-up 25), 200/400 (400), ...
    - ``turbo``: the same with 10-minute levels (breaks stay 10 minutes).
    - ``deep``: the regular shape for 2 x ``starting_stack`` (the caller gives players that
      stack, ``DEEP_STACK_FACTOR``), which takes more levels.
    """
    common: dict[str, Any] = {
        "denominations": denominations,
        "break_every": 4,
        "break_minutes": 10,
        "bb_ante_from_level": 4,
        "break_after": (5, 9, 12),
    }
    if name == "regular":
        return generate(starting_stack=starting_stack, level_minutes=20, target_hours=8, **common)
    if name == "turbo":
        return generate(starting_stack=starting_stack, level_minutes=10, target_hours=4, **common)
    if name == "deep":
        return generate(
            starting_stack=DEEP_STACK_FACTOR * starting_stack,
            level_minutes=20,
            target_hours=12,
            **common,
        )
    raise DomainError("unknown_preset", MSG_UNKNOWN_PRESET, fields={"name": MSG_UNKNOWN_PRESET})
