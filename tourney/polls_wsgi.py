"""The polled public states' answers from a worker's own copies, before Django's middleware
(issue 30: a thousand screens polling once a second on two workers).

Most polls of the TV display's and the lobby's state are answered "unchanged" (304), and
after a change each screen fetches the same new state. Through Django's whole stack (security,
sessions, languages, CSRF, authentication, messages, the CSP: eighteen middleware and the URL
resolver) one such answer costs a worker about 0.3 ms of CPU, of which the view is a tenth
(benchmarks/display.py, docs/performance.md). ``PolledStates`` wraps the WSGI application
and answers a poll itself only when it can answer exactly as Django would:

* a GET of ``/display/<token>/state.json`` or ``/lobby/<token>/state.json`` (the paths
  ``reverse`` gives), with no query but ``?lang=`` naming a shipped language, for an allowed
  host (``get_host``), over HTTPS where ``SECURE_SSL_REDIRECT`` asks for it;
* the worker holds a fresh copy of the token's version (``selectors.polled``, filled only by
  Django's own answers), or one another thread is reading anew;
* the screen's language is the one the views would choose: ``?lang=``, else the
  tournament's (the display), else what ``LocaleMiddleware`` takes from the request
  (``get_language_from_request``);
* the answer is a 304 (``is_current`` of the selectors) or the bytes of a state the worker
  already holds (``polled.held``);
* Django has already sent an answer of that kind, status, language and scheme: this one
  carries the same headers (the security headers, the CSP, Vary, Content-Language: learnt
  from it, never written here), with its own ETag, Content-Length, X-Server-Time and
  Server-Timing. A learnt answer that set a cookie is never a model.

Everything else (a wrong token, a first poll, a cold or stale copy, another method) goes to
Django untouched.
"""

from __future__ import annotations

import re
import time

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest
from django.urls import reverse
from django.utils import translation

from tourney.selectors import display as public
from tourney.selectors import lobby as lobby_reads
from tourney.selectors import polled

# Headers each answer writes itself; every other comes from the answer learnt.
OWN_HEADERS = {"etag", "content-length", "x-server-time", "server-timing"}
LANG_QUERY = re.compile(r"lang=([A-Za-z-]{2,7})")
STATUS = {304: "304 Not Modified", 200: "200 OK"}


class PolledStates:
    """The WSGI application ``app`` with the polls it can answer alone answered (the module's
    readings)."""

    def __init__(self, app) -> None:
        self.app = app
        self.kinds = None  # (path pattern, kind, is_current, spoken), once the URLs load
        self.learnt: dict[tuple, list[tuple[str, str]]] = {}

    def _kinds(self):
        if self.kinds is None:
            token = "T0KEN"
            kinds = []
            for name, reads in (
                ("tourney-display-state", public),
                ("tourney-lobby-state", lobby_reads),
            ):
                before, after = reverse(name, args=[token]).split(token)
                pattern = re.compile(
                    re.escape(before) + r"([A-Za-z0-9_-]{1,64})" + re.escape(after)
                )
                kinds.append((pattern, reads.POLLED_KIND, reads.is_current, reads.spoken))
            self.kinds = kinds
        return self.kinds

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        if environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        path = environ.get("PATH_INFO", "")
        found = [(m, rest) for pattern, *rest in self._kinds() if (m := pattern.fullmatch(path))]
        if not found:
            return self.app(environ, start_response)
        match, (kind, is_current, spoken) = found[0]
        token = match.group(1)
        answer = self._answer(environ, kind, token, is_current, spoken)
        if answer is None:
            return self.app(environ, self._learner(kind, environ, start_response))
        status, key, etag, content = answer
        headers = list(self.learnt[key])
        ms = (time.perf_counter() - started) * 1000
        headers += [
            ("ETag", etag),
            ("Content-Length", str(len(content))),
            ("X-Server-Time", str(public.server_time_ms())),
            ("Server-Timing", f'app;dur={ms:.2f};desc="copy"'),
        ]
        start_response(STATUS[status], headers)
        return [content]

    def _answer(self, environ, kind, token, is_current, spoken):
        """(status, learnt key, ETag, body) when this poll can be answered here, else None."""
        found = polled.held_version(kind, token)
        if found is None:
            return None
        request = WSGIRequest(environ)
        try:
            request.get_host()
        except DisallowedHost:
            return None
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None
        code = _language(environ, request, found if kind == public.POLLED_KIND else None)
        if code is None:
            return None
        with translation.override(code):
            version = spoken(found)
        scheme = request.scheme
        if is_current(environ.get("HTTP_IF_NONE_MATCH", ""), version):
            key = (kind, 304, code, scheme)
            return (304, key, version.etag, b"") if key in self.learnt else None
        key = (kind, 200, code, scheme)
        body = polled.held_body(kind, token, version.etag)
        if body is None or key not in self.learnt:
            return None
        return 200, key, body.etag, body.content

    def _learner(self, kind, environ, start_response):
        """``start_response`` that keeps the headers of Django's answer as the model for this
        kind, status, language and scheme."""
        scheme = WSGIRequest(environ).scheme  # as _answer reads it (SECURE_PROXY_SSL_HEADER)

        def learn(status, headers, exc_info=None):
            code = int(status.split(" ", 1)[0])
            names = {name.lower(): value for name, value in headers}
            if code in STATUS and "set-cookie" not in names and "etag" in names:
                language = names["etag"].strip('"').rsplit(".", 1)[-1]
                kept = [(n, v) for n, v in headers if n.lower() not in OWN_HEADERS]
                self.learnt[(kind, code, language, scheme)] = kept
            return start_response(status, headers, exc_info)

        return learn


def _language(environ, request, version) -> str | None:
    """The screen's language as the views would choose it, "en"; None when the query says
    more than ``lang=`` (Django answers those)."""
    query = environ.get("QUERY_STRING", "")
    if query:
        match = LANG_QUERY.fullmatch(query)
        if match is None:
            return None
        asked = match.group(1).lower()
        if asked in dict(settings.LANGUAGES):
            return asked
    if version is not None and version.language in dict(settings.LANGUAGES):
        return version.language
    return translation.get_language_from_request(request).split("-")[0].lower()
