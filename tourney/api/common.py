"""What every router of the API uses: the role checks inside an endpoint, the tournament
lookup (after the role check), where an entry sits, JSON object keys read as numbers, the input
limits, and the error body of docs/api.md ("Conventions") with its OpenAPI declaration. Imports
nothing of the routers or the package."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from tables import services as table_services
from tourney.api.auth import MSG_FORBIDDEN
from tourney.engine.errors import DomainError
from tourney.models import Entry, Tournament
from tourney.roles import is_desk, is_director

# Input limits (tourney/engine/icm.py bounds its inputs by the same figures).
MAX_CHIPS = 10**12
MAX_MONEY = 10**13

MSG_UNAUTHORIZED = "Log in or send a valid API token (Authorization: Bearer <token>)."


# The error body of docs/api.md ("Conventions"), declared for every operation in the OpenAPI
# document so that a client (and schemathesis) can check every error answer against it.
ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields"],
            "properties": {
                "code": {"type": "string", "minLength": 1},
                "message": {"type": "string", "minLength": 1},
                "fields": {"type": "object"},
            },
        }
    },
}
ERROR_STATUSES = {
    400: "Bad input: nothing changed",
    401: "No or bad credentials",
    403: "The role does not allow this",
    404: "No such tournament, table, entry, user or token",
    409: "The state forbids it: nothing changed",
}


def error_body(code: str, message: str, fields: dict | None = None) -> dict[str, Any]:
    """The error answer of docs/api.md: ``{"error": {"code", "message", "fields"}}``."""
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def need_director(request) -> None:
    if not is_director(request.user):
        raise DomainError("forbidden", MSG_FORBIDDEN, status=403)


def need_desk(request) -> None:
    if not is_desk(request.user):
        raise DomainError("forbidden", MSG_FORBIDDEN, status=403)


def tournament_or_404(tid: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tid)


def desk_tournament(request, tid: int) -> Tournament:
    """The tournament of a desk operation: the role first (403), then the lookup (404), so a
    caller without the role learns nothing of which tournaments exist."""
    need_desk(request)
    return tournament_or_404(tid)


def director_tournament(request, tid: int) -> Tournament:
    """The tournament of a director's operation: the role first (403), then the lookup (404)."""
    need_director(request)
    return tournament_or_404(tid)


def seat_of(entry: Entry) -> dict[str, Any]:
    """Where a new entry sits: table and seat (None while it waits for a seat) and whether it
    waits for the button to pass (RULES 1.3)."""
    seat = table_services.seats_of(entry.tournament, [entry.pk]).get(entry.pk)
    return {
        "table": seat[0] if seat else None,
        "seat": seat[1] if seat else None,
        "waits_for_button": entry.seat.waits_for_button if seat else False,
    }


def int_key(key: str, where: str, seen: dict | None = None, most: int | None = None) -> int:
    """A JSON object key as a whole number (from 1 to ``most`` if given). With ``seen``, once:
    keys that read as the same number ("25" and "025") would overwrite each other, so the
    second is refused."""
    try:
        value = int(key)
    except (TypeError, ValueError):
        raise DomainError(
            "bad_input", f"{where}: {key!r} is not a number.", fields={where: key}
        ) from None
    if most is not None and not 1 <= value <= most:
        raise DomainError(
            "bad_input", f"{where}: {key!r} is not a number from 1 to {most}.", fields={where: key}
        )
    if seen is None:
        return value
    if value in seen:
        raise DomainError(
            "bad_input",
            f"{where}: {key!r} and {seen[value]!r} are the same number.",
            fields={where: key},
        )
    seen[value] = key
    return value
