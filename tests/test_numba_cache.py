"""The compiled play functions' disk cache is named by the sources of every compiled module, so a caller
in an unchanged file never runs an old compiled copy of a function changed in another (a hazard the
solver's review found: a minimax test failed on stale code after ``solver.py``'s frames changed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from regelmotor.rules.cardplay.masks import cache_dir


def _package(root: Path, solver: str, cli: str) -> Path:
    (root / "double_dummy").mkdir(parents=True, exist_ok=True)
    (root / "double_dummy" / "solver.py").write_text(solver, encoding="utf-8")
    (root / "cli.py").write_text(cli, encoding="utf-8")
    return root


def test_a_change_to_a_compiled_module_starts_a_fresh_cache(tmp_path: Path) -> None:
    before = cache_dir(_package(tmp_path, "@jit\ndef f(): return 1\n", "print(1)\n"))
    after = cache_dir(_package(tmp_path, "@jit\ndef f(): return 2\n", "print(1)\n"))
    assert before != after


def test_a_change_elsewhere_keeps_the_cache(tmp_path: Path) -> None:
    before = cache_dir(_package(tmp_path, "@jit\ndef f(): return 1\n", "print(1)\n"))
    after = cache_dir(_package(tmp_path, "@jit\ndef f(): return 1\n", "print(2)\n"))
    assert before == after


def test_the_cache_is_the_users_not_the_checkouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert cache_dir(_package(tmp_path / "pkg", "@jit\n", "")).startswith(str(tmp_path / "cache" / "regelmotor"))
