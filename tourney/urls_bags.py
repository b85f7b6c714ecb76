"""URLs of a flight's bag and tag (RULES 10.4): the table-by-table bag form, closing the bags,
the bag labels and the chip count report (print and CSV)."""

from django.urls import path

from tourney.views.dashboard import bags

P = "td/<int:tournament_id>/bags/"

urlpatterns = [
    path(P, bags.bags, name="tourney-dashboard-bags"),
    path(P + "close/", bags.bags_close, name="tourney-dashboard-bags-close"),
    path(P + "labels/", bags.bag_labels, name="tourney-dashboard-bag-labels"),
    path(P + "report/", bags.chip_report, name="tourney-dashboard-chip-report"),
    path(P + "report.csv", bags.chip_report_csv, name="tourney-dashboard-chip-report-csv"),
]
