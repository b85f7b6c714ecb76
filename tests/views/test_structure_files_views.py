"""The structure page's files (issue 29): downloads, the import's preview and confirm, errors
per line with nothing written, the role, the German screen."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tourney.models import Event, Level
from tourney.selectors.clock import structure_items

pytestmark = pytest.mark.django_db

GOOD = "20, 100, 200\n15, Break, color up 25\n20, 200, 400, 400 BBA\n"
BAD = "20, 100, 200\n20, 200, 400\n# note\n20, 400, 300\n"


def url(t, name):
    return {
        "json": f"/td/{t.pk}/structure/structure.json",
        "text": f"/td/{t.pk}/structure/structure.txt",
        "import": f"/td/{t.pk}/structure/import/",
        "page": f"/td/{t.pk}/structure/",
    }[name]


def levels(t):
    return list(
        Level.objects.filter(tournament=t)
        .order_by("index")
        .values_list("kind", "small_blind", "big_blind", "big_blind_ante", "seconds")
    )


def test_the_structure_page_offers_the_exports_and_the_import(td, tournament):
    r = td.get(url(tournament, "page"))
    html = r.content.decode()
    assert r.status_code == 200
    assert f'href="{url(tournament, "json")}"' in html
    assert f'href="{url(tournament, "text")}"' in html
    assert 'enctype="multipart/form-data"' in html
    assert "/static/schemas/structure-v1.schema.json" in html


def test_export_json_is_a_download_of_the_document(td, tournament):
    r = td.get(url(tournament, "json"))
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json; charset=utf-8"
    assert r["Content-Disposition"] == 'attachment; filename="friday-50-structure.json"'
    doc = json.loads(r.content)
    assert (doc["format"], doc["version"], doc["name"]) == ("tourney.structure", 1, "Friday 50")
    assert doc["items"][1] == {"kind": "break", "minutes": 10, "label": "Break", "color_up": [25]}


def test_export_text_is_a_download_in_the_text_format(td, tournament):
    r = td.get(url(tournament, "text"))
    assert r["Content-Type"] == "text/plain; charset=utf-8"
    assert r["Content-Disposition"] == 'attachment; filename="friday-50-structure.txt"'
    assert r.content.decode().splitlines()[2:] == [
        "20, 100, 200, 200 BBA",
        "10, Color up 25",
        "20, 200, 400, 400 BBA",
    ]


def test_preview_shows_the_items_and_writes_nothing(td, tournament):
    before = levels(tournament)
    r = td.post(
        url(tournament, "import"), {"text": GOOD, "step": "preview"}, HTTP_HX_REQUEST="true"
    )
    html = r.content.decode()
    assert r.status_code == 200
    assert "Replace the structure with these 3 items?" in html
    assert 'name="step" value="import"' in html
    assert levels(tournament) == before


def test_a_file_upload_imports_after_the_confirm(td, tournament):
    upload = SimpleUploadedFile("s.txt", GOOD.encode(), content_type="text/plain")
    r = td.post(url(tournament, "import"), {"file": upload, "step": "preview"})
    assert r.status_code == 200 and b"these 3 items" in r.content
    r = td.post(url(tournament, "import"), {"text": GOOD, "step": "import"})
    assert r.status_code == 302 and r["Location"] == url(tournament, "page") + "?imported=1"
    assert levels(tournament) == [
        ("level", 100, 200, 0, 1200),
        ("break", 0, 0, 0, 900),
        ("level", 200, 400, 400, 1200),
    ]
    assert Event.objects.filter(tournament=tournament, kind="structure_set").count() == 1
    page = td.get(r["Location"]).content.decode()
    assert "The structure file was imported." in page


def test_htmx_import_redirects_the_whole_page(td, tournament):
    r = td.post(url(tournament, "import"), {"text": GOOD, "step": "import"}, HTTP_HX_REQUEST="true")
    assert r["HX-Redirect"] == url(tournament, "page") + "?imported=1"


def test_a_bad_line_is_listed_and_nothing_is_written(td, tournament):
    before = levels(tournament)
    r = td.post(url(tournament, "import"), {"text": BAD, "step": "import"}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 400
    assert (
        "Line 4: the big blind 300 is below the small blind 400: write the small blind "
        "first (&quot;20, 300, 400&quot;)"
    ) in html
    assert "Nothing was changed" in html
    assert levels(tournament) == before
    assert not Event.objects.filter(tournament=tournament, kind="structure_set").exists()


def test_chip_rule_problems_block_the_confirm(td, tournament):
    before = levels(tournament)
    r = td.post(
        url(tournament, "import"),
        {"text": "20, 130, 260\n", "step": "import"},
        HTTP_HX_REQUEST="true",
    )
    html = r.content.decode()
    assert r.status_code == 400
    assert "Line 1: The structure breaks the chip rules" in html
    assert 'value="import"' not in html
    assert levels(tournament) == before


def test_a_bad_json_document_names_the_item(td, tournament):
    doc = {
        "format": "tourney.structure",
        "version": 1,
        "items": [{"kind": "level", "small_blind": 100, "big_blind": 200}],
    }
    upload = SimpleUploadedFile("s.json", json.dumps(doc).encode(), "application/json")
    r = td.post(url(tournament, "import"), {"file": upload, "step": "preview"})
    assert r.status_code == 400
    assert "items[0]: Give minutes or seconds (one of them)." in r.content.decode()


def test_a_newer_version_says_what_to_do(td, tournament):
    doc = {"format": "tourney.structure", "version": 2, "items": []}
    r = td.post(url(tournament, "import"), {"text": json.dumps(doc), "step": "preview"})
    assert "The structure file has version 2; this app reads version 1" in r.content.decode()


def test_the_desk_may_not_import_or_export(client, desk_clerk, tournament):
    client.force_login(desk_clerk)
    before = structure_items(tournament)
    assert client.get(url(tournament, "json")).status_code == 403
    r = client.post(url(tournament, "import"), {"text": GOOD, "step": "import"})
    assert r.status_code == 403
    assert structure_items(tournament) == before


def test_the_screen_speaks_german(td, tournament):
    r = td.post(
        url(tournament, "import") + "?lang=de",
        {"text": BAD, "step": "preview"},
        HTTP_HX_REQUEST="true",
    )
    html = r.content.decode()
    assert "Strukturdateien" in html
    assert "Zeile 4: der Big Blind 300 ist kleiner als der Small Blind 400" in html


# -- the new-tournament page -----------------------------------------------------------------------

SETUP_FILE = "/td/new/structure-file/"


def test_the_setup_page_offers_a_structure_file(td):
    html = td.get("/td/new/").content.decode()
    assert f'action="{SETUP_FILE}"' in html
    assert 'hx-include="#setup-form"' in html


def test_a_structure_file_fills_the_setup_levels_box_and_creates_nothing(td, tournament):
    doc = {
        "format": "tourney.structure",
        "version": 1,
        "starting_stack": 30000,
        "items": [
            {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
            {"kind": "break", "minutes": 10, "color_up": [25]},
            {
                "kind": "level",
                "small_blind": 200,
                "big_blind": 400,
                "big_blind_ante": 400,
                "minutes": 20,
            },
        ],
    }
    count = type(tournament).objects.count()
    upload = SimpleUploadedFile("s.json", json.dumps(doc).encode(), "application/json")
    r = td.post(SETUP_FILE, {"file": upload, "name": "Sunday Stack"}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200
    assert "100/200 20\nbreak 10 color-up 25\n200/400/400 20</textarea>" in html
    assert 'value="30000"' in html
    assert 'value="Sunday Stack"' in html  # what was typed stays
    assert "The levels box holds the file's 2 levels" in html
    assert type(tournament).objects.count() == count


def test_a_bad_structure_file_on_the_setup_page_lists_its_lines(td):
    r = td.post(SETUP_FILE, {"text": "20, 100, 200\n20, x, 400\n"})
    html = r.content.decode()
    assert r.status_code == 400
    assert "Line 2: the small blind &quot;x&quot; is not a whole number" in html
    assert 'id="setup-form"' in html


def test_a_file_that_is_no_structure_lists_twenty_problems_and_counts_the_rest(td, tournament):
    text = "".join(f"line {n}\n" for n in range(1, 31))
    r = td.post(
        url(tournament, "import"), {"text": text, "step": "preview"}, HTTP_HX_REQUEST="true"
    )
    html = r.content.decode()
    assert html.count("<li>Line ") == 20
    assert "… and 10 more lines with a problem." in html


def test_the_setup_panel_speaks_spanish(td):
    html = td.get("/td/new/?lang=es").content.decode()
    assert "Importar un archivo de estructura" in html
    assert "Rellenar el cuadro de niveles" in html


def test_the_schema_is_published_where_its_id_says(client):
    r = client.get("/static/schemas/structure-v1.schema.json")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/json")
    assert json.loads(b"".join(r.streaming_content) if r.streaming else r.content)["$id"] == (
        "/static/schemas/structure-v1.schema.json"
    )
