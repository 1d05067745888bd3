"""Reading the auction: the hidden hands are dealt as the other seats' calls say."""

from __future__ import annotations

import random

import numpy as np
import pytest

from regelmotor import play_row
from regelmotor.bots import call_reading as R
from regelmotor.bots.expert import ExpertBot
from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.bots.knowledge import CallReading, sample_worlds
from regelmotor.engine.actions import PASS_ACTION, Action, Verb
from regelmotor.engine.game import Game

from .conftest import RULESETS, rules_of


@pytest.mark.parametrize("name", RULESETS)
def test_the_measures_are_the_heuristics_own_counts(name: str) -> None:
    """The sampler reads a hand by the counts the heuristic bids by (its tricks with the longest suit as
    trump, its sol danger), looked up per suit holding: the same numbers on random hands."""
    rules = rules_of(name)
    heuristic = HeuristicBot(rules, random.Random(1))
    measures = R.HandMeasures.of(rules)
    rng = random.Random(name)
    deck = list(range(52 + rules.ruleset.deck.jokers))
    hands = [sorted(rng.sample(deck, 13)) for _ in range(300)]
    tricks, danger = measures.measure(np.array([play_row.mask_of(h) for h in hands], dtype=np.int64))
    assert tricks.tolist() == pytest.approx([heuristic._trump_estimate(h)[0] for h in hands])
    assert danger.tolist() == [heuristic._sol_danger(h) for h in hands]


def test_a_bid_a_pass_and_a_sol_are_read_as_levels() -> None:
    rules = rules_of("standard")
    ladder = rules.auction.ladder
    history = [
        (1, PASS_ACTION),
        (2, Action(Verb.BID, bid=ladder.parse("8"))),
        (3, Action(Verb.BID, bid=ladder.parse("sol"))),
        (0, PASS_ACTION),
        (2, Action(Verb.BID, bid=ladder.parse("9"))),
    ]
    said = R.what_calls_say(history, rules)
    assert said[1] == R.Said(passed_at=7)  # the cheapest trump bid open was 7
    assert said[2] == R.Said(bid_level=9)
    assert said[3].sol
    lowest_over_sol = min(
        (b for b in ladder.bids if b.designation and b.rank > ladder.parse("sol").rank), key=lambda b: b.rank
    )
    assert said[0] == R.Said(passed_at=lowest_over_sol.level)


def test_a_strong_bid_makes_strong_hands_likelier_and_a_pass_weak_ones() -> None:
    rules = rules_of("standard")
    measures = R.HandMeasures.of(rules)
    rng = random.Random(3)
    hands = np.array([play_row.mask_of(rng.sample(range(55), 13)) for _ in range(2000)], dtype=np.int64)
    tricks, _ = measures.measure(hands)
    bid = R.weights([hands], [R.Said(bid_level=9)], measures)
    passed = R.weights([hands], [R.Said(passed_at=7)], measures)
    assert np.average(tricks, weights=bid) > tricks.mean() + 0.5 > np.average(tricks, weights=passed) + 0.5
    assert bid.min() >= R.MEANINGS.floor and passed.min() >= R.MEANINGS.floor  # no hand is ruled out


def _games_with_calls(name: str, deals: int) -> list[tuple[Game, int]]:
    """Decisions after the auction has said something: every seat's turn past the first call of another seat."""
    rules = rules_of(name)
    found = []
    for number in range(deals):
        game = Game.from_seed(rules, 900 + number, number % 4)
        bots = [HeuristicBot(rules, random.Random(number * 4 + s)) for s in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            said = R.what_calls_say(game.view(seat).history, rules)
            if any(not said[s].empty for s in range(4) if s != seat):
                found.append((game.clone(), seat))
            game.apply(bots[seat].choose(game.view(seat), game.legal))
    return found


@pytest.mark.parametrize("name", ["standard", "thorsen"])
def test_the_real_deal_reads_likelier_than_a_random_one_at_every_kind_of_decision(name: str) -> None:
    """The real deal is never ruled out (its weight is at least the floor for every seat read), and the
    calls tell it from a random deal consistent with the same view: on average it weighs more than most."""
    rules = rules_of(name)
    measures = R.HandMeasures.of(rules)
    rng = random.Random(name)
    ranks = []
    for game, seat in _games_with_calls(name, 30)[::3]:
        view = game.view(seat)
        said = R.what_calls_say(view.history, rules)
        seats = [s for s in range(4) if s != seat and not said[s].empty]
        real = [np.array([play_row.mask_of(game.initial_hands[s])], dtype=np.int64) for s in seats]
        w_real = float(R.weights(real, [said[s] for s in seats], measures)[0])
        assert w_real >= R.MEANINGS.floor ** len(seats)
        hidden = [c for s in range(4) if s != seat for c in game.initial_hands[s]] + list(game.initial_kitty)
        others = []
        for _ in range(200):
            rng.shuffle(hidden)
            cut, dealt = 0, {}
            for s in range(4):
                if s != seat:
                    dealt[s], cut = hidden[cut : cut + 13], cut + 13
            others.append([play_row.mask_of(dealt[s]) for s in seats])
        random_deals = [np.array([o[i] for o in others], dtype=np.int64) for i in range(len(seats))]
        w_random = R.weights(random_deals, [said[s] for s in seats], measures)
        ranks.append(float((w_random < w_real).mean()))
    assert len(ranks) > 30
    assert sum(ranks) / len(ranks) > 0.6, sum(ranks) / len(ranks)


def test_the_sampler_deals_a_bidder_a_stronger_hand_than_chance_does() -> None:
    """After a 9 bid, the sampled deals give the bidder more tricks than random deals of the same view."""
    rules = rules_of("standard")
    ladder = rules.auction.ladder
    game = Game.from_seed(rules, 17, 0)
    while game.step is not None and game.step[0] != "call":
        game.apply("keep")
    assert game.step is not None
    first = game.step[1]
    game.apply(Action(Verb.BID, bid=ladder.parse("9")))
    seat = game.step[1]
    view = game.view(seat)
    bot = ExpertBot(rules, random.Random(1))
    reading = CallReading(R.HandMeasures.of(rules), R.MEANINGS, 6)
    measures = R.HandMeasures.of(rules)

    def bidder_tricks(worlds: list[Game]) -> float:
        masks = np.array([play_row.mask_of(w.initial_hands[first]) for w in worlds], dtype=np.int64)
        return float(measures.measure(masks)[0].mean())

    read = sample_worlds(view, rules, random.Random(2), 200, bot._hidden, reading=reading)
    plain = sample_worlds(view, rules, random.Random(2), 200, bot._hidden)
    assert len(read) == len(plain) == 200
    assert bidder_tricks(read) > bidder_tricks(plain) + 0.25
    for world in read:  # every sampled deal is one the history can be replayed on
        assert world.view(seat).history == view.history and world.hands[seat] == game.hands[seat]
