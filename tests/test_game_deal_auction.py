"""Rules-matrix sections 1-3 played through Game: the deal, the ladder and the auction."""

from __future__ import annotations

import pytest

from regelmotor.engine.actions import card_order_key
from regelmotor.engine.game import Game
from regelmotor.errors import DealError, RuleViolation

from .conftest import deal, offered, play, rules_of

# --- section 1: table, session, deal ---------------------------------------------------------------


def test_thorsen_example_1_reproduces_through_the_game() -> None:
    """000 2.5 "Eksempel 1: 3 til spiller 1, ... 1 til katten"; "Det første kort givet til katten skal være
    nederst, og det sidste øverst"."""
    game = Game.from_deck(rules_of("thorsen"), list(range(55)), dealer=3, pattern=[3, "kat", 3, "kat", 3, "kat", 3, 1])
    assert game.hands[0] == sorted([0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41, 51], key=card_order_key)
    assert game.kitty == [38, 25, 12]
    assert game.to_act == 0  # 001: "Forhånden melder først"


def test_thorsen_example_2_reproduces_through_the_game() -> None:
    """000 2.5 "Eksempel 2: 3 til spiller 1, 3 til spiller 2, 3 til spiller 3, 3 til spiller 4, 3 til spiller 1,
    ... 1 til katten"."""
    game = Game.from_deck(rules_of("thorsen"), list(range(55)), dealer=0, pattern=[3, 3, "kat", 3, "kat", 2, "kat", 2])
    assert game.hands[1] == sorted([0, 1, 2, 12, 13, 14, 25, 26, 27, 38, 39, 47, 48], key=card_order_key)
    assert game.kitty == [46, 37, 24]


def test_standard_plays_55_cards_with_a_kitty_of_3() -> None:
    """001: "et almindeligt spil kort plus tre jokere, i alt 55 kort. Hver spiller får 13 kort, og de sidste 3
    kort lægges med bagsiden opad midt på bordet"."""
    game = Game.from_seed(rules_of("standard"), 1)
    assert len(game.kitty) == 3 and sorted(game.cards_in_play()) == list(range(55))


def test_gruppe2_plays_52_cards_and_no_kitty() -> None:
    """003 4: "13 kort til hver spiller, idet de 3 jokers ikke indgår i spillet." """
    rules = rules_of("gruppe2")
    game = Game.from_seed(rules, 1)
    assert game.kitty == [] and sorted(game.cards_in_play()) == list(range(52))
    hands = [list(range(i * 13, i * 13 + 13)) for i in range(4)]
    hands[0][0] = 52  # a joker
    with pytest.raises(DealError, match="not in this deck: JK1"):
        Game(rules, hands, [], 0)


def test_a_deal_that_is_not_the_deck_is_refused() -> None:
    hands = [list(range(i * 13, i * 13 + 13)) for i in range(4)]
    with pytest.raises(DealError, match="the kitty holds 3 cards in standard, not 0"):
        Game(rules_of("standard"), hands, [], 0)
    hands[1][0] = 0
    with pytest.raises(DealError, match=r"twice: 2S; missing: 2H"):
        Game(rules_of("standard"), hands, [52, 53, 54], 0)


def test_the_same_seed_gives_the_same_deal() -> None:
    a, b = Game.from_seed(rules_of("standard"), 42), Game.from_seed(rules_of("standard"), 42)
    assert a.hands == b.hands and a.kitty == b.kitty
    assert a.hands != Game.from_seed(rules_of("standard"), 43).hands


def test_standard_all_pass_is_dealt_again() -> None:
    """001: "Melder alle pas, gives der om." (the same dealer: inferred, rules-matrix.md section 1)."""
    game = play(deal("standard", dealer=2), "pass", "pass", "pass", "pass")
    assert game.phase == "redeal" and game.redeal is not None
    assert (game.redeal.reason, game.redeal.next_dealer) == ("all_pass", 2)
    assert game.to_act is None and offered(game) == []


def test_thorsen_all_pass_the_next_player_deals() -> None:
    """000 3.9: "Hvis alle fire spillere passer, standses spillet, og den næste spiller i tur giver kort til et
    nyt spil." """
    game = play(deal("thorsen", dealer=2), "pass", "pass", "pass", "pass")
    assert game.redeal is not None and game.redeal.next_dealer == 3


def test_gruppe2_all_pass_inferred_as_standard() -> None:
    game = play(deal("gruppe2", dealer=1), "pass", "pass", "pass", "pass")
    assert game.redeal is not None and game.redeal.next_dealer == 1


@pytest.mark.parametrize("name", ["thorsen", "gruppe2", "whistklubben"])
def test_a_misdeal_is_dealt_again_by_the_same_dealer(name: str) -> None:
    """000 2.7: "I tilfælde af uregelmæssigheder i kortgivningen skal kortene gives om af samme spiller";
    003 19: "Gives der forkert blandes kortene på ny, og der gives om af samme spiller." """
    game = play(deal(name, dealer=3), "misdeal")
    assert game.redeal is not None and (game.redeal.reason, game.redeal.next_dealer) == ("misdeal", 3)


def test_a_misdeal_is_called_before_the_first_call_only() -> None:
    game = play(deal("thorsen", dealer=3), "7")
    with pytest.raises(RuleViolation) as info:
        game.apply("misdeal")
    assert info.value.rule == "misdeal"


def test_thorsen_table_has_dealer_sitting_out_at_five_and_six() -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke. Hvis der er seks spillere, deltager
    kortgiveren og en anden spiller ... ikke." (sessions map players to the four seats of each deal)."""
    table = rules_of("thorsen").ruleset.table
    assert table.players == (4, 5, 6)
    assert [(s.players, s.seats) for s in table.sitting_out] == [(5, ("dealer",)), (6, ("dealer", "right_of_dealer"))]
    assert rules_of("thorsen").ruleset.session.whole_rounds


# --- section 2: the ladder in the auction -----------------------------------------------------------


def test_standard_sol_comes_right_after_9() -> None:
    """001: "Sol ligger mellem 9 og 9 vip"."""
    game = play(deal("standard", dealer=3), "9")
    assert offered(game)[:3] == ["pass", "sol", "9 vip"]


def test_thorsen_opening_bids_follow_4_1_1() -> None:
    """000 4.1.1's order read as ascending: alm, gode, vip i 1., halve, vip i 2., sans, vip i 3."""
    game = deal("thorsen", dealer=3)
    assert offered(game)[1:8] == ["7", "7 gode", "7 vip1", "7 halve", "7 vip2", "7 sans", "7 vip3"]


def test_gruppe2_equal_designations_cannot_overcall_each_other() -> None:
    """003 12: "For at overgå en sol skal der meldes 10, 9 gode/sans/halve/ eller ren sol." """
    game = play(deal("gruppe2", dealer=3), "9 gode")
    before = game.snapshot()
    with pytest.raises(RuleViolation) as info:
        game.apply("9 sans")
    assert info.value.rule == "auction"
    assert str(info.value).startswith("9 sans is as high as the highest bid 9 gode: a bid must be higher")
    assert "003_7bef287eedffe464.txt 5-10" in str(info.value)
    assert game.snapshot() == before


def test_a_bid_can_be_typed_by_its_display_name() -> None:
    """docs/notation.md: "input also accepts the ruleset's Danish display names (8 vip i 2.)"."""
    game = play(deal("thorsen", dealer=3), "8 vip i 2.")
    assert [(seat, str(call)) for seat, call in game.seat_calls] == [(0, "8 vip2")]


# --- section 3: the auction -------------------------------------------------------------------------


def test_melde_tilbage_through_the_game() -> None:
    """003 5-10: "starter spilleren til venstre for kortgiveren med at melde." "Meldes der over, skal første
    spiller melde igen." "Herefter melder spiller 3 mod den højeste melding." """
    game = deal("gruppe2", dealer=3)
    order = []
    for call in ["7", "8", "9", "pass", "10", "pass", "11", "pass"]:
        order.append(game.to_act)
        game.apply(call)
    assert order == [0, 1, 0, 1, 2, 0, 3, 2]
    assert game.phase == "declaration" and game.declarers == (3,) and game.contract == "11"


def test_a_player_who_passed_is_out() -> None:
    """001: "Har man passet, er man ude af meldingsrunden." """
    game = play(deal("standard", dealer=3), "pass", "7", "8", "pass")
    assert game.to_act == 3
    game.apply("9")
    assert game.to_act == 2  # the overcalled player answers; seats 0 and 1 passed
    with pytest.raises(RuleViolation, match="it is seat 3's turn, not seat 1's"):
        game.apply("10", seat=0)


def test_the_holder_of_the_highest_bid_cannot_bid_higher() -> None:
    """000 3.3: "Den som har det højeste bud ... kan ikke byde højere. Det gælder også hvis alle de øvrige
    spillere har meldt pas." """
    game = play(deal("thorsen", dealer=3), "7", "pass", "pass", "pass")
    assert game.phase == "declaration" and game.declarers == (0,)


@pytest.mark.parametrize(
    ("name", "bid", "joinable"),
    [
        ("standard", "sol", False),
        ("thorsen", "sol", True),
        ("thorsen", "8 vip3", True),
        ("thorsen", "8 sans", False),
        ("whistklubben", "ren sol", True),
        ("whistklubben", "8 vip", False),
        ("gruppe2", "oplægger", True),
    ],
)
def test_gaa_med_where_each_ruleset_allows_it(name: str, bid: str, joinable: bool) -> None:
    """000 3.4 b: "gå med i det nuværende højeste bud hvis det højeste bud er et solbud eller et vipbud";
    003 11: "Melder en spiller sol (ren sol eller oplægger), kan den næste melder 'gå med'."; WK (rules-matrix.md
    section 3): gå med on sol bids."""
    game = play(deal(name, dealer=3), bid)
    assert ("gå med" in offered(game)) is joinable


def test_all_but_the_bidder_and_the_joiners_passed_ends_the_auction() -> None:
    """000 3.6: "alle har passet undtagen spilleren med det højeste bud og og mulige medgangere i dette bud";
    3.8: "I solspil bliver spilleren med det højeste bud og mulige medgangere, spilførere." """
    game = play(deal("thorsen", dealer=3), "sol", "gå med", "pass", "ga med")
    assert game.phase == "exchange" and game.declarers == (0, 1, 3) and game.trump == "none"


def test_whistklubben_deals_one_kitty_card_at_a_time_never_the_last() -> None:
    """WK (rules-matrix.md section 1): "one card at a time to the kitty, **never the last card of the deal**"."""
    rules = rules_of("whistklubben")
    game = Game.from_deck(rules, list(range(55)), dealer=3)
    assert game.kitty == [50, 33, 16] and 54 in game.hands[3]  # cards 16, 33, 50 went to the kitty
    with pytest.raises(DealError, match="the last card of the deal may not go to the kitty"):
        Game.from_deck(rules, list(range(55)), dealer=3, pattern=[1] * 13 + ["kat"] * 3)
