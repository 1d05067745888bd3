"""Card notation (docs/notation.md "Cards")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import (
    JOKERS,
    format_card,
    format_cards,
    is_joker,
    new_deck,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_of,
)
from regelmotor.errors import CardError


def test_a_card_is_rank_then_suit_and_output_is_short_ascii() -> None:
    """docs/notation.md: "A card is rank then suit: AS, TH, 2C, 10D (input) → TD (output)"."""
    assert [format_card(parse_card(c)) for c in ("AS", "TH", "2C", "10D")] == ["AS", "TH", "2C", "TD"]


def test_input_accepts_the_suit_symbols_and_lower_case() -> None:
    """docs/notation.md: "Input also accepts the symbols ♠♥♦♣ and lower case"."""
    assert [format_card(parse_card(c)) for c in ("A♠", "k♥", "q♦", "10♣", "jc", "as")] == [
        "AS",
        "KH",
        "QD",
        "TC",
        "JC",
        "AS",
    ]


def test_jokers_are_jk1_to_jk3() -> None:
    """docs/notation.md: "Jokers: JK1, JK2, JK3. They are equal in play; the number only keeps them apart"."""
    assert [parse_card(c) for c in ("JK1", "jk2", "JK3")] == list(JOKERS)
    assert all(is_joker(c) for c in JOKERS)
    assert suit_of(JOKERS[0]) == 4 and rank_of(JOKERS[0]) == -1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1X", '"1X" is not a card: "1" is not a rank; '),
        ("AX", '"AX" is not a card: "X" is not a suit; '),
        ("JK4", '"JK4" is not a card: the jokers are JK1, JK2 and JK3'),
        ("A", '"A" is not a card: a card is a rank'),
        ("", '"" is not a card: a card is a rank'),
        ("11H", '"11H" is not a card: "11" is not a rank; '),
    ],
)
def test_a_wrong_card_code_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert str(info.value).startswith(message)


def test_a_card_named_twice_is_an_error() -> None:
    with pytest.raises(CardError, match='"as" is named twice: AS'):
        parse_cards("AS KH as")


def test_suits_parse_from_letters_and_symbols() -> None:
    assert [parse_suit(s) for s in ("S", "h", "♦", "♣")] == [0, 1, 2, 3]
    with pytest.raises(CardError, match='"X" is not a suit'):
        parse_suit("X")


def test_a_deck_has_52_cards_and_its_jokers() -> None:
    """001: "et almindeligt spil kort plus tre jokere, i alt 55 kort"; 003 4: "de 3 jokers ikke indgår"."""
    assert len(new_deck(3)) == 55 and len(set(new_deck(3))) == 55
    assert len(new_deck(0)) == 52


@given(st.lists(st.sampled_from(new_deck(3)), unique=True))
def test_cards_and_text_round_trip(cards: list[int]) -> None:
    assert parse_cards(format_cards(cards)) == cards
