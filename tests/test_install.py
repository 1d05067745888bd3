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
    venv.EnvBuilder(with_pip=False).create(env)  # installed into by this run's pip (ensurepip takes seconds)
    python = env / "bin" / "python"
    # The new environment sees the dependencies this test run has (not the package itself: it is
    # installed below from a wheel), so no download is needed and nothing else leaks in.
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True
    ).stdout.strip()
    here = [p for p in sys.path if p.endswith("site-packages")]
    (Path(purelib) / "_dependencies.pth").write_text("\n".join(here) + "\n", encoding="utf-8")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(REPO)],
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
