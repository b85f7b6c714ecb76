"""The scheduling port: the writes queue the worker's tasks by their names, so no service
imports the Celery tasks (tourney/tasks.py, issue 21). Each call is made after commit by the
caller (``transaction.on_commit``)."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app

log = logging.getLogger(__name__)

CLOCK_TICK_TASK = "tourney.tasks.clock_tick"


def clock_tick(tournament_id: int, expected_index: int, eta: datetime) -> None:
    """Ask the worker to announce the item starting at ``eta``. A broker that is down must
    not fail the director's action: the sweep will catch the transition."""
    try:
        current_app.send_task(CLOCK_TICK_TASK, args=[tournament_id, expected_index], eta=eta)
    except Exception:  # noqa: BLE001 — any broker error; the sweep is the safety net
        log.warning("could not schedule clock tick for tournament %s", tournament_id)
