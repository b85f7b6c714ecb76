"""URLs of the players screens (issue 27)."""

from django.urls import path

from tourney.views.players import changes, merge, records, transfer

urlpatterns: list = [
    path("players/", records.players_list, name="tourney-players"),
    path("players/new/", records.player_new, name="tourney-players-new"),
    path("players/import/", transfer.players_import_view, name="tourney-players-import"),
    path("players/export.csv", transfer.players_export, name="tourney-players-export"),
    path("players/changes/", changes.players_changes, name="tourney-players-changes"),
    path("players/<int:player_id>/", records.player_detail, name="tourney-players-detail"),
    path("players/<int:player_id>/edit/", records.player_edit, name="tourney-players-edit"),
    path("players/<int:player_id>/photo/", records.player_photo, name="tourney-players-photo"),
    path("players/<int:player_id>/merge/", merge.player_merge, name="tourney-players-merge"),
    path(
        "players/<int:player_id>/remove/",
        records.player_anonymise,
        name="tourney-players-anonymise",
    ),
]
