"""Charts drawn by the project as inline SVG: no JavaScript library, nothing fetched. Pure (no
Django, no queries): numbers and words in, markup out; every text is escaped here.

The SVG scales to its box (``viewBox``, no fixed width) and is coloured by classes from
``static/css/site.css`` (``chart-…``): a strict CSP forbids style attributes.
"""

from __future__ import annotations

import math
from html import escape

#: The drawing's own units; the page scales it to the screen's width.
WIDTH = 360
HEIGHT = 220
#: Room for the axes' numbers (left, bottom) and the axis names.
LEFT, RIGHT, TOP, BOTTOM = 46, 12, 14, 40


def nice_step(span: float, most: int = 5) -> int:
    """A whole step of 1, 2 or 5 × 10ⁿ that cuts ``span`` into at most ``most`` parts."""
    if span <= 0:
        return 1
    raw = span / most
    power = 10 ** max(0, math.floor(math.log10(raw)))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover — the loop always returns


def ticks(low: int, high: int, most: int = 5) -> list[int]:
    """Whole numbers on a nice step from at or below ``low`` to at or above ``high``."""
    step = nice_step(high - low, most)
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    return list(range(start, end + 1, step))


class _Frame:
    """What both charts share: the scales from the ticks, the ``<svg>`` with its ``<title>`` and
    ``<desc>`` (``role="img"``, labelled by them), the grid with its numbers, the axes, and
    at the end the axis names."""

    def __init__(self, *, y_ticks: list[int], x_ticks: list[int], x_max: int, title: str, desc: str,
                 chart_id: str):
        if len(y_ticks) < 2:
            y_ticks = [y_ticks[0] - 1, y_ticks[0] + 1] if y_ticks else [-1, 1]
        self.low, self.high, self.x_max = y_ticks[0], y_ticks[-1], x_max
        self.plot_w, self.plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
        title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
        self.out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
                    f'aria-labelledby="{escape(title_id)} {escape(desc_id)}" xmlns="http://www.w3.org/2000/svg">',
                    f'<title id="{escape(title_id)}">{escape(title)}</title>',
                    f'<desc id="{escape(desc_id)}">{escape(desc)}</desc>']
        for v in y_ticks:
            self.out.append(f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{self.y(v)}" '
                            f'y2="{self.y(v)}"/>')
            self.out.append(f'<text class="chart-tick" x="{LEFT - 5}" y="{self.y(v) + 4}" text-anchor="end">{v}</text>')
        for i in x_ticks:
            self.out.append(f'<text class="chart-tick" x="{self.x(i)}" y="{HEIGHT - BOTTOM + 16}" '
                            f'text-anchor="middle">{i}</text>')
        self.out.append(f'<line class="chart-axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>')
        self.out.append(f'<line class="chart-axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{HEIGHT - BOTTOM}" '
                        f'y2="{HEIGHT - BOTTOM}"/>')

    def x(self, i: float) -> float:
        return round(LEFT + self.plot_w * i / self.x_max, 1)

    def y(self, v: float) -> float:
        return round(TOP + self.plot_h * (self.high - v) / (self.high - self.low), 1)

    def svg(self, *, x_label: str, y_label: str) -> str:
        out = self.out
        out.append(f'<text class="chart-label" x="{LEFT + self.plot_w / 2}" y="{HEIGHT - 6}" '
                   f'text-anchor="middle">{escape(x_label)}</text>')
        out.append(f'<text class="chart-label" x="12" y="{TOP + self.plot_h / 2}" text-anchor="middle" '
                   f'transform="rotate(-90 12 {TOP + self.plot_h / 2})">{escape(y_label)}</text>')
        out.append("</svg>")
        return "".join(out)


def step_chart(totals: list[int], *, title: str, desc: str, x_label: str, y_label: str,
               chart_id: str = "chart") -> str:
    """A step chart of ``totals`` (the running net after deal 1, 2, …), starting from 0 before
    the first deal: each deal is a flat stretch at the total it left, so a jump sits exactly
    on the deal that made it. Axes with whole-number ticks, the zero line, the axis names, and
    ``<title>``/``<desc>`` for screen readers (``role="img"``, labelled by them)."""
    points = [0, *totals]
    n = len(totals)
    x_ticks = ticks(0, max(n, 1), 6)
    f = _Frame(y_ticks=ticks(min(points), max(points)), x_ticks=x_ticks, x_max=max(x_ticks[-1], 1), title=title,
               desc=desc, chart_id=chart_id)
    x, y = f.x, f.y
    # The zero line over the grid and axes (it is what a player reads first: up or down).
    f.out.append(f'<line class="chart-zero" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0)}" y2="{y(0)}"/>')
    # The steps: deal i runs from x(i-1) to x(i) at the total after it.
    path = [f"M{x(0)},{y(0)}"]
    for i, total in enumerate(totals, start=1):
        path.append(f"V{y(total)}H{x(i)}")
    f.out.append(f'<path class="chart-line" d="{"".join(path)}" fill="none"/>')
    if totals:
        f.out.append(f'<circle class="chart-dot" cx="{x(n)}" cy="{y(totals[-1])}" r="3.5"/>')
    return f.svg(x_label=x_label, y_label=y_label)


def rating_chart(points: list[tuple[int, int]], *, title: str, desc: str, x_label: str, y_label: str,
                 chart_id: str = "rating-chart") -> str:
    """A player's rating after each rated result 1, 2, … (``points``: (rating, uncertainty) each):
    the line through one vertex per result, over the band rating ± uncertainty (what the ladder
    shows), a dot at the latest. Axes, ticks and ``<title>``/``<desc>`` as ``step_chart``'s."""
    n = len(points)
    lows = [r - u for r, u in points] or [0]
    highs = [r + u for r, u in points] or [0]
    x_ticks = [i for i in ticks(0, max(n, 1), 6) if i > 0] or [1]
    f = _Frame(y_ticks=ticks(min(lows), max(highs)), x_ticks=x_ticks, x_max=max(x_ticks[-1], n, 1), title=title,
               desc=desc, chart_id=chart_id)
    x, y = f.x, f.y
    if points:
        # The band: along the tops left to right, back along the bottoms.
        band = [f"{x(i)},{y(r + u)}" for i, (r, u) in enumerate(points, start=1)]
        band += [f"{x(i)},{y(r - u)}" for i, (r, u) in reversed(list(enumerate(points, start=1)))]
        f.out.append(f'<polygon class="chart-band" points="{" ".join(band)}"/>')
        line = " ".join(f"{x(i)},{y(r)}" for i, (r, _) in enumerate(points, start=1))
        f.out.append(f'<polyline class="chart-line" points="{line}" fill="none"/>')
        f.out.append(f'<circle class="chart-dot" cx="{x(n)}" cy="{y(points[-1][0])}" r="3.5"/>')
    return f.svg(x_label=x_label, y_label=y_label)
