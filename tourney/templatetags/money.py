"""``{{ cents|money }}`` and ``{{ cents|money_whole }}``: an amount kept in the smallest unit
written in the active language's separators (tourney/core/money_text.py): "1,234.50" in
English, "1.234,50" in German."""

from __future__ import annotations

from django import template

from tourney.core import money_text as formatting

register = template.Library()


@register.filter(name="money")
def money(amount) -> str:
    try:
        return formatting.money_exact(int(amount or 0))
    except (TypeError, ValueError):
        return ""


@register.filter(name="money_whole")
def money_whole(amount) -> str:
    try:
        return formatting.money_whole(int(amount or 0))
    except (TypeError, ValueError):
        return ""
