"""Celery tasks: thin and idempotent. The clock is derived from anchors in the database;
these tasks only announce what the anchors already say (an ETA task at each boundary, and a
periodic sweep that catches whatever a lost ETA task missed)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from tourney.engine.errors import DomainError
from tourney.selectors.clock import clocks_due
from tourney.selectors.status_feed import TEST, feeds_due
from tourney.services import clock_announce
from tourney.services.clock import clock_ticks_queue
from tourney.services.status_feeds import feed_claim, feed_send_once

log = logging.getLogger(__name__)


@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=0.2, max_retries=5, ignore_result=True
)
def clock_tick(tournament_id: int, expected_index: int) -> list[int]:
    """Announce the transition to ``expected_index`` (and any before it) if not yet done.
    A tick queued for a tournament deleted since (or a queue left from another database)
    has nothing to announce: it ends quietly, with a line in the log."""
    try:
        return clock_announce(tournament_id=tournament_id)
    except DomainError as exc:
        if exc.code != "not_found":
            raise
        log.info("clock tick: tournament %s no longer exists, nothing to announce", tournament_id)
        return []


# How far past the next sweep a sweep queues the clock ticks: a boundary is queued at least
# this long before it is due even when the next sweep runs this late.
SWEEP_MARGIN_SECONDS = 2.0


def sweep_horizon() -> timedelta:
    """The boundaries a sweep queues ticks for: those before the next sweep, plus a margin."""
    return timedelta(seconds=float(settings.CLOCK_SWEEP_SECONDS) + SWEEP_MARGIN_SECONDS)


@shared_task(ignore_result=True)
def clock_sweep() -> int:
    """Announce every clock's missed transitions (idempotent), and queue the ETA ticks of the
    boundaries coming before the next sweep: a worker killed and restarted lost the ticks it
    held, and nothing else would queue them again before the clock's next transition. Paused
    clocks are swept too while their own item is not yet recorded. Only the clocks with
    something due are touched (``clocks_due``, one statement): a sweep with nothing due costs
    the same at any number of events, and only a clock with a transition to record (or a
    flight's end to check) is locked (issue 30)."""
    n = 0
    now = timezone.now()
    horizon = sweep_horizon()
    due = clocks_due(now, horizon)
    for d in due:
        if not d.announce:
            continue
        try:
            n += len(clock_announce(tournament_id=d.tournament_id, schedule_within=horizon))
        except OperationalError:
            log.warning("clock sweep: tournament %s locked, next sweep will retry", d.tournament_id)
    clock_ticks_queue(due=[d for d in due if not d.announce], now=now, within=horizon)
    return n


@shared_task(ignore_result=True)
def vacuum_hot_tables() -> list[str]:
    """Upkeep of the tables every action rewrites, on a server whose autovacuum is off
    (tourney/services/maintenance.py); nothing otherwise."""
    from tourney.services.maintenance import vacuum_hot_tables as vacuum

    return vacuum()


@shared_task(ignore_result=True)
def idempotency_expire() -> int:
    """Forget the idempotency keys and form nonces past their 24 hours
    (tourney/services/maintenance.py)."""
    from tourney.services.maintenance import idempotent_requests_expire

    return idempotent_requests_expire()


# ---------------------------------------------------------------- status feeds (issue 29)

# Tries of one sending after the first, and the first wait: 2, 4, 8, 16, 32 s.
FEED_RETRIES = 5
FEED_BACKOFF_SECONDS = 2


def feed_backoff(retries: int) -> int:
    """Seconds before the next try of a sending that failed ``retries + 1`` times."""
    return FEED_BACKOFF_SECONDS * 2**retries


@shared_task(ignore_result=True)
def status_feed_sweep() -> int:
    """Queue a sending for each active feed with something to send (its tournament changed,
    or its heartbeat is due), each claimed first by a conditional UPDATE so that two sweeps
    never send the same version twice (tourney/services/status_feeds.py)."""
    now = timezone.now()
    n = 0
    for due in feeds_due(now):
        try:
            claimed = feed_claim(
                feed_id=due.feed_id,
                version=due.version,
                sent_version=due.sent_version,
                last_attempt_at=due.last_attempt_at,
                now=now,
            )
        except OperationalError:
            log.warning("status feed sweep: feed %s locked, next sweep will retry", due.feed_id)
            continue
        if not claimed:
            continue
        try:
            status_feed_send.apply_async(
                kwargs={"feed_id": due.feed_id, "event": due.event, "claim": now.isoformat()}
            )
        except Exception:  # noqa: BLE001 — any broker error: the next heartbeat sends the state
            log.warning("status feed sweep: could not queue the sending of feed %s", due.feed_id)
            continue
        n += 1
    return n


@shared_task(bind=True, ignore_result=True, max_retries=FEED_RETRIES)
def status_feed_send(self, feed_id: int, event: str = "change", claim: str | None = None):
    """POST the feed's state once; on a failure (no answer, or not a 2xx) try again with
    exponential backoff, unless a newer sending has been claimed since (it carries a newer
    state). A test is tried once. Every attempt is recorded on the feed's deliveries."""
    sent = feed_send_once(
        feed_id=feed_id, event=event, claim=claim, attempt=self.request.retries + 1
    )
    if sent.delivery is None or sent.ok or event == TEST:
        return sent.status
    if self.request.retries >= self.max_retries:
        log.info("status feed %s: gave up after %s tries", feed_id, self.request.retries + 1)
        return sent.status
    raise self.retry(countdown=feed_backoff(self.request.retries))
