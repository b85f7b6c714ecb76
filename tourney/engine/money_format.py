"""Money as text: one formatter per way the screens write an amount (issue 21).

Money is kept in the smallest unit (cents), as an int; every formatter is exact (no floats).
Pure Python, so the services, the reads and the screens all may use it.

- ``money_exact``: units and cents with thousands separators, "1,234.50", "398.00": the
  dashboard, the desk, the money page, the results and prizes as the results give them.
- ``money_whole``: whole units when even, "1,234", else like ``money_exact``, "1,234.50": the
  public screens (the TV display, the player page), where space is short.
- ``money_input``: as typed into a form's amount field, "1234.50", "100": no thousands
  separators, cents only when not even; what the setup and settings forms are filled in with
  (``money_typed`` reads it back).

``money_exact`` and ``money_whole`` write English separators ("1,234.50") unless given the
active language's (``thousands``, ``decimal``): the screens pass them
(tourney/views/formatting.py, the ``money`` template filters), this module imports no Django.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

MONEY_MAX = Decimal(10**11)  # units: far above any buy-in, far below the columns' limit


ENGLISH_THOUSANDS = ","
ENGLISH_DECIMAL = "."


def _grouped(whole: int, thousands: str) -> str:
    text = f"{whole:,}"
    return text if thousands == ENGLISH_THOUSANDS else text.replace(",", thousands)


def money_exact(
    amount: int | None, thousands: str = ENGLISH_THOUSANDS, decimal: str = ENGLISH_DECIMAL
) -> str:
    """An amount in the smallest unit as units and cents: 123456 -> "1,234.56" (None: 0);
    German separators (".", ","): "1.234,56"."""
    whole, cents = divmod(int(amount or 0), 100)
    return f"{_grouped(whole, thousands)}{decimal}{cents:02d}"


def money_whole(
    amount: int, thousands: str = ENGLISH_THOUSANDS, decimal: str = ENGLISH_DECIMAL
) -> str:
    """An amount in the smallest unit in whole units when even: 123400 -> "1,234", 123450 ->
    "1,234.50"."""
    whole, cents = divmod(int(amount), 100)
    grouped = _grouped(whole, thousands)
    return grouped if cents == 0 else f"{grouped}{decimal}{cents:02d}"


def money_input(amount: int) -> str:
    """An amount in the smallest unit as a form's amount field holds it: 123450 -> "1234.50",
    10000 -> "100"."""
    whole, cents = divmod(abs(int(amount)), 100)
    sign = "-" if amount < 0 else ""
    return f"{sign}{whole}" if cents == 0 else f"{sign}{whole}.{cents:02d}"


def money_typed(text: str | None) -> int | None:
    """An amount as typed into a form ("12.50", "1,250", "100") in the smallest unit: 1250;
    empty -> 0; None when it is no amount (not a number, negative, more than two decimals,
    above ``MONEY_MAX``)."""
    raw = (text or "").replace(",", "").strip()
    if not raw:
        return 0
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    # NaN, infinities and huge exponents fail here before quantize (which would raise)
    if not value.is_finite() or value < 0 or value > MONEY_MAX:
        return None
    if value != value.quantize(Decimal("0.01")):
        return None
    return int(value * 100)
