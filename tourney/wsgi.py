import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
django_application = get_wsgi_application()

from tourney.polls_wsgi import PolledStates  # noqa: E402 - needs the apps loaded above

# The polls of the public states a worker can answer from its own copies are answered before
# Django's middleware (tourney/polls_wsgi.py); the copies are kept only where gunicorn.conf.py
# switches them on (selectors/polled.py), else every request goes to Django.
application = PolledStates(django_application)
# Everything loaded so far (Django, the app, its modules) lives as long as the process: keep
# it out of the garbage collector's full passes, which otherwise stall a request now and then
# for tens of milliseconds (docs/performance.md).
gc.freeze()
