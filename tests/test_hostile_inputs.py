"""A corpus of hostile and broken inputs (tests/hostile/): each gets a clean, located error, never a
traceback, a hang or a crash, and nothing is accepted silently.

``expected.json`` lists every file with its category and a part of the message it must get.
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from regelmotor.cli import main

from .conftest import REPO

CORPUS = REPO / "tests" / "hostile"
CASES = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
LOCATED = re.compile(r"^(regelmotor: |\S+:\d+:\d+: )")
"""Every answer starts with where: a file, line and column, or the command's own name."""
GUARD_SECONDS = 60
"""Not a performance bound: a case still running after a minute has hung, and fails instead of stalling CI."""


@contextmanager
def no_hang() -> Iterator[None]:
    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"still running after {GUARD_SECONDS} s: the input's cost is not bounded")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(GUARD_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_corpus_covers_every_category_with_at_least_80_files() -> None:
    categories = {case["category"] for case in CASES}
    assert (
        len(CASES) >= 80
        and {"yaml-syntax", "yaml-traps", "size", "formulas", "schema", "extends", "records"} <= categories
    )
    assert {case["file"] for case in CASES} == {p.name for p in CORPUS.iterdir() if p.name != "expected.json"}


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_each_hostile_input_gets_a_clean_located_error(
    case: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CORPUS)
    command = ["replay", case["file"]] if case["file"].endswith(".json") else ["validate", case["file"]]
    command.append("--lang=en")  # the corpus says what each error says in English; Danish is tested beside
    with no_hang():
        code = main(command)
    out, err = capsys.readouterr()
    said = out + err  # validate lists the problems on stdout, replay says why on stderr
    assert code == 1, f"accepted: {said}"
    assert "Traceback" not in said and LOCATED.match(said), said
    assert case["expect"] in said
    assert "\x1b" not in said  # control characters are escaped, never sent to the terminal


def test_a_file_too_large_for_a_ruleset_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sparse 1 GB file: refused from its size, so it costs no memory."""
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(1 << 30)
    with no_hang():
        assert main(["validate", str(big)]) == 1
    assert "filen er for stor (1.073.741.824 byte; højst 1.000.000 byte)" in capsys.readouterr().out
    record = tmp_path / "big.json"
    with record.open("wb") as handle:
        handle.truncate(1 << 30)
    assert main(["replay", str(record)]) == 1
    assert "filen er for stor (1.073.741.824 byte; højst 2.000.000 byte)" in capsys.readouterr().err
