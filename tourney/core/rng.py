"""The recorded draws (RULES 1.1): a fresh seed per draw, replayable from the tournament's
seed and draw counter."""

from __future__ import annotations

import hashlib
import random

from tourney.core.journal import current as journal_current
from tourney.models import Tournament


def next_rng(t: Tournament, *, write: bool = True) -> tuple[random.Random, int]:
    """A fresh, recorded seed per draw (RULES 1.1): replayable from (rng_seed, counter).
    ``write=False`` outside a journal: the caller writes ``t.draw_counter`` (e.g. with its
    event, ``record_event(also=…)``)."""
    j = journal_current()
    mine = j is not None and j.tournament_id == t.pk
    # The counter never goes back, even for a copy of the row read before a nested service.
    t.draw_counter = max(t.draw_counter, (j.draw_counter or 0) if mine else 0) + 1
    digest = hashlib.sha256(f"{t.rng_seed}:{t.draw_counter}".encode()).digest()
    seed = int.from_bytes(digest[:8], "big") >> 1
    if mine:
        j.draw_counter, j.draw_counter_dirty = t.draw_counter, True  # written at the end
    elif write:
        Tournament.objects.filter(pk=t.pk).update(draw_counter=t.draw_counter)
    return random.Random(seed), seed
