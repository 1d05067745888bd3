"""Semantic checks: what a ruleset can say that the schema allows but the game cannot be.

Each family checks its own keys in its home (``rules/<family>/checks.py``); this runs them all, in
order, and keeps what they found.

A ladder with a hole or two equal bids, a vip without a kitty, a trump choice that can be
empty, a scoring rule that does not sum to zero: each is reported with the key path to fix,
all at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.auction import checks as auction
from regelmotor.rules.called_card import checks as called_card
from regelmotor.rules.contracts import checks as contracts
from regelmotor.rules.dealing import checks as dealing
from regelmotor.rules.declaration import checks as declaration
from regelmotor.rules.doubling import checks as doubling
from regelmotor.rules.evening import checks as evening
from regelmotor.rules.exchange import checks as exchange
from regelmotor.rules.findings import Finding
from regelmotor.rules.fordaekt import checks as fordaekt
from regelmotor.rules.gaa_med import checks as gaa_med
from regelmotor.rules.jernhaand import checks as jernhaand
from regelmotor.rules.jokers import checks as jokers
from regelmotor.rules.play import checks as play
from regelmotor.rules.redeal import checks as redeal
from regelmotor.rules.scoring import checks as scoring

CHECKED_KEPT = 256
"""How many rulesets' findings are kept (checking one scores every game it allows: about 0.2 s)."""
_checked: OrderedDict[str, tuple[Finding, ...]] = OrderedDict()
_checked_lock = threading.Lock()


def check_ruleset(ruleset: Ruleset) -> list[Finding]:
    """Every semantic problem of ``ruleset``.

    A pure function of the resolved rules, so the findings are kept by the rules' canonical JSON: the
    same rules loaded again (a record replayed, a sheet scored, a second game on the server) are not
    checked again."""
    key = ruleset.model_dump_json()
    with _checked_lock:  # the server loads rulesets in several threads
        found = _checked.get(key)
        if found is not None:
            _checked.move_to_end(key)
            return list(found)
    found = tuple(_check(ruleset))
    with _checked_lock:
        _checked[key] = found
        if len(_checked) > CHECKED_KEPT:
            _checked.popitem(last=False)
    return list(found)


FIRST = (
    contracts.game_shape,
    contracts.named_bids,
    contracts.bids_and_designations,
    declaration.designations,
    exchange.designations,
    contracts.ladder,
)
"""The bids' checks, first: the scoring's are evaluated only on a sound ladder and sound designations."""
EACH = (
    evening.check,
    redeal.check,
    dealing.check,
    auction.check,
    fordaekt.check,
    called_card.check,
    gaa_med.check,
    declaration.check,
    exchange.check,
    doubling.check,
    jokers.check,
    play.check,
    jernhaand.check,
)
"""Every other family's checks, each in its family's home (``rules/<family>/checks.py``)."""


def _check(ruleset: Ruleset) -> list[Finding]:
    findings: list[Finding] = []
    for check in FIRST:
        findings.extend(check(ruleset))
    if not findings:  # scoring needs a sound ladder and sound designations to evaluate; then it is
        tables = list(scoring.tables(ruleset))  # reported with every other problem at once
        findings.extend(tables or scoring.zero_sum(ruleset))
        if not findings:
            findings.extend(scoring.meaning(ruleset))
    for check in EACH:
        findings.extend(check(ruleset))
    return findings
