"""The bids' checks: the shape of a game with or without trick bids, the named bids, the designations and
the ladder they make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from regelmotor.bids import LadderProblem, build_ladder, fold
from regelmotor.model.ruleset import UNRANKED, Ruleset
from regelmotor.rules.contracts.keys import SolBid
from regelmotor.rules.findings import Finding, said


def game_shape(r: Ruleset) -> Iterator[Finding]:
    """What a game without trick bids (dansk and engelsk whist) must and must not say, and what a game
    with them must say rather than take silently from the defaults."""
    given = r.model_fields_set
    if r.designations:
        for key in ("bids", "partner_card", "called_card"):
            if key not in given:
                yield (key,), said("check_a_ruleset_with_trick_bids", key=key)
        if r.table.partnerships == "fixed":
            yield (
                ("table", "partnerships"),
                said("check_trick_bids_name_a_partner"),
            )
    elif r.bids is not None:
        yield ("bids",), said("check_trick_bids_need_designations_at")
    if r.deck.kitty and "exchange" not in given:
        yield ("exchange",), said("check_a_ruleset_with_a_kitty", kitty=r.deck.kitty)
    if r.auction.procedure == "none":
        if r.designations or r.sol_bids:
            yield ("auction", "procedure"), said("check_with_no_auction_nobody_can")
        if r.all_pass.contract is None:
            yield ("all_pass", "contract"), said("check_with_no_auction_all_pass")
    elif not r.designations and not r.sol_bids:
        yield ("auction", "procedure"), said("check_there_is_nothing_to_bid")


def named_bids(r: Ruleset) -> Iterator[Finding]:
    fixed = r.table.partnerships == "fixed"
    places: list[tuple[tuple[str | int, ...], SolBid]] = [(("sol_bids", i), s) for i, s in enumerate(r.sol_bids)]
    if r.all_pass.contract is not None:
        places.append((("all_pass", "contract"), r.all_pass.contract))
    for here, s in places:
        passed = here[0] == "all_pass"
        if s.side in ("partner", "pairs") and not fixed:
            yield (*here, "side"), said("check_needs_fixed_partnerships_table_partnerships", s_side=s.side)
        if s.side in ("pairs", "each") and not passed:
            yield (*here, "side"), said("check_has_no_declarer_so_it", s_side=s.side)
        if passed and s.side in ("alone", "partner"):
            yield (*here, "side"), said("check_a_game_nobody_bid_has", s_side=s.side)
        if s.side in ("alone", "partner") and s.max_tricks is None and s.min_tricks is None and s.first_tricks is None:
            yield (*here,), said("check_say_what_the_declarer_must", s_id=s.id)
        if s.settle == "trick_difference" and s.side != "each":
            yield (*here, "settle"), said("check_trick_difference_is_for_each", s_side=s.side)
        if s.fewest_tricks and s.side not in ("pairs", "each"):
            yield (*here, "fewest_tricks"), said("check_fewest_tricks_is_for_games")
        if s.leader == "declarer" and s.side in ("pairs", "each"):
            yield (*here, "leader"), said("check_has_no_declarer_to_lead", s_side=s.side)
        if passed and s.after is not None:
            yield (*here, "after"), said("check_a_game_nobody_bid_has_2")
        if s.trump == "dealer_card" and r.deck.jokers:
            yield (*here, "trump"), said("check_the_dealer_s_last_card")
        if s.trump == "dealer_card" and any("dealer" in sit.seats for sit in r.table.sitting_out):
            yield (*here, "trump"), said("check_the_dealer_sits_out_some")


def bids_and_designations(r: Ruleset) -> Iterator[Finding]:
    if r.bids is not None and r.bids.min_tricks > r.bids.max_tricks:
        yield (
            ("bids", "min_tricks"),
            said(
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
            said("check_the_first_designation_is_the"),
        )
    for i, d in enumerate(r.designations):
        here = ("designations", i)
        if names[fold(d.id)] > 1:
            yield (*here, "id"), said("check_the_id_is_used_by", d_id=d.id)
        if d.same_rank_as is not None:
            peer = next((x for x in r.designations if x.id == d.same_rank_as and x is not d), None)
            if d.tier == UNRANKED or peer is None:
                known = ", ".join(x.id for x in r.designations if x.same_rank_as is None)
                yield (
                    (*here, "same_rank_as"),
                    said("check_is_not_a_designation_of", d_same_rank_as=d.same_rank_as, known=known),
                )
            elif peer.tier != d.tier:
                yield (
                    (*here, "tier"),
                    said("check_tier_and_same_rank_as", d_tier=d.tier, peer_id=peer.id, peer_tier=peer.tier),
                )
        elif i and d.tier < max((x.tier for x in r.designations[:i] if x.same_rank_as is None), default=0):
            yield (*here, "tier"), said("check_designations_are_listed_lowest_first")
    present = sorted(set(tiers))
    for tier in range(max(present, default=-1) + 1):
        if tier not in present:
            yield ("designations",), said("check_the_tiers_have_a_hole", tier=tier)
            break


def ladder(r: Ruleset) -> Iterator[Finding]:
    try:
        ladder = build_ladder(r)
    except LadderProblem as exc:
        yield exc.path, exc.message
        return
    seen: dict[str, str] = {}
    for bid in ladder:
        key = fold(bid.text)
        if key in seen:
            yield ("designations",), said("check_two_bids_are_both_written", bid_text=bid.text)
        seen[key] = bid.text
