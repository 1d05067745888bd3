"""Double-dummy analysis: the solver against DDS and plain minimax, the analysis's own consistency,
and the ``analyse`` and ``simulate --records`` commands.

Issue "Double-dummy analysis": "On engelsk (52 cards, no jokers: bridge's play with a fixed trump)
the solver agrees exactly with DDS through endplay"; "With jokers, on positions of 4 or fewer cards a
hand the solver agrees with a plain exhaustive search written for the test, and every value is
consistent (the best card's value equals the position's value; no cost is negative)."
"""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from regelmotor import play_row
from regelmotor.bots import kernel as K
from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.cards import format_card, new_deck, parse_cards
from regelmotor.cli import main
from regelmotor.double_dummy import position, quick_tricks, transposition
from regelmotor.double_dummy import solver as S
from regelmotor.double_dummy.analysis import Analyser, AnalysisError, analyse_game, sides_of
from regelmotor.double_dummy.table import hand_table, read_hands, table_row
from regelmotor.engine.game import PLAY, Game
from regelmotor.records import game_record

from .conftest import CONFIGS, RULESETS, rules_of
from .test_double_dummy import _late, _minimax
from .test_kernel import _with_plugin

DDS_POSITIONS = 300
"""Positions of 4 to 8 cards a hand, every trump and no trump (the full deals are in the benchmark)."""


def _dds_card(card: object) -> int:
    rank = card.rank.value.bit_length() - 3  # type: ignore[attr-defined]  # endplay's R2 is 1 << 2
    return int(card.suit.value) * 13 + rank  # type: ignore[attr-defined]  # spades, hearts, diamonds, clubs


def test_the_solver_agrees_with_dds_on_every_card_of_engelsk_positions_and_every_trump() -> None:
    endplay = pytest.importorskip("endplay", reason="endplay (DDS) installs from a wheel only on some machines")
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    rules = rules_of("engelsk")
    analyser = Analyser(Game.from_seed(rules, 1), nodes=10**8)
    rng = random.Random("dds")
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, None: Denom.nt}
    trumps = ["S", "H", "D", "C", None]
    for number in range(DDS_POSITIONS):
        deck = new_deck(0)
        rng.shuffle(deck)
        size = rng.randint(4, 8)
        hands = [sorted(deck[13 * s : 13 * s + size]) for s in range(4)]
        trump = trumps[number % 5]
        leader = rng.randrange(4)
        declarer = (leader - 1) % 4
        row = table_row(hands, trump, declarer)
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        pbn = "N:" + " ".join(
            ".".join(
                "".join("23456789TJQKA"[r] for r in range(12, -1, -1) if suit * 13 + r in hand) for suit in range(4)
            )
            for hand in hands
        )
        deal = Deal.from_pbn(pbn)
        deal.first = Player(leader)
        deal.trump = denoms[trump]
        theirs = {_dds_card(card): tricks for card, tricks in solve_board(deal)}  # the leader's side's tricks
        best = analyser.value(row, side, position.MOST)
        assert best == size - max(theirs.values()), f"position {number}: {pbn} {trump} lead {leader}"
        mine = analyser.card_values(row, side, position.MOST, best)
        assert {card: size - tricks for card, tricks in theirs.items()} == mine, f"position {number}: {pbn}"
    assert endplay is not None


def _exact(row: play_row.Rows, consts: play_row.Rows, side: int, wants: int) -> int:
    return _minimax(row, consts, side, wants)


@pytest.mark.parametrize(("configs", "positions", "tricks"), [(CONFIGS, 5, 2), ([(n, None) for n in RULESETS], 4, 3)])
def test_the_solvers_exact_value_is_plain_minimaxs_in_every_game_side_and_seat(
    configs: list[tuple[str, str | None]], positions: int, tricks: int
) -> None:
    rng = random.Random(f"exact {tricks}")
    checked = 0
    for name, house in configs:
        rules = rules_of(name, *((house,) if house else ()))
        kernel = rules.play
        solver = S.Solver(kernel.constants, bits=14)
        for row in K.first_lead_rows(rules, kernel, positions, rng):
            row = _late(row, kernel.constants, rng, tricks)
            if play_row.play_over(row, kernel.constants):
                continue
            wants = position.objective(row)
            sides = [(play_row.side_mask(row), wants)] if wants != position.NONE else []
            sides += [(1 << seat, position.FEWEST if rng.random() < 0.5 else position.MOST) for seat in range(4)]
            for side, aim in sides:
                truth = _exact(row, kernel.constants, side, aim)
                assert solver.value(row, side, aim, 10**7) == truth, f"{name} {house}: side {side} {aim}"
                checked += 1
    assert checked > 3 * positions * len(configs)


def _played(name: str, seed: int) -> Game:
    rules = rules_of(name)
    rng = random.Random(seed)
    while True:
        game = Game.from_seed(rules, rng.randrange(2**32), rng.randrange(4))
        bots = [HeuristicBot(rules, rng) for _ in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal))
        if len(game.tricks) >= 10 or (game.tricks and game.phase != PLAY):
            return game


@pytest.mark.parametrize("name", RULESETS)
def test_every_value_of_an_analysis_is_consistent(name: str) -> None:
    """No cost is negative; a card costs nothing exactly when it keeps the best value, and the best
    cards are those; after each card the side's value is the next position's; after the last card it is
    the tricks the side really took."""
    for seed in range(3):
        game = _played(name, seed)
        start = max(1, len(game.tricks) - 3)
        analysis = analyse_game(game, name, nodes=10**7, from_trick=start)
        assert analysis.unknown == 0
        cards = analysis.cards
        assert cards, f"{name}: nothing analysed"
        for card in cards:
            assert card.cost is not None and card.cost >= 0
            assert (card.cost == 0) == (card.played == card.best) == (card.card in card.best_cards)
        if not analysis.per_player:
            for before, after in itertools.pairwise(cards):
                assert before.played == after.best
            side = analysis.declarers
            assert cards[-1].played == sum(game.tricks_won[s] for s in side)
        else:
            last = cards[-1]
            assert last.played == game.tricks_won[last.seat]


def test_a_card_is_costed_against_a_fresh_search_of_each_card() -> None:
    """The analysis settles most cards with one null-window test: each must equal a full search of that card."""
    rules = rules_of("standard")
    game = _played("standard", 5)
    analysis = analyse_game(game, "standard", nodes=10**7, from_trick=len(game.tricks) - 2)
    again = Game(rules, game.initial_hands, game.initial_kitty, game.dealer, seed=game.seed)
    for seat, action in game.history:
        if again.phase == PLAY and len(again.tricks) + 1 >= analysis.from_trick:
            break
        again.apply(action, seat)
    kernel = rules.play
    row = play_row.row_from_game(kernel, again)
    sides = sides_of(again, row)
    side, wants = sides.of(int(row[play_row.TO_PLAY]))
    for card in play_row.cards_of(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), kernel.constants)):
        child = row.copy()
        play_row.play_card(child, card, kernel.constants)
        fresh = S.Solver(kernel.constants, bits=12).value(child, side, wants, 10**7)
        best = analysis.cards[0].best
        assert best is not None
        keep = Analyser(again).card_values(row, side, wants, best)[card]
        assert keep == fresh


def test_a_ruleset_whose_plugin_replaces_a_play_rule_is_refused() -> None:
    rules = _with_plugin(rules_of("gruppe2"))
    game = Game.from_seed(rules, 3)
    with pytest.raises(AnalysisError, match="replaces a play rule"):
        Analyser(game)


# --- the commands --------------------------------------------------------------------------------------


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def _record(tmp_path: Path, name: str, seed: int) -> Path:
    game = _played(name, seed)
    path = tmp_path / f"{name}-{seed}.json"
    path.write_text(json.dumps(game_record(game, name), default=str), encoding="utf-8")
    return path


def test_analyse_json_has_the_issues_shape(tmp_path: Path) -> None:
    path = _record(tmp_path, "standard", 1)
    code, text = _run("analyse", str(path), "--json", "--from-trick", "11")
    assert code == 0
    data = json.loads(text)
    assert {"ruleset", "trump", "leader", "declarers", "hands", "start", "cards", "total_cost"} <= set(data)
    assert data["ruleset"] == "standard"
    assert data["trump"] in ("S", "H", "D", "C", None)
    assert set(data["hands"]) == {"0", "1", "2", "3"}
    for card in data["cards"]:
        assert {"seat", "card", "best", "played", "cost"} <= set(card)
        assert card["cost"] >= 0
    assert set(data["total_cost"]) == {"0", "1", "2", "3"}
    assert sum(data["total_cost"].values()) == sum(c["cost"] for c in data["cards"])


def test_analyse_speaks_danish_and_english(tmp_path: Path) -> None:
    path = _record(tmp_path, "thorsen", 2)
    code, text = _run("analyse", str(path), "--from-trick", "12")
    assert code == 0
    assert "Stik 12:" in text and "plads" in text and "Tabt i alt" in text
    code, text = _run("analyse", str(path), "--from-trick", "12", "--lang", "en")
    assert "Trick 12:" in text and "seat" in text and "Lost in all" in text


def test_a_broken_record_gets_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"ruleset": "standard", "dealer": 0, "hands": [["AS"]', encoding="utf-8")
    code, _ = _run("analyse", str(path))
    assert code != 0
    assert "broken.json" in capsys.readouterr().err


def test_a_passed_out_deal_has_nothing_to_analyse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = rules_of("standard")
    game = Game.from_seed(rules, 1)
    while game.step is not None and game.phase != PLAY:
        game.apply("pass")
    path = tmp_path / "passed.json"
    path.write_text(json.dumps(game_record(game, "standard"), default=str), encoding="utf-8")
    code, _ = _run("analyse", str(path))
    assert code != 0
    assert "spillet nåede aldrig første udspil" in capsys.readouterr().err


def test_the_table_of_a_hand_record_per_trump_and_declarer(tmp_path: Path) -> None:
    deal = tmp_path / "deal.txt"
    deal.write_text(
        "# four cards each\n0: AS KS QS JS\n1: AH KH QH JH\n2: AD KD QD JD\n3: AC KC QC JC\n", encoding="utf-8"
    )
    code, text = _run("analyse", "--table", "engelsk", "--deal", str(deal), "--json")
    assert code == 0
    tricks = json.loads(text)["tricks"]
    # each seat holds one whole suit: in its own trump the declarer leads nothing but takes all four
    assert tricks["S"]["0"] == 4 and tricks["H"]["1"] == 4
    # declarer 0 in hearts: seat 1 leads and runs the hearts, seat 0 ruffs nothing (he has only spades)
    assert tricks["H"]["0"] == 0
    assert set(tricks) == {"S", "H", "D", "C", "none"}
    code, text = _run("analyse", "--table", "engelsk", "--deal", str(deal))
    assert code == 0 and "melder" in text and "uden trumf" in text
    for jobs in ("1", "3"):  # the trumps on one thread or three: the same table
        code, again = _run("analyse", "--table", "engelsk", "--deal", str(deal), "--json", "--jobs", jobs)
        assert code == 0 and json.loads(again)["tricks"] == tricks


def test_a_pbn_deal_is_read_with_north_as_seat_0(tmp_path: Path) -> None:
    deal = tmp_path / "deal.pbn"
    deal.write_text('[Deal "E:AKQJ... .AKQJ.. ..AKQJ. ...AKQJ"]\n', encoding="utf-8")
    hands = read_hands(deal)
    assert [format_card(c) for c in hands[1]] == ["AS", "KS", "QS", "JS"]  # E is seat 1
    assert [format_card(c) for c in hands[0]] == ["AC", "KC", "QC", "JC"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0: AS KS\n1: AH KH\n2: AD ZZ\n3: AC KC\n", "deal.txt:3"),
        ("0: AS KS\n1: AH KH\n2: AD KD\n", "der mangler 1 hånd"),
        ("0: AS KS\n1: AH KH\n2: AD KD\n3: AC\n4: QC\n", "talt både fra 0 og fra 1"),
        ("0: AS KS\n1: AS KH\n2: AD KD\n3: AC KC\n", "AS er givet to gange (plads 2)"),
        ("0: AS KS\n1: AH\n2: AD KD\n3: AC KC\n", "lige mange kort"),
        ("0: AS JK1\n1: AH KH\n2: AD KD\n3: AC KC\n", "ikke i reglesættets kortspil"),
        ("seat zero has AS\n", "deal.txt:1"),
    ],
)
def test_a_bad_hand_record_gets_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    deal = tmp_path / "deal.txt"
    deal.write_text(text, encoding="utf-8")
    code, _ = _run("analyse", "--table", "engelsk", "--deal", str(deal))
    assert code != 0
    assert message in capsys.readouterr().err


def test_a_hand_record_may_count_its_seats_from_1_as_people_do(tmp_path: Path) -> None:
    """Issue 48 item 6: people count seats from 1; a hand record written "1:" to "4:" is read so ("1:" is
    forhånd, the notation's "0:"), and one written "0:" to "3:" as before."""
    people, notation = tmp_path / "folk.txt", tmp_path / "notation.txt"
    people.write_text("1: AS KS\n2: AH KH\n3: AD KD\n4: AC KC\n", encoding="utf-8")
    notation.write_text("0: AS KS\n1: AH KH\n2: AD KD\n3: AC KC\n", encoding="utf-8")
    assert read_hands(people) == read_hands(notation)
    assert [format_card(c) for c in read_hands(people)[0]] == ["AS", "KS"]


def test_the_table_plays_the_rulesets_jokers() -> None:
    """001: "En joker er kun et sikkert stik, når den spilles ud."; "I nogle klubber kan en udspillet joker stikkes med trumf"."""
    # seat 0 holds a joker and three low spades; seat 1 the top spades; declarer 3 plays with seat 1
    hands = [[52, 0, 1, 2], [12, 11, 10, 9], [25, 24, 23, 22], [38, 37, 36, 35]]
    plain = hand_table(rules_of("standard"), "standard", hands)
    assert plain.tricks["S"][3] == 3  # seat 0 leads the joker, and it takes the trick even against trumps
    assert plain.tricks[None][3] == 3
    trumpable = hand_table(rules_of("standard", "joker-trumpable"), "standard", hands)
    assert trumpable.tricks["S"][3] == 4  # seat 1 trumps the led joker
    assert trumpable.tricks[None][3] == 3  # without trumps it still wins


def test_a_full_table_keeps_the_entries_nearest_the_root() -> None:
    """A full table keeps at most half its entries, those of the most cards left, each found again in its own
    chain, which names for each entry the one after its next; a search whose table fills many times answers
    as one whose table never fills."""
    rules = rules_of("standard")
    consts = rules.play.constants
    rng = random.Random("full table")
    small = S.Solver(consts, bits=7)  # 95 entries: the searches below store some 500 to 1,500 each
    large = S.Solver(consts, bits=16)
    for _ in range(4):
        deck = new_deck(rules.dealing.jokers)
        rng.shuffle(deck)
        hands = [sorted(deck[8 * s : 8 * s + 8]) for s in range(4)]
        for trump, declarer in (("S", 0), (None, 1)):
            row = table_row(hands, trump, declarer)
            side = (1 << declarer) | (1 << ((declarer + 2) % 4))
            transposition.clear(small.table)
            transposition.clear(large.table)
            assert small.value(row, side, position.MOST, 10**7) == large.value(row, side, position.MOST, 10**7)
    table = small.table
    heads = transposition.heads_of(table)
    full = table.copy()
    full[heads, 0] = table.shape[0]
    cards_left = full[heads + 1 :, position.LENGTHS] >> 48
    free = transposition.keep_nearest_root(full)
    kept = full[heads + 1 : free]
    assert 0 < len(kept) <= (table.shape[0] - heads - 1) // 2
    least = int((kept[:, position.LENGTHS] >> 48).min())
    assert int(np.sum(cards_left >= least + 1)) <= len(kept) <= int(np.sum(cards_left >= least))
    for entry in range(heads + 1, free):  # each kept entry hangs in its own chain
        chain = transposition.entry_chain(full, entry)
        walk = int(full[chain, 0])
        while walk > 0 and walk != entry:
            walk = int(full[walk, position.WORD]) & position.LINK
        assert walk == entry
    for searched in (table, full):  # before and after: every entry names the entry after its next (SKIP)
        for chain in range(heads):
            entry = int(searched[chain, 0])
            while entry > 0:
                after = int(searched[entry, position.WORD]) & position.LINK
                beyond = int(searched[after, position.WORD]) & position.LINK if after > 0 else 0
                assert int(searched[entry, position.META]) >> position.SKIP == beyond
                entry = after


def test_a_table_is_no_larger_than_its_links_can_reach() -> None:
    """An entry's link to the next of its chain has 28 bits: a larger table is refused, not allocated."""
    with pytest.raises(ValueError, match="28"):
        transposition.new_table(29)
    assert transposition.new_table(4).shape == (16, position.ENTRY)


def test_an_entry_holds_only_for_the_jokers_it_was_stored_with() -> None:
    """An entry keeps the suit lengths of three suits; the fourth follows from the hand's size and its
    jokers, so which jokers are in play is part of the entry: a hand of a joker and a low club is not a
    hand of two low clubs, though every card the entry keeps lies alike in both."""
    consts = rules_of("standard").play.constants
    others = [parse_cards("AC KC"), parse_cards("2S 3S"), parse_cards("2H 3H")]

    def key(first: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        row = table_row([parse_cards(first), *others], None, 3)
        order = transposition.strength_order(row, consts)
        hands = np.zeros(4, dtype=np.int64)
        transposition.canonical(row, order, hands)
        return row, order, hands

    def found(first: str, table: np.ndarray) -> bool:
        row, order, hands = key(first)
        own0, own1 = transposition.owners(hands)
        present = int(transposition.in_play_of(row) & transposition.ALWAYS)
        entry = int(table[0, 0])
        return bool(
            transposition.matches(table, entry, own0, own1, present, transposition.lengths_of(row), 0, 0, order)
        )

    table = transposition.new_table(6)
    row, order, hands = key("JK1 2C")
    every = transposition.relevant_mask(transposition.in_play_of(row), row, order)  # every card mattered
    S.store_bounds(table, 0, hands, row, order, every, transposition.lengths_of(row), 0, 0, 1, 1)
    assert found("JK1 2C", table)
    assert not found("3C 2C", table)  # the same hands on the kept cards and the same lengths of S, H, D


@pytest.mark.parametrize(("name", "house"), [("engelsk", None), ("standard", None), ("standard", "joker-trumpable")])
def test_one_table_serves_every_declarer_of_a_trump(name: str, house: str | None) -> None:
    """DDS keeps one table for the four leaders of a trump; so does ``hand_table``: a position's entry is
    kept for seat 0's side and read for the other side turned round (the tricks left less its own), for
    whoever declared. Every cell equals the same cell solved alone, with a table of its own."""
    rules = rules_of(name, *((house,) if house else ()))
    consts = rules.play.constants
    rng = random.Random(f"one table {name} {house}")
    for _ in range(12):
        deck = new_deck(rules.dealing.jokers)
        rng.shuffle(deck)
        hands = [sorted(deck[6 * s : 6 * s + 6]) for s in range(4)]
        table = hand_table(rules, name, hands)
        for trump, cells in table.tricks.items():
            for declarer, found in enumerate(cells):
                side = (1 << declarer) | (1 << ((declarer + 2) % 4))
                alone = S.Solver(consts, bits=12).value(table_row(hands, trump, declarer), side, position.MOST, 10**7)
                assert found == alone, (hands, trump, declarer)


def test_the_trumps_on_several_threads_give_the_same_table_cell_for_cell() -> None:
    """Each trump is searched from an empty table, so a cell does not depend on which thread searched its
    trump or what it searched before: the same tricks, and the same cells left unknown where the node
    budget runs out, on one thread or five."""
    rules = rules_of("standard")
    consts = rules.play.constants
    rng = random.Random("threads")
    unknown = 0
    for _ in range(4):
        deck = new_deck(rules.dealing.jokers)
        rng.shuffle(deck)
        hands = [sorted(deck[8 * s : 8 * s + 8]) for s in range(4)]
        tables = [
            hand_table(rules, "standard", hands, 3_000, solvers=[S.Solver(consts, bits=14) for _ in range(threads)])
            for threads in (1, 2, 5)
        ]
        assert tables[0].tricks == tables[1].tricks == tables[2].tricks
        unknown += sum(cell is None for cells in tables[0].tricks.values() for cell in cells)
    assert unknown > 0  # the budget ran out somewhere: the unknown cells agree too


def test_simulate_writes_every_deals_record_and_analyse_reads_them(tmp_path: Path) -> None:
    folder = tmp_path / "aften"
    code, _ = _run(
        "simulate", "--bots", "heuristic", "standard", "--deals", "4", "--records", str(folder), "--jobs", "1"
    )
    assert code == 0
    files = sorted(folder.glob("deal-*.json"))
    assert [f.name for f in files] == ["deal-0001.json", "deal-0002.json", "deal-0003.json", "deal-0004.json"]
    for path in files:
        code, _ = _run("replay", str(path))
        assert code == 0
    played = [p for p in files if json.loads(p.read_text())["result"]["phase"] == "finished"]
    assert played
    code, text = _run("analyse", str(played[0]), "--from-trick", "12", "--json")
    assert code == 0 and json.loads(text)["cards"]
    # another run into the same folder must not overwrite the evening's records
    code, _ = _run(
        "simulate", "--bots", "heuristic", "standard", "--deals", "4", "--records", str(folder), "--jobs", "1"
    )
    assert code != 0
    code, _ = _run(
        "simulate",
        "--bots",
        "heuristic",
        "standard",
        "--deals",
        "4",
        "--records",
        str(folder),
        "--jobs",
        "1",
        "--force",
    )
    assert code == 0


def test_simulated_records_are_the_same_for_any_number_of_jobs(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert (
        _run("simulate", "--bots", "heuristic", "thorsen", "--deals", "6", "--records", str(one), "--jobs", "1")[0] == 0
    )
    assert (
        _run("simulate", "--bots", "heuristic", "thorsen", "--deals", "6", "--records", str(two), "--jobs", "2")[0] == 0
    )
    for a in sorted(one.iterdir()):
        assert json.loads(a.read_text())["actions"] == json.loads((two / a.name).read_text())["actions"]


@pytest.mark.parametrize("name", RULESETS)
def test_analyse_reads_the_records_the_engine_writes_for_every_shipped_ruleset(tmp_path: Path, name: str) -> None:
    path = _record(tmp_path, name, 7)
    last = len(json.loads(path.read_text())["result"]["tricks"])
    code, text = _run("analyse", str(path), "--json", "--from-trick", str(max(1, last - 1)))
    assert code == 0
    data = json.loads(text)
    assert data["ruleset"].split(" + ")[0] == name and data["unknown"] == 0
    assert [c["trick"] for c in data["cards"]][-1] == last


SOLVER_VALUES = Path(__file__).parent / "records" / "solver_values.json"
"""Positions of every shipped ruleset and house rule with seven tricks left, valued by the exact solver of
the release before winning ranks (``benchmarks/solver_fixture.py`` wrote them; it checks all of them too)."""


def test_the_search_by_winning_ranks_finds_the_values_of_the_solver_before_it() -> None:
    """Issue "A solver at DDS speed": "full standard and thorsen deals, sols included, equal today's exact
    solver (slow, but exact) on a sample of deals, kept as a test fixture"."""
    fixture = json.loads(SOLVER_VALUES.read_text(encoding="utf-8"))
    solvers: dict[tuple[str, str | None], S.Solver] = {}
    kinds = set()
    for case in fixture["cases"][::3]:  # a third of them in the suite
        key = (case["ruleset"], case["house"])
        if key not in solvers:
            rules = rules_of(key[0], *((key[1],) if key[1] else ()))
            solvers[key] = S.Solver(rules.play.constants, bits=16)
        row = np.array(case["row"], dtype=np.int64)
        kinds.add((int(row[play_row.SOL]), int(row[play_row.SIDE])))
        found = solvers[key].value(row, case["side"], case["wants"], 10**8)
        assert found == case["value"], f"{key} side {case['side']} wants {case['wants']}: {case['row']}"
    assert len(solvers) > len(CONFIGS) * 3 // 4 and {sol for sol, _ in kinds} == {0, 1}  # sols among them


def test_a_cleared_table_searches_as_a_new_one() -> None:
    """``solver.clear`` forgets the killer cards with the entries: a search after a clear visits the same
    nodes as on a fresh table, whatever deals and trumps the table held before (another deal's killer cards
    only mislead)."""
    kernel = rules_of("engelsk").play
    rng = random.Random("clear")
    rows = []
    for trump in ("S", None, "H"):
        deck = new_deck(0)
        rng.shuffle(deck)
        rows.append((table_row([sorted(deck[13 * s : 13 * s + 7]) for s in range(4)], trump, 0), 0b0101))
    used = S.Solver(kernel.constants)
    for row, side in rows:  # the table holds these deals' entries and killer cards
        used.value(row, side, position.MOST, 10**7)
    for row, side in rows:
        fresh = S.Solver(kernel.constants)
        expected = fresh.value(row, side, position.MOST, 10**7)
        transposition.clear(used.table)
        assert used.value(row, side, position.MOST, 10**7) == expected
        assert used.searched == fresh.searched


def test_the_last_trick_is_played_as_it_falls_and_a_lone_card_is_played_without_a_killer_card() -> None:
    """The last trick has one line (each plays his one card): the search plays it without a look in the table,
    which keeps no entry for it. A seat that may play only one card plays it, with no killer card looked up
    or kept for it. Here the three seats after the lead each hold one card of the led suit, and the last
    trick follows: the search looks nothing up, keeps no killer card, and finds what minimax finds."""
    consts = rules_of("engelsk").play.constants
    hands = [parse_cards("AS 2H"), parse_cards("KS 3H"), parse_cards("2S AH"), parse_cards("3S KH")]
    for trump in ("S", "H", None):
        row = table_row([sorted(hand) for hand in hands], trump, 3)  # seat 0 leads
        play_row.play_card(row, parse_cards("AS")[0], consts)
        side = 0b1010
        solver = S.Solver(consts, bits=12)
        heads = transposition.heads_of(solver.table)
        assert solver.value(row, side, position.MOST, 10**6) == _minimax(row, consts, side, position.MOST)
        assert int(solver.budget[position.LOOKED_UP]) == 0  # no position looked up
        assert (solver.table[:heads, position.KILLER_TAG] == -1).all()  # no killer card kept


def _sol_rows(name: str, count: int, rng: random.Random) -> list[play_row.Rows]:
    """First-lead rows of sol bids of one declarer: the first seat to bid bids a sol kind, the others pass."""
    rules = rules_of(name)
    kernel = rules.play
    rows = []
    while len(rows) < count:
        game = Game.from_seed(rules, rng.randrange(2**32), rng.randrange(4))
        bid = False
        while game.step is not None and game.phase != PLAY:
            sols = [a for a in game.legal if "sol" in str(a) or "bordlægger" in str(a)]
            passes = [a for a in game.legal if str(a) == "pass"]
            action = rng.choice(passes if bid and passes else sols or game.legal)
            bid = bid or action in sols
            game.apply(action)
        if game.phase == PLAY and game.bid is not None and game.bid.sol and len(game.declarers) == 1:
            rows.append(_sol_hand(play_row.row_from_game(kernel, game), kernel.constants, rng))
    return rows


def _sol_hand(row: play_row.Rows, consts: play_row.Rows, rng: random.Random) -> play_row.Rows:
    """The declarer's hand made a sol hand: a few times, a high card of his swapped with a lower one of the
    same suit in a defender's hand (the suits' lengths kept), so that he may get through."""
    declarer = int(row[play_row.DECLARER])
    for _ in range(rng.randrange(2, 9)):
        mine = play_row.cards_of(int(row[play_row.HANDS + declarer]) & ~K.JOKER_MASK)
        high = max(mine, key=lambda c: play_row.card_strength(c, 1, consts))
        lower = [
            (seat, card)
            for seat in range(4)
            if seat != declarer
            for card in play_row.cards_of(int(row[play_row.HANDS + seat]) & play_row.suit_mask(high // 13, -1))
            if play_row.card_strength(card, 1, consts) < play_row.card_strength(high, 1, consts)
        ]
        if lower:
            seat, card = rng.choice(lower)
            row[play_row.HANDS + declarer] ^= (1 << high) | (1 << card)
            row[play_row.HANDS + seat] ^= (1 << high) | (1 << card)
    return row


@pytest.mark.parametrize("name", ["standard", "thorsen", "whistklubben"])
def test_a_lone_sol_declarer_always_under_the_led_card_takes_no_more_tricks(name: str) -> None:
    """The sol's safe exit (``sol_exit``): a lone declarer whose i-th lowest card of every suit is under the
    defenders' i-th lowest (or who holds jokers, played at any time, for the rounds where it is not) never
    has to take a trick. Wherever it says so, plain minimax agrees, and so does the solver's value; the
    positions include declarers whose cards are not all under the defenders' (the older, narrower rule)."""
    rules = rules_of(name)
    consts = rules.play.constants
    rng = random.Random(f"sol exit {name}")
    solver = S.Solver(consts, bits=14)
    said = beyond = 0
    for row in _sol_rows(name, 400, rng):
        side = play_row.side_mask(row)
        while not play_row.play_over(row, consts) and 13 - int(row[play_row.TRICKS]) > 2:
            seat = int(row[play_row.TO_PLAY])
            legal = play_row.cards_of(play_row.legal_mask(row, seat, consts))
            card = (
                min(legal, key=lambda c: play_row.card_strength(c, 1, consts))
                if (side >> seat) & 1
                else rng.choice(legal)
            )
            play_row.play_card(row, card, consts)  # the declarer ducks as low as he can, the defenders play at random
            if row[play_row.TRICK_N] != 0 or play_row.play_over(row, consts) or 13 - int(row[play_row.TRICKS]) > 3:
                continue
            sure, _ = quick_tricks.sol_exit(row, consts, side)
            if sure != 1:
                continue
            said += 1
            theirs = sum(int(row[play_row.HANDS + s]) for s in range(4) if not (side >> s) & 1)
            ours = int(row[play_row.HANDS + (side.bit_length() - 1)])
            beyond += any(
                ours & play_row.suit_mask(suit, -1)
                and theirs & play_row.suit_mask(suit, -1)
                and max(
                    play_row.card_strength(c, 1, consts) for c in play_row.cards_of(ours & play_row.suit_mask(suit, -1))
                )
                > min(
                    play_row.card_strength(c, 1, consts)
                    for c in play_row.cards_of(theirs & play_row.suit_mask(suit, -1))
                )
                for suit in range(4)
            )
            won = position.side_won(row, side)
            assert _minimax(row, consts, side, position.FEWEST) == won, f"{name}: {list(row)}"
            assert solver.value(row, side, position.FEWEST, 10**7) == won
    assert said >= 100 and beyond >= 10, (said, beyond)


@pytest.mark.parametrize("house", [None, "joker-trumpable"])
def test_the_quick_tricks_hold_with_jokers_in_play(house: str | None) -> None:
    """001: "En joker er kun et sikkert stik, når den spilles ud" (and it may be played at any time): the
    tricks the leader and his partner cash between them, and a hand's top trumps less one for each joker
    the other side may lead, are theirs whatever the jokers do. Wherever the bounds count tricks with jokers
    in play, plain minimax finds at least as many."""
    rules = rules_of("standard", *((house,) if house else ()))
    consts = rules.play.constants
    rng = random.Random(f"jokers quick {house}")
    counted = cashed = 0
    for _ in range(1000):
        deck = new_deck(3)
        rng.shuffle(deck)
        hands = [sorted(deck[5 * s : 5 * s + 5]) for s in range(4)]
        if not any(card >= 52 for hand in hands for card in hand):
            continue
        declarer = rng.randrange(4)
        row = table_row(hands, rng.choice(["S", "H", None]), declarer)
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        for _ in range(4 + rng.randrange(2) * 4):  # a trick or two played at random first
            play_row.play_card(
                row, rng.choice(play_row.cards_of(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), consts))), consts
            )
        if play_row.play_over(row, consts) or not int(sum(row[play_row.HANDS + s] for s in range(4))) & K.JOKER_MASK:
            continue
        leader = int(row[play_row.LEADER])
        team = side if (side >> leader) & 1 else 15 & ~side
        won = position.side_won(row, team)
        fast, _ = quick_tricks.partners_quick_tricks(row, consts, team, transposition.strength_order(row, consts), 13)
        sure = max(quick_tricks.sure_trumps(row, consts, team)[0], quick_tricks.sure_trumps(row, consts, 15 & ~team)[0])
        if fast == 0 and sure == 0:
            continue
        counted += 1
        cashed += fast > 0
        best = _minimax(row, consts, team, position.MOST)
        assert best >= won + fast, f"partners' quick tricks {fast}: {list(row)}"
        assert best >= won + quick_tricks.sure_trumps(row, consts, team)[0]
        left = 13 - int(row[play_row.TRICKS])
        assert best <= won + left - quick_tricks.sure_trumps(row, consts, 15 & ~team)[0]
    assert counted >= 50 and cashed >= 20, (counted, cashed)


def _alike(row: np.ndarray, relied: int, consts: np.ndarray, rng: random.Random) -> np.ndarray:
    """``row`` with every card under the weakest of ``relied`` in its suit dealt again among the hands that
    hold such cards, each hand keeping its suit lengths: a position that a table entry resting on ``relied``
    (it keeps each suit's cards from the weakest it rests on up) answers for as well."""
    twin = row.copy()
    sol = int(row[play_row.SOL])
    for suit in range(4):
        cards = [
            c for c in range(13 * suit, 13 * suit + 13) for h in range(4) if (int(row[play_row.HANDS + h]) >> c) & 1
        ]
        floor = min((play_row.card_strength(c, sol, consts) for c in cards if (relied >> c) & 1), default=99)
        loose = [c for c in cards if play_row.card_strength(c, sol, consts) < floor]
        holders = [h for c in loose for h in range(4) if (int(row[play_row.HANDS + h]) >> c) & 1]
        rng.shuffle(loose)
        for card, holder in zip(loose, holders, strict=True):
            for h in range(4):
                twin[play_row.HANDS + h] &= ~(1 << card)
            twin[play_row.HANDS + holder] |= 1 << card
    return twin


def _quick(
    row: np.ndarray, consts: np.ndarray, team: int, order: np.ndarray, need: int, partners: bool
) -> tuple[int, int]:
    if partners:
        return quick_tricks.partners_quick_tricks(row, consts, team, order, need)
    return quick_tricks.quick_tricks(row, consts, team, need)


@pytest.mark.parametrize("name", ["engelsk", "standard"])
def test_the_quick_tricks_that_decide_a_bound_rest_on_the_cards_they_name(name: str) -> None:
    """DDS's quick tricks stop at the tricks a cut-off needs, and so do these: the count for ``need`` tricks
    names only the cards those tricks rest on, and a table entry above it keeps only those (and every card
    above them). Wherever the leader's or the partners' quick tricks count ``need``, plain minimax finds the
    side takes that many, and so it does with every other card dealt again among the same hands and suit
    lengths (for the fewest tricks that decide, where the count rests on fewer cards than all it finds)."""
    consts = rules_of(name).play.constants
    rng = random.Random(f"quick tricks rest on {name}")
    checked = alike = 0
    for _ in range(200):
        deck = new_deck(3 if name == "standard" else 0)
        rng.shuffle(deck)
        hands = [sorted(deck[4 * s : 4 * s + 4]) for s in range(4)]
        declarer = rng.randrange(4)
        row = table_row(hands, rng.choice(["S", "H", None]), declarer)
        side = (1 << declarer) | (1 << ((declarer + 2) % 4))
        if rng.random() < 0.5:  # a trick played at random first
            for _ in range(4):
                play_row.play_card(
                    row,
                    rng.choice(play_row.cards_of(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), consts))),
                    consts,
                )
        if play_row.play_over(row, consts):
            continue
        leader = int(row[play_row.LEADER])
        team = side if (side >> leader) & 1 else 15 & ~side
        order = transposition.strength_order(row, consts)
        won = position.side_won(row, team)
        best = _minimax(row, consts, team, position.MOST)
        for partners in (False, True):
            everything = _quick(row, consts, team, order, 13, partners)
            for need in range(1, 14 - int(row[play_row.TRICKS])):
                count, relied = _quick(row, consts, team, order, need, partners)
                if count < need:
                    continue
                checked += 1
                assert best >= won + count, (need, count, list(row))
                if relied != everything[1]:  # the fewest that decide: rests on fewer cards than the whole count
                    alike += 1
                    twin = _alike(row, relied, consts, rng)
                    assert _minimax(twin, consts, team, position.MOST) >= won + count, (need, count, list(twin))
                    break
    assert checked >= 100 and alike >= 20, (checked, alike)


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int, int]]:
    """Every search a solver makes from now on, in order: its budget, the nodes it took, its answer and the
    position's trump."""
    calls: list[tuple[int, int, int, int]] = []
    value, reaches = S.Solver.value, S.Solver.reaches

    def spied_value(self: S.Solver, row: np.ndarray, side: int, wants: int, nodes: int, guess: int = -1) -> int:
        found = value(self, row, side, wants, nodes, guess)
        calls.append((nodes, self.searched, found, int(row[play_row.TRUMP])))
        return found

    def spied_reaches(self: S.Solver, row: np.ndarray, side: int, wants: int, target: int, nodes: int) -> int:
        found = reaches(self, row, side, wants, target, nodes)
        calls.append((nodes, self.searched, found, int(row[play_row.TRUMP])))
        return found

    monkeypatch.setattr(S.Solver, "value", spied_value)
    monkeypatch.setattr(S.Solver, "reaches", spied_reaches)
    return calls


def test_a_cell_over_its_budget_is_settled_with_what_its_trumps_other_cells_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue: "`analyse --table standard`: ... no "?"". A trump's four cells share four budgets: where
    one cell is hard and the others easy (here without trumps, the second declarer's), the hard one is
    searched again with what the others left, and is settled where its own budget alone left it "?"; no
    trump searches more than its four budgets, no cell differs from a search without limits, and the
    progress counts a cell once it is final (it shows 20 of 20 only when the table is done)."""
    rules = rules_of("engelsk")
    consts = rules.play.constants
    hands = [
        parse_cards(text)
        for text in (
            "6S 7S 5H 7H KH 4D 6D QD KD",
            "8S 9S 9H 2C 4C 5C 6C 9C JC",
            "6H 8H TH AH 2D 3D 7C TC KC",
            "2S 3S 5S QS 2H JH QH 5D JD",
        )
    ]
    calls = _spied(monkeypatch)
    exact = hand_table(rules, "engelsk", hands, 10**9, solvers=[S.Solver(consts, bits=16)])
    no_trump = [taken for _, taken, _, _ in calls[-4:]]  # no trump is the last of the table's trumps
    hard = max(no_trump)
    assert no_trump.index(hard) > 0 and sum(no_trump) - hard < hard // 2  # one hard cell, not the first
    budget = hard // 2 + 1
    calls.clear()
    shown: list[tuple[int, int]] = []  # the progress shown, and the searches made by then
    pooled = hand_table(
        rules,
        "engelsk",
        hands,
        budget,
        lambda done: shown.append((done, len(calls))),
        solvers=[S.Solver(consts, bits=16)],
    )
    assert pooled.tricks[None] == exact.tricks[None]
    assert [done for done, _ in shown] == list(range(21)) and shown[-1][1] == len(calls)  # 20 of 20 only at the end
    assert (budget, budget + 1, position.UNKNOWN, -1) in calls  # the hard cell's own budget did not settle it
    for trump, cells in pooled.tricks.items():
        code = "SHDC".index(trump) if trump else -1
        assert sum(taken for _, taken, _, of in calls if of == code) <= 4 * budget + 4
        assert all(found in (None, right) for found, right in zip(cells, exact.tricks[trump], strict=True))


def test_a_card_over_its_budget_is_settled_with_what_the_other_cards_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each card of a position is searched within its budget, and the cards share theirs: a card the
    search of its own budget left unsettled (here the last of nine leads, the others settled cheaply) is
    searched again with what the others left, and gets the value a search without limits gives it; the
    position's cards never search more than their budgets together."""
    rules = rules_of("engelsk")
    hands = [
        parse_cards(text)
        for text in (
            "8S JS 4H JD 2C 3C 6C 7C AC",
            "KS 3H 8H QH AH 2D 6D QD TC",
            "5S 6S QS AS 2H 6H 7D 9D TD",
            "2S 3S 4S 5H 7H TH JH 4D KD",
        )
    ]
    row = table_row(hands, None, 0)
    side = 0b0101
    analyser = Analyser(Game.from_seed(rules, 1), nodes=10**9)
    analyser.solver = S.Solver(analyser.kernel.constants, bits=16)
    best = analyser.solver.value(row, side, position.MOST, 10**9)
    transposition.clear(analyser.solver.table)
    calls = _spied(monkeypatch)
    exact = analyser.card_values(row, side, position.MOST, best)
    hard = max(taken for _, taken, _, _ in calls)
    assert sum(taken for _, taken, _, _ in calls) - hard < hard // 2
    analyser.nodes = hard // 2 + 1
    transposition.clear(analyser.solver.table)
    calls.clear()
    pooled = analyser.card_values(row, side, position.MOST, best)
    assert pooled == exact and None not in pooled.values()
    assert any(found == position.UNKNOWN for _, _, found, _ in calls)  # one card's own budget did not settle it
    assert sum(taken for _, taken, _, _ in calls) <= len(exact) * analyser.nodes + len(calls)
