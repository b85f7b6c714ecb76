"""Links to the Rules page: ``{% rule "7.1" %}`` in a template writes "RULES 7.1" as a link to
that rule (``{% rule "4.5" "5.1" %}``: "RULES 4.5, 5.1", each a link); ``text|rule_links``
does the same for every "RULES n.m" in a text written in Python (a message), escaping the rest.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe

from tourney.rulebook import NUMBER_IN_CITE, cite_pieces, rule_anchor

register = template.Library()


def _href(number: str, tournament=None) -> str:
    """The rule on the Rules page; with the tournament, the page keeps its top bar."""
    query = f"?t={int(tournament.pk)}" if getattr(tournament, "pk", None) else ""
    return f"{reverse('tourney-rules')}{query}#{rule_anchor(number)}"


def _ref(text: str, number: str, tournament=None) -> str:
    return format_html('<a class="rule-ref" href="{}">{}</a>', _href(number, tournament), text)


@register.simple_tag(takes_context=True)
def rule(context, *numbers: str) -> str:
    if not numbers or not all(NUMBER_IN_CITE.fullmatch(str(n)) for n in numbers):
        raise template.TemplateSyntaxError(f"rule: rule numbers like '7.1' expected, got {numbers}")
    t = context.get("tournament")
    first, *more = (str(n) for n in numbers)
    links = [_ref(f"RULES {first}", first, t)] + [_ref(n, n, t) for n in more]
    return format_html_join(", ", "{}", ((link,) for link in links))


@register.filter(needs_autoescape=True)
def rule_links(text, tournament=None, autoescape: bool = True) -> str:
    """``{{ message|rule_links:tournament }}``."""
    escaped = str(conditional_escape(text) if autoescape else text)
    out, at = [], 0
    for start, end, pieces in cite_pieces(escaped):
        out.append(escaped[at:start])
        out += [_ref(piece, number, tournament) if number else piece for piece, number in pieces]
        at = end
    out.append(escaped[at:])
    return mark_safe("".join(out))  # noqa: S308 - escaped above, then links
