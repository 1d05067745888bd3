"""The package as a Python packaging reviewer reads it (issue 73): a build without a deprecation warning, the
licences declared as SPDX with their files, one version, every imported package declared (upper bounds
where regelmotor uses a package's internals), the developers' tools out of the published extras, a
CHANGELOG naming the version and the file formats, and a pre-commit config running what CI runs."""

from __future__ import annotations

import ast
import email
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from regelmotor import __version__
from regelmotor.score_sheet import SHEET_VERSION

from .conftest import REPO

SHIPPED = ("pyproject.toml", "README.md", "LICENSE", "regelmotor", "rulesets", "schemas")
"""What a build reads: the sources are copied, so a build never writes into the checkout under a test run."""
INTERNALS = ("uvicorn", "numba", "llvmlite")
"""Packages whose internals regelmotor uses (uvicorn's H11Protocol, numba's ``_nrt=`` and caching classes,
llvmlite's IR): each bounded above."""
DEV_TOOLS = ("ruff", "mypy", "pre-commit", "types-pyyaml", "types-jsonschema")


@cache
def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements(*extras: str) -> list[Requirement]:
    project = _pyproject()["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The sdist and the wheel built from a copy of the sources by the test environment's setuptools, as
    ``pip install .`` builds them: (what the build said, the folder holding both)."""
    source = tmp_path_factory.mktemp("source")
    for name in SHIPPED:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    build = "from setuptools import build_meta as b; b.build_sdist('dist'); b.build_wheel('dist')"
    done = subprocess.run([sys.executable, "-W", "default", "-c", build], capture_output=True, text=True, cwd=source)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr, source / "dist"


def test_the_build_gives_no_warning(built: tuple[str, Path]) -> None:
    """setuptools' deprecations (a licence as a table, licence classifiers: an error from February 2027) and
    its warnings about the package's layout (a data folder taken for a package) are all failures here."""
    said, _ = built
    warnings = [
        line
        for line in said.splitlines()
        if re.search(r"deprecat|warning", line, re.IGNORECASE) and "byte-compiling is disabled" not in line
    ]
    assert warnings == [], said


def _metadata(dist: Path) -> email.message.Message:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(archive.read(name))


def test_the_wheel_declares_its_licences_by_spdx_with_their_files(built: tuple[str, Path]) -> None:
    """regelmotor's code is MIT; the DejaVu fonts it ships are under the Bitstream Vera licence."""
    _, dist = built
    metadata = _metadata(dist)
    assert metadata["License-Expression"] == "MIT AND Bitstream-Vera"
    assert sorted(metadata.get_all("License-File") or []) == [
        "LICENSE",
        "regelmotor/rulebook/fonts/LICENSE-DejaVu.txt",
    ]
    assert not [c for c in metadata.get_all("Classifier") or [] if c.startswith("License ::")]
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        licences = [n for n in archive.namelist() if ".dist-info/licenses/" in n]
    assert len(licences) == 2, licences


def test_the_version_is_written_once(built: tuple[str, Path]) -> None:
    """In ``regelmotor/__init__.py``; pyproject.toml reads it from there, and the wheel carries it."""
    project = _pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert _pyproject()["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "regelmotor.__version__"}
    _, dist = built
    assert _metadata(dist)["Version"] == __version__


def test_the_project_names_its_addresses() -> None:
    urls = _pyproject()["project"]["urls"]
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())


def _imported(folder: Path) -> dict[str, set[str]]:
    """Every top-level package imported anywhere under ``folder`` (in a function too), but the standard
    library's and regelmotor's own: {name: files}."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("regelmotor", "tests", "__future__"):
                    found.setdefault(top, set()).add(path.relative_to(REPO).as_posix())
    return found


def _undeclared(folder: Path, declared: list[Requirement]) -> list[str]:
    names = {canonicalize_name(r.name) for r in declared}
    distributions = importlib.metadata.packages_distributions()
    missing = []
    for module, files in sorted(_imported(folder).items()):
        # a package not installed here is taken to be named as it is imported
        candidates = {canonicalize_name(d) for d in distributions.get(module, [module])}
        if not candidates & names:
            missing.append(f"{module} ({', '.join(sorted(candidates))}), imported in {', '.join(sorted(files))}")
    return missing


def test_every_package_regelmotor_imports_is_declared() -> None:
    """A package imported directly is a dependency of its own, not one that happens to come with another
    (markupsafe with jinja2, llvmlite with numba, anyio with starlette); an optional one is in an extra."""
    extras = [e for e in _pyproject()["project"]["optional-dependencies"] if e != "test"]
    assert _undeclared(REPO / "regelmotor", _requirements(*extras)) == []


def test_every_package_the_tests_import_is_installed_by_the_readme_test_command() -> None:
    extras = list(_pyproject()["project"]["optional-dependencies"])
    assert _undeclared(REPO / "tests", _requirements(*extras)) == []


def test_the_declared_check_sees_an_undeclared_import() -> None:
    """The check is not vacuous: without markupsafe declared, render.py's import is reported."""
    declared = [r for r in _requirements() if canonicalize_name(r.name) != "markupsafe"]
    assert any(line.startswith("markupsafe") for line in _undeclared(REPO / "regelmotor", declared))


@pytest.mark.parametrize("name", INTERNALS)
def test_a_package_whose_internals_are_used_is_bounded_and_the_installed_one_fits(name: str) -> None:
    (requirement,) = [r for r in _requirements() if canonicalize_name(r.name) == name]
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in requirement.specifier), requirement
    assert requirement.specifier.contains(importlib.metadata.version(name), prereleases=True)


def test_the_developers_tools_are_a_dependency_group_not_a_published_extra() -> None:
    published = {canonicalize_name(r.name) for r in _requirements(*_pyproject()["project"]["optional-dependencies"])}
    assert published.isdisjoint(DEV_TOOLS)
    dev = {canonicalize_name(Requirement(r).name) for r in _pyproject()["dependency-groups"]["dev"]}
    assert set(DEV_TOOLS) <= dev


def _ci_checks() -> list[str]:
    """The checks .ci/run runs after the tests (``ruff check ...``, ``mypy --strict regelmotor``)."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in ci if line.strip().startswith(("ruff ", "mypy "))]


def test_pre_commit_runs_what_ci_runs() -> None:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    entries = [" ".join([hook["entry"], *hook.get("args", [])]) for repo in config["repos"] for hook in repo["hooks"]]
    checks = _ci_checks()
    assert len(checks) >= 3
    for check in checks:
        assert any(entry.startswith(check.split(" regelmotor")[0]) for entry in entries), check
    assert any("pytest" in entry for entry in entries)


def _section(changelog: str, heading: str) -> str:
    start = changelog.index(f"## [{heading}]")
    end = changelog.find("\n## [", start + 1)
    return changelog[start : end if end != -1 else None]


def test_the_changelog_names_this_version_and_the_file_formats() -> None:
    """Keep a Changelog: an Unreleased section above one per version; records carry regelmotor's version and
    refuse a newer one, score sheets a format version of their own, and both are named where they change."""
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "keepachangelog.com" in changelog
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.MULTILINE)
    assert headings[0] == "Unreleased" and __version__ in headings
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE)
    assert f"score sheet format {SHEET_VERSION}" in changelog
    assert "record" in _section(changelog, __version__)
