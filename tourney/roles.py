"""Who may do what. Director: everything. Desk clerk: registration and reading."""

from __future__ import annotations

DIRECTOR_GROUP = "director"
DESK_GROUP = "desk"


def _in_group(user, name: str) -> bool:
    cache = getattr(user, "_tourney_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._tourney_groups = cache
    return name in cache


def is_director(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active) and (
        user.is_superuser or _in_group(user, DIRECTOR_GROUP)
    )


def is_desk(user) -> bool:
    return is_director(user) or (
        bool(user and user.is_authenticated and user.is_active) and _in_group(user, DESK_GROUP)
    )
