"""Rules-matrix sections 5, 6 and 9 played through Game: the exchange, fordækt and the house rules."""

from __future__ import annotations

import pytest

from regelmotor.cards import format_card, parse_cards
from regelmotor.engine.actions import HOLD_ACTION, Action, Verb, card_order_key
from regelmotor.engine.game import Game
from regelmotor.errors import RuleViolation

from .conftest import deal, offered, play

HAND = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"
IRON = "2S 3S 4S 5S 6H 7H 8H 9D TD 2C 3C 4C 5C"


def won(game: Game, bid: str) -> Game:
    return play(game, bid, "pass", "pass", "pass")


def cards(text: str) -> list[int]:
    return sorted(parse_cards(text), key=card_order_key)


# --- section 5: exchange -----------------------------------------------------------------------------


def test_standard_lays_three_away_then_takes_the_three_unseen() -> None:
    """001: "Man lægger først tre kort fra sig med bagsiden opad og tager derefter kattens tre kort op, uden at
    have set dem. Man bytter alle tre eller ingen." """
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="AC 6C 7C"), "8"), "trump H", "call AD")
    legal = offered(game)
    assert legal[0] == "keep" and len(legal) == 1 + 286 and all(len(a.split()) in (1, 4) for a in legal)
    before = game.snapshot()
    with pytest.raises(RuleViolation) as info:
        game.apply("discard 2S 3S")
    assert info.value.rule == "exchange" and "discard 3 card(s)" in str(info.value)
    assert game.snapshot() == before
    game.apply("discard 2S 3S 4S")
    assert game.hands[0] == cards("AS KH QH JH TH 9H 2D 3D 4D 5D AC 6C 7C")
    assert game.phase == "play" and game.kitty == [] and sorted(game.discards) == sorted(parse_cards("2S 3S 4S"))


def test_the_discards_are_offered_uncopied_and_taken_in_any_spelling() -> None:
    """The 1 + 286 exchange actions of the example above: ``legal`` holds them without writing them all out,
    ``legal_actions()`` is a fresh list, and a discard typed in another order or spelling is the same action."""
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="AC 6C 7C"), "8"), "trump H", "call AD")
    assert list(game.legal) == game.legal_actions() and len(game.legal) == 287
    offered(game).clear()
    assert len(offered(game)) == 287 and game.parse("discard 4S 3S 2S") in game.legal
    assert Action(Verb.DISCARD, cards=tuple(parse_cards("2S 3S 4S"))) not in game.legal  # the offer is canonical
    assert game.parse("discard 2S 3S 4S") in game.legal  # apply() reads other spellings
    game.apply("discard 2♠ 3s 4S")
    assert str(game.history[-1][1]) == "discard 4S 3S 2S" and game.phase == "play"


def test_the_called_ace_may_not_be_discarded() -> None:
    """001: "Makker-esset må ikke lægges i katten." """
    game = play(won(deal("standard", dealer=3, s0=HAND), "8"), "trump H", "call AS")
    assert not any("AS" in a for a in offered(game))
    with pytest.raises(RuleViolation, match="the called card AS may not be discarded") as refused:
        game.apply("discard AS 2S 3S")
    assert refused.value.text("da") == "makkerkortet A♠ må ikke lægges i katten"


def test_standard_vip_must_exchange() -> None:
    """001: "I vip skal der byttes"."""
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="5H 8C 9C"), "8 vip"), "call AD", "accept")
    assert "keep" not in offered(game)
    with pytest.raises(RuleViolation, match="the exchange is compulsory here"):
        game.apply("keep")


def test_thorsen_vip_exchange_is_optional() -> None:
    """000 5.1.1: "Bytning er valgfri." """
    game = play(won(deal("thorsen", dealer=3, s0=HAND, kitty="5H 8C 9C"), "8 vip1"), "call AD", "accept")
    assert offered(game)[0] == "keep"


def test_in_halve_the_partner_exchanges() -> None:
    """001: "I halve er det makkeren, der bytter"; 000 5.1.1: "eller spilførers makker hvis betegnelsen er halve"."""
    game = play(won(deal("standard", dealer=3, s0=HAND, s2="AH"), "9 halve"), "call AH", "trump S")
    assert game.phase == "exchange" and game.to_act == 2


def test_thorsen_sol_declarers_exchange_in_bidding_order_and_discards_become_the_kitty() -> None:
    """000 5.2.3: "den der meldte sol, bytter først, dernæst første medgænger osv."; 5.2.4: "De tre afkastede
    kort bliver ny kat" """
    game = play(deal("thorsen", dealer=3, s0=HAND, s1="AC KC QC", kitty="6C 7C 8C"), "sol", "gå med", "pass", "pass")
    assert game.declarers == (0, 1) and game.to_act == 0
    game.apply("discard AS KH QH")
    assert game.to_act == 1 and game.kitty == parse_cards("AS KH QH")
    game.apply("discard AC KC QC")
    assert set(parse_cards("AS KH QH")) <= set(game.hands[1])
    assert game.phase == "play"


def test_whistklubben_exchanges_some_cards_and_the_rest_pass_on_clockwise() -> None:
    """001 "Regelvalg": "Whistklubbens regelsæt, hvor de kort, melderen ikke bytter, går videre til næste spiller";
    WK (rules-matrix.md section 5): "the top k of the kitty"."""
    game = play(won(deal("whistklubben", dealer=3, s0=HAND, kitty="AC 6C 7C"), "8"), "trump H", "call AD")
    assert "discard 2S" in offered(game) and "keep" in offered(game)
    game.apply("discard 2S")
    assert parse_cards("AC")[0] in game.hands[0] and game.kitty == parse_cards("6C 7C")
    assert game.to_act == 1 and len(offered(game)) == 1 + 13 + 78
    game.apply("keep")
    assert game.to_act == 2
    game.apply(f"discard {format_card(game.hands[2][0])}")
    assert game.to_act == 3 and game.kitty == parse_cards("7C")


def test_whistklubben_the_last_joiner_exchanges_first_in_sol() -> None:
    """WK (rules-matrix.md section 5): "in sol with joiners the last joiner exchanges first, then the one before"."""
    game = play(deal("whistklubben", dealer=3), "sol", "gå med", "pass", "gå med")
    assert game.declarers == (0, 1, 3) and game.to_act == 3


def test_gruppe2_has_no_exchange() -> None:
    """003 4: thirteen cards to each of four players; there is no kitty to exchange with."""
    game = play(won(deal("gruppe2", dealer=3, s0=HAND), "8"), "trump H", "call AD")
    assert game.phase == "exchange" and game.to_act == 1  # dobling is asked; no exchange
    assert offered(game) == ["pass", "double"]


def test_standard_sol_declarer_may_exchange() -> None:
    """001: "i solmeldingerne må melderen også bytte"."""
    game = won(deal("standard", dealer=3), "sol")
    assert game.phase == "exchange" and game.to_act == 0 and offered(game)[0] == "keep"


# --- section 6: fordækt ------------------------------------------------------------------------------


def test_thorsen_a_declarer_void_in_the_partner_suit_may_lay_a_card_fordaekt() -> None:
    """000 6.1.1: "Hvis spilfører efter bytningen er fri i makkerkortets farve, må han lægge et kort med
    billedsiden nedad på bordet foran sig idet han siger" fordækt."""
    hand = "AS 2S 3S 4S KH QH JH TH 9H 2C 3C 4C 5C"  # no diamonds
    game = play(won(deal("thorsen", dealer=3, s0=hand, kitty="6H 7H 8H"), "8"), "trump H", "call AD", "keep")
    assert game.to_act == 0 and offered(game)[:2] == ["no fordækt", "fordækt AS"]
    game.apply("fordækt 2C")
    assert game.fordaekt == parse_cards("2C")[0] and game.view(1).fordaekt_laid and game.phase == "play"


def test_no_fordaekt_when_the_declarer_holds_the_suit() -> None:
    game = play(won(deal("thorsen", dealer=3, s0=HAND), "8"), "trump H", "call AD", "keep")
    assert game.phase == "play"


def test_standard_has_no_fordaekt_unless_the_house_rule_is_on() -> None:
    """001 "Husregler, der ikke er med": "fordækt kort, når melderen mangler makker-essets kulør"."""
    hand = "AS 2S 3S 4S KH QH JH TH 9H 2C 3C 4C 5C"
    plain = play(won(deal("standard", dealer=3, s0=hand, kitty="6H 7H 8H"), "8"), "trump H", "call AD", "keep")
    assert plain.phase == "play"
    house = deal("standard", "fordaekt", dealer=3, s0=hand, kitty="6H 7H 8H")
    house = play(won(house, "8"), "trump H", "call AD", "keep")
    assert house.phase == "exchange" and "no fordækt" in offered(house)


# --- section 9: house rules --------------------------------------------------------------------------


def test_jernhaand_may_be_claimed_before_the_auction_and_the_same_dealer_deals_again() -> None:
    """002: "En spiller kan påberåbe jernhånd, hvis vedkommende har 13 kort uden billedkort, jokere eller esser.
    Meldingen betyder, at spillet genstartes." """
    game = deal("standard", "jernhaand", dealer=3, s2=IRON)
    assert (game.to_act, offered(game)) == (2, ["jernhånd", "keep"])
    game.apply("jernhaand")
    assert game.phase == "redeal" and game.redeal is not None
    assert (game.redeal.reason, game.redeal.next_dealer, game.redeal.seat) == ("jernhaand", 3, 2)


def test_jernhaand_the_player_may_keep_the_hand() -> None:
    game = play(deal("standard", "jernhaand", dealer=3, s2=IRON), "keep")
    assert game.phase == "auction" and game.to_act == 0 and "jernhånd" not in offered(game)


def test_no_jernhaand_without_the_house_rule_or_with_a_court_card() -> None:
    assert deal("standard", dealer=3, s2=IRON).to_act == 0
    assert deal("standard", "jernhaand", dealer=3, s2=IRON.replace("5C", "JC")).to_act == 0


def test_gaa_med_house_rule_on_standard_vip() -> None:
    """rules-matrix.md section 9: "gaa-med | gå med on sol bids and vip bids, as thorsen"."""
    game = play(deal("standard", "gaa-med", dealer=3, s0=HAND), "8 vip", "gå med", "pass", "pass")
    assert game.declarers == (0, 1)
    game.apply("call AD")
    assert game.to_act == 1  # the joiner names his partner card (000 4.3.1)


def test_kan_selv_through_the_game() -> None:
    """002: "skal spilleren efter kortgiveren have mulighed for at slå den nye melding, tage den i baghånden
    eller passe." """
    game = play(deal("standard", "kan-selv", dealer=3), "7", "8", "selv")
    assert game.seat_calls[-1] == (0, HOLD_ACTION) and game.to_act == 1


def test_dobling_the_opponents_may_double_once() -> None:
    """003 41: "Der må doubles, hvis modparten ikke mener, at meldingen kan gennemføres."; 42: "En doubling
    betyder, at taksten bliver forhøjet til det dobbelte." """
    game = play(won(deal("gruppe2", dealer=3, s0=HAND), "8"), "trump H", "call AD")
    asked = []
    while game.phase == "exchange":
        asked.append(game.to_act)
        game.apply("double" if game.to_act == 3 else "pass")
    assert asked == [1, 2, 3] and game.doublings == 1 and game.phase == "play"


def test_dobling_only_modparten_the_partner_may_only_pass() -> None:
    """003 41: "modparten" doubles; the declarer's partner is asked like everyone (a secret partner is not
    given away by being skipped) but may only pass."""
    game = play(won(deal("gruppe2", dealer=3, s0=HAND), "8"), "trump H", "call AD")
    assert game.partner == 2 and game.to_act == 1 and offered(game) == ["pass", "double"]
    game.apply("pass")
    assert game.to_act == 2 and offered(game) == ["pass"]
    with pytest.raises(RuleViolation) as info:
        game.apply("double")
    assert info.value.rule == "doubling"


def test_joker_trumpable_changes_the_trick_winner_of_the_game() -> None:
    """001 "Husregel om jokeren": "I nogle klubber kan en udspillet joker stikkes med trumf"."""
    trick = parse_cards("JK1 2H 5S AS")
    assert deal("standard", "joker-trumpable").rules.play.trick_winner(trick, 1, False) == 1
    assert deal("standard").rules.play.trick_winner(trick, 1, False) == 0
