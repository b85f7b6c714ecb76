"""The rule book (docs/rules.md) as the directors' Rules page shows it, and the anchors every
"RULES n.m" on the screens links to.

docs/rules.md is ours and changes only with a deploy, but it is rendered as untrusted text all
the same: raw HTML off (markdown-it escapes it), links only to anchors of the page or to
http(s); a relative link into the source tree (an engine module) means nothing to a browser,
so it shows as the module's name in code instead of a broken link.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from markdown_it import MarkdownIt
from markdown_it.token import Token

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
MSG_ENGLISH_ONLY = N_("The rule book is in English.")

RULE_LINE = re.compile(r"^(\d+)\.(\d+)\s")  # "7.1 **Bust order decides.** …"
SECTION_TITLE = re.compile(r"^(\d+)\.\s+(.*)$")  # "## 7. Eliminations and places"
# "RULES 7.1", "RULES 5", and the rules listed after one: "RULES 4.5, 5.1", "RULES 7.1 and 7.3"
# (a listed bare number is no rule: "RULES 8.3, 10 players").
RULE_NUMBER = r"\d+(?:\.\d+)?"
RULES_CITE = re.compile(rf"RULES {RULE_NUMBER}(?:(?:, | and )\d+\.\d+)*")
BARE_REF = re.compile(r"(?<=\()\d+\.\d+(?=\))")  # "(3.5)" in the book: one of its own rules
NUMBER_IN_CITE = re.compile(RULE_NUMBER)


def rule_anchor(number: str) -> str:
    """The page anchor of a rule ("7.1" → "rule-7-1") or a section ("7" → "section-7")."""
    if "." in number:
        return "rule-" + number.replace(".", "-")
    return f"section-{number}"


@dataclass(frozen=True)
class Section:
    number: str
    title: str
    anchor: str


@dataclass(frozen=True)
class RuleBook:
    html: str  # safe: rendered with raw HTML off
    sections: tuple[Section, ...]
    rules: tuple[str, ...]  # every rule number, in the book's order ("7.1", "7.2", …)

    @property
    def note(self) -> str:
        """The book is not translated (issue 29): said so, in the page's language, unless
        that is English."""
        language = (translation.get_language() or "en").split("-")[0]
        return "" if language == "en" else gettext(MSG_ENGLISH_ONLY)


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _is_page_link(href: str) -> bool:
    return href.startswith(("#", "https://", "http://"))


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _link(href: str, content: str, css: str) -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrs = {"href": href, "class": css}
    return [opening, _text(content), Token("link_close", "a", -1)]


def cite_pieces(text: str, known: frozenset[str] = frozenset()) -> list[tuple[int, int, list]]:
    """Each cite in a text as (start, end, pieces), a piece (text, rule number or None): "RULES
    4.5, 5.1" is ("RULES 4.5", "4.5"), (", ", None), ("5.1", "5.1"). With ``known`` (the book's
    own rules), a bare "(3.5)" is a cite too."""
    spans = []
    for cite in RULES_CITE.finditer(text):
        pieces: list[tuple[str, str | None]] = []
        prev = 0
        for i, number in enumerate(NUMBER_IN_CITE.finditer(cite.group(0))):
            start = 0 if i == 0 else number.start()
            if start > prev:
                pieces.append((cite.group(0)[prev:start], None))
            pieces.append((cite.group(0)[start : number.end()], number.group(0)))
            prev = number.end()
        spans.append((cite.start(), cite.end(), pieces))
    for ref in BARE_REF.finditer(text):
        if ref.group(0) in known:
            spans.append((ref.start(), ref.end(), [(ref.group(0), ref.group(0))]))
    return sorted(spans, key=lambda span: span[0])


def _cites_linked(children: list[Token], known: frozenset[str]) -> list[Token]:
    """Each "RULES 1.3" in the book's text, and each "(3.5)" naming one of its rules, becomes
    a link to that rule on the same page (not inside a link already)."""
    out: list[Token] = []
    depth = 0
    for token in children:
        depth += token.type == "link_open"
        depth -= token.type == "link_close"
        spans = cite_pieces(token.content, known) if token.type == "text" and not depth else []
        if not spans:
            out.append(token)
            continue
        at = 0
        for start, end, pieces in spans:
            out.append(_text(token.content[at:start]))
            for piece, number in pieces:
                out += (
                    _link("#" + rule_anchor(number), piece, "rule-ref")
                    if number
                    else [_text(piece)]
                )
            at = end
        out.append(_text(token.content[at:]))
    return out


def _source_links_as_code(children: list[Token]) -> list[Token]:
    """A link into the source tree shows as the module's name in code, with no link."""
    out: list[Token] = []
    inside: list[Token] | None = None
    href = ""
    for token in children:
        if token.type == "link_open" and not _is_page_link(str(token.attrs.get("href", ""))):
            inside, href = [], str(token.attrs.get("href", ""))
            continue
        if inside is not None:
            if token.type == "link_close":
                code = Token("code_inline", "code", 0)
                code.content = "".join(t.content for t in inside) or href
                code.attrs = {"title": href.lstrip("./") or href}
                out.append(code)
                inside = None
            else:
                inside.append(token)
            continue
        out.append(token)
    return out


def _number_linked(children: list[Token], number: str, anchor: str) -> list[Token]:
    """The rule's own number at the start of its line becomes a link to itself (to copy)."""
    first = children[0]
    rest = first.content[len(number) :]
    return [*_link("#" + anchor, number, "rule-num"), _text(rest), *children[1:]]


def render(source: str) -> RuleBook:
    md = _markdown()
    tokens = md.parse(source)
    sections: list[Section] = []
    rules: list[str] = []
    known = frozenset(
        f"{m.group(1)}.{m.group(2)}"
        for i, token in enumerate(tokens)
        if token.type == "inline" and i and tokens[i - 1].type == "paragraph_open"
        for m in [RULE_LINE.match(token.content)]
        if m
    )
    for i, token in enumerate(tokens):
        if token.type != "inline" or i == 0:
            continue
        opening = tokens[i - 1]
        token.children = _source_links_as_code(_cites_linked(token.children or [], known))
        if opening.type == "heading_open" and opening.tag == "h2":
            match = SECTION_TITLE.match(token.content.strip())
            if match:
                anchor = rule_anchor(match.group(1))
                opening.attrSet("id", anchor)
                sections.append(Section(match.group(1), match.group(2), anchor))
        elif opening.type == "paragraph_open":
            match = RULE_LINE.match(token.content)
            children = token.children
            if match and children and children[0].type == "text":
                number = f"{match.group(1)}.{match.group(2)}"
                anchor = rule_anchor(number)
                opening.attrSet("id", anchor)
                opening.attrSet("class", "rule")
                token.children = _number_linked(children, number, anchor)
                rules.append(number)
    html = md.renderer.render(tokens, md.options, {})
    return RuleBook(html=html, sections=tuple(sections), rules=tuple(rules))


@functools.lru_cache(maxsize=2)
def _rendered(path: str, mtime_ns: int, size: int) -> RuleBook:
    return render(Path(path).read_text(encoding="utf-8"))


def rule_book(path: Path = RULES_MD) -> RuleBook:
    """The rendered book, cached per process; rendered again only when the file changes (a
    deploy, or an edit on a developer's machine)."""
    stat = path.stat()
    return _rendered(str(path), stat.st_mtime_ns, stat.st_size)
