"""Rules-matrix section 4 played through Game: trump, the partner card, halve, vip and gå med in vip."""

from __future__ import annotations

import pytest

from regelmotor.cards import parse_card, parse_cards
from regelmotor.engine.game import Game
from regelmotor.errors import RuleViolation

from .conftest import deal, offered, play


def won(game: Game, bid: str) -> Game:
    """Seat 0 (forhånd, dealer 3) bids and the others pass."""
    return play(game, bid, "pass", "pass", "pass")


HAND = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"


def test_alm_declarer_names_trump_then_an_ace_of_another_suit() -> None:
    """001: "I almindelige vælger melderen trumf og kalder derefter et es i en anden kulør end trumf." """
    game = won(deal("standard", dealer=3, s0=HAND), "8")
    assert (game.phase, game.to_act, offered(game)) == ("declaration", 0, ["trump S", "trump H", "trump D"])
    game.apply("trump H")
    assert offered(game) == ["call AS", "call AD", "call AC"]


def test_thorsen_alm_trump_is_diamonds_spades_or_hearts() -> None:
    """000 4.1.1: "Ingen (alm.) / 1. / Spilfører nævner trumfbenævnelse / Ruder, spar eller hjerter"."""
    assert offered(won(deal("thorsen", dealer=3, s0=HAND), "8")) == ["trump D", "trump S", "trump H"]


def test_gode_clubs_are_trump_and_the_ace_is_of_another_suit() -> None:
    """001: "Gode: klør er trumf, og melderen kalder et es."; 000 4.1.1: "Alle farver undtagen klør"."""
    game = won(deal("standard", dealer=3, s0=HAND), "8 gode")
    assert game.trump == "C" and offered(game) == ["call AS", "call AH", "call AD"]


def test_gruppe2_gode_is_clubs_or_no_trump() -> None:
    """003 27: "Gode: Der spilles med klør som trumf eller uden trumf (sans)." """
    game = won(deal("gruppe2", dealer=3, s0=HAND), "8 gode")
    assert offered(game) == ["trump C", "trump none"]
    game.apply("trump none")
    assert offered(game) == ["call AS", "call AH", "call AD", "call AC"]


def test_sans_is_played_without_trump_and_any_ace_may_be_called() -> None:
    """001: "Sans: der spilles uden trumf."; 000 4.1.1: "Sans / ... / Alle farver"."""
    game = won(deal("standard", dealer=3, s0=HAND), "8 sans")
    assert game.trump == "none" and len(offered(game)) == 4


def test_a_wrong_trump_names_the_designation_rule() -> None:
    game = won(deal("standard", dealer=3, s0=HAND), "8")
    with pytest.raises(RuleViolation) as info:
        game.apply("trump C")
    assert info.value.rule == "designations[0].trump" and "not a trump choice here" in str(info.value)


def test_halve_the_ace_holder_reveals_himself_and_names_trump_not_the_aces_suit() -> None:
    """001: "Halve: melderen kalder et es, og den, der har esset, giver sig til kende og vælger trumf (ikke essets
    kulør)."; 000 4.2.2: "Dog skal makkeren i halvespil afsløre sig straks efter at makkerkortet nævnes" """
    game = won(deal("standard", dealer=3, s0=HAND, s2="AH"), "9 halve")
    game.apply("call AH")
    assert game.to_act == 2 and offered(game) == ["trump S", "trump D", "trump C"]
    assert all(game.view(seat).partner == 2 for seat in range(4))
    game.apply("trump S")
    assert game.trump == "S" and game.phase == "exchange" and game.to_act == 2  # 001: "makkeren ... bytter"


def test_thorsen_halve_partner_may_name_no_trump() -> None:
    """000 4.1.1: "Halve / ... / Spilførers makker nævner trumfbenævnelse / Alle benævnelser undtagen
    makkerkortets farve"."""
    game = play(won(deal("thorsen", dealer=3, s0=HAND, s1="AD"), "9 halve"), "call AD")
    assert game.to_act == 1 and offered(game) == ["trump S", "trump H", "trump C", "trump none"]


def test_halve_selvmakker_names_trump_himself() -> None:
    """000 4.2.5: "I halvespil skal en selvmakker selv nævne trumfbenævnelsen." """
    game = play(won(deal("thorsen", dealer=3, s0=HAND), "9 halve"), "call AS")
    assert game.to_act == 0 and game.partner is None
    assert all(game.view(seat).partner is None for seat in range(4))


def test_vip_turns_the_kitty_top_first_and_the_third_card_cannot_be_refused() -> None:
    """001: "bagefter vendes kattens kort ét ad gangen. Melderen kan tage det vendte korts kulør som trumf eller
    vende det næste. Det tredje kort kan ikke afvises." """
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="5H 8D 9C"), "8 vip"), "call AD")
    assert game.view(1).turned == tuple(parse_cards("5H")) and offered(game) == ["accept", "reject"]
    game.apply("reject")
    assert game.view(2).turned == tuple(parse_cards("5H 8D"))
    game.apply("reject")
    assert game.trump == "C" and game.vip_card == 3 and game.phase == "exchange"
    assert "seat 1 must accept kitty card 3" in game.events


def test_vip_an_accepted_joker_means_no_trump() -> None:
    """001: "Er det accepterede kort en joker, spilles der uden trumf."; 000 4.3.2: "Et vildt kort som antages
    betyder at der spilles uden trumf." """
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="5H JK1 9C"), "8 vip"), "call AD", "reject", "accept")
    assert game.trump == "none" and game.vip_card == 2


def test_vip_trump_may_be_the_called_aces_suit() -> None:
    """001: "I vip må trumfen gerne være makker-essets kulør" """
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="6D JK1 9C"), "8 vip"), "call AD", "accept")
    assert (game.trump, game.called) == ("D", 13 * 2 + 12)


def test_thorsen_vip2_the_first_card_cannot_be_accepted() -> None:
    """000 4.3.3: "Vip i 2. gr. / 1. kort / Altid / Kan ikke antages / 2. kort / Kan antages eller afvises"."""
    game = play(won(deal("thorsen", dealer=3, s0=HAND, kitty="5H 9C 7D"), "8 vip2"), "call AD")
    assert game.view(0).turned == tuple(parse_cards("5H 9C")) and "kitty card 1 cannot be accepted" in game.events
    game.apply("accept")
    assert game.trump == "C" and game.vip_card == 2


def test_thorsen_vip3_only_the_third_card_is_trump() -> None:
    """000 4.3.3: "Vip i 3. gr. / 1. kort / Altid / Kan ikke antages / ... / 3. kort / Kan ikke afvises"."""
    game = play(won(deal("thorsen", dealer=3, s0=HAND, kitty="5H 9C 7D"), "8 vip3"), "call AD")
    assert game.trump == "D" and game.vip_card == 3 and game.phase == "exchange"


def vip_with_joiner(kitty: str) -> Game:
    game = play(deal("thorsen", dealer=3, s0=HAND, s1="AC KC", kitty=kitty), "8 vip1", "gå med", "pass", "pass")
    assert game.declarers == (0, 1)
    return game


def test_vip_joiners_name_their_own_partner_card_after_the_declarer() -> None:
    """000 4.3.1: "Spilfører nævner sit makkerkort først, derefter den spiller som er gået med først osv." """
    game = vip_with_joiner("5H 9C 7D")
    assert game.to_act == 0
    game.apply("call AD")
    assert game.to_act == 1 and "call AS" in offered(game)
    game.apply("call AS")
    assert game.view(3).joiner_calls == ((1, parse_card("AS")),)


def test_vip_a_joiner_who_accepts_becomes_declarer() -> None:
    """000 4.3.4: "For hvert vendt kort, skal først spilfører antage eller afvise ...; derefter får den første
    medgænger valget"; "Hvis en af medgængerne antager et kort, bliver denne spilfører." """
    game = play(vip_with_joiner("5H 9C 7D"), "call AD", "call AS")
    assert game.to_act == 0
    game.apply("reject")
    assert game.to_act == 1
    game.apply("accept")
    assert (game.declarers, game.trump, game.called) == ((1,), "H", 12)


def test_vip_with_joiners_only_the_last_joiner_must_accept_the_third_card() -> None:
    """000 4.3.4: "For det tredje kort gælder at kun den sidste medgænger er tvunget til at acceptere dette." """
    game = play(vip_with_joiner("5H 9C 7D"), "call AD", "call AS", "reject", "reject", "reject", "reject")
    assert game.view(0).turned == tuple(parse_cards("5H 9C 7D")) and game.to_act == 0
    assert offered(game) == ["accept", "reject"]
    game.apply("reject")
    assert (game.declarers, game.trump, game.vip_card) == ((1,), "D", 3)


def test_a_king_only_when_holding_all_the_aces_that_may_be_called() -> None:
    """001: "Har melderen selv alle de esser, der kan kaldes, må han kalde en konge i stedet." """
    game = play(won(deal("standard", dealer=3, s0="AS AD AC 2S 3S 4S KH QH JH TH 9H 2D 3D"), "8"), "trump H")
    assert offered(game) == ["call AS", "call AD", "call AC", "call KS", "call KD", "call KC"]
    other = play(won(deal("standard", dealer=3, s0=HAND), "8"), "trump H")
    with pytest.raises(RuleViolation) as info:
        other.apply("call KS")
    assert info.value.rule == "partner_card" and "001_b88eb8000c0a2767.txt" in str(info.value)


def test_thorsen_a_queen_when_holding_all_aces_and_kings() -> None:
    """000 4.2.1: "Hvis spilfører har alle esser og konger i alle valgbare farver, kan spilfører vælge en dame"."""
    game = won(deal("thorsen", dealer=3, s0="AS AH AD AC KS KH KD KC 2S 3S 4S 5S 6S"), "8 sans")
    assert "call QH" in offered(game) and "call JH" not in offered(game)


def test_gruppe2_a_king_needs_all_four_aces() -> None:
    """003 30: "Hvis melderen selv sidder med alle 4 esser, må der meldes til en konge." """
    game = play(won(deal("gruppe2", dealer=3, s0="AS AD AC 2S 3S 4S KH QH JH TH 9H 2D 3D"), "8"), "trump H")
    assert offered(game) == ["call AS", "call AD", "call AC"]


def test_selvmakker_calling_his_own_ace_is_not_told_to_the_others() -> None:
    """001: "Kalder melderen sit eget es, eller ligger det kaldte es i katten, er melderen selvmakker"; 000 4.2.2:
    "Dette må ikke afsløres mundtligt, men ved spil af makkerkortet"."""
    game = play(won(deal("standard", dealer=3, s0=HAND), "8"), "trump H", "call AS")
    assert game.partner is None and all(game.view(seat).partner is None for seat in range(4))


def test_selvmakker_when_the_called_ace_is_in_the_kitty() -> None:
    """000 4.2.4: "Hvis ingen anden spiller har makkerkortet, hvad enten det skyldes at kortet er på spilførers
    egen hånd eller i katten, er spilleren selvmakker." """
    game = play(won(deal("standard", dealer=3, s0=HAND, kitty="AD 2H 3H"), "8"), "trump H", "call AD", "keep")
    assert game.phase == "play" and game.partner is None


def test_the_partner_is_known_to_the_engine_but_not_shown_before_the_card_is_played() -> None:
    game = play(won(deal("standard", dealer=3, s0=HAND, s2="AD"), "8"), "trump H", "call AD", "keep")
    assert game.partner == 2 and game.phase == "play"
    assert all(game.view(seat).partner is None for seat in range(4))


def test_sol_has_no_declaration() -> None:
    """000 4.4: "Der er ingen erklæring i solspil. Der spilles uden trumf." """
    game = won(deal("standard", dealer=3), "sol")
    assert game.phase == "exchange" and game.trump == "none" and game.called is None


def test_gruppe2_alm_trump_is_hearts_spades_or_diamonds() -> None:
    """003 26: "Almindelige: Der vælges valgfri mellem hjerter, spar eller ruder." """
    assert offered(won(deal("gruppe2", dealer=3, s0=HAND), "8")) == ["trump H", "trump S", "trump D"]


def test_gruppe2_halve_partner_names_trump_or_no_trump() -> None:
    """003 28: "Makkeren bestemmer derefter trumf, der må dog ikke vælges samme farve som makker-esset. Makkeren må
    også melde uden trumf." """
    game = play(won(deal("gruppe2", dealer=3, s0=HAND, s3="AC"), "9 halve"), "call AC")
    assert game.to_act == 3 and offered(game) == ["trump S", "trump H", "trump D", "trump none"]
