"""API tokens: random, shown once, stored as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone

from .models import ApiToken


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(*, user) -> str:
    key = "tny_" + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, prefix=key[:12], key_hash=_hash(key))
    return key


def token_user(key: str):
    """The active user a bearer token belongs to, or None."""
    if not key or len(key) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_hash(key), revoked=False, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used is None or (now - token.last_used).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token.user
