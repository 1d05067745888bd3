"""Rules-matrix section 7 played through Game: leads, following suit, jokers, the called card, fordækt,
card order, open hands and the early end of sol."""

from __future__ import annotations

import random

import pytest

from regelmotor.cards import FACE_DOWN, parse_card
from regelmotor.engine.game import Game
from regelmotor.errors import RuleViolation
from regelmotor.web.tables import view_json

from .conftest import deal, offered, play

S0 = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"
S1 = "KS 5S JK1 2H 3H 4H 6D 7D 8D 2C 3C 4C 5C"
S2 = "AD KD QD JD TD 9D 6C 7C 8C 9C TC JC QC"
# seat 3 gets 6S 7S 8S 9S TS JS QS AH 5H 6H 7H 8H KC; the kitty is JK3 JK2 AC


def first_legal(game: Game, times: int) -> None:
    """Play the first legal card, ``times`` times (one at a time: the legal cards change)."""
    for _ in range(times):
        game.apply(offered(game)[0])


def eight_hearts_calling_ad(name: str = "standard", *house: str) -> Game:
    game = deal(name, *house, dealer=3, s0=S0, s1=S1, s2=S2)
    return play(game, "8", "pass", "pass", "pass", "trump H", "call AD", "keep")


def test_forhaand_leads_to_the_first_trick() -> None:
    """001: "Forhånden spiller ud til første stik"; 000 6.3.2; 003 36: "Spilleren i forhånden spiller ud." """
    game = eight_hearts_calling_ad()
    assert (game.phase, game.to_act) == ("play", 0)


def test_must_follow_suit_and_the_message_says_why() -> None:
    """001: "Man skal bekende kulør, det vil sige spille samme kulør som det udspillede kort, hvis man kan." """
    game = play(eight_hearts_calling_ad(), "2S")
    assert offered(game) == ["KS", "5S", "JK1"]  # 001: "Jokere må spilles når som helst"
    before = game.snapshot()
    with pytest.raises(RuleViolation) as info:
        game.apply("2H")
    assert str(info.value).startswith("must follow suit: you hold 2 spades [play.follow_suit: 001_b88eb8000c0a2767.txt")
    assert info.value.text("da") == "du skal bekende kulør: du har 2 spar"  # the terminal's and the page's words
    assert game.snapshot() == before
    with pytest.raises(RuleViolation, match="you do not hold 9C"):
        game.apply("9C")


def test_void_any_card_and_an_unled_joker_is_worth_nothing() -> None:
    """001: "Kan man ikke, må man spille et hvilket som helst kort, også trumf."; "En joker, der ikke er spillet
    ud, har ingen værdi." """
    game = play(eight_hearts_calling_ad(), "2S", "JK1")
    assert len(offered(game)) == 13  # seat 2 has no spades
    play(game, "6C", "QS")
    assert game.tricks[0].winner == 3 and game.tricks_won == [0, 0, 0, 1]


def test_the_called_ace_must_fall_the_first_time_its_suit_is_led() -> None:
    """001: "Makker-esset skal spilles første gang, kuløren bliver spillet ud."; 003 37."""
    game = play(eight_hearts_calling_ad(), "2D", "6D")
    assert offered(game) == ["AD"]
    with pytest.raises(RuleViolation) as info:
        game.apply("KD")
    assert info.value.rule == "called_card.must_fall_first_time_led" and str(info.value).startswith(
        "the called card AD must be played now"
    )


def test_the_partner_is_revealed_when_the_called_card_is_played() -> None:
    """001: "Først når esset bliver spillet, ved alle, hvem der spiller sammen." """
    game = play(eight_hearts_calling_ad(), "2D", "6D")
    assert all(game.view(seat).partner is None for seat in range(4))
    game.apply("AD")
    assert all(game.view(seat).partner == 2 for seat in range(4))


def test_holder_must_lead_the_called_ace_first() -> None:
    """001: "Har man makker-esset og selv spiller kuløren ud første gang, skal man spille esset." """
    s2 = "AD KD QD JD TD 9D AH 6C 7C 8C 9C TC JC"
    game = deal("standard", dealer=3, s0=S0, s1=S1, s2=s2)
    game = play(game, "8", "pass", "pass", "pass", "trump H", "call AD", "keep", "9H", "2H", "AH", "5H")
    assert game.to_act == 2 and "KD" not in offered(game) and "AD" in offered(game)
    with pytest.raises(RuleViolation, match="lead the called card AD: its suit is led for the first time"):
        game.apply("KD")


def test_the_called_ace_may_be_trumped() -> None:
    """001: "Det er tilladt at trumfe makker-esset." """
    s1 = "KS 5S JK1 2H 3H 4H 2C 3C 4C 5C 6S 7S 8S"  # no diamonds
    game = deal("standard", dealer=3, s0=S0, s1=s1, s2=S2)
    game = play(game, "8", "pass", "pass", "pass", "trump H", "call AD", "keep", "2D", "2H", "AD")
    game.apply(offered(game)[0])
    assert game.tricks[0].winner == 1


def test_a_led_joker_wins_even_against_trump_in_standard() -> None:
    """001: "En joker, der bliver spillet ud, er et sikkert stik, også hvis en anden lægger en joker oven på." """
    game = play(eight_hearts_calling_ad(), "3S", "KS", "6C", "QS")  # seat 1 wins with the king
    play(game, "JK1", "7C", "8H", "KH")  # seat 1 leads the joker; seats 3 and 0 put trump on it
    assert game.tricks[1].winner == 1


def test_thorsen_a_led_joker_loses_to_the_highest_trump() -> None:
    """000 6.4.1: "Vildt kort / Der er trumfkort i stikket / Spilleren der spillede det højeste trumfkort"."""
    game = play(eight_hearts_calling_ad("thorsen"), "3S", "KS", "6C", "QS", "JK1", "7C", "8H", "KH")
    assert game.tricks[1].winner == 0  # seat 0's king of hearts is the highest trump


def test_joker_trumpable_house_rule_in_play() -> None:
    """001 "Husregel om jokeren": "I nogle klubber kan en udspillet joker stikkes med trumf"."""
    game = play(eight_hearts_calling_ad("standard", "joker-trumpable"), "3S", "KS", "6C", "QS", "JK1", "7C", "8H", "KH")
    assert game.tricks[1].winner == 0


def test_after_a_joker_lead_any_card_may_be_played() -> None:
    """001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort." """
    game = play(eight_hearts_calling_ad(), "3S", "KS", "6C", "QS", "JK1")
    assert len(offered(game)) == 12


def test_sol_card_order_puts_the_ace_lowest_and_ends_when_the_declarer_has_lost() -> None:
    """001: "Der er ingen trumf, og esset er det laveste kort i kuløren."; "Tager melderen et stik for meget, er
    spillet tabt med det samme." """
    game = deal("standard", dealer=3, s0="KS QS JS TS 9S 8S 7S KH QH JH TH 9H 8H")
    game = play(game, "sol", "pass", "pass", "pass", "keep", "KS")
    assert "AS" in offered(game)
    game.apply("AS")
    first_legal(game, 2)
    assert game.tricks[0].winner == 0
    game.apply("QS")
    first_legal(game, 3)
    assert game.phase == "finished" and len(game.tricks) == 2
    assert game.scores is not None and [int(s) for s in game.scores] == [-300, 100, 100, 100]


def test_bordlaegger_the_declarers_cards_lie_open_after_the_first_trick() -> None:
    """001: "I bordlægger og ren bordlægger lægger melderen sine kort åbent på bordet, når første stik er
    spillet" """
    game = play(deal("standard", dealer=3), "11", "bordlægger", "pass", "pass", "pass", "keep")
    assert game.declarers == (1,)
    first_legal(game, 3)
    assert game.view(2).open_hands == ()
    first_legal(game, 1)
    assert [seat for seat, _ in game.view(2).open_hands] == [1]


def test_gruppe2_oplaegger_lies_open_after_the_first_lead() -> None:
    """003 33: "Efter første udspil skal melderen spille resten af spillet med kortene liggende åbne på bordet." """
    game = play(deal("gruppe2", dealer=3), "oplægger", "pass", "pass", "pass", "pass", "pass", "pass")
    assert game.phase == "play" and game.view(1).open_hands == ()
    game.apply(offered(game)[0])
    assert [seat for seat, _ in game.view(1).open_hands] == [0]


def test_thorsen_several_sol_declarers_play_at_once_and_are_settled_apart() -> None:
    """000 5.2.1: "I tilfælde af at der er mere end en spilfører, er spilførerne ikke hinandens makkere, men
    spiller hver for sig."; 7.3 "7.2.2": "Hvor der er flere spilførere sker afregningen som om der har været
    tale om flere efterfølgende spil med en spilfører og tre modspillere." """
    rng = random.Random(5)
    game = play(deal("thorsen", dealer=3), "sol", "gå med", "pass", "pass", "keep", "keep")
    while game.phase == "play":
        game.apply(rng.choice(offered(game)))
    scorer = game.rules.scoring.scorer
    expected = [0, 0, 0, 0]
    for declarer in (0, 1):
        sub = scorer.score_sol("sol", game.tricks_won[declarer])
        for seat in range(4):
            expected[seat] += sub.declarer if seat == declarer else sub.opponent
    assert game.scores == expected and sum(game.scores) == 0


def test_fordaekt_counts_as_the_lowest_card_of_the_partner_suit() -> None:
    """000 6.1.1: "Kortet tæller som det laveste kort i makkerkortets farve med værdi under toeren."; 6.2.1:
    "toer og evt. fordækt kort"."""
    s0 = "AS 2S 3S 4S KH QH JH TH 9H 2C 3C 4C 5C"  # void in diamonds
    game = deal("thorsen", dealer=3, s0=s0, s1="6D 7D 8D 2H 3H 4H KS 5S JK1 6C 7C 8C 9C", kitty="6H 7H 8H")
    game = play(game, "8", "pass", "pass", "pass", "trump H", "call AD", "keep", "fordækt 2C")
    game.apply("2C")  # led face down: it is a diamond lead
    assert offered(game) == ["8D", "7D", "6D", "JK1"]
    assert game.view(1).play.trick == ((0, FACE_DOWN),) and game.view(1).fordaekt is None
    assert game.view(0).play.trick == ((0, FACE_DOWN),) and game.view(0).seen(FACE_DOWN) == parse_card("2C")
    assert view_json(game.view(1))["trick"] == [[0, "fordækt"]] and view_json(game.view(0))["trick"] == [[0, "2C"]]
    game.apply("6D")
    first_legal(game, 2)
    assert game.tricks[0].winner != 0 and game.called_suit_led


def test_a_complete_trump_deal_is_scored_from_the_tricks() -> None:
    """001: "Melderen og makkeren får pointene hver, og de to modspillere betaler hver det samme." """
    rng = random.Random(2)
    game = eight_hearts_calling_ad()
    while game.phase == "play":
        game.apply(rng.choice(offered(game)))
    taken = game.tricks_won[0] + game.tricks_won[2]
    expected = game.rules.scoring.scorer.score_trump("alm", 8, taken, alone=False)
    assert game.scores == [expected.declarer, expected.opponent, expected.partner, expected.opponent]
    assert len(game.tricks) == 13 and game.phase == "finished" and game.to_act is None


def test_gruppe2_i_foerste_runde_maa_spilles_alt() -> None:
    """003 36: "Spilleren i forhånden spiller ud. I første runde må spilles alt."; 37: "Første gang, der spilles
    farven for makker-esset, skal makker-esset falde." (from the second trick on)."""
    hand = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"
    game = deal("gruppe2", dealer=3, s0=hand, s2="AD 9D 8D 2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    play(game, "8", "pass", "pass", "pass", "trump H", "call AD")
    while game.phase == "exchange":
        game.apply("pass")
    game.apply("2D")
    game.apply(offered(game)[0])
    assert game.to_act == 2 and {"AD", "9D", "8D"} <= set(offered(game))  # the ace need not fall
    later = game.trick_context(2)._replace(first_trick=False)
    held, trick = game.hands[2], [c for _, c in game.trick]
    assert game.rules.play.legal_cards(held, trick, later) == (parse_card("AD"),)  # after the first round it must
