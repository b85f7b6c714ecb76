"""The Celery app. Loaded from TourneyConfig.ready() (not from the package __init__, so that
importing the pure engines under tourney/engine loads neither Django nor Celery)."""

import gc
import logging
import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")

log = logging.getLogger(__name__)

app = Celery("tourney")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.conf.beat_schedule = {
    "clock-sweep": {
        "task": "tourney.tasks.clock_sweep",
        "schedule": getattr(settings, "CLOCK_SWEEP_SECONDS", 5.0),
    },
    "hot-tables-vacuum": {
        "task": "tourney.tasks.vacuum_hot_tables",
        "schedule": getattr(settings, "VACUUM_SECONDS", 300.0),
    },
    "status-feed-sweep": {  # issue 29: the outbound status feeds
        "task": "tourney.tasks.status_feed_sweep",
        "schedule": getattr(settings, "STATUS_FEED_SWEEP_SECONDS", 2.0),
    },
    "idempotency-expire": {
        "task": "tourney.tasks.idempotency_expire",
        "schedule": getattr(settings, "IDEMPOTENCY_EXPIRE_SECONDS", 3600.0),
    },
}


def _atomic_filesystem_put(self, queue, payload, **kwargs) -> None:
    """kombu's filesystem transport (the embedded broker) creates a message file empty and
    then writes it; a consumer polling in between moves the empty file away, fails to decode
    it and the whole worker stops ("Unrecoverable error: JSONDecodeError", celery/kombu#1551):
    seen here once the sweep queued ticks every few seconds. The message is written under a
    name no consumer picks up and renamed into place, which is atomic."""
    from kombu.transport import filesystem

    name = f"{int(round(filesystem.monotonic() * 1000))}_{filesystem.uuid.uuid4()}.{queue}.msg"
    final = os.path.join(self.data_folder_out, name)
    data = filesystem.str_to_bytes(filesystem.dumps(payload))
    tmp = final + ".part"  # ".part": not "<queue>.msg" after the first dot, never consumed
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, final)
    except OSError as exc:
        raise filesystem.ChannelError(f"Cannot add file {final!r} to directory") from exc


def _patch_filesystem_transport() -> None:
    from kombu.transport import filesystem

    filesystem.Channel._put = _atomic_filesystem_put


_patch_filesystem_transport()


@worker_process_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """As in tourney/wsgi.py: what a worker process loaded at start stays out of the garbage
    collector's full passes, so a level change is never held up by one."""
    gc.freeze()


@worker_ready.connect
def _sweep_when_ready(**_kwargs) -> None:
    """A worker that starts (or restarts after a kill) holds none of the clock's ETA ticks: the
    ones it held died with it. Sweep at once rather than at the next beat: the sweep records
    what was missed and queues the ticks of the boundaries coming soon (tourney/tasks.py)."""
    try:
        app.send_task("tourney.tasks.clock_sweep")
    except Exception:  # noqa: BLE001 — any broker error; beat's sweep comes anyway
        log.warning("could not queue the clock sweep at worker start")
