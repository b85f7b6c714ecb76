"""Issue 27: the player database's services (create, update, merge, anonymise, import) and
their room-level undo."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.core.room_journal import room_undo
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Knockout, Player, Tournament
from tourney.selectors import players as reads
from tourney.services import players, players_import

pytestmark = pytest.mark.django_db


def _new_tournament(director, name="Saturday 30"):
    return services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=9,
        tables=2,
        starting_stack=20000,
        buy_in=3000,
        fee=300,
        seed=3,
        levels=TWO_LEVELS,
    )


def _register(t, name, director) -> Entry:
    services.entry_register(tournament_id=t.pk, name=name, actor=director)
    return Entry.objects.filter(tournament=t, player__name=name).latest("pk")


def _room_events(kind):
    return Event.objects.filter(tournament__isnull=True, kind=kind)


def _state():
    rows = Player.objects.order_by("pk").values()
    entries = Entry.objects.order_by("pk").values_list("pk", "player_id")
    return [dict(r) for r in rows], list(entries)


# ---------------------------------------------------------------- create and update


def test_create_trims_validates_and_is_undone(director):
    p = players.player_create(
        data={"name": "  Ann   Lee ", "email": " ann@example.org ", "membership": " M-1 "},
        actor=director,
    )
    p.refresh_from_db()
    assert (p.name, p.email, p.membership) == ("Ann Lee", "ann@example.org", "M-1")
    event = _room_events("player_created").get()
    assert event.actor == director
    room_undo(event_id=event.pk, actor=director)
    assert not Player.objects.filter(pk=p.pk).exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": "  "}, "name", players.MSG_NAME_REQUIRED),
        ({"name": "Bo", "email": "not-an-email"}, "email", players.MSG_EMAIL),
        ({"name": "x" * 121}, "name", players.MSG_TOO_LONG.format(n=120)),
        ({"name": "Bo\x00b"}, "name", players.MSG_CONTROL),
    ],
)
def test_create_refusals_write_nothing(director, data, field, message):
    before = _state(), Event.objects.count()
    with pytest.raises(DomainError) as err:
        players.player_create(data=data, actor=director)
    assert err.value.code == "bad_input"
    assert err.value.fields[field] == message
    assert (_state(), Event.objects.count()) == before


def test_membership_taken_ignores_case_and_the_player_itself(director):
    a = players.player_create(data={"name": "Ann", "membership": "M-1"}, actor=director)
    with pytest.raises(DomainError) as err:
        players.player_create(data={"name": "Bob", "membership": "m-1"}, actor=director)
    assert err.value.code == "membership_taken"
    assert "Ann" in err.value.fields["membership"]
    same = players.player_update(
        player_id=a.pk, data={"name": "Ann B", "membership": "M-1"}, actor=director
    )
    assert same.name == "Ann B"


def test_update_is_undone_exactly(director):
    p = players.player_create(data={"name": "Ann", "phone": "123"}, actor=director)
    players.player_update(
        player_id=p.pk, data={"name": "Anne", "email": "a@b.org", "notes": "VIP"}, actor=director
    )
    p.refresh_from_db()
    assert (p.name, p.phone, p.email, p.notes) == ("Anne", "", "a@b.org", "VIP")
    room_undo(event_id=_room_events("player_updated").get().pk, actor=director)
    p.refresh_from_db()
    assert (p.name, p.phone, p.email, p.notes) == ("Ann", "123", "", "")


def test_photo_too_big_is_refused(director, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    big = SimpleUploadedFile("a.png", b"0" * (players.MAX_PHOTO_BYTES + 1), "image/png")
    with pytest.raises(DomainError) as err:
        players.player_create(data={"name": "Ann"}, photo=big, actor=director)
    assert err.value.code == "photo_too_big"
    assert not Player.objects.exists()


# ---------------------------------------------------------------- merge


@pytest.fixture
def two_records(director):
    """One person under two records: "Ann Lee" (a finished tournament, with a knock-out) and
    "Annie" (another tournament, with an email and a membership number)."""
    t1 = _new_tournament(director, "Monday")
    ann = _register(t1, "Ann Lee", director)
    other = _register(t1, "Carl", director)
    Knockout.objects.create(tournament=t1, hand=1, busted=other, winner=ann)
    Tournament.objects.filter(pk=t1.pk).update(status=Tournament.Status.FINISHED)
    t2 = _new_tournament(director, "Tuesday")
    annie = _register(t2, "Annie", director)
    Player.objects.filter(pk=annie.player_id).update(email="ann@x.org", membership="77")
    return ann.player, annie.player, t1, t2


def test_merge_moves_entries_fills_fields_and_hides_the_record(director, two_records):
    keep, merge, t1, t2 = two_records
    v2 = Tournament.objects.get(pk=t2.pk).version
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    keep.refresh_from_db()
    merge.refresh_from_db()
    assert set(Entry.objects.filter(player=keep).values_list("tournament__name", flat=True)) == {
        "Monday",
        "Tuesday",
    }
    assert not Entry.objects.filter(player=merge).exists()
    assert (keep.email, keep.membership, keep.name) == ("ann@x.org", "77", "Ann Lee")
    assert merge.merged_into_id == keep.pk
    listed, _ = reads.players_search("")
    assert merge not in listed and keep in listed
    assert Tournament.objects.get(pk=t2.pk).version > v2  # its screens read the name again
    assert Knockout.objects.get().winner.player_id == keep.pk


def test_merge_undo_restores_exactly(director, two_records):
    keep, merge, *_ = two_records
    before = _state()
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    assert _state() != before
    room_undo(event_id=_room_events("players_merged").get().pk, actor=director)
    assert _state() == before


@pytest.mark.parametrize("case", ["same", "anonymised", "merged", "running", "missing"])
def test_merge_refusals_change_nothing(director, two_records, case):
    keep, merge, t1, t2 = two_records
    keep_id, merge_id, code = keep.pk, merge.pk, None
    if case == "same":
        merge_id, code = keep.pk, "same_player"
    elif case == "anonymised":
        players.player_anonymise(player_id=merge.pk, confirm="Annie", actor=director)
        code = "anonymised"
    elif case == "merged":
        third = players.player_create(data={"name": "Ann 3"}, actor=director)
        players.players_merge(keep_id=third.pk, merge_id=merge.pk, actor=director)
        code = "already_merged"
    elif case == "running":
        _register(t2, "Ann Lee", director)  # both records hold an entry of Tuesday
        keep = Entry.objects.filter(tournament=t2, player__name="Ann Lee").get().player
        keep_id, code = keep.pk, "same_tournament"
    else:
        merge_id, code = 10**9, "not_found"
    before = _state(), Event.objects.count()
    with pytest.raises(DomainError) as err:
        players.players_merge(keep_id=keep_id, merge_id=merge_id, actor=director)
    assert err.value.code == code
    assert (_state(), Event.objects.count()) == before


def test_merge_in_a_finished_shared_tournament_is_allowed(director, two_records):
    keep, merge, t1, _ = two_records
    Entry.objects.filter(player=merge).update(tournament=t1, number=99)
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    assert Entry.objects.filter(tournament=t1, player=keep).count() == 2


# ---------------------------------------------------------------- anonymise


def test_anonymise_drops_the_data_and_keeps_the_results(director, two_records, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    keep, merge, t1, _ = two_records
    Entry.objects.filter(player=keep).update(place=1, place_to=1, prize=9000)
    photo = SimpleUploadedFile("ann.gif", b"GIF89a", "image/gif")
    players.player_update(
        player_id=keep.pk,
        data={"name": "Ann Lee", "email": "ann@lee.org", "phone": "555", "notes": "x"},
        photo=photo,
        actor=director,
    )
    keep.refresh_from_db()
    path = tmp_path / keep.photo.name
    assert path.exists()
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    with pytest.raises(DomainError) as err:
        players.player_anonymise(player_id=keep.pk, confirm="Ann", actor=director)
    assert err.value.code == "confirm_mismatch"
    with django_capture_on_commit():
        players.player_anonymise(player_id=keep.pk, confirm="Ann Lee", actor=director)
    keep.refresh_from_db()
    merge.refresh_from_db()
    for p in (keep, merge):
        assert p.name == f"Removed player #{p.pk}"
        assert (p.email, p.phone, p.membership, p.notes, p.nickname, p.photo.name) == ("",) * 6
        assert p.anonymised_at is not None
    assert not path.exists()
    e = Entry.objects.get(player=keep, tournament=t1)
    assert (e.place, e.prize) == (1, 9000)
    # nothing of the person in the room log, and nothing of it can be undone
    text = str(list(Event.objects.filter(tournament__isnull=True).values_list("payload")))
    for secret in ("ann@lee.org", "555", "ann@x.org", "Annie", "Ann Lee"):
        assert secret not in text
    # nor in the tournaments' logs (their registrations named both records); Carl stays
    logs = str(list(Event.objects.filter(tournament__isnull=False).values_list("payload")))
    assert "Ann Lee" not in logs and "Annie" not in logs and "Carl" in logs
    assert f"Removed player #{keep.pk}" in logs and f"Removed player #{merge.pk}" in logs
    event = _room_events("player_anonymised").get()
    assert "undo" not in event.payload
    with pytest.raises(DomainError) as err:
        room_undo(event_id=event.pk, actor=director)
    assert err.value.code == "not_undoable"
    with pytest.raises(DomainError) as err:
        room_undo(event_id=_room_events("players_merged").get().pk, actor=director)
    assert err.value.code == "not_undoable"


def django_capture_on_commit():
    """Runs the on-commit callbacks of the block (the test's transaction never commits)."""
    from django.db import connection
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(using=connection.alias, execute=True)


# ---------------------------------------------------------------- import

GOOD = "\ufeffName;E-mail;Member no;Phone\nAnn Lee;ann@x.org;10;555\nBob;;11;\n\nCid;c@x.org;;\n"
MAPPING = {"name": "0", "email": "1", "membership": "2", "phone": "3"}


def test_import_reads_bom_semicolons_and_guesses_columns():
    headers, rows = players_import.csv_read(GOOD)
    assert headers == ["Name", "E-mail", "Member no", "Phone"]
    assert [cells[0] for _, cells in rows] == ["Ann Lee", "Bob", "Cid"]
    guess = players_import.mapping_guess(headers)
    assert guess == {
        "name": 0,
        "nickname": None,
        "email": 1,
        "phone": 3,
        "membership": 2,
        "notes": None,
    }


def test_import_dry_run_writes_nothing_then_imports_all_and_undo_deletes_them(director):
    preview = players_import.players_import(
        csv_text=GOOD, mapping=MAPPING, dry_run=True, actor=director
    )
    assert (preview["count"], preview["bad"]) == (3, 0)
    assert not Player.objects.exists()
    done = players_import.players_import(
        csv_text=GOOD.replace(";", ","), mapping=MAPPING, dry_run=False, actor=director
    )
    assert done["created"] == 3
    ann = Player.objects.get(name="Ann Lee")
    assert (ann.email, ann.membership, ann.phone) == ("ann@x.org", "10", "555")
    room_undo(event_id=_room_events("players_imported").get().pk, actor=director)
    assert not Player.objects.exists()


def test_import_with_one_bad_row_writes_nothing(director):
    players.player_create(data={"name": "Old", "membership": "11"}, actor=director)
    text = GOOD + ";bad-email;12;\nDee;;10;\n"
    preview = players_import.import_preview(text, MAPPING)
    errors = {r["line"]: r["errors"] for r in preview["rows"] if r["errors"]}
    assert errors == {
        3: {"membership": players_import.MSG_DUP_DB.format(m="11", name="Old")},
        6: {"name": players.MSG_NAME_REQUIRED, "email": players.MSG_EMAIL},
        7: {"membership": players_import.MSG_DUP_FILE.format(m="10", line=2)},
    }
    before = _state(), Event.objects.count()
    with pytest.raises(DomainError) as err:
        players_import.players_import(csv_text=text, mapping=MAPPING, dry_run=False)
    assert err.value.code == "import_errors"
    assert (_state(), Event.objects.count()) == before


@pytest.mark.parametrize(
    ("text", "mapping", "code"),
    [
        ("", MAPPING, "empty"),
        ("a,b\n" + "x,y\n" * (players_import.MAX_ROWS + 1), {"name": "0"}, "too_many_rows"),
        ("a\n" + "x" * players_import.MAX_BYTES, {"name": "0"}, "too_big"),
        (GOOD, {"email": "1"}, "bad_mapping"),
        (GOOD, {"name": "9"}, "bad_mapping"),
    ],
)
def test_import_refuses_bad_files(text, mapping, code):
    with pytest.raises(DomainError) as err:
        players_import.players_import(csv_text=text, mapping=mapping, dry_run=True)
    assert err.value.code == code


# ---------------------------------------------------------------- reads


def test_history_totals_and_search(director, two_records):
    keep, merge, t1, t2 = two_records
    Entry.objects.filter(player=keep).update(place=1, place_to=1, prize=5000, bounty_won=700)
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    history = reads.player_history(keep)
    assert [r["tournament_id"] for r in history["rows"]] == [t2.pk, t1.pk]
    assert history["totals"] == {
        "events": 2,
        "wins": 1,
        "cashes": 1,
        "winnings": 5000,
        "bounties": 700,
    }
    assert [p.pk for p in reads.players_search("77")[0]] == [keep.pk]
    assert [p.pk for p in reads.players_search("ann@x")[0]] == [keep.pk]
    assert reads.players_search("Annie")[0] == []  # the merged record is not listed


def test_undo_of_an_import_is_refused_once_a_player_entered(director):
    players_import.players_import(csv_text=GOOD, mapping=MAPPING, dry_run=False, actor=director)
    event = _room_events("players_imported").get()
    t = _new_tournament(director)
    bob = Player.objects.get(name="Bob")
    services.entry_register(tournament_id=t.pk, player_id=bob.pk, name="", actor=director)
    with pytest.raises(DomainError) as err:
        players.player_action_undo(event_id=event.pk, actor=director)
    assert err.value.code == "players_entered"
    assert "Bob" in err.value.message
    assert Player.objects.count() == 3
    event.refresh_from_db()
    assert not event.undone


def test_desk_registration_of_a_merged_record_goes_to_the_kept_one(director, two_records):
    keep, merge, t1, t2 = two_records
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    t3 = _new_tournament(director, "Wednesday")
    services.entry_register(tournament_id=t3.pk, player_id=merge.pk, name="", actor=director)
    assert Entry.objects.get(tournament=t3).player_id == keep.pk


def test_desk_search_finds_imported_players_but_not_merged_or_removed_ones(director, two_records):
    from tourney.selectors.desk import player_search

    keep, merge, t1, t2 = two_records
    players_import.players_import(csv_text=GOOD, mapping=MAPPING, dry_run=False, actor=director)
    t3 = _new_tournament(director, "Wednesday")
    assert [r["name"] for r in player_search(t3, "Cid")] == ["Cid"]
    assert [r["name"] for r in player_search(t3, "10")] == ["Ann Lee"]  # membership number
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    assert [r["name"] for r in player_search(t3, "Annie")] == []
    players.player_anonymise(player_id=keep.pk, confirm="Ann Lee", actor=director)
    assert [r["id"] for r in player_search(t3, "Removed")] == []


def test_anonymise_reaches_a_chain_of_merged_records(director, two_records):
    keep, merge, *_ = two_records
    third = players.player_create(data={"name": "A. Lee", "email": "al@x.org"}, actor=director)
    players.players_merge(keep_id=keep.pk, merge_id=merge.pk, actor=director)
    players.players_merge(keep_id=third.pk, merge_id=keep.pk, actor=director)
    players.player_anonymise(player_id=third.pk, confirm="A. Lee", actor=director)
    for p in (keep, merge, third):
        p.refresh_from_db()
        assert p.anonymised_at is not None and p.email == ""
