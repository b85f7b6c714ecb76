"""URLs of the director dashboard. Names: tourney-dashboard, tourney-dashboard-<panel>."""

from django.urls import path

from tourney.views.dashboard import (
    backup,
    chip_counts,
    money,
    panels,
    redraw,
    rules,
    setup_views,
    tools,
    users,
)

P = "td/<int:tournament_id>/"

urlpatterns = [
    path("td/new/", setup_views.new, name="tourney-dashboard-setup"),
    path("td/restore/", backup.restore, name="tourney-dashboard-restore"),
    path("td/users/", users.users, name="tourney-dashboard-users"),
    path("td/rules/", rules.rules_page, name="tourney-rules"),
    path(P, panels.page, name="tourney-dashboard"),
    path(P + "version/", panels.version, name="tourney-dashboard-version"),
    path(P + "clock/", panels.clock, name="tourney-dashboard-clock"),
    path(P + "tables/", panels.tables_panel, name="tourney-dashboard-tables"),
    path(P + "tables/<int:number>/button/", panels.button, name="tourney-dashboard-button"),
    path(P + "tables/open/", panels.table_open, name="tourney-dashboard-table-open"),
    path(P + "tables/close/", panels.table_close, name="tourney-dashboard-table-close"),
    path(P + "tables/seat/", panels.seat_available, name="tourney-dashboard-seat"),
    path(P + "tables/break-order/", panels.break_order, name="tourney-dashboard-break-order"),
    path(P + "tables/move/", panels.move_manual, name="tourney-dashboard-move"),
    path(P + "eliminations/", panels.eliminations, name="tourney-dashboard-eliminations"),
    path(P + "hand-for-hand/", panels.hand_for_hand, name="tourney-dashboard-hand-for-hand"),
    path(P + "moves/", panels.moves, name="tourney-dashboard-moves"),
    path(P + "log/", panels.log_panel, name="tourney-dashboard-log"),
    path(P + "log/undo/", panels.undo, name="tourney-dashboard-undo"),
    path(P + "log.csv", panels.log_csv, name="tourney-dashboard-log-csv"),
    path(P + "chip-counts/", chip_counts.chip_counts, name="tourney-dashboard-chip-counts"),
    path(P + "money/", money.money_panel, name="tourney-dashboard-money"),
    path(P + "money/deal/", money.deal, name="tourney-dashboard-deal"),
    path(P + "money/payouts/", money.payouts, name="tourney-dashboard-payouts"),
    path(
        P + "money/close/",
        money.registration_close,
        name="tourney-dashboard-registration-close",
    ),
    path(P + "colorup/", money.colorup_page, name="tourney-dashboard-colorup"),
    path(P + "colorup/<int:number>/", money.colorup_race, name="tourney-dashboard-colorup-race"),
    path(
        P + "colorup/<int:number>/undo/", money.colorup_undo, name="tourney-dashboard-colorup-undo"
    ),
    path(P + "colorup/finish/", money.colorup_finish, name="tourney-dashboard-colorup-finish"),
    path(P + "floor/", tools.floor, name="tourney-dashboard-floor"),
    path(P + "floor/<str:tool>/", tools.floor, name="tourney-dashboard-floor-tool"),
    path(P + "structure/", tools.structure, name="tourney-dashboard-structure"),
    path(P + "copy/", setup_views.copy, name="tourney-dashboard-copy"),
    path(P + "settings/", setup_views.settings_page, name="tourney-dashboard-settings"),
    path(P + "print/tables/", tools.print_tables, name="tourney-dashboard-print-tables"),
    path(P + "print/seating/", tools.print_seating, name="tourney-dashboard-print-seating"),
    path(P + "print/redraw/", redraw.print_redraw, name="tourney-dashboard-print-redraw"),
    path(P + "backup.json", backup.download, name="tourney-dashboard-backup"),
    path(P + "display-token/", users.display_token, name="tourney-dashboard-display-token"),
    path(P + "log/<int:event_id>/", panels.log_event, name="tourney-dashboard-log-event"),
]
