"""The player database (issue 27): one record per person across tournaments.

Every write is a room action (tourney/core/room_journal.py), undone with ``room_undo``, except
the removal of a person's personal data (``player_anonymise``): that one must not be undone and
leaves nothing of the data behind in the log.

Readings:
- A membership number is unique among the players shown (merged records are hidden and do not
  count), compared without case; an empty one is no number.
- A merge moves every entry of ``merge`` to ``keep`` (chip counts, knock-outs, seats and moves
  hang on the entries and follow them), fills ``keep``'s empty personal fields from ``merge``
  and marks ``merge.merged_into``. It is refused when both have an entry in one tournament that
  is not finished (``same_tournament``): one person would hold two live entries of one
  tournament, which no rule allows; in finished tournaments the two entries stay as re-entries.
- Anonymising also blanks the records merged into this one (the same person), drops the undo
  data of earlier room actions that kept an image of these rows (they can no longer be undone)
  and deletes their photo files.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, ProtectedError
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tourney.core.events import record_event
from tourney.core.room_journal import room_action, room_undo
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament

PERSONAL = ("nickname", "email", "phone", "membership", "notes")
FIELDS = ("name", *PERSONAL)
MAX_LEN = {"name": 120, "nickname": 60, "email": 254, "phone": 40, "membership": 40}
MAX_NOTES = 4000
MAX_PHOTO_BYTES = 2 * 1024 * 1024
PLAYER_LABEL = "tourney.player"
NAMED = ("name", "merged_name")  # the payload keys that hold a player's name

MSG_INVALID = N_("Some fields need a correction.")
MSG_NAME_REQUIRED = N_("Enter the player's name.")
MSG_TOO_LONG = "At most {n} characters."
MSG_CONTROL = N_("Remove the control characters.")
MSG_EMAIL = N_("Enter a valid email address.")
MSG_MEMBERSHIP_TAKEN = N_("Membership number %(m)s is already %(name)s's.")
MSG_NOT_FOUND = N_("No such player.")
MSG_PHOTO_TOO_BIG = N_("The photo is larger than 2 MB.")
MSG_SAME_PLAYER = N_("Choose two different players.")
MSG_ANONYMISED = N_("%(name)s was removed: their record cannot be merged or changed.")
MSG_ALREADY_MERGED = N_("%(name)s was merged into another record already.")
MSG_SAME_TOURNAMENT = N_(
    "Both players have an entry in %(t)s, which is not finished: one person cannot hold two "
    "entries of a tournament in play. Merge them once it is finished."
)
MSG_ENTERED = N_(
    "Not undone: %(names)s entered a tournament since, so their record stays. Merge or edit it "
    "instead."
)
MSG_CONFIRM = N_("Type the player's name exactly as shown to confirm.")
REMOVED_NAME = "Removed player #{id}"


def _text(value: Any) -> str:
    return str(value or "").strip()


def clean_fields(data: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """(values, errors by field) of the personal fields in ``data``: trimmed, the name's inner
    spaces collapsed, lengths and the email checked. The membership number is not looked up."""
    values = {f: _text(data.get(f)) for f in FIELDS}
    values["name"] = " ".join(values["name"].split())
    errors: dict[str, str] = {}
    for f, v in values.items():
        limit = MAX_LEN.get(f, MAX_NOTES)
        if len(v) > limit:
            errors[f] = MSG_TOO_LONG.format(n=limit)
        elif any(
            unicodedata.category(c) == "Cc" for c in v if not (f == "notes" and c in "\n\r\t")
        ):
            errors[f] = MSG_CONTROL
    if not values["name"]:
        errors["name"] = MSG_NAME_REQUIRED
    if values["email"] and "email" not in errors:
        try:
            validate_email(values["email"])
        except ValidationError:
            errors["email"] = MSG_EMAIL
    return values, errors


def membership_owner(membership: str, *, exclude: int | None = None) -> Player | None:
    """The shown (not merged) player holding ``membership`` (without case), if any."""
    if not membership:
        return None
    qs = Player.objects.filter(membership__iexact=membership, merged_into__isnull=True)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return qs.first()


def _checked(data: dict[str, Any], *, exclude: int | None = None) -> dict[str, str]:
    values, errors = clean_fields(data)
    if errors:
        raise DomainError("bad_input", MSG_INVALID, fields=errors)
    owner = membership_owner(values["membership"], exclude=exclude)
    if owner is not None:
        params = {"m": values["membership"], "name": owner.name}
        msg = MSG_MEMBERSHIP_TAKEN % params
        raise DomainError(
            "membership_taken", MSG_MEMBERSHIP_TAKEN, params=params, fields={"membership": msg}
        )
    return values


def _photo_checked(photo: UploadedFile | None) -> None:
    if photo is not None and photo.size > MAX_PHOTO_BYTES:
        raise DomainError("photo_too_big", MSG_PHOTO_TOO_BIG, fields={"photo": MSG_PHOTO_TOO_BIG})


def _locked(player_id: Any) -> Player:
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        pk = 0
    p = Player.objects.select_for_update().filter(pk=pk).first() if 0 < pk < 2**63 else None
    if p is None:
        raise DomainError("not_found", MSG_NOT_FOUND, status=404)
    return p


def _writable(p: Player) -> None:
    if p.anonymised_at is not None:
        raise DomainError("anonymised", MSG_ANONYMISED, status=409, params={"name": p.name})
    if p.merged_into_id is not None:
        raise DomainError("already_merged", MSG_ALREADY_MERGED, status=409, params={"name": p.name})


def player_create(*, data: dict[str, Any], photo: UploadedFile | None = None, actor=None) -> Player:
    """A new player from the personal fields (name required, email valid, membership number
    free); undoable (the record is deleted again while it has no entry)."""
    values = _checked(data)
    _photo_checked(photo)
    with room_action("player_created", actor, {"name": values["name"]}) as j:
        p = Player(**values)
        if photo is not None:
            p.photo.save(photo.name, photo, save=False)
        p.save()
        j.created(p)
    return p


def player_update(
    *,
    player_id: Any,
    data: dict[str, Any],
    photo: UploadedFile | None = None,
    photo_clear: bool = False,
    actor=None,
) -> Player:
    """The player's personal fields replaced by ``data``; a new photo or none. Undo puts the
    fields back (an old photo's file is kept for it)."""
    _photo_checked(photo)
    with transaction.atomic():
        p = _locked(player_id)
        _writable(p)
        values = _checked(data, exclude=p.pk)
        with room_action("player_updated", actor, {"player": p.pk, "name": values["name"]}) as j:
            j.before(p, [*FIELDS, "photo"])
            for f, v in values.items():
                setattr(p, f, v)
            if photo is not None:
                p.photo.save(photo.name, photo, save=False)
            elif photo_clear:
                p.photo = ""
            p.save(update_fields=[*FIELDS, "photo"])
    return p


def _shared_tournament(keep: Player, merge: Player) -> Tournament | None:
    live = Entry.objects.exclude(tournament__status=Tournament.Status.FINISHED)
    mine = live.filter(player=keep).values("tournament_id")
    shared = live.filter(player=merge, tournament_id__in=mine).values("tournament_id")
    return Tournament.objects.filter(pk__in=shared).order_by("pk").first()


def players_merge(*, keep_id: Any, merge_id: Any, actor=None) -> Player:
    """``merge``'s entries move to ``keep``, ``keep``'s empty personal fields are filled from
    ``merge``, ``merge`` is marked merged into ``keep`` (hidden from the lists). Refusals:
    ``same_player``, ``anonymised``, ``already_merged``, ``same_tournament`` (see the module's
    docstring). Undo restores both records and every entry."""
    with transaction.atomic():
        if str(keep_id) == str(merge_id):
            raise DomainError("same_player", MSG_SAME_PLAYER, fields={"merge": MSG_SAME_PLAYER})
        # one locking order whatever the caller's (two merges at once wait, never deadlock)
        first, second = sorted([keep_id, merge_id], key=lambda v: int(v) if str(v).isdigit() else 0)
        locked = {str(first): _locked(first), str(second): _locked(second)}
        keep, merge = locked[str(keep_id)], locked[str(merge_id)]
        _writable(keep)
        _writable(merge)
        shared = _shared_tournament(keep, merge)
        if shared is not None:
            raise DomainError(
                "same_tournament",
                MSG_SAME_TOURNAMENT,
                status=409,
                params={"t": shared.name},
                fields={"tournament": shared.pk},
            )
        entries = Entry.objects.filter(player=merge)
        tournament_ids = sorted(set(entries.values_list("tournament_id", flat=True)))
        payload = {
            "kept": keep.pk,
            "merged": merge.pk,
            "name": keep.name,
            "merged_name": merge.name,
            "entries": entries.count(),
        }
        with room_action("players_merged", actor, payload) as j:
            j.before_many(entries, ["player"])
            j.before(keep, [*PERSONAL, "photo"])
            j.before(merge, ["merged_into"])
            entries.update(player=keep)
            for f in PERSONAL:
                if not getattr(keep, f) and getattr(merge, f):
                    if f == "membership" and membership_owner(merge.membership, exclude=merge.pk):
                        continue
                    setattr(keep, f, getattr(merge, f))
            if not keep.photo and merge.photo:
                keep.photo = merge.photo.name
            keep.save(update_fields=[*PERSONAL, "photo"])
            merge.merged_into = keep
            merge.save(update_fields=["merged_into"])
            # the screens of those tournaments show the kept name now: they read it again
            Tournament.objects.filter(pk__in=tournament_ids).update(version=F("version") + 1)
    return keep


def _scrub_log(pks: set[int]) -> set[str]:
    """Earlier room actions that named these players lose the names in their payload; those
    that kept an image of their rows also lose their undo data (they can no longer be undone;
    one that only created them still can: it deletes them). Returns the photo file names those
    images held."""
    photos: set[str] = set()
    keys = {(PLAYER_LABEL, pk) for pk in pks}
    events = Event.objects.select_for_update().filter(tournament__isnull=True)
    for e in events.filter(payload__has_key="undo"):
        undo = e.payload.get("undo") or {}
        if not {(label, pk) for label, pk in undo.get("rows", [])} & keys:
            continue
        imaged = False
        for label, pk, _fields, image in undo.get("images", []):
            if (label, pk) in keys:
                imaged = True
                if image.get("photo"):
                    photos.add(image["photo"])
        drop = ("undo", *NAMED) if imaged else NAMED
        payload = {k: v for k, v in e.payload.items() if k not in drop}
        Event.objects.filter(pk=e.pk).update(payload=payload)
    return photos


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every string equal to one of ``names`` replaced, at any depth."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    return value


def _scrub_tournament_logs(people: list[Player]) -> None:
    """The tournaments' logs of the events these people played name them no more: a log
    value that is one of their names (a registration's name, a redo's typed name) becomes the
    removed player's name. The results stay, under that name."""
    names = {x.name: REMOVED_NAME.format(id=x.pk) for x in people if x.name}
    played = Entry.objects.filter(player__in=people).values("tournament_id")
    changed = []
    for e in Event.objects.filter(tournament_id__in=played).only("id", "payload").iterator():
        payload = _renamed(e.payload, names)
        if payload != e.payload:
            e.payload = payload
            changed.append(e)
    Event.objects.bulk_update(changed, ["payload"], batch_size=500)


def _same_person(p: Player) -> list[Player]:
    """``p`` and the records merged into it, and into those (locked)."""
    out, ids = [p], {p.pk}
    while ids:
        found = list(Player.objects.select_for_update().filter(merged_into__in=ids))
        out += found
        ids = {x.pk for x in found}
    return out


def player_anonymise(*, player_id: Any, confirm: str, actor=None) -> Player:
    """The person's data removed for good (not undoable): email, phone, membership number,
    notes, nickname blanked, the photo file deleted, the name replaced by "Removed player
    #<id>"; the entries, places and prizes stay. ``confirm`` must be the current name."""
    with transaction.atomic():
        p = _locked(player_id)
        _writable(p)
        if " ".join(_text(confirm).split()) != p.name:
            raise DomainError("confirm_mismatch", MSG_CONFIRM, fields={"confirm": MSG_CONFIRM})
        now = timezone.now()
        same_person = _same_person(p)
        photos = _scrub_log({x.pk for x in same_person})
        _scrub_tournament_logs(same_person)
        for x in same_person:
            if x.photo:
                photos.add(x.photo.name)
            for f in PERSONAL:
                setattr(x, f, "")
            x.name = REMOVED_NAME.format(id=x.pk)
            x.photo = ""
            x.anonymised_at = now
            x.save(update_fields=[*FIELDS, "photo", "anonymised_at"])
        played = Entry.objects.filter(player=p).values("tournament_id")
        Tournament.objects.filter(pk__in=played).update(version=F("version") + 1)
        record_event(None, "player_anonymised", {"player": p.pk}, actor)
        storage = Player._meta.get_field("photo").storage
        transaction.on_commit(lambda: [storage.delete(n) for n in sorted(photos) if n])
    return p


def player_action_undo(*, event_id: Any, actor=None) -> Event:
    """``room_undo`` of a player action, refused (``players_entered``) when it would delete a
    record that has entered a tournament since (added or imported, then registered at the
    desk): the entries keep their player."""
    try:
        pk = int(event_id)
    except (TypeError, ValueError):
        pk = 0
    event = Event.objects.filter(pk=pk, tournament__isnull=True).first() if 0 < pk < 2**63 else None
    undo = (event.payload or {}).get("undo") or {} if event is not None else {}
    made = [pk for label, pk in undo.get("created", []) if label == PLAYER_LABEL]
    entered = Player.objects.filter(pk__in=made, entries__isnull=False).distinct()
    names = sorted(entered.values_list("name", flat=True)[:5])
    if names and not event.undone:
        params = {"names": ", ".join(names)}
        raise DomainError("players_entered", MSG_ENTERED, status=409, params=params)
    try:
        return room_undo(event_id=pk, actor=actor)
    except ProtectedError as exc:  # an entry made between this check and the undo's lock
        raise DomainError(
            "players_entered", MSG_ENTERED, status=409, params={"names": "some"}
        ) from exc
