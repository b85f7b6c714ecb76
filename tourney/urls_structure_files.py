"""URLs of structure files (issue 29): the structure as JSON or text to download, and the
import with its preview (docs/structure-files.md)."""

from django.urls import path

from tourney.views.dashboard import structure_files

P = "td/<int:tournament_id>/structure/"

urlpatterns = [
    path(
        P + "structure.json",
        structure_files.structure_export_json,
        name="tourney-dashboard-structure-json",
    ),
    path(
        P + "structure.txt",
        structure_files.structure_export_text,
        name="tourney-dashboard-structure-text",
    ),
    path(
        "td/new/structure-file/",
        structure_files.setup_structure_file,
        name="tourney-dashboard-setup-structure-file",
    ),
    path(
        P + "import/",
        structure_files.structure_import,
        name="tourney-dashboard-structure-import",
    ),
]
