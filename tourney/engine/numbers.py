"""Whole numbers typed by people or carried in headers and form keys.

``str.isdigit()`` is not enough: "²" and "٣" pass it, and ``int("²")`` raises, so a check built
on it turns a stray character into a server error. And a long run of digits overflows the
database's integer columns. ``ascii_int`` takes ASCII digits only, and a bounded number of them.
"""

from __future__ import annotations

MAX_ID = 2**63 - 1  # a row id: what the database's id columns hold (SQLite overflows beyond)


def ascii_int(raw: str | None, most_digits: int = 18) -> int | None:
    """``raw`` as a non-negative int when it is 1 to ``most_digits`` ASCII digits, else None.
    18 digits fit a 64-bit id column."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= most_digits:
        return int(raw)
    return None
