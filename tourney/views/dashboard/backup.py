"""The backup of a tournament as a download (the document of ``tournament_export``), and a
restore from such a file (``tournament_import``): directors only."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_http_methods, require_safe

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.selectors.backup import tournament_document
from tourney.services.backup import tournament_import
from tourney.views.dashboard.base import director_only, director_view

TEMPLATE = "dashboard/restore.html"
MAX_BYTES = 200 * 1024 * 1024  # a day of a large field with its log is a few megabytes
MSG_NO_FILE = N_("Choose the backup file (a .json made by Download backup or tournament_export).")
MSG_TOO_BIG = N_("This file is too large to be a tournament backup.")
MSG_NOT_JSON = N_("This file is not a tournament backup: it is not JSON.")


@require_safe
@director_view
def download(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The tournament as one JSON file, named for it and the card room's date."""
    doc = tournament_document(t.pk)
    response = HttpResponse(
        json.dumps(doc, ensure_ascii=False, sort_keys=True),
        content_type="application/json; charset=utf-8",
    )
    day = timezone.localdate().isoformat()  # the card room's zone (director_view)
    response["Content-Disposition"] = f'attachment; filename="tourney-{t.pk}-{day}.json"'
    response["Cache-Control"] = "no-store"
    return response


def _read(request: HttpRequest):
    upload = request.FILES.get("backup")
    if upload is None:
        raise DomainError("bad_input", MSG_NO_FILE, fields={"backup": MSG_NO_FILE})
    if upload.size > MAX_BYTES:
        raise DomainError("backup_too_large", MSG_TOO_BIG, fields={"backup": MSG_TOO_BIG})
    try:
        return json.loads(upload.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise DomainError("backup_invalid", MSG_NOT_JSON, fields={"backup": MSG_NOT_JSON}) from None


@require_http_methods(["GET", "HEAD", "POST"])
@director_only
def restore(request: HttpRequest) -> HttpResponse:
    """A form with the file; a good backup becomes a new tournament (its dashboard opens)."""
    if request.method != "POST":
        return render(request, TEMPLATE, {})
    try:
        t = tournament_import(document=_read(request), actor=request.user)
    except DomainError as exc:
        return render(
            request, TEMPLATE, {"error": refusal_text(exc), "code": exc.code}, status=exc.status
        )
    return redirect("tourney-dashboard", tournament_id=t.pk)
