"""The Rules page: docs/rules.md, the rule book the code cites as "RULES n.m", for the
directors, with an anchor per rule and per section (every "RULES n.m" on the dashboard links
here). ``?t=<id>`` keeps that tournament's top bar (the dashboard's links carry it)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tourney.engine.numbers import ascii_int
from tourney.models import Tournament
from tourney.rulebook import rule_book
from tourney.views.dashboard.base import director_only


@director_only
def rules_page(request: HttpRequest) -> HttpResponse:
    book = rule_book()
    pk = ascii_int(request.GET.get("t", ""), 12)  # a few ASCII digits, else no tournament
    tournament = Tournament.objects.filter(pk=pk).first() if pk else None
    if tournament:
        tournament.activate_zone()
    return render(
        request,
        "dashboard/rules.html",
        {"book": book, "tournament": tournament},
    )
