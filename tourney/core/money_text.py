"""Money in the active language's separators (issue 29): "1,234.50" in English, "1.234,50" in
German, Django's locale data for each language (Spanish: a non-breaking space groups
thousands, "1 234,50"). tourney/engine/money_format.py does the arithmetic and imports no
Django; these pass it the separators. The screens use them directly, through
tourney/views/formatting.py, or in a template as ``{{ cents|money }}`` (``{% load money %}``).
"""

from __future__ import annotations

from django.utils import formats

from tourney.engine import money_format


def separators() -> tuple[str, str]:
    """The active language's thousands and decimal separators (Django's locale formats)."""
    return (
        str(formats.get_format("THOUSAND_SEPARATOR")),
        str(formats.get_format("DECIMAL_SEPARATOR")),
    )


def money_exact(amount: int | None) -> str:
    """``money_format.money_exact`` in the active language: 123456 -> "1,234.56" in English,
    "1.234,56" in German."""
    thousands, decimal = separators()
    return money_format.money_exact(amount, thousands, decimal)


def money_whole(amount: int) -> str:
    """``money_format.money_whole`` in the active language: 123400 -> "1,234" / "1.234"."""
    thousands, decimal = separators()
    return money_format.money_whole(amount, thousands, decimal)
