"""Every write to a tournament, one module per domain: tournaments, clock, entries,
eliminations, money, colorup, desk, setup, tournament_settings, undo, accounts, maintenance.
One function per action, each in one transaction that first locks the tournament row
(tourney.core.locking), so all writers of one tournament are serialised in one order; each
records an Event (the audit log). Rules come from the pure engines.

This module only re-exports the services of tournaments, clock, entries and eliminations, so
``services.entry_register(...)`` reads as before. The domain modules import each other
directly, never through this package (no import cycle)."""

from __future__ import annotations

from tourney.services.clock import (
    CLOCK_ACTIONS,
    MAX_SWEEP_TICKS,
    MSG_BAD_CLOCK_ACTION,
    clock_action,
    clock_announce,
)
from tourney.services.eliminations import (
    BUST_SQL,
    MSG_DUPLICATE_ENTRY,
    MSG_ENTRY_NOT_SEATED,
    MSG_NO_BUSTS,
    MSG_STACK_IN_H4H,
    MSG_STACKS_NEEDED,
    elimination_record,
    hand_for_hand_next_round,
    hand_for_hand_set,
    places_provisional,
    tournament_end,
)
from tourney.services.entries import (
    ENTRY,
    LAG_STEP_SQL,
    LAG_STEP_SUMMARY,
    MSG_ENTRY_NOT_FOUND,
    MSG_NAME_CONTROL,
    MSG_NAME_REQUIRED,
    MSG_NAME_TOO_LONG,
    MSG_PLAYER_STILL_IN,
    MSG_REGISTER_FINISHED,
    MSG_REGISTRATION_CLOSED,
    NEXT_NUMBER_SQL,
    PLACES_SETTLE_SQL,
    entry_add,
    entry_reenter,
    entry_register,
    place_lag_step,
    places_settle,
    registration_close,
)
from tourney.services.tournaments import (
    DEFAULT_CHIPS,
    MSG_LEVELS_CHANGE_STARTED,
    MSG_STRUCTURE_PAST,
    MSG_STRUCTURE_PROBLEMS,
    MSG_TOO_MANY_TABLES,
    structure_set,
    tournament_create,
)

__all__ = [
    "DEFAULT_CHIPS",
    "MSG_TOO_MANY_TABLES",
    "MSG_LEVELS_CHANGE_STARTED",
    "tournament_create",
    "MSG_STRUCTURE_PAST",
    "MSG_STRUCTURE_PROBLEMS",
    "structure_set",
    "MAX_SWEEP_TICKS",
    "CLOCK_ACTIONS",
    "MSG_BAD_CLOCK_ACTION",
    "clock_action",
    "clock_announce",
    "MSG_ENTRY_NOT_FOUND",
    "MSG_NAME_REQUIRED",
    "MSG_NAME_TOO_LONG",
    "MSG_NAME_CONTROL",
    "MSG_PLAYER_STILL_IN",
    "MSG_REGISTRATION_CLOSED",
    "MSG_REGISTER_FINISHED",
    "entry_register",
    "entry_add",
    "ENTRY",
    "NEXT_NUMBER_SQL",
    "LAG_STEP_SQL",
    "LAG_STEP_SUMMARY",
    "place_lag_step",
    "PLACES_SETTLE_SQL",
    "places_settle",
    "entry_reenter",
    "registration_close",
    "MSG_ENTRY_NOT_SEATED",
    "MSG_DUPLICATE_ENTRY",
    "MSG_NO_BUSTS",
    "MSG_STACKS_NEEDED",
    "MSG_STACK_IN_H4H",
    "places_provisional",
    "elimination_record",
    "tournament_end",
    "BUST_SQL",
    "hand_for_hand_set",
    "hand_for_hand_next_round",
]
