"""Actions are typed values inside the engine; the notation (docs/notation.md) is read and written at the edges.

A refusal is structured (the rule's key, a phrase of the one phrase table, its values) and said in
Danish or English from that table; records written before actions were typed replay unchanged.
"""

from __future__ import annotations

import json
import random
import re
import string

import pytest

from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.cards import parse_card
from regelmotor.engine.actions import PASS_ACTION, PLAYS, Action, parse_action, public
from regelmotor.engine.game import Game
from regelmotor.errors import RuleViolation
from regelmotor.phrases import phrases, refusal
from regelmotor.records import Record, replay

from .conftest import CONFIGS, REPO, deal, play, rules_of

OLD_RECORDS = REPO / "tests" / "records" / "written-before-typed-actions.json"
"""65 deals (13 configurations; heuristic and random bots) recorded by main at b667104, before actions
were typed: each with the result it was scored to then."""


@pytest.mark.parametrize(("name", "house"), CONFIGS[::4], ids=[f"{n}+{h}" if h else n for n, h in CONFIGS[::4]])
def test_every_offered_action_is_typed_and_its_notation_reads_back_as_itself(name: str, house: str | None) -> None:
    rules = rules_of(name, *((house,) if house else ()))
    rng = random.Random(name)
    for number in range(12):
        game = Game.from_seed(rules, rng.randrange(2**32), dealer=number % 4)
        while game.step is not None:
            legal = game.legal
            for action in (legal[0], legal[-1], rng.choice(legal)):
                assert type(action) is Action
                assert game.parse(str(action)) == action  # written, then read: the same action
            game.apply(PASS_ACTION if PASS_ACTION in legal and rng.random() < 0.5 else rng.choice(legal))


def test_an_action_is_never_its_notation_string() -> None:
    """Typed, not a string in disguise: comparing with the notation is a mistake the types show."""
    assert PLAYS[parse_card("AS")] != "AS" and str(PLAYS[parse_card("AS")]) == "AS"
    assert PASS_ACTION != "pass" and str(PASS_ACTION) == "pass"


def test_the_engine_applies_no_string_it_was_not_given_at_its_edge() -> None:
    """``apply`` takes the notation and reads it once (``parse``); the history keeps the typed action."""
    game = play(deal("standard", dealer=3), "8", "pass", "pass", "pass")
    assert all(type(action) is Action for _, action in game.history)
    assert game.history[0][1].bid == game.rules.auction.ladder.parse("8")


def test_one_function_makes_the_public_view_of_an_action() -> None:
    """000 definitions, "Spille et kort": a card laid fordækt lies face down; only its owner sees it. The
    exchange's discards are seen by the one who made them only."""
    discard = parse_action("discard AS KH 2C", rules_of("standard").auction.ladder)
    assert public(discard, actor=1, viewer=1) == discard
    hidden = public(discard, actor=1, viewer=2)
    assert str(hidden) == "discard ? ? ?" and hidden.cards == () and hidden.hidden == 3
    laid = parse_action("fordækt 7H", rules_of("standard").auction.ladder)
    assert str(public(laid, actor=0, viewer=3)) == "fordækt ?" and public(laid, actor=0, viewer=0) == laid
    assert public(PASS_ACTION, actor=0, viewer=1) is PASS_ACTION


def test_a_seat_sees_its_own_discards_in_the_history_and_no_one_elses() -> None:
    """001: "Man bytter alle tre eller ingen": the declarer's three discards, in his own view only."""
    hand = "AH KH QH JH TH 9H AS KS AC KC 2D 3D 4D"
    game = play(deal("standard", dealer=3, s0=hand, kitty="5C 6C 7C"), "8", "pass", "pass", "pass")
    game = play(game, "trump H", "call AD", "discard 2D 3D 4D")
    mine = game.view(0).history[-1][1]
    theirs = [game.view(seat).history[-1][1] for seat in (1, 2, 3)]
    assert str(mine) == "discard 4D 3D 2D" and {str(a) for a in theirs} == {"discard ? ? ?"}


def test_the_heuristic_plays_a_whole_deal_with_typed_actions_only() -> None:
    rules = rules_of("thorsen", "fordaekt")
    game = Game.from_seed(rules, 11, dealer=0)
    bots = [HeuristicBot(rules, random.Random(seat)) for seat in range(4)]
    while game.step is not None:
        seat = game.to_act
        assert seat is not None
        choice = bots[seat].choose(game.view(seat), game.legal)
        assert type(choice) is Action and choice in game.legal
        game.apply(choice)


# --- refusals ------------------------------------------------------------------------------------


def test_every_refusal_phrase_is_in_danish_and_english_with_the_same_fields() -> None:
    da, en = phrases("da"), phrases("en")
    keys = {k for k in da if k.startswith("refusal_")}
    assert keys == {k for k in en if k.startswith("refusal_")} and len(keys) > 20
    for key in keys:
        fields = {name for _, name, _, _ in string.Formatter().parse(da[key]) if name}
        assert fields == {name for _, name, _, _ in string.Formatter().parse(en[key]) if name}, key


def _refused(game: Game, action: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        game.apply(action)
    return refused.value


def test_whose_turn_it_is_is_said_in_either_language() -> None:
    game = deal("standard", dealer=3)
    refusal = _refused_at(game, "pass", seat=2)
    assert refusal.rule == "turn"
    assert refusal.text("da") == "det er plads 1s tur, ikke plads 3s"  # a person counts seats from 1
    assert refusal.text("en") == "it is seat 1's turn, not seat 3's"


def _refused_at(game: Game, action: str, seat: int) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        game.apply(action, seat)
    return refused.value


def test_a_bid_below_the_highest_says_melde_tilbage_in_danish() -> None:
    """001: each bid must be higher than the one before (melde tilbage)."""
    game = play(deal("standard", dealer=3), "9")
    refusal = _refused(game, "8")
    assert refusal.rule == "auction" and refusal.phrase == "bid_lower"
    assert refusal.text("da") == "8 er lavere end det højeste bud 9: et bud skal være højere (melde tilbage)"


def test_a_plugins_one_sentence_refusal_is_shown_as_it_is() -> None:
    refusal = RuleViolation("play", "plain", {"text": "Syvhånd: spil din syver"})
    assert refusal.text("da") == refusal.text("en") == "Syvhånd: spil din syver"


def test_no_refusal_is_translated_by_pattern_matching_any_more() -> None:
    """The terminal and the web page render the engine's refusal from the phrase table; neither translates
    English sentences (the old REASONS_DA table of regular expressions is gone)."""
    for module in ("play.py", "web/app.py", "engine/explain.py"):
        text = (REPO / "regelmotor" / module).read_text(encoding="utf-8")
        assert "REASONS_DA" not in text and "in_danish" not in text and not re.search(r'"gaa_med" in ', text)


# --- records ----------------------------------------------------------------------------------------


def test_records_written_before_actions_were_typed_replay_to_the_same_result() -> None:
    records = json.loads(OLD_RECORDS.read_text(encoding="utf-8"))
    assert len(records) == 65
    finished = 0
    for data in records:
        result = replay(Record.model_validate(data))
        assert result.stop is None, result.stop
        differs = result.result_differs  # contract, tricks, scores, redeal
        if data["ruleset"] == "engelsk":  # its scoring changed since: 002 scores the winning pair alone (issue 48)
            differs = tuple(d for d in differs if not d.startswith("scores:"))
        assert differs == (), differs
        assert [str(a) for _, a in result.game.history] == data["actions"]  # written back as it was read
        finished += result.game.phase == "finished"
    assert finished == 55


def test_a_danish_refusal_says_the_actions_it_lists_in_the_tables_words() -> None:
    """The terminal's refusal of a partner card lists what may be called as the table says it, its cards as
    the hand shows them; the English keeps the notation."""
    text = refusal("partner_card", {"action": "AS", "legal": ["call AH", "call TD", "call JK1"]}, "da")
    assert text == "A♠ kan ikke kaldes som makkerkort: makker A♥, makker 10♦, makker joker 1"
    assert refusal("partner_card", {"action": "AS", "legal": ["call AH"]}, "en") == (
        "AS cannot be called as partner card: call AH"
    )
