"""Chip counts during play (RULES 10.8): the director enters the counts of some players at
any time, a table or a few players at once. One action, one ``chip_counts`` event, undone
exactly by the general undo (the journal keeps the new rows' ids and undo deletes them).

A count records where the player sat when it was taken (their table and seat) and when. A
refused batch changes nothing: a player not seated at a table, a count below one chip (a
player with no chips is out), one player counted twice, or counts adding up to more than the
chips in play (RULES 5.9: they cannot all be right). The counts are shown, never used to
correct anything: the average stack stays the exact chips in play over the players still in.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tables.models import Seat
from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.engine.errors import DomainError
from tourney.models import ChipCount, Entry, Tournament
from tourney.selectors import total_chips

MSG_NO_COUNTS = N_("Give at least one player's chips.")
MSG_BAD_CHIPS = N_(
    "A chip count is a whole number of chips, at least 1 (a player with no chips is out), "
    "e.g. 25400."
)
MSG_NOT_SEATED = N_("Only a player seated at a table in this tournament can be counted.")
MSG_TOO_MANY = (
    "These counts add up to {counted:,} chips, more than the {in_play:,} in play: check them "
    "(RULES 10.8)."
)
MSG_TWICE = N_("Count each player once.")
MSG_FINISHED = N_("The tournament is over: there is nobody left to count.")
MAX_CHIPS = 10**15  # beyond any tournament's chips, within the column


def _checked(counts: Mapping[Any, Any]) -> dict[int, int]:
    """``{entry id: chips}`` as whole numbers (a key given twice, "7" and 7, is refused)."""
    out: dict[int, int] = {}
    for key, chips in (counts or {}).items():
        try:
            entry = int(key)
        except (TypeError, ValueError):
            raise DomainError(
                "not_seated", MSG_NOT_SEATED, status=409, fields={"entry": str(key)[:40]}
            ) from None
        if isinstance(chips, bool) or not isinstance(chips, int) or not 1 <= chips <= MAX_CHIPS:
            raise DomainError(
                "bad_count", MSG_BAD_CHIPS, fields={"chips": MSG_BAD_CHIPS, "entry": entry}
            )
        if entry in out:
            raise DomainError("duplicate_entry", MSG_TWICE, fields={"entry": entry})
        out[entry] = chips
    if not out:
        raise DomainError("no_counts", MSG_NO_COUNTS, fields={"counts": MSG_NO_COUNTS})
    return out


def chip_counts_record(
    *,
    tournament_id: int,
    counts: Mapping[Any, int],
    actor=None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """Record the chips of some seated players (RULES 10.8), all taken at ``now``. Returns
    the counts as written: entry, chips, table, seat, at. The latest count of each player is
    what the screens show (``tourney.selectors.chip_counts``)."""
    wanted = _checked(counts)
    at = now or timezone.now()
    # How to redo it (tourney/services/undo.py runs it again with these, at the same time).
    call = {
        "service": "chip_counts_record",
        "kwargs": {"counts": {str(e): c for e, c in wanted.items()}, "now": at.isoformat()},
    }
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_FINISHED, status=409)
        where = {
            e: (table, seat)
            for e, table, seat in Seat.objects.filter(
                tournament=t, entry_id__in=list(wanted), entry__status=Entry.Status.SEATED
            ).values_list("entry_id", "table__number", "number")
        }
        missing = sorted(set(wanted) - set(where))
        if missing:
            raise DomainError(
                "not_seated",
                MSG_NOT_SEATED,
                status=409,
                fields={"entry": missing[0], "counts": MSG_NOT_SEATED},
            )
        counted, in_play = sum(wanted.values()), total_chips(t)
        if counted > in_play:  # RULES 5.9: no stack holds more than every chip in play
            msg = MSG_TOO_MANY.format(counted=counted, in_play=in_play)
            raise DomainError(
                "more_than_in_play", msg, status=409, fields={"counts": msg, "chips": counted}
            )
        rows = ChipCount.objects.bulk_create(
            ChipCount(
                tournament=t,
                entry_id=entry,
                chips=chips,
                bag=False,
                table=where[entry][0],
                seat=where[entry][1],
                at=at,
                actor=actor if actor is not None and actor.is_authenticated else None,
            )
            for entry, chips in sorted(wanted.items(), key=lambda kv: where[kv[0]])
        )
        if j := journal_current():
            j.note_created("chipcount", [r.pk for r in rows])
        written = [
            {"entry": r.entry_id, "chips": r.chips, "table": r.table, "seat": r.seat, "at": at}
            for r in rows
        ]
        record_event(
            t,
            "chip_counts",
            {"counts": [{k: v for k, v in w.items() if k != "at"} for w in written]},
            actor,
            defer=True,
        )
    return written
