"""Structure files on the structure page (issue 29, docs/structure-files.md): the structure
as a JSON document or as text to download, and an import (a file or pasted text, the format
told from its first character) that shows a preview first and writes only when confirmed,
through ``services.structure_files.structure_import``."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tourney.core.language import refusal_text
from tourney.engine.clock import LEVEL
from tourney.engine.errors import DomainError
from tourney.engine.structure_files import LineProblem, StructureTextError
from tourney.models import Tournament
from tourney.services import setup
from tourney.services import structure_files as files
from tourney.views.dashboard.base import director_only, director_view
from tourney.views.dashboard.setup_views import PAST_SHOWN

PARTIAL = "dashboard/_structure_files.html"
PAGE = "dashboard/structure_import.html"
SETUP_PAGE = "dashboard/setup.html"
SHOWN = 20  # problems listed; a file that is no structure at all has one on every line


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@director_view
@require_safe
def structure_export_json(request: HttpRequest, t: Tournament) -> HttpResponse:
    body = json.dumps(files.export_document(t), indent=2, ensure_ascii=False) + "\n"
    name = f"{t.slug or 'tournament'}-structure.json"
    return _download(body, "application/json; charset=utf-8", name)


@director_view
@require_safe
def structure_export_text(request: HttpRequest, t: Tournament) -> HttpResponse:
    name = f"{t.slug or 'tournament'}-structure.txt"
    return _download(files.export_text(t), "text/plain; charset=utf-8", name)


def _problem_line(p: LineProblem) -> str:
    message = _(p.template) % dict(p.params) if p.params else _(p.template)
    if p.line:
        return _("Line %(line)s: %(message)s") % {"line": p.line, "message": message}
    return message[:1].upper() + message[1:]


def _error_lines(exc: DomainError) -> list[str]:
    """A refusal as sentences: one per line of the file (text), or per field (JSON)."""
    if isinstance(exc, StructureTextError):
        lines = [_problem_line(p) for p in exc.problems[:SHOWN]]
        more = len(exc.problems) - SHOWN
        if more > 0:
            lines.append(
                ngettext(
                    "… and %(n)s more line with a problem.",
                    "… and %(n)s more lines with a problem.",
                    more,
                )
                % {"n": more}
            )
        return lines
    if exc.params or not exc.fields:
        return [refusal_text(exc)]
    lines = [] if exc.code == "bad_structure" else [refusal_text(exc)]
    for key, value in exc.fields.items():
        text = _(str(value)) if isinstance(value, str) else str(value)
        if key.startswith("line "):
            lines.append(_("Line %(line)s: %(message)s") % {"line": key[5:], "message": text})
        else:
            lines.append(f"{key}: {text}")
    if exc.code == "bad_structure":
        lines.insert(0, refusal_text(exc))
    return lines


def _rows(read: files.ReadFile) -> list[dict[str, Any]]:
    rows, level = [], 0
    for item, line in zip(read.items, read.lines, strict=True):
        level += item.kind == LEVEL
        rows.append({"item": item, "level": level, "line": line, "minutes": item.seconds / 60})
    return rows


def _file_text(request: HttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > files.MAX_CHARS * 4:
            raise DomainError("bad_file", files.MSG_TOO_LONG, fields={"file": files.MSG_TOO_LONG})
        return files.decode(upload.read())
    return request.POST.get("text") or ""


@director_view
@require_http_methods(["GET", "HEAD", "POST"])
def structure_import(request: HttpRequest, t: Tournament) -> HttpResponse:
    """POST ``step=preview``: read the file, show its items and what the tournament would
    refuse; ``step=import``: read it again and import it. Nothing is written on any error."""
    ctx: dict[str, Any] = {"tournament": t, "files": {}}
    status = 200
    if request.method == "POST":
        state: dict[str, Any] = ctx["files"]
        try:
            text = _file_text(request)
            state["text"] = text
            read = files.read_file(text)
            state.update(kind=read.kind, rows=_rows(read))
            problems = files.import_problems(t, read)
            state["problems"] = [_problem_line(p) for p in problems]
            if request.POST.get("step") == "import" and not problems:
                files.structure_import(tournament_id=t.pk, read=read, actor=request.user)
                url = reverse("tourney-dashboard-structure", args=[t.pk]) + "?imported=1"
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
            status = 400 if problems else 200
        except DomainError as exc:
            state.update(errors=_error_lines(exc), rows=None)
            status = exc.status
    return render(request, PARTIAL if request.htmx else PAGE, ctx, status=status)


def _typed_setup(request: HttpRequest) -> dict[str, Any]:
    """What the director had typed in the setup form (htmx sends it along), to keep."""
    initial: dict[str, Any] = {}
    for name, field in setup.SetupForm.base_fields.items():
        if name in request.POST:
            many = isinstance(field, forms.MultipleChoiceField)
            initial[name] = request.POST.getlist(name) if many else request.POST[name]
    return initial


@director_only
@require_http_methods(["POST"])
def setup_structure_file(request: HttpRequest) -> HttpResponse:
    """The new-tournament page with its levels box filled from a structure file (typed
    levels; a JSON file's starting stack too): nothing is created until the director creates
    the tournament. On a problem the page comes back with it, line by line."""
    state: dict[str, Any] = {}
    initial = _typed_setup(request)
    status = 200
    try:
        text = _file_text(request)
        state["text"] = text
        read = files.read_file(text)
        initial.update(structure="custom", levels_text=setup.levels_text(read.items))
        if read.starting_stack:
            initial["starting_stack"] = read.starting_stack
        state["filled"] = sum(1 for item in read.items if item.kind == LEVEL)
    except DomainError as exc:
        state["errors"] = _error_lines(exc)
        status = exc.status
    ctx = {
        "past": Tournament.objects.only("pk", "name", "created_at")[:PAST_SHOWN],
        "message": None,
        "form": setup.SetupForm(initial=initial),
        "setup_file": state,
    }
    return render(request, SETUP_PAGE, ctx, status=status)
