"""Structure errors in the words of the levels box (issue 31, item 5).

The engine names a problem by its API path (``levels[1].small_blind``, docs/api.md) and says what
the rule is. A director typing lines in the setup form or the structure editor needs to know
which line, which level, what is wrong and how to fix it: "Level 2 (line 3): the small blind
must be a whole number above zero, e.g. 100." The API keeps the engine's keys and words; these
sentences are written in the active language (issue 29), at the screen's edge."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from tourney import services
from tourney.engine import structure as structure_engine
from tourney.services import setup

# What to write, per field of an item (the engine's fields, docs/api.md).
FIELD_FIX = {
    "small_blind": N_(
        "the small blind must be a whole number above zero (15 digits at most), e.g. 100"
    ),
    "big_blind": N_(
        "the big blind must be a whole number, at least the small blind and usually twice it "
        "(15 digits at most)"
    ),
    "ante": N_("the ante must be a whole number, 0 for none (15 digits at most)"),
    "big_blind_ante": N_(
        "the big-blind ante must be a whole number, 0 for none (15 digits at most)"
    ),
    "minutes": N_("the minutes must be a whole number from 1 to 1440, e.g. 20"),
    "seconds": N_("the minutes must be a whole number from 1 to 1440, e.g. 20"),
    "color_up": N_('list each chip to color up once, e.g. "break 10 color-up 25"'),
    "kind": N_('write a level ("100/200 20") or a break ("break 10")'),
}
MSG_BAD_ITEM = N_('write it as "25/50 20" or "break 10"')
MSG_NO_LEVEL = N_('The structure needs at least one level: add a line such as "25/50 20".')
MSG_TOO_MANY_LINES = N_("At most %(n)s lines of levels and breaks: remove some.")
MSG_TOO_MANY = MSG_TOO_MANY_LINES % {"n": structure_engine.MAX_ITEMS}
MSG_NOT_MULTIPLE = N_(
    "%(where)s: the %(what)s %(value)s is not a multiple of %(chip)s, the smallest chip in "
    "play (RULES 4.5): make it a multiple of %(chip)s, or keep a smaller chip in play."
)
MSG_ITEM = N_("%(item)s: %(fix)s.")
WHAT = {
    "small_blind": N_("small blind"),
    "big_blind": N_("big blind"),
    "ante": N_("ante"),
    "big_blind_ante": N_("big-blind ante"),
}

_KEY = re.compile(r"^levels\[(\d+)\](?:\.(\w+))?$")
_PROBLEM = re.compile(r"levels\[(\d+)\]\.(\w+): ")
_NOT_MULTIPLE = re.compile(
    r"levels\[(\d+)\]\.(\w+): (\d+) is not a multiple of (\d+), the smallest chip in play "
    r"\(RULES 4\.5\)\."
)


_KEEP = re.compile(r"keep items 0\.\.(\d+) unchanged")
MSG_KEEP_PLAYED = N_("Keep %(lines)s as they are: they are played or running.")
# Headlines that only say "something is wrong": left out when the lines say what.
GENERIC = (
    structure_engine.MSG_BAD_STRUCTURE,
    services.MSG_STRUCTURE_PROBLEMS,
    setup.MSG_STRUCTURE_PROBLEMS,
)


def _lines_upto(index: int, text: str | None) -> str:
    kinds = _item_kinds(text)
    if index < len(kinds):
        last = kinds[index][0]
        return _("line 1") if last == 1 else _("lines 1 to %(last)s") % {"last": last}
    return _("the first line") if index == 0 else _("the first %(n)s lines") % {"n": index + 1}


def _item_kinds(text: str | None) -> list[tuple[int, bool]]:
    """(line number, is a break) of each item the levels box holds, in order."""
    out = []
    for n, line in enumerate((text or "").splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((n, line.lower().startswith("break")))
    return out


def item_label(index: int, text: str | None) -> str:
    """``levels[index]`` as the director sees it: "Level 2", "Level 2 (line 3)", "The break
    after level 2 (line 4)"."""
    kinds = _item_kinds(text)
    if index >= len(kinds):
        return _("Item %(n)s of the structure") % {"n": index + 1}
    line, is_break = kinds[index]
    level = sum(1 for _line, b in kinds[: index + 1] if not b)
    at = {"level": level, "line": line}
    if is_break:
        if level:
            return _("The break after level %(level)s (line %(line)s)") % at
        return _("The break before level 1 (line %(line)s)") % at
    return _("Level %(level)s") % at if line == level else _("Level %(level)s (line %(line)s)") % at


def _problem_text(problem: str, text: str | None) -> str:
    m = _NOT_MULTIPLE.fullmatch(problem.strip())
    if m:
        index, field, value, chip = m.groups()
        return _(MSG_NOT_MULTIPLE) % {
            "where": item_label(int(index), text),
            "what": _(WHAT[field]) if field in WHAT else field.replace("_", " "),
            "value": number_format(int(value), force_grouping=True),
            "chip": number_format(int(chip), force_grouping=True),
        }
    # Other chip-rule problems: the engine's words after the item's name.
    return _PROBLEM.sub(lambda p: f"{item_label(int(p[1]), text)}: ", problem).strip()


def levels_messages(fields: Mapping[str, object], text: str | None) -> list[str]:
    """The engine's ``fields`` about levels → one sentence each, in the order of the lines."""
    found: list[tuple[int, str]] = []
    for key, value in fields.items():
        message = str(value)
        m = _KEY.match(key)
        if m:
            index, field = int(m[1]), m[2]
            fix = _(FIELD_FIX.get(field or "", MSG_BAD_ITEM))
            found.append((index, _(MSG_ITEM) % {"item": item_label(index, text), "fix": fix}))
        elif key in ("levels", "levels_text"):
            if message == structure_engine.MSG_NO_LEVEL:
                found.append((-1, _(MSG_NO_LEVEL)))
            elif message == structure_engine.MSG_TOO_MANY:
                n = structure_engine.MAX_ITEMS
                found.append((-1, _(MSG_TOO_MANY_LINES) % {"n": n}))
            elif m := _KEEP.fullmatch(message):
                lines = _lines_upto(int(m[1]), text)
                found.append((-1, _(MSG_KEEP_PLAYED) % {"lines": lines}))
            elif "levels[" in message:
                # check_structure's problems, joined by the service ("; ") or setup (" ").
                for part in re.split(r"(?<=\.)[ ;]+(?=levels\[)|; (?=levels\[)", message):
                    idx = _PROBLEM.search(part)
                    found.append((int(idx[1]) if idx else -1, _problem_text(part, text)))
            else:
                found.append((-1, _(message) if message else message))
    found.sort(key=lambda f: f[0])
    return [m for _, m in found]


def is_levels_key(key: str) -> bool:
    return key in ("levels", "levels_text") or key.startswith("levels[")


def form_error_lines(
    message: str, fields: Mapping[str, object], text: str | None, shown: str | None = None
) -> list[str]:
    """A refusal as the sentences to show under a levels box: the levels' problems in its
    words, then any other field's message; the headline (``shown``: in the active language)
    only when nothing more precise is there (never the same sentence twice)."""
    shown = shown or message
    levels = {k: v for k, v in fields.items() if is_levels_key(k)}
    lines = levels_messages(levels, text)
    others = [v for k, v in fields.items() if k not in levels and isinstance(v, str)]
    lines += [shown if v == message else _(v) if v else v for v in others]
    if not lines:
        return [shown]
    out: list[str] = [] if message in GENERIC else [shown]
    for line in lines:
        if line not in out:
            out.append(line)
    return out
