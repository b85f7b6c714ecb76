"""Users, roles, API tokens and display tokens (issue 10). Directors manage them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from tourney.engine.errors import DomainError
from tourney.models import ApiToken, Tournament, new_display_token
from tourney.roles import DESK_GROUP, DIRECTOR_GROUP
from tourney.services import lock_tournament, record_event
from tourney.tokens import token_create

ROLES = {"director": DIRECTOR_GROUP, "desk": DESK_GROUP}
MSG_BAD_ROLE = "The role is director or desk."
MSG_USER_EXISTS = "That username is taken."
MSG_NO_USER = "No such user."
MSG_NO_TOKEN = "No such token."


def user_create(*, username: str, password: str, role: str, actor=None):
    """A director adds a user with a role (director or desk clerk)."""
    if role not in ROLES:
        raise DomainError("bad_role", MSG_BAD_ROLE, fields={"role": MSG_BAD_ROLE})
    User = get_user_model()
    username = (username or "").strip()
    if not username or len(username) > 150:
        raise DomainError(
            "bad_input",
            "A username of 1 to 150 characters is required.",
            fields={"username": "required"},
        )
    try:
        validate_password(password)
    except ValidationError as exc:
        raise DomainError(
            "bad_password", " ".join(exc.messages), fields={"password": " ".join(exc.messages)}
        ) from None
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise DomainError("user_exists", MSG_USER_EXISTS, status=409)
        user = User.objects.create_user(username, password=password)
        user.groups.add(Group.objects.get_or_create(name=ROLES[role])[0])
        record_event(None, "user_created", {"username": username, "role": role}, actor)
    return user


def user_set_role(*, username: str, role: str | None, actor=None):
    """Change a user's role; None removes every role (the user can then log in to nothing)."""
    if role is not None and role not in ROLES:
        raise DomainError("bad_role", MSG_BAD_ROLE, fields={"role": MSG_BAD_ROLE})
    with transaction.atomic():
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise DomainError("user_not_found", MSG_NO_USER, status=404)
        user.groups.remove(*Group.objects.filter(name__in=ROLES.values()))
        if role:
            user.groups.add(Group.objects.get_or_create(name=ROLES[role])[0])
        record_event(None, "user_role_set", {"username": username, "role": role}, actor)
    return user


def api_token_issue(*, user, actor=None) -> str:
    """A new bearer token for ``user``; the clear text is returned once, stored hashed."""
    key = token_create(user=user)
    record_event(
        None, "api_token_created", {"user": user.get_username(), "prefix": key[:12]}, actor
    )
    return key


def api_token_revoke(*, user, prefix: str, actor=None) -> None:
    with transaction.atomic():
        n = ApiToken.objects.filter(user=user, prefix=prefix, revoked=False).update(revoked=True)
        if not n:
            raise DomainError("token_not_found", MSG_NO_TOKEN, status=404)
        record_event(
            None, "api_token_revoked", {"user": user.get_username(), "prefix": prefix}, actor
        )


def display_token_rotate(*, tournament_id: int, actor=None) -> Tournament:
    """A new display token: every screen on the old one stops (404) at its next poll."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        old = t.display_token
        t.display_token = new_display_token()
        t.save(update_fields=["display_token"])
        record_event(t, "display_token_rotated", {}, actor)
    from tourney.selectors_public import forget_version

    forget_version(old)  # after the commit: the old token's cached ETag must not outlive it
    return t
