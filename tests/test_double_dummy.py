"""The double-dummy search against plain minimax: the same value in the last tricks of random deals of
every shipped ruleset and house rule, and the budget honoured.

Plain minimax tries every legal card of every seat with no table, no reduction and no window; the
search must agree with it wherever it answers (in a sol bid: whether the declarer stays within his most).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import numpy as np
import pytest

from regelmotor import play_row
from regelmotor.bots import double_dummy as D
from regelmotor.bots import kernel as K
from regelmotor.cards import parse_card
from regelmotor.engine.game import Game

from .conftest import CONFIGS, RULESETS, rules_of

POSITIONS = 12  # per ruleset and house rule, with two tricks and a part of one left
DEEPER = 6  # per shipped ruleset, with three tricks and a part of one left


def _minimax(row: play_row.Rows, consts: play_row.Rows, side: int, wants: int, low: int = -1, high: int = 14) -> int:
    """The side's tricks by minimax over every legal card, written apart from the solver (no table, no
    ordering, no bounds from the cards): the reference. The cut-offs (alpha-beta) leave a call with the full
    window its exact value, and spare the positions that cannot change it."""
    if play_row.play_over(row, consts):
        return D.side_won(row, side)
    seat = int(row[play_row.TO_PLAY])
    maximizing = ((side >> seat) & 1 == 1) == (wants == D.MOST)
    best = -1 if maximizing else 14
    for card in play_row.cards_of(play_row.legal_mask(row, seat, consts)):
        child = row.copy()
        play_row.play_card(child, card, consts)
        value = _minimax(child, consts, side, wants, low, high)
        if maximizing:
            best, low = max(best, value), max(low, value)
        else:
            best, high = min(best, value), min(high, value)
        if low >= high:
            break
    return best


def _late(row: play_row.Rows, consts: play_row.Rows, rng: random.Random, tricks: int = 2) -> play_row.Rows:
    """``row`` played on with the playout policy until ``tricks`` tricks (and a random part of one) remain."""
    row = row.copy()
    stop = tricks * 4 + rng.randrange(4)
    while (
        not play_row.play_over(row, consts) and (13 - int(row[play_row.TRICKS])) * 4 - int(row[play_row.TRICK_N]) > stop
    ):
        play_row.play_card(row, K.policy_card(row, consts, rng.getrandbits(31)), consts)
    return row


@pytest.mark.parametrize(
    ("configs", "positions", "tricks"), [(CONFIGS, POSITIONS, 2), ([(n, None) for n in RULESETS], DEEPER, 3)]
)
def test_the_search_finds_what_plain_minimax_finds_in_the_last_tricks_of_every_game(
    configs: list[tuple[str, str | None]], positions: int, tricks: int
) -> None:
    rng = random.Random(f"double dummy {tricks}")
    checked = 0
    table = D.new_table()
    for name, house in configs:
        rules = rules_of(name, *((house,) if house else ()))
        kernel = rules.play
        for row in K.first_lead_rows(rules, kernel, positions, rng):
            row = _late(row, kernel.constants, rng, tricks)
            wants = D.objective(row)
            if play_row.play_over(row, kernel.constants) or wants == D.NONE:
                continue
            table[:, 0] = -1
            value = D.solve(row, kernel.constants, table, 10**7)
            truth = _minimax(row, kernel.constants, play_row.side_mask(row), wants)
            if wants == D.FEWEST:
                limit = int(row[play_row.SOL_LIMIT])
                assert (value <= limit) == (truth <= limit), f"{name} {house}: the sol's outcome differs"
            else:
                assert value == truth, f"{name} {house}: {value} tricks, minimax {truth}"
            checked += 1
    assert checked > 0.6 * positions * len(configs)


def test_a_card_and_the_card_that_stands_for_it_take_the_same_tricks_in_every_game() -> None:
    """The expert weighs one card of a run of equivalent cards (``twins``): on every game and house rule,
    playing a card or the card that stands for it gives the side the same tricks by plain minimax."""
    rng = random.Random("twins")
    merged = 0
    for name, house in CONFIGS:
        rules = rules_of(name, *((house,) if house else ()))
        kernel = rules.play
        consts = kernel.constants
        for row in K.first_lead_rows(rules, kernel, POSITIONS, rng):
            row = _late(row, consts, rng, 3)
            wants = D.objective(row)
            if play_row.play_over(row, consts) or wants == D.NONE:
                continue
            cards = np.array(
                play_row.cards_of(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), consts)), dtype=np.int64
            )
            for card, twin in zip(cards.tolist(), D.twins(row[None, :], cards, consts).tolist(), strict=True):
                if card == cards[twin]:
                    continue
                values = []
                for played in (card, int(cards[twin])):
                    child = row.copy()
                    play_row.play_card(child, played, consts)
                    values.append(_minimax(child, consts, play_row.side_mask(child), wants))
                assert values[0] == values[1], f"{name} {house}: {card} and its twin {cards[twin]} differ"
                merged += 1
    assert merged > len(CONFIGS)


def test_a_card_still_out_on_any_sampled_deal_keeps_two_cards_apart() -> None:
    """Two of the seat's cards stand for each other only where no card between them is still in
    another hand on any of the sampled deals: the seat does not know which deal is the real one."""
    rules = rules_of("standard")
    kernel = rules.play
    row = K.first_lead_rows(rules, kernel, 1, random.Random(5))[0].copy()
    queen, jack, ten = (parse_card(c) for c in ("QH", "JH", "TH"))
    seat = int(row[play_row.TO_PLAY])
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    hearts = play_row.mask_of([parse_card(r + "H") for r in "23456789TJQKA"])
    for h in range(4):
        row[play_row.HANDS + h] &= ~hearts
    row[play_row.HANDS + seat] |= play_row.mask_of([queen, ten])
    row[play_row.CALLED] = -1
    cards = np.array([queen, ten], dtype=np.int64)
    gone = row.copy()  # the jack played already: queen and ten are one run
    assert D.twins(gone[None, :], cards, kernel.constants).tolist() == [0, 0]
    out = row.copy()
    out[play_row.HANDS + others[1]] |= play_row.mask_of([jack])
    assert D.twins(np.array([gone, out]), cards, kernel.constants).tolist() == [0, 1]


def test_a_search_over_its_budget_says_so() -> None:
    rules = rules_of("standard")
    kernel = rules.play
    row = K.first_lead_rows(rules, kernel, 1, random.Random(3))[0]
    assert D.solve(row, kernel.constants, D.new_table(), 50) == D.UNKNOWN


def test_a_joker_led_to_the_last_trick_is_a_sure_trick() -> None:
    """001: "En joker, der bliver spillet ud, er et sikkert stik, også hvis en anden lægger en joker
    oven på." The declarer to lead the last trick with a joker takes it, double dummy, against trumps."""
    rules = rules_of("standard")
    kernel = rules.play
    row = K.first_lead_rows(rules, kernel, 1, random.Random(1))[0].copy()
    hands = [["JK1"], ["AS"], ["JK2"], ["AH"]]
    for seat, cards in enumerate(hands):
        row[play_row.HANDS + seat] = play_row.mask_of([parse_card(c) for c in cards])
    row[play_row.TRICKS] = 12
    row[play_row.WON : play_row.WON + 4] = [6, 2, 2, 2]
    row[play_row.TRUMP] = 0  # spades: the ace of trumps does not take a led joker
    row[play_row.SIDE] = -1
    row[play_row.SOL] = 0
    row[play_row.SOL_LIMIT] = -1
    row[play_row.FIRST_TRICKS] = -1
    row[play_row.DECLARERS] = 1
    row[play_row.DECLARER] = 0
    row[play_row.PARTNER] = -1
    row[play_row.FIXED_SIDE] = 0
    row[play_row.CALLED] = -1
    row[play_row.LEADER] = row[play_row.TO_PLAY] = 0
    row[play_row.TRICK_N] = 0
    assert D.solve(row, kernel.constants, D.new_table(), 10_000) == 7


def test_the_expert_values_the_last_tricks_double_dummy() -> None:
    """The playouts' tricks are replaced by the search's where it settles them, and only there."""
    rules = rules_of("engelsk")
    kernel = rules.play
    rng = random.Random(8)
    rows = np.array([_late(row, kernel.constants, rng) for row in K.first_lead_rows(rules, kernel, 6, rng)])
    rows = np.array([row for row in rows if not play_row.play_over(row, kernel.constants)])
    seat_cards = [
        play_row.lowest_card(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), kernel.constants)) for row in rows
    ]
    for row, card in zip(rows, seat_cards, strict=True):
        one = row[None, :]
        candidates = np.array([card], dtype=np.int64)
        won = K.evaluate_cards(one, candidates, kernel.constants, 1)
        assert D.evaluate_cards(won, one, candidates, kernel.constants, D.new_table(), 10**7) == 1
        child = row.copy()
        play_row.play_card(child, card, kernel.constants)
        side = play_row.side_mask(child)
        tricks = won[0, 0].tolist()
        assert sum(t for seat, t in enumerate(tricks) if (side >> seat) & 1) == _minimax(
            child, kernel.constants, side, D.MOST
        )
        assert sum(tricks) == 13


@pytest.mark.parametrize("name", ["engelsk", "dansk"])
def test_a_game_played_for_the_most_tricks_is_searched_on_the_trump_budget(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Engelsk whist's one game and dansk's grand are sol bids of the ladder, but their declarers want the
    most tricks: the leaf searches them as far as a trump game, not on the sol's narrow budget."""
    from regelmotor.bots import double_dummy as leaf
    from regelmotor.bots.expert import Budget, ExpertBot

    budget = Budget(play_samples=3, lead_samples=3, plan_samples=2, dd_nodes=123_456, dd_sol_nodes=7)
    searched: list[tuple[int, int, int]] = []
    evaluate = leaf.evaluate_cards

    def record(
        won: play_row.Rows,
        rows: play_row.Rows,
        candidates: play_row.Rows,
        consts: play_row.Rows,
        table: play_row.Rows,
        nodes: int,
    ) -> int:
        searched.append((D.objective(rows[0]), int(rows[0][play_row.TRICKS]), nodes))
        return evaluate(won, rows, candidates, consts, table, nodes)

    monkeypatch.setattr(leaf, "evaluate_cards", record)
    rules = rules_of(name)
    for seed in range(8):
        game = Game.from_seed(rules, seed, seed % 4)
        bots = [ExpertBot(rules, random.Random(seed * 4 + s), budget=budget) for s in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal))
        if any(wants == D.MOST for wants, _, _ in searched):
            break
    most = [(tricks, nodes) for wants, tricks, nodes in searched if wants == D.MOST]
    assert most, "a game for the most tricks was played"
    assert {nodes for _, nodes in most} == {budget.dd_nodes}
    assert min(tricks for tricks, _ in most) == 13 - budget.dd_cards // 4  # from the last 20 cards
    assert {nodes for wants, _, nodes in searched if wants != D.MOST} <= {budget.dd_sol_nodes}


def test_a_row_played_to_no_cards_left_is_the_playout() -> None:
    """``play_rows_to`` plays by the playout's own policy and chances: to the end, it is ``playout_rows``."""
    rules = rules_of("thorsen")
    kernel = rules.play
    rows = K.first_lead_rows(rules, kernel, 20, random.Random(5))
    played = rows.copy()
    K.play_rows_to(played, kernel.constants, 11, 0)
    assert (played[:, play_row.WON : play_row.WON + 4] == K.playout_rows(rows, kernel.constants, 11)).all()
    assert all(play_row.play_over(row, kernel.constants) for row in played)


def test_the_playouts_before_play_are_solved_from_their_last_cards() -> None:
    """``finish_rows``: each row played on to its last cards, then its side's tricks are the solver's (plain
    minimax's), the others' the rest; a row the search cannot settle within its nodes is left to the playout
    (not settled)."""
    rules = rules_of("standard")
    kernel = rules.play
    consts = kernel.constants
    rows = K.first_lead_rows(rules, kernel, 30, random.Random(6))
    K.play_rows_to(rows, consts, 2, 12)
    assert all(
        (13 - row[play_row.TRICKS]) * 4 - row[play_row.TRICK_N] <= 12 or play_row.play_over(row, consts) for row in rows
    )
    won = np.zeros((len(rows), 4), dtype=np.int64)
    settled = D.finish_rows(won, rows, consts, D.new_table(), 10**7)
    assert settled.sum() > 0.8 * len(rows)
    for row, tricks, done in zip(rows, won.tolist(), settled.tolist(), strict=True):
        wants = D.objective(row)
        if not done:
            assert wants == D.NONE
            continue
        side = play_row.side_mask(row)
        mine = sum(t for seat, t in enumerate(tricks) if (side >> seat) & 1)
        truth = _minimax(row, consts, side, wants)
        if wants == D.FEWEST:
            limit = int(row[play_row.SOL_LIMIT])
            assert (mine <= limit) == (truth <= limit)
        else:
            assert mine == truth and sum(tricks) == 13
    few = np.zeros((len(rows), 4), dtype=np.int64)
    on_one_node = D.finish_rows(few, rows, consts, D.new_table(), 1)
    assert on_one_node.sum() < settled.sum() and not few[on_one_node == 0].any()


def _solved_rows(monkeypatch: pytest.MonkeyPatch, kind: Callable[[play_row.Rows], bool]) -> list[tuple[int, bool]]:
    """From now on, each row the playouts before play solve, as (cards left, ``kind`` of the row)."""
    from regelmotor.bots import double_dummy as leaf

    solved_from: list[tuple[int, bool]] = []
    finish = leaf.finish_rows

    def record(
        won: play_row.Rows, rows: play_row.Rows, consts: play_row.Rows, table: play_row.Rows, nodes: int
    ) -> play_row.Rows:
        for row in rows:
            if not play_row.play_over(row, consts):
                solved_from.append(((13 - int(row[play_row.TRICKS])) * 4 - int(row[play_row.TRICK_N]), bool(kind(row))))
        return finish(won, rows, consts, table, nodes)

    monkeypatch.setattr(leaf, "finish_rows", record)
    return solved_from


def test_an_open_sols_playouts_are_solved_from_more_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bordlægger's hand lies on the table, and its defenders at the table search their defence against
    it; the playouts that price it are solved from ``Budget.plan_dd_open_sol_cards`` cards, every other
    contract's from ``plan_dd_cards`` (a row whose play is over is solved where it ended)."""
    from regelmotor.bots.expert import Budget, ExpertBot

    solved_from = _solved_rows(
        monkeypatch, lambda row: bool(row[play_row.SOL_LIMIT] >= 0 and row[play_row.OPEN_SEATS] != 0)
    )
    rules = rules_of("standard")
    game = Game.from_seed(rules, 4, 0)
    assert game.step is not None and game.step[0] == "call"
    view = game.view(game.step[1])
    budget = Budget(plan_samples=2, bid_samples=4, plan_dd_cards=16, plan_dd_open_sol_cards=24)
    ExpertBot(rules, random.Random(1), budget=budget).choose(view, game.legal)
    assert {(24, True), (16, False)} <= set(solved_from) <= {(24, True), (16, True), (16, False)}
    solved_from.clear()
    ExpertBot(rules, random.Random(1), budget=dataclasses.replace(budget, plan_dd_open_sol_cards=16)).choose(
        view, game.legal
    )
    assert {(16, True), (16, False)} == set(solved_from)


def test_a_closed_sols_playouts_are_played_out_not_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed sol's declarer keeps his hand hidden to the end, and a solved leaf would show it to the
    defenders; its playouts before play are played out by the rules of thumb (``Budget.plan_dd_closed_sol_cards``
    0), every other contract's solved as before. With the setting at 16 they are solved from 16 cards."""
    from regelmotor.bots import double_dummy as leaf
    from regelmotor.bots.expert import Budget, ExpertBot

    solved_from = _solved_rows(
        monkeypatch, lambda row: leaf.objective(row) == leaf.FEWEST and row[play_row.OPEN_SEATS] == 0
    )
    rules = rules_of("standard")
    game = Game.from_seed(rules, 4, 0)
    assert game.step is not None and game.step[0] == "call"
    view = game.view(game.step[1])
    budget = Budget(plan_samples=2, bid_samples=4)
    ExpertBot(rules, random.Random(1), budget=budget).choose(view, game.legal)
    assert solved_from and all(not closed for _, closed in solved_from)
    solved_from.clear()
    ExpertBot(rules, random.Random(1), budget=dataclasses.replace(budget, plan_dd_closed_sol_cards=16)).choose(
        view, game.legal
    )
    assert (16, True) in solved_from


def test_a_closed_sols_declarer_looks_ahead_in_the_playouts_where_the_budget_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``Budget.plan_closed_sol_looking`` a closed sol's playouts before play are played out with the
    declarer weighing his cards in their first tricks (``kernel.playout_rows_looking``), and not solved; the
    other contracts' playouts are solved as before."""
    from regelmotor.bots import double_dummy as leaf
    from regelmotor.bots.expert import Budget, ExpertBot

    solved_from = _solved_rows(
        monkeypatch, lambda row: leaf.objective(row) == leaf.FEWEST and row[play_row.OPEN_SEATS] == 0
    )
    looked: list[tuple[int, int]] = []
    looking = K.playout_rows_looking

    def record(rows: play_row.Rows, consts: play_row.Rows, seed: int, tricks: int) -> play_row.Rows:
        closed = [leaf.objective(row) == leaf.FEWEST and row[play_row.OPEN_SEATS] == 0 for row in rows]
        looked.append((len(rows), sum(closed)))
        return looking(rows, consts, seed, tricks)

    monkeypatch.setattr(K, "playout_rows_looking", record)
    rules = rules_of("standard")
    game = Game.from_seed(rules, 4, 0)
    assert game.step is not None and game.step[0] == "call"
    view = game.view(game.step[1])
    budget = Budget(plan_samples=2, bid_samples=4, plan_closed_sol_looking=2)
    ExpertBot(rules, random.Random(1), budget=budget).choose(view, game.legal)
    assert looked and all(rows == closed for rows, closed in looked)
    assert solved_from and all(not closed for _, closed in solved_from)


def test_a_leads_finalists_are_solved_from_more_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``Budget.dd_lead_cards``, the leads the playouts rank highest (``dd_lead_finalists``) are
    solved again from that many cards, and the card led is one of them; without it nothing is."""
    from regelmotor.bots import double_dummy as leaf
    from regelmotor.bots.expert import Budget, ExpertBot
    from regelmotor.bots.heuristic import HeuristicBot

    searched: list[tuple[list[int], int]] = []
    evaluate = leaf.evaluate_cards

    def record(
        won: play_row.Rows,
        rows: play_row.Rows,
        candidates: play_row.Rows,
        consts: play_row.Rows,
        table: play_row.Rows,
        nodes: int,
    ) -> int:
        searched.append((candidates.tolist(), (13 - int(rows[0, play_row.TRICKS])) * 4))
        return evaluate(won, rows, candidates, consts, table, nodes)

    monkeypatch.setattr(leaf, "evaluate_cards", record)
    rules = rules_of("standard")
    for seed in range(40):
        game = Game.from_seed(rules, seed, 0)
        driver = HeuristicBot(rules, random.Random(seed))
        while game.step is not None and not (
            game.phase == "play" and not game.trick and sum(map(len, game.hands)) == 28
        ):
            game.apply(driver.choose(game.view(game.to_act), game.legal))
        if game.step is not None and game.bid is not None and not game.bid.is_sol:
            break
    seat = game.to_act
    assert seat is not None and len(game.legal) > 3
    budget = Budget(dd_lead_cards=28, dd_lead_finalists=3)
    bot = ExpertBot(rules, random.Random(1), budget=budget, play_samples=4)
    led = bot.choose(game.view(seat), game.legal)
    [(finalists, left)] = searched
    assert len(finalists) == 3 and left == 28
    assert led.card in finalists
    assert bot.estimates[led] == max(v for a, v in bot.estimates.items() if a.card in finalists)
    searched.clear()
    ExpertBot(rules, random.Random(1), budget=dataclasses.replace(budget, dd_lead_cards=0), play_samples=4).choose(
        game.view(seat), game.legal
    )
    assert searched == []


def test_the_bids_are_priced_on_playouts_solved_from_their_last_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The auction's playouts end double dummy (``Budget.plan_dd_cards``), as the experts at the table
    play their last tricks; with 0 they are played to the end by the rules of thumb."""
    from regelmotor.bots import double_dummy as leaf
    from regelmotor.bots.expert import Budget, ExpertBot

    finished: list[int] = []
    finish = leaf.finish_rows

    def record(
        won: play_row.Rows, rows: play_row.Rows, consts: play_row.Rows, table: play_row.Rows, nodes: int
    ) -> play_row.Rows:
        settled = finish(won, rows, consts, table, nodes)
        finished.append(int(settled.sum()))
        return settled

    monkeypatch.setattr(leaf, "finish_rows", record)
    rules = rules_of("standard")
    game = Game.from_seed(rules, 3, 0)
    assert game.step is not None and game.step[0] == "call"
    view = game.view(game.step[1])
    ExpertBot(rules, random.Random(1), budget=Budget(plan_samples=2, bid_samples=4)).choose(view, game.legal)
    assert finished and sum(finished) > 0
    finished.clear()
    ExpertBot(rules, random.Random(1), budget=Budget(plan_samples=2, bid_samples=4, plan_dd_cards=0)).choose(
        view, game.legal
    )
    assert finished == []
