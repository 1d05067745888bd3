"""How a closed sol is played at the table and in the playouts that price it (run by hand:
python benchmarks/sol_play.py [--ruleset thorsen] [--deals 600] [--first 0]).

The calibration says ``thorsen``'s closed sol is priced below what it brings. This asks why, on the
sols themselves: four experts play ``--deals`` deals (seeded as the calibration seeds them); on every
deal that ends in a sol of one declarer whose hand stays hidden, the real cards at the first lead are
played out ``--playouts`` times, once played to the end by the kernel's rules of thumb and once solved
from ``--leaf`` cards, as the bidding's playouts are, and the share the declarer makes there is set
beside what he made at the table. With ``--defence``, the same deals are played again with the
defenders at the table playing the rules of thumb's card instead of searching (the declarer as before):
if the sols go through more often then, the playouts' defence is not what makes them too pessimistic.

Nothing here is a test: the figures are reported (README, ``Budget.plan_dd_closed_sol_cards``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import numpy as np

from regelmotor import play_row
from regelmotor.bots import double_dummy as DD
from regelmotor.bots import kernel as K
from regelmotor.bots.expert import ExpertBot, kernel_for
from regelmotor.bots.knowledge import play_knowledge
from regelmotor.engine.actions import Action
from regelmotor.engine.game import PLAY, Game, View
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import Estimate, mean, rate


def share_mean(shares: Sequence[float]) -> Estimate:
    """The mean of per-deal shares, its interval kept within 0 and 1: no share lies outside them, so
    cutting the interval there loses none of its cover (at a handful of sols the t interval reaches past)."""
    found = mean([Fraction(s) for s in shares])
    return Estimate(found.value, max(0.0, found.low), min(1.0, found.high), found.n)


class RuleOfThumbDefence:
    """The expert, but as a defender of a closed sol it plays the card the playouts' rules of thumb play."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.expert = ExpertBot(rules, rng)
        self.rules, self.rng = rules, rng
        self.kernel = kernel_for(rules)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        cards = [a for a in legal if a.card is not None]
        if view.phase == PLAY and view.contract is not None and view.seat not in view.declarers:
            bid = view.contract
            if (
                bid.is_sol
                and play_row.open_at(self.rules, bid, view.declarers)[0] == 0
                and len(cards) == len(legal) > 1
            ):
                know = play_knowledge(view, cards, self.rules, self.kernel)
                row = K.sample_rows(know.base, know.pool, know.allowed, know.capacity, 1, self.rng.getrandbits(31))[0]
                card = K.policy_card(row.copy(), self.kernel.constants, self.rng.getrandbits(31))
                return cards[list(know.candidates).index(card)]
        return self.expert.choose(view, legal)


def _play(rules: Rules, name: str, number: int, defence: bool) -> tuple[Game, Game | None]:
    """Deal ``number`` played by four experts (or rule-of-thumb defenders), and the game at its first lead."""
    rng = random.Random(f"calibration {name} {number}")
    game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
    make = RuleOfThumbDefence if defence else ExpertBot
    bots = [make(rules, random.Random(rng.randrange(2**32))) for _ in range(4)]
    first_lead = None
    while game.step is not None:
        if game.phase == PLAY and first_lead is None:
            first_lead = game.clone()
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal))
    return game, first_lead


def _made_in_playouts(
    row: play_row.Rows, consts: play_row.Rows, playouts: int, leaf: int, table: play_row.Rows, seed: int
) -> float:
    """The share of ``playouts`` playouts of ``row`` the declarer makes: solved from ``leaf`` cards (0: none)."""
    rows = np.repeat(row[None, :], playouts, axis=0)
    won = np.zeros((playouts, 4), dtype=np.int64)
    rest = np.ones(playouts, dtype=np.bool_)
    if leaf:
        K.play_rows_to(rows, consts, seed, leaf)
        DD.clear(table)
        rest = DD.finish_rows(won, rows, consts, table, 20_000) == 0
    won[rest] = K.playout_rows(rows[rest], consts, seed + 1)
    return float(np.mean(won[:, int(row[play_row.DECLARER])] <= row[play_row.SOL_LIMIT]))


def _part(args: tuple[str, int, int, int, int, bool]) -> list[tuple[bool, float, float, bool | None]]:
    """(made at the table, made in playouts played out, made in playouts solved, made with rule-of-thumb
    defenders at the table or None) for each closed sol of one declarer in ``range(first, stop)``."""
    name, first, stop, playouts, leaf, defence = args
    rules = compile_rules(load_ruleset(name))
    kernel = kernel_for(rules)
    table = DD.new_table()
    found = []
    for number in range(first, stop):
        game, first_lead = _play(rules, name, number, defence=False)
        bid = game.bid
        if bid is None or not bid.is_sol or len(game.declarers) != 1 or first_lead is None:
            continue
        if play_row.open_at(rules, bid, game.declarers)[0] != 0:
            continue
        row = play_row.row_from_game(kernel, first_lead)
        limit, declarer = int(row[play_row.SOL_LIMIT]), game.declarers[0]
        out = _made_in_playouts(row, kernel.constants, playouts, 0, table, number)
        solved = _made_in_playouts(row, kernel.constants, playouts, leaf, table, number)
        again = None
        if defence:
            other, _ = _play(rules, name, number, defence=True)
            if other.bid == bid and other.declarers == game.declarers:
                again = other.tricks_won[declarer] <= limit
        found.append((game.tricks_won[declarer] <= limit, out, solved, again))
    return found


def sol_play(name: str, deals: int, first: int, playouts: int, leaf: int, defence: bool, jobs: int) -> dict[str, Any]:
    parts = [
        (name, first + i * deals // jobs, first + (i + 1) * deals // jobs, playouts, leaf, defence) for i in range(jobs)
    ]
    with ProcessPoolExecutor(jobs) as pool:
        rows = [row for part in pool.map(_part, parts) for row in part]
    report: dict[str, Any] = {
        "sols": len(rows),
        "made at the table": rate(sum(r[0] for r in rows), len(rows)),
        "made in the playouts, played out": share_mean([r[1] for r in rows]),
        f"made in the playouts, solved from {leaf} cards": share_mean([r[2] for r in rows]),
    }
    if defence:
        paired = [r for r in rows if r[3] is not None]
        report["same contract with rule-of-thumb defenders"] = len(paired)
        report["made at the table, the experts defending"] = rate(sum(r[0] for r in paired), len(paired))
        report["made at the table, the rules of thumb defending"] = rate(sum(bool(r[3]) for r in paired), len(paired))
        # paired on the same deals: the rules of thumb's sol made (1) or not (0), less the experts'
        report["rules of thumb less experts, deal by deal"] = mean([Fraction(bool(r[3]) - r[0]) for r in paired])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--ruleset", default="thorsen")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number (default 0)")
    parser.add_argument("--playouts", type=int, default=64, help="playouts of each sol's real cards")
    parser.add_argument("--leaf", type=int, default=16, help="the solved playouts' cards left (default 16)")
    parser.add_argument("--defence", action="store_true", help="play the deals again, defenders by rules of thumb")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    report = sol_play(args.ruleset, args.deals, args.first, args.playouts, args.leaf, args.defence, args.jobs)
    for key, value in report.items():
        if isinstance(value, Estimate):
            value = f"{value.value:.3f} [{value.low:.3f}, {value.high:.3f}] (n = {value.n})"
        print(f"{args.ruleset} {key}: {value}")


if __name__ == "__main__":
    main()
