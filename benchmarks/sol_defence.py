"""Where the playouts' defence of an open sol goes wrong (run by hand: python benchmarks/sol_defence.py).

The bidding prices bordlægger on playouts whose defenders play by the kernel's rules of thumb, and the
calibration says it is priced far above what it brings at the table. This finds where those rules of
thumb give a won defence away. Four experts play ``--deals`` deals of a ruleset; every open-sol row
their bidding plays out is kept (the row as the playout starts it: a sampled deal of a bordlægger or ren
bordlægger bid). Each is played by the playout policy down to ``--cards`` cards; where the double-dummy
search then says the defence beats the declarer, the position is played on by the policy, card by card,
and the first card after which the search says the declarer makes it is counted: a lead, a card
following suit or a discard, before or after the declarer played to the trick, or the declarer's own.

Nothing here is a test: the figures are reported (README, docs/comparing-variants.md section 6).
"""

from __future__ import annotations

import argparse
import collections
from typing import Any

import numpy as np

from regelmotor import play_row
from regelmotor.bots import double_dummy as DD
from regelmotor.bots import expert as E
from regelmotor.bots import kernel as K
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import run_deals


def open_sol_rows(name: str, deals: int, seed: int) -> play_row.Rows:
    """The open-sol rows the experts' playouts before play start from, over ``deals`` deals."""
    kept: list[play_row.Rows] = []
    original = E.ExpertBot._playouts

    def keep(self: E.ExpertBot, rows: list[play_row.Rows], facts: list[play_row.PlayFacts]) -> play_row.Rows:
        kept.extend(r.copy() for r in rows if DD.objective(r) == DD.FEWEST and r[play_row.OPEN_SEATS] != 0)
        return original(self, rows, facts)

    E.ExpertBot._playouts = keep  # type: ignore[method-assign]
    try:
        run_deals(name, [], deals, seed, ["expert"] * 4, jobs=1)
    finally:
        E.ExpertBot._playouts = original  # type: ignore[method-assign]
    return np.array(kept)


def where_it_goes_wrong(name: str, rows: play_row.Rows, cards: int, nodes: int) -> dict[str, Any]:
    consts = compile_rules(load_ruleset(name)).play.constants
    rows = rows.copy()
    K.play_rows_to(rows, consts, 5, cards)
    table = DD.new_table()

    def declarer_fails(row: play_row.Rows) -> bool | None:
        won = np.zeros((1, 4), dtype=np.int64)
        DD.clear(table)
        if not DD.finish_rows(won, row[None].copy(), consts, table, nodes)[0]:
            return None
        return bool(won[0, int(row[play_row.DECLARER])] > row[play_row.SOL_LIMIT])

    first_loss: collections.Counter[str] = collections.Counter()
    live = beaten = 0
    for number, start in enumerate(rows):
        row = start.copy()
        fails = None if play_row.play_over(row, consts) else declarer_fails(row)
        if fails is None:
            continue
        live += 1
        if not fails:
            continue
        beaten += 1
        seed = 1000 + number
        while not play_row.play_over(row, consts):
            card = K.policy_card(row.copy(), consts, seed)
            seed += 1
            child = row.copy()
            play_row.play_card(child, card, consts)
            after = declarer_fails(child)
            if after is None:
                break
            if not after:
                first_loss[kind_of_card(row, card)] += 1
                break
            row = child
    return {"positions": live, "the defence wins double dummy": beaten, "first card that lets him through": first_loss}


def kind_of_card(row: play_row.Rows, card: int) -> str:
    seat, count, fd = int(row[play_row.TO_PLAY]), int(row[play_row.TRICK_N]), int(row[play_row.FD_SUIT])
    declarers = int(row[play_row.DECLARERS])
    if (declarers >> seat) & 1:
        return "the declarer's own card"
    if count == 0:
        return "a defender's lead"
    after = any((declarers >> ((int(row[play_row.LEADER]) + i) % 4)) & 1 for i in range(count))
    follows = play_row.card_suit(card, fd) == play_row.card_suit(int(row[play_row.TRICK]), fd)
    return ("following suit" if follows else "a discard") + (" after the declarer" if after else " before him")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--deals", type=int, default=12, help="deals whose bidding gives the rows (default 12)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rows", type=int, default=400, help="open-sol rows examined (default 400)")
    parser.add_argument("--cards", type=int, default=24, help="cards left where the search starts (default 24)")
    parser.add_argument("--nodes", type=int, default=300_000)
    args = parser.parse_args()
    rows = open_sol_rows(args.ruleset, args.deals, args.seed)[: args.rows]
    found = where_it_goes_wrong(args.ruleset, rows, args.cards, args.nodes)
    print(
        f"{args.ruleset}: {len(rows)} open-sol rows, {found['positions']} still in play and settled at {args.cards} "
        f"cards, the defence wins double dummy in {found['the defence wins double dummy']}"
    )
    losses = found["first card that lets him through"]
    print(f"the playouts' first card that lets the declarer through, in {sum(losses.values())} of them:")
    for kind, count in losses.most_common():
        print(f"  {kind}: {count}")


if __name__ == "__main__":
    main()
