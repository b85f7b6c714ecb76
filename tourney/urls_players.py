"""URLs of the players screens (issue 27)."""

from django.urls import path  # noqa: F401  (the screens add their paths)

urlpatterns: list = []
