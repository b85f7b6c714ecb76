"""Users, roles, API tokens and display tokens (issue 10). Directors manage them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.locking import lock_tournament
from tourney.engine.errors import DomainError
from tourney.models import ApiToken, Tournament, new_display_token
from tourney.roles import DESK_GROUP, DIRECTOR_GROUP
from tourney.tokens import token_create

ROLES = {"director": DIRECTOR_GROUP, "desk": DESK_GROUP}
MSG_BAD_ROLE = N_("The role is director or desk.")
MSG_USER_EXISTS = N_("That username is taken.")
MSG_NO_USER = N_("No such user.")
MSG_NO_TOKEN = N_("No such token.")
MSG_LAST_DIRECTOR = N_("This is the last director: give another user the director role first.")
MSG_BAD_USERNAME = N_("A username of 1 to 150 characters is required.")
ACCOUNT_EVENTS = ("user_created", "user_role_set", "api_token_created", "api_token_revoked")


def user_create(*, username: str, password: str, role: str, actor=None):
    """A director adds a user with a role (director or desk clerk)."""
    if role not in ROLES:
        raise DomainError("bad_role", MSG_BAD_ROLE, fields={"role": MSG_BAD_ROLE})
    User = get_user_model()
    # As Django stores it (NFKC: "ﬀ" is "ff"), so that the check below sees the name it
    # would collide with, instead of the database refusing it with an error.
    username = User.normalize_username((username or "").strip())
    if not username or len(username) > 150:
        raise DomainError(
            "bad_input",
            MSG_BAD_USERNAME,
            fields={"username": "required"},
        )
    try:
        validate_password(password)
    except ValidationError as exc:
        raise DomainError(
            "bad_password", " ".join(exc.messages), fields={"password": " ".join(exc.messages)}
        ) from None
    try:
        with transaction.atomic():
            if User.objects.filter(username=username).exists():
                raise DomainError("user_exists", MSG_USER_EXISTS, status=409)
            user = User.objects.create_user(username, password=password)
            user.groups.add(Group.objects.get_or_create(name=ROLES[role])[0])
            record_event(None, "user_created", {"username": username, "role": role}, actor)
    except IntegrityError:  # another director added the same name a moment before
        raise DomainError("user_exists", MSG_USER_EXISTS, status=409) from None
    return user


def user_set_role(*, username: str, role: str | None, actor=None):
    """Change a user's role; None removes every role (the user can then log in to nothing)."""
    if role is not None and role not in ROLES:
        raise DomainError("bad_role", MSG_BAD_ROLE, fields={"role": MSG_BAD_ROLE})
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(username=username).first()
        if user is None:
            raise DomainError("user_not_found", MSG_NO_USER, status=404)
        if role != "director" and _last_director(user):
            raise DomainError("last_director", MSG_LAST_DIRECTOR, status=409)
        user.groups.remove(*Group.objects.filter(name__in=ROLES.values()))
        if role:
            user.groups.add(Group.objects.get_or_create(name=ROLES[role])[0])
        record_event(None, "user_role_set", {"username": username, "role": role}, actor)
    return user


def _last_director(user) -> bool:
    """Taking the role from ``user`` would leave nobody to manage users (locked out)."""
    directors = get_user_model().objects.filter(is_active=True, groups__name=DIRECTOR_GROUP)
    return (
        directors.filter(pk=user.pk).exists()
        and not directors.exclude(pk=user.pk).exists()
        and not get_user_model().objects.filter(is_active=True, is_superuser=True).exists()
    )


def users_with_roles() -> list[dict]:
    """Every user, the role and the API tokens (prefix, created, last used), for the users page."""
    users = get_user_model().objects.order_by("username").prefetch_related("groups", "api_tokens")
    role_of = {v: k for k, v in ROLES.items()}
    out = []
    for u in users:
        names = {g.name for g in u.groups.all()}
        role = (
            "director"
            if DIRECTOR_GROUP in names
            else role_of.get(DESK_GROUP if DESK_GROUP in names else "")
        )
        tokens = sorted(u.api_tokens.all(), key=lambda k: k.created_at, reverse=True)
        out.append({"user": u, "role": role, "tokens": tokens})
    return out


def account_events(limit: int = 50):
    """The audit log of users, roles and tokens (events of no tournament), newest first."""
    from tourney.models import Event

    return (
        Event.objects.filter(tournament__isnull=True, kind__in=ACCOUNT_EVENTS)
        .select_related("actor")
        .order_by("-id")[:limit]
    )


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
    from tourney.selectors.display import forget_version

    forget_version(old)  # after the commit: the old token's cached ETag must not outlive it
    return t
