"""A real (non-editable) install carries the shipped rulesets and the schema: README's first command."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .conftest import REPO


@pytest.mark.skipif(sys.platform == "win32", reason="the venv layout differs on Windows")
def test_a_wheel_install_runs_the_readme_main_job(tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=True).create(env)
    python = env / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "-q", str(REPO)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert install.returncode == 0, install.stderr
    run = subprocess.run(
        [env / "bin" / "regelmotor", "ladder", "standard"], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "7 < 7 vip < 7 gode < 7 sans < 7 halve"
    located = subprocess.run(
        [python, "-c", "from regelmotor._data import data_dir; print(data_dir('rulesets'), data_dir('schemas'))"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert "site-packages/regelmotor/_rulesets" in located.stdout and "_schemas" in located.stdout
