"""The room's floor plan (RULES 13.2): the table numbers a card room has, in the order they
are handed out, typed as ranges ("1-20, 31-35, 40"). Pure Python.

``parse`` reads the typed text (each token a number or an ascending or descending range,
separated by commas or spaces); ``format_plan`` writes a plan back the same way (runs of
consecutive numbers in the plan's order), so ``parse(format_plan(p)) == p``; ``compact``
prints a set of numbers in ascending order for a screen ("1–6, 9").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tourney.engine.errors import DomainError

MAX_NUMBER = 32767  # a table number is a small integer in the database
MAX_TABLES = 500

MSG_TOKEN = "“{token}” is not a table number or a range such as 1-20."
MSG_RANGE = "Table numbers go from 1 to {max}: “{token}” is outside."
MSG_DUPLICATE = "Table {number} is in the plan twice (“{token}”)."
MSG_TOO_MANY = "A floor plan has at most {max} tables; this one has {count}."

_TOKEN = re.compile(r"^(\d+)(?:\s*[-–—]\s*(\d+))?$")


def _tokens(text: str) -> list[str]:
    # Ranges may be typed with spaces around the dash ("1 - 20"): join them before splitting.
    joined = re.sub(r"\s*([-–—])\s*", r"\1", text.strip())
    return [t for t in re.split(r"[,;\s]+", joined) if t]


def _bad(code: str, message: str) -> DomainError:
    return DomainError(code, message, fields={"floor_plan": message})


def parse(text: str) -> tuple[int, ...]:
    """The plan typed as ranges, in order; a clear error naming the first bad token.
    Empty text: no floor plan (a home game: any number, counting up)."""
    out: list[int] = []
    seen: set[int] = set()
    for token in _tokens(text or ""):
        m = _TOKEN.match(token)
        if m is None:
            raise _bad("bad_floor_plan", MSG_TOKEN.format(token=token))
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        if not (1 <= first <= MAX_NUMBER and 1 <= last <= MAX_NUMBER):
            raise _bad("bad_floor_plan", MSG_RANGE.format(max=MAX_NUMBER, token=token))
        if abs(last - first) + 1 > MAX_TABLES:
            count = len(out) + abs(last - first) + 1
            raise _bad("bad_floor_plan", MSG_TOO_MANY.format(max=MAX_TABLES, count=count))
        step = 1 if last >= first else -1
        for n in range(first, last + step, step):
            if n in seen:
                raise _bad("bad_floor_plan", MSG_DUPLICATE.format(number=n, token=token))
            seen.add(n)
            out.append(n)
        if len(out) > MAX_TABLES:
            raise _bad("bad_floor_plan", MSG_TOO_MANY.format(max=MAX_TABLES, count=len(out)))
    return tuple(out)


def _runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Runs of consecutive numbers (by +1 or by -1) in the order given."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs:
            first, last = runs[-1]
            step = 1 if last >= first else -1
            same_way = first == last or n - last == step
            if abs(n - last) == 1 and same_way:
                runs[-1] = (first, n)
                continue
        runs.append((n, n))
    return runs


def format_plan(numbers: Sequence[int]) -> str:
    """A plan as typed: "1-20, 31-35, 40" (hyphens, so the text parses back to the plan)."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in _runs(list(numbers)))


def compact(numbers: Iterable[int]) -> str:
    """Numbers for a screen, ascending, runs of three or more as ranges: "1–6, 9, 11, 12"."""
    parts: list[str] = []
    for a, b in _runs(sorted(set(numbers))):
        if b - a >= 2:
            parts.append(f"{a}–{b}")
        else:
            parts.extend(str(n) for n in range(a, b + 1))
    return ", ".join(parts)
