"""Five rules real clubs publish, each a shipped house rule played through the engine's hooks.

Each test quotes the club's own page, which the house rule's ``source:`` cites.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from regelmotor.cards import parse_card
from regelmotor.engine.game import Game
from regelmotor.errors import RuleViolation
from regelmotor.rules.scoring.settlement import BOX
from regelmotor.session import Session

from .conftest import deal, offered, play, rules_of

HAND = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"


def won(game: Game, bid: str) -> Game:
    return play(game, bid, "pass", "pass", "pass")


# --- tanya.dk: a turned joker gives the previous card's suit -----------------------------------


def test_hvis_man_vender_en_joker_maa_man_tage_det_forrige_vendte_kort_som_trumf() -> None:
    """tanya.dk, Whist regler 10: "Kortene vendes et af gangen. Hvis man vender en joker må man tage det forrige
    vendte kort som trumf." """
    game = won(deal("standard", "vip-joker-forrige", dealer=3, s0=HAND, kitty="8C JK1 9D"), "8 vip")
    play(game, "call AD")
    assert offered(game) == ["accept", "reject"] and game.view(0).turned == (parse_card("8C"),)
    game.apply("reject")
    assert offered(game) == ["accept", "accept C", "reject"]
    game.apply("accept C")
    assert game.trump == "C" and game.vip_card == 2 and game.phase == "exchange"


def test_without_the_house_rule_a_turned_joker_only_means_no_trump() -> None:
    """000 4.3.2: "Et vildt kort som antages betyder at der spilles uden trumf." """
    game = won(deal("standard", dealer=3, s0=HAND, kitty="8C JK1 9D"), "8 vip")
    play(game, "call AD", "reject")
    assert offered(game) == ["accept", "reject"]
    with pytest.raises(RuleViolation) as info:
        game.apply("accept C")
    assert info.value.rule == "designations[1].trump"
    game.apply("accept")
    assert game.trump == "none"


def test_a_joker_turned_first_has_no_previous_card_to_give() -> None:
    game = won(deal("standard", "vip-joker-forrige", dealer=3, s0=HAND, kitty="JK1 8C 9D"), "8 vip")
    play(game, "call AD")
    assert offered(game) == ["accept", "reject"]


def test_the_house_rule_needs_a_ruleset_whose_vip_is_called_vip() -> None:
    from regelmotor.errors import RulesetError
    from regelmotor.ruleset.load import load_ruleset

    with pytest.raises(RulesetError, match='the ruleset has no designations entry "vip"'):
        load_ruleset("thorsen", ["vip-joker-forrige"])


# --- jeberg.eu: in halve the partner may vip ----------------------------------------------------


def test_makkeren_kan_ogsaa_vaelge_at_vippe() -> None:
    """jeberg.eu, "Halve": "Makkeren bestemmer derefter trumf, der må dog ikke vælges samme farve som makker-esset
    ... Makkeren kan også vælge at vippe, i så fald må samme farve som makker-esset gerne vælges hvis den forekommer
    i bytterne." """
    game = won(deal("standard", "halve-vip", dealer=3, s0=HAND, s2="AH", kitty="8H 9C 7D"), "9 halve")
    game.apply("call AH")
    assert game.to_act == 2 and offered(game) == ["trump S", "trump D", "trump C", "vip"]
    game.apply("vip")
    assert game.to_act == 2 and game.view(2).turned == (parse_card("8H"),)
    game.apply("accept")
    assert game.trump == "H" and game.declarers == (0,) and game.partner == 2 and game.vip_card == 1
    assert game.phase == "exchange" and game.to_act == 2  # "Det er også makkeren, der bytter med katten" (001)


def test_without_the_house_rule_the_partner_names_trump_only() -> None:
    """001: "den, der har esset, giver sig til kende og vælger trumf (ikke essets kulør)"."""
    game = won(deal("standard", dealer=3, s0=HAND, s2="AH"), "9 halve")
    game.apply("call AH")
    assert offered(game) == ["trump S", "trump D", "trump C"]


# --- eso.org: in halve the partner decides who exchanges ----------------------------------------


def test_partner_also_gets_to_decide_who_trades_with_the_cat() -> None:
    """eso.org/~pmoller, "Add ons": "halve ... partner then decides, and partner also gets to decide who trades
    with \"the cat\" (katten)"."""
    game = won(deal("standard", "halve-makker-vaelger-bytter", dealer=3, s0=HAND, s2="AH"), "9 halve")
    play(game, "call AH", "trump S")
    assert game.to_act == 2 and offered(game) == ["exchanger 0", "exchanger 2"]
    game.apply("exchanger 0")
    assert game.phase == "exchange" and game.to_act == 0


def test_a_selvmakker_has_no_one_to_choose() -> None:
    game = won(deal("standard", "halve-makker-vaelger-bytter", dealer=3, s0="AH " + HAND[:-3]), "9 halve")
    play(game, "call AH", "trump S")
    assert game.phase == "exchange" and game.to_act == 0


# --- Whistklubben: a reshuffle asked for before looking -----------------------------------------


def test_der_kan_bedes_om_omblanding_inden_der_er_kigget_paa_egne_kort() -> None:
    """hilmarshelte.dk/Whistklubben, "Omblanding": "Der kan dog til enhver tid bedes om omblanding, så længe
    dette gøres inden der er kigget på egne kort." """
    game = deal("standard", "omblanding", dealer=3)
    assert game.step == ("claim", 0) and offered(game) == ["omblanding", "keep"]
    assert game.view(0).hand == () and game.view(2).hand == ()  # nobody has looked yet
    play(game, "keep", "keep")
    game.apply("Omblanding")  # seat 2 asks: typed as a person would
    assert game.phase == "redeal" and game.redeal is not None
    assert (game.redeal.reason, game.redeal.seat, game.redeal.next_dealer) == ("omblanding", 2, 3)
    assert [(seat, str(action)) for seat, action in game.history] == [(0, "keep"), (1, "keep"), (2, "omblanding")]


def test_once_every_seat_has_kept_the_cards_are_seen_and_bidding_starts() -> None:
    game = play(deal("standard", "omblanding", dealer=3), "keep", "keep", "keep", "keep")
    assert game.step == ("call", 0) and len(game.view(0).hand) == 13


def test_omblanding_comes_before_jernhaand() -> None:
    """The reshuffle is asked for before looking; jernhånd needs the cards seen (002)."""
    iron = "2S 3S 4S 5S 6S 7S 8S 9S TS 2H 3H 4H 5H"
    game = deal("standard", "omblanding", "jernhaand", dealer=3, s1=iron)
    play(game, "keep", "keep", "keep", "keep")
    assert game.step == ("claim", 1) and offered(game) == ["jernhånd", "keep"]


# --- jeberg.eu: losses and an evening fee to the club's box -------------------------------------


def test_tabte_beloeb_og_det_faste_gebyr_indgaar_i_kortklubbens_kasse() -> None:
    """jeberg.eu/kort/reglement.htm: "De ved den endelige spilletids ophør tabte beløb, det faste gebyr der
    betales af hver spiller per kortaften, samt eventuelle afgifter, indgår i kortklubbens kasse."; "Kortaften
    gebyr 100,00 kr." """
    session = Session(rules_of("standard", "klubkasse"), list("ABCD"))
    session.totals = [Fraction(40), Fraction(-10), Fraction(-30), Fraction(0)]
    settled = session.settlement(Fraction(1, 2))
    assert settled.money == (-100, -105, -115, -100)  # the winner keeps nothing; every player pays the fee
    assert settled.box == 420 and all(t.payee == BOX for t in settled.transfers)
    assert sum(t.amount for t in settled.transfers) == settled.box


def test_without_a_box_the_players_settle_between_themselves() -> None:
    session = Session(rules_of("standard"), list("ABCD"))
    session.totals = [Fraction(40), Fraction(-10), Fraction(-30), Fraction(0)]
    settled = session.settlement(Fraction(1, 2))
    assert settled.money == (20, -5, -15, 0) and settled.box == 0
    assert {(t.payer, t.payee, t.amount) for t in settled.transfers} == {(2, 0, 15), (1, 0, 5)}


# --- end to end: validate, rule book, simulate, replay ------------------------------------------

CLUB_RULES = {
    "vip-joker-forrige": "vendes en joker, må spilleren i stedet tage det forrige vendte korts farve som trumf",
    "halve-vip": "makkeren må i stedet vippe",
    "halve-makker-vaelger-bytter": "makkeren bestemmer, om han selv eller melderen bytter med katten",
    "omblanding": "Enhver spiller kan bede om omblanding",
    "klubkasse": "Hver spiller betaler 100 pr. aften til klubbens kasse.",
}


@pytest.mark.parametrize("house", sorted(CLUB_RULES))
def test_each_clubs_rule_validates_prints_and_plays(house: str, capsys: pytest.CaptureFixture[str]) -> None:
    from regelmotor.cli import main

    assert main(["validate", f"rulesets/house/{house}.yaml"]) == 0
    assert main(["rulebook", "standard", "-H", house]) == 0
    assert CLUB_RULES[house] in capsys.readouterr().out
    assert (
        main(["simulate", "--bots", "heuristic", "standard", "-H", house, "--deals", "40", "--jobs", "1", "--json"])
        == 0
    )
    assert '"deals": 40' in capsys.readouterr().out


def test_a_game_with_the_clubs_rules_replays_from_its_record() -> None:
    from regelmotor.records import Record, game_record, replay, state_json

    game = won(deal("standard", "halve-vip", "halve-makker-vaelger-bytter", dealer=3, s0=HAND, s2="AH"), "9 halve")
    play(game, "call AH", "vip", "reject", "accept", "exchanger 2")
    assert game.phase == "exchange" and game.to_act == 2
    record = game_record(game, "standard", ("halve-vip", "halve-makker-vaelger-bytter"))
    again = replay(Record.model_validate(record)).game
    assert state_json(again) == state_json(game) and again.trump == game.trump
