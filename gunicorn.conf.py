"""gunicorn's settings for `make run` (the Procfile's web process) and a card room.

`make run` serves with gunicorn and WhiteNoise, not Django's development server, whose own
documentation says it is not for production: a home game is production for its players.

- ``PORT`` (default 8000) and ``HOST`` (default 127.0.0.1; 0.0.0.0 lets the players' phones
  on the laptop's network reach it);
- ``WEB_CONCURRENCY`` worker processes: by default 1 on SQLite (one process keeps the
  in-memory cache whole; its threads serve the desks and screens), 2 on PostgreSQL;
- ``WEB_THREADS`` threads a worker (default 8): the displays and phones poll every few seconds.

Each worker keeps its own copies of the polled public states and answers most polls from them
before Django's middleware (``post_worker_init``; issue 30: 1,000 screens on two workers,
benchmarks/display.py). After a backup's download or a restore a worker gives the memory the
document took back to the system (``post_request``, tourney/core/memory.py).
"""

import os

_sqlite = os.environ.get("DATABASE_URL", "sqlite").startswith("sqlite")

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or (1 if _sqlite else 2))
threads = int(os.environ.get("WEB_THREADS") or 8)
worker_class = "gthread"
timeout = 60
graceful_timeout = 10
keepalive = 5
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
wsgi_app = "tourney.wsgi:application"


def post_worker_init(worker):
    """Each worker keeps its own copies of the polled public states (the TV display's, the
    lobby's) and answers the polls it can from them (tourney/selectors/polled.py,
    tourney/polls_wsgi.py): a thousand screens polling once a second (issue 30)."""
    from tourney.selectors import polled

    polled.enable()


def post_request(worker, req, environ, resp):
    """After a request that built a whole tournament's document (a backup, a restore), the
    memory it freed goes back to the system: a worker stays near its usual size."""
    from tourney.core.memory import BIG_REQUESTS, release_memory

    if environ.get("PATH_INFO", "").endswith(BIG_REQUESTS):
        release_memory()
