"""Issue 27: the player database's screens: who sees them, the forms' refusals in place, the
merge, import, export and undo through the screens, and that no public page shows a player's
personal data."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tourney import services
from tourney.models import Entry, Event, Player

pytestmark = pytest.mark.django_db

SECRET = {"email": "secret.ann@example.org", "phone": "+44 7700 900123", "notes": "owes 20 quid"}
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def ann(seated_tournament):
    """Player 01 of the seated tournament, with personal data."""
    p = Entry.objects.get(tournament=seated_tournament, number=1).player
    Player.objects.filter(pk=p.pk).update(name="Ann Lee", membership="M-7", **SECRET)
    p.refresh_from_db()
    return p


# ---------------------------------------------------------------- roles


@pytest.mark.parametrize(
    ("name", "desk_ok"),
    [
        ("tourney-players", True),
        ("tourney-players-new", True),
        ("tourney-players-detail", True),
        ("tourney-players-edit", True),
        ("tourney-players-merge", False),
        ("tourney-players-anonymise", False),
        ("tourney-players-import", False),
        ("tourney-players-export", False),
        ("tourney-players-changes", False),
    ],
)
def test_roles(director, desk_clerk, stranger, ann, name, desk_ok):
    args = [ann.pk] if name.endswith(("detail", "edit", "merge", "anonymise")) else []
    url = reverse(name, args=args)
    anon = _client().get(url)
    assert anon.status_code == 302 and anon["Location"].startswith("/login/")
    assert _client(stranger).get(url).status_code == 403
    assert _client(desk_clerk).get(url).status_code == (200 if desk_ok else 403)
    assert _client(director).get(url).status_code == 200


def test_the_list_searches_and_the_page_shows_personal_data_to_staff(desk_clerk, ann):
    c = _client(desk_clerk)
    r = c.get(reverse("tourney-players"), {"q": "m-7"})
    body = r.content.decode()
    assert "Ann Lee" in body and "Player 02" not in body
    assert SECRET["email"] in body
    page = c.get(reverse("tourney-players-detail", args=[ann.pk])).content.decode()
    assert SECRET["phone"] in page and SECRET["notes"] in page
    assert "Friday 50" in page  # the history


def test_home_links_the_players_list(td):
    assert reverse("tourney-players") in td.get(reverse("home")).content.decode()


def test_public_pages_never_show_personal_data(client, ann, seated_tournament, td):
    """The display, its state and the phone page (also looked up by the name) show the name
    only."""
    t = seated_tournament
    token = t.display_token
    urls = [
        reverse("tourney-display", args=[token]),
        reverse("tourney-display-state", args=[token]),
        reverse("tourney-player", args=[token]),
        reverse("tourney-player", args=[token]) + "?name=Ann",
        reverse("tourney-player-find", args=[token]) + "?name=Ann",
    ]
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        body = r.content.decode()
        for value in (*SECRET.values(), "M-7"):
            assert value not in body, url


# ---------------------------------------------------------------- forms


def test_new_player_refusal_keeps_what_was_typed(td):
    r = td.post(reverse("tourney-players-new"), {"name": "Bo", "email": "nope", "phone": "12345"})
    assert r.status_code == 400
    body = r.content.decode()
    assert "Enter a valid email address." in body and 'value="12345"' in body
    assert not Player.objects.filter(name="Bo").exists()


def test_edit_with_photo_served_to_staff_only(td, ann, settings, tmp_path, stranger):
    settings.MEDIA_ROOT = tmp_path
    data = {"name": "Ann Lee", "membership": "M-7", "photo": SimpleUploadedFile("a.gif", GIF)}
    r = td.post(reverse("tourney-players-edit", args=[ann.pk]), data)
    assert r.status_code == 302
    ann.refresh_from_db()
    assert ann.photo.name.startswith("players/") and ann.email == ""
    url = reverse("tourney-players-photo", args=[ann.pk])
    got = td.get(url)
    assert got.status_code == 200 and got["Content-Type"] == "image/gif"
    assert b"".join(got.streaming_content) == GIF
    assert _client(stranger).get(url).status_code == 403


def test_a_file_that_is_not_an_image_is_refused(td, ann, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    bad = SimpleUploadedFile("a.png", b"not an image")
    r = td.post(reverse("tourney-players-edit", args=[ann.pk]), {"name": "Ann", "photo": bad})
    assert r.status_code == 400
    assert "Upload a photo" in r.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Ann Lee" and not ann.photo


def test_anonymise_needs_the_typed_name(td, ann):
    url = reverse("tourney-players-anonymise", args=[ann.pk])
    r = td.post(url, {"confirm": "Ann"})
    assert r.status_code == 400
    ann.refresh_from_db()
    assert ann.email == SECRET["email"]
    assert td.post(url, {"confirm": "Ann Lee"}).status_code == 302
    ann.refresh_from_db()
    assert ann.name == f"Removed player #{ann.pk}" and ann.email == ""
    assert Entry.objects.filter(player=ann).count() == 1


# ---------------------------------------------------------------- merge, import, export, undo


def test_merge_confirm_then_undo_from_recent_changes(td, ann, director):
    t2 = services.tournament_create(
        actor=director,
        name="Other night",
        seats_per_table=9,
        tables=1,
        starting_stack=1000,
        buy_in=1000,
        fee=0,
        seed=1,
        levels=[
            {
                "kind": "level",
                "small_blind": 25,
                "big_blind": 50,
                "ante": 0,
                "big_blind_ante": 0,
                "minutes": 20,
            }
        ],
    )
    services.entry_register(tournament_id=t2.pk, name="Annie L", actor=director)
    other = Player.objects.get(name="Annie L")
    url = reverse("tourney-players-merge", args=[ann.pk])
    found = td.get(url, {"q": "annie"}).content.decode()
    assert f"?other={other.pk}" in found
    confirm = td.get(url, {"other": other.pk}).content.decode()
    assert "Other night" in confirm and "1 entry move" in confirm
    assert td.post(url, {"other": other.pk}).status_code == 302
    assert Entry.objects.filter(player=ann).count() == 2
    changes = td.get(reverse("tourney-players-changes")).content.decode()
    event = Event.objects.get(kind="players_merged")
    assert f'value="{event.pk}"' in changes
    r = td.post(reverse("tourney-players-changes"), {"event": event.pk})
    assert r.status_code == 302
    assert Entry.objects.filter(player=other).count() == 1
    again = td.post(reverse("tourney-players-changes"), {"event": event.pk})
    assert again.status_code == 409


def test_import_map_preview_errors_then_import(td):
    url = reverse("tourney-players-import")
    text = "Name;Email;Member\nZed;z@x.org;1\n;bad;2\n"
    mapped = td.post(url, {"step": "map", "csv_text": text}).content.decode()
    assert re.search(r'<option value="1" selected>Email</option>', mapped)
    mapping = {"name": "0", "email": "1", "membership": "2"}
    r = td.post(url, {"step": "preview", "csv_text": text, **mapping})
    body = r.content.decode()
    assert "Enter the player&#x27;s name." in body and 'id="import-confirm"' not in body
    r = td.post(url, {"step": "import", "csv_text": text, **mapping})
    assert r.status_code == 400 and not Player.objects.exists()
    fixed = text.replace(";bad;2", "Amy;amy@x.org;2")
    assert (
        'id="import-confirm"'
        in td.post(url, {"step": "preview", "csv_text": fixed, **mapping}).content.decode()
    )
    upload = SimpleUploadedFile("p.csv", fixed.encode("utf-8-sig"))
    r = td.post(url, {"step": "import", "file": upload, **mapping})
    assert r.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Amy", "Zed"]


def test_export_makes_formulas_text(td, ann):
    Player.objects.filter(pk=ann.pk).update(nickname="=HYPERLINK(1)")
    r = td.get(reverse("tourney-players-export"))
    assert r["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0] == ["id", "name", "nickname", "email", "phone", "membership", "notes", "created"]
    mine = next(row for row in rows if row[0] == str(ann.pk))
    assert mine[1:7] == [
        "Ann Lee",
        "'=HYPERLINK(1)",
        SECRET["email"],
        "'" + SECRET["phone"],  # a leading + starts a formula too: made text
        "M-7",
        SECRET["notes"],
    ]
    assert len(rows) == 1 + Player.objects.count()


def test_a_photo_over_2_mb_is_refused_before_it_is_read(td, ann, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    big = SimpleUploadedFile("big.gif", GIF + b"\0" * (2 * 1024 * 1024))
    r = td.post(reverse("tourney-players-edit", args=[ann.pk]), {"name": "Ann", "photo": big})
    assert r.status_code == 400
    assert "larger than 2 MB" in r.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Ann Lee" and not ann.photo
    assert not any(tmp_path.rglob("*.gif"))


def test_the_search_answers_htmx_with_the_results_only(td, ann):
    r = td.get(reverse("tourney-players"), {"q": "ann"}, HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="results">')
    assert "Ann Lee" in body and "<header" not in body


def test_an_undo_that_would_delete_an_entered_player_is_refused_in_place(td, director):
    td.post(reverse("tourney-players-new"), {"name": "Zoe Quinn"})
    zoe = Player.objects.get(name="Zoe Quinn")
    t = services.tournament_create(actor=director, name="Late game", tables=1, seed=2)
    services.entry_register(tournament_id=t.pk, player_id=zoe.pk, actor=director)
    event = Event.objects.get(kind="player_created")
    r = td.post(reverse("tourney-players-changes"), {"event": event.pk})
    assert r.status_code == 409
    assert "Zoe Quinn entered a tournament since" in r.content.decode()
    assert Player.objects.filter(pk=zoe.pk).exists()
