"""The one domain error type.

Engines (pure Python) and services raise ``DomainError``; views and the API map it to a 4xx
answer with the error shape of docs/api.md. Messages are module constants in the module that raises
them, so tests can assert them exactly.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Marks a message for translation without translating it (the engines import no
    Django): tools/i18n.py extracts it, the screens translate it at the edge
    (``tourney.core.language.refusal_text``). The API keeps the English."""
    return message


class DomainError(Exception):
    """A rule or state forbids what was asked. ``code`` is machine-readable."""

    status: int = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        fields: dict[str, Any] | None = None,
        status: int | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # ``message`` may be a template with ``%(name)s`` places and ``params`` their values:
        # the screens translate the template, then fill it in (the API shows it in English).
        self.template = message
        self.params = params or {}
        if params:
            message = message % params
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "fields": self.fields}}
