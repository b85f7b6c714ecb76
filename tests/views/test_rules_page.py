"""Issue 22: the Rules page (docs/rules.md for the directors), the links to it from every
"RULES n.m" the director screens show, and the home-screen icons of every page."""

from __future__ import annotations

import json
import re
import struct
from html.parser import HTMLParser

import pytest
from django.template import Context, Template
from django.urls import reverse

from tourney import rulebook
from tourney.rulebook import RULES_MD, render, rule_anchor, rule_book

pytestmark = pytest.mark.django_db

RULE_TEXT = re.compile(r"RULES \d")


class _Page(HTMLParser):
    """The ids, the links and the visible text outside links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (href, text)
        self.unlinked: list[str] = []  # text not inside a link, script or style
        self._in_a: list[str] = []
        self._text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a":
            self._in_a.append(attrs.get("href") or "")
            self._text = []
        if tag in ("script", "style", "textarea"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag == "a" and self._in_a:
            self.links.append((self._in_a.pop(), "".join(self._text).strip()))
        if tag in ("script", "style", "textarea"):
            self._skip -= 1

    def handle_data(self, data):
        if self._skip:
            return
        if self._in_a:
            self._text.append(data)
        else:
            self.unlinked.append(data)


def _page(response) -> _Page:
    parser = _Page()
    parser.feed(response.content.decode())
    return parser


# ---------------------------------------------------------------------------- the page


def test_the_rules_page_has_an_anchor_for_every_rule_and_section(td):
    r = td.get(reverse("tourney-rules"))
    assert r.status_code == 200
    page = _page(r)
    book = render(RULES_MD.read_text(encoding="utf-8"))
    assert book.rules and book.sections
    for number in book.rules:
        assert rule_anchor(number) in page.ids, number
    for section in book.sections:
        assert section.anchor in page.ids
        # the table of contents links each section
        assert (f"#{section.anchor}", f"{section.number}. {section.title}") in page.links
    assert "rule-7-1" in page.ids and "section-7" in page.ids


def test_the_rules_page_is_for_directors_only(client, desk_clerk, stranger):
    url = reverse("tourney-rules")
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(desk_clerk)
    assert client.get(url).status_code == 403
    client.force_login(stranger)
    assert client.get(url).status_code == 403


def test_the_rules_page_keeps_the_tournament_top_bar(td, tournament):
    r = td.get(reverse("tourney-rules") + f"?t={tournament.pk}")
    assert r.status_code == 200
    assert reverse("tourney-dashboard", args=[tournament.pk]) in r.content.decode()
    # a bad or unknown id is no tournament, never an error
    for bad in ("x", "99999999", "1" * 40, "\u0661"):
        assert td.get(reverse("tourney-rules"), {"t": bad}).status_code == 200


def test_the_book_renders_safely_and_shows_source_links_as_code():
    html = render(
        "## 3. Tables\n\n"
        "3.1 **Balance.** See [balancing](../tables/engine/balancing.py), "
        "<script>alert(1)</script> [x](javascript:alert(1)) and RULES 7.1, 7.2.\n\n"
        "3.2 **Who moves.** As 3.1 says (3.1), not (9.9) nor (1.5 times).\n"
    ).html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html.replace("[x](javascript:alert(1))", "")
    assert 'href="../' not in html
    assert '<code title="tables/engine/balancing.py">balancing</code>' in html
    assert '<a href="#rule-7-1" class="rule-ref">RULES 7.1</a>' in html
    assert '<a href="#rule-7-2" class="rule-ref">7.2</a>' in html
    assert '<p id="rule-3-1" class="rule"><a href="#rule-3-1" class="rule-num">3.1</a>' in html
    assert '<h2 id="section-3">3. Tables</h2>' in html
    # a bare "(3.1)" names a rule of the book: a link; "(9.9)", no rule, stays text
    assert 'As 3.1 says (<a href="#rule-3-1" class="rule-ref">3.1</a>), not (9.9) nor (1.5' in html


def test_the_rendered_book_is_cached_until_the_file_changes(tmp_path):
    path = tmp_path / "rules.md"
    path.write_text("## 1. Seating\n\n1.1 **Draw.** Text.\n")
    first = rule_book(path)
    assert rule_book(path) is first  # no second render
    path.write_text("## 1. Seating\n\n1.1 **Draw.** Text.\n\n1.2 **More.** Text.\n")
    assert rule_book(path).rules == ("1.1", "1.2")
    rulebook._rendered.cache_clear()


# ---------------------------------------------------------------- links from the screens


def _no_unlinked_rule_text(page: _Page, where: str) -> None:
    text = " ".join(page.unlinked)
    m = RULE_TEXT.search(text)
    assert m is None, (
        f"{where}: a RULES cite that is no link: …{text[m.start() - 80 : m.end() + 40]}"
    )


def test_the_dashboard_links_its_rules_to_the_rules_page(td, seated_tournament):
    t = seated_tournament
    r = td.get(reverse("tourney-dashboard", args=[t.pk]))
    assert r.status_code == 200
    page = _page(r)
    rules_url = reverse("tourney-rules")
    assert (f"{rules_url}?t={t.pk}#rule-7-1", "RULES 7.1") in page.links
    assert (f"{rules_url}?t={t.pk}", "Rules") in page.links  # the top bar
    _no_unlinked_rule_text(page, "dashboard")
    # the link lands on the rule
    assert "rule-7-1" in _page(td.get(f"{rules_url}?t={t.pk}")).ids


@pytest.mark.parametrize(
    "name", ["tourney-dashboard-floor", "tourney-dashboard-structure", "tourney-dashboard-colorup"]
)
def test_the_other_director_screens_link_their_rules(td, seated_tournament, name):
    r = td.get(reverse(name, args=[seated_tournament.pk]))
    assert r.status_code == 200
    page = _page(r)
    assert any(href.startswith(reverse("tourney-rules")) for href, _ in page.links)
    _no_unlinked_rule_text(page, name)


def test_the_rule_tag_and_filter_write_links():
    html = Template('{% load rules %}{% rule "4.5" "5.1" %} | {% rule "6" %}').render(Context())
    assert html == (
        '<a class="rule-ref" href="/td/rules/#rule-4-5">RULES 4.5</a>, '
        '<a class="rule-ref" href="/td/rules/#rule-5-1">5.1</a> | '
        '<a class="rule-ref" href="/td/rules/#section-6">RULES 6</a>'
    )
    html = Template("{% load rules %}{{ msg|rule_links }}").render(
        Context({"msg": "<b>Not yet</b> (RULES 8.3 and 8.2): RULES 5."})
    )
    assert html == (
        "&lt;b&gt;Not yet&lt;/b&gt; ("
        '<a class="rule-ref" href="/td/rules/#rule-8-3">RULES 8.3</a> and '
        '<a class="rule-ref" href="/td/rules/#rule-8-2">8.2</a>): '
        '<a class="rule-ref" href="/td/rules/#section-5">RULES 5</a>.'
    )


# ---------------------------------------------------------------------------- icons


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def _get(client, url: str):
    r = client.get(url)
    return r, b"".join(r.streaming_content) if r.streaming else r.content


def _icon_links(html: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="(icon|apple-touch-icon|manifest)" href="([^"]+)"', html))


def test_every_page_links_its_icons_and_none_is_missing(td, tournament):
    pages = [
        reverse("tourney-dashboard", args=[tournament.pk]),
        reverse("tourney-rules"),
        reverse("tourney-display", args=[tournament.display_token]),
        reverse("tourney-player", args=[tournament.display_token]),
    ]
    for url in pages:
        links = _icon_links(td.get(url).content.decode())
        assert set(links) == {"icon", "apple-touch-icon", "manifest"}, url
        touch, touch_body = _get(td, links["apple-touch-icon"])
        assert touch.status_code == 200 and touch["Content-Type"] == "image/png"
        assert _png_size(touch_body) == (180, 180)
        assert _get(td, links["icon"])[0].status_code == 200
        manifest, body = _get(td, links["manifest"])
        assert manifest.status_code == 200
        assert manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(body)
    base = links["manifest"].rsplit("/", 1)[0] + "/"
    sizes = {}
    for icon in data["icons"]:
        r, png = _get(td, base + icon["src"])
        assert r.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            w, h = _png_size(png)
            sizes[icon["sizes"]] = f"{w}x{h}"
    assert sizes == {"192x192": "192x192", "512x512": "512x512"}
