"""A ruleset's fingerprint: a hash of its rules (not their sources or prose), kept in game records and
score sheets, so that a replay can tell whether the rules it replays by are the ones the deal was
played by."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from regelmotor.model.ruleset import WORDS, Ruleset

ADDED_KEYS: dict[tuple[str, ...], Any] = {("scoring", "losers_pay"): True}
"""Keys added after records began to carry fingerprints, with their defaults: at its default such a key is
left out of the fingerprint, so the records of every ruleset it does not change still match their rules."""
PROSE = frozenset({"source", *WORDS})
"""What says the rules in words and changes no rule: a record is the same game whatever its ruleset is called."""


def ruleset_fingerprint(ruleset: Ruleset) -> str:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in PROSE}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    data = ruleset.model_dump(mode="json")
    for (*section, key), default in ADDED_KEYS.items():
        holder: Any = data
        for part in section:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and holder.get(key) == default:
            del holder[key]
    canonical = json.dumps(strip(data), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
