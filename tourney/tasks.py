"""Celery tasks: thin and idempotent. The clock is derived from anchors in the database;
these tasks only announce what the anchors already say (an ETA task at each boundary, and a
periodic sweep that catches whatever a lost ETA task missed)."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.db import OperationalError

from tourney.models import Tournament
from tourney.services import clock_announce

log = logging.getLogger(__name__)


def schedule_clock_tick(tournament_id: int, expected_index: int, eta: datetime) -> None:
    """Ask the worker to announce the item starting at ``eta``. A broker that is down must
    not fail the director's action: the sweep will catch the transition."""
    try:
        clock_tick.apply_async(args=[tournament_id, expected_index], eta=eta)
    except Exception:  # noqa: BLE001 — any broker error; the sweep is the safety net
        log.warning("could not schedule clock tick for tournament %s", tournament_id)


@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=0.2, max_retries=5, ignore_result=True
)
def clock_tick(tournament_id: int, expected_index: int) -> list[int]:
    """Announce the transition to ``expected_index`` (and any before it) if not yet done."""
    return clock_announce(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def clock_sweep() -> int:
    """Announce every running clock's missed transitions (idempotent)."""
    n = 0
    for tid in (
        Tournament.objects.filter(clock_running=True)
        .exclude(status=Tournament.Status.FINISHED)
        .values_list("pk", flat=True)
    ):
        try:
            n += len(clock_announce(tournament_id=tid))
        except OperationalError:
            log.warning("clock sweep: tournament %s locked, next sweep will retry", tid)
    return n


@shared_task(ignore_result=True)
def vacuum_hot_tables() -> list[str]:
    """Upkeep of the tables every action rewrites, on a server whose autovacuum is off
    (tourney/maintenance.py); nothing otherwise."""
    from tourney.maintenance import vacuum_hot_tables as vacuum

    return vacuum()
