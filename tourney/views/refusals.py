"""A refusal (DomainError) shown on a screen in the active language (issue 29): its message
through ``tourney.core.language.refusal_text``, its fields' messages likewise (a field's message
that is the refusal's own gets the same text; another one is translated when the catalog has
it, else shown as the service wrote it). The API keeps ``exc.message`` and ``exc.fields``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from tourney.core.language import refusal_text


def field_texts(exc) -> dict[str, Any]:
    shown = refusal_text(exc)
    out: dict[str, Any] = {}
    for name, value in (getattr(exc, "fields", None) or {}).items():
        if isinstance(value, str) and value:
            out[name] = shown if value == exc.message else gettext(value)
        else:
            out[name] = value
    return out


__all__ = ["field_texts", "refusal_text"]
