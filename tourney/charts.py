"""The structure chart, drawn on the server as SVG: the big blind of each level (bars, log
scale, left axis) against the expected average stack in big blinds (line, right axis); breaks
are marked, with the chips they color up.

The expected average stack needs a guess at how fast the field shrinks; the chart says which:
a field of ``field`` players shrinks geometrically (the same share busts every minute of play)
until one player holds every chip when those chips are ``END_DEPTH`` big blinds, the usual
depth of a heads-up finish. Before that the average is ``field x stack / players left``. Pure
arithmetic over the structure's items, no rule: nothing here changes a tournament.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.translation import gettext as _

from tourney.engine.clock import BREAK, LEVEL, Item

END_DEPTH = 30
WIDTH, HEIGHT = 760, 250
LEFT, RIGHT, TOP, BOTTOM = 54, 44, 14, 34
MAX_LABELS = 30  # level numbers under the bars; more levels label every 2nd, 3rd, …


def short_number(n: int) -> str:
    """An axis label that fits the margin: 800, 5k, 12.5k, 1.5M."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + suffix
    return str(n)


def expected_players(items: Sequence[Item], starting_stack: int, field: int) -> list[float]:
    """Players expected at the start of each item (see the module docstring)."""
    total = field * starting_stack
    elapsed, starts = 0, []
    end_at = None
    for it in items:
        starts.append(elapsed)
        if end_at is None and it.kind == LEVEL and it.big_blind * END_DEPTH >= total:
            end_at = elapsed
        elapsed += it.seconds
    end_at = end_at or elapsed or 1
    return [max(1.0, field ** (1 - min(s, end_at) / end_at)) if field > 1 else 1.0 for s in starts]


@dataclass(frozen=True, slots=True)
class _Frame:
    """The plot area and its two scales: big blinds (log, left) and depth in BB (right)."""

    plot_w: float
    plot_h: float
    slot: float
    lo: float
    span: float
    depth_max: float

    def y_bb(self, bb: int) -> float:
        return TOP + self.plot_h - (math.log10(bb) - self.lo) / self.span * (self.plot_h - 12) - 6

    def y_depth(self, d: float) -> float:
        return TOP + self.plot_h - min(d, self.depth_max) / self.depth_max * self.plot_h


def structure_svg(
    items: Sequence[Item], *, starting_stack: int, field: int, current: int | None = None
) -> str:
    """The chart as an inline ``<svg>`` (no script, no external reference)."""
    field = max(2, field)
    players = expected_players(items, starting_stack, field)
    total = field * starting_stack
    levels = [(i, it) for i, it in enumerate(items) if it.kind == LEVEL]
    if not levels:
        return '<svg class="chart" viewBox="0 0 10 10" role="img"><title>No levels</title></svg>'
    # Every level and break, as the clock will run them (issue 31: a chart that stopped after
    # the expected finish hid the levels a long night still reaches); numbers thin out instead.
    shown = list(enumerate(items))
    label_every = max(1, math.ceil(len(levels) / MAX_LABELS))
    bbs = [it.big_blind for _, it in levels]
    frame = _frame(shown, bbs, players, total)
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" font-size="11">',
        "<title>Big blind by level and expected average stack in big blinds</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{frame.plot_w}" height="{frame.plot_h}" '
        f'fill="#101923"/>',
    ]
    out += _depth_grid(frame)
    bars, points = _bars(shown, frame, players, total, current, label_every)
    out += bars
    out.append(
        f'<polyline class="depth" points="{" ".join(points)}" fill="none" stroke="#f0b429" '
        f'stroke-width="2"/>'
    )
    for bb in sorted({bbs[0], bbs[len(bbs) // 2], bbs[-1]}):
        out.append(
            f'<text x="{LEFT - 4}" y="{frame.y_bb(bb) + 4:.1f}" fill="#7fb0e0" '
            f'text-anchor="end">{short_number(bb)}</text>'
        )
    legend = _(
        "Bars: big blind (log) · Line: average stack in BB (%(field)s players, one left at "
        "%(depth)s BB) · B: break, chips colored up"
    ) % {"field": field, "depth": END_DEPTH}
    out.append(f'<text x="{LEFT}" y="{HEIGHT - 4}" fill="#9fb0c2">{escape(legend)}</text>')
    out.append("</svg>")
    return "".join(out)


def _frame(
    shown: list[tuple[int, Item]], bbs: list[int], players: list[float], total: int
) -> _Frame:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    # Start the scale below the first big blind so the first bar is visible.
    lo, hi = math.log10(min(bbs) / 3), math.log10(max(bbs))
    depths = [
        total / players[i] / it.big_blind for i, it in shown if it.kind == LEVEL and it.big_blind
    ]
    return _Frame(
        plot_w=plot_w,
        plot_h=plot_h,
        slot=plot_w / len(shown),
        lo=lo,
        span=max(hi - lo, 1e-9),
        depth_max=max(50.0, min(max(depths), 400.0)),
    )


def _depth_grid(frame: _Frame) -> list[str]:
    """The right axis: a line and a label at each usual depth the scale reaches."""
    out = []
    for d in (25, 50, 100, 200, 400):
        if d <= frame.depth_max:
            y = frame.y_depth(d)
            out.append(
                f'<line x1="{LEFT}" x2="{LEFT + frame.plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                f'stroke="#24313f" stroke-width="1"/>'
                f'<text x="{LEFT + frame.plot_w + 4}" y="{y + 4:.1f}" fill="#f0b429">{d}</text>'
            )
    return out


def _bars(
    shown: list[tuple[int, Item]],
    frame: _Frame,
    players: list[float],
    total: int,
    current: int | None,
    label_every: int,
) -> tuple[list[str], list[str]]:
    """A bar per level (the current one highlighted), a band per break with the chips it
    colors up; and the depth line's points, one per level."""
    out, points = [], []
    slot, plot_h = frame.slot, frame.plot_h
    level_no = 0
    for slot_no, (i, it) in enumerate(shown):
        x = LEFT + slot_no * slot
        if it.kind == BREAK:
            out.append(
                f'<rect class="break" x="{x + 1:.1f}" y="{TOP}" width="{max(slot - 2, 1):.1f}" '
                f'height="{plot_h}" fill="#2b2140"/>'
            )
            label = "B" + (" " + "·".join(str(c) for c in it.color_up) if it.color_up else "")
            out.append(
                f'<text x="{x + slot / 2:.1f}" y="{TOP + 12}" fill="#c9a7ff" '
                f'text-anchor="middle" font-size="9">{label}</text>'
            )
            continue
        level_no += 1
        y = frame.y_bb(it.big_blind)
        colour = "#3fb68b" if i == current else "#4a7fb0"
        out.append(
            f'<rect class="bb" x="{x + 1.5:.1f}" y="{y:.1f}" width="{max(slot - 3, 1):.1f}" '
            f'height="{TOP + plot_h - y:.1f}" fill="{colour}"><title>Level {level_no}: '
            f"{it.small_blind}/{it.big_blind}</title></rect>"
        )
        if (level_no - 1) % label_every == 0:
            out.append(
                f'<text x="{x + slot / 2:.1f}" y="{TOP + plot_h + 13}" fill="#9fb0c2" '
                f'text-anchor="middle" font-size="9">{level_no}</text>'
            )
        points.append(f"{x + slot / 2:.1f},{frame.y_depth(total / players[i] / it.big_blind):.1f}")
    return out, points
