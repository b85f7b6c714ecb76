"""Setting a multi-day event up from the dashboard (RULES 10.1, 10.2, 10.3): the setup form
(``setup.SetupForm``: structure, chips, stack, money, tables, payouts, options) with the
event's own fields, turned into one call of ``flights.event_create``.

Readings where the rules are silent:

- The flights are typed as their letters, "A, B, C" (commas or spaces between them); each
  letter is written in capitals.
- A flight's last level is typed as the director reads the clock, "level 12" counting
  levels only; ``event_create`` takes the structure's item index (breaks included), converted
  here by ``engine.structure.item_index_of`` as the setup form's late registration is.
- A payout table typed is every flight's (RULES 10.1: one payout table), Day 2 pays it.
- The name leaves room for " Day 1" and the letters in each flight's name.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from tourney.engine.clock import LEVEL
from tourney.engine.structure import item_index_of
from tourney.models import MultiDayEvent, Tournament
from tourney.services import flights, setup

FLIGHT_LETTERS_MAX = 8
EVENT_NAME_MAX = Tournament._meta.get_field("name").max_length - len(" Day 1") - FLIGHT_LETTERS_MAX

# The service's and engine's field names → the form's.
EVENT_FIELD_ALIASES = {
    "end_at_level": "end_level",
    "last_level": "end_level",
    "end_at_players": "end_players",
    "players": "end_players",
}


class EventForm(setup.SetupForm):
    """The setup form and the event's fields; shapes and bounds only (the service decides)."""

    name = forms.CharField(max_length=EVENT_NAME_MAX)
    flights = forms.CharField(max_length=200, required=False, initial="A, B, C")
    end_level = forms.IntegerField(min_value=1, max_value=500, required=False)
    end_players = forms.IntegerField(min_value=1, max_value=100_000, required=False)
    policy = forms.ChoiceField(
        choices=MultiDayEvent.Policy.choices, initial=MultiDayEvent.Policy.LARGEST
    )
    pays_on_day1 = forms.BooleanField(required=False, initial=False)


def flight_letters(text: str) -> list[str]:
    """ "A, B, c" → ["A", "B", "C"]; empty → [] (refused by ``event_create``)."""
    return [p.upper() for p in re.split(r"[,;\s]+", text or "") if p]


def event_plan(data: dict[str, Any]) -> dict[str, Any]:
    """Everything ``event_create`` needs, from the cleaned form; raises DomainError."""
    plan = setup.setup_plan(data)
    items = plan.pop("items")
    payouts = plan.pop("payouts")
    if payouts:
        plan["options"]["payout_percentages"] = payouts
    return {
        **plan,
        "flights": flight_letters(data.get("flights") or ""),
        "policy": data["policy"],
        "pays_on_day1": bool(data.get("pays_on_day1")),
        # RULES 10.2: "level 12" → the item index of the 12th level, breaks counted
        "end_at_level": item_index_of(items, LEVEL, data.get("end_level"), field="end_level"),
        "end_at_players": data.get("end_players"),
    }


def event_setup_create(*, data: dict[str, Any], actor) -> MultiDayEvent:
    """Create the event and its flights the form describes, all or nothing (RULES 10.1)."""
    return flights.event_create(actor=actor, **event_plan(data))
