"""Dealing by pattern: Thorsen's examples reproduce exactly (000 2.4-2.5)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import new_deck
from regelmotor.errors import DealError

from .conftest import RULESETS, rules_of

ORDER = list(range(55))  # the deck's top card is card 0, then 1, 2, ...


def test_thorsen_example_1() -> None:
    """000 2.5 "Eksempel 1: 3 til spiller 1, 3 til spiller 2, 3 til spiller 3, 3 til spiller 4, 1 til katten,
    [twice more], 3 til spiller 1, ... 3 til spiller 4, 1 til spiller 1, 1 til spiller 2, 1 til spiller 3,
    1 til spiller 4"; "Det første kort givet til katten skal være nederst, og det sidste øverst"."""
    deal = rules_of("thorsen").dealing.deal(ORDER, 3, [3, "kat", 3, "kat", 3, "kat", 3, 1])
    # dealer 3: spiller 1 is seat 0 (the dealer's left), spiller 4 is the dealer
    assert deal.hands[0] == (0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41, 51)
    assert deal.hands[3] == (9, 10, 11, 22, 23, 24, 35, 36, 37, 48, 49, 50, 54)
    assert deal.kitty == (38, 25, 12)  # top first: the last kitty card dealt is on top


def test_thorsen_example_2() -> None:
    """000 2.5 "Eksempel 2: 3 til spiller 1, ... 3 til spiller 4, 3 til spiller 1, ... 1 til katten, 3 til
    spiller 1, ... 1 til katten, 2 til spiller 1, ... 2 til spiller 4, 1 til katten, 2 til spiller 1, ...
    2 til spiller 4"."""
    deal = rules_of("thorsen").dealing.deal(ORDER, 0, [3, 3, "kat", 3, "kat", 2, "kat", 2])
    assert deal.hands[1] == (0, 1, 2, 12, 13, 14, 25, 26, 27, 38, 39, 47, 48)
    assert deal.hands[0] == (9, 10, 11, 21, 22, 23, 34, 35, 36, 44, 45, 53, 54)
    assert deal.kitty == (46, 37, 24)


def test_thorsen_deals_example_1_by_default() -> None:
    rules = rules_of("thorsen")
    assert rules.dealing.deal(ORDER, 3, None) == rules.dealing.deal(ORDER, 3, [3, "kat", 3, "kat", 3, "kat", 3, 1])


def test_standard_deals_13_each_and_the_last_3_to_the_kitty() -> None:
    """001: "Hver spiller får 13 kort, og de sidste 3 kort lægges med bagsiden opad midt på bordet"."""
    deal = rules_of("standard").dealing.deal(ORDER, 0, None)
    assert deal.hands[1] == tuple(range(0, 52, 4))
    assert deal.kitty == (54, 53, 52)


def test_whistklubben_never_deals_the_last_card_to_the_kitty() -> None:
    """WK (rules-matrix.md section 1): "one card at a time to the kitty, never the last card of the deal"."""
    rules = rules_of("whistklubben")
    with pytest.raises(DealError, match="the last card of the deal may not go to the kitty"):
        rules.dealing.deal(ORDER, 0, [1] * 13 + ["kat"] * 3)
    assert rules.ruleset.dealing.pattern[-1] != "kat"


def test_gruppe2_deals_52_cards_without_a_kitty() -> None:
    """003 4: "13 kort til hver spiller, idet de 3 jokers ikke indgår i spillet"."""
    deal = rules_of("gruppe2").dealing.deal(list(range(52)), 0, None)
    assert deal.kitty == () and all(len(hand) == 13 for hand in deal.hands)


@pytest.mark.parametrize(
    ("order", "pattern", "message"),
    [
        (ORDER[:54], None, "must hold the 55 cards once each: missing JK3"),
        ([*ORDER[:54], 0], None, "missing JK3; a card appears twice"),
        (ORDER, [4, 4, 4, 1, "kat", "kat", "kat"], "packets of 4 are not allowed"),
        (ORDER, [3, 3, 3, 3, "kat", "kat"], "gives each player 12 cards, not 13"),
        (ORDER, [3, 3, 3, 3, 1], "puts 0 cards in the kitty, not 3"),
    ],
)
def test_a_deck_or_pattern_the_ruleset_does_not_allow_is_refused(
    order: list[int], pattern: list[int | str] | None, message: str
) -> None:
    with pytest.raises(DealError, match=message):
        rules_of("thorsen").dealing.deal(order, 0, pattern)


@pytest.mark.parametrize("name", RULESETS)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3))
def test_every_card_is_dealt_once(name: str, seed: int, dealer: int) -> None:
    rules = rules_of(name)
    deck = new_deck(rules.ruleset.deck.jokers)
    random.Random(seed).shuffle(deck)
    deal = rules.dealing.deal(deck, dealer, None)
    dealt = [c for hand in deal.hands for c in hand] + list(deal.kitty)
    assert sorted(dealt) == sorted(deck)
    assert [len(h) for h in deal.hands] == [13] * 4 and len(deal.kitty) == rules.ruleset.deck.kitty
