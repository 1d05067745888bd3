"""``analyse`` checks a record as ``replay`` does (issue 71, "Nothing lost, round three").

The issue: "`analyse` checks neither a record's ruleset fingerprint nor its stored result, where `replay` warns
on the first and refuses the second; a record relabelled to another ruleset is blamed on a card ("du har ikke
A♣")." What to build: "`analyse` on a record checks what `replay` checks (fingerprint: a warning; stored
result: a refusal) and says "reglerne er ikke de samme" where the rules differ, not a card."
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.cli import main
from regelmotor.engine.game import Game
from regelmotor.records import Record, check_replay, game_record, replay

from .conftest import rules_of


def _record(name: str, seed: int = 5) -> dict[str, Any]:
    """A finished deal of ``name`` as the engine writes its record (fingerprint and result included)."""
    rules = rules_of(name)
    rng = random.Random(3)
    game = Game.from_seed(rules, seed, 0)
    bots = [HeuristicBot(rules, rng) for _ in range(4)]
    while game.step is not None:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal))
    return json.loads(json.dumps(game_record(game, name), default=str))  # type: ignore[no-any-return]


def _write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "spil.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _analyse(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(["analyse", str(path), "--from-trick", "13", "--nodes", "1000", *flags], out)
    return code, out.getvalue(), capsys.readouterr().err


def test_analyse_warns_of_a_record_played_under_other_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What to build: "`analyse` on a record checks what `replay` checks (fingerprint: a warning ...)"."""
    path = _write(tmp_path, _record("standard") | {"ruleset_hash": "0000000000000000"})
    code, out, err = _analyse(capsys, path)
    assert code == 0 and "Analyse med åbne kort" in out  # a warning: the analysis is made
    assert "regelmotor: advarsel: referatet blev spillet efter andre regler end dem, standard nu giver" in err
    code, _, err = _analyse(capsys, path, "--lang", "en")
    assert code == 0 and "warning: the record was played under other rules than standard" in err


def test_analyse_refuses_a_record_whose_stored_result_is_not_the_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What to build: "... stored result: a refusal"."""
    record = _record("standard")
    record["result"]["scores"] = [999, -333, -333, -333]
    path = _write(tmp_path, record)
    code, out, err = _analyse(capsys, path)
    assert code == 1 and out == ""
    assert f"{path}: det gemte resultat stemmer ikke med genspilningen: scores: referatet siger [999" in err
    code, out, err = _analyse(capsys, path, "--lang", "en")
    assert code == 1 and "the stored result disagrees with the replay: scores: the record says [999" in err


def test_a_relabelled_record_is_said_to_have_other_rules_not_blamed_on_a_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: "a record relabelled to another ruleset is blamed on a card ("du har ikke A♣")"; what to
    build: "says "reglerne er ikke de samme" where the rules differ, not a card"."""
    relabelled = _record("dansk") | {"ruleset": "engelsk"}  # its fingerprint stays dansk's
    stop = replay(Record.model_validate(relabelled)).stop
    assert stop is not None  # the engelsk rules refuse one of its actions
    path = _write(tmp_path, relabelled)
    code, out, err = _analyse(capsys, path)
    assert code == 1 and out == ""
    assert f"{path}: reglerne er ikke de samme: referatet blev spillet efter andre regler end dem, engelsk" in err
    assert stop.text("da") not in err and (stop.message_da or stop.message) not in err  # not blamed on the action
    code, _, err = _analyse(capsys, path, "--lang", "en")
    assert code == 1 and "the rules are not the same" in err and stop.text("en") not in err


def test_a_relabelled_record_whose_cards_the_rules_cannot_deal_is_said_to_have_other_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record relabelled to a ruleset without its kitty: the rules differ, not its cards."""
    path = _write(tmp_path, _record("standard") | {"ruleset": "engelsk"})
    code, _, err = _analyse(capsys, path)
    assert code == 1 and "reglerne er ikke de samme" in err and "kortene kan ikke gives efter dem" in err


def test_replay_and_analyse_share_one_copy_of_the_checks() -> None:
    """The brief: "reuse those checks rather than writing a second copy": ``check_replay`` is what both say."""
    record = _record("standard")
    record["result"]["contract"] = "sol"
    check = check_replay(replay(Record.model_validate(record | {"ruleset_hash": "0" * 16})), "spil.json")
    assert check.warnings == () and check.refusals  # the stored result differs under other rules:
    assert check.rules_differ is not None and "reglerne er ikke de samme" in check.rules_differ.text("da")
    clean = check_replay(replay(Record.model_validate(_record("standard"))), "spil.json")
    assert clean.warnings == () and clean.refusals == () and clean.rules_differ is None
