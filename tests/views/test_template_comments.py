"""Django's ``{# … #}`` comment ends on its own line: one opened and not closed on that line
is printed into the page as text (a block of it once sat in every page's <head> and pushed the
printed seat card onto a second sheet). Longer notes use ``{% comment %}``."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
OPEN_ONLY = re.compile(r"\{#(?![^\n]*#\})")


def unclosed_comments(text: str) -> list[int]:
    """The line numbers of ``{#`` with no ``#}`` after it on the same line."""
    return [text.count("\n", 0, m.start()) + 1 for m in OPEN_ONLY.finditer(text)]


def test_the_check_sees_an_unclosed_comment():
    assert unclosed_comments("{# one line #}\n<p>{# two\nlines #}</p>") == [2]
    assert unclosed_comments("{# a #} {# b #}") == []


def test_no_template_opens_a_comment_it_does_not_close_on_the_same_line():
    found = {
        str(path.relative_to(TEMPLATES)): lines
        for path in sorted(TEMPLATES.rglob("*.html"))
        if (lines := unclosed_comments(path.read_text(encoding="utf-8")))
    }
    assert list(TEMPLATES.rglob("*.html")), "no templates found"
    assert found == {}
