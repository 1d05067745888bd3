"""The bidding's playouts taken to the first lead without a ``Game`` (``bots/first_lead.py``): the same
rule functions as the phases, two callers, and so the same deal at its first lead as a ``Game`` stepped
through the same choices, in every ruleset and house rule (issue 45: "A differential test plays every
ruleset and house rule both ways and gets the same rows")."""

from __future__ import annotations

import random

import pytest

from regelmotor.bots.expert import ExpertBot
from regelmotor.bots.first_lead import Known, first_lead, takes_first_lead_path
from regelmotor.engine.actions import KEEP_ACTION, PASS_ACTION, Action, Verb
from regelmotor.engine.game import PLAY, Game
from regelmotor.hooks import TrumpChoices, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.play_row import row_from_game
from regelmotor.ruleset.compile import compile_rules

from .conftest import CONFIGS, rules_of


def _lowest_bids(game: Game) -> list[Action]:
    """The lowest legal bid of each kind of contract (as the expert prices a kind: at its lowest level)."""
    lowest: dict[object, Action] = {}
    for action in game.legal:
        if action.verb is Verb.BID and action.bid is not None:
            kind = action.bid.designation or ("sol", action.bid.sol)
            if kind not in lowest or action.bid.rank < lowest[kind].bid.rank:  # type: ignore[union-attr]
                lowest[kind] = action
    return list(lowest.values())


@pytest.mark.parametrize(("name", "house"), CONFIGS)
def test_a_bid_taken_to_the_first_lead_directly_is_the_games_own_first_lead(name: str, house: str | None) -> None:
    rules = rules_of(name, *((house,) if house else ()))
    bot = ExpertBot(rules, random.Random(1))
    rng = random.Random(f"first lead {name} {house}")
    direct = stepped_only = 0
    known = Known()
    for number in range(16):
        game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
        while game.step is not None and game.phase == "auction":
            if game.step[0] == "claim":
                game.apply(KEEP_ACTION)
                continue
            for bid in _lowest_bids(game):
                settled = first_lead(rules, bot.kernel, game, bid, bot, known)
                stepped = game.clone()
                stepped.apply(bid)
                while stepped.step is not None and stepped.phase != PLAY:
                    step, who = stepped.step
                    stepped.apply(bot._quick(stepped, step, who))
                if settled is None:
                    stepped_only += 1
                    continue
                direct += 1
                assert stepped.phase == PLAY
                assert (settled.bid, settled.declarers, settled.partner) == (
                    stepped.bid,
                    stepped.declarers,
                    stepped.partner,
                ), f"{bid}: the contract differs"
                assert (settled.vip_card, 0) == (stepped.vip_card, stepped.doublings)
                assert settled.row == row_from_game(bot.kernel, stepped).tolist(), f"{bid}: the rows differ"
            calls = [a for a in game.legal if a.verb in (Verb.BID, Verb.PASS, Verb.JOIN, Verb.HOLD)]
            game.apply(PASS_ACTION if PASS_ACTION in calls and rng.random() < 0.5 else rng.choice(calls))
    has_auction = bool(rules.auction.ladder.bids) and rules.ruleset.auction.procedure != "none"
    if has_auction and takes_first_lead_path(rules):  # a fordækt card or a partner's vip steps a Game
        assert direct > stepped_only, (
            f"{name} {house}: {direct} bids went to their first lead directly, {stepped_only} stepped"
        )


def _expert_deal(rules_name: str, seed: int, directly: bool) -> list[tuple[int, Action]]:
    from regelmotor.bots.budget import Budget

    rules = rules_of(rules_name)
    budget = Budget(bid_samples=2, selection=((0.25, 3), (0.25, 2)))
    bots = []
    for seat in range(4):
        bot = ExpertBot(rules, random.Random(seed * 4 + seat), play_samples=4, plan_samples=3, budget=budget)
        bot._first_lead = bot._first_lead and directly
        bots.append(bot)
    game = Game.from_seed(rules, seed, seed % 4)
    while game.step is not None:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal))
    return game.history


@pytest.mark.parametrize("name", ["standard", "whistklubben", "gruppe2"])
def test_the_expert_plays_the_same_deal_whether_its_playouts_step_a_game_or_not(name: str) -> None:
    """The path changes how fast a playout reaches its first lead, never what it finds there: the same
    seeds give the same calls and cards, call for call."""
    for seed in (3, 8):
        assert _expert_deal(name, seed, True) == _expert_deal(name, seed, False)


class NoTrumpOnly:
    """A club's plugin: the declarer may only name no trump."""

    @hookimpl(tryfirst=True)
    def regelmotor_trump_choices(self, ruleset: Ruleset) -> TrumpChoices:
        return lambda designation, called: ("none",)


def test_where_a_plugin_decides_a_declaration_rule_the_playouts_step_a_game() -> None:
    """Issue 45: "A ruleset whose plugin replaces a declaration or exchange hook takes today's Game path"."""
    base = rules_of("standard")
    rules = compile_rules(base.ruleset, [NoTrumpOnly()])
    assert takes_first_lead_path(base) and not takes_first_lead_path(rules)
    bot = ExpertBot(rules, random.Random(1))
    assert not bot._first_lead
    game = Game.from_seed(rules, 5)
    while game.phase == "auction" and game.step is not None and game.step[0] == "claim":
        game.apply(KEEP_ACTION)
    bid = _lowest_bids(game)[0]
    assert bot._play_out_each([("kind", _stepped(game, bid))], ["kind"])["kind"][0].bid == bid.bid


def _stepped(game: Game, bid: Action) -> Game:
    stepped = game.clone()
    stepped.apply(bid)
    return stepped
