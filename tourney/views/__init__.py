"""The screens' views."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def public_url(request: HttpRequest, path: str) -> str:
    """An absolute URL a phone can open: under ``PUBLIC_BASE_URL`` when it is set, else on the
    host the request came in on."""
    base = getattr(settings, "PUBLIC_BASE_URL", "")
    return f"{base}{path}" if base else request.build_absolute_uri(path)
