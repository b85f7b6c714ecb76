"""The public screens' clock in words (the TV, the phone page, the lobby's cards), in the
active language (issue 29): the first frame the server renders and the page without
JavaScript; static/js/display.js and lobby.js word it the same way as they count down, from
the strings the page hands them (``tourney.views.display.screen_strings``)."""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def duration_display(ms: int | None) -> str:
    """A countdown as the TV shows it: M:SS, or H:MM:SS from an hour up. Seconds round up, so
    0:00 shows only at the boundary itself (the browser formats the same way)."""
    if ms is None:
        return ""
    seconds = max(0, -(-int(ms) // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def chips_text(value: int) -> str:
    """A number of chips with the active language's thousands separator, as its money is
    written (Django's locale formats: "12,500", German "12.500"); display.js groups the same
    way with the separator the page hands it."""
    return f"{value:,}".replace(",", str(formats.get_format("THOUSAND_SEPARATOR")))


def blinds_text(item: dict[str, Any] | None) -> str:
    if not item or item["kind"] != "level":
        return ""
    return f"{chips_text(item['small_blind'])} / {chips_text(item['big_blind'])}"


def ante_text(item: dict[str, Any] | None) -> str:
    if not item or item["kind"] != "level":
        return ""
    if item["big_blind_ante"]:
        return _("BB ante %(chips)s") % {"chips": chips_text(item["big_blind_ante"])}
    if item["ante"]:
        return _("Ante %(chips)s") % {"chips": chips_text(item["ante"])}
    return _("No ante")


def color_up_text(item: dict[str, Any] | None, chips: dict[str, str]) -> str:
    if not item or item["kind"] != "break" or not item["color_up"]:
        return ""
    names = []
    for value in item["color_up"]:
        color = chips.get(str(value), "")
        # "the green 25s": the chips of a value with their colour, as the room says them
        words = {"color": color, "chips": chips_text(value)}
        names.append(
            pgettext("color-up: a colour and a chip value", "%(color)s %(chips)ss") % words
            if color
            else pgettext("color-up: a chip value", "%(chips)ss") % words
        )
    together = (
        names[0]
        if len(names) == 1
        else _("%(chips)s and %(last)s")
        % {
            "chips": ", ".join(names[:-1]),
            "last": names[-1],
        }
    )
    return _("Color-up: the %(chips)s leave play") % {"chips": together}


def level_title(item: dict[str, Any] | None) -> str:
    """The title of the clock's item: "Level 4", "Break"."""
    if item is None:
        return ""
    if item["kind"] == "break":
        return _("Break")
    return _("Level %(number)s") % {"number": item["number"]}


def next_text(item: dict[str, Any] | None) -> str:
    if not item:
        return _("Last level")
    if item["kind"] == "break":
        return _("Break · %(duration)s") % {"duration": duration_display(item["seconds"] * 1000)}
    ante = ante_text(item)
    return blinds_text(item) + (f" · {ante}" if ante != _("No ante") else "")


def clock_words(state: dict[str, Any]) -> dict[str, str]:
    """The server-rendered first frame (and the phone page without JavaScript), in the active
    language; static/js/display.js formats the same way as it counts down."""
    items = state["items"]
    cur = items[0] if items else None
    nxt = items[1] if len(items) > 1 else None
    status = state["status"]
    notes = {
        "not_started": _("Starting soon"),
        "paused": _("Paused"),
        # RULES 10.2: a day of a multi-day event stops; the tournament goes on another day.
        "finished": _("Day over") if "flight" in state else _("Tournament complete"),
    }
    return {
        "title": level_title(cur),
        "blinds": blinds_text(cur),
        "ante": ante_text(cur),
        "countdown": duration_display(state["remaining_ms"]) if status != "finished" else "0:00",
        "next": _("Bag and tag") if state.get("flight", {}).get("over") else next_text(nxt),
        "to_break": duration_display(state["ms_to_next_break"])
        if state["ms_to_next_break"] is not None
        else "–",
        "color_up": color_up_text(cur, state["chips"]),
        "note": notes.get(status, ""),
        "average_stack": chips_text(state["average_stack"]),
    }
