"""API authentication and roles, checked before a request body is even read.

A bearer token or the screens' session identifies the user; then the endpoint's role:
director (everything), desk (registration, rebuy, add-on, reading), or any user. No
credentials → 401; a user without the role → 403 (docs/api.md)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer
from ninja.security import SessionAuth as SessionAuthBase

from tourney.engine.errors import DomainError
from tourney.roles import is_desk, is_director
from tourney.tokens import token_user

MSG_FORBIDDEN = "Your role does not allow this."
CHECKS = {"director": is_director, "desk": is_desk, "any": lambda user: True}


def _allow(user, role: str):
    if not CHECKS[role](user):
        raise DomainError("forbidden", MSG_FORBIDDEN, status=403)
    return user


class BearerAuth(HttpBearer):
    def __init__(self, role: str = "any") -> None:
        super().__init__()
        self.role = role

    def authenticate(self, request: HttpRequest, token: str):
        user = token_user(token)
        if user is None:
            return None
        request.user = user
        return _allow(user, self.role)


class SessionAuth(SessionAuthBase):
    """The screens' session. CSRF is checked only for a logged-in user, so a request with
    no credentials at all gets 401, not a CSRF 403."""

    def __init__(self, role: str = "any") -> None:
        super().__init__()
        self.role = role

    def _get_key(self, request: HttpRequest):
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)

    def authenticate(self, request: HttpRequest, key):
        if not request.user.is_authenticated:
            return None
        return _allow(request.user, self.role)


ANY = [BearerAuth("any"), SessionAuth("any")]
DESK = [BearerAuth("desk"), SessionAuth("desk")]
DIRECTOR = [BearerAuth("director"), SessionAuth("director")]
