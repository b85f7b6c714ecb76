"""Guards at the edge of every request.

- ``ApiErrorShapeMiddleware``: every error answer under /api/ is in the error shape of
  docs/api.md, ``{"error": {"code", "message", "fields"}}``, even those no API view wrote
  (an unknown path's 404, a wrong method's 405, a body too big to read). A request that
  failed because the database could not be reached (a restart, a lost connection) is a 503
  ``database_unavailable`` with ``Retry-After``, not a 500: nothing was written (the
  transaction never committed) and the same request may be sent again.
- ``RejectNulMiddleware``: a NUL character in the path, the query, a form field or a JSON
  string is refused with a 400 before any view runs. PostgreSQL text cannot hold NUL (psycopg
  raises a DataError: a 500), SQLite would store it silently; no name or note ever needs one.
- ``IdempotencyMiddleware``: a write sent twice is done once (tourney/core/idempotency.py):
  an API write with an ``Idempotency-Key`` header, a form posted with its one-time ``nonce``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse, QueryDict
from django.utils.html import format_html

from tourney.core import idempotency
from tourney.engine.errors import DomainError
from tourney.models import IdempotentRequest
from tourney.tokens import token_user

API_PREFIX = "/api/"
NUL = "\x00"
MSG_NUL = "Text may not contain NUL characters."

# The codes an HTTP status gets when nothing more precise is known (docs/api.md: 400 bad input,
# 401 no or bad credentials, 403, 404, 409 the state forbids it).
STATUS_CODES = {
    400: "bad_input",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    429: "too_many_requests",
}
STATUS_MESSAGES = {
    400: "The request is not valid.",
    401: "Log in or send a valid API token (Authorization: Bearer <token>).",
    403: "Your role does not allow this.",
    404: "Not found.",
    405: "This path does not accept that method.",
    409: "The state of the tournament forbids this.",
    413: "The request is too large.",
    429: "Too many requests.",
}


def error_code_for(status: int) -> str:
    if status in STATUS_CODES:
        return STATUS_CODES[status]
    return "server_error" if status >= 500 else f"http_{status}"


def error_response(status: int, code: str, message: str, fields: dict | None = None):
    return JsonResponse(
        {"error": {"code": code, "message": message, "fields": fields or {}}}, status=status
    )


def _is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


MSG_DATABASE_UNAVAILABLE = (
    "The database cannot be reached for a moment; nothing was changed. Send the same request "
    "again in a few seconds."
)
RETRY_AFTER_SECONDS = "2"


@receiver(got_request_exception)
def _note_database_unavailable(sender, request=None, **kwargs) -> None:
    """Django calls this inside its ``except`` for an exception no view handled: mark the
    request when that exception is the database being unreachable."""
    exc = sys.exc_info()[1]
    if request is not None and isinstance(exc, OperationalError | InterfaceError):
        request.database_unavailable = True


def _database_unavailable(request) -> HttpResponse:
    if _is_api(request):
        response = error_response(503, "database_unavailable", MSG_DATABASE_UNAVAILABLE)
    else:
        response = HttpResponse(
            format_html(
                "<!doctype html><html lang=en><meta charset=utf-8><title>One moment</title>"
                "<h1>One moment</h1><p>{}</p></html>",
                MSG_DATABASE_UNAVAILABLE.replace("Send the same request", "Reload the page"),
            ),
            status=503,
            content_type="text/html; charset=utf-8",
        )
    response["Retry-After"] = RETRY_AFTER_SECONDS
    return response


class ApiErrorShapeMiddleware:
    """Under /api/, a 4xx/5xx answer that is not JSON is rewritten into the docs/api.md shape;
    anywhere, a 500 caused by an unreachable database is a 503 (the module doc)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "database_unavailable", False):
            return _database_unavailable(request)
        if response.status_code < 400 or not _is_api(request):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response  # an API view's own error, already shaped
        status = response.status_code
        message = STATUS_MESSAGES.get(status, "The server could not answer this request.")
        if status == 405 and response.has_header("Allow"):
            message = f"{message} Allowed: {response['Allow']}."
        shaped = error_response(status, error_code_for(status), message)
        if response.has_header("Allow"):
            shaped["Allow"] = response["Allow"]
        return shaped


def _nul_in_json(value: Any, where: str) -> str | None:
    """The path (``players.0.name``) of the first string or key holding a NUL, if any."""
    if isinstance(value, str):
        return (where or "body") if NUL in value else None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        path = f"{where}.{key}" if where else str(key)
        if isinstance(key, str) and NUL in key:
            return path
        found = _nul_in_json(item, path)
        if found:
            return found
    return None


def _nul_field(request) -> str | None:
    """Where the request carries a NUL (a field name, "path" or "body"), or None."""
    if NUL in request.path_info or NUL in request.path:
        return "path"
    for key, values in request.GET.lists():
        if NUL in key or any(NUL in v for v in values):
            return key
    content_type = request.content_type or ""
    form = None
    if request.method == "POST" and content_type in (
        "multipart/form-data",
        "application/x-www-form-urlencoded",
    ):
        form = request.POST  # form fields only: the files of an upload are the view's to judge
    elif content_type == "application/x-www-form-urlencoded":
        form = QueryDict(request.body)  # Django parses request.POST for a POST only
    if form is not None:
        for key, values in form.lists():
            if NUL in key or any(NUL in v for v in values):
                return key
        return None
    body = request.body
    if b"\x00" in body:
        return "body"
    if b"\\u0000" in body:  # JSON carries a NUL only escaped; "\\u0000" is a backslash
        try:
            return _nul_in_json(json.loads(body), "")
        except ValueError:
            return None  # not JSON: the view refuses it as such
    return None


class RejectNulMiddleware:
    """A NUL anywhere in a request's text gets a 400 and changes nothing (no view runs)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = _nul_field(request)
        if field is None:
            return self.get_response(request)
        if _is_api(request):
            return error_response(400, "bad_input", MSG_NUL, {field: MSG_NUL})
        return HttpResponse(
            "<!doctype html><html lang=en><meta charset=utf-8><title>Bad request</title>"
            "<h1>Bad request</h1><p>The request contains a NUL character (\\0), which no "
            "text may hold. Nothing was changed; go back and type it again.</p></html>",
            status=400,
            content_type="text/html; charset=utf-8",
        )


class LanguageMiddleware:
    """After Django's ``LocaleMiddleware`` (the chosen language's cookie, else the browser's
    Accept-Language): a URL's ``?lang=de`` (one of settings.LANGUAGES) wins for that request,
    so that a display or a phone page can speak another language than the director's; the
    API answers in English whatever is asked (docs/api.md's messages, read by other tools).
    After the answer the thread's language is put back to the site's."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        from django.utils import translation

        wanted = "en" if _is_api(request) else url_language(request)
        if wanted:
            translation.activate(wanted)
            request.LANGUAGE_CODE = wanted
        try:
            response = self.get_response(request)
            # the language the answer was written in (set before the thread forgets it)
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            # no thread keeps the language of its last request (a task or a test after it
            # speaks the site's language, as LocaleMiddleware would choose it again anyway)
            translation.deactivate()


def url_language(request) -> str:
    """The language a URL asks for with ``?lang=`` ("" when none, or not a shipped one)."""
    from django.conf import settings

    asked = (request.GET.get("lang") or "").strip().lower()
    return asked if asked in dict(settings.LANGUAGES) else ""


class TournamentZoneMiddleware:
    """Times on a tournament's screens (the log, seat cards, printouts, the phone page) are
    printed in the card room's zone (``Tournament.time_zone``, issue 31): the views that load
    a tournament activate its zone (``Tournament.activate_zone``, no extra query); this puts
    the server's zone back after every request, so that no thread keeps another's."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            from django.utils import timezone

            timezone.deactivate()


API_WRITE_PREFIX = "/api/v1/"
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
KEY_HEADER = "Idempotency-Key"
NONCE_FIELD = "nonce"
# Form fields that differ between two sendings of the same form: not part of its identity.
NOT_HASHED = (NONCE_FIELD, "csrfmiddlewaretoken")


def _api_user(request):
    """Who sends an API write: the bearer token's user, else the session's (None: nobody,
    and the view answers 401 as usual)."""
    kind, _, token = request.headers.get("Authorization", "").partition(" ")
    if kind.lower() == "bearer":
        return token_user(token.strip())
    return request.user if request.user.is_authenticated else None


def _refusal(request, exc: DomainError, api: bool):
    if api:
        return error_response(exc.status, exc.code, exc.message, exc.fields)
    return HttpResponse(
        format_html(
            '<p class="error" role="alert" data-code="{}">{} Reload the page to see what was '
            "saved.</p>",
            exc.code,
            exc.message,
        ),
        status=exc.status,
        content_type="text/html; charset=utf-8",
    )


def _answer_of(response) -> idempotency.Answer:
    if hasattr(response, "render") and not response.is_rendered:
        response.render()  # inside the transaction: what is stored is what was sent
    content = b"".join(response) if response.streaming else response.content
    if response.streaming:
        response.streaming_content = [content]
    headers = {h: response[h] for h in idempotency.STORED_HEADERS if response.has_header(h)}
    return idempotency.Answer(response.status_code, content, headers, live=response)


def _replay(answer: idempotency.Answer) -> HttpResponse:
    response = HttpResponse(answer.content, status=answer.status)
    for name, value in answer.headers.items():
        response[name] = value
    response[idempotency.REPLAYED_HEADER] = "true"
    return response


class IdempotencyMiddleware:
    """A write under /api/v1/ with an ``Idempotency-Key`` header, or a screen's form posted
    with its ``nonce``, runs once per user and key: the view runs inside the transaction that
    stores the key and its answer, and a repeat gets that answer again with
    ``Idempotent-Replayed: true`` (docs/api.md, "Idempotency"). Requests without a key, or
    from nobody logged in, pass untouched. After CsrfViewMiddleware: a request it refuses
    never stores a key."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method not in WRITE_METHODS:
            return None
        api = request.path_info.startswith(API_WRITE_PREFIX)
        if api:
            key = request.headers.get(KEY_HEADER)
            if key is None:
                return None
            user = _api_user(request)
            body: bytes | list[tuple[str, str]] = request.body
        else:
            if request.method != "POST" or _is_api(request) or NONCE_FIELD not in request.POST:
                return None
            key = request.POST[NONCE_FIELD]
            user = request.user if request.user.is_authenticated else None
            body = [(k, v) for k, vs in request.POST.lists() if k not in NOT_HASHED for v in vs]
            body += [(f"file:{k}", f"{f.name}:{f.size}") for k, f in request.FILES.items()]
        if user is None:
            return None  # the view refuses it (401, or the login page)
        scope = IdempotentRequest.Scope.API if api else IdempotentRequest.Scope.FORM

        def run() -> idempotency.Answer:
            return _answer_of(view_func(request, *view_args, **view_kwargs))

        try:
            answer = idempotency.run_once(
                user_id=user.pk,
                scope=scope,
                key=key,
                fingerprint=idempotency.request_hash(request.method, request.get_full_path(), body),
                run=run,
            )
        except DomainError as exc:
            return _refusal(request, exc, api)
        return _replay(answer) if answer.replayed else answer.live
