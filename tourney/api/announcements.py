"""Announcements (issue 29): a free text every display of the tournament says now (after a
chime) and shows for a while, the list of the latest ones, and the announcement settings (the
screens' language, speech on or off, the director's text for each kind)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from ninja import Field, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import director_tournament
from tourney.feed_models import Announcement
from tourney.models import Tournament
from tourney.selectors import announcements as reads
from tourney.services import announcements as writes

router = Router(tags=["announcements"], **out.ROUTER_OPTIONS)
LIST_LIMIT = 50


class AnnouncementOut(out.Out):
    id: int
    text: str
    at: str
    by: str | None


class AnnouncementsOut(out.Out):
    announcements: list[AnnouncementOut]  # newest first


class AnnounceSettingsOut(out.Out):
    language: str  # "" for the site's language
    speech: bool
    templates: dict[str, str]  # the director's own texts by kind ("" for the default)
    defaults: dict[str, str]  # each kind's default text, in the screens' language
    places: dict[str, list[str]]  # the places each kind's text may name


def _announcement(a: Announcement) -> dict:
    return {
        "id": a.pk,
        "text": a.text,
        "at": a.created_at.isoformat(),
        "by": a.created_by.get_username() if a.created_by_id else None,
    }


def _settings(t: Tournament) -> dict:
    mine = t.announce_templates if isinstance(t.announce_templates, dict) else {}
    with translation.override(t.language or settings.LANGUAGE_CODE):
        defaults = {k: reads.default_text(k) for k in reads.KINDS}
    return {
        "language": t.language,
        "speech": t.announce_speech,
        "templates": {k: mine.get(k, "") for k in reads.KINDS},
        "defaults": defaults,
        "places": {k: list(reads.PLACES[k]) for k in reads.KINDS},
    }


class AnnouncementIn(Schema):
    # The service trims and checks it (1 to 300 characters): the refusal names the rule.
    text: str = Field(max_length=10_000)


@router.post(
    "/tournaments/{tid}/announcements",
    auth=api_auth.DIRECTOR,
    response={201: AnnouncementOut},
    summary="Announce a text now: every display of the tournament chimes, says and shows it",
)
def announcement_create(request, tid: int, payload: AnnouncementIn):
    director_tournament(request, tid)
    made = writes.announce(tournament_id=tid, text=payload.text, actor=request.user)
    return Status(201, _announcement(made))


@router.get(
    "/tournaments/{tid}/announcements",
    auth=api_auth.DIRECTOR,
    response=AnnouncementsOut,
    summary="The latest announcements, newest first (50 at most)",
)
def announcements_get(request, tid: int):
    t = director_tournament(request, tid)
    return {"announcements": [_announcement(a) for a in reads.recent(t, LIST_LIMIT)]}


@router.get(
    "/tournaments/{tid}/announce-settings",
    auth=api_auth.DIRECTOR,
    response=AnnounceSettingsOut,
    summary="The announcement settings: the screens' language, speech, the texts by kind",
)
def announce_settings_get(request, tid: int):
    return _settings(director_tournament(request, tid))


class AnnounceSettingsIn(Schema):
    language: str | None = Field(default=None, max_length=20)
    speech: bool | None = None
    templates: dict[str, str] | None = None


@router.put(
    "/tournaments/{tid}/announce-settings",
    auth=api_auth.DIRECTOR,
    response=AnnounceSettingsOut,
    summary="Change the announcement settings (what is left out stays; undone by undo)",
)
def announce_settings_put(request, tid: int, payload: AnnounceSettingsIn):
    director_tournament(request, tid)
    writes.announce_settings_set(
        tournament_id=tid,
        language=payload.language,
        speech=payload.speech,
        templates=payload.templates,
        actor=request.user,
    )
    return _settings(Tournament.objects.get(pk=tid))
