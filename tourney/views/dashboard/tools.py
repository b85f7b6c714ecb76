"""Floor tools (forms on the same engines as the API's /floor endpoints), the structure chart
of a tournament, and the printouts (seating sheets per table, the full seating list)."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tourney import charts, form_messages, services
from tourney.core.language import refusal_text
from tourney.engine import chip_race, icm, pots
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import ChipDenomination, Entry, Tournament
from tourney.selectors import clock as clock_reads
from tourney.services.setup import levels_text, parse_levels_text
from tourney.views.dashboard import reads
from tourney.views.dashboard.base import director_view, int_field

TOOL_ROWS = 9
MSG_NUMBERS = "{label}: whole numbers separated by spaces."
MSG_SEED_AND_CARDS = "Give either the cards the dealer dealt or a seed, not both."


def _numbers(data, name: str, label: str) -> list[int]:
    raw = (data.get(name) or "").replace(",", " ").split()
    try:
        return [int(x) for x in raw]
    except ValueError:
        msg = MSG_NUMBERS.format(label=label)
        raise DomainError("bad_input", msg, fields={name: msg}) from None


def _floor_settle(data) -> dict[str, Any]:
    """The side-pot tool: per row the seat, every chip the player put in this hand (the ante
    included), the ante among them, folded, cards or rank. RULES 6.6: the ante is dead money;
    a player who put in less than the ante posted it all as the ante (the ante first). The
    big-blind ante is added to the ante of the row of the big blind's seat."""
    bb_seat = int_field(data, "s_bb", "Big blind seat", required=False)
    bb_ante = int_field(data, "s_bba", "Big-blind ante", required=False) or 0
    players = []
    for n in range(1, TOOL_ROWS + 1):
        seat = int_field(data, f"s_seat_{n}", f"Row {n} seat", required=False)
        if seat is None:
            continue
        cards = (data.get(f"s_cards_{n}") or "").replace(" ", "") or None
        rank = int_field(data, f"s_rank_{n}", f"Row {n} rank", required=False)
        chips_in = int_field(data, f"s_committed_{n}", f"Row {n} chips put in") or 0
        ante = int_field(data, f"s_ante_{n}", f"Row {n} ante", required=False) or 0
        if seat == bb_seat:
            ante += bb_ante
        if chips_in < 0 or ante < 0:
            msg = f"Row {n}: chips and antes are zero or more."
            raise DomainError("bad_input", msg, fields={f"s_committed_{n}": msg})
        posted_ante, _ = pots.forced_bets(chips_in, ante)
        players.append(
            pots.HandPlayer(
                seat=seat,
                committed=chips_in - posted_ante,
                folded=bool(data.get(f"s_folded_{n}")),
                cards=cards,
                rank=rank,
                ante=posted_ante,
            )
        )
    result = pots.settle(
        players=players,
        button_seat=int_field(data, "s_button", "Button seat"),
        chip_unit=int_field(data, "s_unit", "Chip unit", required=False) or 1,
        board=(data.get("s_board") or "").replace(" ", "") or None,
    )
    return {"settle": result, "settle_antes": sum(p.ante for p in players)}


def _level_now(t: Tournament):
    """The level being played (during a break: the next one), or None."""
    items = clock_reads.structure_items(t)
    index = clock_reads.clock_index(t) if t.status != Tournament.Status.SETUP else 0
    return structure_engine.level_in_play(items, index)


def _floor_race(data) -> dict[str, Any]:
    denominations = _numbers(data, "r_denominations", "Chips in play")
    players = []
    cards: dict[int, list[str]] = {}
    for n in range(1, TOOL_ROWS + 1):
        seat = int_field(data, f"r_seat_{n}", f"Row {n} seat", required=False)
        if seat is None:
            continue
        chips = {}
        for part in (data.get(f"r_chips_{n}") or "").replace(",", " ").split():
            value, _, count = part.partition("x")
            value, count = ascii_int(value, 12), ascii_int(count, 7)
            if value is None or count is None:
                msg = f'Row {n}: chips as "25x7 100x12" (value x count).'
                raise DomainError("bad_input", msg, fields={f"r_chips_{n}": msg})
            chips[value] = count
        players.append(chip_race.RacePlayer(seat=seat, chips=chips))
        dealt = (data.get(f"r_cards_{n}") or "").replace(",", " ").split()
        if dealt:
            cards[seat] = dealt
    seed = int_field(data, "r_seed", "Seed", required=False)
    rng = None
    if cards:  # RULES 5.8: the cards the dealer dealt, one per odd chip, instead of a shuffle
        if seed is not None:
            raise DomainError("no_deal", MSG_SEED_AND_CARDS, fields={"r_seed": MSG_SEED_AND_CARDS})
    else:
        rng = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(62))
    result = chip_race.color_up(
        denominations=denominations,
        remove=int_field(data, "r_remove", "Chip to remove"),
        players=players,
        threshold=data.get("r_threshold") or "half_or_more",
        rng=rng,
        cards=cards or None,
    )
    return {"race": chip_race.race_to_dict(result)}


def _floor_icm(data) -> dict[str, Any]:
    stacks = _numbers(data, "i_stacks", "Stacks")
    prizes = _numbers(data, "i_prizes", "Prizes")
    equities = icm.icm_equities(stacks, prizes)
    return {
        "icm": [{"stack": s, "equity": f"{e:,.2f}"} for s, e in zip(stacks, equities, strict=True)]
    }


TOOLS = {"settle": _floor_settle, "race": _floor_race, "icm": _floor_icm}


@director_view
def floor(request: HttpRequest, t: Tournament, tool: str | None = None):
    """GET: the three tools. POST to one tool: its result in its own box (htmx) or the page."""
    chips = list(
        ChipDenomination.objects.filter(tournament=t, in_play=True).values_list("value", flat=True)
    )
    ctx: dict[str, Any] = {
        "tournament": t,
        "chips_text": " ".join(map(str, chips)),
        "form": request.POST if request.method == "POST" else {},
        "tool": tool,
    }
    data = request.POST
    # RULES 6.6: the antes of the level being played, pre-filled (a classic ante in every row;
    # the big-blind ante beside the big blind's seat).
    level = _level_now(t)
    ctx["level_ante"] = level.ante if level else 0
    ctx["level_bb_ante"] = level.big_blind_ante if level else 0
    posted = request.method == "POST"
    ctx["s_rows"] = [
        {
            "n": n,
            **{k: data.get(f"s_{k}_{n}", "") for k in ("seat", "committed", "cards", "rank")},
            "ante": data.get(f"s_ante_{n}", "") if posted else (ctx["level_ante"] or ""),
            "folded": bool(data.get(f"s_folded_{n}")),
        }
        for n in range(1, TOOL_ROWS + 1)
    ]
    ctx["r_rows"] = [
        {
            "n": n,
            "seat": data.get(f"r_seat_{n}", ""),
            "chips": data.get(f"r_chips_{n}", ""),
            "cards": data.get(f"r_cards_{n}", ""),
        }
        for n in range(1, TOOL_ROWS + 1)
    ]
    status = 200
    if request.method == "POST" and tool in TOOLS:
        try:
            ctx.update(TOOLS[tool](request.POST))
        except DomainError as exc:
            ctx["error"] = {"message": exc.message, "fields": exc.fields}
            status = exc.status
        if request.htmx:
            return render(request, f"dashboard/floor.html#{tool}", ctx, status=status)
    return render(request, "dashboard/floor.html", ctx, status=status)


MSG_LEVELS_TOO_LONG = "The levels box holds at most 20,000 characters."
MSG_BAD_HOURS = "Target hours: a number such as 8 or 6.5."
STRUCTURE_FILLS = ("regular", "turbo", "deep", "generate")
# The presets' buttons and their names in the "Filled from …" line.
FILL_LABELS = {
    "regular": gettext_lazy("Regular"),
    "turbo": gettext_lazy("Turbo"),
    "deep": gettext_lazy("Deep stack"),
    "generate": gettext_lazy("the generator"),
}


def _structure_fill(t: Tournament, items, current: int | None, data) -> str:
    """The levels box filled from a preset or the generator (nothing is written). Once the
    clock has started the items up to the current one stay as played (``structure_set``
    refuses to change them, RULES 4.1) and the new structure's items follow from there."""
    kind = data.get("fill")
    chips = tuple(
        sorted(ChipDenomination.objects.filter(tournament=t).values_list("value", flat=True))
    )
    if kind == "generate":
        try:
            hours = float((data.get("target_hours") or "").replace(",", "."))
        except ValueError:
            raise DomainError(
                "bad_input", MSG_BAD_HOURS, fields={"target_hours": MSG_BAD_HOURS}
            ) from None
        new = structure_engine.generate(
            starting_stack=t.starting_stack,
            denominations=chips,
            level_minutes=int_field(data, "level_minutes", "Level minutes"),
            target_hours=hours,
            break_every=int_field(data, "break_every", "Break every"),
            break_minutes=int_field(data, "break_minutes", "Break minutes"),
            bb_ante_from_level=int_field(data, "bb_ante_from", "Big-blind ante from level"),
        )
    else:
        new = structure_engine.preset(kind, starting_stack=t.starting_stack, denominations=chips)
    if current is not None:
        new = tuple(items[: current + 1]) + tuple(new[current + 1 :])
    return levels_text(new)


@director_view
@require_http_methods(["GET", "HEAD", "POST"])
def structure(request: HttpRequest, t: Tournament):
    """The structure, its chart and its editor: typed lines (the setup form's), or a preset
    or the generator filling the box first; saving calls ``services.structure_set``."""
    items = clock_reads.structure_items(t)
    clock = clock_reads.clock_read(t)
    current = clock.index if t.clock_started else None
    text, error, filled, status = None, None, None, 200
    if request.method == "POST":
        data = request.POST
        text = data.get("levels_text") or ""
        try:
            if len(text) > 20000:
                raise DomainError(
                    "bad_input", MSG_LEVELS_TOO_LONG, fields={"levels_text": MSG_LEVELS_TOO_LONG}
                )
            if data.get("fill") in STRUCTURE_FILLS:
                text = _structure_fill(t, items, current, data)
                filled = data["fill"]
            else:
                services.structure_set(
                    tournament_id=t.pk, levels=parse_levels_text(text), actor=request.user
                )
                url = reverse("tourney-dashboard-structure", args=[t.pk]) + "?saved=1"
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        except DomainError as exc:
            error, status = {"message": exc.message, "fields": exc.fields}, exc.status
            error["lines"] = form_messages.form_error_lines(
                exc.message, exc.fields, text, shown=refusal_text(exc)
            )
        if request.htmx:
            return render(
                request,
                "dashboard/structure.html#editor",
                _editor_ctx(t, request.POST, text, error, filled, current),
                status=status,
            )
    field = max(Entry.objects.filter(tournament=t).count(), t.started_tables * t.seats_per_table)
    rows, level = [], 0
    for i, it in enumerate(items):
        if it.kind == "level":
            level += 1
        rows.append({"index": i, "item": it, "level": level, "minutes": it.seconds / 60})
    return render(
        request,
        "dashboard/structure.html",
        {
            "tournament": t,
            "rows": rows,
            "current": clock.index,
            "chart": mark_safe(  # noqa: S308 — numbers and fixed words only (tourney.charts)
                charts.structure_svg(
                    items, starting_stack=t.starting_stack, field=field, current=clock.index
                )
            ),
            "levels_text": levels_text(items),
            "saved": request.GET.get("saved") == "1" and request.method != "POST",
            **_editor_ctx(
                t,
                request.POST,
                levels_text(items) if text is None else text,
                error,
                filled,
                current,
            ),
        },
        status=status,
    )


def generator_defaults(items) -> dict[str, str]:
    """The generator's boxes filled from this event's structure (issue 31), so "Generate"
    starts from what is played: the usual level length, the structure's length, the levels
    between breaks, the first break's length, the first level with a big-blind ante. The
    starting stack and the chips are the tournament's own (``_structure_fill``)."""
    levels = [it for it in items if it.kind == "level"]
    breaks = [it for it in items if it.kind == "break"]
    if not levels:
        return {
            "level_minutes": "20",
            "target_hours": "8",
            "break_every": "4",
            "break_minutes": "10",
            "bb_ante_from": "4",
        }
    minutes = Counter(max(1, round(it.seconds / 60)) for it in levels).most_common(1)[0][0]
    hours = math.ceil(sum(it.seconds for it in items) / 1800) / 2  # to the half hour
    first_break = next((n for n, it in enumerate(items) if it.kind == "break"), None)
    ante_from = next((n for n, it in enumerate(levels, 1) if it.big_blind_ante), 0)
    return {
        "level_minutes": str(minutes),
        "target_hours": f"{hours:g}",
        "break_every": str(first_break) if first_break else "0",
        "break_minutes": str(max(1, round(breaks[0].seconds / 60))) if breaks else "10",
        "bb_ante_from": str(ante_from),
    }


def _item_words(items, index: int | None) -> str:
    """Item ``index`` as the director counts: "level 3", "the break after level 4"."""
    if index is None or not 0 <= index < len(items):
        return ""
    level = sum(1 for it in items[: index + 1] if it.kind == "level")
    if items[index].kind == "level":
        return gettext("level %(n)s") % {"n": level}
    if level:
        return gettext("the break after level %(n)s") % {"n": level}
    return gettext("the opening break")


def _editor_ctx(t, data, text, error, filled, current) -> dict[str, Any]:
    def value(name: str, default: str) -> str:
        return data.get(name) or default

    items = clock_reads.structure_items(t)
    defaults = generator_defaults(items)
    return {
        "tournament": t,
        "editor_text": text,
        "editor_error": error,
        "filled": filled,
        "filled_label": FILL_LABELS.get(filled, filled),
        "presets": [(k, v) for k, v in FILL_LABELS.items() if k != "generate"],
        "generate": "generate",
        "frozen": current,
        "frozen_label": _item_words(items, current),
        "gen": {name: value(name, default) for name, default in defaults.items()},
    }


@director_view
@require_safe
def print_tables(request: HttpRequest, t: Tournament):
    """One sheet per table for the dealers."""
    return render(
        request,
        "dashboard/print_tables.html",
        {"tournament": t, "sheets": reads.seating_sheets(t), "printed_at": timezone.localtime()},
    )


@director_view
@require_safe
def print_seating(request: HttpRequest, t: Tournament):
    """Everyone still seated, by name, for the wall."""
    return render(
        request,
        "dashboard/print_seating.html",
        {"tournament": t, "rows": reads.seating_list(t), "printed_at": timezone.localtime()},
    )
