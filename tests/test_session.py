"""Sessions: 4 to 6 players, who sits out, who deals, whole rounds, misdeal penalties, totals and money."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from regelmotor.engine.game import Game
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.session import Session, SessionError

from .conftest import offered, rules_of


def finish(game: Game, rng: random.Random) -> Game:
    while game.step is not None:
        legal = offered(game)
        game.apply("pass" if "pass" in legal and rng.random() < 0.4 else rng.choice(legal))
    return game


def test_standard_is_played_by_four() -> None:
    """001: "Es-makker whist spilles af fire spillere"."""
    with pytest.raises(SessionError, match=r"standard is played by 4 players, not 5 \(table.players\)"):
        Session(rules_of("standard"), list("ABCDE"))


def test_at_five_the_dealer_sits_out() -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke." """
    session = Session(rules_of("thorsen"), list("ABCDE"), first_dealer=2)
    assert session.sitting_out() == (2,) and session.seating() == (3, 4, 0, 1)


def test_at_six_the_dealer_and_the_player_to_his_right_sit_out() -> None:
    """000 2.1: "Hvis der er seks spillere, deltager kortgiveren og en anden spiller (fx spilleren efter
    kortgiveren i retning mod uret) ikke." """
    session = Session(rules_of("thorsen"), list("ABCDEF"), first_dealer=0)
    assert session.sitting_out() == (0, 5) and session.seating() == (1, 2, 3, 4)


def test_at_four_the_dealer_plays_last_and_forhaand_first() -> None:
    """001: "Giveren skifter med uret efter hvert spil, og spilleren til venstre for giveren kaldes forhånden." """
    session = Session(rules_of("standard"), list("ABCD"), first_dealer=1)
    assert session.seating() == (2, 3, 0, 1)


def test_the_deal_passes_clockwise_and_totals_sum_to_zero() -> None:
    """000 2.1: "Det næste spil gives af den næste spiller i tur."; 7.1.2: "summen af spillernes scorer være nul"."""
    rng = random.Random(3)
    session = Session(rules_of("thorsen"), list("ABCDEF"))
    for number in range(30):
        dealer = session.dealer
        game = finish(session.new_game(seed=number), rng)
        entry = session.record(game)
        assert entry.dealer == dealer and sum(entry.points) == 0 and sum(session.totals) == 0
        assert all(entry.points[p] == 0 for p in range(6) if p not in entry.seating)
        if game.phase == "finished" or (game.redeal and game.redeal.reason == "all_pass"):
            assert session.dealer == (dealer + 1) % 6  # 000 3.9: after all pass, the next player deals
    assert len(session.deals) == 30


def test_standard_all_pass_is_dealt_again_by_the_same_dealer() -> None:
    session = Session(rules_of("standard"), list("ABCD"), first_dealer=2)
    game = session.new_game(seed=1)
    for _ in range(4):
        game.apply("pass")
    session.record(game)
    assert session.dealer == 2 and session.totals == [0, 0, 0, 0]


def test_thorsen_plays_whole_rounds() -> None:
    """000: "Session – En enhed som omfatter et helt antal runder"; "Runde – ... et antal spil som svarer til
    antallet af spillere"."""
    rng = random.Random(1)
    session = Session(rules_of("thorsen"), list("ABCDE"))
    seen = set()
    for number in range(12):
        session.record(finish(session.new_game(seed=number), rng))
        assert session.can_end() == (session.rotations % 5 == 0)
        seen.add(session.can_end())
    assert seen == {True, False}
    standard = Session(rules_of("standard"), list("ABCD"))
    standard.record(finish(standard.new_game(seed=1), rng))
    assert standard.can_end()  # standard plays any number of deals


def test_a_misdeal_penalty_goes_to_every_other_player_and_a_culprit_pays_it() -> None:
    """000 2.7: "en strafscore afgives til hver af de øvrige spillere (såfremt en straf er aftalt). Hvis en af de
    øvrige spillere er skyld i fejlen, skal han udrede straffen" """
    ruleset = load_ruleset("thorsen").ruleset
    ruleset = ruleset.model_copy(update={"misdeal": ruleset.misdeal.model_copy(update={"penalty": Fraction(5)})})
    rules = compile_rules(ruleset)
    session = Session(rules, list("ABCDE"), first_dealer=0)
    game = session.new_game(seed=1)
    game.apply("misdeal")
    entry = session.record(game)
    assert entry.points == (-20, 5, 5, 5, 5) and session.dealer == 0  # 2.7: the same dealer deals again
    game = session.new_game(seed=2)
    game.apply("misdeal 1")  # seat 1 is player C
    assert session.record(game).points == (5, 5, -20, 5, 5)


def test_settlement_in_money() -> None:
    rng = random.Random(4)
    session = Session(rules_of("standard"), list("ABCD"))
    for number in range(12):
        session.record(finish(session.new_game(seed=number), rng))
    settled = session.settlement(Fraction(1, 4))
    money, transfers = settled.money, settled.transfers
    assert settled.box == 0 and sum(money) == 0 and money == tuple(t / 4 for t in session.totals)
    paid = [Fraction(0)] * 4
    for t in transfers:
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert tuple(paid) == money


def test_only_a_finished_or_void_deal_is_entered() -> None:
    session = Session(rules_of("standard"), list("ABCD"))
    with pytest.raises(SessionError, match="only a finished or void deal can be entered, not one in auction"):
        session.record(session.new_game(seed=1))


def test_a_deal_is_booked_once() -> None:
    session = Session(rules_of("standard"), list("ABCD"))
    game = finish(session.new_game(seed=1), random.Random(1))
    session.record(game)
    totals = list(session.totals)
    with pytest.raises(SessionError, match="already entered"):
        session.record(game)
    assert session.totals == totals and len(session.deals) == 1


def test_a_decimal_rate_settles_exactly_in_whole_oere_that_sum_to_zero() -> None:
    """0.1 kr. a point is one tenth exactly, and a third of a point's øre goes where the remainders say."""
    session = Session(rules_of("standard"), list("ABCD"))
    session.totals = [Fraction(10, 3), Fraction(10, 3), Fraction(-20, 3), Fraction(0)]
    settled = session.settlement(0.1)
    assert settled.money == (Fraction(34, 100), Fraction(33, 100), Fraction(-67, 100), 0)
    assert sum(settled.money) == 0 and all((m * 100).denominator == 1 for m in settled.money)
    paid = [Fraction(0)] * 4
    for t in settled.transfers:
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert tuple(paid) == settled.money


def test_at_five_players_the_fourth_player_in_the_deal_can_be_at_fault_too() -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke."; 2.7: "Hvis en af de øvrige spillere er
    skyld i fejlen, skal han udrede straffen": with the dealer sitting out, seat 3 is a player like the rest."""
    ruleset = load_ruleset("thorsen").ruleset
    ruleset = ruleset.model_copy(update={"misdeal": ruleset.misdeal.model_copy(update={"penalty": Fraction(5)})})
    session = Session(compile_rules(ruleset), list("ABCDE"), first_dealer=0)
    game = session.new_game(seed=1)
    assert not game.dealer_at_table and "misdeal 3" in offered(game)
    assert session.seating() == (1, 2, 3, 4)  # seat 3 is player E
    game.apply("misdeal 3")
    assert session.record(game).points == (5, 5, 5, 5, -20)
    four = Session(compile_rules(ruleset), list("ABCD"), first_dealer=0)
    assert "misdeal 3" not in offered(four.new_game(seed=1))  # at four, seat 3 is the dealer himself
