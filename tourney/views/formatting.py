"""What the screens share to write things out: the QR code of a player's page (issue 21), and
money in the active language's separators (issue 29, tourney/core/money_text.py)."""

from __future__ import annotations

import functools

import segno

from tourney.core.money_text import money_exact, money_whole, separators

__all__ = ["QR_DARK_DISPLAY", "QR_DARK_PRINT", "money_exact", "money_whole", "qr_svg", "separators"]

QR_DARK_PRINT = "#000000"  # the desk's player card, printed
QR_DARK_DISPLAY = "#0b1016"  # the TV display: the display's own dark


@functools.lru_cache(maxsize=512)
def qr_svg(url: str, dark: str = QR_DARK_PRINT) -> str:
    """The QR code of ``url`` as inline SVG (class "qr"), dark modules on white. The same for
    every load of a page: kept."""
    return segno.make(url, error="m").svg_inline(
        omitsize=True, svgclass="qr", border=2, dark=dark, light="#ffffff"
    )
