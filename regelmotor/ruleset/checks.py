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
from regelmotor.errors import RegelmotorError
from regelmotor.model.ruleset import UNRANKED, Designation, Rank, Ruleset, SolBid
from regelmotor.rules.dealing import pattern_problem
from regelmotor.rules.designation_kinds import kind_of, turns_kitty
from regelmotor.rules.scoring import ScoringProblem, scorer_for


def _said(phrase: str, **values: object) -> RegelmotorError:
    """A finding said in the reader's language (the phrase table's ``err_<phrase>``)."""
    return RegelmotorError.said(phrase, **values)


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
    scorer = scorer_for(r)
    trump = r.scoring.trump
    if trump is not None:
        for d in r.designations:
            found: RegelmotorError | None = None
            for level in r.levels:
                made = scorer.score_trump(d.id, level, level, alone=False).declarer
                failed = scorer.score_trump(d.id, level, level - 1, alone=False).declarer
                if made <= 0:
                    found = _said("check_made_pays", bid=f"{level} {d.id}", level=level, made=made)
                elif made <= failed:
                    found = _said("check_failed_pays_less", bid=f"{level} {d.id}", made=made, failed=failed)
                if found:
                    break
            if found:
                yield ("scoring", "trump", "formula" if trump.formula is not None else "made"), found
                break
    for i, bid in enumerate(r.sol_bids):
        if bid.side not in ("alone", "partner"):
            continue
        if bid.max_tricks is not None and bid.max_tricks >= 13:
            yield ("sol_bids", i, "max_tricks"), _said("check_asks_nothing_the_declarer_may", bid_id=bid.id)
            continue
        if bid.min_tricks is not None and bid.min_tricks <= 0:
            yield ("sol_bids", i, "min_tricks"), _said("check_asks_nothing_the_declarer_may_2", bid_id=bid.id)
            continue
        if bid.max_tricks is None:
            continue
        made = scorer.score_sol(bid.id, bid.max_tricks).declarer
        failed = scorer.score_sol(bid.id, bid.max_tricks + 1).declarer
        where = ("scoring", "sol", "formula" if r.scoring.sol.formula is not None else "made")
        if made <= 0:
            yield where, _said("check_made_gives_the_declarer_a", bid_id=bid.id, made=made)
            break
        if made <= failed:
            yield where, _said("check_made_pays_the_declarer_failed", bid_id=bid.id, made=made, failed=failed)
            break
    if r.money.evening_fee < 0:
        yield (
            ("money", "evening_fee"),
            _said("check_an_evening_fee_is_paid", r_money_evening_fee=r.money.evening_fee),
        )


def _table(r: Ruleset) -> Iterator[Finding]:
    players = r.table.players
    if not players:
        yield ("table", "players"), _said("check_no_number_of_players_is")
    for i, count in enumerate(players):
        if not 4 <= count <= 6:
            yield ("table", "players", i), _said("check_players_cannot_play_es_makker", count=count)
    if len(set(players)) != len(players):
        yield ("table", "players"), _said("check_a_number_of_players_is")
    rules = {s.players: (i, s) for i, s in enumerate(r.table.sitting_out)}
    for i, sit in enumerate(r.table.sitting_out):
        if sit.players not in players:
            yield (
                ("table", "sitting_out", i, "players"),
                _said("check_players_is_not_an_allowed", sit_players=sit.players),
            )
        if len(sit.seats) != sit.players - 4:
            yield (
                ("table", "sitting_out", i, "seats"),
                _said(
                    "check_at_players_must_sit_out",
                    sit_players=sit.players,
                    sit_players_4=sit.players - 4,
                    len_sit_seats=len(sit.seats),
                ),
            )
        if len(set(sit.seats)) != len(sit.seats):
            yield ("table", "sitting_out", i, "seats"), _said("check_the_same_seat_is_named")
    for count in players:
        if count > 4 and count not in rules:
            yield ("table", "sitting_out"), _said("check_the_table_allows_players_but", count=count)


def _deck_and_dealing(r: Ruleset) -> Iterator[Finding]:
    cards = 52 + r.deck.jokers
    if cards - r.deck.kitty != 52:
        yield (
            ("deck", "kitty"),
            _said("check_cards_dealt_to_each_of", cards=cards, cards_52=cards - 52, kitty=r.deck.kitty),
        )
    for i, size in enumerate(r.dealing.packet_sizes):
        if not 1 <= size <= 13:
            yield ("dealing", "packet_sizes", i), _said("check_a_packet_of_cards_is", size=size)
    problem = pattern_problem(r, r.dealing.pattern)
    if problem is not None:
        yield ("dealing", "pattern"), problem


def _game_shape(r: Ruleset) -> Iterator[Finding]:
    """What a game without trick bids (dansk and engelsk whist) must and must not say, and what a game
    with them must say rather than take silently from the defaults."""
    given = r.model_fields_set
    if r.designations:
        for key in ("bids", "partner_card", "called_card"):
            if key not in given:
                yield (key,), _said("check_a_ruleset_with_trick_bids", key=key)
        if r.table.partnerships == "fixed":
            yield (
                ("table", "partnerships"),
                _said("check_trick_bids_name_a_partner"),
            )
    elif r.bids is not None:
        yield ("bids",), _said("check_trick_bids_need_designations_at")
    if r.deck.kitty and "exchange" not in given:
        yield ("exchange",), _said("check_a_ruleset_with_a_kitty", kitty=r.deck.kitty)
    rule = r.all_pass
    if (rule.redeal_by is None) == (rule.contract is None):
        yield ("all_pass",), _said("check_say_either_redeal_by_new")
    if r.auction.procedure == "none":
        if r.designations or r.sol_bids:
            yield ("auction", "procedure"), _said("check_with_no_auction_nobody_can")
        if rule.contract is None:
            yield ("all_pass", "contract"), _said("check_with_no_auction_all_pass")
    elif not r.designations and not r.sol_bids:
        yield ("auction", "procedure"), _said("check_there_is_nothing_to_bid")


def _named_bids(r: Ruleset) -> Iterator[Finding]:
    fixed = r.table.partnerships == "fixed"
    places: list[tuple[tuple[str | int, ...], SolBid]] = [(("sol_bids", i), s) for i, s in enumerate(r.sol_bids)]
    if r.all_pass.contract is not None:
        places.append((("all_pass", "contract"), r.all_pass.contract))
    for here, s in places:
        passed = here[0] == "all_pass"
        if s.side in ("partner", "pairs") and not fixed:
            yield (*here, "side"), _said("check_needs_fixed_partnerships_table_partnerships", s_side=s.side)
        if s.side in ("pairs", "each") and not passed:
            yield (*here, "side"), _said("check_has_no_declarer_so_it", s_side=s.side)
        if passed and s.side in ("alone", "partner"):
            yield (*here, "side"), _said("check_a_game_nobody_bid_has", s_side=s.side)
        if s.side in ("alone", "partner") and s.max_tricks is None and s.min_tricks is None and s.first_tricks is None:
            yield (*here,), _said("check_say_what_the_declarer_must", s_id=s.id)
        if s.settle == "trick_difference" and s.side != "each":
            yield (*here, "settle"), _said("check_trick_difference_is_for_each", s_side=s.side)
        if s.fewest_tricks and s.side not in ("pairs", "each"):
            yield (*here, "fewest_tricks"), _said("check_fewest_tricks_is_for_games")
        if s.leader == "declarer" and s.side in ("pairs", "each"):
            yield (*here, "leader"), _said("check_has_no_declarer_to_lead", s_side=s.side)
        if passed and s.after is not None:
            yield (*here, "after"), _said("check_a_game_nobody_bid_has_2")
        if s.trump == "dealer_card" and r.deck.jokers:
            yield (*here, "trump"), _said("check_the_dealer_s_last_card")
        if s.trump == "dealer_card" and any("dealer" in sit.seats for sit in r.table.sitting_out):
            yield (*here, "trump"), _said("check_the_dealer_sits_out_some")


def _bids_and_designations(r: Ruleset) -> Iterator[Finding]:
    if r.bids is not None and r.bids.min_tricks > r.bids.max_tricks:
        yield (
            ("bids", "min_tricks"),
            _said(
                "check_the_lowest_bid_is_above",
                r_bids_min_tricks=r.bids.min_tricks,
                r_bids_max_tricks=r.bids.max_tricks,
            ),
        )
    names = Counter(fold(d.id) for d in r.designations) + Counter(fold(s.id) for s in r.named_bids())
    tiers = [d.tier for d in r.designations if d.tier != UNRANKED]
    if r.designations and (r.designations[0].tier != 0 or tiers.count(0) != 1):
        yield (
            ("designations", 0, "tier"),
            _said("check_the_first_designation_is_the"),
        )
    for i, d in enumerate(r.designations):
        here = ("designations", i)
        if names[fold(d.id)] > 1:
            yield (*here, "id"), _said("check_the_id_is_used_by", d_id=d.id)
        if d.same_rank_as is not None:
            peer = next((x for x in r.designations if x.id == d.same_rank_as and x is not d), None)
            if d.tier == UNRANKED or peer is None:
                known = ", ".join(x.id for x in r.designations if x.same_rank_as is None)
                yield (
                    (*here, "same_rank_as"),
                    _said("check_is_not_a_designation_of", d_same_rank_as=d.same_rank_as, known=known),
                )
            elif peer.tier != d.tier:
                yield (
                    (*here, "tier"),
                    _said("check_tier_and_same_rank_as", d_tier=d.tier, peer_id=peer.id, peer_tier=peer.tier),
                )
        elif i and d.tier < max((x.tier for x in r.designations[:i] if x.same_rank_as is None), default=0):
            yield (*here, "tier"), _said("check_designations_are_listed_lowest_first")
        trump, kind = d.trump, kind_of(d)
        if kind.turns_kitty:
            if trump.choices is not None:
                yield (*here, "trump", "choices"), _said("check_the_kitty_decides_trump_here")
            if r.deck.kitty == 0:
                yield (*here, "trump", "by"), _said("check_turns_the_kitty_for_trump", d_id=d.id)
            else:
                yield from _turns(r, d, here)
            if d.call.suits == "not_trump":
                yield (
                    (*here, "call", "suits"),
                    _said("check_the_partner_card_is_named"),
                )
        else:
            if trump.turns is not None and not trump.partner_may_vip:
                yield (*here, "trump", "turns"), _said("check_turns_are_only_used_when")
            choices = trump.choices or ()
            if not choices:
                yield (*here, "trump", "choices"), _said("check_has_no_trump_to_choose", d_id=d.id)
            elif len(set(choices)) != len(choices):
                yield (*here, "trump", "choices"), _said("check_a_denomination_is_listed_twice")
            elif kind.trump_fixed and len(choices) != 1:
                yield (*here, "trump", "choices"), _said("check_a_fixed_trump_has_exactly")
            elif trump.not_called_suit and len([c for c in choices if c != "none"]) <= 1 and "none" not in choices:
                yield (
                    (*here, "trump", "choices"),
                    _said("check_with_not_called_suit_the"),
                )
            if kind.partner_names_trump and d.call.suits == "not_trump":
                yield (*here, "call", "suits"), _said("check_the_partner_names_trump_after")
        yield from _turning(r, d, here)
        if d.exchange is None:
            continue
        if d.exchange.by in ("partner", "partner_chooses") and not (d.reveal_partner or kind.partner_names_trump):
            yield (*here, "exchange", "by"), _said("check_the_partner_can_only_exchange")
        if d.exchange.by == "partner_chooses" and not r.exchange.allowed:
            yield (*here, "exchange", "by"), _said("check_the_partner_cannot_choose_who")
        if d.exchange.required == "compulsory" and not r.exchange.allowed:
            yield (*here, "exchange", "required"), _said("check_the_exchange_is_compulsory_here")
    present = sorted(set(tiers))
    for tier in range(max(present, default=-1) + 1):
        if tier not in present:
            yield ("designations",), _said("check_the_tiers_have_a_hole", tier=tier)
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
            yield ("designations",), _said("check_two_bids_are_both_written", bid_text=bid.text)
        seen[key] = bid.text


def _auction(r: Ruleset) -> Iterator[Finding]:
    if r.auction.kan_selv and r.auction.procedure == "none":
        yield ("auction", "kan_selv"), _said("check_with_no_auction_there_is")
    if r.fordaekt.most_held and not r.fordaekt.allowed:
        yield ("fordaekt", "most_held"), _said("check_most_held_without_fordaekt")
    if r.called_card.must_fall_every_time_led and not r.called_card.must_fall_first_time_led:
        yield ("called_card", "must_fall_every_time_led"), _said("check_every_time_without_first_time")
    if r.auction.kan_selv_for != "forhaand" and not r.auction.kan_selv:
        yield ("auction", "kan_selv_for"), _said("check_kan_selv_for_without_kan_selv")
    if r.fordaekt.allowed and not r.designations:
        yield (
            ("fordaekt", "allowed"),
            _said("check_a_card_is_laid_ford"),
        )
    rule = r.auction.gaa_med
    if rule.vip_bids and not any(kind_of(d).turns_kitty for d in r.designations):
        phrase = "check_gaa_med_vip_no_kitty" if r.deck.kitty == 0 else "check_gaa_med_vip"
        yield (
            ("auction", "gaa_med", "vip_bids"),
            _said(phrase),
        )
    if rule.sol_bids and not any(s.side == "alone" for s in r.sol_bids):
        yield (
            ("auction", "gaa_med", "sol_bids"),
            _said("check_g_med_on_sol_bids"),
        )


def _partner_card(r: Ruleset) -> Iterator[Finding]:
    ranks = r.partner_card.ranks
    if not ranks:
        yield ("partner_card", "ranks"), _said("check_name_at_least_one_rank")
    if len(set(ranks)) != len(ranks):
        yield ("partner_card", "ranks"), _said("check_a_rank_is_listed_twice")


def _turns(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """One turning rule per kitty card, the last one must_accept."""
    turns = d.trump.turns
    if turns is None or len(turns) != r.deck.kitty:
        given = 0 if turns is None else len(turns)
        yield (*here, "trump", "turns"), _said("check_give_one_turning_rule_per", kitty=r.deck.kitty, given=given)
    elif turns[-1] != "must_accept":
        yield (
            (*here, "trump", "turns", len(turns) - 1),
            _said("check_the_last_kitty_card_must"),
        )


def _turning(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """The house rules on turning the kitty: the partner's vip in halve, a turned joker's previous card."""
    trump = d.trump
    if trump.partner_may_vip:
        if not kind_of(d).partner_names_trump:
            yield (*here, "trump", "partner_may_vip"), _said("check_only_a_partner_who_names")
        elif r.deck.kitty == 0:
            yield (*here, "trump", "partner_may_vip"), _said("check_the_partner_cannot_vip_this")
        else:
            yield from _turns(r, d, here)
    if trump.joker_takes_previous:
        if not turns_kitty(d):
            yield (*here, "trump", "joker_takes_previous"), _said("check_only_a_designation_that_turns")
        elif r.deck.jokers == 0:
            yield (*here, "trump", "joker_takes_previous"), _said("check_this_ruleset_plays_without_jokers")


def _exchange(r: Ruleset) -> Iterator[Finding]:
    rule = r.exchange
    if rule.allowed and r.deck.kitty == 0:
        yield ("exchange", "allowed"), _said("check_exchanging_needs_a_kitty_and")
    if rule.sol.allowed and not rule.allowed:
        yield ("exchange", "sol", "allowed"), _said("check_sol_declarers_cannot_exchange_in")
    if rule.required == "compulsory" and not rule.allowed:
        yield ("exchange", "required"), _said("check_the_exchange_cannot_be_compulsory")


def _doubling(r: Ruleset) -> Iterator[Finding]:
    rule = r.doubling
    if rule.allowed and r.auction.procedure == "none":
        yield ("doubling", "allowed"), _said("check_with_no_auction_there_is_2")
    if rule.redouble and not rule.allowed:
        yield ("doubling", "redouble"), _said("check_redoubling_needs_doubling")
    if rule.during_tricks and not rule.allowed:
        yield ("doubling", "during_tricks"), _said("check_doubling_in_play_needs_doubling")
    if rule.factor <= 1:
        yield ("doubling", "factor"), _said("check_a_doubling_must_raise_the", rule_factor=rule.factor)


def _jokers(r: Ruleset) -> Iterator[Finding]:
    if r.deck.jokers and r.jokers is None:
        yield ("jokers",), _said("check_the_deck_has_jokers_say", r_deck_jokers=r.deck.jokers)
    if not r.deck.jokers and r.jokers is not None:
        yield ("jokers",), _said("check_joker_rules_on_a_ruleset")


def _card_order(r: Ruleset) -> Iterator[Finding]:
    for key in ("trump_games", "sol_games"):
        order = getattr(r.card_order, key)
        if sorted(order) != sorted(RANKS):
            missing = [rank for rank in RANKS if rank not in order]
            twice = sorted({rank for rank in order if order.count(rank) > 1})
            shown = {"missing": " ".join(missing), "twice": " ".join(twice)}
            phrase = "check_ranks_" + "_".join(k for k, v in shown.items() if v)
            yield ("card_order", key), _said(phrase, **{k: v for k, v in shown.items() if v})


def _jernhaand(r: Ruleset) -> Iterator[Finding]:
    ranks = r.jernhaand.court_ranks
    if len(set(ranks)) != len(ranks):
        yield ("jernhaand", "court_ranks"), _said("check_a_rank_is_listed_twice")


def _tables(r: Ruleset) -> Iterator[Finding]:
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
                        yield here, _said("check_table_bid_close", key=key, bids=bids_known, close=close[0])
                    else:
                        yield here, _said("check_table_bid", key=key, bids=bids_known)
                elif r.levels:
                    yield here, _said("check_table_level", key=key, low=r.levels[0], high=r.levels[-1])
                else:
                    yield here, _said("check_table_no_level", key=key)


def _scoring(r: Ruleset) -> Iterator[Finding]:
    pairs_only = not r.designations and all(bid.side == "pairs" for bid in r.named_bids())
    if not r.scoring.losers_pay and not pairs_only:  # only the winners score: in a game of pair against pair
        yield ("scoring", "losers_pay"), _said("check_losers_pay_pairs")
        return
    try:
        problems = scorer_for(r).zero_sum()  # kept on the scorer that every ruleset scoring alike shares
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
            return (kind, names.index(key), "id"), _said("check_add_to_table", error=message, key=key, table=path[2])
    return path, message
