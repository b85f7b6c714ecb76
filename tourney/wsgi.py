import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
application = get_wsgi_application()
# Everything loaded so far (Django, the app, its modules) lives as long as the process: keep
# it out of the garbage collector's full passes, which otherwise stall a request now and then
# for tens of milliseconds (docs/performance.md).
gc.freeze()
