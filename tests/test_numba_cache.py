"""The compiled play functions' disk cache is named by the sources of every compiled module, so a caller
in an unchanged file never runs an old compiled copy of a function changed in another (a hazard the
solver's review found: a minimax test failed on stale code after ``solver.py``'s frames changed). It lies in
the user's cache folder as the platform names it, and is set for regelmotor's functions only: importing
regelmotor sets nothing for the process (issue 73: "Importing the package sets ``NUMBA_CACHE_DIR`` for the
whole process")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from regelmotor.numba_cache import cache_dir

from .conftest import REPO


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


def test_the_cache_is_the_users_not_the_checkouts(tmp_path: Path) -> None:
    folder = cache_dir(_package(tmp_path / "pkg", "@jit\n", ""))
    assert Path(folder).parent == Path(platformdirs.user_cache_dir("regelmotor", appauthor=False))


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME moves the cache folder on Linux only")
def test_the_cache_follows_xdg_cache_home_on_linux(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert cache_dir(_package(tmp_path / "pkg", "@jit\n", "")).startswith(str(tmp_path / "cache" / "regelmotor"))


PROBE = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from regelmotor.numba_cache import cache_dir
from regelmotor.rules.cardplay.masks import JIT
import probe_module
assert probe_module.twice(21) == 42
print(json.dumps({
    "environment": "NUMBA_CACHE_DIR" in os.environ,
    "folder": cache_dir(),
    "path": probe_module.twice._cache.cache_path,
    "hits": sum(probe_module.twice.stats.cache_hits.values()),
    "jit": JIT,
}))
"""


def run_probe(script: str, folder: Path) -> dict[str, object]:
    """``script`` run in a fresh process beside a tiny compiled function (``probe_module.twice``) in
    ``folder``, its cache the test's own (never the user's), with no numba setting from this process: what
    it printed as JSON."""
    import json

    if not (folder / "probe_module.py").exists():
        (folder / "probe_module.py").write_text(
            "from regelmotor.rules.cardplay.masks import jit\n\n@jit\ndef twice(x):\n    return 2 * x\n",
            encoding="utf-8",
        )
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["XDG_CACHE_HOME"] = str(folder / "cache")
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder)], capture_output=True, text=True, env=env, cwd=folder
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_compiled_function_is_cached_in_regelmotors_folder_and_the_process_is_left_alone(tmp_path: Path) -> None:
    """A function compiled by regelmotor's ``jit`` is written to ``cache_dir()`` and read from it by the next
    process; numba's own setting is not touched, in ``os.environ`` or anywhere a library would see it."""
    first, second = run_probe(PROBE, tmp_path), run_probe(PROBE, tmp_path)
    assert first["environment"] is False and first["jit"] is True
    assert str(first["path"]).startswith(str(first["folder"]))
    if sys.platform == "linux":
        assert str(first["folder"]).startswith(str(tmp_path / "cache" / "regelmotor"))
    assert first["hits"] == 0 and second["hits"] == 1, (first, second)
