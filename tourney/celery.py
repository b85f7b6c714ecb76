"""The Celery app. Loaded from TourneyConfig.ready() (not from the package __init__, so that
importing the pure engines under tourney/engine loads neither Django nor Celery)."""

import gc
import os

from celery import Celery
from celery.signals import worker_process_init
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")

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
}


@worker_process_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """As in tourney/wsgi.py: what a worker process loaded at start stays out of the garbage
    collector's full passes, so a level change is never held up by one."""
    gc.freeze()
