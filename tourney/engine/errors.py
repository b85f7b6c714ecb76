"""The one domain error type.

Engines (pure Python) and services raise ``DomainError``; views and the API map it to a 4xx
answer with the error shape of docs/api.md. Messages are module constants in the module that raises
them, so tests can assert them exactly.
"""

from __future__ import annotations

from typing import Any


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
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "fields": self.fields}}
