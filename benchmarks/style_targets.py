"""Issue 75's targets for a style of the expert, beside the recovery (``calibrate_recovery.py``):

    python benchmarks/style_targets.py --part scores [--deals 400] [--seed 1] [--variants sol3,vip2,halve2,sans2]
    python benchmarks/style_targets.py --part match [--deals 1000] [--seed 1] [--style FILE]

``--part scores`` ("It answers the scores"): ``compare`` of ``standard`` against a club file paying one kind
more (``sol3``: docs/examples/richsol.yaml, every sol bid three times as much; ``vip2``, ``halve2``, ``sans2``,
``gode2``: that designation's factor in the table ``B`` doubled, written to a temporary folder), every seat
the expert in the style (the Skat-like style of ``calibrate_recovery.py`` unless ``--style FILE``). The figures
are ``compare``'s own (``compare.comparison``: the same deals, the same seed; ``standard``'s deals are played
once and set beside every variant, as each ``compare`` would play them again): the kind's share of the deals
played in each, with its Wilson interval, and B - A with Newcombe's hybrid score interval, significant only
where both sides count 30 deals or more. Beside it, not ``compare``'s test: the same difference paired deal by
deal (the kind's share of *every* deal, the mean of B's indicator less A's on the same cards).

``--part match`` ("Strength kept where it should be"): ``match`` of the expert in the style against today's
expert (``match.run_match``: each deal played both ways on the same cards), A's points less B's per seat and
deal with its 95% interval, in ``standard``'s points and in stakes.

Each figure is printed as a line of JSON on standard output; progress on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from calibrate_recovery import styles

from regelmotor.bots.style import STYLED, Style, read_style, styled_bot
from regelmotor.compare import comparison, stake
from regelmotor.engine.game import FINISHED
from regelmotor.match import run_match
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import DealResult, mean, paired_difference, run_deals

REPO = Path(__file__).resolve().parent.parent


def b_table() -> dict[str, Any]:
    """``standard``'s designation factors (``scoring.tables.B``), as the shipped file gives them."""
    return {k: _number(v) for k, v in load_ruleset("standard").ruleset.scoring.tables["B"].values.items()}


def _number(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else str(value)


def variant_file(name: str, folder: Path) -> Path:
    """The club file of a variant: ``sol3`` is the shipped example; ``KIND2`` doubles KIND's factor."""
    if name == "sol3":
        return REPO / "docs" / "examples" / "richsol.yaml"
    kind, factor = name[:-1], int(name[-1])
    table = b_table()
    if kind not in table:
        raise SystemExit(f"unknown variant {name}: sol3 or one of {', '.join(k + '2' for k in table)}")
    values = dict(table, **{kind: _number(Fraction(table[kind]) * factor)})
    text = "\n".join(
        [
            "kind: ruleset",
            "extends: standard",
            f"name: {kind}{factor}",
            f"title: Standard med {kind} gange {factor}",
            f"description: Es-makker whist som standard, men {kind} giver {factor} gange så mange point",
            "source: benchmarks/style_targets.py",
            "scoring:",
            "  tables:",
            "    B:",
            "      key: bid",
            "      values: {" + ", ".join(f"{k}: {v}" for k, v in values.items()) + "}",
            f'  source: "benchmarks/style_targets.py: standardens tabel B med {kind} gange {factor}"',
        ]
    )
    path = folder / f"{name}.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def kinds_of(name: str) -> list[str]:
    """The kinds whose price a variant changes."""
    return ["sol", "ren sol", "bordlægger", "ren bordlægger"] if name == "sol3" else [name[:-1]]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _style(args: argparse.Namespace) -> Style:
    if args.style:
        return read_style(Path(args.style))
    unit = float(stake(compile_rules(load_ruleset(args.ruleset))))
    return styles(unit)[args.known]


def _played(deals: list[DealResult]) -> int:
    return sum(1 for r in deals if r.outcome == FINISHED and r.contract is not None)


def scores(args: argparse.Namespace, style: Style) -> None:
    bots = [styled_bot(style)] * 4
    a = load_ruleset(args.ruleset)
    began = time.time()
    left = run_deals(args.ruleset, [], args.deals, args.seed, bots, args.jobs)
    _say(f"{args.ruleset}: {args.deals} deals in {time.time() - began:.0f} s")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.variants.split(","):
            path = variant_file(name, Path(folder))
            b = load_ruleset(str(path))
            began = time.time()
            right = run_deals(str(path), [], args.deals, args.seed, bots, args.jobs)
            seconds = time.time() - began
            report = comparison(a.ruleset, b.ruleset, left, right, bots)
            rows = {row["name"]: row for row in report["rows"]}
            out: dict[str, Any] = {
                "part": "scores",
                "variant": name,
                "file": str(path.relative_to(REPO)) if path.is_relative_to(REPO) else path.name,
                "deals": args.deals,
                "seed": args.seed,
                "bots": bots[0],
                "played": {"a": _played(left), "b": _played(right)},
                "seconds": round(seconds),
                "kinds": {},
                "passed out": rows.get("outcome all_pass"),
                "significant_rows": [r["name"] for r in report["rows"] if r["significant"]],
                "rows_tested": len(report["rows"]),
            }
            for kind in kinds_of(name):
                row = rows.get(f"contract {kind}: share")
                made = rows.get(f"contract {kind}: made")

                def hit(r: DealResult, kind: str = kind) -> Fraction:
                    return Fraction(int(r.outcome == FINISHED and r.contract == kind))

                paired = paired_difference(left, right, hit, hit)
                out["kinds"][kind] = {
                    "share": row,
                    "made": made,
                    "paired_share_of_all_deals": paired.as_json(),
                }
            if len(kinds_of(name)) > 1:  # every sol bid together (the "sol-type contracts")

                def any_sol(r: DealResult) -> Fraction:
                    return Fraction(int(r.outcome == FINISHED and r.contract in kinds_of("sol3")))

                together = paired_difference(left, right, any_sol, any_sol)
                out["every sol bid"] = {
                    "a": mean([any_sol(r) for r in left]).as_json(),
                    "b": mean([any_sol(r) for r in right]).as_json(),
                    "paired_share_of_all_deals": together.as_json(),
                }
            print(json.dumps(out, ensure_ascii=False), flush=True)
            for kind, figures in out["kinds"].items():
                row = figures["share"]
                if row is None:
                    _say(f"{name}: {kind} never bid")
                    continue
                _say(
                    f"{name}: {kind} {_pct(row['a'])} -> {_pct(row['b'])}, B - A {_pct(row['difference'], True)}"
                    f"{' significant' if row['significant'] else ' not significant'}"
                )


def _pct(e: dict[str, Any], signed: bool = False) -> str:
    value = f"{100 * e['value']:+.1f}" if signed else f"{100 * e['value']:.1f}"
    return f"{value}% [{100 * e['low']:.1f}, {100 * e['high']:.1f}] n={e['n']}"


def match(args: argparse.Namespace, style: Style) -> None:
    a, b = styled_bot(style), STYLED
    unit = float(stake(compile_rules(load_ruleset(args.ruleset))))
    began = time.time()
    result = run_match(a, b, args.ruleset, [], args.deals, args.seed, jobs=args.jobs)
    p = result.a_points
    out = {
        "part": "match",
        "a": a,
        "b": b,
        "ruleset": args.ruleset,
        "deals": args.deals,
        "seed": args.seed,
        "a_points_per_deal": p.as_json(),
        "a_stakes_per_deal": {"value": p.value / unit, "low": p.low / unit, "high": p.high / unit, "n": p.n},
        "significant": result.significant,
        "seconds": round(time.time() - began),
    }
    print(json.dumps(out, ensure_ascii=False), flush=True)
    _say("\n".join(result.lines("en")))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--part", choices=("scores", "match"), required=True)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--known", default="skat", help="a style of calibrate_recovery.py (default: skat)")
    parser.add_argument("--style", default=None, help="a style file instead (regelmotor calibrate's -o)")
    parser.add_argument("--variants", default="sol3,vip2,halve2,sans2")
    args = parser.parse_args()
    style = _style(args)
    _say(f"style: {style.describe('en')} ({styled_bot(style)})")
    if args.part == "scores":
        scores(args, style)
    else:
        match(args, style)


if __name__ == "__main__":
    main()
