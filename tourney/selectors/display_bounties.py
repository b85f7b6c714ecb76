"""The bounties as the public screens show them (RULES 9): the panel of the TV's clock view and
of the phone page. No writes, no query of its own: the heads come with the seating board's
query (``display._seating``) and the mystery envelopes left are on the tournament row.

What it shows is announced in the room anyway: the bounty on a player's head and the money
still in the envelopes; never who paid what.
"""

from __future__ import annotations

import heapq
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext

from tourney.core.money_text import money_whole
from tourney.engine import bounties as engine
from tourney.models import Tournament
from tourney.selectors.bounties import envelopes_of
from tourney.selectors.display_words import chips_text

BIGGEST_SHOWN = 5
# Worded in the screen's language (issue 29) when the panel is built.
TITLES = {
    Tournament.BountyKind.FIXED: N_("Bounty"),
    Tournament.BountyKind.PROGRESSIVE: N_("Biggest bounties"),
    Tournament.BountyKind.MYSTERY: N_("Mystery bounties"),
}


def biggest_heads(seats: list[tuple], limit: int = BIGGEST_SHOWN) -> list[dict[str, Any]]:
    """The biggest bounties on the heads of the players seated, (name, table, seat, bounty)
    each, biggest first (then by name). Only the seated: a player waiting for a seat has not
    played, so their bounty is the starting one."""
    top = heapq.nsmallest(limit, seats, key=lambda s: (-s[3], s[0].casefold(), s[1], s[2]))
    return [
        {"name": name, "table": table, "seat": seat, "amount": money_whole(bounty)}
        for name, table, seat, bounty in top
    ]


def bounty_panel(t: Tournament, seats: list[tuple], players_left: int) -> dict[str, Any]:
    """The bounty panel: ``heads`` (the seating board shows each player's), a ``title``,
    ``figures`` [{label, value}], the ``biggest`` heads [{name, table, seat, amount}] and a
    ``note``. Progressive (RULES 9.3): the heads grown past the starting bounty. Fixed (9.2):
    every head is the same, so that one figure. Mystery (9.4): the envelopes left and the
    money in them, the biggest envelope, the stage."""
    start = money_whole(t.bounty)
    panel: dict[str, Any] = {
        "kind": t.bounty_kind,
        "heads": t.bounty_kind != Tournament.BountyKind.MYSTERY,  # the board shows them
        "title": _(TITLES.get(t.bounty_kind, N_("Bounties"))),
        "figures": [],
        "biggest": [],
        "note": "",
    }
    if t.bounty_kind == Tournament.BountyKind.PROGRESSIVE:
        grown = [s for s in seats if s[3] > t.bounty]
        panel["biggest"] = biggest_heads(grown)
        cash = t.bounty_cash_percent
        words = {"start": start, "cash": cash, "head": 100 - cash}
        panel["note"] = (
            _("Every bounty starts at %(start)s · %(cash)s%% cash") % words
            if not grown
            else _("Start %(start)s · %(cash)s%% cash, %(head)s%% on the head") % words
        )
    elif t.bounty_kind == Tournament.BountyKind.FIXED:
        panel["figures"] = [{"label": _("On every head"), "value": start}]
        panel["note"] = _("Knock a player out, win their bounty")
    else:
        panel.update(_mystery(t, players_left))
    return panel


def _mystery(t: Tournament, players_left: int) -> dict[str, Any]:
    envelopes = envelopes_of(t)
    left = sum(envelopes.values())
    notes = []
    if envelopes:
        notes.append(_("Top envelope %(amount)s") % {"amount": money_whole(max(envelopes))})
    if players_left > t.mystery_from_players:  # RULES 9.4: none drawn before the stage
        stage = t.mystery_from_players
        notes.append(
            ngettext("from %(count)s player left", "from %(count)s players left", stage)
            % {"count": stage}
        )
    note = " · ".join(notes) or _("No envelope left")
    return {
        "figures": [
            {"label": _("Envelopes left"), "value": chips_text(left)},
            {"label": _("In envelopes"), "value": money_whole(engine.envelope_total(envelopes))},
        ],
        "note": note[:1].upper() + note[1:],
    }
