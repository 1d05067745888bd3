"""Where ruleset and house-rule files are: the shipped catalogue, and a name or path resolved to a file."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path as FsPath

from regelmotor._data import data_dir
from regelmotor.errors import RulesetNotFound
from regelmotor.files import kind_word
from regelmotor.ruleset.yaml_source import (
    read_document,
)

_SUFFIXES = (".yaml", ".yml")


# --- finding files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FileRef:
    """A ruleset or house-rule file: where it is, and how messages name it."""

    path: FsPath
    display: str
    shipped: str | None = None

    @property
    def identity(self) -> str:
        return str(self.path.resolve())


def _shipped_dir() -> FsPath:
    return data_dir("rulesets")


def shipped_rulesets() -> dict[str, FileRef]:
    """The rulesets that come with regelmotor, by name."""
    return {p.stem: FileRef(p, f"rulesets/{p.name}", p.stem) for p in sorted(_shipped_dir().glob("*.yaml"))}


def shipped_house_rules() -> dict[str, FileRef]:
    """The house-rule overlays that come with regelmotor, by name."""
    return {
        p.stem: FileRef(p, f"rulesets/house/{p.name}", p.stem)
        for p in sorted((_shipped_dir() / "house").glob("*.yaml"))
    }


def shipped_catalogue() -> list[dict[str, str]]:
    """Every shipped ruleset and house rule with its kind, name, title and one-line description, in Danish and
    in English (``title_en``, ``description_en``: the Danish where a file gives no English)."""
    entries = []
    for kind, refs in (("ruleset", shipped_rulesets()), ("house_rule", shipped_house_rules())):
        for name, ref in refs.items():
            data = read_document(ref.path.read_bytes(), ref.display).data
            title, description = str(data.get("title", "")), str(data.get("description", ""))
            entry = {
                "kind": kind,
                "name": name,
                "title": title,
                "description": description,
                "title_en": str(data.get("title_en") or title),
                "description_en": str(data.get("description_en") or description),
            }
            if kind == "ruleset":
                entry["game"] = str(data.get("game", "esmakkerwhist"))
            entries.append(entry)
    return entries


def is_path(ref: str) -> bool:
    """A reference with a folder or a .yaml ending is a file; anything else a shipped name."""
    return ref.endswith(_SUFFIXES) or "/" in ref or "\\" in ref


def find_file(ref: str, *, house_rule: bool, relative_to: FileRef | None = None) -> FileRef:
    """Resolve a shipped name, or a path (relative to ``relative_to``'s folder, else the cwd)."""
    shipped = shipped_house_rules() if house_rule else shipped_rulesets()
    what = "house_rule" if house_rule else "ruleset"
    if not is_path(ref):
        if ref in shipped:
            return shipped[ref]
        close = difflib.get_close_matches(ref, list(shipped), n=1)
        phrase = f"not_shipped_{what}" + ("_close" if close else "")
        raise RulesetNotFound.said(phrase, ref=ref, close=close[0] if close else "", shipped=", ".join(shipped))
    if relative_to is not None:
        path = relative_to.path.parent / ref
        display = str(FsPath(relative_to.display).parent / ref)
    else:
        path, display = FsPath(ref), ref
    try:
        kind = kind_word(path.stat().st_mode)
    except OSError:
        raise RulesetNotFound.said(f"no_{what}_file", path=display) from None
    if kind is not None:  # a folder, a FIFO (which would wait for ever), a device
        raise RulesetNotFound.said("at_path", path=display, error=RulesetNotFound.said("in_not_regular", kind=kind))
    return FileRef(path, display)
