"""The project's own promises: README set-up commands, CI, packaging."""

from __future__ import annotations

import re
import tomllib

from .conftest import REPO


def _readme_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_readme_has_exactly_two_set_up_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    assert "regelmotor ladder standard" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci.splitlines()


def test_every_subpackage_is_listed_for_installation() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "regelmotor").rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_the_readme_library_example_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    namespace: dict[str, object] = {}
    exec(compile(example, "README.md", "exec"), namespace)  # the README's own code, as a user would run it
    game = namespace["game"]
    assert game.phase in ("play", "redeal")


def test_the_readme_installs_with_pip_pipx_and_uv() -> None:
    """Issue 73: "no `pipx`/`uv tool` install line" beside `pip install .`."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for command in ("pip install .", "pipx install .", "uv tool install ."):
        assert command in readme, command


def test_ci_installs_the_developers_tools_from_their_dependency_group() -> None:
    """The linters CI runs are the "dev" dependency group's, not the published test extra's."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    group = ci.index("python3 -m pip install -q --group dev")
    assert group < min(i for i, line in enumerate(ci) if line.startswith(("ruff ", "mypy ")))
    assert any("--upgrade 'pip>=25.1'" in line for line in ci[:group])
