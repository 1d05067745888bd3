"""Every rule the ruleset sets is in the rule book, however it was set (issue 23): changing any one rule key
of a shipped ruleset to another value its schema allows changes the book's text, or the key is listed here
as not printed, with the reason. A change the ruleset's own checks refuse (a hole in the tiers, a fee
without a fordækt card) is no ruleset, so it has no book to differ."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from regelmotor.diff import schema_node
from regelmotor.errors import RegelmotorError
from regelmotor.model.ruleset import Ruleset
from regelmotor.rulebook import build as build_module
from regelmotor.rulebook import build_rulebook, render
from regelmotor.rules.scoring import checks as scoring_checks
from regelmotor.ruleset.checks import check_ruleset
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

Path = tuple[str | int, ...]

PROSE = frozenset({"source", "inferred", "title", "description", "name", "title_en", "description_en", "display"})
"""What a ruleset says of itself, not a rule (the book prints its name, title and sources elsewhere)."""


def _off(section: str) -> Callable[[dict[str, Any], Path], bool]:
    def off(data: dict[str, Any], path: Path) -> bool:
        return not data[section]["allowed"]

    return off


def _no_partner_card(data: dict[str, Any], path: Path) -> bool:
    return not data["designations"]


def _partner_names_trump(data: dict[str, Any], path: Path) -> bool:
    return data["designations"][path[1]]["trump"]["by"] == "partner"


def _trump_not_chosen(data: dict[str, Any], path: Path) -> bool:
    return data["designations"][path[1]]["trump"]["by"] in ("fixed", "kitty")


def _declarer_plays_alone(data: dict[str, Any], path: Path) -> bool:
    return data["sol_bids"][path[1]]["side"] in ("alone", "partner")


def _one_card_order(data: dict[str, Any], path: Path) -> bool:
    return data["card_order"]["trump_games"] == data["card_order"]["sol_games"]


def _no_bid_with_a_most(data: dict[str, Any], path: Path) -> bool:
    bids = [*data["sol_bids"], *([data["all_pass"]["contract"]] if data["all_pass"].get("contract") else [])]
    return not data["designations"] and all(bid.get("max_tricks") is None for bid in bids)


NOT_PRINTED: tuple[tuple[tuple[str, ...], str, Callable[[dict[str, Any], Path], bool]], ...] = (
    (("exchange",), "the game has no exchange: the book says so, and nothing of how", _off("exchange")),
    (("doubling",), "doubling is not allowed: the book says so, and nothing of how", _off("doubling")),
    (("jernhaand",), "jernhånd is not played: the book says nothing of it", _off("jernhaand")),
    (("omblanding",), "a reshuffle is not asked for: the book says nothing of it", _off("omblanding")),
    (("partner_card",), "the game has no partner card (fixed partners)", _no_partner_card),
    (("called_card",), "the game has no partner card (fixed partners)", _no_partner_card),
    (
        ("designations", "*", "reveal_partner"),
        "where the partner names trump (halve) he shows himself to do so: the kind's sentence says it",
        _partner_names_trump,
    ),
    (
        ("designations", "*", "trump", "not_called_suit"),
        "trump is fixed or turned from the kitty: nobody chooses it, so no suit is kept from the choice",
        _trump_not_chosen,
    ),
    (
        ("sol_bids", "*", "fewest_tricks"),
        "a declarer's bid is won by its own goal (at most, at least, the first tricks), not by fewest tricks",
        _declarer_plays_alone,
    ),
    (
        ("all_pass", "contract", "card_order"),
        "the game's two card orders are the same: a bid plays alike in either",
        _one_card_order,
    ),
    (("play", "sol_ends"), "no bid has a most of tricks: every deal is played to the end", _no_bid_with_a_most),
)


def _exempt(path: Path, before: dict[str, Any], after: dict[str, Any]) -> bool:
    pattern = _pattern(path)
    return any(
        pattern[: len(prefix)] == prefix and (test(before, path) or test(after, path))
        for prefix, _, test in NOT_PRINTED
    )


def _pattern(path: Path) -> tuple[str, ...]:
    return tuple("*" if isinstance(part, int) else part for part in path)


def _leaves(node: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in PROSE:
                yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, (*path, i))
    else:
        yield path, node


def _others(path: Path, value: Any) -> list[Any]:
    """The values the schema allows in place of ``value``: the other truth value, another word of an
    enumeration (of a list of ranks, one other rank for its first place: the book prints the list whole), a
    number one higher (or lower at its maximum)."""
    node, _ = schema_node(path)
    if path[:1] == ("sol_bids",) and isinstance(path[1], int) and path[1] >= 2:
        return []  # the third sol bid on is said by the same sentence as the first two (the book is slow to make)
    if "enum" in node:
        others = [v for v in node["enum"] if v != value]
        if isinstance(path[-1], int):  # a place in a list of ranks or suits
            return others[:1] if path[-1] == 0 else []
        return others[:1]
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int) and node.get("type") == "integer":
        return [value + 1] if value + 1 <= node.get("maximum", value + 1) else [value - 1]
    return []


def _book(resolved: Any, tables: bool = True) -> str:
    """The book in Danish markdown; ``tables=False``: without the point tables, which take most of its time
    (a key whose change shows in the rest of the book needs no tables to show it)."""
    with pytest.MonkeyPatch.context() as patch:
        if not tables:
            patch.setattr(build_module._Builder, "scoring", lambda self: build_module.Section("-"))
        text = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(text, str)
    return text


def _refused(ruleset: Ruleset, path: Path) -> bool:
    """Whether the ruleset's checks refuse it; outside the scoring section without checking that every game
    sums to zero (what takes the checks their time: a key outside it changes no points)."""
    with pytest.MonkeyPatch.context() as patch:
        if path[0] != "scoring":
            patch.setattr(scoring_checks, "zero_sum", lambda r: iter(()))
        return bool(check_ruleset(ruleset))


def _put(data: dict[str, Any], path: Path, value: Any) -> None:
    node: Any = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@pytest.mark.parametrize(
    ("name", "house"),
    [
        ("standard", ()),
        ("thorsen", ()),
        ("gruppe2", ()),
        ("dansk", ()),
        ("engelsk", ()),
        ("whistklubben", ("jernhaand", "omblanding", "dobling", "fordaekt", "kan-selv")),
    ],
    ids=["standard", "thorsen", "gruppe2", "dansk", "engelsk", "whistklubben+house-rules"],
)
def test_every_rule_key_changes_the_book_or_is_listed_with_its_reason(name: str, house: tuple[str, ...]) -> None:
    resolved = load_ruleset(name, list(house))
    data = resolved.ruleset.model_dump(mode="json")
    before = {True: _book(resolved), False: _book(resolved, tables=False)}
    silent, varied = [], 0
    for path, value in _leaves(data):
        for other in _others(path, value):
            changed = copy.deepcopy(data)
            _put(changed, path, other)
            try:
                ruleset = Ruleset.model_validate(changed)
            except ValueError:  # the model's own bounds refuse it: no ruleset
                continue
            if _refused(ruleset, path):  # the ruleset's checks refuse it: no ruleset
                continue
            variant = dataclasses.replace(resolved, ruleset=ruleset)
            try:
                same = _book(variant, tables=False) == before[False] and _book(variant) == before[True]
            except RegelmotorError:  # it cannot be compiled alone (a formula that needs another key)
                continue
            varied += 1
            if same and not _exempt(path, data, changed):
                silent.append(f"{'.'.join(map(str, path))}: {value!r} -> {other!r}")
    assert varied > 20
    assert not silent, "these keys change nothing in the rule book:\n" + "\n".join(silent)
