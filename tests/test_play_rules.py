"""Legal cards, trick winners and the early end of sol (001; 000 6; 003 34-39)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import format_cards, new_deck, parse_card, parse_cards, suit_of
from regelmotor.hooks import ContractInfo, TrickContext

from .conftest import RULESETS, rules_of

S, H, D, C = range(4)
PLAIN = TrickContext(trump=H, sol=False, first_trick=False)


def legal(name: str, hand: str, trick: str, context: TrickContext = PLAIN, *house: str) -> str:
    rules = rules_of(name, *house)
    return format_cards(rules.play.legal_cards(parse_cards(hand), parse_cards(trick), context))


def winner(name: str, trick: str, trump: int | None, sol: bool = False, *house: str) -> str:
    cards = parse_cards(trick)
    return format_cards([cards[rules_of(name, *house).play.trick_winner(cards, trump, sol)]])


def test_must_follow_suit() -> None:
    """001: "Man skal bekende kulør, det vil sige spille samme kulør som det udspillede kort, hvis man kan." """
    assert legal("gruppe2", "2S 3S KH", "AS") == "2S 3S"


def test_void_may_play_any_card_also_trump() -> None:
    """001: "Kan man ikke, må man spille et hvilket som helst kort, også trumf."; 003 39."""
    assert legal("gruppe2", "2D KH 4C", "AS") == "2D KH 4C"


def test_jokers_may_be_played_at_any_time() -> None:
    """001: "Jokere må spilles når som helst, også selv om man kan bekende kulør." """
    assert legal("standard", "2S KH JK1", "AS") == "2S JK1"


def test_no_joker_may_be_led_to_the_first_trick() -> None:
    """001: "Jokere må ikke spilles ud i første stik." """
    first = TrickContext(trump=H, sol=False, first_trick=True)
    assert legal("standard", "2S KH JK1", "", first) == "2S KH"
    assert legal("standard", "2S KH JK1", "") == "2S KH JK1"


def test_after_a_joker_lead_any_card_may_be_played() -> None:
    """001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort." """
    assert legal("standard", "2S KH 3D", "JK2") == "2S KH 3D"


def test_the_called_ace_must_fall_the_first_time_its_suit_is_led() -> None:
    """001: "Makker-esset skal spilles første gang, kuløren bliver spillet ud."; 003 37."""
    called = TrickContext(trump=H, sol=False, first_trick=False, called=parse_card("AS"))
    assert legal("standard", "AS 2S 3S JK1", "KS", called) == "AS"
    again = TrickContext(trump=H, sol=False, first_trick=False, called=parse_card("AS"), called_suit_led=True)
    assert legal("standard", "AS 2S 3S", "KS", again) == "AS 2S 3S"


def test_its_holder_leading_the_suit_first_must_lead_the_ace() -> None:
    """001: "Har man makker-esset og selv spiller kuløren ud første gang, skal man spille esset." """
    called = TrickContext(trump=H, sol=False, first_trick=False, called=parse_card("AS"))
    assert legal("standard", "AS 2S KH", "", called) == "AS KH"


def test_the_called_ace_may_be_trumped() -> None:
    """001: "Det er tilladt at trumfe makker-esset." """
    assert winner("standard", "AS 2S 2H 3S", H) == "2H"


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    """001: "Stikket vindes af den højeste trumf, eller hvis ingen har trumfet, af det højeste kort i den
    udspillede kulør." """
    assert winner("standard", "KS AS 3H 2H", H) == "3H"
    assert winner("standard", "KS AD 2S QS", H) == "KS"


def test_a_led_joker_wins_even_if_another_joker_follows() -> None:
    """001: "En joker, der bliver spillet ud, er et sikkert stik, også hvis en anden lægger en joker oven på." """
    assert winner("standard", "JK1 AH JK2 AS", H) == "JK1"


def test_a_joker_not_led_is_worth_nothing() -> None:
    """001: "En joker, der ikke er spillet ud, har ingen værdi." """
    assert winner("standard", "2S JK1 3S JK2", None) == "3S"


def test_thorsen_a_led_joker_loses_to_the_highest_trump() -> None:
    """000 6.4.1: "Vildt kort / Der er trumfkort i stikket / Spilleren der spillede det højeste trumfkort /
    Der er ikke trumfkort i stikket / Udspilleren"."""
    assert winner("thorsen", "JK1 2H 5H AS", H) == "5H"
    assert winner("thorsen", "JK1 AS KS QS", H) == "JK1"


def test_joker_trumpable_house_rule() -> None:
    """001 "Husregel om jokeren": "I nogle klubber kan en udspillet joker stikkes med trumf"."""
    assert winner("standard", "JK1 2H 5S AS", H, False, "joker-trumpable") == "2H"
    assert winner("standard", "JK1 2H 5S AS", H) == "JK1"


def test_in_sol_the_ace_is_the_lowest_card() -> None:
    """001: "Der er ingen trumf, og esset er det laveste kort i kuløren."; 003 35: "Spilles der sol, er konger
    de højeste kort, og esser de laveste." """
    assert winner("standard", "AS 2S KS QS", None, True) == "KS"
    assert winner("gruppe2", "AS 2S 3D 4D", None, True) == "2S"


def test_in_trump_games_aces_are_highest() -> None:
    """003 34: "Hvis der ikke spilles en sol-melding, så er esser de højeste kort, toere de laveste." """
    assert winner("gruppe2", "2S AS KS 3S", None) == "AS"


def test_sol_ends_as_soon_as_the_declarer_has_taken_one_trick_too_many() -> None:
    """001: "Tager melderen et stik for meget, er spillet tabt med det samme." """
    rules = rules_of("standard")
    contract = ContractInfo(rules.auction.ladder.parse("sol"), (2,))
    assert not rules.play.play_over(contract, [0, 0, 1, 0], 5)
    assert rules.play.play_over(contract, [0, 0, 2, 0], 6)


def test_thorsen_sol_ends_when_every_declarer_has_lost() -> None:
    """000 6.4.3: "indtil alle kort på spillernes hænder er spillet, eller indtil alle spilførere i solspil har
    tabt spillet"."""
    rules = rules_of("thorsen")
    contract = ContractInfo(rules.auction.ladder.parse("ren sol"), (1, 3))
    assert not rules.play.play_over(contract, [0, 1, 0, 0], 3)
    assert rules.play.play_over(contract, [0, 1, 0, 2], 5)


def test_a_trump_game_is_played_to_the_end() -> None:
    rules = rules_of("standard")
    contract = ContractInfo(rules.auction.ladder.parse("8"), (1,))
    assert not rules.play.play_over(contract, [0, 12, 0, 0], 12)
    assert rules.play.play_over(contract, [0, 13, 0, 0], 13)


@given(data=st.data())
def test_legal_cards_are_a_nonempty_part_of_the_hand_and_follow_suit_when_possible(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(RULESETS))
    rules = rules_of(name)
    deck = new_deck(rules.ruleset.deck.jokers)
    hand = data.draw(st.lists(st.sampled_from(deck), min_size=1, max_size=13, unique=True))
    rest = [c for c in deck if c not in hand]
    trick = data.draw(st.lists(st.sampled_from(rest), max_size=3, unique=True))
    context = TrickContext(
        trump=data.draw(st.sampled_from([None, 0, 1, 2, 3])),
        sol=data.draw(st.booleans()),
        first_trick=data.draw(st.booleans()),
        called=data.draw(st.sampled_from([None, *range(12, 52, 13)])),
        called_suit_led=data.draw(st.booleans()),
    )
    cards = rules.play.legal_cards(hand, trick, context)
    assert cards and set(cards) <= set(hand)
    if trick and trick[0] < 52 and any(c < 52 and suit_of(c) == suit_of(trick[0]) for c in hand):
        assert all(c >= 52 or suit_of(c) == suit_of(trick[0]) for c in cards)
    if len(trick) == 3:
        full = [*trick, cards[0]]
        assert 0 <= rules.play.trick_winner(full, context.trump, context.sol) < 4
