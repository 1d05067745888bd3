"""The command line: commands, exit codes 0/1/2, and --json alone on stdout (docs/notation.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from regelmotor.cli import main

from .conftest import CONFIGS, HOUSE_RULES, RULESETS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_ladder_standard_prints_001s_ladder(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "ladder", "standard")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "7 < 7 vip < 7 gode < 7 sans < 7 halve"
    assert out.splitlines()[2] == "< 9 < sol < 9 vip < 9 gode < 9 sans < 9 halve"
    assert out.splitlines()[-1] == "< 13 < 13 vip < 13 gode < 13 sans < 13 halve"


def test_ladder_json_is_a_list_of_bid_strings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ladder", "gruppe2", "--json")
    bids = json.loads(out)
    assert code == 0 and bids[:4] == ["7", "7 gode", "7 sans", "7 halve"] and "oplægger" in bids


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("house", HOUSE_RULES)
def test_ladder_takes_house_rules_or_says_why_not(capsys: pytest.CaptureFixture[str], name: str, house: str) -> None:
    code, out, err = run(capsys, "ladder", name, "-H", house, "--json")
    if (name, house) not in CONFIGS:  # a house rule for jokers, gå med, a vip or halve the ruleset lacks
        assert code == 1 and out == "" and f"rulesets/house/{house}.yaml:" in err
    else:
        assert code == 0 and err == ""
        assert json.loads(out) or name == "engelsk"  # engelsk whist has no bidding: an empty ladder


def test_validate_passes_every_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    from .conftest import REPO

    files = [str(p) for p in sorted((REPO / "rulesets").rglob("*.yaml"))]
    code, out, err = run(capsys, "validate", *files)
    assert code == 0 and out == "" and err == f"{len(files)} filer er gyldige\n"


def test_validate_prints_every_problem_and_exits_1(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str]
) -> None:
    club(
        "club.yaml",
        "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\n"
        "deck:\n  kitty: 03\nfordaekt:\n  allowed: yes\n",
    )
    code, out, err = run(capsys, "validate", "club.yaml")
    assert code == 1
    assert [line.split(": ", 2)[:2] for line in out.splitlines()] == [
        ["club.yaml:8:10", "deck.kitty"],
        ["club.yaml:10:12", "fordaekt.allowed"],
    ]
    assert err == "2 fejl i 1 af 1 filer\n"


def test_validate_json(capsys: pytest.CaptureFixture[str], club: Callable[..., str]) -> None:
    club("club.yaml", "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\njokrs: 1\n")
    code, out, err = run(capsys, "validate", "club.yaml", "--json")
    assert code == 1 and err == ""
    assert json.loads(out) == [
        {
            "file": "club.yaml",
            "valid": False,
            "problems": [
                {
                    "file": "club.yaml",
                    "line": 7,
                    "column": 1,
                    "path": "jokrs",
                    "message": 'unknown key "jokrs" (did you mean "jokers"?)',
                }
            ],
            "warnings": [],
        }
    ]


def test_validate_warns_about_a_changed_rule_that_still_cites_its_parent(
    capsys: pytest.CaptureFixture[str], club: Callable[..., str]
) -> None:
    """The trust issue: "changing a value that keeps an inherited source: cites the parent's words beside the
    club's number" and "a club file whose base table leaves out a level inherits the parent's value"."""
    club(
        "club.yaml",
        "extends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\n"
        "misdeal:\n  penalty: 5\nscoring:\n  tables:\n    base:\n      key: level\n      values: {7: 100, 8: 200}\n",
    )
    code, out, err = run(capsys, "validate", "club.yaml")
    assert code == 0 and err == "1 fil er gyldig\n"
    assert "club.yaml:7:12: misdeal.penalty: advarsel: ændret her, men reglens kilde henviser stadig til" in out
    assert "advarsel: tabellen beholder værdierne fra rulesets/standard.yaml for 9, 10, 11, 12, 13" in out


def test_show_json_is_the_resolved_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "whistklubben", "-H", "dobling", "--json")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["name"] == "whistklubben" and data["doubling"]["allowed"] is True
    assert data["exchange"]["amount"] == "up_to_all" and data["deck"] == {
        "source": data["deck"]["source"],
        "jokers": 3,
        "kitty": 3,
    }


def test_show_human_names_the_files(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "whistklubben")
    assert code == 0
    assert out.splitlines()[1] == "# bygget af: rulesets/standard.yaml, rulesets/whistklubben.yaml"


def test_rulesets_lists_names_and_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rulesets", "--json")
    entries = json.loads(out)
    assert code == 0
    assert {e["name"] for e in entries if e["kind"] == "ruleset"} == set(RULESETS)
    assert {e["name"] for e in entries if e["kind"] == "house_rule"} == set(HOUSE_RULES)
    assert all(e["description"] for e in entries)


def test_schema_prints_the_committed_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from .conftest import REPO

    code, out, _ = run(capsys, "schema")
    assert code == 0 and out == (REPO / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8")


def test_an_unknown_ruleset_exits_1_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "ladder", "thorsn")
    assert code == 1 and out == ""
    assert err.startswith('regelmotor: intet medfølgende reglesæt hedder "thorsn" (mente du "thorsen"?)')


def test_an_unknown_house_rule_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "ladder", "standard", "-H", "gaamed")
    assert code == 1 and 'ingen medfølgende husregel hedder "gaamed" (mente du "gaa-med"?)' in err


def test_usage_errors_exit_2() -> None:
    result = subprocess.run([sys.executable, "-m", "regelmotor", "ladder"], capture_output=True, text=True)
    assert result.returncode == 2 and "disse argumenter mangler: REGLESÆT" in result.stderr
    english = {**os.environ, "REGELMOTOR_LANG": "en"}
    result = subprocess.run([sys.executable, "-m", "regelmotor", "ladder"], capture_output=True, text=True, env=english)
    assert result.returncode == 2 and "the following arguments are required: RULESET" in result.stderr
    result = subprocess.run([sys.executable, "-m", "regelmotor", "frobnicate"], capture_output=True, text=True)
    assert result.returncode == 2


@pytest.mark.parametrize("command", ["rulesets", "validate", "show", "schema", "ladder"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith(f"brug: regelmotor {command}")
    if command in ("validate", "show"):  # in English where the reader asks for it
        with pytest.raises(SystemExit):
            main([command, "--help", "--lang", "en"])
        assert capsys.readouterr().out.startswith(f"usage: regelmotor {command}")


def test_version_is_printed_as_a_python_tool_does(capsys: pytest.CaptureFixture[str]) -> None:
    from regelmotor import __version__

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"regelmotor {__version__}"


def test_bash_completion_offers_the_commands_their_options_and_the_shipped_rulesets(tmp_path: Path) -> None:
    import io
    import shutil
    import subprocess

    out = io.StringIO()
    assert main(["completion", "bash"], out) == 0
    script = tmp_path / "regelmotor.bash"
    script.write_text(out.getvalue(), encoding="utf-8")
    if shutil.which("bash") is None:
        pytest.skip("no bash on this machine")

    def complete(*words: str) -> list[str]:
        probe = f'source {script}; COMP_WORDS=(regelmotor {" ".join(words)}); COMP_CWORD={len(words)}; _regelmotor; echo "${{COMPREPLY[@]}}"'
        return subprocess.run(
            ["bash", "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path
        ).stdout.split()

    assert complete("ana") == ["analyse"]
    assert "--from-trick" in complete("analyse", "--fr")
    assert complete("show", "thor") == ["thorsen"]
    assert "joker-trumpable" in complete("simulate", "standard", "-H", "joker")
