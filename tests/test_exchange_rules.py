"""Who exchanges with the kitty, how many cards, and whether they must (001; 000 5; WK; 003)."""

from __future__ import annotations

from regelmotor.hooks import ContractInfo

from .conftest import rules_of


def plan(name: str, bid: str, declarers: tuple[int, ...], partner: int | None = None, *house: str):  # type: ignore[no-untyped-def]
    rules = rules_of(name, *house)
    return rules.exchange.plan(ContractInfo(rules.auction.ladder.parse(bid), declarers, partner))


def test_standard_declarer_exchanges_all_three_or_none() -> None:
    """001: "Man bytter alle tre eller ingen." """
    p = plan("standard", "8", (2,))
    assert [(t.seat, t.counts, t.compulsory) for t in p.turns] == [(2, (0, 3), False)]
    assert not p.called_card_may_be_discarded  # 001: "Makker-esset må ikke lægges i katten."


def test_standard_vip_exchange_is_compulsory() -> None:
    """001: "I vip skal der byttes"."""
    assert plan("standard", "8 vip", (2,)).turns[0].compulsory


def test_in_halve_the_partner_exchanges() -> None:
    """001: "I halve er det makkeren, der bytter"; 000 5.1.1: "eller spilførers makker hvis betegnelsen er
    halve"."""
    assert plan("standard", "9 halve", (2,), 0).turns[0].seat == 0
    assert plan("thorsen", "9 halve", (2,), 0).turns[0].seat == 0


def test_thorsen_vip_exchange_is_optional() -> None:
    """000 5.1.1: "Bytning er valgfri." """
    assert not plan("thorsen", "8 vip1", (2,)).turns[0].compulsory


def test_thorsen_sol_declarers_exchange_in_bidding_order_and_discards_become_the_kitty() -> None:
    """000 5.2.3: "den der meldte sol, bytter først, dernæst første medgænger osv."; 5.2.4: "De tre afkastede
    kort bliver ny kat"."""
    p = plan("thorsen", "sol", (1, 3, 0))
    assert [t.seat for t in p.turns] == [1, 3, 0] and p.discards_become_kitty


def test_whistklubben_exchanges_0_to_3_passing_on_clockwise_last_joiner_first() -> None:
    """WK (rules-matrix.md section 5): "declarer exchanges 0–3 cards; kitty cards he leaves pass to the next
    player clockwise ... in sol with joiners the last joiner exchanges first"."""
    assert plan("whistklubben", "8", (2,)).turns[0].counts == (0, 1, 2, 3)
    assert plan("whistklubben", "8", (2,)).leftover_passes_clockwise
    assert [t.seat for t in plan("whistklubben", "sol", (1, 3, 0)).turns] == [0, 3, 1]


def test_gruppe2_has_no_exchange() -> None:
    """003 4: 13 cards to each of four players leave no kitty."""
    assert plan("gruppe2", "8", (2,)).turns == ()


def test_standard_sol_declarer_may_exchange() -> None:
    """001: "i solmeldingerne må melderen også bytte"."""
    assert [t.seat for t in plan("standard", "ren sol", (3,)).turns] == [3]
