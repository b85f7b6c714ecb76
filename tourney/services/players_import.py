"""Importing players from a CSV file (issue 27): read, map the columns, preview, import.

The first row holds the headers. A byte-order mark is dropped; the delimiter (``;``, ``,`` or
a tab) is sniffed. A ``mapping`` says which column (its index) holds each field; the name is
required. Each row is checked as ``player_create`` checks a form, and a membership number
must be free in the database and appear once in the file. Nothing is half-imported: with one
row in error nothing is written; otherwise every row is created in one room action (its undo
deletes them all).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext_noop as N_

from tourney.core.room_journal import room_action
from tourney.engine.errors import DomainError
from tourney.models import Player
from tourney.services.players import FIELDS, clean_fields

MAX_ROWS = 5000
MAX_BYTES = 1024 * 1024
PREVIEW_ROWS = 20

MSG_EMPTY = N_("The file is empty: paste or upload a CSV file with a header row.")
MSG_TOO_BIG = N_("The file is larger than 1 MB: split it.")
MSG_TOO_MANY_TEMPLATE = N_("The file has more than %(max)s players: split it.")
MSG_TOO_MANY = MSG_TOO_MANY_TEMPLATE % {"max": MAX_ROWS}
MSG_NO_NAME = N_("Choose the column that holds the names.")
MSG_BAD_COLUMN = N_("Choose one of the file's columns.")
MSG_DUP_FILE = "Membership number {m} appears on line {line} already."
MSG_DUP_DB = "Membership number {m} is already {name}'s."
MSG_HAS_ERRORS = N_(
    "%(n)s row(s) have errors: correct the file and import again. Nothing was imported."
)
MSG_UNREADABLE = N_("The file could not be read as CSV: %(why)s.")

# header words that say which field a column holds (lower case, spaces and _ ignored)
GUESSES = {
    "name": ("name", "fullname", "player", "playername", "nom", "naam"),
    "nickname": ("nickname", "nick", "alias", "screenname", "displayname"),
    "email": ("email", "e-mail", "mail", "emailaddress"),
    "phone": ("phone", "telephone", "tel", "mobile", "cell", "phonenumber"),
    "membership": ("membership", "member", "memberno", "membershipnumber", "memberid", "card"),
    "notes": ("notes", "note", "comment", "comments", "remarks"),
}


def csv_read(text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """(headers, [(line number, cells)]) of ``text``; blank lines are skipped."""
    text = (text or "").lstrip("\ufeff")
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise DomainError("too_big", MSG_TOO_BIG, fields={"file": MSG_TOO_BIG})
    if not text.strip():
        raise DomainError("empty", MSG_EMPTY, fields={"file": MSG_EMPTY})
    sample = text[:8192]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            rows.append((reader.line_num, cells))
            if len(rows) > MAX_ROWS + 1:
                raise DomainError(
                    "too_many_rows",
                    MSG_TOO_MANY_TEMPLATE,
                    params={"max": MAX_ROWS},
                    fields={"file": MSG_TOO_MANY},
                )
    except csv.Error as exc:
        params = {"why": str(exc)}
        raise DomainError(
            "bad_csv", MSG_UNREADABLE, params=params, fields={"file": MSG_UNREADABLE % params}
        ) from exc
    if not rows:
        raise DomainError("empty", MSG_EMPTY, fields={"file": MSG_EMPTY})
    headers = [h.strip() for h in rows[0][1]]
    return headers, rows[1:]


def mapping_guess(headers: list[str]) -> dict[str, int | None]:
    """The column each field most likely is, from the header words (None: not found)."""
    keys = ["".join(h.lower().replace("_", "").split()) for h in headers]
    out: dict[str, int | None] = {}
    for field, words in GUESSES.items():
        out[field] = next((i for i, k in enumerate(keys) if k in words), None)
    if out["name"] is None and headers:
        out["name"] = next((i for i, k in enumerate(keys) if "name" in k), None)
    return out


def _mapping_checked(mapping: dict[str, Any], width: int) -> dict[str, int]:
    out: dict[str, int] = {}
    errors: dict[str, str] = {}
    for f in FIELDS:
        raw = mapping.get(f)
        if raw in (None, ""):
            continue
        try:
            i = int(raw)
        except (TypeError, ValueError):
            i = -1
        if not 0 <= i < width:
            errors[f] = MSG_BAD_COLUMN
        else:
            out[f] = i
    if "name" not in out and "name" not in errors:
        errors["name"] = MSG_NO_NAME
    if errors:
        raise DomainError(
            "bad_mapping", MSG_NO_NAME if "name" in errors else MSG_BAD_COLUMN, fields=errors
        )
    return out


def import_preview(csv_text: str, mapping: dict[str, Any]) -> dict[str, Any]:
    """Every row as it would be imported, with its errors: {headers, rows: [{line, values,
    errors}], count, bad (rows in error), shown (the first rows and every row in error)}."""
    headers, raw = csv_read(csv_text)
    cols = _mapping_checked(mapping, len(headers))
    rows = []
    seen: dict[str, int] = {}
    for line, cells in raw:
        data = {f: (cells[i] if i < len(cells) else "") for f, i in cols.items()}
        values, errors = clean_fields(data)
        m = values["membership"].lower()
        if m and "membership" not in errors:
            if m in seen:
                errors["membership"] = MSG_DUP_FILE.format(m=values["membership"], line=seen[m])
            else:
                seen[m] = line
        rows.append({"line": line, "values": values, "errors": errors})
    if seen:
        taken = {
            p.membership.lower(): p.name
            for p in Player.objects.filter(merged_into__isnull=True)
            .exclude(membership="")
            .only("membership", "name")
            .iterator()
            if p.membership.lower() in seen
        }
        for row in rows:
            m = row["values"]["membership"].lower()
            if m in taken and "membership" not in row["errors"]:
                msg = MSG_DUP_DB.format(m=row["values"]["membership"], name=taken[m])
                row["errors"]["membership"] = msg
    bad = [r for r in rows if r["errors"]]
    shown = [r for i, r in enumerate(rows) if i < PREVIEW_ROWS or r["errors"]]
    return {"headers": headers, "rows": rows, "count": len(rows), "bad": len(bad), "shown": shown}


def players_import(
    *, csv_text: str, mapping: dict[str, Any], dry_run: bool, actor=None
) -> dict[str, Any]:
    """The preview (``dry_run``), or every row created in one room action. Refused
    (``import_errors``, nothing written) while any row has an error."""
    preview = import_preview(csv_text, mapping)
    if dry_run:
        return {**preview, "created": 0, "event": None}
    if preview["bad"]:
        raise DomainError(
            "import_errors",
            MSG_HAS_ERRORS,
            params={"n": preview["bad"]},
            fields={"rows": preview["bad"]},
        )
    payload = {"count": preview["count"]}
    with room_action("players_imported", actor, payload) as j:
        made = Player.objects.bulk_create(Player(**r["values"]) for r in preview["rows"])
        j.created_many(Player, [p.pk for p in made])
    return {**preview, "created": len(made)}
