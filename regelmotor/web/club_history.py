"""The club's file and its earlier versions, kept beside it: ``klub.yaml`` and ``klub.versioner/`` (``0001.yaml``,
``0002.yaml``, ... and ``historik.json``, the versions with their time, fingerprint and changes in words).

A save writes the file whole or not at all (``files.write_atomic``), and only if the file is still what the page
opened (its text's fingerprint): otherwise nothing is written and the page is told what changed. The version
before the save is kept first (a file changed by hand since the last save is kept as a version of its own, so no
text is ever lost), and an undo writes the version before the current one back, as a new version. Nothing but the
club's file and this folder is ever written; saves go one at a time (a lock in the server, and a lock file in
the folder for another server on the same file).
"""

from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock

from regelmotor.diff import diff_rulesets, show_value
from regelmotor.errors import RegelmotorError
from regelmotor.files import digest, read_input, write_atomic
from regelmotor.ruleset.load import ResolvedRuleset
from regelmotor.web.club_yaml import MAX_TEXT

MAX_VERSIONS = 500
"""Versions kept (a club saves a few a year; the oldest go first beyond this)."""
MAX_CHANGES = 12
"""Changes said in words for one version (the rest counted)."""
LOCK_SECONDS = 5.0


class ClubChanged(RegelmotorError):
    """The file changed since the page opened it (409): nothing was written."""


class NothingToUndo(RegelmotorError):
    """There is no earlier version to go back to (409)."""


def fingerprint_of(text: str) -> str:
    """The fingerprint of a file's text, as the page holds it from opening to saving."""
    return digest(text.encode("utf-8"))[:16]


def change_words(before: ResolvedRuleset | None, after: ResolvedRuleset | None, lang: str) -> list[str]:
    """What changed from one version's rules to the next, a line a rule, in the reader's language: "Pointtabellen
    S, sol: 75 i stedet for 50"; a point table by its entries, a house rule by its name."""
    if before is None or after is None:
        return []
    english = lang == "en"
    lines: list[str] = []
    for name in after.house_rules:
        if name not in before.house_rules:
            lines.append(f"house rule {name} added" if english else f"husreglen {name} er tilføjet")
    for name in before.house_rules:
        if name not in after.house_rules:
            lines.append(f"house rule {name} taken out" if english else f"husreglen {name} er taget ud")
    instead = "instead of" if english else "i stedet for"
    for d in diff_rulesets(before, after):
        label = d.label_en if english else d.label
        if d.path.startswith("scoring.tables."):
            table = d.path.split(".")[2]
            old = before.ruleset.scoring.tables.get(table)
            new = after.ruleset.scoring.tables.get(table)
            old_values = {str(k): v for k, v in (old.values.items() if old else ())}
            new_values = {str(k): v for k, v in (new.values.items() if new else ())}
            for entry in dict.fromkeys([*old_values, *new_values]):
                a, b = old_values.get(entry), new_values.get(entry)
                if a != b:
                    lines.append(f"{label}, {entry}: {show_value(b, lang)} {instead} {show_value(a, lang)}")
            continue
        if d.path.startswith("points."):  # what the tables come to: said by the table's own line
            continue
        lines.append(f"{label}: {show_value(d.b, lang)} {instead} {show_value(d.a, lang)}")
    if len(lines) > MAX_CHANGES:
        more = len(lines) - MAX_CHANGES + 1
        lines = [*lines[: MAX_CHANGES - 1], f"and {more} more" if english else f"og {more} til"]
    return lines


@dataclass
class History:
    """The club's file (``path``, which ``serve`` was given) and its versions beside it."""

    path: Path

    def __post_init__(self) -> None:
        self.lock = threading.Lock()

    @property
    def folder(self) -> Path:
        return self.path.with_name(f"{self.path.stem}.versioner")

    @property
    def log(self) -> Path:
        return self.folder / "historik.json"

    def read(self) -> str:
        """The file's text as it is now (bounded, a regular file only: ``files.read_input``)."""
        return read_input(self.path, MAX_TEXT).data.decode("utf-8")

    def versions(self) -> list[dict[str, Any]]:
        """Every version kept, oldest first."""
        try:
            loaded = json.loads(self.log.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [v for v in loaded if isinstance(v, dict)] if isinstance(loaded, list) else []

    def version_text(self, number: int) -> str:
        return (self.folder / f"{number:04d}.yaml").read_text(encoding="utf-8")

    def _keep(self, versions: list[dict[str, Any]], text: str, entry: dict[str, Any]) -> dict[str, Any]:
        number = max((int(v["version"]) for v in versions), default=0) + 1
        entry = {
            "version": number,
            "time": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "fingerprint": fingerprint_of(text),
            **entry,
        }
        self.folder.mkdir(exist_ok=True)
        write_atomic(self.folder / f"{number:04d}.yaml", text)
        versions.append(entry)
        for old in versions[:-MAX_VERSIONS]:
            (self.folder / f"{int(old['version']):04d}.yaml").unlink(missing_ok=True)
        del versions[:-MAX_VERSIONS]
        write_atomic(self.log, json.dumps(versions, ensure_ascii=False, indent=1) + "\n")
        return entry

    def _locked(self) -> filelock.BaseFileLock:
        self.folder.mkdir(exist_ok=True)
        return filelock.FileLock(self.folder / ".lock", timeout=LOCK_SECONDS, mode=0o600)

    def save(
        self,
        text: str,
        expected: str,
        words: tuple[Sequence[str], Sequence[str]],
        rules: str | None,
        *,
        undo_of: int | None = None,
        restores: int | None = None,
    ) -> dict[str, Any]:
        """Write ``text`` as the club's file if it is still the one with fingerprint ``expected``; the version
        before kept first. The new version's entry (``version``, ``fingerprint``, ...). ``ClubChanged`` when
        the file changed since: nothing written."""
        with self.lock, self._locked():
            now = self.read()
            if fingerprint_of(now) != expected:
                raise ClubChanged.said("club_changed", file=self.path.name)
            versions = self.versions()
            if not versions or versions[-1].get("fingerprint") != fingerprint_of(now):
                first = not versions
                said = ("den første udgave, som siden fandt den", "the first version, as the page found it")
                if not first:
                    said = ("ændret uden for siden", "changed outside the page")
                self._keep(versions, now, {"changes": [said[0]], "changes_en": [said[1]], "rules": None})
            write_atomic(self.path, text)
            entry: dict[str, Any] = {"changes": list(words[0]), "changes_en": list(words[1]), "rules": rules}
            if undo_of is not None:
                entry["undo_of"] = undo_of
            if restores is not None:
                entry["restores"] = restores
            return self._keep(versions, text, entry)

    def before_current(self) -> tuple[int, str, str]:
        """The version an undo goes back to (the one before the current), its text, and the current's fingerprint."""
        versions = self.versions()
        current = self.read()
        if len(versions) < 2 or versions[-1].get("fingerprint") != fingerprint_of(current):
            if versions and versions[-1].get("fingerprint") != fingerprint_of(current):
                raise ClubChanged.said("club_changed", file=self.path.name)
            raise NothingToUndo.said("club_no_undo")
        # an undo after an undo goes one further back (the current version says which one it restored)
        numbers = [int(v["version"]) for v in versions]
        standing = int(versions[-1].get("restores", numbers[-1]))
        place = numbers.index(standing) if standing in numbers else len(numbers) - 1
        if place < 1:
            raise NothingToUndo.said("club_no_undo")
        earlier = versions[place - 1]
        return int(earlier["version"]), self.version_text(int(earlier["version"])), fingerprint_of(current)


__all__ = ["ClubChanged", "History", "NothingToUndo", "change_words", "fingerprint_of"]
