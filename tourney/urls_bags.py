"""URLs of a flight's bag and tag (RULES 10.4): the table-by-table bag form, closing the bags,
the bag labels and the chip count report (print and CSV)."""

from django.urls import path  # noqa: F401  (the screens add their paths)

urlpatterns: list = []
