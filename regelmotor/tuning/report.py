"""What a rule search tells a club: the answer in words first (Danish unless ``--lang en``), the values tried
with their deals and intervals, and a chart of the goal's figure against the value."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from pathlib import Path

from regelmotor.compare import row_label
from regelmotor.errors import RegelmotorError
from regelmotor.files import write_atomic
from regelmotor.safe_text import escape_controls
from regelmotor.simulate import Estimate, format_estimate
from regelmotor.tuning.goal import Goal
from regelmotor.tuning.search import Candidate, TuneResult

WORDS: dict[str, dict[str, str]] = {
    "da": {
        "blind": (
            "Computerspillerne læser ikke pointene, og nøglerne er kun point: de melder og spiller ens for alle "
            "værdierne. Brug --bots expert."
        ),
        "head": "Søgning i {ruleset}: {keys}; målet: {goal}.",
        "target": "{row} = {value}",
        "minimise": "{row} så lille som muligt",
        "maximise": "{row} så stor som muligt",
        "chosen": "Bedst: {value} ({row} {estimate}, {n} spil).",
        "alone": "Ingen anden prøvet værdi kommer lige så tæt, sikkert ved 95 %.",
        "missed": "Ingen af de prøvede værdier når målet ({goal} ligger uden for den bedstes interval): prøv andre.",
        "together": "{values} kan ikke skilles ad med {n} spil: vælg mellem dem, eller prøv med flere spil (--deals).",
        "now": "Før søgningen havde reglesættet {value}.",
        "deals": "Spil i alt: {spent} af højst {most} (at spille hver værdi {deals} spil: {uniform}); seed {seed}.",
        "coordinate": "{count} kombinationer: søgt én nøgle ad gangen, de andre holdt på de bedste hidtil.",
        "chosen_mark": "bedst",
        "close_mark": "kan ikke skilles fra den bedste",
        "farther_mark": "længere fra målet",
        "dropped_mark": "udelukket efter {n} spil",
        "now_mark": "(nu)",
        "foot": (
            "Tallene i [ ] er 95 %-intervaller. En værdi udelukkes, når den spil for spil sikkert ligger længere fra "
            "målet end den bedste, ved et strengere niveau, der tager højde for alle sammenligninger; de andre får "
            "flere spil."
        ),
        "and": "og",
        "chart": "{row} efter {key} (95 %-intervaller; orange: bedst, grå: udelukket)",
        "chart_target": "målet",
    },
    "en": {
        "blind": (
            "The bots do not read the points, and the keys are points only: they bid and play alike for every "
            "value. Use --bots expert."
        ),
        "head": "Search in {ruleset}: {keys}; goal: {goal}.",
        "target": "{row} = {value}",
        "minimise": "{row} as small as possible",
        "maximise": "{row} as large as possible",
        "chosen": "Best: {value} ({row} {estimate}, {n} deals).",
        "alone": "No other value tried comes as close, significantly at 95%.",
        "missed": "None of the values tried reaches the goal ({goal} lies outside the best one's interval).",
        "together": "{values} cannot be told apart with {n} deals: choose among them, or try more deals (--deals).",
        "now": "Before the search the ruleset had {value}.",
        "deals": "Deals in all: {spent} of at most {most} (playing every value {deals} deals: {uniform}); seed {seed}.",
        "coordinate": "{count} combinations: searched one key at a time, the others held at the best so far.",
        "chosen_mark": "best",
        "close_mark": "cannot be told from the best",
        "farther_mark": "farther from the goal",
        "dropped_mark": "out after {n} deals",
        "now_mark": "(now)",
        "foot": (
            "Figures in [ ] are 95% intervals. A value is dropped when, deal by deal, it is surely farther from the "
            "goal than the best one, at a stricter level that allows for every comparison made; the others get "
            "more deals."
        ),
        "and": "and",
        "chart": "{row} by {key} (95% intervals; orange: best, grey: dropped)",
        "chart_target": "the goal",
    },
}


COLUMNS = {"da": ("værdi", "spil"), "en": ("value", "deals")}


def number_text(value: Fraction, lang: str) -> str:
    """A value as a club writes it: ``75``, ``1,5`` (Danish), ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    if (10**6 * value).denominator == 1:
        text = f"{float(value):g}"
        return text.replace(".", ",") if lang == "da" else text
    return f"{value.numerator}/{value.denominator}"


def thousands(n: int, lang: str) -> str:
    text = f"{n:,}"
    return text.replace(",", ".") if lang == "da" else text


def candidate_text(result: TuneResult, candidate: Candidate, lang: str) -> str:
    axes = result.plan.axes
    if len(axes) == 1:
        return number_text(candidate[0], lang)
    return ", ".join(f"{a.key.text} = {number_text(v, lang)}" for a, v in zip(axes, candidate, strict=True))


def target_text(goal: Goal, lang: str) -> str:
    """The target as the table writes its figure: ``5,0 %``."""
    assert goal.target is not None
    return format_estimate(Estimate(goal.target, 0, 0, 0), goal.percent, lang).split(" [")[0]


def goal_text(goal: Goal, lang: str) -> str:
    words = WORDS[lang]
    row = row_label(goal.row, lang)
    if goal.direction == "target":
        return words["target"].format(row=row, value=target_text(goal, lang))
    return words[goal.direction].format(row=row)


def _listed(items: Sequence[str], lang: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {WORDS[lang]['and']} {items[-1]}"


def summary_lines(result: TuneResult, label: str, seed: int, lang: str, *, blind: bool = False) -> list[str]:
    """The answer in words: the best value with its interval, the values it cannot be told from, the deals;
    first, where the bots read none of the keys (``blind``), that no number of deals will show a difference."""
    words = WORDS[lang]
    goal = result.goal
    row = row_label(goal.row, lang)
    keys = ", ".join(a.key.text for a in result.plan.axes)
    best = result.standings[result.chosen]
    estimate = format_estimate(best.estimate, goal.percent, lang)
    lines = [
        *([words["blind"]] if blind else []),
        words["head"].format(ruleset=label, keys=keys, goal=goal_text(goal, lang)),
        words["chosen"].format(value=candidate_text(result, result.chosen, lang), row=row, estimate=estimate, n=best.n),
    ]
    if goal.target is not None and not best.estimate.low <= goal.target <= best.estimate.high:
        lines.append(words["missed"].format(goal=target_text(goal, lang)))
    if result.indistinguishable:
        together = [candidate_text(result, c, lang) for c in sorted([result.chosen, *result.indistinguishable])]
        fewest = min(result.standings[c].n for c in [result.chosen, *result.indistinguishable])
        lines.append(words["together"].format(values=_listed(together, lang), n=thousands(fewest, lang)))
    else:
        lines.append(words["alone"])
    if result.current not in (result.chosen, *result.indistinguishable):
        lines.append(words["now"].format(value=candidate_text(result, result.current, lang)))
    if not result.plan.grid:
        count = math.prod(len(a.values) for a in result.plan.axes)
        lines.append(words["coordinate"].format(count=thousands(count, lang)))
    lines.append(
        words["deals"].format(
            spent=thousands(result.deals, lang),
            most=thousands(result.plan.most, lang),
            deals=thousands(result.plan.deals, lang),
            uniform=thousands(result.plan.uniform, lang),
            seed=seed,
        )
    )
    return lines


def table_lines(result: TuneResult, lang: str) -> list[str]:
    """Every value tried: its deals, the goal's figure with its 95% interval, and how the race left it."""
    words = WORDS[lang]
    head = [*COLUMNS[lang], row_label(result.goal.row, lang)]
    rows = []
    for candidate, standing in result.standings.items():
        if candidate == result.chosen:
            mark = words["chosen_mark"]
        elif candidate in result.indistinguishable:
            mark = words["close_mark"]
        elif standing.dropped:
            mark = words["dropped_mark"].format(n=thousands(standing.n, lang))
        else:
            mark = words["farther_mark"]
        value = candidate_text(result, candidate, lang)
        if candidate == result.current:
            value += " " + words["now_mark"]
        figure = format_estimate(standing.estimate, result.goal.percent, lang)
        rows.append((value, thousands(standing.n, lang), figure, mark))
    widths = [max(len(r[i]) for r in [tuple(head), *rows]) for i in range(3)]
    out = [f"  {head[0]:<{widths[0]}}  {head[1]:>{widths[1]}}  {head[2]:<{widths[2]}}"]
    for r in rows:
        out.append(f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}".rstrip())
    return [*out, words["foot"]]


# --- the chart -----------------------------------------------------------------------------------


def _points(result: TuneResult, lang: str) -> list[tuple[str, float, float, float, str]]:
    """Each candidate's label, figure, interval and colour, in the order tried (a share in percent)."""
    scale = 100.0 if result.goal.percent else 1.0
    out = []
    for candidate, s in result.standings.items():
        colour = "#ff7f0e" if candidate == result.chosen else "#999999" if s.dropped else "#1f77b4"
        e = s.estimate
        label = " / ".join(number_text(v, lang) for v in candidate)  # the keys' values, in the title's order
        out.append((label, scale * e.value, scale * e.low, scale * e.high, colour))
    return out


def write_chart(result: TuneResult, path: Path, lang: str = "da") -> None:
    """The goal's figure against the value, each with its 95% interval, the target as a line: SVG always,
    PNG where matplotlib is installed."""
    words = WORDS[lang]
    row = row_label(result.goal.row, lang)
    key = " / ".join(a.key.text for a in result.plan.axes)
    title = words["chart"].format(row=row, key=key)
    points = _points(result, lang)
    if result.plan.axes and len(result.plan.axes) == 1:
        order = sorted(range(len(points)), key=lambda i: list(result.standings)[i][0])
        points = [points[i] for i in order]
    target = None if result.goal.target is None else result.goal.target * (100 if result.goal.percent else 1)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        svg = _svg(points, title, target, result.goal.percent, lang, key, words["chart_target"])
        write_atomic(path, escape_controls(svg))
        return
    if suffix != ".png":
        raise RegelmotorError.said("plot_format", name=path.name)
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise RegelmotorError.said("plot_png") from None
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for i, (_, value, low, high, colour) in enumerate(points):
        if not math.isnan(value):
            # a share of 0 can have a lower bound a rounding above it: no bar below the point then
            errors = [
                [max(0.0, value - low) if not math.isnan(low) else 0],
                [max(0.0, high - value) if not math.isnan(high) else 0],
            ]
            axes.errorbar([i], [value], yerr=errors, fmt="o", color=colour, capsize=4)
    if target is not None:
        axes.axhline(target, linestyle="--", color="#444444", label=words["chart_target"])
        axes.legend(loc="best")
    axes.set_xlim(-0.5, len(points) - 0.5)
    axes.set_xlabel(key)
    axes.set_xticks(range(len(points)), [p[0] for p in points])
    axes.set_title(title, fontsize=9)
    axes.set_ylabel("%" if result.goal.percent else row)
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, format="png")
    write_atomic(path, image.getvalue())


def _nice_step(rough: float) -> float:
    """A step for an axis's ticks: 1, 2 or 5 times a power of ten, near ``rough``."""
    power = 10.0 ** math.floor(math.log10(rough))
    return next(float(m * power) for m in (1, 2, 5, 10) if m * power >= rough)


def _svg(
    points: Sequence[tuple[str, float, float, float, str]],
    title: str,
    target: float | None,
    percent: bool,
    lang: str,
    x_title: str = "",
    goal_word: str = "",
) -> str:
    width, height, left, right, top, bottom = 720, 380, 70, 20, 40, 60
    known = [v for p in points for v in p[1:4] if not math.isnan(v)]
    if target is not None:
        known.append(target)
    low, high = (min(known), max(known)) if known else (0.0, 1.0)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    tick_step = _nice_step((high - low) / 4)
    low, high = tick_step * math.floor(low / tick_step), tick_step * math.ceil(high / tick_step)
    if percent:
        low = max(0.0, low)

    def y(value: float) -> float:
        return top + (height - top - bottom) * (high - value) / (high - low)

    step = (width - left - right) / max(1, len(points))

    def x(i: int) -> float:
        return left + step * (i + 0.5)

    def tick(value: float) -> str:
        text = f"{value:g}" + (" %" if percent and lang == "da" else "%" if percent else "")
        return text.replace(".", ",") if lang == "da" else text

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<text x="10" y="20" font-size="13" font-weight="bold">{escape(title)}</text>',
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{height - bottom}" stroke="#000"/>',
        f'<line x1="{left}" x2="{width - right}" y1="{height - bottom}" y2="{height - bottom}" stroke="#000"/>',
    ]
    for k in range(round((high - low) / tick_step) + 1):
        value = low + tick_step * k
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{tick(value)}</text>')
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="#eee"/>')
    if target is not None:
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
            'stroke="#444" stroke-dasharray="6 4"/>'
        )
        out.append(
            f'<text x="{width - right - 4}" y="{y(target) - 5:.1f}" text-anchor="end">{escape(goal_word)}</text>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 16}" text-anchor="middle">{escape(x_title)}</text>'
    )
    for i, (label, value, lo, hi, colour) in enumerate(points):
        out.append(f'<text x="{x(i):.1f}" y="{height - bottom + 16}" text-anchor="middle">{escape(label)}</text>')
        if math.isnan(value):
            continue
        if not math.isnan(lo):
            out.append(
                f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(hi):.1f}" y2="{y(lo):.1f}" '
                f'stroke="{colour}" stroke-width="2"/>'
            )
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(value):.1f}" r="4" fill="{colour}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
