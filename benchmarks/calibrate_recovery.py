"""Recovery: sheets made by computer players of known styles are calibrated (``regelmotor calibrate``'s search),
and the fitted players are judged on held-out sheets of the same style: on every kind bid 30+ times there, does
the fitted players' share lie within the held-out share's 95% interval, and does the fit test keep the fit?

    python benchmarks/calibrate_recovery.py [--sheet-deals 1000] [--deals 300] [--jobs 2] [--styles skat,...]

The sheets are the bots' deals counted as a sheet counts them (``calibrate.bot_deal``: contract, declarer's
seat, made or not); reading real sheet files is tested in tests/test_calibrate.py. Issue 75's targets: 1,000
deals a sheet, three styles, one like tournament Skat's figures (a few percent passed out, sol under 10%).
"""

from __future__ import annotations

import argparse
import json
import time

from regelmotor.bots.style import DEFAULT_STYLE, Style, styled_bot
from regelmotor.compare import contract_kinds, stake
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import DealRunner, Table, Task, rate
from regelmotor.tuning.calibrate import Calibration, Club, Deal, bot_deal, calibrate, fit_test


def styles(unit: float) -> dict[str, Style]:
    sols = ("sol", "ren sol", "bordlægger", "ren bordlægger")
    return {
        "skat": Style.make(1.5, 3 * unit, {k: -12 * unit for k in sols}, "skat-like"),
        "forsigtig": Style.make(3.0, 1 * unit, {}, "cautious"),
        "dagens": DEFAULT_STYLE,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--sheet-deals", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=300, help="deals each candidate style gets at most")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--styles", default="skat,forsigtig,dagens")
    parser.add_argument("--fit", default=None, help="settings to fit (default: all)")
    args = parser.parse_args()
    resolved = load_ruleset(args.ruleset)
    rules = compile_rules(resolved)
    unit = float(stake(rules))
    known = styles(unit)
    fit = args.fit.split(",") if args.fit else None
    report = []
    with DealRunner(args.jobs) as runner:
        for name in args.styles.split(","):
            style = known[name]
            began = time.time()
            bots = (styled_bot(style),) * 4
            table = Table(args.ruleset)
            made, held = runner.play(
                [Task(table, 1001, bots, 0, args.sheet_deals), Task(table, 2002, bots, 0, args.sheet_deals)]
            )
            sheet = [d for d in (bot_deal(r) for r in made) if d is not None]
            held_out = [d for d in (bot_deal(r) for r in held) if d is not None]
            club = Club(args.ruleset, (), resolved.label, rules, sheet, [f"{name} (seed 1001)"])
            found = calibrate(club, args.deals, 1, runner, fit)
            fitted_deals = _fitted_deals(found, runner, args.ruleset, args.deals)
            within, judged = [], []
            for kind in contract_kinds(rules):
                n_held = sum(1 for d in held_out if d.kind == kind)
                if n_held < 30:
                    continue
                played = [d for d in held_out if d.kind is not None]
                share = rate(n_held, len(played))
                bots_played = [d for d in fitted_deals if d is not None and d.kind is not None]
                p = sum(1 for d in bots_played if d.kind == kind) / max(1, len(bots_played))
                judged.append(kind)
                if share.low <= p <= share.high:
                    within.append(kind)
            test = fit_test(held_out, fitted_deals)
            report.append(
                {
                    "style": name,
                    "true": style.as_json(),
                    "fitted": found.style.as_json(),
                    "undecided": {k: [float(v) for v in vs] for k, vs in found.undecided.items()},
                    "kinds_judged": judged,
                    "kinds_within": within,
                    "held_out_test": test.as_json(),
                    "bot_deals": found.deals,
                    "seconds": round(time.time() - began),
                }
            )
            print(json.dumps(report[-1], ensure_ascii=False), flush=True)


def _fitted_deals(found: Calibration, runner: DealRunner, ruleset: str, deals: int) -> list[Deal | None]:
    """The fitted style's own deals on fresh cards (seed 3003), as many as a candidate got."""
    bots = (styled_bot(found.style),) * 4
    (played,) = runner.play([Task(Table(ruleset), 3003, bots, 0, deals)])
    return [bot_deal(r) for r in played]


if __name__ == "__main__":
    main()
