"""Jernhånd (house rule): a hand without aces, court cards and jokers may void the deal (002; WK)."""

from __future__ import annotations

from regelmotor.cards import parse_cards

from .conftest import rules_of

IRON = "2S 3S 4S 5S 6H 7H 8H 9D TD 2C 3C 4C 5C"


def test_a_hand_without_court_cards_aces_or_jokers_may_claim_jernhaand() -> None:
    """002: "En spiller kan påberåbe jernhånd, hvis vedkommende har 13 kort uden billedkort, jokere eller
    esser. Meldingen betyder, at spillet genstartes." """
    (claim,) = rules_of("standard", "jernhaand").dealing.redeal_claims
    assert claim.action == "jernhånd" and claim.redeal_by == "same_dealer"
    assert claim.allowed(parse_cards(IRON))


def test_a_joker_or_a_jack_spoils_jernhaand() -> None:
    (claim,) = rules_of("standard", "jernhaand").dealing.redeal_claims
    assert not claim.allowed(parse_cards(IRON.replace("5C", "JK1")))
    assert not claim.allowed(parse_cards(IRON.replace("5C", "JC")))


def test_no_jernhaand_without_the_house_rule() -> None:
    """001 "Husregler, der ikke er med": "jernhånd (ny kortgivning, hvis man ingen billedkort, esser eller
    jokere har)"."""
    assert rules_of("standard").dealing.redeal_claims == ()
