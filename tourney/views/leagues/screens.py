"""The director's league screens (issue 27): the leagues, a league's page with its seasons, a
season's settings (a preset, a points table or a formula with its "Check", the options), the
season's page (its tournaments added and removed, its standings in short) and the recent
changes with undo. Directors only (others 403, anonymous to the login page). Thin: parse the
form, call one service, render; a refusal shows in place with what was typed kept."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from tourney.core.room_journal import room_log, room_undo
from tourney.engine import formula as formula_engine
from tourney.engine import points
from tourney.engine.errors import DomainError
from tourney.models import Event, League, Season, Tournament
from tourney.selectors.standings import scoring_of, scoring_text, season_standings
from tourney.services import leagues
from tourney.views import public_url
from tourney.views.dashboard.base import director_only
from tourney.views.leagues.rows import standings_rows
from tourney.views.refusals import field_texts, refusal_text

KINDS = ("league_created", "league_updated", "season_created", "season_updated")
SEASON_KINDS = ("tournament_season_set",)
# a season's own page: its creation, its settings, its tournaments
ONE_SEASON_KINDS = ("season_created", "season_updated", *SEASON_KINDS)
KIND_WORDS = {
    "league_created": N_("League created"),
    "league_updated": N_("League renamed"),
    "season_created": N_("Season created"),
    "season_updated": N_("Season settings changed"),
    "tournament_season_set": N_("Tournament's season set"),
}
# The "Check" button's sample field: what a formula gives these places of this event.
SAMPLE_ENTRANTS = 30
SAMPLE_BUYIN = 5500  # cents: 55 (50 + 5)
SAMPLE_PLACES = (1, 2, 3, 10, 30)
MSG_NO_CHANGE = N_("No such league or season change.")
MSG_BEST_N = N_("Best events: a whole number of 1 or more, or empty for every event.")
MSG_ATTENDANCE = N_("Attendance points: a number of 0 or more (at most 2 decimals).")
MSG_FIELDS = N_("Some fields need a look.")
# The choices' words on the screens (the model's labels are English).
SCORING_LABELS = {
    Season.Scoring.PLACE_TABLE: gettext_lazy("Points by place (table)"),
    Season.Scoring.ENTRANTS_MINUS_PLACE: gettext_lazy("Entrants − place + 1"),
    Season.Scoring.SQRT_BUYIN: gettext_lazy("Square-root formula with buy-in weighting"),
    Season.Scoring.FORMULA: gettext_lazy("A formula of your own"),
}
ENTRIES_LABELS = {
    Season.Entries.BEST: gettext_lazy("A player's best finish counts once"),
    Season.Entries.FIRST: gettext_lazy("First entry only"),
    Season.Entries.EACH: gettext_lazy("Every entry scores"),
}
MSG_PICK = N_("Pick a tournament.")


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Season name"))
    starts_on = forms.DateField(
        required=False,
        label=gettext_lazy("Starts on"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    ends_on = forms.DateField(
        required=False,
        label=gettext_lazy("Ends on"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    # picking another way of scoring shows its points on the sample field at once
    scoring = forms.ChoiceField(
        choices=list(SCORING_LABELS.items()),
        label=gettext_lazy("Points"),
        widget=forms.Select(
            attrs={
                "hx-post": reverse_lazy("tourney-season-check"),
                "hx-target": "#formula-check",
                "hx-swap": "outerHTML",
            }
        ),
    )
    points_table = forms.CharField(
        required=False,
        label=gettext_lazy("Points by place"),
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "100, 70, 50, 40, 30"}),
    )
    formula = forms.CharField(
        required=False,
        label=gettext_lazy("Formula"),
        widget=forms.Textarea(
            attrs={"rows": 2, "spellcheck": "false", "autocomplete": "off", "class": "mono"}
        ),
    )
    best_n = forms.CharField(
        required=False, label=gettext_lazy("Count a player's best"), max_length=6
    )
    entries = forms.ChoiceField(
        choices=list(ENTRIES_LABELS.items()), label=gettext_lazy("Re-entries")
    )
    attendance_points = forms.CharField(
        required=False, label=gettext_lazy("Attendance points"), max_length=14
    )
    share_ties = forms.BooleanField(
        required=False, label=gettext_lazy("Tied places share their points")
    )


def _initial(season: Season) -> dict:
    return {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "scoring": season.scoring,
        "points_table": ", ".join(str(v) for v in season.points_table),
        "formula": season.formula,
        "best_n": season.best_n or "",
        "entries": season.entries,
        "attendance_points": points.show_number(Decimal(season.attendance_points)),
        "share_ties": season.share_ties,
    }


def _settings(form: SeasonForm) -> dict:
    """The service's arguments from a valid form (best N and attendance read here, a refusal
    naming its field)."""
    data = dict(form.cleaned_data)
    raw = (data["best_n"] or "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 5):
        raise DomainError("bad_input", MSG_BEST_N, fields={"best_n": MSG_BEST_N})
    data["best_n"] = int(raw) if raw else None
    raw = (data["attendance_points"] or "").strip() or "0"
    try:
        data["attendance_points"] = Decimal(raw) if raw.isascii() else Decimal("NaN")
    except InvalidOperation:
        data["attendance_points"] = Decimal("NaN")
    if not data["attendance_points"].is_finite():
        raise DomainError("bad_input", MSG_ATTENDANCE, fields={"attendance_points": MSG_ATTENDANCE})
    return data


def _attach(form: SeasonForm, exc: DomainError) -> None:
    for name, message in field_texts(exc).items():
        if name in form.fields:
            form.add_error(name, message if isinstance(message, str) else refusal_text(exc))


def formula_sample(scoring: str, points_table: str, formula: str) -> dict:
    """What the season's scoring gives the sample field's places, or the refusal with the
    formula's column marked."""
    try:
        if scoring == Season.Scoring.PLACE_TABLE and points_table.strip():
            chosen = points.parse_table(points_table)
        elif scoring == Season.Scoring.FORMULA:
            chosen = points.formula_scoring(formula.strip())
        else:
            chosen = scoring_of(scoring, [], "")
        event = points.EventResults(
            event=0,
            entrants=SAMPLE_ENTRANTS,
            buyin=SAMPLE_BUYIN,
            rows=tuple(points.ResultRow(player=p, place=p) for p in SAMPLE_PLACES),
        )
        done = points.event_points(event, chosen)
    except DomainError as exc:
        column = exc.fields.get("column")
        text = formula.strip()
        return {
            "error": refusal_text(exc),
            "text": text if column else "",
            "caret": " " * (column - 1) + "^" if column and column <= len(text) + 1 else "",
        }
    return {
        "entrants": SAMPLE_ENTRANTS,
        "buyin": SAMPLE_BUYIN // 100,
        "values": [(pe.place, points.show_number(pe.points)) for pe in done],
    }


# ---------------------------------------------------------------- leagues


@director_only
def leagues_list(request: HttpRequest):
    """The leagues, and a new one (POST ``name``)."""
    ctx: dict = {"name": "", "message": ""}
    status = 200
    if request.method == "POST":
        ctx["name"] = request.POST.get("name", "")
        try:
            league = leagues.league_create(name=ctx["name"], actor=request.user)
            return redirect("tourney-league", league.pk)
        except DomainError as exc:
            ctx["message"], status = refusal_text(exc), exc.status
    ctx["leagues"] = League.objects.prefetch_related("seasons")
    return render(request, "leagues/index.html", ctx, status=status)


@director_only
def league_page(request: HttpRequest, league_id: int):
    """A league: its seasons, newest first; POST ``name`` renames it."""
    league = get_object_or_404(League, pk=league_id)
    ctx: dict = {"league": league, "name": league.name, "message": ""}
    status = 200
    if request.method == "POST":
        ctx["name"] = request.POST.get("name", "")
        try:
            leagues.league_update(league_id=league.pk, name=ctx["name"], actor=request.user)
            return redirect("tourney-league", league.pk)
        except DomainError as exc:
            ctx["message"], status = refusal_text(exc), exc.status
    ctx["seasons"] = list(league.seasons.order_by("-created_at"))
    for s in ctx["seasons"]:
        s.scoring_label = SCORING_LABELS.get(s.scoring, s.scoring)
    return render(request, "leagues/league.html", ctx, status=status)


# ---------------------------------------------------------------- a season's settings


def _season_form_page(request: HttpRequest, league: League, season: Season | None):
    status = 200
    message = ""
    if request.method == "POST":
        form = SeasonForm(request.POST)
        if form.is_valid():
            try:
                settings = _settings(form)
                if season is None:
                    season = leagues.season_create(
                        league_id=league.pk, actor=request.user, **settings
                    )
                else:
                    leagues.season_update(season_id=season.pk, actor=request.user, **settings)
                return redirect("tourney-season", season.pk)
            except DomainError as exc:
                _attach(form, exc)
                message, status = refusal_text(exc), exc.status
        else:
            message, status = _(MSG_FIELDS), 400
    else:
        form = SeasonForm(initial=_initial(season) if season else _initial(Season(name="")))
    typed = form.data if form.is_bound else form.initial
    ctx = {
        "league": league,
        "season": season,
        "form": form,
        "sample": formula_sample(
            str(typed.get("scoring") or ""),
            str(typed.get("points_table") or ""),
            str(typed.get("formula") or ""),
        ),
        "message": message,
        "presets": points.PRESETS,
        "variables": formula_engine.VARIABLES,
        "functions": formula_engine.FUNCTIONS,
    }
    return render(request, "leagues/season_form.html", ctx, status=status)


@director_only
def season_new(request: HttpRequest, league_id: int):
    """A new season of the league: the settings form (GET), created (POST)."""
    return _season_form_page(request, get_object_or_404(League, pk=league_id), None)


@director_only
def season_settings(request: HttpRequest, season_id: int):
    """A season's settings: the form with its values (GET), changed (POST)."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    return _season_form_page(request, season.league, season)


@director_only
def formula_check(request: HttpRequest):
    """The "Check" button: the points of the sample field's places by the typed scoring, or
    the refusal in place with its column marked (nothing is written)."""
    data = request.POST if request.method == "POST" else request.GET
    sample = formula_sample(
        data.get("scoring", Season.Scoring.FORMULA),
        data.get("points_table", ""),
        data.get("formula", ""),
    )
    return render(request, "leagues/_formula_check.html", {"sample": sample})


# ---------------------------------------------------------------- a season's page


def _season_page_context(request: HttpRequest, season: Season) -> dict:
    standings = season_standings(season, limit=10)
    free = (
        Tournament.objects.filter(season__isnull=True, multi_day_event__isnull=True)
        .order_by("-created_at")
        .only("pk", "name", "status", "created_at")[:200]
    )
    return {
        "league": season.league,
        "season": season,
        "scoring_label": SCORING_LABELS.get(season.scoring, season.scoring),
        "scoring_text": scoring_text(season),
        "entries_label": ENTRIES_LABELS.get(season.entries, season.entries),
        "attendance": points.show_number(Decimal(season.attendance_points)),
        "standings": standings,
        "rows": standings_rows(standings.rows),
        "free": free,
        "public_url": public_url(
            request, reverse("tourney-public-standings", args=[season.public_token])
        ),
        "log": _changes(kinds=ONE_SEASON_KINDS, season=season),
    }


@director_only
def season_page(request: HttpRequest, season_id: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    return render(request, "leagues/season.html", _season_page_context(request, season))


@director_only
def season_tournaments(request: HttpRequest, season_id: int):
    """POST ``add`` (a tournament's id) counts it toward the season; POST ``remove`` takes it
    out. A refusal shows on the season's page."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    if request.method != "POST":
        return redirect("tourney-season", season.pk)
    add, remove = request.POST.get("add", ""), request.POST.get("remove", "")
    try:
        raw = add or remove
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
            raise DomainError("bad_input", MSG_PICK, fields={"add": None})
        if remove:
            t = Tournament.objects.filter(pk=int(raw), season=season).first()
            if t is None:
                raise Http404("Not a tournament of this season.")
        leagues.tournament_season_set(
            tournament_id=int(raw), season_id=season.pk if add else None, actor=request.user
        )
    except DomainError as exc:
        ctx = _season_page_context(request, season)
        ctx["tournament_message"] = refusal_text(exc)
        return render(request, "leagues/season.html", ctx, status=exc.status)
    return redirect("tourney-season", season.pk)


# ---------------------------------------------------------------- recent changes, undo


def _changes(*, kinds, season: Season | None = None, limit: int = 30) -> list[dict]:
    rows = room_log(kinds=kinds, limit=limit)
    names = dict(Tournament.objects.filter(season=season).values_list("pk", "name"))
    out = []
    for row in rows:
        payload = row["payload"]
        if season is not None and season.pk not in (payload.get("season"), payload.get("was")):
            continue
        tid = payload.get("tournament")
        unnamed = _("tournament #%(number)s") % {"number": tid} if tid else ""
        what = payload.get("name") or names.get(tid) or unnamed
        if row["kind"] == "tournament_season_set":
            what = f"{what}: {_('added') if payload.get('season') else _('removed')}"
        kind = row["kind"]
        words = _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind
        out.append({**row, "words": words, "what": what})
    return out


@director_only
def leagues_changes(request: HttpRequest):
    """The recent league and season changes (GET); POST ``event`` undoes one (a refusal, such
    as a later change of the same rows, shows above the list)."""
    message, status = "", 200
    if request.method == "POST":
        raw = request.POST.get("event", "")
        try:
            ours = Event.objects.filter(tournament__isnull=True, kind__in=KINDS + SEASON_KINDS)
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not (
                ours.filter(pk=int(raw)).exists()
            ):
                raise DomainError("not_found", MSG_NO_CHANGE, status=404)
            room_undo(event_id=int(raw), actor=request.user)
            back = request.POST.get("next", "")
            if back.startswith("/td/") and "//" not in back:
                return redirect(back)
            return redirect("tourney-leagues-changes")
        except DomainError as exc:
            message, status = refusal_text(exc), exc.status
    ctx = {"log": _changes(kinds=KINDS + SEASON_KINDS), "message": message}
    return render(request, "leagues/changes.html", ctx, status=status)
