from django.apps import AppConfig


class TourneyConfig(AppConfig):
    name = "tourney"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from . import celery  # noqa: F401  (binds @shared_task to our app)
