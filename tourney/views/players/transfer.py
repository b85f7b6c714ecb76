"""Import players from a CSV file (upload or paste, map the columns, preview with each row's
errors, confirm) and export them as CSV (cells that a spreadsheet would run as a formula are
made text, as the results export does)."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_http_methods, require_safe

from tourney.engine.errors import DomainError
from tourney.selectors import players as reads
from tourney.services import players, players_import
from tourney.views.money import _safe_cell
from tourney.views.players import director_page, page
from tourney.views.refusals import field_texts

TEMPLATE = "players/import.html"
MSG_NOT_TEXT = N_("The file is not text (UTF-8): save it from the spreadsheet as CSV UTF-8.")
LABELS = {
    "name": gettext_lazy("Name"),
    "nickname": gettext_lazy("Nickname"),
    "email": gettext_lazy("Email"),
    "phone": gettext_lazy("Phone"),
    "membership": gettext_lazy("Membership number"),
    "notes": gettext_lazy("Notes"),
}


def _text(request: HttpRequest) -> str:
    """The uploaded file's text, else the pasted text."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("csv_text", "")
    if upload.size > players_import.MAX_BYTES:
        msg = players_import.MSG_TOO_BIG
        raise DomainError("too_big", msg, fields={"file": msg})
    raw = upload.read()
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DomainError("not_text", MSG_NOT_TEXT, fields={"file": MSG_NOT_TEXT})


def _shaped(ctx: dict) -> dict:
    """The mapping form's selects and the preview's cells, in the order of ``LABELS``."""
    mapping, errors = ctx.get("mapping", {}), ctx.get("error_fields", {})
    ctx["fields"] = [
        {
            "name": f,
            "label": label,
            "error": errors.get(f, ""),
            "columns": [
                {"index": i, "header": h, "selected": mapping.get(f) == str(i)}
                for i, h in ctx.get("headers", [])
            ],
        }
        for f, label in LABELS.items()
    ]
    for r in (ctx.get("preview") or {}).get("shown", []):
        r["cells"] = [r["values"][f] for f in LABELS]
        # a row's messages in the active language where the catalog has them (the fixed ones)
        r["errors"] = {f: _(m) if isinstance(m, str) and m else m for f, m in r["errors"].items()}
    return ctx


def _render(request: HttpRequest, ctx: dict, error: DomainError | None = None) -> HttpResponse:
    if error is not None:
        ctx["error_fields"] = field_texts(error)
    return page(request, TEMPLATE, _shaped(ctx), error=error)


@director_page
@require_http_methods(["GET", "POST"])
def players_import_view(request: HttpRequest) -> HttpResponse:
    """GET: the upload form. POST ``step``: "map" (read the file, guess the columns), "preview"
    (the rows with their errors), "import" (all rows, or nothing while one has an error)."""
    ctx = {"labels": LABELS, "csv_text": "", "step": "upload"}
    if request.method == "GET":
        return _render(request, ctx)
    step = request.POST.get("step", "map")
    try:
        text = _text(request)
        ctx["csv_text"] = text
        headers, _rows = players_import.csv_read(text)
        ctx["headers"] = list(enumerate(headers))
        if step == "map":
            mapping = players_import.mapping_guess(headers)
        else:
            mapping = {f: request.POST.get(f, "") for f in players.FIELDS}
        ctx["mapping"] = {f: "" if v is None else str(v) for f, v in mapping.items()}
        ctx["step"] = "map"
        if step == "map":
            return _render(request, ctx)
        result = players_import.players_import(
            csv_text=text, mapping=mapping, dry_run=step != "import", actor=request.user
        )
    except DomainError as exc:
        if exc.code == "import_errors":
            ctx["preview"] = players_import.import_preview(ctx["csv_text"], ctx["mapping"])
            ctx["step"] = "preview"
        return _render(request, ctx, exc)
    if step == "import":
        created = result["created"]
        messages.success(
            request,
            ngettext("%(count)s player imported.", "%(count)s players imported.", created)
            % {"count": created},
        )
        return redirect("tourney-players-changes")
    ctx["preview"] = result
    ctx["step"] = "preview"
    return _render(request, ctx)


@director_page
@require_safe
def players_export(request: HttpRequest) -> HttpResponse:
    """Every shown player as CSV: id, name, nickname, email, phone, membership, notes, created."""
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="players-{stamp}.csv"'
    response.write("\ufeff")  # a spreadsheet reads the names as UTF-8
    writer = csv.writer(response)
    writer.writerow(reads.EXPORT_HEADERS)
    for row in reads.players_export_rows():
        *cells, created = row
        out = [c if isinstance(c, int) else _safe_cell(str(c)) for c in cells]
        writer.writerow([*out, timezone.localtime(created).strftime("%Y-%m-%d %H:%M")])
    return response
