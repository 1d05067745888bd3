"""Semantic checks: what a ruleset can say that the schema allows but the game cannot be.

A ladder with a hole or two equal bids, a vip without a kitty, a trump choice that can be
empty, a scoring rule that does not sum to zero: each is reported with the key path to fix,
all at once.
"""

from __future__ import annotations

import difflib
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterator
from typing import get_args

from regelmotor.bids import LadderProblem, build_ladder, fold
from regelmotor.rules.dealing import pattern_problem
from regelmotor.rules.scoring import Scorer, ScoringProblem, zero_sum_problems
from regelmotor.ruleset.model import UNRANKED, Designation, Rank, Ruleset, SolBid

Finding = tuple[tuple[str | int, ...], str | Exception]
"""Where to fix it, and what is wrong: a sentence, or an error that says itself in the reader's language."""
RANKS: tuple[str, ...] = get_args(Rank)
"""The thirteen ranks as a ruleset writes them (the model's own list)."""


CHECKED_KEPT = 256
"""How many rulesets' findings are kept (checking one scores every game it allows: about 0.2 s)."""
_checked: OrderedDict[str, tuple[Finding, ...]] = OrderedDict()
_checked_lock = threading.Lock()


def check_ruleset(ruleset: Ruleset) -> list[Finding]:
    """Every semantic problem of ``ruleset``.

    A pure function of the resolved rules, so the findings are kept by the rules' canonical JSON: the
    same rules loaded again (a record replayed, a sheet scored, a second game on the server) are not
    checked again."""
    key = ruleset.model_dump_json()
    with _checked_lock:  # the server loads rulesets in several threads
        found = _checked.get(key)
        if found is not None:
            _checked.move_to_end(key)
            return list(found)
    found = tuple(_check(ruleset))
    with _checked_lock:
        _checked[key] = found
        if len(_checked) > CHECKED_KEPT:
            _checked.popitem(last=False)
    return list(found)


def _check(ruleset: Ruleset) -> list[Finding]:
    findings: list[Finding] = []
    for check in (_game_shape, _named_bids, _bids_and_designations, _ladder):
        findings.extend(check(ruleset))
    if not findings:  # scoring needs a sound ladder and sound designations to evaluate; then it is
        tables = list(_tables(ruleset))  # reported with every other problem at once
        findings.extend(tables or _scoring(ruleset))
        if not findings:
            findings.extend(_meaning(ruleset))
    for check in (
        _table,
        _deck_and_dealing,
        _auction,
        _partner_card,
        _exchange,
        _doubling,
        _jokers,
        _card_order,
        _jernhaand,
    ):
        findings.extend(check(ruleset))
    return findings


def _meaning(r: Ruleset) -> Iterator[Finding]:
    """What a sound ladder and zero-sum scores can still say that no club means: a contract whose making
    pays nothing or loses, a failed one that pays as much as a made one, a sol that asks nothing. Each is
    said once, at the formula or the bid to fix (the first contract that shows it named)."""
    scorer = Scorer(r)
    trump = r.scoring.trump
    if trump is not None:
        for d in r.designations:
            found = None
            for level in r.levels:
                made = scorer.score_trump(d.id, level, level, alone=False).declarer
                failed = scorer.score_trump(d.id, level, level - 1, alone=False).declarer
                if made <= 0:
                    found = f"{level} {d.id} made with {level} tricks gives the declarer {made}: a made contract pays"
                elif made <= failed:
                    found = f"{level} {d.id} made pays the declarer {made}, failed by one {failed}: "
                    found += "a failed contract pays less"
                if found:
                    break
            if found:
                yield ("scoring", "trump", "formula" if trump.formula is not None else "made"), found
                break
    for i, bid in enumerate(r.sol_bids):
        if bid.side not in ("alone", "partner"):
            continue
        if bid.max_tricks is not None and bid.max_tricks >= 13:
            yield ("sol_bids", i, "max_tricks"), f'"{bid.id}" asks nothing: the declarer may take all 13 tricks'
            continue
        if bid.min_tricks is not None and bid.min_tricks <= 0:
            yield ("sol_bids", i, "min_tricks"), f'"{bid.id}" asks nothing: the declarer may take no trick'
            continue
        if bid.max_tricks is None:
            continue
        made = scorer.score_sol(bid.id, bid.max_tricks).declarer
        failed = scorer.score_sol(bid.id, bid.max_tricks + 1).declarer
        where = ("scoring", "sol", "formula" if r.scoring.sol.formula is not None else "made")
        if made <= 0:
            yield where, f'"{bid.id}" made gives the declarer {made}: a made contract pays'
            break
        if made <= failed:
            yield where, f'"{bid.id}" made pays the declarer {made}, failed {failed}: a failed contract pays less'
            break
    if r.money.evening_fee < 0:
        yield (
            ("money", "evening_fee"),
            f"an evening fee is paid to the club's box: 0 or more, not {r.money.evening_fee}",
        )


def _table(r: Ruleset) -> Iterator[Finding]:
    players = r.table.players
    if not players:
        yield ("table", "players"), "no number of players is allowed: list 4, 5 or 6 (es-makker whist takes 4)"
    for i, count in enumerate(players):
        if not 4 <= count <= 6:
            yield ("table", "players", i), f"{count} players cannot play: es-makker whist takes 4, 5 or 6"
    if len(set(players)) != len(players):
        yield ("table", "players"), "a number of players is listed twice"
    rules = {s.players: (i, s) for i, s in enumerate(r.table.sitting_out)}
    for i, sit in enumerate(r.table.sitting_out):
        if sit.players not in players:
            yield ("table", "sitting_out", i, "players"), f"{sit.players} players is not an allowed number of players"
        if len(sit.seats) != sit.players - 4:
            yield (
                ("table", "sitting_out", i, "seats"),
                f"at {sit.players} players {sit.players - 4} must sit out each deal, not {len(sit.seats)}",
            )
        if len(set(sit.seats)) != len(sit.seats):
            yield ("table", "sitting_out", i, "seats"), "the same seat is named twice"
    for count in players:
        if count > 4 and count not in rules:
            yield ("table", "sitting_out"), f"the table allows {count} players but does not say who sits out"


def _deck_and_dealing(r: Ruleset) -> Iterator[Finding]:
    cards = 52 + r.deck.jokers
    if cards - r.deck.kitty != 52:
        yield (
            ("deck", "kitty"),
            f"{cards} cards dealt 13 to each of four players leave {cards - 52} for the kitty, not {r.deck.kitty}",
        )
    for i, size in enumerate(r.dealing.packet_sizes):
        if not 1 <= size <= 13:
            yield ("dealing", "packet_sizes", i), f"a packet of {size} cards is not possible"
    problem = pattern_problem(r, r.dealing.pattern)
    if problem:
        yield ("dealing", "pattern"), problem


def _game_shape(r: Ruleset) -> Iterator[Finding]:
    """What a game without trick bids (dansk and engelsk whist) must and must not say, and what a game
    with them must say rather than take silently from the defaults."""
    given = r.model_fields_set
    if r.designations:
        for key in ("bids", "partner_card", "called_card"):
            if key not in given:
                yield (key,), f'a ruleset with trick bids (designations) must say "{key}"'
        if r.table.partnerships == "fixed":
            yield (
                ("table", "partnerships"),
                "trick bids name a partner card; with fixed partnerships there is none to name "
                "(not implemented: remove the designations, or play with called partners)",
            )
    elif r.bids is not None:
        yield ("bids",), "trick bids need designations (at least the plain one); this ruleset has none"
    if r.deck.kitty and "exchange" not in given:
        yield ("exchange",), f'a ruleset with a kitty of {r.deck.kitty} cards must say how it is exchanged ("exchange")'
    rule = r.all_pass
    if (rule.redeal_by is None) == (rule.contract is None):
        yield ("all_pass",), 'say either "redeal_by" (new cards when all pass) or "contract" (a game played), not both'
    if r.auction.procedure == "none":
        if r.designations or r.sol_bids:
            yield ("auction", "procedure"), "with no auction nobody can bid: remove the designations and sol bids"
        if rule.contract is None:
            yield ("all_pass", "contract"), "with no auction, all_pass.contract is the game played: give it"
    elif not r.designations and not r.sol_bids:
        yield ("auction", "procedure"), 'there is nothing to bid: give bids, or "procedure: none"'


def _named_bids(r: Ruleset) -> Iterator[Finding]:
    fixed = r.table.partnerships == "fixed"
    places: list[tuple[tuple[str | int, ...], SolBid]] = [(("sol_bids", i), s) for i, s in enumerate(r.sol_bids)]
    if r.all_pass.contract is not None:
        places.append((("all_pass", "contract"), r.all_pass.contract))
    for here, s in places:
        passed = here[0] == "all_pass"
        if s.side in ("partner", "pairs") and not fixed:
            yield (*here, "side"), f'"{s.side}" needs fixed partnerships (table.partnerships: fixed)'
        if s.side in ("pairs", "each") and not passed:
            yield (*here, "side"), f'"{s.side}" has no declarer, so it cannot be bid: make it all_pass.contract'
        if passed and s.side in ("alone", "partner"):
            yield (*here, "side"), f'a game nobody bid has no declarer: "{s.side}" needs one (use "pairs" or "each")'
        if s.side in ("alone", "partner") and s.max_tricks is None and s.min_tricks is None and s.first_tricks is None:
            yield (*here,), f'"{s.id}": say what the declarer must take (max_tricks, min_tricks or first_tricks)'
        if s.fewest_tricks and s.side not in ("pairs", "each"):
            yield (*here, "fewest_tricks"), 'fewest_tricks is for games without a declarer ("pairs", "each")'
        if s.leader == "declarer" and s.side in ("pairs", "each"):
            yield (*here, "leader"), f'"{s.side}" has no declarer to lead'
        if passed and s.after is not None:
            yield (*here, "after"), "a game nobody bid has no place in the ladder: remove after"
        if s.trump == "dealer_card" and r.deck.jokers:
            yield (*here, "trump"), "the dealer's last card may be a joker, which has no suit: play without jokers"
        if s.trump == "dealer_card" and any("dealer" in sit.seats for sit in r.table.sitting_out):
            yield (*here, "trump"), "the dealer sits out some deals, so there is no dealer's last card to turn"


def _bids_and_designations(r: Ruleset) -> Iterator[Finding]:
    if r.bids is not None and r.bids.min_tricks > r.bids.max_tricks:
        yield ("bids", "min_tricks"), f"the lowest bid {r.bids.min_tricks} is above the highest {r.bids.max_tricks}"
    names = Counter(fold(d.id) for d in r.designations) + Counter(fold(s.id) for s in r.named_bids())
    tiers = [d.tier for d in r.designations if d.tier != UNRANKED]
    if r.designations and (r.designations[0].tier != 0 or tiers.count(0) != 1):
        yield (
            ("designations", 0, "tier"),
            "the first designation is the plain one (almindelige): it alone has tier 0",
        )
    for i, d in enumerate(r.designations):
        here = ("designations", i)
        if names[fold(d.id)] > 1:
            yield (*here, "id"), f'the id "{d.id}" is used by more than one bid'
        if d.same_rank_as is not None:
            peer = next((x for x in r.designations if x.id == d.same_rank_as and x is not d), None)
            if d.tier == UNRANKED or peer is None:
                known = ", ".join(x.id for x in r.designations if x.same_rank_as is None)
                yield (*here, "same_rank_as"), f'"{d.same_rank_as}" is not a designation of this ruleset: {known}'
            elif peer.tier != d.tier:
                yield (
                    (*here, "tier"),
                    f'tier {d.tier} and same_rank_as "{peer.id}" (tier {peer.tier}) disagree: give one of them',
                )
        elif i and d.tier < max((x.tier for x in r.designations[:i] if x.same_rank_as is None), default=0):
            yield (*here, "tier"), "designations are listed lowest first: this tier is below the one before"
        trump = d.trump
        if trump.by == "kitty":
            if trump.choices is not None:
                yield (*here, "trump", "choices"), "the kitty decides trump here: choices are not used"
            if r.deck.kitty == 0:
                yield (*here, "trump", "by"), f'"{d.id}" turns the kitty for trump, but this ruleset has no kitty'
            else:
                yield from _turns(r, d, here)
            if d.call.suits == "not_trump":
                yield (
                    (*here, "call", "suits"),
                    "the partner card is named before the kitty is turned: it cannot exclude trump",
                )
        else:
            if trump.turns is not None and not trump.partner_may_vip:
                yield (*here, "trump", "turns"), "turns are only used when trump is turned from the kitty"
            choices = trump.choices or ()
            if not choices:
                yield (*here, "trump", "choices"), f'"{d.id}" has no trump to choose from'
            elif len(set(choices)) != len(choices):
                yield (*here, "trump", "choices"), "a denomination is listed twice"
            elif trump.by == "fixed" and len(choices) != 1:
                yield (*here, "trump", "choices"), "a fixed trump has exactly one choice"
            elif trump.not_called_suit and len([c for c in choices if c != "none"]) <= 1 and "none" not in choices:
                yield (
                    (*here, "trump", "choices"),
                    "with not_called_suit the choice is empty when the partner card is of the only suit offered",
                )
            if trump.by == "partner" and d.call.suits == "not_trump":
                yield (*here, "call", "suits"), "the partner names trump after the call: the call cannot exclude trump"
        yield from _turning(r, d, here)
        if d.exchange is None:
            continue
        if d.exchange.by in ("partner", "partner_chooses") and not (d.reveal_partner or trump.by == "partner"):
            yield (*here, "exchange", "by"), "the partner can only exchange when he is revealed (reveal_partner)"
        if d.exchange.by == "partner_chooses" and not r.exchange.allowed:
            yield (*here, "exchange", "by"), "the partner cannot choose who exchanges in a ruleset without exchange"
        if d.exchange.required == "compulsory" and not r.exchange.allowed:
            yield (*here, "exchange", "required"), "the exchange is compulsory here, but this ruleset has no exchange"
    present = sorted(set(tiers))
    for tier in range(max(present, default=-1) + 1):
        if tier not in present:
            yield ("designations",), f"the tiers have a hole: no designation has tier {tier}"
            break


def _ladder(r: Ruleset) -> Iterator[Finding]:
    try:
        ladder = build_ladder(r)
    except LadderProblem as exc:
        yield exc.path, exc.message
        return
    seen: dict[str, str] = {}
    for bid in ladder:
        key = fold(bid.text)
        if key in seen:
            yield ("designations",), f'two bids are both written "{bid.text}"'
        seen[key] = bid.text


def _auction(r: Ruleset) -> Iterator[Finding]:
    if r.auction.kan_selv and r.auction.procedure == "none":
        yield ("auction", "kan_selv"), "with no auction there is no bid to take over"
    if r.fordaekt.allowed and not r.designations:
        yield (
            ("fordaekt", "allowed"),
            "a card is laid fordækt in the partner card's suit: this game has no partner card",
        )
    rule = r.auction.gaa_med
    if rule.vip_bids and not any(d.trump.by == "kitty" for d in r.designations):
        why = " (it has no kitty)" if r.deck.kitty == 0 else ""
        yield (
            ("auction", "gaa_med", "vip_bids"),
            f"gå med on vip bids needs a vip designation, and this ruleset has none{why}",
        )
    if rule.sol_bids and not any(s.side == "alone" for s in r.sol_bids):
        yield (
            ("auction", "gaa_med", "sol_bids"),
            "gå med on sol bids needs sol bids played alone, and this ruleset has none",
        )


def _partner_card(r: Ruleset) -> Iterator[Finding]:
    ranks = r.partner_card.ranks
    if not ranks:
        yield ("partner_card", "ranks"), "name at least one rank for the partner card"
    if len(set(ranks)) != len(ranks):
        yield ("partner_card", "ranks"), "a rank is listed twice"


def _turns(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """One turning rule per kitty card, the last one must_accept."""
    turns = d.trump.turns
    if turns is None or len(turns) != r.deck.kitty:
        given = 0 if turns is None else len(turns)
        yield (*here, "trump", "turns"), f"give one turning rule per kitty card ({r.deck.kitty}), not {given}"
    elif turns[-1] != "must_accept":
        yield (
            (*here, "trump", "turns", len(turns) - 1),
            "the last kitty card must be must_accept, or a vip could end without trump",
        )


def _turning(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """The house rules on turning the kitty: the partner's vip in halve, a turned joker's previous card."""
    trump = d.trump
    if trump.partner_may_vip:
        if trump.by != "partner":
            yield (*here, "trump", "partner_may_vip"), 'only a partner who names trump (by: "partner") can vip instead'
        elif r.deck.kitty == 0:
            yield (*here, "trump", "partner_may_vip"), "the partner cannot vip: this ruleset has no kitty"
        else:
            yield from _turns(r, d, here)
    if trump.joker_takes_previous:
        if not (trump.by == "kitty" or trump.partner_may_vip):
            yield (*here, "trump", "joker_takes_previous"), "only a designation that turns the kitty turns a joker"
        elif r.deck.jokers == 0:
            yield (*here, "trump", "joker_takes_previous"), "this ruleset plays without jokers"


def _exchange(r: Ruleset) -> Iterator[Finding]:
    rule = r.exchange
    if rule.allowed and r.deck.kitty == 0:
        yield ("exchange", "allowed"), "exchanging needs a kitty, and this ruleset has none"
    if rule.sol.allowed and not rule.allowed:
        yield ("exchange", "sol", "allowed"), "sol declarers cannot exchange in a ruleset without exchange"
    if rule.required == "compulsory" and not rule.allowed:
        yield ("exchange", "required"), "the exchange cannot be compulsory when there is none"


def _doubling(r: Ruleset) -> Iterator[Finding]:
    rule = r.doubling
    if rule.allowed and r.auction.procedure == "none":
        yield ("doubling", "allowed"), "with no auction there is no declarer's contract to double"
    if rule.redouble and not rule.allowed:
        yield ("doubling", "redouble"), "redoubling needs doubling"
    if rule.factor <= 1:
        yield ("doubling", "factor"), f"a doubling must raise the stake: {rule.factor} is not above 1"


def _jokers(r: Ruleset) -> Iterator[Finding]:
    if r.deck.jokers and r.jokers is None:
        yield ("jokers",), f"the deck has {r.deck.jokers} jokers: say how they are played"
    if not r.deck.jokers and r.jokers is not None:
        yield ("jokers",), "joker rules on a ruleset that plays without jokers (deck.jokers is 0)"


def _card_order(r: Ruleset) -> Iterator[Finding]:
    for key in ("trump_games", "sol_games"):
        order = getattr(r.card_order, key)
        if sorted(order) != sorted(RANKS):
            missing = [rank for rank in RANKS if rank not in order]
            twice = sorted({rank for rank in order if order.count(rank) > 1})
            detail = "; ".join(
                part
                for part in (
                    "missing " + " ".join(missing) if missing else "",
                    "twice " + " ".join(twice) if twice else "",
                )
                if part
            )
            yield ("card_order", key), f"list each of the 13 ranks once ({detail})"


def _jernhaand(r: Ruleset) -> Iterator[Finding]:
    ranks = r.jernhaand.court_ranks
    if len(set(ranks)) != len(ranks):
        yield ("jernhaand", "court_ranks"), "a rank is listed twice"


def _tables(r: Ruleset) -> Iterator[Finding]:
    """A table's keys are bids the ruleset has or levels it can be bid at: "vipp" or 14 is a typo, and a
    typo that is accepted would silently never be looked up."""
    bids = {d.id for d in r.designations} | {s.id for s in r.named_bids()}
    levels = {str(n) for n in r.levels}
    for name, table in r.scoring.tables.items():
        known = levels if table.key == "level" else bids
        for key in table.values:
            if key not in known:
                what = f"a level from {r.levels[0]} to {r.levels[-1]}" if r.levels else "a level (there are none)"
                if table.key == "bid":
                    close = difflib.get_close_matches(key, sorted(known), n=1)
                    what = "one of the ruleset's bids: " + ", ".join(sorted(known))
                    what += f' (did you mean "{close[0]}"?)' if close else ""
                yield ("scoring", "tables", name, "values", key), f'"{key}" is not {what}'


def _scoring(r: Ruleset) -> Iterator[Finding]:
    try:
        scorer = Scorer(r)
        problems = zero_sum_problems(scorer)
    except ScoringProblem as exc:
        yield _where_added(r, exc)
        return
    for problem in problems:
        yield problem.path, problem.said or problem.message


def _where_added(r: Ruleset, problem: ScoringProblem) -> Finding:
    """A table without a value for a bid points at the bid, where a club that added it will look (its own
    file), rather than at the table it inherited."""
    key, path, message = problem.missing, problem.path, problem.said or problem.message
    ids = {"designations": [d.id for d in r.designations], "sol_bids": [s.id for s in r.sol_bids]}
    for kind, names in ids.items():
        if key in names:
            return (kind, names.index(key), "id"), f'{message}: add "{key}" to scoring.tables.{path[2]}.values'
    return path, message
