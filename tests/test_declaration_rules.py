"""Declaration: trump and partner card per designation; vip turning by degree (000 4; 001; 003)."""

from __future__ import annotations

import pytest

from regelmotor.cards import format_card, parse_card, parse_cards
from regelmotor.hooks import PARTNER, ContractInfo, DeclarationPlan

from .conftest import rules_of


def calls(name: str, hand: str, designation: str, trump: str | None) -> list[str]:
    rules = rules_of(name)
    return [format_card(c) for c in rules.declaration.call_choices(parse_cards(hand), designation, trump)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "designation", "steps"),
    [
        ("standard", "alm", (("trump", 0), ("call", 0))),
        ("standard", "gode", (("call", 0),)),
        ("standard", "vip", (("call", 0), ("kitty", 0))),
        ("standard", "halve", (("call", 0), ("reveal", PARTNER), ("trump", PARTNER))),
        ("thorsen", "vip3", (("call", 0), ("kitty", 0))),
        ("gruppe2", "gode", (("trump", 0), ("call", 0))),
    ],
)
def test_declaration_steps_follow_who_names_trump(name: str, designation: str, steps: tuple[object, ...]) -> None:
    """000 4.1.1: "Ingen (alm.) 1. Spilfører nævner trumfbenævnelse ... 2. Spilfører nævner makkerkort";
    "Halve 1. Spilfører nævner makkerkort ... 2. Spilførers makker nævner trumfbenævnelse"."""
    rules = rules_of(name)
    plan = rules.declaration.plan(ContractInfo(rules.auction.ladder.parse(f"8 {designation}"), (0,)))
    assert plan.steps == steps


def test_in_vip_each_joiner_names_his_own_card_too() -> None:
    """000 4.3.1: "Spilfører nævner sit makkerkort først, derefter den spiller som er gået med først osv." """
    rules = rules_of("thorsen", "gaa-med")
    plan = rules.declaration.plan(ContractInfo(rules.auction.ladder.parse("8 vip1"), (0, 2)))
    assert plan.steps == (("call", 0), ("call", 2), ("kitty", 0))


def test_there_is_no_declaration_in_sol_and_no_trump() -> None:
    """000 4.4: "Der er ingen erklæring i solspil. Der spilles uden trumf." """
    rules = rules_of("standard")
    plan = rules.declaration.plan(ContractInfo(rules.auction.ladder.parse("sol"), (0,)))
    assert plan == DeclarationPlan((), "none", sol_order=True)  # the cards rank in the sol order


def test_thorsen_alm_trump_is_diamonds_spades_or_hearts() -> None:
    """000 4.1.1: "Ingen (alm.) ... Ruder, spar eller hjerter"."""
    assert rules_of("thorsen").declaration.trump_choices("alm", None) == ("D", "S", "H")


def test_gode_is_clubs() -> None:
    """001: "Gode: klør er trumf"; 000 4.1.1 "Gode ... Klør"."""
    assert rules_of("standard").declaration.trump_choices("gode", None) == ("C",)
    assert rules_of("thorsen").declaration.trump_choices("gode", None) == ("C",)


def test_gruppe2_gode_is_clubs_or_no_trump() -> None:
    """003 27: "Gode: Der spilles med klør som trumf eller uden trumf (sans)." """
    assert rules_of("gruppe2").declaration.trump_choices("gode", None) == ("C", "none")


def test_sans_is_no_trump() -> None:
    """001: "Sans: der spilles uden trumf"."""
    assert rules_of("standard").declaration.trump_choices("sans", None) == ("none",)


def test_halve_partner_names_trump_but_not_the_called_suit() -> None:
    """001: "den, der har esset, giver sig til kende og vælger trumf (ikke essets kulør)"."""
    assert rules_of("standard").declaration.trump_choices("halve", parse_card("AH")) == ("S", "D", "C")


def test_thorsen_halve_includes_no_trump() -> None:
    """000 4.1.1: "Halve ... Alle benævnelser undtagen makkerkortets farve" (uden trumf is a benævnelse)."""
    assert rules_of("thorsen").declaration.trump_choices("halve", parse_card("AS")) == ("H", "D", "C", "none")


def test_gruppe2_halve_partner_may_name_no_trump() -> None:
    """003 28: "der må dog ikke vælges samme farve som makker-esset. Makkeren må også melde uden trumf." """
    assert rules_of("gruppe2").declaration.trump_choices("halve", parse_card("AD")) == ("S", "H", "C", "none")


def test_in_alm_the_called_ace_is_not_of_the_trump_suit() -> None:
    """001: "kalder derefter et es i en anden kulør end trumf"."""
    assert calls("standard", "2S 3S", "alm", "H") == ["AS", "AD", "AC"]


def test_in_vip_the_called_ace_may_be_of_any_suit() -> None:
    """001: "I vip må trumfen gerne være makker-essets kulør"."""
    assert calls("standard", "2S", "vip", None) == ["AS", "AH", "AD", "AC"]


def test_the_declarer_may_call_his_own_ace() -> None:
    """001: "Må man kalde sit eget es? Ja. Så er man selvmakker og spiller alene." """
    assert "AS" in calls("standard", "AS 2H", "alm", "H")


def test_a_king_only_when_holding_every_ace_that_can_be_called() -> None:
    """001: "Har melderen selv alle de esser, der kan kaldes, må han kalde en konge i stedet." """
    assert calls("standard", "AS AD 2C", "alm", "H") == ["AS", "AD", "AC"]
    assert calls("standard", "AS AD AC", "alm", "H") == ["AS", "AD", "AC", "KS", "KD", "KC"]


def test_thorsen_goes_on_down_the_ranks() -> None:
    """000 4.2.1: "Hvis spilfører har alle esser og konger i alle valgbare farver, kan spilfører vælge en dame
    i en valgbar farve som makkerkort osv." """
    hand = "AS AH AD AC KS KH KD KC"
    assert calls("thorsen", hand, "sans", "none")[-4:] == ["QS", "QH", "QD", "QC"]
    assert "JS" not in calls("thorsen", hand, "sans", "none")


def test_gruppe2_needs_all_four_aces_for_a_king() -> None:
    """003 30: "Hvis melderen selv sidder med alle 4 esser, må der meldes til en konge." """
    assert calls("gruppe2", "AS AD AC", "alm", "H") == ["AS", "AD", "AC"]
    assert calls("gruppe2", "AS AH AD AC", "alm", "H")[-3:] == ["KS", "KD", "KC"]


@pytest.mark.parametrize(
    ("name", "designation", "turns"),
    [
        ("standard", "vip", ["may_accept", "may_accept", "must_accept"]),
        ("thorsen", "vip1", ["may_accept", "may_accept", "must_accept"]),
        ("thorsen", "vip2", ["cannot_accept", "may_accept", "must_accept"]),
        ("thorsen", "vip3", ["cannot_accept", "cannot_accept", "must_accept"]),
    ],
)
def test_vip_turning_by_degree(name: str, designation: str, turns: list[str]) -> None:
    """001: "Melderen kan tage det vendte korts kulør som trumf eller vende det næste. Det tredje kort kan ikke
    afvises."; 000 4.3.3: "Vip i 2. gr. / 1. kort / Altid / Kan ikke antages / 2. kort / Kan antages eller
    afvises / 3. kort / Hvis 2. kort afvises / Kan ikke afvises"; "Vip i 3. gr. / 1. kort / Altid / Kan ikke antages"."""
    rules = rules_of(name)
    kitty = parse_cards("9S 8H 7D")
    assert [rules.declaration.vip(designation, kitty[:n]).turn for n in (1, 2, 3)] == turns


def test_an_accepted_card_makes_its_suit_trump_and_a_joker_no_trump() -> None:
    """000 4.3.2: "Et almindeligt kort som antages, gør det antagne korts farve til trumffarve. Et vildt kort
    som antages betyder at der spilles uden trumf." """
    rules = rules_of("standard")
    assert rules.declaration.vip("vip", parse_cards("9H")).accepts == (("accept", "H"),)
    assert rules.declaration.vip("vip", parse_cards("9H JK1")).accepts == (("accept", "none"),)


def test_only_a_vip_designation_turns_the_kitty() -> None:
    with pytest.raises(ValueError, match="alm does not turn the kitty"):
        rules_of("standard").declaration.vip("alm", parse_cards("9S"))
