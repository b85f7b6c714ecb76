"""JSON API v1 (docs/api.md is the contract). Thin: authenticate, validate the schema,
call one service or engine, shape the answer. The OpenAPI document is /api/v1/openapi.json."""

from __future__ import annotations

from django.http import Http404
from ninja import NinjaAPI, Router
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from tourney.api import (
    accounts,
    announcements,
    audit,
    bounties,
    chip_counts,
    clock,
    colorup,
    desk_events,
    feeds,
    flights,
    floor,
    leagues,
    lobbies,
    money,
    players,
    results,
    room,
    satellites,
    seating,
    structure,
    structure_files,
    tournaments,
)
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import ERROR_SCHEMA, ERROR_STATUSES, MSG_UNAUTHORIZED, error_body
from tourney.engine.errors import DomainError
from tourney.middleware import error_code_for

# One router per domain, in this order: it is the order of the OpenAPI document's paths.
ROUTERS = (
    floor,
    tournaments,
    seating,
    clock,
    results,
    structure,
    audit,
    accounts,
    colorup,
    money,
    bounties,
    chip_counts,
    flights,
    players,
    leagues,
    room,
    desk_events,
    satellites,  # issue 28: satellites and their tickets (RULES 12)
    lobbies,  # issue 28: lobby displays, several events at once
    feeds,  # issue 29: status feeds (outbound webhooks)
    structure_files,  # issue 29: structure files (docs/structure-files.md)
    announcements,  # issue 29: what the displays say
)
# The two routers that had modules of their own before the API became a package keep their
# module in the operation ids ("tourney_api_money_deal_get"); the others' ids name the view
# alone, as when they were all in tourney/api.py ("tourney_api_clock_get").
OPERATION_ID_MODULES = ("colorup", "money")


class TourneyAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        """Ninja's document, with the docs/api.md error answers declared for every operation."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        for operations in schema["paths"].values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, words in ERROR_STATUSES.items():
                    responses.setdefault(status, {"description": words, **ref})
        return schema

    def get_openapi_operation_id(self, operation) -> str:
        """The operation ids as before the split, so that generated clients keep their names."""
        module = operation.view_func.__module__.rsplit(".", 1)[-1]
        name = operation.view_func.__name__
        if module in OPERATION_ID_MODULES:
            return f"tourney_api_{module}_{name}"
        return f"tourney_api_{name}"


api = TourneyAPI(
    title="Tourney API",
    version="1",
    description="Poker tournament director: see docs/api.md for the contract.",
    auth=api_auth.ANY,
    docs_url=None,  # the Swagger page loads from a CDN; the venue may be offline
    urls_namespace="api-v1",
    default_router=Router(**out.ROUTER_OPTIONS),
)


def _error(request, status: int, code: str, message: str, fields: dict | None = None):
    return api.create_response(request, error_body(code, message, fields), status=status)


@api.exception_handler(DomainError)
def _domain_error(request, exc: DomainError):
    return _error(request, exc.status, exc.code, exc.message, exc.fields)


@api.exception_handler(AuthenticationError)
def _auth_error(request, exc):
    return _error(request, 401, "unauthorized", MSG_UNAUTHORIZED)


@api.exception_handler(NinjaValidationError)
def _validation_error(request, exc: NinjaValidationError):
    fields: dict[str, str] = {}
    for err in exc.errors:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "payload")]
        fields[".".join(loc) or "body"] = err.get("msg", "invalid")
    return _error(request, 400, "bad_input", "The request is not valid.", fields)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, 404, "not_found", "Not found.")


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    # Raised by ninja itself: 400 for a body that is not JSON, 403 for a session call without
    # its CSRF token; each gets the code its status has in docs/api.md (400: bad_input).
    status = exc.status_code
    if status == 403 and "csrf" in str(exc).lower():
        code = "csrf_failed"
    else:
        code = error_code_for(status)
    if status == 400 and str(exc).startswith("Cannot parse request body"):
        return _error(request, 400, code, "The body is not valid JSON.", {"body": str(exc)})
    return _error(request, status, code, str(exc))


for _module in ROUTERS:
    api.add_router("/", _module.router)
