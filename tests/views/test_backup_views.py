"""Issue 24: the dashboard's Download backup (directors only) and Restore from backup."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.services.test_backup import normalised
from tourney import services
from tourney.models import Entry, Tournament
from tourney.selectors import backup as reads

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def event(director):
    t = services.tournament_create(actor=director, name="Sunday", tables=2, seed=4, buy_in=1000)
    for i in range(5):
        services.entry_register(tournament_id=t.pk, name=f"B{i}", actor=director)
    return t


def test_the_director_downloads_the_backup_as_a_dated_json_file(director, event):
    with time_machine.travel(datetime(2026, 6, 7, 12, tzinfo=UTC)):
        r = _client(director).get(reverse("tourney-dashboard-backup", args=[event.pk]))
    assert r.status_code == 200
    assert r["Content-Type"].startswith("application/json")
    assert r["Content-Disposition"] == f'attachment; filename="tourney-{event.pk}-2026-06-07.json"'
    doc = json.loads(r.content)
    assert doc["format"] == reads.FORMAT and doc["schema"] == reads.schema_current()
    assert normalised(doc) == normalised(
        json.loads(json.dumps(reads.tournament_document(event.pk)))
    )
    assert len(doc["rows"]["tourney.entry"]) == 5


def test_the_dashboard_offers_the_backup_and_the_restore(director, event):
    page = _client(director).get(reverse("tourney-dashboard", args=[event.pk])).content.decode()
    url = reverse("tourney-dashboard-backup", args=[event.pk])
    assert re.search(rf'href="{url}"[^>]*>Download backup<', page)
    assert reverse("tourney-dashboard-restore") in page


def test_the_backup_is_for_directors_only(desk_clerk, event):
    url = reverse("tourney-dashboard-backup", args=[event.pk])
    assert _client(desk_clerk).get(url).status_code == 403
    r = Client().get(url)
    assert r.status_code == 302 and "login" in r["Location"]
    assert _client(desk_clerk).get(reverse("tourney-dashboard-restore")).status_code == 403
    assert Client().post(reverse("tourney-dashboard-restore")).status_code == 302


def test_a_restored_backup_opens_as_a_new_tournament(director, event):
    body = json.dumps(reads.tournament_document(event.pk)).encode()
    c = _client(director)
    assert c.get(reverse("tourney-dashboard-restore")).status_code == 200
    r = c.post(
        reverse("tourney-dashboard-restore"),
        {"backup": SimpleUploadedFile("b.json", body, content_type="application/json")},
    )
    copy = Tournament.objects.order_by("-pk").first()
    assert copy.pk != event.pk
    assert r.status_code == 302 and r["Location"] == reverse("tourney-dashboard", args=[copy.pk])
    assert Entry.objects.filter(tournament=copy).count() == 5


def test_a_restore_sent_twice_with_its_nonce_is_one_tournament(director, event):
    """Issue 24: the upload form carries its one-time nonce; the same form sent again (a
    double click, a tablet waking up) answers the same redirect and restores nothing more."""
    body = json.dumps(reads.tournament_document(event.pk)).encode()
    c = _client(director)
    html = c.get(reverse("tourney-dashboard-restore")).content.decode()
    nonce = re.search(r'name="nonce" value="([^"]+)"', html).group(1)
    count = Tournament.objects.count()
    answers = [
        c.post(
            reverse("tourney-dashboard-restore"),
            {
                "nonce": nonce,
                "backup": SimpleUploadedFile("b.json", body, content_type="application/json"),
            },
        )
        for _ in range(2)
    ]
    assert Tournament.objects.count() == count + 1
    assert answers[0].status_code == answers[1].status_code == 302
    assert answers[0]["Location"] == answers[1]["Location"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{nope", "backup_invalid"),
        (json.dumps({"format": 1}).encode(), "backup_invalid"),
        (json.dumps({"format": 99, "rows": {}}).encode(), "backup_format_newer"),
    ],
)
def test_a_bad_file_is_refused_with_its_reason_and_nothing_written(director, event, body, code):
    count = Tournament.objects.count()
    r = _client(director).post(
        reverse("tourney-dashboard-restore"),
        {"backup": SimpleUploadedFile("b.json", body, content_type="application/json")},
    )
    assert r.status_code == 400
    assert f'data-code="{code}"' in r.content.decode()
    assert Tournament.objects.count() == count


def test_no_file_is_a_form_error(director):
    r = _client(director).post(reverse("tourney-dashboard-restore"), {})
    assert r.status_code == 400 and 'data-code="bad_input"' in r.content.decode()
