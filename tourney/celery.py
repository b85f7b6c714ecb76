"""The Celery app. Loaded from TourneyConfig.ready() (not from the package __init__, so that
importing the pure engines under tourney/engine loads neither Django nor Celery)."""

import os

from celery import Celery
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
}
