"""The first run after installing is not silent (issue 73, item 13): before a cold compile of the search or
the expert, a line on stderr says what is prepared and how long it takes, then how long it took; with the
compiled code in the cache nothing is said. Whether a part is compiled is read from numba's cache index,
before anything is compiled. No test here compiles the search: the parts' work is replaced by nothing, and
the cache check is tried on a tiny compiled function."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from regelmotor import prepare as numba_cache
from regelmotor.progress import FirstCompile

from .test_numba_cache import run_probe


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _parts(monkeypatch: pytest.MonkeyPatch, cold: set[str]) -> list[str]:
    """Parts in ``cold`` not compiled yet; each part's work replaced by a note of it."""
    ran: list[str] = []

    def compiled(part: str) -> bool:
        return part not in cold

    monkeypatch.setattr(numba_cache, "compiled", compiled)

    def noting(part: str) -> Callable[[], None]:
        return lambda: ran.append(part)

    for part in numba_cache.PARTS:
        monkeypatch.setitem(numba_cache.COMPILE, part, noting(part))
    return ran


def _clock() -> Callable[[], float]:
    times = iter([100.0, 100.0, 184.0])
    return lambda: next(times)


def test_a_cold_compile_is_said_before_and_after(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _parts(monkeypatch, {"search"})
    stream = Terminal()
    assert numba_cache.prepare(["search"], "da", stream, clock=_clock()) == ["search"]
    assert ran == ["search"]
    said = stream.getvalue()
    assert said.startswith("Forbereder søgningen første gang (den oversættes til maskinkode, ca. 1-2 min;")
    assert said.endswith(" ... færdig efter 84 s\n")


def test_a_warm_cache_says_nothing_and_compiles_nothing_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _parts(monkeypatch, set())
    stream = Terminal()
    assert numba_cache.prepare(["search", "kernel", "leaf"], "da", stream) == []
    assert ran == [] and stream.getvalue() == ""


def test_the_line_is_english_with_lang_en(monkeypatch: pytest.MonkeyPatch) -> None:
    _parts(monkeypatch, {"kernel", "leaf"})
    stream = Terminal()
    numba_cache.prepare(["kernel", "leaf"], "en", stream, clock=_clock())
    assert stream.getvalue().startswith("Preparing the expert bot for the first time")
    assert stream.getvalue().endswith("... done after 84 s\n")


def test_off_a_terminal_or_quiet_the_compile_is_done_without_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _parts(monkeypatch, {"search"})
    piped = io.StringIO()
    numba_cache.prepare(["search"], "da", piped)
    numba_cache.prepare(["search"], "da", Terminal(), quiet=True)
    assert ran == ["search", "search"] and piped.getvalue() == ""


def test_a_part_that_fails_is_left_to_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    _parts(monkeypatch, {"search"})

    def fails() -> None:
        raise RuntimeError("no")

    monkeypatch.setitem(numba_cache.COMPILE, "search", fails)
    stream = Terminal()
    assert numba_cache.prepare(["search"], "da", stream) == ["search"]
    assert stream.getvalue().endswith("færdig efter 0 s\n")


def test_the_bots_parts() -> None:
    assert numba_cache.parts_of_bots(["expert"] * 4) == ["kernel", "leaf"]
    assert numba_cache.parts_of_bots(["heuristic", "expert-v1"]) == ["kernel"]
    assert numba_cache.parts_of_bots(["random", "heuristic"]) == []


def test_every_line_is_in_both_languages() -> None:
    from regelmotor.phrase_table import phrases

    for lang in ("da", "en"):
        for what in ("search", "expert", "all"):
            assert phrases(lang)[f"compile_{what}"]
        with FirstCompile("search", lang, Terminal()) as said:
            pass
        assert isinstance(said.stream, Terminal)
        assert "{elapsed}" in phrases(lang)["compile_done"] and "{folder}" in phrases(lang)["compile_ready"]


def test_analyse_says_it_on_stderr_and_never_in_its_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``analyse`` asks for the search before its work: the line goes to stderr, stdout is only ``--json``'s."""
    from regelmotor.cli import analysis as cli_analysis
    from regelmotor.cli import main

    out = io.StringIO()
    assert main(["simulate", "standard", "--deals", "1", "--bots", "heuristic", "--records", str(tmp_path)], out) == 0
    ran = _parts(monkeypatch, {"search"})
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)

    class Stop(Exception):
        pass

    def analysed(*args: object, **kwargs: object) -> object:
        raise Stop  # the search itself is not what is tested

    monkeypatch.setattr(cli_analysis, "analyse_game", analysed)
    out = io.StringIO()
    with pytest.raises(Stop):
        main(["analyse", str(tmp_path / "deal-0001.json"), "--json"], out)
    assert ran == ["search"]
    assert terminal.getvalue().startswith("Forbereder søgningen første gang")
    assert out.getvalue() == ""


PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from regelmotor import prepare as numba_cache
import probe_module
numba_cache.PARTS["probe"] = (("probe_module", "twice"),)
before = numba_cache.compiled("probe")
assert probe_module.twice(21) == 42
print(json.dumps({"before": before, "after": numba_cache.compiled("probe")}))
"""


def test_the_cache_index_tells_a_compiled_part_before_it_is_compiled(tmp_path: Path) -> None:
    """A tiny compiled function in a fresh cache: not compiled in the first process until it has run, and
    compiled in the next before it runs (read from numba's index file, nothing compiled to ask)."""
    assert run_probe(PROBE, tmp_path) == {"before": False, "after": True}
    assert run_probe(PROBE, tmp_path) == {"before": True, "after": True}
