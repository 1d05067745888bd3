"""regelmotor replay: records replay to the state reached, or stop at the action the rules forbid.
At least one situation of each rules-matrix section (1-6, 9) is replayed through the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from regelmotor.cards import format_card, parse_cards
from regelmotor.cli import main
from regelmotor.engine.game import Game
from regelmotor.records import game_record, record_schema_text

from .conftest import REPO, deal, offered, play

HAND = "AS 2S 3S 4S KH QH JH TH 9H 2D 3D 4D 5D"


def record_of(game: Game, ruleset: str, *house: str, actions: list[Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "house_rules": list(house),
        "dealer": game.dealer,
        "hands": [[format_card(c) for c in hand] for hand in game.initial_hands],
        "kitty": [format_card(c) for c in game.initial_kitty],
        "actions": actions or [],
    }


def run(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str], record: dict[str, Any], *flags: str
) -> tuple[int, Any, str]:
    path = club("record.json", json.dumps(record, ensure_ascii=False))
    code = main(["replay", path, *flags])
    out = capsys.readouterr()
    return code, json.loads(out.out) if "--json" in flags else out.out, out.err


def test_section_1_thorsen_all_pass_next_dealer(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """000 3.9: "Hvis alle fire spillere passer, standses spillet, og den næste spiller i tur giver kort til et
    nyt spil." """
    record = record_of(deal("thorsen", dealer=2), "thorsen", actions=["pass"] * 4)
    code, state, err = run(capsys, club, record, "--json")
    assert code == 0 and err == ""
    assert state["phase"] == "redeal" and state["redeal"] == {"reason": "all_pass", "next_dealer": 3, "seat": None}
    assert state["to_act"] is None and state["legal_actions"] == []


def test_section_2_an_equal_bid_stops_the_replay(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """003 12: "For at overgå en sol skal der meldes 10, 9 gode/sans/halve/ eller ren sol." (equal rank)."""
    record = record_of(deal("gruppe2", dealer=3), "gruppe2", actions=["9 gode", "9 sans"])
    code, state, err = run(capsys, club, record, "--json")
    assert code == 1
    assert state["error"]["index"] == 1 and state["error"]["seat"] == 1 and state["error"]["rule"] == "auction"
    assert state["phase"] == "auction" and state["to_act"] == 1  # the state before the illegal action
    assert err.startswith("record.json: træk 2 (plads 2) '9 sans': 9 sans er lige så højt som det højeste bud 9 gode")
    assert "9 sans is as high as the highest bid 9 gode" in state["error"]["message"]  # --json: English too
    assert "9 sans er lige så højt" in state["error"]["message_da"]


def test_section_3_gaa_med_in_sol(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """000 3.8: "I solspil bliver spilleren med det højeste bud og mulige medgangere, spilførere." """
    record = record_of(deal("thorsen", dealer=3), "thorsen", actions=["sol", "gå med", "pass", "pass"])
    code, state, _ = run(capsys, club, record, "--json")
    assert code == 0 and state["contract"] == "sol" and state["declarers"] == [0, 1] and state["phase"] == "exchange"


def test_section_4_vip_turning_human_output(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """001: "Det tredje kort kan ikke afvises. Er det accepterede kort en joker, spilles der uden trumf." """
    game = deal("standard", dealer=3, s0=HAND, kitty="5H 8D JK2")
    actions = ["8 vip", "pass", "pass", "pass", "call AD", "reject", "reject"]
    record = record_of(game, "standard", actions=actions)
    code, out, _ = run(capsys, club, record, "--lang", "en")
    assert code == 0
    assert "  seat 1 must accept kitty card 3" in out.splitlines()
    assert "trump: none" in out.splitlines() and "partner card: AD (partner: not revealed)" in out.splitlines()
    assert out.splitlines()[-1].startswith("to act: seat 1: discard ")
    code, out, _ = run(capsys, club, record)  # a club member reads it in Danish, in the table's words
    assert code == 0 and "  plads 1 skal antage kattekort 3" in out.splitlines()
    assert "trumf: uden trumf" in out.splitlines() and "makkerkort: A♦ (makker: ikke afsløret)" in out.splitlines()
    assert out.splitlines()[-1].startswith("i tur: plads 1: læg ")


def test_section_5_the_called_ace_cannot_be_discarded(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str]
) -> None:
    """001: "Makker-esset må ikke lægges i katten." """
    actions = ["8", "pass", "pass", "pass", "trump H", "call AS", "discard AS 2S 3S"]
    code, state, _ = run(
        capsys, club, record_of(deal("standard", dealer=3, s0=HAND), "standard", actions=actions), "--json"
    )
    assert (
        code == 1 and state["error"]["rule"] == "exchange.called_card_may_be_discarded" and state["error"]["index"] == 6
    )
    assert "the called card AS may not be discarded" in state["error"]["message"]


def test_section_6_fordaekt(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """000 6.1.1: "Hvis spilfører efter bytningen er fri i makkerkortets farve, må han lægge et kort med
    billedsiden nedad" """
    hand = "AS 2S 3S 4S KH QH JH TH 9H 2C 3C 4C 5C"
    game = deal("thorsen", dealer=3, s0=hand, kitty="6H 7H 8H")
    actions = ["8", "pass", "pass", "pass", "trump H", "call AD", "keep", "fordaekt 2c"]
    code, state, _ = run(capsys, club, record_of(game, "thorsen", actions=actions), "--json")
    assert code == 0 and state["phase"] == "play" and "seat 1 lays a card fordækt" in state["events"]


def test_section_9_jernhaand(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    """002: "En spiller kan påberåbe jernhånd, hvis vedkommende har 13 kort uden billedkort, jokere eller esser." """
    game = deal("standard", "jernhaand", dealer=3, s2="2S 3S 4S 5S 6H 7H 8H 9D TD 2C 3C 4C 5C")
    record = record_of(game, "standard", "jernhaand", actions=[{"seat": 2, "action": "jernhånd"}])
    code, state, _ = run(capsys, club, record, "--json")
    assert code == 0 and state["redeal"] == {"reason": "jernhaand", "next_dealer": 3, "seat": 2}


def test_a_seat_given_with_an_action_is_checked(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    record = record_of(deal("standard", dealer=3), "standard", actions=[{"seat": 1, "action": "pass"}])
    code, state, err = run(capsys, club, record, "--json")
    assert (
        code == 1
        and state["error"]["rule"] == "turn"
        and "træk 1 (plads 2) 'pass': det er plads 1s tur, ikke plads 2s" in err
    )
    code, _, err = run(capsys, club, record, "--json", "--lang", "en")
    assert code == 1 and "action 1 (seat 2) 'pass': it is seat 1's turn, not seat 2's" in err


def test_a_record_the_engine_writes_replays_to_the_same_state(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str]
) -> None:
    game = play(
        deal("thorsen", dealer=3, s0=HAND, kitty="5H 9C 7D"), "8 vip2", "pass", "pass", "pass", "call AD", "accept"
    )
    record = game_record(game, "thorsen")
    assert record["ruleset_hash"] and record["result"]["trump"] == "C"
    code, state, err = run(capsys, club, record, "--json")
    assert code == 0 and err == ""
    assert {k: v for k, v in state.items() if k != "error"} == record["result"]


def test_a_record_made_under_other_rules_warns(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    record = record_of(deal("standard", dealer=3), "standard") | {"ruleset_hash": "0000000000000000"}
    code, _, err = run(capsys, club, record)
    assert code == 0 and "advarsel: referatet blev spillet efter andre regler" in err


def test_a_record_with_a_wrong_card_code_exits_1(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    record = record_of(deal("standard", dealer=3), "standard")
    record["hands"][0][0] = "1X"
    code, _, err = run(capsys, club, record)
    assert code == 1 and '"1X" is not a card' in err


def test_a_record_that_is_not_json_exits_1(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    path = club("record.json", "{ not json")
    assert main(["replay", path]) == 1
    assert "record.json:1:3: ikke JSON" in capsys.readouterr().err


def test_the_record_schema_is_committed_and_in_sync() -> None:
    committed = (REPO / "schemas" / "record.schema.json").read_text(encoding="utf-8")
    assert committed == record_schema_text(), (
        "regenerate: python -m regelmotor schema --record > schemas/record.schema.json"
    )


def test_the_first_lead_is_forhaands_and_no_joker_may_be_led() -> None:
    """001: "Forhånden spiller ud til første stik"; "Jokere må ikke spilles ud i første stik." """
    game = play(
        deal("standard", dealer=3, s0=HAND[:-3] + " JK1"), "8", "pass", "pass", "pass", "trump H", "call AD", "keep"
    )
    assert game.phase == "play" and game.to_act == 0
    assert parse_cards("JK1")[0] in game.hands[0]
    assert set(offered(game)) == {format_card(c) for c in game.hands[0] if c < 52}
    assert len(offered(game)) == 12


def test_a_whole_deal_replays_with_its_tricks_and_scores(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str]
) -> None:
    """docs/notation.md: replay "prints the result": the tricks, who won each, the tricks per seat and the scores."""
    import random

    rng = random.Random(9)
    game = play(deal("standard", dealer=3, s0=HAND), "8", "pass", "pass", "pass", "trump H", "call AD", "keep")
    while game.phase == "play":
        game.apply(rng.choice(offered(game)))
    record = game_record(game, "standard")
    code, out, _ = run(capsys, club, record, "--lang", "en")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "phase: finished"
    assert sum(line.startswith("trick ") for line in lines) == 13
    assert game.scores is not None
    assert lines[-2] == "scores: " + ", ".join(f"seat {s + 1}: {int(p):+}" for s, p in enumerate(game.scores))
    code, out, _ = run(capsys, club, record)
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "fase: slut" and sum(line.startswith("stik ") for line in lines) == 13
    assert lines[-2] == "point: " + ", ".join(f"plads {s + 1}: {int(p):+}" for s, p in enumerate(game.scores))
    code, state, _ = run(capsys, club, record, "--json")
    assert state["tricks_won"] == game.tricks_won and len(state["tricks"]) == 13 and sum(state["scores"]) == 0
