"""Issue 29: the shipped languages are complete. Every string the source marks for translation
has a German and a Spanish translation (none empty, none fuzzy); every compiled catalog is the
compilation of its .po; no template shows text that is not marked for translation."""

from __future__ import annotations

import importlib.util
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
i18n = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(i18n)

# Words that are the same in every language (names, units, abbreviations).
SAME_IN_EVERY_LANGUAGE = {"Tourney", "CSV", "JSON", "PDF", "QR", "API", "TD", "ID", "PKO", "URL"}
# Attributes people read (the rest, class names, ids, URLs, are not text).
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "label"}
LETTERS = re.compile(r"[A-Za-z]{2,}")
# Literal text handed to an include (``with label="Name"``) or shown as a default
# (``|default:"none"``): marked when written ``_("Name")``.
TAG_LITERALS = re.compile(r'(?:\bwith\b.*?\b\w+=|\s\w+=|default:|yesno:)"([^"]*)"')
# Keys of an include whose value is not text (a template name, a CSS class, a flag).
NOT_TEXT_KEYS = re.compile(r"\b(?:id|css|class|kind|name|url|target|mode|icon|key|field|when)=$")


@pytest.fixture(scope="module")
def source_catalog():
    return i18n.extract()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_marked_string_is_translated(lang, source_catalog):
    have = {i18n._key(m): m for m in i18n.read(lang) if m.id}
    untranslated = [
        i18n._key(m)
        for m in source_catalog
        if m.id and not (i18n._key(m) in have and i18n._translated(have[i18n._key(m)]))
    ]
    assert not untranslated, (
        f"{len(untranslated)} strings without a {lang} translation "
        f"(tools/i18n.py missing): {untranslated[:20]}"
    )


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_compiled_catalog_is_its_po_compiled(lang):
    from babel.messages.mofile import write_mo

    path = i18n._po_path(lang)
    compiled = io.BytesIO()
    write_mo(compiled, i18n.read(lang), use_fuzzy=False)
    assert path.with_suffix(".mo").read_bytes() == compiled.getvalue(), (
        f"{path.with_suffix('.mo')} is not {path} compiled: run tools/i18n.py update"
    )


class _VisibleText(HTMLParser):
    """The text a person reads in a piece of template: element text and the read attributes,
    not what is inside <script> or <style>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        # A <button>'s value is what the form sends, not what it shows; an <input
        # type="submit">'s value is its label.
        shown_value = tag == "input" and dict(attrs).get("type") in ("submit", "button", "reset")
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name == "value" and shown_value)):
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.found.append(data)


def _words(text: str) -> list[str]:
    return [w for w in LETTERS.findall(text) if w not in SAME_IN_EVERY_LANGUAGE]


def _tag_literals(contents: str) -> list[str]:
    """Literal strings a tag or a variable shows as text (not those written ``_("...")``)."""
    found = []
    first = contents.split(" ", 1)[0]
    if first in ("url", "load", "static", "partialdef", "partial", "translate", "trans"):
        return found
    for match in TAG_LITERALS.finditer(contents):
        before = contents[: match.start(1) - 1]
        if not NOT_TEXT_KEYS.search(before.split()[-1] if before.split() else ""):
            found.append(match.group(1))
    return found


def unmarked_text(source: str) -> list[str]:
    """The words of a template's text outside {% translate %} / {% blocktranslate %}."""
    parser = _VisibleText()
    inside = None  # the block whose text is not the page's own: blocktranslate, comment
    for token in Lexer(source).tokenize():
        content = token.contents.split(" ", 1)[0] if token.token_type == TokenType.BLOCK else ""
        if content in ("blocktranslate", "blocktrans", "comment"):
            inside = content
        elif content == "block" and token.contents.split()[1:2] in (["body_class"], ["mode"]):
            inside = "block"  # a CSS class or a mode name, not text
        elif content in ("endblocktranslate", "endblocktrans", "endcomment", "endblock"):
            inside = None
        if token.token_type in (TokenType.BLOCK, TokenType.VAR) and not inside:
            parser.found.extend(_tag_literals(token.contents))
        if token.token_type == TokenType.TEXT and not inside:
            parser.feed(token.contents)
        elif token.token_type == TokenType.VAR and not inside:
            parser.feed("0")  # a value stands in the text (keeps tags and attributes whole)
    parser.close()
    return [w for text in parser.found for w in _words(text)]


TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_templates_mark_every_text_for_translation(path):
    words = unmarked_text(path.read_text(encoding="utf-8"))
    assert not words, (
        f"{path.relative_to(ROOT)} shows text not marked for translation: {words[:15]}"
    )


def test_the_checker_finds_unmarked_text():
    assert unmarked_text("<p>Players left {{ n }}</p>") == ["Players", "left"]
    assert unmarked_text('<input placeholder="Search">') == ["Search"]
    assert unmarked_text('{% load i18n %}<p>{% translate "Players left" %}</p>') == []
    assert unmarked_text("{% blocktranslate %}Level {{ n }}{% endblocktranslate %}") == []
    assert unmarked_text('<p class="big-clock">{{ x }}</p><script>var a = "b";</script>') == []
    assert unmarked_text('{% include "a.html" with f=form.name label="Name" %}') == ["Name"]
    assert unmarked_text('{% include "a.html" with f=form.name label=_("Name") %}') == []
    assert unmarked_text('{{ x|default:"none yet" }}') == ["none", "yet"]
    assert unmarked_text('{{ x|default:_("none yet") }}') == []
    assert unmarked_text("{% block body_class %}desk print{% endblock %}") == []
    assert unmarked_text("{% block title %}Desk{% endblock %}") == ["Desk"]
