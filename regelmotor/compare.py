"""Two rulesets on the same deals: the statistics side by side, with 95% intervals and the
differences that are significant marked, and a chart a club can put in its newsletter."""

from __future__ import annotations

import importlib.util
import io
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any, NamedTuple

from regelmotor.diff import diff_rulesets
from regelmotor.engine.game import FINISHED
from regelmotor.errors import RegelmotorError
from regelmotor.files import check_output, write_atomic
from regelmotor.model.ruleset import WORDS, Ruleset
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.safe_text import escape_controls
from regelmotor.simulate import (
    POSITIONS,
    DealResult,
    Estimate,
    Summary,
    format_estimate,
    paired_difference,
    rate,
    rate_difference,
    significant,
    summarize,
)


def _row(name: str, a: Estimate, b: Estimate, difference: Estimate, percent: bool) -> dict[str, Any]:
    row = {
        "name": name,
        "a": a.as_json(),
        "b": b.as_json(),
        "difference": difference.as_json(),
        "significant": significant(difference),
        "percent": percent,
    }
    row["a_text"], row["b_text"], row["difference_text"] = row_texts(row, "en")
    return row


def row_texts(row: dict[str, Any], lang: str) -> tuple[str, str, str]:
    """A row's A, B and difference as the text table prints them, in ``lang``'s number format."""

    def text(side: str) -> str:
        e = row[side]
        return format_estimate(Estimate(e["value"], e["low"], e["high"], e["n"]), row["percent"], lang)

    return f"{text('a')} n={row['a']['n']}", f"{text('b')} n={row['b']['n']}", text("difference")


def contract_kinds(rules: Rules) -> list[str]:
    """Every kind of contract a ruleset's deals can end in, as ``compare``'s rows name them: its designations,
    its sol bids and its named games (dansk's pasnolo, engelsk's one game)."""
    kinds = [*(d.id for d in rules.auction.designations), *(s.id for s in rules.auction.sol_contracts)]
    return kinds + [n.id for n in rules.auction.named_contracts if n.id not in kinds]


class Figure(NamedTuple):
    """One figure of a ruleset's run, as ``compare`` reports it beside the other ruleset's: its estimate and
    whether it is a share."""

    estimate: Estimate
    percent: bool


def figures(
    summary: Summary, kinds: Sequence[str] = (), outcomes: Sequence[str] = (), stake: Fraction | None = None
) -> dict[str, Figure]:
    """The figures ``compare`` reports for one ruleset, by their names in ``--json`` (``contract sol: share``),
    in its order: every kind of contract in ``kinds`` (one never bid is bid in 0% of the deals) and every
    outcome in ``outcomes`` as well as those the summary saw; with ``stake``, the points per stake too."""
    out: dict[str, Figure] = {}
    none = Estimate(math.nan, math.nan, math.nan, 0)
    for kind in dict.fromkeys([*summary.contracts, *kinds]):
        share = summary.contracts.get(kind, rate(0, summary.finished))
        out[f"contract {kind}: share"] = Figure(share, True)
        out[f"contract {kind}: made"] = Figure(summary.success.get(kind, none), True)
    for outcome in dict.fromkeys([*summary.outcomes, *outcomes]):
        out[f"outcome {outcome}"] = Figure(summary.outcomes.get(outcome, Estimate(0.0, 0.0, 0.0, summary.deals)), True)
    out["selvmakker"] = Figure(summary.selvmakker, True)
    out["declarer side tricks"] = Figure(summary.side_tricks, False)
    out["joker leads per deal"] = Figure(summary.joker_leads, False)
    out["joker lead won by leader"] = Figure(summary.joker_lead_wins, True)
    for name in POSITIONS:
        out[f"points, {name}"] = Figure(summary.points_per_seat[name], False)
    if stake is not None:
        for name in POSITIONS:
            out[f"points per stake, {name}"] = Figure(_scaled(summary.points_per_seat[name], stake), False)
    return out


PER_DEAL = (
    "joker leads per deal",
    *(f"points, {name}" for name in POSITIONS),
    *(f"points per stake, {name}" for name in POSITIONS),
)
"""The figures that are a mean over every deal (each deal's denominator 1): ``compare`` pairs them deal by deal."""


Parts = Callable[[DealResult], tuple[Fraction, Fraction]]
"""A figure's share of one deal: what the deal adds to its numerator and to its denominator (a share of the
deals played to the end: 1 and 1 for a deal of that kind, 0 and 1 for another, 0 and 0 for a passed-out one)."""


def deal_parts(
    kinds: Sequence[str] = (), outcomes: Sequence[str] = (), stake: Fraction | None = None
) -> dict[str, Parts]:
    """Each figure of ``figures`` deal by deal, by the same names: the sum of the numerators over the sum of
    the denominators is the figure (a test holds the two to each other). A rule search pairs two values'
    figures deal by deal with them: on the same deals their difference varies far less than either."""

    def played(r: DealResult) -> bool:
        return r.outcome == FINISHED and r.contract is not None

    def trump(r: DealResult) -> bool:
        return played(r) and r.side_tricks is not None

    def kind_parts(kind: str) -> tuple[Parts, Parts]:
        def of_kind(r: DealResult) -> bool:
            return played(r) and r.contract == kind

        def with_declarer(r: DealResult) -> bool:  # a game with none is neither made nor lost
            return of_kind(r) and r.made is not None

        return _counted(of_kind, played), _counted(lambda r: bool(r.made), with_declarer)

    def outcome_parts(outcome: str) -> Parts:
        return _counted(lambda r: (r.reason or r.outcome) == outcome, lambda r: True)

    def seat_parts(position: int, unit: Fraction) -> Parts:
        return lambda r: (r.scores[(r.dealer + 1 + position) % 4] / unit, ONE)

    out: dict[str, Parts] = {}
    for kind in kinds:
        out[f"contract {kind}: share"], out[f"contract {kind}: made"] = kind_parts(kind)
    for outcome in outcomes:
        out[f"outcome {outcome}"] = outcome_parts(outcome)
    out["selvmakker"] = _counted(lambda r: trump(r) and r.selvmakker, trump)
    out["declarer side tricks"] = lambda r: (Fraction(r.side_tricks or 0), ONE) if trump(r) else (ZERO, ZERO)
    out["joker leads per deal"] = lambda r: (Fraction(r.joker_leads), ONE)
    out["joker lead won by leader"] = lambda r: (Fraction(r.joker_lead_wins), Fraction(r.joker_leads))
    for position, name in enumerate(POSITIONS):
        out[f"points, {name}"] = seat_parts(position, ONE)
        if stake is not None:
            out[f"points per stake, {name}"] = seat_parts(position, stake)
    return out


ONE, ZERO = Fraction(1), Fraction(0)


def _counted(hit: Callable[[DealResult], bool], counted: Callable[[DealResult], bool]) -> Parts:
    """A share's parts: 1 of 1 for a deal that hits, 0 of 1 for one counted that does not, 0 of 0 for the rest."""
    return lambda r: (ONE if counted(r) and hit(r) else ZERO, ONE if counted(r) else ZERO)


def comparison(
    a: Ruleset, b: Ruleset, left: Sequence[DealResult], right: Sequence[DealResult], bots: Sequence[str]
) -> dict[str, Any]:
    sa, sb = summarize(left, bots), summarize(right, bots)
    kinds = list(dict.fromkeys([*sa.contracts, *sb.contracts]))
    outcomes = list(dict.fromkeys([*sa.outcomes, *sb.outcomes]))
    compiled = compile_rules(a), compile_rules(b)
    stake_a, stake_b = stake(compiled[0]), stake(compiled[1])
    # points in different units are compared per stake as well
    stakes = (stake_a, stake_b) if stake_a != stake_b else (None, None)
    fa, fb = figures(sa, kinds, outcomes, stakes[0]), figures(sb, kinds, outcomes, stakes[1])
    pa, pb = deal_parts(kinds, outcomes, stakes[0]), deal_parts(kinds, outcomes, stakes[1])
    rows: list[dict[str, Any]] = []
    for name, x in fa.items():
        y = fb[name]
        if name in PER_DEAL:  # a mean over every deal: B's value less A's, deal by deal

            def value_a(r: DealResult, name: str = name) -> Fraction:
                return pa[name](r)[0]

            def value_b(r: DealResult, name: str = name) -> Fraction:
                return pb[name](r)[0]

            difference = paired_difference(left, right, value_a, value_b)
        elif x.percent:
            difference = rate_difference(x.estimate, y.estimate)
        else:
            difference = _mean_difference(x.estimate, y.estimate)
        rows.append(_row(name, x.estimate, y.estimate, difference, x.percent))
    differences = [
        {"section": d.section, "path": d.path, "label": d.label, "label_en": d.label_en, "a": d.a, "b": d.b}
        for d in diff_rulesets(a, b, compiled)
    ]
    return {
        "diff": differences,
        "unseen_by_bots": unseen_by_bots(differences, bots),
        "rows": rows,
        "stakes": {"a": float(stake_a), "b": float(stake_b)},
        "a_summary": sa.as_json(),
        "b_summary": sb.as_json(),
    }


SCORE_KEYS = ("scoring", "points", "money")
"""Where a rule of the points and the money lies: what the heuristic and random bots never read."""
TEXT_KEYS = ("name", *WORDS, "source", "notes")
"""What only names or describes a ruleset: no bot plays otherwise for it."""
SCORE_BLIND_BOTS = ("heuristic", "random")
"""The bots that call and play the same whatever the points (only the expert weighs a call by them)."""


def unseen_by_bots(differences: Sequence[dict[str, Any]], bots: Sequence[str]) -> bool:
    """Whether the two rulesets differ only where none of the bots looks: in the points or the money, with
    every seat a bot that does not read them. Then no number of deals shows a change in how they bid."""
    roots = {str(d["path"]).split(".")[0] for d in differences}
    scored = bool(roots & set(SCORE_KEYS))
    return scored and roots <= {*SCORE_KEYS, *TEXT_KEYS} and all(bot in SCORE_BLIND_BOTS for bot in bots)


def stake(rules: Rules) -> Fraction:
    """A ruleset's unit of points: what the declarer gets for the lowest plain contract made exactly, with a
    partner. Points of two rulesets with different stakes are compared per stake too."""
    if rules.auction.levels:
        level = rules.auction.levels[0]
        lowest = rules.auction.ladder.trump_bid(rules.auction.designations[0].id, level)
        return abs(rules.scoring.role_points(lowest, level).declarer) or Fraction(1)
    # no trick bids (dansk, engelsk whist): the lowest named bid (or the one game) won with the fewest tricks
    for named in (
        *(rules.auction.named(b) for b in rules.auction.ladder.bids if b.sol),
        *rules.auction.named_contracts,
    ):
        if named is None or named.side == Side.EACH:
            continue
        bid = rules.contract_bid(named.id)
        for tricks in range(14):
            if rules.scoring.made(*rules.scoring.sample_deal(bid, tricks)) and (
                named.side != Side.PAIRS or tricks >= 7
            ):
                return abs(rules.scoring.role_points(bid, tricks).declarer) or Fraction(1)
    return Fraction(1)


def _scaled(estimate: Estimate, unit: Fraction) -> Estimate:
    u = float(unit)
    return Estimate(estimate.value / u, estimate.low / u, estimate.high / u, estimate.n)


def _mean_difference(a: Estimate, b: Estimate) -> Estimate:
    """B minus A for two means from independent samples, from their intervals."""
    if a.n == 0 or b.n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    half = math.hypot(a.high - a.value, b.high - b.value)
    d = b.value - a.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


def check_plot_target(path: Path) -> None:
    """Refuse a chart that could not be written, before any deal is played (a long run must not end in a
    failed write): the format, matplotlib for PNG, and the folder."""
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise RegelmotorError.said("plot_format", name=path.name)
    if suffix == ".png" and importlib.util.find_spec("matplotlib") is None:
        raise RegelmotorError.said("plot_png")
    check_output(path, replace=True)  # a folder, a missing or unwritable folder, a sheet or a record: refused


_CHART_WORDS = {
    "da": "{a} (blå) mod {b} (orange), 95 %-intervaller; * = sikkert ved 95 %",
    "en": "{a} (blue) against {b} (orange), 95% intervals; * = significant at 95%",
}


def write_plot(report: dict[str, Any], a_label: str, b_label: str, path: Path, lang: str = "da") -> None:
    """The rates of both rulesets with their 95% intervals: SVG always, PNG where matplotlib is installed;
    its words in ``lang``, as the text report's (a chart is for the club's newsletter)."""
    rows = [
        {**r, "label": ("* " if r["significant"] else "") + row_label(r["name"], lang)}
        for r in report["rows"]
        if r["percent"] and not math.isnan(r["a"]["value"]) and not math.isnan(r["b"]["value"])
    ]
    title = _CHART_WORDS[lang].format(a=a_label, b=b_label)
    if path.suffix.lower() == ".svg":
        write_atomic(path, escape_controls(_svg(rows, title, lang)))
        return
    if path.suffix.lower() == ".png":
        try:
            import matplotlib  # type: ignore[import-not-found,unused-ignore]

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise RegelmotorError.said("plot_png") from None
        figure, axes = plt.subplots(figsize=(8, 0.35 * len(rows) + 1))
        for offset, key, label in ((-0.18, "a", a_label), (0.18, "b", b_label)):
            values = [100 * r[key]["value"] for r in rows]
            errors = [  # never below 0: a share of 0 % can have a lower bound a rounding above it
                [max(0.0, 100 * (r[key]["value"] - r[key]["low"])) for r in rows],
                [max(0.0, 100 * (r[key]["high"] - r[key]["value"])) for r in rows],
            ]
            axes.barh([i + offset for i in range(len(rows))], values, height=0.34, xerr=errors, label=label)
        axes.set_yticks(range(len(rows)), [r["label"] for r in rows])
        axes.set_title(title, fontsize=9)
        axes.invert_yaxis()
        axes.set_xlabel("%")
        axes.legend()
        figure.tight_layout()
        image = io.BytesIO()
        figure.savefig(image, format="png")
        write_atomic(path, image.getvalue())
        return
    raise RegelmotorError.said("plot_format", name=path.name)


def _svg(rows: Sequence[dict[str, Any]], title: str, lang: str) -> str:
    label_width, bar_width, row_height = 260, 420, 26
    height = 60 + row_height * len(rows)
    width = label_width + bar_width + 64  # room for "100,0 %" after a full bar
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<text x="10" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for i, row in enumerate(rows):
        y = 40 + i * row_height
        out.append(f'<text x="10" y="{y + 14}">{escape(row["label"])}</text>')
        for offset, key, colour in ((2, "a", "#1f77b4"), (12, "b", "#ff7f0e")):
            value, low, high = (row[key][k] for k in ("value", "low", "high"))
            x0 = label_width
            out.append(f'<rect x="{x0}" y="{y + offset}" width="{bar_width * value:.1f}" height="9" fill="{colour}"/>')
            middle = y + offset + 4.5
            out.append(
                f'<line x1="{x0 + bar_width * low:.1f}" x2="{x0 + bar_width * high:.1f}" '
                f'y1="{middle}" y2="{middle}" stroke="#000"/>'
            )
        share = _percent(row["b"]["value"], lang)
        out.append(f'<text x="{label_width + bar_width + 4}" y="{y + 14}">{share}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the summary a club reads first ------------------------------------------------------------------

_SEAT_WORDS = {
    "da": {"forhaand": "forhånd", "second": "anden hånd", "third": "tredje hånd", "dealer": "giveren"},
    "en": {"forhaand": "forhånd", "second": "second hand", "third": "third hand", "dealer": "the dealer"},
}
_PHRASES = {
    "da": {
        "head": "Det der ændrer sig (sikkert ved 95 %):",
        "none": "Intet ændrer sig sikkert med {deals} spil; flere spil kan vise mindre forskelle.",
        "unseen": (
            "Heuristikken læser ikke pointene, og reglerne skiller sig kun ad i pointene: den melder ens under "
            "begge. Brug --bots expert."
        ),
        "unseen_none": "Intet ændrer sig sikkert med {deals} spil.",
        "share": "{kind} meldes {how}: {a} → {b} af spillene",
        "made": "{kind} vindes {how}: {a} → {b} af gangene",
        "outcome": "spil der ender {kind}: {a} → {b}",
        "points": "point til {kind}: {a} → {b} pr. spil",
        "other": "{label}: {a} → {b}",
        "more": "oftere",
        "less": "sjældnere",
        "times": "{x} gange så ofte",
        "rest": "Resten ({count} tal) ændrer sig ikke sikkert; tabellen nedenfor viser dem alle.",
    },
    "en": {
        "head": "What changes (significant at 95%):",
        "none": "Nothing changes significantly in {deals} deals; more deals can show smaller differences.",
        "unseen": (
            "The heuristic does not read the points, and the rulesets differ only in the points: it bids alike "
            "under both. Use --bots expert."
        ),
        "unseen_none": "Nothing changes significantly in {deals} deals.",
        "share": "{kind} is bid {how}: {a} → {b} of the deals",
        "made": "{kind} is made {how}: {a} → {b} of the times",
        "outcome": "deals ending {kind}: {a} → {b}",
        "points": "points for {kind}: {a} → {b} per deal",
        "other": "{label}: {a} → {b}",
        "more": "more often",
        "less": "less often",
        "times": "{x} times as often",
        "rest": "The rest ({count} figures) do not change significantly; the table below shows them all.",
    },
}


def _number(value: float, lang: str, decimals: int = 1) -> str:
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if lang == "da" else text


def _percent(value: float, lang: str) -> str:
    return f"{_number(100 * value, lang)} %" if lang == "da" else f"{_number(100 * value, lang)}%"


_OUTCOME_WORDS = {
    "da": {"finished": "færdigspillet", "all_pass": "med alle pas", "misdeal": "med fejlgivning", "void": "annulleret"},
    "en": {"finished": "finished", "all_pass": "all passing", "misdeal": "in a misdeal", "void": "void"},
}
_ROW_WORDS = {
    "selvmakker": "selvmakker",
    "declarer side tricks": "stik til melderens side",
    "joker leads per deal": "jokerudspil pr. spil",
    "joker lead won by leader": "udspillet joker vinder stikket",
}
TABLE_WORDS = {
    "da": {
        "head": "{a} mod {b}: {deals} spil hver, de samme spil (seed {seed})",
        "diff": "Regelforskelle:",
        "none": "ingen",
        "table": "Tallene (A | B | B − A; n = spil eller kontrakter talt; * = sikkert ved 95 %):",
        "foot": (
            "{rows} tal prøves på én gang: ved 95 % bliver omtrent hvert 20. tal uden nogen virkelig forskel "
            "mærket af tilfældighed, så en enkelt * er et tegn på at prøve med flere spil, ikke et fund. Intet tal "
            "mærkes med færre end {least} tilfælde på en af siderne."
        ),
    },
    "en": {
        "head": "{a} against {b}: {deals} deals each, the same deals (seed {seed})",
        "diff": "Rule differences:",
        "none": "none",
        "table": "Statistics (A | B | B - A; n = deals or contracts counted; * = significant at 95%):",
        "foot": (
            "{rows} rows are tested at once: at 95% about one in 20 rows with no real difference is marked by "
            "chance, so a single * is a hint to test with more deals, not a finding. No row is marked with fewer "
            "than {least} observations on either side."
        ),
    },
}
"""The text report's own words (the rows' names in ``--json`` stay as they are)."""


def row_label(name: str, lang: str) -> str:
    """A row's name as the text table prints it: Danish words in Danish (``contract sol: share`` is
    ``sol: andel``), the JSON name in English."""
    if lang != "da":
        return name
    if name.startswith("contract "):
        kind, _, what = name[len("contract ") :].rpartition(": ")
        return f"{kind}: {'andel' if what == 'share' else 'vundet'}"
    if name.startswith("outcome "):
        outcome = name[len("outcome ") :]
        return f"spillet ender: {_OUTCOME_WORDS['da'].get(outcome, outcome)}"
    for prefix, words in (("points per stake, ", "point pr. indsats, "), ("points, ", "point, ")):
        if name.startswith(prefix):
            return words + _SEAT_WORDS["da"].get(name[len(prefix) :], name[len(prefix) :])
    return _ROW_WORDS.get(name, name)


def summary_lines(report: dict[str, Any], deals: int, lang: str = "da") -> list[str]:
    """What changed significantly, in words a club reads ("sol meldes tre gange så ofte: 1,1 % → 3,3 % af
    spillene"), and how many figures did not: the first thing ``compare`` prints."""
    words = _PHRASES[lang]
    lines: list[str] = []
    quiet = 0
    for row in report["rows"]:
        a, b = row["a"]["value"], row["b"]["value"]
        if not row["significant"] or math.isnan(a) or math.isnan(b):
            quiet += 1
            continue
        name: str = row["name"]
        if name.startswith("contract ") and name.endswith(": share"):
            kind = name[len("contract ") : -len(": share")]
            ratio = b / a if a > 0 else math.inf
            how = words["more"] if b > a else words["less"]
            if 1.5 <= ratio < math.inf:
                how = words["times"].format(x=_number(ratio, lang, 0 if ratio >= 2.95 else 1))
            lines.append(words["share"].format(kind=kind, how=how, a=_percent(a, lang), b=_percent(b, lang)))
        elif name.startswith("contract ") and name.endswith(": made"):
            kind = name[len("contract ") : -len(": made")]
            how = words["more"] if b > a else words["less"]
            lines.append(words["made"].format(kind=kind, how=how, a=_percent(a, lang), b=_percent(b, lang)))
        elif name.startswith("outcome "):
            kind = _OUTCOME_WORDS[lang].get(name[len("outcome ") :], name[len("outcome ") :])
            lines.append(words["outcome"].format(kind=kind, a=_percent(a, lang), b=_percent(b, lang)))
        elif name.startswith("points, "):
            kind = _SEAT_WORDS[lang].get(name[len("points, ") :], name)
            lines.append(words["points"].format(kind=kind, a=_number(a, lang), b=_number(b, lang)))
        else:  # any other figure that changed (jokers led, tricks to the declarer's side): never counted as quiet
            a_text, b_text = (
                (_percent(a, lang), _percent(b, lang))
                if row.get("percent")
                else (_number(a, lang, 2), _number(b, lang, 2))  # as the table writes a mean
            )
            lines.append(words["other"].format(label=row_label(name, lang), a=a_text, b=b_text))
    unseen = [words["unseen"]] if report.get("unseen_by_bots") else []
    if not lines:
        return [*unseen, words["unseen_none" if unseen else "none"].format(deals=deals)]
    changed = [words["head"], *(f"  {line[0].upper()}{line[1:]}" for line in lines), words["rest"].format(count=quiet)]
    return [*unseen, *changed]
