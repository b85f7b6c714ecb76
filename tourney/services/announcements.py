"""What the displays say (issue 29): a free text announced now, and the announcement settings
(the screens' language, speech on or off, the director's texts by kind).

- ``announce``: 1 to 300 characters after trimming (inner whitespace joined: a display says
  one line), no NUL. Recorded as an ``announced`` Event (the log: "Announced: Seat open at
  table 7"); every display of the tournament speaks it once, after the attention chime. It is
  bookkeeping, not an action on the game: the general undo walks past it (a spoken text
  cannot be taken back).
- ``announce_settings_set``: one recorded ``settings_changed`` action, undone and redone by
  the general undo like the other settings. What is not given stays; a template of "" (or
  the default's very words in the screens' language) goes back to the default, which then
  follows the screens' language. Setting what is already set changes nothing and records
  nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import lock_tournament, tournament_action
from tourney.engine.errors import DomainError
from tourney.feed_models import Announcement
from tourney.models import Tournament
from tourney.selectors import announcements as reads

MAX_TEXT = 300
MSG_TEXT_EMPTY = N_("Type what to announce (1 to 300 characters).")
MSG_TEXT_LONG = N_("An announcement is at most 300 characters; this one has %(n)s.")
MSG_TEXT_NUL = N_("The announcement holds a character that cannot be stored.")
MSG_BAD_LANGUAGE = N_("%(value)s is not a language of the screens: use one of %(known)s, or none.")
MSG_BAD_SPEECH = N_("Speech is on or off (true or false).")
MSG_BAD_TEMPLATES = N_("The texts are given by kind: %(known)s.")

LANGUAGE_NAMES = dict(settings.LANGUAGES)


def _bad(code: str, msg: str, field: str, **params: Any) -> DomainError:
    return DomainError(code, msg, fields={field: msg % params if params else msg}, params=params)


def clean_text(text: Any) -> str:
    """The announcement as the displays will say it, or DomainError ``bad_input``."""
    if not isinstance(text, str):
        raise _bad("bad_input", MSG_TEXT_EMPTY, "text")
    if "\x00" in text:
        raise _bad("bad_input", MSG_TEXT_NUL, "text")
    clean = " ".join(text.split())
    if not clean:
        raise _bad("bad_input", MSG_TEXT_EMPTY, "text")
    if len(clean) > MAX_TEXT:
        raise _bad("bad_input", MSG_TEXT_LONG, "text", n=len(clean))
    return clean


def announce(*, tournament_id: int, text: Any, actor=None) -> Announcement:
    """Announce ``text`` now on every display of the tournament (spoken once, shown ~15 s)."""
    clean = clean_text(text)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        by = actor if actor is not None and actor.is_authenticated else None
        made = Announcement.objects.create(tournament=t, text=clean, created_by=by)
        record_event(t, "announced", {"text": clean, "announcement": made.pk}, actor)
    return made


# ---------------------------------------------------------------- the settings


def _language(value: Any) -> str:
    code = value.strip().lower() if isinstance(value, str) else value
    if code != "" and code not in LANGUAGE_NAMES:
        known = ", ".join(LANGUAGE_NAMES)
        raise _bad("bad_input", MSG_BAD_LANGUAGE, "language", value=str(value)[:20], known=known)
    return code


def _templates(value: Any, current: dict[str, str], language: str) -> dict[str, str]:
    """The templates after the change: each kind given replaces the current one ("" or the
    default's words: the default); the kinds not given stay."""
    if not isinstance(value, dict):
        raise _bad("bad_input", MSG_BAD_TEMPLATES, "templates", known=", ".join(reads.KINDS))
    out = {k: v for k, v in current.items() if k in reads.KINDS and v}
    for kind, text in value.items():
        clean = reads.check_template(str(kind), text)  # refused in the caller's language
        with translation.override(language or settings.LANGUAGE_CODE):
            default = reads.default_text(kind)
        if clean and clean != default:
            out[kind] = clean
        else:
            out.pop(kind, None)
    return {k: out[k] for k in reads.KINDS if k in out}


def announce_settings_set(
    *,
    tournament_id: int,
    language: str | None = None,
    speech: bool | None = None,
    templates: dict[str, str] | None = None,
    actor=None,
) -> dict[str, list]:
    """Change the announcement settings (None: unchanged). Returns what changed, field ->
    [before, after]; empty when nothing did (then nothing is recorded)."""
    if speech is not None and type(speech) is not bool:
        raise _bad("bad_input", MSG_BAD_SPEECH, "speech")
    if language is not None:
        language = _language(language)
    kwargs = {"language": language, "speech": speech, "templates": templates}
    call = {"service": "announce_settings_set", "kwargs": kwargs}
    with tournament_action(tournament_id, call=call) as t:
        wanted: dict[str, Any] = {}
        if language is not None:
            wanted["language"] = language
        if speech is not None:
            wanted["announce_speech"] = speech
        if templates is not None:
            current = t.announce_templates if isinstance(t.announce_templates, dict) else {}
            lang = language if language is not None else t.language
            wanted["announce_templates"] = _templates(templates, current, lang)
        row = {f: v for f, v in wanted.items() if getattr(t, f) != v}
        if not row:
            return {}  # nothing written, no event
        journal_current().note_tournament(fields=list(row))
        done = {f: [getattr(t, f), v] for f, v in row.items()}
        for f, v in row.items():
            setattr(t, f, v)
        Tournament.objects.filter(pk=t.pk).update(**row)
        record_event(t, "settings_changed", {"changes": done, "summary": summary_of(done)}, actor)
    return done


def _shown(field: str, value: Any) -> str:
    if field == "language":
        return LANGUAGE_NAMES.get(value, "the site's language")
    if field == "announce_speech":
        return "on" if value else "off"
    kinds = [k for k in reads.KINDS if (value or {}).get(k)]
    return "own texts for " + ", ".join(kinds) if kinds else "the default texts"


def summary_of(done: dict[str, list]) -> str:
    """The change in words for the log (English, as the other settings' summaries)."""
    labels = {
        "language": "Screens' language",
        "announce_speech": "Spoken announcements",
        "announce_templates": "Announcement texts",
    }
    return "; ".join(f"{labels[f]}: {_shown(f, a)} → {_shown(f, b)}" for f, (a, b) in done.items())
