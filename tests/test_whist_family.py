"""The whist family of 002 on the one engine: engelsk whist, dansk whist, and the es-makker designations
stærke and dobbelt bordlægger. One test per rule sentence, quoting 002_299b3a88b3c291e8.txt (and the public
pages the rulesets cite where 002 is silent), with hand-built deals played through the engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction as F

import pytest

from regelmotor.cards import Card, parse_card
from regelmotor.engine.game import Game
from regelmotor.hooks import ContractInfo
from regelmotor.records import Record, game_record, replay
from regelmotor.session import Session

from .conftest import offered, rules_of

RANKS = "AKQJT98765432"


def suit(letter: str, ranks: str = RANKS) -> list[Card]:
    return [parse_card(f"{rank}{letter}") for rank in ranks]


def play_out(game: Game, choose: Callable[[Game, list[str]], str] | None = None) -> None:
    """Play to the end: ``choose`` picks each action (default: the first legal one)."""
    for _ in range(400):
        if game.to_act is None:
            return
        legal = offered(game)
        game.apply(choose(game, legal) if choose else legal[0])
    raise AssertionError("the deal did not end")


# --- engelsk whist ------------------------------------------------------------------------------


def test_engelsk_is_played_with_52_cards_without_joker_13_to_each() -> None:
    """002: "Der spilles med 52 kort uden joker. Hver spiller får 13 kort." """
    game = Game.from_seed(rules_of("engelsk"), 1)
    assert [len(hand) for hand in game.hands] == [13, 13, 13, 13] and game.kitty == []
    assert sorted(game.cards_in_play()) == list(range(52))


def test_the_dealers_last_card_is_turned_and_its_suit_is_trump() -> None:
    """002: "I engelsk whist lægges giverens sidste kort på bordet med billedsiden op. Dette korts farve er
    trumf i spillet." The dealer (seat 3) holds twelve spades and, dealt last, the seven of hearts."""
    rules = rules_of("engelsk")
    dealer_hand = [*suit("S", "AKQJT98765432"[:12]), parse_card("7H")]
    hands = [[parse_card("2S"), *suit("H", "AKQJT98654 32".replace(" ", ""))], suit("D"), suit("C"), dealer_hand]
    game = Game(rules, hands, [], dealer=3)
    assert game.trump == "H" and game.trump_card == parse_card("7H")
    assert all(game.view(seat).trump_card == parse_card("7H") for seat in range(4))  # face up: every seat sees it
    # the same cards with the seven dealt first: the last card is a spade, and spades are trump
    first = Game(rules, [*hands[:3], [parse_card("7H"), *dealer_hand[:12]]], [], dealer=3)
    assert first.trump == "S"
    # a record keeps the hands in the order dealt, so it replays to the same trump (hands[dealer][-1])
    record = Record.model_validate(game_record(game, "engelsk"))
    assert record.hands[3][-1] == "7H" and replay(record).game.trump == "H"


def test_there_is_no_bidding_and_forhaand_leads_to_the_first_trick() -> None:
    """002: "Engelsk whist: 52 kort, trumf bestemmes af giverens sidste kort." and "Forhånden spiller ud til
    første stik." """
    game = Game.from_seed(rules_of("engelsk"), 7, dealer=1)
    assert game.phase == "play" and game.calls == [] and game.contract == "whist"
    assert game.to_act == 2  # forhånd: the player to the dealer's left
    assert len(rules_of("engelsk").auction.ladder) == 0


def test_the_pair_with_most_tricks_gets_one_point_per_trick_over_the_book() -> None:
    """002: "I engelsk whist tæller de første 6 stik ikke som point. De kaldes ofte “bogen”." and "Det par, der
    vinder flest stik, får 1 point pr. stik udover de første 6 stik." The dealer holds every club (the last
    one turned: clubs are trump); the others each hold one suit, so he trumps the first trick and wins all."""
    game = Game(rules_of("engelsk"), [suit("S"), suit("H"), suit("D"), suit("C")], [], dealer=3)
    play_out(game)
    assert game.trump == "C" and game.tricks_won == [0, 0, 0, 13]
    assert game.scores == [0, 7, 0, 7]  # seats 1 and 3, partners across the table, 13 - 6 each; the others none
    assert replay(Record.model_validate(game_record(game, "engelsk"))).game.scores == game.scores


def test_partners_sit_across_the_table() -> None:
    """da.wikipedia.org/wiki/Whist (cited by engelsk.yaml): "Makkerne i de to par placeres overfor hinanden." """
    scores = rules_of("engelsk").scoring.settle(
        ContractInfo(rules_of("engelsk").contract_bid("whist"), ()), [3, 2, 5, 3], 0, 0
    )
    assert scores == [2, 0, 2, 0]  # seats 0 and 2 took 8: two over the book


def test_a_game_is_played_until_a_pair_reaches_5_points() -> None:
    """002: "Der spilles typisk flere spil, indtil et makkerpar når 5 point." """
    session = Session(rules_of("engelsk"), ["A", "B", "C", "D"])
    first = session.enter([F(3), F(0), F(3), F(0)])  # dealer A: seats 0-3 are B, C, D, A
    assert first.game_won_by == () and session.game_totals == [0, 3, 0, 3]
    second = session.enter([F(0), F(2), F(0), F(2)])  # dealer B: seats 0-3 are C, D, A, B
    assert second.game_won_by == (1, 3) and session.games_won == [0, 1, 0, 1]  # B and D reach 5
    assert session.game_totals == [0, 0, 0, 0] and session.totals == [0, 5, 0, 5]  # a new game begins


def test_only_the_pair_that_wins_a_deal_scores_towards_the_game() -> None:
    """002: "Det par, der vinder flest stik, får 1 point pr. stik udover de første 6 stik … indtil et makkerpar
    når 5 point." The issue's case: after 9, 8 (the other pair) and 9 tricks the first pair has 6 points and has
    won; the other pair's 8 tricks take nothing from them."""
    session = Session(rules_of("engelsk"), ["A", "B", "C", "D"])
    session.enter([F(0), F(3), F(0), F(3)])  # dealer A: seats 0-3 are B, C, D, A; C and A take 9
    session.enter([F(0), F(2), F(0), F(2)])  # dealer B: seats 0-3 are C, D, A, B; D and B take 8
    assert session.game_totals == [3, 2, 3, 2]
    third = session.enter([F(0), F(3), F(0), F(3)])  # dealer C: seats 0-3 are D, A, B, C; A and C take 9
    assert third.game_won_by == (0, 2) and session.games_won == [1, 0, 1, 0]  # A and C have 6: the game is won
    assert session.totals == [6, 2, 6, 2]  # only what each pair won: 002 scores the winners alone


# --- dansk whist --------------------------------------------------------------------------------


def test_dansk_bids_are_grandi_sol_grand_and_nolo_nolo_lowest() -> None:
    """002: "Dansk whist: uden trumf, med meldinger (grandi, sol, grand, nolo) samt pasnolo."; terningekast.dk:
    "Grandi er den højeste melding og nolo er det laveste." """
    assert rules_of("dansk").auction.ladder.describe() == "nolo < grand < sol < grandi"


def test_dansk_whist_is_played_without_trump() -> None:
    """002: "Dansk whist spilles uden trumf." """
    rules = rules_of("dansk")
    for bid in (*rules.auction.ladder.bids, rules.contract_bid("pasnolo")):
        assert rules.declaration.plan(ContractInfo(bid, (0,) if bid.rank >= 0 else ())).trump == "none"


def test_if_all_pass_pasnolo_is_played_each_for_himself() -> None:
    """002: "Hvis alle spillere passer, spilles der en pasnolo." and "I pasnolo spiller alle for sig selv og
    forsøger at få færrest mulige stik." """
    game = Game.from_seed(rules_of("dansk"), 11, dealer=3)
    for _ in range(4):
        game.apply("pass")
    assert game.phase == "play" and game.contract == "pasnolo" and game.declarers == ()
    assert game.to_act == 0 and game.partner is None


def test_the_winner_of_pasnolo_has_the_fewest_tricks() -> None:
    """002: "Vinderen i pasnolo er spilleren med færrest stik, når alle stik er spillet." """
    rules = rules_of("dansk")
    pasnolo = rules.contract_bid("pasnolo")
    assert rules.scoring.settle(ContractInfo(pasnolo, ()), [1, 4, 4, 4], 0, 0) == [3, -1, -1, -1]
    assert rules.scoring.settle(ContractInfo(pasnolo, ()), [2, 2, 4, 5], 0, 0) == [2, 2, -2, -2]  # two share it


def test_grandi_the_declarer_leads_and_must_take_the_first_seven_tricks() -> None:
    """002: "Hvis der er meldt grandi, har melderen udspil." and "Melderen har udspil og skal tage de 7 første
    stik." Seat 1 holds every spade, bids grandi and leads them: play ends when the seventh is taken."""
    game = Game(rules_of("dansk"), [suit("H"), suit("S"), suit("D"), suit("C")], [], dealer=3)
    for call in ("pass", "grandi", "pass", "pass"):
        game.apply(call)
    assert game.declarers == (1,) and game.to_act == 1  # the declarer leads, not forhånd (seat 0)
    play_out(game)
    assert len(game.tricks) == 7 and game.tricks_won == [0, 7, 0, 0]
    assert game.scores == [-4, 12, -4, -4]
    again = replay(Record.model_validate(game_record(game, "dansk"))).game  # the record replays the same
    assert again.tricks == game.tricks and again.scores == game.scores


def test_grandi_ends_when_a_trick_of_the_first_seven_is_lost() -> None:
    """002: "skal tage de 7 første stik": the declarer (seat 1) leads his low hearts into seat 0's high ones,
    loses the first trick, and the game is lost at once."""
    hands = [suit("H", "AKQJT98"), [*suit("H", "765432"), *suit("S", "AKQJT98")], suit("D"), suit("C")]
    hands[0] += suit("S", "765432")
    game = Game(rules_of("dansk"), hands, [], dealer=3)
    for call in ("pass", "grandi", "pass", "pass"):
        game.apply(call)
    game.apply("2H")  # the declarer leads a low heart
    play_out(game)
    assert len(game.tricks) == 1 and game.tricks_won == [1, 0, 0, 0]
    assert game.phase == "finished" and game.scores == [4, -12, 4, 4]
    assert replay(Record.model_validate(game_record(game, "dansk"))).game.scores == game.scores


def test_sol_the_declarer_alone_may_take_at_most_one_trick_ace_low() -> None:
    """002: "Melderen spiller alene og må højst tage 1 stik."; terningekast.dk: "Solo-nolo ... Es er lavest" """
    rules = rules_of("dansk")
    assert (
        rules.scoring.scorer.score_sol("sol", 1).declarer == 9
        and rules.scoring.scorer.score_sol("sol", 2).declarer == -9
    )
    ace, king = parse_card("AS"), parse_card("KS")
    sol = rules.contract_bid("sol")
    plan = rules.declaration.plan(ContractInfo(sol, (0,)))
    assert plan.sol_order is True and plan.partner is None  # the partner plays against him too
    assert rules.play.trick_winner([ace, king, parse_card("2S"), parse_card("3S")], None, True, None) == 1


def test_grand_the_declarer_with_his_partner_takes_at_least_seven_ace_high() -> None:
    """002: "Melderen skal sammen med sin makker tage mindst 7 stik."; terningekast.dk: "Grand ... Es er
    højest." """
    rules = rules_of("dansk")
    grand = rules.contract_bid("grand")
    plan = rules.declaration.plan(ContractInfo(grand, (1,)))
    assert plan.partner == 3 and plan.sol_order is False  # his partner across the table; the ace high
    assert rules.scoring.settle(ContractInfo(grand, (1,), 3), [3, 4, 3, 3], 0, 0) == [-2, 2, -2, 2]  # 4 + 3 = 7
    assert rules.scoring.settle(ContractInfo(grand, (1,), 3), [4, 4, 3, 2], 0, 0) == [2, -2, 2, -2]  # 6: lost


def test_nolo_the_declarer_with_his_partner_takes_at_most_six() -> None:
    """002: "Melderen skal sammen med sin makker tage højst 6 stik." """
    rules = rules_of("dansk")
    nolo = rules.contract_bid("nolo")
    assert rules.scoring.settle(ContractInfo(nolo, (0,), 2), [3, 4, 3, 3], 0, 0) == [1, -1, 1, -1]
    assert rules.scoring.settle(ContractInfo(nolo, (0,), 2), [4, 3, 3, 3], 0, 0) == [-1, 1, -1, 1]  # 7: lost


def test_the_player_after_the_dealer_leads_unless_grandi() -> None:
    """002: "Som udgangspunkt er det spilleren efter kortgiveren, der har udspillet." """
    game = Game(rules_of("dansk"), [suit("H"), suit("S"), suit("D"), suit("C")], [], dealer=3)
    for call in ("pass", "grand", "pass", "pass"):
        game.apply(call)
    assert game.declarers == (1,) and game.to_act == 0 and game.partner == 3


def test_dansk_scoring_is_zero_sum() -> None:
    """002: "I dansk whist er regnskabet et nulsumsspil: det, vinderne får, trækkes tilsvarende fra taberne, så
    summen altid er 0." """
    games = list(rules_of("dansk").scoring.scorer.every_game())
    assert len(games) > 30 and all(scores.total == 0 for _, _, scores in games)


# --- es-makker whist designations that 002 names ------------------------------------------------


def test_staerke_spades_are_trump() -> None:
    """002: "En melding kan have påhæng ... Eksempler: kvarte, gode (klør), stærke (spar), sans (uden trumf),
    halve og vip." """
    rules = rules_of("standard", "staerke")
    bid = rules.auction.ladder.parse("8 staerke")
    assert bid.text == "8 stærke" and bid.rank == rules.auction.ladder.parse("8 gode").rank  # as high as gode
    assert rules.declaration.plan(ContractInfo(bid, (0,))).trump == "S"
    game = Game.from_seed(rules, 5)
    while game.phase == "auction":
        game.apply("8 stærke" if "8 stærke" in offered(game) else "pass")
    assert game.contract == "8 stærke" and game.trump == "S"


def test_dobbelt_bordlaegger_is_the_sol_bid_above_ren_bordlaegger() -> None:
    """002: "Nolo-meldinger spilles uden makker og uden trumf. Typerne er: sol, ren sol, bordlægger, ren
    bordlægger (og i nogle grupper dobbelt bordlægger)." """
    rules = rules_of("standard", "dobbelt-bordlaegger")
    dobbelt = rules.auction.ladder.parse("dobbelt bordlægger")
    assert dobbelt.rank == rules.auction.ladder.parse("ren bordlægger").rank + 1
    assert rules.play.open_hands(ContractInfo(dobbelt, (0,)), "after_first_lead") == (0,)
    assert rules.scoring.scorer.score_sol("dobbelt bordlægger", 0).declarer == 3 * 400


# --- the commands on the new games ---------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from regelmotor.cli import main

    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_diff_standard_dansk_starts_with_the_game_and_names_the_bids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "diff", "standard", "dansk")
    lines = out.splitlines()
    assert code == 0 and lines[1] == "## Kort og spillere"
    assert lines[2].startswith("- Hvilket spil reglesættet er en udgave af (game)")
    assert "    dansk: dansk" in lines[4] and "partnerships" in out and "sol_bids[grandi]" in out
    assert "ingen stikbud" in out  # dansk has no trick bids: said, not left blank


def test_rulesets_are_grouped_by_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The whist family issue: "`regelmotor rulesets` and the README group the shipped rulesets by game"."""
    out = _run(capsys, "rulesets")[1]
    assert out.index("Es-makker whist:") < out.index("    standard") < out.index("Engelsk whist:")
    assert out.index("Engelsk whist:") < out.index("    engelsk") and out.index("Dansk whist:") < out.index("    dansk")


def test_simulate_match_and_compare_play_the_new_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--bots", "heuristic", "dansk", "--deals", "40", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["deals"] == 40
    code, out, _ = _run(capsys, "simulate", "--bots", "heuristic", "engelsk", "--deals", "20")
    assert code == 0 and "whist" in out and "ingen melder" in out  # engelsk whist has no declarer to "make" it
    assert _run(capsys, "match", "heuristic", "random", "dansk", "--deals", "10")[0] == 0
    code, out, _ = _run(capsys, "compare", "dansk", "engelsk", "--deals", "12")  # the expert by default
    assert code == 0 and "n=12" in out


def test_score_prints_a_pasnolo_and_an_engelsk_whist(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "score", "dansk", "--contract", "pasnolo", "--tricks", "2,4,3,4", "--json")
    assert code == 0 and json.loads(out) == {"tricks": [2, 4, 3, 4], "points": [3, -1, -1, -1], "sum": 0}
    code, out, _ = _run(capsys, "score", "engelsk", "--contract", "whist", "--tricks", "9")
    assert code == 0 and "vinder      +3  (hver af 2)" in out
    code, _, err = _run(capsys, "score", "engelsk", "--contract", "whist", "--tricks", "5")
    assert code == 1 and "det vindende par tog" in err


def test_a_partner_contract_is_scored_by_the_declarers_own_side(club: Callable[..., str]) -> None:
    """A club pays grand by the side's tricks, made or failed (V * (T + 1) * D * Q): seat 1 declares, so the side is
    seats 1 and 3, whatever the seat (a scoring that is not symmetric between the sides shows whose tricks count)."""
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    path = club(
        "klub.yaml",
        """
        extends: dansk
        name: klub
        source: "inferred: a test club"
        scoring:
          tables:
            Q:
              key: bid
              values: {nolo: 1, grand: 1, sol: 1, grandi: 1, pasnolo: 0}
          sol:
            formula: V * (T + 1) * D * Q
            source: "inferred: a test club pays the side's tricks and one (pasnolo nothing)"
        """,
    )
    rules = compile_rules(load_ruleset(path))
    grand = rules.contract_bid("grand")
    assert rules.scoring.settle(ContractInfo(grand, (1,), 3), [3, 4, 3, 3], 0, 0) == [-8, 8, -8, 8]  # 7 tricks: made
    assert rules.scoring.settle(ContractInfo(grand, (0,), 2), [3, 4, 3, 3], 0, 0) == [-7, 7, -7, 7]  # 6 tricks: failed


def test_trump_from_the_dealers_card_needs_the_dealer_at_the_table(club: Callable[..., str]) -> None:
    """A club that plays engelsk whist five to a table, the dealer sitting out, has no dealer's card to turn:
    said at the rule, not played with another card."""
    from regelmotor.ruleset.validate import validate_file

    path = club(
        "fem.yaml",
        """
        extends: engelsk
        name: fem
        source: "inferred: a test club"
        table:
          players: [4, 5]
          sitting_out:
            - players: 5
              seats: [dealer]
        """,
    )
    problems = [str(p) for p in validate_file(path)]
    assert len(problems) == 1 and "no dealer's last card to turn" in problems[0]
    assert "all_pass.contract.trump" in problems[0]


def test_a_designation_ranked_by_name_must_name_one_and_agree_with_its_tier(club: Callable[..., str]) -> None:
    from regelmotor.ruleset.validate import validate_file

    path = club(
        "k.yaml",
        """
        extends: standard
        name: k
        source: "inferred: a test club"
        designations:
          - {id: alm, display: "", tier: 0, trump: {by: declarer, choices: [S, H, D]}, call: {suits: not_trump}}
          - id: spar
            display: spar
            same_rank_as: goode
            trump: {by: fixed, choices: [S]}
            call: {suits: not_trump}
          - id: klor
            display: klør
            tier: 2
            same_rank_as: alm
            trump: {by: fixed, choices: [C]}
            call: {suits: not_trump}
        scoring:
          tables:
            B: {key: bid, values: {alm: 1, spar: 2, klor: 2}}
        """,
    )
    problems = [str(p) for p in validate_file(path)]
    assert any('designations[2].same_rank_as: "goode" is not a designation of this ruleset' in p for p in problems)
    assert any('designations[3].tier: tier 2 and same_rank_as "alm" (tier 0) disagree' in p for p in problems)


def test_a_club_may_play_dansk_whist_in_games_to_13(club: Callable[..., str]) -> None:
    """terningekast.dk/whist: dansk whist is played until "det par der først når til 13 points" (dansk.yaml leaves
    it out: its points are inferred); a club that plays so writes ``session.game_to: 13``, and as in engelsk only
    the points a deal wins count towards the game."""
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    path = club(
        "tretten.yaml",
        """
        extends: dansk
        name: tretten
        source: "klubbens regler"
        session:
          whole_rounds: false
          game_to: 13
          source: 'terningekast.dk/whist: "det par der først når til 13 points"'
        """,
    )
    session = Session(compile_rules(load_ruleset(path)), ["A", "B", "C", "D"])
    for _ in range(2):  # B and D win 6 twice (they sit at seats 0 and 2, then 3 and 1)
        entry = session.enter([F(6), F(-6), F(6), F(-6)] if not session.deals else [F(-6), F(6), F(-6), F(6)])
        assert entry.game_won_by == ()
    assert session.game_totals == [0, 12, 0, 12]
    won = session.enter([F(-1), F(1), F(-1), F(1)])  # dealer C: seats 0-3 are D, A, B, C; A and C win 1
    assert won.game_won_by == () and session.game_totals == [1, 12, 1, 12]
    last = session.enter([F(-1), F(1), F(-1), F(1)])  # dealer D: seats 0-3 are A, B, C, D; B and D win 1: 13
    assert last.game_won_by == (1, 3) and session.games_won == [0, 1, 0, 1] and session.game_totals == [0] * 4
    assert session.totals == [-12, 12, -12, 12]  # the evening's sum stays square: A and C's losses count there
