"""What the displays say aloud (issue 29): the spoken text of each structure item, in the
display's language, from the director's templates or the defaults; the latest free-text
announcements; the checks of a template. No writes.

Kinds of text and when the display speaks them (static/js/announce.js, after a chime):

- ``level``: a level starts ("Level 9, blinds 1000 – 2000, big-blind ante 2000.");
- ``break``: a break starts ("Break, 10 minutes. Level 10 starts after the break.");
- ``colorup``: a break with a color-up starts, said after the break's text ("We are coloring
  up the 25 and 100 chips.");
- ``one_minute``: one minute is left in a level;
- ``last_hand``: said instead of ``one_minute`` in the day's last level. Reading (the rule
  book is silent; card rooms say it this way): the day ends where the clock stops, at the end
  of a flight's last level (RULES 10.2) or of the structure's last level; a minute before,
  the room hears that the hands in play when the clock stops are the last of the day (RULES
  10.2: no new hand is dealt, the hands already dealt are played out). A break as the day's
  last item has no last hand.

A template names its values as ``%(level)s`` (``PLACES`` lists those of each kind). Numbers
are plain digits, without separators: the speech synthesizer reads them in its own language.
A clause (the text between commas, semicolons or sentence ends) whose value is empty is left
out: the ante's clause when a level has no ante, the next level's when it is not known.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from tourney.engine import clock as clock_engine
from tourney.engine.errors import DomainError
from tourney.feed_models import Announcement
from tourney.models import Tournament

KINDS = ("level", "break", "colorup", "one_minute", "last_hand")
PLACES: dict[str, tuple[str, ...]] = {
    "level": ("level", "small", "big", "ante", "bb_ante", "minutes"),
    "break": ("minutes", "next_level"),
    "colorup": ("chips", "minutes", "next_level"),
    # the level that ends; next_level and the blinds: those of the level to come
    "one_minute": ("level", "next_level", "small", "big", "ante", "bb_ante"),
    "last_hand": ("level",),
}
DEFAULTS = {
    "level": N_(
        "Level %(level)s, blinds %(small)s – %(big)s, ante %(ante)s, big-blind ante %(bb_ante)s."
    ),
    "break": N_("Break, %(minutes)s minutes. Level %(next_level)s starts after the break."),
    "colorup": N_("We are coloring up the %(chips)s chips."),
    "one_minute": N_("One minute left in level %(level)s."),
    "last_hand": N_(
        "One minute left in level %(level)s, the last level of the day. The hands in play "
        "when the clock stops are the last hands of the day."
    ),
}
LABELS = {
    "level": gettext_lazy("A level starts"),
    "break": gettext_lazy("A break starts"),
    "colorup": gettext_lazy("Color-up (after the break's text)"),
    "one_minute": gettext_lazy("One minute left in a level"),
    "last_hand": gettext_lazy("Last hand of the day (a minute before the day's end)"),
}
TEST_TEXT = N_("Sound test. This screen announces the levels and the breaks.")
MAX_TEMPLATE = 500
RECENT_SHOWN = 5  # the free texts a display's state carries (it speaks the new ones)

MSG_UNKNOWN_KIND = N_("%(kind)s is not a kind of announcement: use one of %(known)s.")
MSG_UNKNOWN_PLACE = N_(
    "The text for “%(label)s” names an unknown place %(place)s: the known places are %(known)s."
)
MSG_BAD_PLACE = N_(
    "The text for “%(label)s” has a “%%(” that is not a place: write places as %(example)s."
)
MSG_TEMPLATE_LONG = N_("The text for “%(label)s” is at most %(n)s characters.")
MSG_TEMPLATE_NUL = N_("The text for “%(label)s” holds a character that cannot be stored.")

PLACE = re.compile(r"%\((\w+)\)s")
OPENING = re.compile(r"%\(")
CLAUSE_END = re.compile(r"(?<=[,;:.!?])\s+")


def _refuse(kind: str, msg: str, **params: Any) -> DomainError:
    return DomainError("bad_template", msg, fields={kind: msg % params}, params=params)


def check_template(kind: str, text: Any) -> str:
    """A director's template, cleaned (whitespace joined, trimmed; "" means the default), or
    DomainError ``bad_template`` naming the unknown place and the known ones."""
    if kind not in KINDS:
        params = {"kind": str(kind)[:40], "known": ", ".join(KINDS)}
        raise DomainError("bad_template", MSG_UNKNOWN_KIND, params=params)
    label = str(LABELS[kind])
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if "\x00" in text:
        raise _refuse(kind, MSG_TEMPLATE_NUL, label=label)
    text = " ".join(text.split())
    if len(text) > MAX_TEMPLATE:
        raise _refuse(kind, MSG_TEMPLATE_LONG, label=label, n=MAX_TEMPLATE)
    known = PLACES[kind]
    places = {m.start(): m.group(1) for m in PLACE.finditer(text)}
    for m in OPENING.finditer(text):
        if m.start() not in places:
            raise _refuse(kind, MSG_BAD_PLACE, label=label, example=f"%({known[0]})s")
        if places[m.start()] not in known:
            names = ", ".join(f"%({p})s" for p in known)
            place = f"%({places[m.start()]})s"
            raise _refuse(kind, MSG_UNKNOWN_PLACE, label=label, place=place, known=names)
    return text


def default_text(kind: str) -> str:
    """The default template of a kind in the active language."""
    return _(DEFAULTS[kind])


def template_of(t: Tournament, kind: str) -> str:
    """The director's template of a kind, else the default (in the active language); a stored
    template no longer valid falls back to the default, never to silence."""
    mine = t.announce_templates.get(kind) if isinstance(t.announce_templates, dict) else ""
    if mine and isinstance(mine, str):
        try:
            return check_template(kind, mine) or default_text(kind)
        except DomainError:
            pass
    return default_text(kind)


def fill(template: str, values: Mapping[str, Any]) -> str:
    """The template with its places filled in; a clause whose value is empty is left out
    (its sentence end moves to the clause before it)."""
    kept: list[str] = []
    for clause in CLAUSE_END.split(template.strip()):
        names = PLACE.findall(clause)
        if any(values.get(n) in (None, "") for n in names):
            end = clause.rstrip()[-1:] if clause.rstrip()[-1:] in ".!?" else ""
            if end and kept and kept[-1].rstrip()[-1:] not in ".!?":
                kept[-1] = kept[-1].rstrip(",;: ") + end
            continue
        kept.append(PLACE.sub(lambda m: str(values.get(m.group(1), "")), clause))
    return " ".join(kept).strip().rstrip(",;: ")


def join_words(words: Sequence[str]) -> str:
    """ "25", "25 and 100", "25, 100 and 500" in the active language."""
    words = [str(w) for w in words]
    if len(words) <= 1:
        return words[0] if words else ""
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _amount(n: int | None) -> str:
    return str(int(n)) if n else ""


def _minutes(seconds: int) -> str:
    return str(max(1, round(int(seconds) / 60)))


def _next_level(items: Sequence[Mapping], j: int) -> Mapping | None:
    return next((it for it in items[j + 1 :] if it["kind"] == "level"), None)


def _next_number(items: Sequence[Mapping], j: int) -> str:
    nxt = _next_level(items, j)
    if nxt is not None and nxt.get("number"):
        return str(nxt["number"])
    before = [it for it in items[:j] if it["kind"] == "level" and it.get("number")]
    return str(before[-1]["number"] + 1) if before else ""


def _blinds(item: Mapping | None) -> dict[str, str]:
    if item is None:
        return {"small": "", "big": "", "ante": "", "bb_ante": ""}
    return {
        "small": _amount(item.get("small_blind")),
        "big": _amount(item.get("big_blind")),
        "ante": _amount(item.get("ante")),
        "bb_ante": _amount(item.get("big_blind_ante")),
    }


def item_texts(
    templates: Mapping[str, str], items: Sequence[Mapping], j: int, *, last: bool = False
) -> dict[str, Any]:
    """What is said of ``items[j]`` (state-shaped items: kind, number, seconds, blinds,
    color_up): ``start`` when it starts, ``minute`` a minute before its end ("" for none),
    ``last`` whether that minute is the day's last hand."""
    item = items[j]
    if item["kind"] == "break":
        values = {"minutes": _minutes(item["seconds"]), "next_level": _next_number(items, j)}
        start = fill(templates["break"], values)
        if item.get("color_up"):
            chips = join_words([str(int(v)) for v in item["color_up"]])
            start += " " + fill(templates["colorup"], {**values, "chips": chips})
        return {"start": start.strip(), "minute": "", "last": False}
    number = str(item.get("number") or "")
    start = fill(
        templates["level"],
        {"level": number, "minutes": _minutes(item["seconds"]), **_blinds(item)},
    )
    if last:
        minute = fill(templates["last_hand"], {"level": number})
    elif item["seconds"] > 60:
        coming = {
            "level": number,
            "next_level": _next_number(items, j),
            **_blinds(_next_level(items, j)),
        }
        minute = fill(templates["one_minute"], coming)
    else:
        minute = ""
    return {"start": start, "minute": minute, "last": last}


def templates_of(t: Tournament) -> dict[str, str]:
    return {kind: template_of(t, kind) for kind in KINDS}


def recent(t: Tournament, limit: int = RECENT_SHOWN) -> list[Announcement]:
    """The latest free-text announcements, newest first."""
    return list(
        Announcement.objects.filter(tournament=t)
        .select_related("created_by")
        .order_by("-id")[:limit]
    )


def language_code() -> str:
    """The active language as the displays name it to the speech synthesizer ("de")."""
    code = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in dict(settings.LANGUAGES) else "en"


def speech_state(t: Tournament, state: Mapping[str, Any]) -> dict[str, Any]:
    """The display state's ``speech`` key, in the active language: the texts of each item the
    state holds (``items``, in the same order), the latest free texts, whether to speak at all
    (off: chimes only) and the test button's sentence. The day's last level is the state's
    last item when no item follows it (a flight stops there, RULES 10.2)."""
    items = state.get("items") or []
    templates = templates_of(t)
    end = len(items) - 1 if not state.get("more_items") else -1
    texts = [
        item_texts(templates, items, j, last=j == end and items[j]["kind"] == "level")
        for j in range(len(items))
    ]
    return {
        "lang": language_code(),
        "on": bool(t.announce_speech),
        "items": texts,
        "announcements": [
            {"id": a.pk, "text": a.text, "at": clock_engine.to_ms(a.created_at)} for a in recent(t)
        ],
        "test": _(TEST_TEXT),
    }


# ---------------------------------------------------------------- previews (settings page)


def state_items(items: Sequence[clock_engine.Item]) -> list[dict[str, Any]]:
    """A structure's items in the display state's shape, levels numbered."""
    out, number = [], 0
    for it in items:
        if it.kind == clock_engine.LEVEL:
            number += 1
            out.append(
                {
                    "kind": "level",
                    "number": number,
                    "seconds": it.seconds,
                    "small_blind": it.small_blind,
                    "big_blind": it.big_blind,
                    "ante": it.ante,
                    "big_blind_ante": it.big_blind_ante,
                }
            )
        else:
            out.append({"kind": "break", "seconds": it.seconds, "color_up": list(it.color_up)})
    return out


def previews(
    templates: Mapping[str, str],
    items: Sequence[clock_engine.Item],
    index: int,
    last_index: int | None = None,
) -> dict[str, str]:
    """Each kind's text as it would be said now: the level (the current one, or the next one
    on a break), the next break, the next break with a color-up (else a color-up of the
    smallest chip, as an example), one minute left in the current level and the day's last
    level (``last_index``: where the clock stops; None: the structure's end)."""
    rows = state_items(items)
    if not rows:
        return dict.fromkeys(KINDS, "")
    index = max(0, min(index, len(rows) - 1))
    end = len(rows) - 1 if last_index is None else max(0, min(last_index, len(rows) - 1))

    def find(pred, start: int = index) -> int | None:
        found = [j for j in range(start, len(rows)) if pred(rows[j])]
        return found[0] if found else None

    level = find(lambda r: r["kind"] == "level")
    brk = find(lambda r: r["kind"] == "break")
    colorup = find(lambda r: r["kind"] == "break" and r["color_up"])
    out = dict.fromkeys(KINDS, "")
    if level is not None:
        out["level"] = item_texts(templates, rows, level)["start"]
        out["one_minute"] = item_texts(templates, rows, level)["minute"]
    if brk is not None:
        values = {"minutes": _minutes(rows[brk]["seconds"]), "next_level": _next_number(rows, brk)}
        out["break"] = fill(templates["break"], values)
    if colorup is not None:
        chips = join_words([str(v) for v in rows[colorup]["color_up"]])
        values = {"minutes": _minutes(rows[colorup]["seconds"]), "chips": chips}
        values["next_level"] = _next_number(rows, colorup)
        out["colorup"] = fill(templates["colorup"], values)
    else:
        out["colorup"] = fill(templates["colorup"], {"chips": "25", "minutes": "10"})
    last = end if rows[end]["kind"] == "level" else None
    if last is not None:
        out["last_hand"] = item_texts(templates, rows, last, last=True)["minute"]
    return out
