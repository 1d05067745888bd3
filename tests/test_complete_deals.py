"""Property tests over every shipped ruleset and house rule it accepts: thousands of random complete deals
end, conserve the deck, offer exactly the cards the rules allow, give every trick to a seat the rules allow,
score to zero as the scoring rules say, and replay from their record to the same result."""

from __future__ import annotations

import random

import pytest

from regelmotor.cards import RANK_LETTERS, SUIT_LETTERS, Card, format_card, suit_of
from regelmotor.engine.game import Game, Trick
from regelmotor.records import Record, game_record, replay

from .conftest import CONFIGS, offered, rules_of, scored_as_the_rules_say

DEALS = 48
"""Complete deals per configuration (about sixty configurations)."""


def allowed_winner(game: Game, trick: Trick) -> int:
    """The seat that must win ``trick``, worked out from the ruleset's words, not the engine's code."""
    ruleset = game.ruleset
    named = None if game.bid is None or game.bid.sol is None else ruleset.sol_bid(game.bid.sol)
    # a sol bid plays in the sol order; a bid of dansk whist says which (terningekast.dk: "Es er højest")
    sol = named is not None and named.card_order == "sol_games"
    order = ruleset.card_order.sol_games if sol else ruleset.card_order.trump_games
    trump = None if game.trump in (None, "none") else SUIT_LETTERS.index(game.trump)

    def suit(card: Card) -> int:
        return suit_of(game.called) if card == game.fordaekt and game.called is not None else suit_of(card)

    def height(card: Card) -> int:  # higher wins; the fordækt card is below the two
        return -1 if card == game.fordaekt else len(order) - order.index(RANK_LETTERS[card % 13])  # type: ignore[arg-type]

    led_joker = suit(trick.cards[0]) == 4
    trumped = [i for i, c in enumerate(trick.cards) if trump is not None and suit(c) == trump]
    joker_beaten = ruleset.jokers is not None and ruleset.jokers.led_joker == "loses_to_trump"
    if trumped and (not led_joker or joker_beaten):
        best = max(trumped, key=lambda i: height(trick.cards[i]))
    elif led_joker:
        best = 0  # 001: "En joker, der bliver spillet ud, er et sikkert stik"
    else:
        led = suit(trick.cards[0])
        best = max((i for i, c in enumerate(trick.cards) if suit(c) == led), key=lambda i: height(trick.cards[i]))
    return trick.seats[best]


def allowed_cards(game: Game) -> set[str]:
    """The cards the seat to play may play, worked out from the rules' words, not the engine's code (001)."""
    ruleset, seat = game.ruleset, game.to_act
    assert seat is not None
    hand, trick = game.hands[seat], [c for _, c in game.trick]

    def suit(card: Card) -> int:  # 000 6.1.1: the fordækt card counts in the partner card's suit
        return suit_of(game.called) if card == game.fordaekt and game.called is not None else suit_of(card)

    jokers = ruleset.jokers
    rule = ruleset.called_card
    sol = game.bid is not None and game.bid.is_sol
    # 001: the called card "skal spilles første gang, der spilles ud i farven", also by a selvmakker where
    # the ruleset says so; it binds only its holder, and only until its suit has been led.
    selvmakker_free = seat in game.declarers[:1] and not rule.applies_to_selvmakker
    called = game.called if game.called in hand and not sol and not selvmakker_free else None
    binding = called is not None and not game.called_suit_led and not game.called_played
    if rule.free_first_trick and not game.tricks:  # 003 36: "I første runde må spilles alt."
        binding = False
    if not trick:
        cards = list(hand)
        if not game.tricks and not (jokers is not None and jokers.lead_first_trick):
            cards = [c for c in cards if suit(c) != 4] or cards  # 001: no joker led to the first trick
        if binding and rule.holder_leads_it and called is not None:
            cards = [c for c in cards if c == called or suit(c) != suit_of(called)]
    elif suit(trick[0]) == 4:
        cards = list(hand)  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
    elif binding and rule.must_fall_first_time_led and called is not None and suit_of(called) == suit(trick[0]):
        cards = [called]
    else:
        follow = [c for c in hand if suit(c) == suit(trick[0])]  # follow suit if you can (001; 003 38-39)
        any_time = [c for c in hand if suit(c) == 4] if jokers is not None and jokers.play_any_time else []
        cards = follow + any_time if follow else list(hand)
    return {format_card(c) for c in cards}


@pytest.mark.parametrize(("name", "house"), CONFIGS, ids=[f"{n}+{h}" if h else n for n, h in CONFIGS])
def test_random_complete_deals(name: str, house: str | None) -> None:
    houses = (house,) if house else ()
    rules = rules_of(name, *houses)
    rng = random.Random(f"complete {name} {house}")
    deck = list(range(52 + rules.ruleset.deck.jokers))
    finished = 0
    for number in range(DEALS):
        game = Game.from_seed(rules, rng.randrange(2**32), dealer=number % 4)
        for _ in range(300):
            if game.step is None:
                break
            legal = offered(game)
            assert list(game.legal) == game.legal_actions()  # the uncopied sequence holds the same actions
            if game.phase == "play":
                assert set(legal) == allowed_cards(game), f"{game.hands[game.step[1]]} to {game.trick}"
            claim = "keep" in legal and game.phase == "auction"  # omblanding, jernhånd: kept nine times in ten
            if claim and rng.random() < 0.9:
                game.apply("keep")
            else:
                game.apply("pass" if "pass" in legal and rng.random() < 0.5 else rng.choice(legal))
        else:
            pytest.fail("a deal did not end within 300 actions")
        assert game.phase in ("finished", "redeal")
        assert sorted(game.cards_in_play()) == deck
        for i, trick in enumerate(game.tricks):
            assert trick.winner == allowed_winner(game, trick), f"trick {i}: {trick}"
            nxt = game.tricks[i + 1].leader if i + 1 < len(game.tricks) else None
            assert nxt in (None, trick.winner)  # the winner leads the next trick (001; 000 6.4.3)
        if game.phase == "finished":
            finished += 1
            assert game.scores is not None and scored_as_the_rules_say(name, game.scores)
            assert len(game.tricks) == 13 or (game.bid is not None and game.bid.is_sol)
            if game.bid is not None and game.bid.sol is not None:
                named = rules.ruleset.sol_bid(game.bid.sol)
                if named.first_tricks is not None:  # 002 grandi: "skal tage de 7 første stik"; ends at the first lost
                    won = [t.winner in game.declarers for t in game.tricks]
                    assert (won == [True] * len(won) and len(won) == named.first_tricks) or won[-1] is False
                    assert all(won[:-1])
        if number % 8 == 0:
            again = replay(Record.model_validate(game_record(game, name, houses))).game
            assert again.scores == game.scores and again.tricks == game.tricks
    assert finished > DEALS // 2
