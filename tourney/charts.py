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
    shown_levels = levels
    shown = list(enumerate(items))
    label_every = max(1, math.ceil(len(levels) / MAX_LABELS))

    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(shown)
    bbs = [it.big_blind for _, it in shown_levels]
    # Start the scale below the first big blind so the first bar is visible.
    lo, hi = math.log10(min(bbs) / 3), math.log10(max(bbs))
    span = max(hi - lo, 1e-9)
    depths = [
        total / players[i] / it.big_blind for i, it in shown if it.kind == LEVEL and it.big_blind
    ]
    depth_max = max(50.0, min(max(depths), 400.0))

    def y_bb(bb: int) -> float:
        return TOP + plot_h - (math.log10(bb) - lo) / span * (plot_h - 12) - 6

    def y_depth(d: float) -> float:
        return TOP + plot_h - min(d, depth_max) / depth_max * plot_h

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" font-size="11">',
        "<title>Big blind by level and expected average stack in big blinds</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#101923"/>',
    ]
    for d in (25, 50, 100, 200, 400):
        if d <= depth_max:
            y = y_depth(d)
            out.append(
                f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                f'stroke="#24313f" stroke-width="1"/>'
                f'<text x="{LEFT + plot_w + 4}" y="{y + 4:.1f}" fill="#f0b429">{d}</text>'
            )
    points = []
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
        y = y_bb(it.big_blind)
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
        points.append(f"{x + slot / 2:.1f},{y_depth(total / players[i] / it.big_blind):.1f}")
    out.append(
        f'<polyline class="depth" points="{" ".join(points)}" fill="none" stroke="#f0b429" '
        f'stroke-width="2"/>'
    )
    for bb in sorted({bbs[0], bbs[len(bbs) // 2], bbs[-1]}):
        out.append(
            f'<text x="{LEFT - 4}" y="{y_bb(bb) + 4:.1f}" fill="#7fb0e0" '
            f'text-anchor="end">{short_number(bb)}</text>'
        )
    out.append(
        f'<text x="{LEFT}" y="{HEIGHT - 4}" fill="#9fb0c2">Bars: big blind (log) · Line: '
        f"average stack in BB ({field} players, one left at {END_DEPTH} BB) · B: break, "
        f"chips colored up</text>"
    )
    out.append("</svg>")
    return "".join(out)
