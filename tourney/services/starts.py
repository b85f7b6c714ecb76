"""A tournament's start (issue 28): the setup and settings forms' "Starts at" field, typed as
a date and time in the tournament's own zone (the card room's clock, not the server's), and
the option it makes. The director home lists the events of today and upcoming by it
(``tourney.selectors.room_home``)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone

from tourney.engine.errors import DomainError
from tourney.models import Tournament

MSG_STARTS_AT = "Starts at: a date and time such as 2026-12-05 19:00, or empty."
INPUT_FORMATS = ("%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S")


def zone_choices() -> list[tuple[str, str]]:
    """Every IANA zone name, for the time-zone select (the server's own included)."""
    names = set(zoneinfo.available_timezones()) | {settings.TIME_ZONE}
    return [(n, n.replace("_", " ")) for n in sorted(names)]


def default_zone() -> str:
    return settings.TIME_ZONE


class StartFields(forms.Form):
    """The start's field (its shape only: read by ``parse_starts_at``)."""

    starts_at = forms.CharField(
        max_length=25,
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )


def _zone(name: str | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def parse_starts_at(text: str | None, zone: str | None) -> datetime | None:
    """ "2026-12-05T19:00" (the browser's date and time input) in the zone ``zone`` → an
    aware datetime; empty → None; anything else refused naming the field."""
    raw = (text or "").strip()
    if not raw:
        return None
    for fmt in INPUT_FORMATS:
        try:
            naive = datetime.strptime(raw, fmt)
        except ValueError:
            continue
        if 2000 <= naive.year <= 2200:
            return timezone.make_aware(naive, _zone(zone))
    raise DomainError("bad_input", MSG_STARTS_AT, fields={"starts_at": MSG_STARTS_AT})


def options_from_form(data: dict[str, Any]) -> dict[str, Any]:
    """The start option of the setup form's cleaned data, in the zone chosen on the form."""
    starts_at = parse_starts_at(data.get("starts_at"), data.get("time_zone"))
    return {"starts_at": starts_at} if starts_at is not None else {}


def starts_input(t: Tournament) -> str:
    """The start as the form's input shows it, in the tournament's zone ("" if none)."""
    if t.starts_at is None:
        return ""
    return timezone.localtime(t.starts_at, t.zone).strftime("%Y-%m-%dT%H:%M")


def iso_start(text: str) -> datetime | None:
    """The start recorded as ISO text (a settings change's redo); a bad one refused."""
    try:
        value = datetime.fromisoformat(text) if text else None
    except ValueError:
        value = datetime.min  # naive: refused below
    if value is not None and value.tzinfo is None:
        raise DomainError("bad_input", MSG_STARTS_AT, fields={"starts_at": MSG_STARTS_AT})
    return value


def parsed(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with the start recorded as ISO text (a redo's) read back as a datetime."""
    if isinstance(values.get("starts_at"), str):
        return {**values, "starts_at": iso_start(values["starts_at"])}
    return values


def plain(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with the start (a datetime, or a [before, after] pair of them) as ISO text:
    the log and the redo keep JSON."""

    def iso(v: Any) -> Any:
        return v.isoformat() if isinstance(v, datetime) else v

    out = dict(values)
    if "starts_at" in out:
        v = out["starts_at"]
        out["starts_at"] = [iso(x) for x in v] if isinstance(v, list) else iso(v)
    return out
