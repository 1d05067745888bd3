"""The scoring's checks: tables keyed by bids and levels the ruleset has, points that sum to zero, and
scores that mean what a club means."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from regelmotor.errors import RegelmotorError
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said
from regelmotor.rules.scoring.scorer import ScoringProblem, scorer_for


def tables(r: Ruleset) -> Iterator[Finding]:
    """A table's keys are bids the ruleset has or levels it can be bid at: "vipp" or 14 is a typo, and a
    typo that is accepted would silently never be looked up."""
    bids = {d.id for d in r.designations} | {s.id for s in r.named_bids()}
    levels = {str(n) for n in r.levels}
    for name, table in r.scoring.tables.items():
        known = levels if table.key == "level" else bids
        for key in table.values:
            if key not in known:
                here = ("scoring", "tables", name, "values", key)
                if table.key == "bid":
                    close = difflib.get_close_matches(key, sorted(known), n=1)
                    bids_known = ", ".join(sorted(known))
                    if close:
                        yield here, said("check_table_bid_close", key=key, bids=bids_known, close=close[0])
                    else:
                        yield here, said("check_table_bid", key=key, bids=bids_known)
                elif r.levels:
                    yield here, said("check_table_level", key=key, low=r.levels[0], high=r.levels[-1])
                else:
                    yield here, said("check_table_no_level", key=key)


def zero_sum(r: Ruleset) -> Iterator[Finding]:
    pairs_only = not r.designations and all(bid.side == "pairs" for bid in r.named_bids())
    if not r.scoring.losers_pay and not pairs_only:  # only the winners score: in a game of pair against pair
        yield ("scoring", "losers_pay"), said("check_losers_pay_pairs")
        return
    try:
        problems = scorer_for(r).zero_sum()  # kept on the scorer that every ruleset scoring alike shares
    except ScoringProblem as exc:
        yield where_added(r, exc)
        return
    for problem in problems:
        yield problem.path, problem.said or problem.message


def meaning(r: Ruleset) -> Iterator[Finding]:
    """What a sound ladder and zero-sum scores can still say that no club means: a contract whose making
    pays nothing or loses, a failed one that pays as much as a made one, a sol that asks nothing. Each is
    said once, at the formula or the bid to fix (the first contract that shows it named)."""
    scorer = scorer_for(r)
    trump = r.scoring.trump
    if trump is not None:
        for d in r.designations:
            found: RegelmotorError | None = None
            for level in r.levels:
                made = scorer.score_trump(d.id, level, level, alone=False).declarer
                failed = scorer.score_trump(d.id, level, level - 1, alone=False).declarer
                if made <= 0:
                    found = said("check_made_pays", bid=f"{level} {d.id}", level=level, made=made)
                elif made <= failed:
                    found = said("check_failed_pays_less", bid=f"{level} {d.id}", made=made, failed=failed)
                if found:
                    break
            if found:
                yield ("scoring", "trump", "formula" if trump.formula is not None else "made"), found
                break
    for i, bid in enumerate(r.sol_bids):
        if bid.side not in ("alone", "partner"):
            continue
        if bid.max_tricks is not None and bid.max_tricks >= 13:
            yield ("sol_bids", i, "max_tricks"), said("check_asks_nothing_the_declarer_may", bid_id=bid.id)
            continue
        if bid.min_tricks is not None and bid.min_tricks <= 0:
            yield ("sol_bids", i, "min_tricks"), said("check_asks_nothing_the_declarer_may_2", bid_id=bid.id)
            continue
        if bid.max_tricks is None:
            continue
        made = scorer.score_sol(bid.id, bid.max_tricks).declarer
        failed = scorer.score_sol(bid.id, bid.max_tricks + 1).declarer
        where = ("scoring", "sol", "formula" if r.scoring.sol.formula is not None else "made")
        if made <= 0:
            yield where, said("check_made_gives_the_declarer_a", bid_id=bid.id, made=made)
            break
        if made <= failed:
            yield where, said("check_made_pays_the_declarer_failed", bid_id=bid.id, made=made, failed=failed)
            break


def where_added(r: Ruleset, problem: ScoringProblem) -> Finding:
    """A table without a value for a bid points at the bid, where a club that added it will look (its own
    file), rather than at the table it inherited."""
    key, path, message = problem.missing, problem.path, problem.said or problem.message
    ids = {"designations": [d.id for d in r.designations], "sol_bids": [s.id for s in r.sol_bids]}
    for kind, names in ids.items():
        if key in names:
            return (kind, names.index(key), "id"), said("check_add_to_table", error=message, key=key, table=path[2])
    return path, message
