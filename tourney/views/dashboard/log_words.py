"""The event log's words (issue 29: in the active language): each event's sentence, built at
read time from its stored payload, and the log filter's labels. Also the small words the
dashboard's panels share with it: places ("1st", "12th–13th (tie)") and the clock's m:ss."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.utils.translation import gettext_noop as N_

from tourney.core.language import refusal_text
from tourney.engine import clock as clock_engine
from tourney.engine.structure import item_number_of
from tourney.views.dashboard import bounties as bounty_screens
from tourney.views.dashboard import satellite_reads


def ordinal(n: int) -> str:
    """A place as the room says it: "1st" (English), "1." (German), "1.º" (Spanish)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    # The English suffix goes in; a language writes its own ordinal around the number.
    return pgettext("ordinal place", "%(n)s%(suffix)s") % {"n": n, "suffix": suffix}


def place_words(place: int | None, place_to: int | None) -> str:
    if place is None:
        return ""
    if place_to and place_to != place:
        return _("%(first)s–%(last)s (tie)") % {"first": ordinal(place), "last": ordinal(place_to)}
    return ordinal(place)


def clock_text(ms: int) -> str:
    """What the countdown shows before the browser takes over: m:ss or h:mm:ss."""
    seconds = max(0, ms) // 1000 + (1 if ms % 1000 else 0)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _end_words(items, p: dict) -> str:
    """Where a flight now ends (RULES 10.2), for the log: "level 12 or 40 players"."""
    parts = []
    if p.get("end_at_level") is not None:
        parts.append(_item_words(items, p.get("end_at_level")))
    if p.get("end_at_players") is not None:
        parts.append(_("%(n)s players") % {"n": p["end_at_players"]})
    return _(" or ").join(parts)


def _item_words(items, index: Any) -> str:
    """A structure item as the director reads it: "level 5", "the break after level 4"
    (issue 31, live event: "item 5" meant nothing)."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        return _("item %(n)s") % {"n": index}
    if not items or not 0 <= i < len(items):
        return _("item %(n)s") % {"n": index}
    level = item_number_of(items, clock_engine.LEVEL, i)
    if items[i].kind == clock_engine.BREAK:
        return _("the break after level %(n)s") % {"n": level} if level else _("the opening break")
    return _("level %(n)s") % {"n": level}


def _entry_words(entries: dict[int, tuple[str, int]], entry_id: Any) -> str:
    """An entry named in the log: "Ann Lee (entry 2)"; the id when the row is gone."""
    row = entries.get(entry_id) if isinstance(entry_id, int) else None
    if row:
        return _("%(name)s (entry %(number)s)") % {"name": row[0], "number": row[1]}
    return _("entry %(id)s") % {"id": entry_id}


def _item_started(items, index: Any) -> str:
    """ "Level 5 started", "The break after level 4 started" (the log's clock lines)."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        i = -1
    if not items or not 0 <= i < len(items):
        return _("Item %(n)s started") % {"n": index}
    level = item_number_of(items, clock_engine.LEVEL, i)
    if items[i].kind == clock_engine.BREAK:
        if level:
            return _("The break after level %(n)s started") % {"n": level}
        return _("The opening break started")
    return _("Level %(n)s started") % {"n": level}


def _elimination_words(p: dict[str, Any]) -> str:
    places = ", ".join(place_words(x["place"], x["place_to"]) for x in p.get("places", []))
    out = _("Out: %(places)s") % {"places": places}
    if p.get("moves"):
        out += "; " + _("%(n)s move(s)") % {"n": len(p["moves"])}
    return out + bounty_screens.log_words(p.get("bounties"))


def _flight_words(p: dict[str, Any], items) -> dict[str, Any]:
    """The log's sentences for counts, bags, a flight's end and Day 2's seats."""
    t_, g = p.get("table"), p.get
    return {
        "chip_counts": lambda: _("Chip counts of %(n)s player(s)") % {"n": len(g("counts", []))},
        "bags_recorded": lambda: (
            _("Table %(table)s: %(n)s bag(s)") % {"table": t_, "n": len(g("counts", {}))}
        ),
        "flight_end_set": lambda: _("Flight's end: %(end)s") % {"end": _end_words(items, p)},
        "flight_bagged": lambda: (
            _("Flight bagged: %(chips)s chips")
            % {"chips": number_format(int(g("counted") or 0), force_grouping=True)}
        ),
        "flight_ended": lambda: (
            _("Flight ended: the field reached its number")
            if g("reason") == "players"
            else _("Flight ended: last level")
        ),
        "day2_seated": lambda: _("Day 2 seated: %(n)s stacks drawn") % {"n": g("entries")},
    }


def _event_words(kind: str, p: dict[str, Any], look: dict[str, Any] | None = None) -> str:
    """An event of the log in words, in the active language (built at read time from the
    stored payload)."""
    items = (look or {}).get("items") or []
    entries = (look or {}).get("entries") or {}
    t_, g = p.get("table"), p.get
    words = {
        "tournament_created": lambda: _("Tournament created (%(n)s tables)") % {"n": g("tables")},
        "tournament_copied": lambda: _("Copied from tournament #%(id)s") % {"id": g("source")},
        "entry_registered": lambda: (
            _("Entry #%(number)s %(name)s") % {"number": g("number"), "name": g("name", "")}
        ),
        "elimination": lambda: _elimination_words(p),
        "button_set": lambda: (
            _("Table %(table)s: button to seat %(seat)s") % {"table": t_, "seat": g("after")}
        ),
        "buttons_drawn": lambda: _("Buttons drawn (%(n)s table(s))") % {"n": len(g("buttons", {}))},
        "tables_opened": lambda: (
            _("Opened table(s) %(tables)s") % {"tables": ", ".join(map(str, g("tables", [])))}
        ),
        "table_closed": lambda: _("Table %(table)s broken") % {"table": t_},
        "break_order_set": lambda: (
            _("Break order: %(tables)s") % {"tables": ", ".join(map(str, g("after", [])))}
        ),
        "seat_availability": lambda: (
            (
                _("Table %(table)s seat %(seat)s available")
                if g("available")
                else _("Table %(table)s seat %(seat)s unavailable")
            )
            % {"table": t_, "seat": g("seat")}
        ),
        "move_manual": lambda: (
            _("Manual move of %(entry)s") % {"entry": _entry_words(entries, g("entry"))}
        ),
        "entry_reentered": lambda: (
            _("Re-entry: %(entry)s") % {"entry": _entry_words(entries, g("entry"))}
            + (", " + _("re-entry %(n)s") % {"n": p["reentry"]} if g("reentry") else "")
        ),
        "moves_announced": lambda: _("%(n)s move(s) announced") % {"n": len(g("moves", []))},
        "announced": lambda: _("Announced: %(text)s") % {"text": g("text", "")},  # issue 29
        "hand_for_hand": lambda: _("Hand for hand on") if g("on") else _("Hand for hand off"),
        "hand_for_hand_round": lambda: _("Hand-for-hand round %(n)s") % {"n": g("round")},
        "clock_adjust": lambda: (
            _("Clock %(seconds)s s") % {"seconds": f"{int(g('seconds') or 0):+d}"}
        ),
        "clock_set": lambda: (
            _("Clock set to %(time)s left") % {"time": clock_text(int(g("seconds") or 0) * 1000)}
        ),
        "clock_jump": lambda: (
            _("Clock jumped to %(item)s") % {"item": _item_words(items, g("index"))}
        ),
        "level_started": lambda: _item_started(items, g("index")),
        "break_started": lambda: _item_started(items, g("index")),
        "chip_race": lambda: (
            _("Chip race at table %(table)s: %(chip)ss") % {"table": t_, "chip": g("remove")}
        ),
        "deal_recorded": lambda: (
            _("Deal recorded (%(method)s)") % {"method": g("method")}
            + ("; " + _("the bounties in play included") if g("include_bounties") else "")
        ),
        "settings_changed": lambda: _("Settings: %(summary)s") % {"summary": g("summary", "")},
        **_flight_words(p, items),  # RULES 10.2, 10.4, 10.5, 10.8
        **satellite_reads.log_words(p),  # RULES 12: tickets, a satellite's settings and deal
    }
    fn = words.get(kind)
    if fn is not None:
        try:
            return str(fn())
        except (KeyError, TypeError, ValueError):
            pass
    plain = PLAIN_WORDS.get(kind)
    return str(plain) if plain else kind.replace("_", " ").capitalize()


# The events whose log line is their kind in plain words (the English as it always read).
PLAIN_WORDS = {
    "entry_rebuy": gettext_lazy("Entry rebuy"),
    "entry_addon": gettext_lazy("Entry addon"),
    "entry_registration_undone": gettext_lazy("Entry registration undone"),
    "alternates_seated": gettext_lazy("Alternates seated"),
    "seats_drawn": gettext_lazy("Seats drawn"),
    "clock_start": gettext_lazy("Clock start"),
    "clock_pause": gettext_lazy("Clock pause"),
    "clock_resume": gettext_lazy("Clock resume"),
    "clock_next": gettext_lazy("Clock next"),
    "clock_previous": gettext_lazy("Clock previous"),
    "color_up_finished": gettext_lazy("Color up finished"),
    "registration_closed": gettext_lazy("Registration closed"),
    "payouts_set": gettext_lazy("Payouts set"),
    "payouts_frozen": gettext_lazy("Payouts frozen"),
    "structure_set": gettext_lazy("Structure set"),
    "tournament_finished": gettext_lazy("Tournament finished"),
    "display_token_rotated": gettext_lazy("Display token rotated"),
    "undo": gettext_lazy("Undo"),
    "redo": gettext_lazy("Redo"),
}


# The event log's filter, in words (issue 31): the kinds a director filters by, as they say them.
KIND_LABELS = {
    "elimination": gettext_lazy("Eliminations"),
    "entry_registered": gettext_lazy("Registrations"),
    "entry_reentered": gettext_lazy("Re-entries"),
    "entry_rebuy": gettext_lazy("Rebuys"),
    "entry_addon": gettext_lazy("Add-ons"),
    "entry_registration_undone": gettext_lazy("Registrations undone"),
    "alternates_seated": gettext_lazy("Alternates seated"),
    "seats_drawn": gettext_lazy("Seat draw"),
    "button_set": gettext_lazy("Button moved"),
    "buttons_drawn": gettext_lazy("Buttons drawn"),
    "tables_opened": gettext_lazy("Tables opened"),
    "table_closed": gettext_lazy("Tables broken"),
    "break_order_set": gettext_lazy("Break order"),
    "seat_availability": gettext_lazy("Seats closed or reopened"),
    "move_manual": gettext_lazy("Manual moves"),
    "moves_announced": gettext_lazy("Moves announced"),
    "announced": gettext_lazy("Announcements"),  # issue 29: the displays said a free text
    "hand_for_hand": gettext_lazy("Hand for hand on/off"),
    "hand_for_hand_round": gettext_lazy("Hand-for-hand rounds"),
    "clock_start": gettext_lazy("Clock started"),
    "clock_pause": gettext_lazy("Clock paused"),
    "clock_resume": gettext_lazy("Clock resumed"),
    "clock_next": gettext_lazy("Clock: next level"),
    "clock_previous": gettext_lazy("Clock: previous level"),
    "clock_adjust": gettext_lazy("Clock: time added or removed"),
    "clock_set": gettext_lazy("Clock: time left set"),
    "clock_jump": gettext_lazy("Clock: jumped to a level"),
    "level_started": gettext_lazy("Levels started"),
    "break_started": gettext_lazy("Breaks started"),
    "color_up_finished": gettext_lazy("Color-ups"),
    "chip_race": gettext_lazy("Chip races"),
    "registration_closed": gettext_lazy("Registration closed"),
    "payouts_set": gettext_lazy("Payout table changed"),
    "payouts_frozen": gettext_lazy("Payouts frozen"),
    "deal_recorded": gettext_lazy("Deals"),
    "structure_set": gettext_lazy("Structure changed"),
    "settings_changed": gettext_lazy("Settings changed"),
    "tournament_created": gettext_lazy("Tournament created"),
    "tournament_copied": gettext_lazy("Tournament copied"),
    "tournament_finished": gettext_lazy("Tournament finished"),
    "display_token_rotated": gettext_lazy("Display link rotated"),
    "chip_counts": gettext_lazy("Chip counts"),
    "bags_recorded": gettext_lazy("Bags"),
    "flight_end_set": gettext_lazy("Flight's end changed"),
    "flight_bagged": gettext_lazy("Flight bagged"),
    "flight_ended": gettext_lazy("Flight ended"),
    "day2_seated": gettext_lazy("Day 2 seated"),
    "undo": gettext_lazy("Undo"),
    "redo": gettext_lazy("Redo"),
    **satellite_reads.KIND_LABELS,
}


def kind_label(kind: str) -> str:
    label = KIND_LABELS.get(kind)
    return str(label) if label else kind.replace("_", " ").capitalize()


# The undo's refusals (tourney/services/undo.py), marked here for the screens: the log panel
# and the undo's answer show them in the screen's language (the service keeps its English).
UNDO_MESSAGES = (
    N_("There is nothing to undo."),
    N_("There is nothing to redo."),
    N_("This action cannot be redone automatically; do it again by hand."),
)
_CANNOT_UNDO = N_(
    "The last action (%(kind)s) keeps no undo record, so the log cannot undo it or anything "
    "before it. Undo it where it was done if that screen offers an undo, or put it right "
    "by hand."
)


def undo_refusal(exc) -> str:
    """Why the log cannot undo, in the active language (the kind named as the log names it)."""
    if exc.code == "cannot_undo" and exc.fields.get("kind"):
        return _(_CANNOT_UNDO) % {"kind": exc.fields["kind"]}
    return refusal_text(exc)
