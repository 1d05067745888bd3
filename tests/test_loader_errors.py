"""Bad ruleset files: every problem is reported as FILE:LINE:COL: key.path: message.

Each case is one kind of mistake a club can make; the test asserts the exact location, key
path and message, so a change in wording or in location tracking is a visible decision.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from regelmotor.ruleset.validate import validate_file

from .conftest import REPO

HEAD = """\
kind: ruleset
extends: standard
name: club
title: Klubben
description: En klub
source: klubbens vedtægter
"""

# (case id, file text after HEAD (or whole text when it starts with "!whole"), expected lines)
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdef", "bcdefg", strict=True)
)


def _standard_without(section: str) -> str:
    text = (REPO / "rulesets" / "standard.yaml").read_text(encoding="utf-8")
    head, _, tail = text.partition(f"\n{section}:\n")
    rest = tail.split("\n\n", 1)[1] if "\n\n" in tail else ""
    return head.replace("name: standard", "name: club") + "\n" + rest


# (case, {file: text}; "club.yaml" is validated; text without "kind:" gets HEAD, expected lines)
CASES: list[tuple[str, dict[str, str | bytes], list[str]]] = [
    (
        "yaml-syntax",
        {"club.yaml": "deck: {jokers: 3, kitty: 3\n"},
        [
            "club.yaml:8:1: (top): invalid YAML: values on one line are separated by commas and closed with the kind of bracket they were opened with"
        ],
    ),
    (
        "duplicate-key",
        {"club.yaml": "deck:\n  jokers: 3\n  jokers: 2\n"},
        ['club.yaml:9:3: deck.jokers: duplicate key "jokers" (first written on line 8)'],
    ),
    (
        "yaml11-boolean-value",
        {"club.yaml": "fordaekt:\n  allowed: yes\n"},
        [
            'club.yaml:8:12: fordaekt.allowed: "yes" is a YAML 1.1 boolean and means different things to '
            "different tools: write true or false, or quote it if you mean the word"
        ],
    ),
    (
        "yaml11-boolean-key",
        {"club.yaml": "on: true\n"},
        [
            'club.yaml:7:1: (top): "on" is a YAML 1.1 boolean and means different things to different tools: '
            "write true or false, or quote it if you mean the word"
        ],
    ),
    (
        "python-tag",
        {"club.yaml": "notes:\n  - text: !!python/object/apply:os.system [echo hi]\n"},
        [
            "club.yaml:8:11: notes[1].text: the tag tag:yaml.org,2002:python/object/apply:os.system "
            "is not allowed: ruleset files cannot run code"
        ],
    ),
    (
        "custom-tag",
        {"club.yaml": "notes:\n  - text: !klub hej\n"},
        ["club.yaml:8:11: notes[1].text: the tag !klub is not allowed: ruleset files are plain data"],
    ),
    (
        "octal-number",
        {"club.yaml": "deck:\n  kitty: 03\n"},
        [
            'club.yaml:8:10: deck.kitty: "03" is read as a YAML 1.1 octal or base-60 number: write the '
            "number without leading zeros or colons, or quote it"
        ],
    ),
    (
        "merge-key-and-unknown-key-together",
        {"club.yaml": "base: &b {allowed: true}\nfordaekt:\n  <<: *b\n"},
        [
            'club.yaml:7:1: base: unknown key "base"',
            "club.yaml:9:3: fordaekt: merge keys (<<) are not supported; use extends: to build on another ruleset",
        ],
    ),
    (
        "alias-bomb",
        {"club.yaml": ALIAS_BOMB + "notes: [{text: *g}]\n"},
        # Aliases share their anchor's node, so the location is the anchored list the budget ran out in.
        ["club.yaml:7:17: e[8][9][9][9][4]: the file expands to more than 100,000 values (aliases repeated too often)"],
    ),
    (
        "oversized",
        {"club.yaml": "#" + "x" * 1_000_000 + "\n"},
        ["club.yaml:1:1: (top): the file is too large (1,000,002 bytes; at most 1,000,000 bytes)"],
    ),
    (
        "not-utf8",
        {"club.yaml": "title: Kl\xf8bben\n".encode("latin-1")},
        ["club.yaml:1:1: (top): the file is not UTF-8 text (byte 9)"],
    ),
    (
        "several-documents",
        {"club.yaml": "kind: ruleset\n---\nkind: ruleset\n"},
        ["club.yaml:1:1: (top): a ruleset file holds one YAML document, not several"],
    ),
    (
        "empty-file",
        {"club.yaml": "!raw"},
        ["club.yaml:1:1: (top): the file is empty"],
    ),
    (
        "not-a-mapping",
        {"club.yaml": "!raw- standard\n- thorsen\n"},
        ["club.yaml:1:1: (top): a ruleset file must be a mapping of keys to values"],
    ),
    (
        "nested-too-deep",
        {"club.yaml": "notes: " + "[" * 70 + "]" * 70 + "\n"},
        ["club.yaml:7:72: notes" + "[1]" * 64 + ": nested more than 64 levels deep"],
    ),
    (
        "unknown-top-key",
        {"club.yaml": "jokrs:\n  led_joker: wins\n"},
        ['club.yaml:7:1: jokrs: unknown key "jokrs" (did you mean "jokers"?)'],
    ),
    (
        "unknown-nested-key",
        {"club.yaml": "auction:\n  gaa_med:\n    sol_bid: true\n"},
        ['club.yaml:9:5: auction.gaa_med.sol_bid: unknown key "sol_bid" (did you mean "sol_bids"?)'],
    ),
    (
        "wrong-type",
        {"club.yaml": "deck:\n  kitty: three\n"},
        ['club.yaml:8:10: deck.kitty: expected a whole number, not "three"'],
    ),
    (
        "not-the-allowed-value",
        {"club.yaml": "auction:\n  procedure: rundt\n"},
        ['club.yaml:8:14: auction.procedure: "rundt" is not allowed here: choose one of "melde_tilbage", "none"'],
    ),
    (
        "out-of-range",
        {"club.yaml": "deck:\n  jokers: 5\n"},
        ["club.yaml:8:11: deck.jokers: 5 is too large: the most allowed is 3"],
    ),
    (
        "bad-fraction",
        {"club.yaml": "scoring:\n  constants:\n    M: 3 halve\n"},
        [
            'club.yaml:9:8: scoring.constants.M: "3 halve" is not a number: write a whole number, '
            'a decimal or a fraction like "5/4"'
        ],
    ),
    (
        "wrong-card-rank",
        {"club.yaml": "partner_card:\n  ranks: [A, X]\n"},
        [
            'club.yaml:8:14: partner_card.ranks[2]: "X" is not allowed here: choose one of "A", "K", "Q", "J", '
            '"T", "9", "8", "7", "6", "5", "4", "3", "2"'
        ],
    ),
    (
        "missing-rule-in-a-standalone-file",
        {"club.yaml": "!standard-without-jernhaand"},
        # standard.yaml's mapping starts on line 3, after its two comment lines.
        [
            'club.yaml:3:1: jernhaand: "jernhaand" is missing: this rule must be given (here or in the ruleset it extends)'
        ],
    ),
    (
        "extends-unknown-name",
        {"club.yaml": "kind: ruleset\nextends: standrad\nname: club\ntitle: K\ndescription: K\nsource: K\n"},
        [
            'club.yaml:2:10: extends: no shipped ruleset is called "standrad" (did you mean "standard"?); '
            "shipped: dansk, engelsk, gruppe2, standard, thorsen, whistklubben; a file is named by a path ending in .yaml"
        ],
    ),
    (
        "extends-missing-file",
        {"club.yaml": "kind: ruleset\nextends: ./parent.yaml\nname: club\ntitle: K\ndescription: K\nsource: K\n"},
        ['club.yaml:2:10: extends: the ruleset file "parent.yaml" does not exist'],
    ),
    (
        "extends-cycle",
        {
            "club.yaml": "kind: ruleset\nextends: other.yaml\nname: club\ntitle: K\ndescription: K\nsource: K\n",
            "other.yaml": "kind: ruleset\nextends: club.yaml\nname: other\ntitle: K\ndescription: K\nsource: K\n",
        },
        ['club.yaml:1:1: extends: "extends" goes round in a circle: club.yaml -> other.yaml -> club.yaml'],
    ),
    (
        "house-rule-unknown",
        {"club.yaml": "house_rules: [jernhand]\n"},
        [
            'club.yaml:7:15: house_rules[1]: no shipped house rule is called "jernhand" (did you mean '
            '"jernhaand"?); shipped: dobbelt-bordlaegger, dobling, fordaekt, gaa-med, halve-makker-vaelger-bytter, '
            "halve-vip, jernhaand, joker-trumpable, kan-selv, klubkasse, omblanding, staerke, vip-joker-forrige; a file "
            "is named by a path ending in .yaml"
        ],
    ),
    (
        "house-rule-that-cannot-apply",
        {
            "club.yaml": "kind: ruleset\nextends: gruppe2\nname: club\ntitle: K\ndescription: K\nsource: K\n"
            "house_rules: [joker-trumpable]\n"
        },
        [
            'rulesets/house/joker-trumpable.yaml:9:3: jokers: the house rule "joker-trumpable" cannot apply: '
            'the ruleset has no "jokers" rules for it to change'
        ],
    ),
    (
        "ruleset-used-as-house-rule",
        {"club.yaml": "house_rules: [./mine.yaml]\n", "mine.yaml": "kind: ruleset\nname: mine\n"},
        ['mine.yaml:1:1: kind: this is not a house rule: a house-rule file says "kind: house_rule"'],
    ),
    (
        "house-rule-file-with-a-bad-change",
        {
            "club.yaml": "kind: house_rule\nname: x\ntitle: X\ndescription: X\nsource: X\n"
            "changes:\n  jokers:\n    led_joker: sometimes\n"
        },
        [
            'club.yaml:8:16: changes.jokers.led_joker: "sometimes" is not allowed here: choose one of "wins", '
            '"loses_to_trump"'
        ],
    ),
    (
        "two-equal-sol-bids",
        {
            "club.yaml": "sol_bids:\n  - {id: sol, display: Sol, after: '9', max_tricks: 1, open_hand: never}\n"
            "  - {id: dobbelt sol, display: Dobbelt sol, after: '9', max_tricks: 0, open_hand: never}\n"
        },
        [
            'club.yaml:9:52: sol_bids[2].after: "dobbelt sol" and "sol" are both placed after "9": two bids of '
            'equal height; place one after the other (e.g. after: "sol")'
        ],
    ),
    (
        "sol-placed-after-no-bid",
        {"club.yaml": "sol_bids:\n  - {id: sol, display: Sol, after: '14', max_tricks: 1, open_hand: never}\n"},
        ['club.yaml:8:36: sol_bids[1].after: "14" is not a bid of this ruleset, so "sol" has no place in the ladder'],
    ),
    (
        "ladder-with-a-hole",
        {
            "club.yaml": "designations:\n"
            "  - {id: alm, display: '', tier: 0, trump: {by: declarer, choices: [S, H, D]}, call: {suits: not_trump}}\n"
            "  - {id: gode, display: gode, tier: 2, trump: {by: fixed, choices: [C]}, call: {suits: not_trump}}\n"
        },
        ["club.yaml:7:1: designations: the tiers have a hole: no designation has tier 1"],
    ),
    (
        "scoring-not-zero-sum",
        {"club.yaml": "scoring:\n  trump:\n    made: base * (1 + O) * B\n    failed: -2 * base * B * D\n"},
        [
            "club.yaml:8:3: scoring.trump: the scores do not sum to zero: in 7 alm with 7 tricks (declarer with "
            "a partner) the four players get 10, 10, 10, 10 (every game must sum to zero; multiply by the share D, "
            "e.g. base * D)"
        ],
    ),
    (
        "formula-syntax",
        {"club.yaml": "scoring:\n  sol:\n    made: S * (D\n"},
        ["club.yaml:9:11: scoring.sol.made: the formula is not well formed at character 5: a ( is never closed"],
    ),
    (
        "formula-unknown-variable",
        {"club.yaml": "scoring:\n  sol:\n    made: P * D\n"},
        ['club.yaml:9:11: scoring.sol.made: "P" is not a known variable: use B, D, S, T, V, base'],
    ),
    (
        "point-table-without-a-level",
        {
            "club.yaml": "scoring:\n  tables:\n    base2: {key: level, values: {7: 10, 8: 20}}\n"
            "  trump:\n    made: base2 * B * D\n    failed: -base2 * B * D\n"
        },
        ['club.yaml:9:25: scoring.tables.base2.values: the table "base2" has no value for a contract of 9'],
    ),
    (
        "empty-trump-choice",
        {
            "club.yaml": "designations:\n  - id: alm\n    display: ''\n    tier: 0\n    trump: {by: declarer, choices: []}\n"
            "    call: {suits: not_trump}\n"
        },
        ['club.yaml:11:27: designations[1].trump.choices: "alm" has no trump to choose from'],
    ),
    (
        "vip-last-card-refusable",
        {
            "club.yaml": "designations:\n"
            "  - {id: alm, display: '', tier: 0, trump: {by: declarer, choices: [S, H, D]}, call: {suits: not_trump}}\n"
            "  - id: vip\n    display: vip\n    tier: 1\n    call: {suits: any}\n"
            "    trump: {by: kitty, turns: [may_accept, may_accept, may_accept]}\n"
        },
        [
            "club.yaml:13:56: designations[2].trump.turns[3]: the last kitty card must be must_accept, "
            "or a vip could end without trump"
        ],
    ),
    (
        "kitty-removed-under-inherited-rules",
        {"club.yaml": "deck: {jokers: 0, kitty: 0}\njokers: null\n"},
        [
            "rulesets/standard.yaml:23:3: dealing.pattern: the pattern puts 3 cards in the kitty, not 0",
            'rulesets/standard.yaml:56:11: designations[2].trump.by: "vip" turns the kitty for trump, but this '
            "ruleset has no kitty",
            "rulesets/standard.yaml:147:12: exchange.allowed: exchanging needs a kitty, and this ruleset has none",
        ],
    ),
    (
        "kitty-that-does-not-add-up",
        {"club.yaml": "deck:\n  jokers: 2\n"},
        [
            "rulesets/standard.yaml:20:10: deck.kitty: 54 cards dealt 13 to each of four players leave 2 for the kitty, not 3"
        ],
    ),
    (
        "dealing-pattern-short",
        {"club.yaml": "dealing:\n  pattern: [3, 3, 3, 3, kat, kat, kat]\n  packet_sizes: [3]\n"},
        ["club.yaml:8:3: dealing.pattern: the pattern gives each player 12 cards, not 13"],
    ),
    (
        "five-players-without-sitting-out",
        {"club.yaml": "table:\n  players: [4, 5]\n"},
        ["club.yaml:7:1: table.sitting_out: the table allows 5 players but does not say who sits out"],
    ),
    (
        "card-order-missing-a-rank",
        {"club.yaml": "card_order:\n  sol_games: [K, Q, J, T, '9', '8', '7', '6', '5', '4', '3', '2', '2']\n"},
        ["club.yaml:8:3: card_order.sol_games: list each of the 13 ranks once (missing A; twice 2)"],
    ),
    (
        "rule-not-implemented",
        {"club.yaml": "called_card:\n  may_be_trumped: false\n"},
        [
            "club.yaml:8:19: called_card.may_be_trumped: rule not implemented: called_card.may_be_trumped: false "
            "(no source asks for a called ace that cannot be trumped)"
        ],
    ),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_problem_is_reported_where_the_club_can_fix_it(
    club: Callable[..., str], files: dict[str, str | bytes], expected: list[str]
) -> None:
    for name, text in files.items():
        if text == "!standard-without-jernhaand":
            text = _standard_without("jernhaand")
        elif isinstance(text, str) and text.startswith("!raw"):
            text = text.removeprefix("!raw")
        elif isinstance(text, str) and not text.startswith(("kind:", "#")):
            text = HEAD + text
        club(name, text)
    assert [str(p) for p in validate_file("club.yaml")] == expected


def test_there_are_at_least_25_kinds_of_bad_input() -> None:
    assert len({case for case, _, _ in CASES}) >= 25


def test_a_broken_file_changes_nothing_and_loading_raises_every_problem(club: Callable[..., str]) -> None:
    from regelmotor.errors import RulesetError
    from regelmotor.ruleset.load import load_ruleset

    club("club.yaml", HEAD + "deck:\n  kitty: three\njokrs: {}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset("club.yaml")
    assert [p.key_path for p in info.value.problems] == ["deck.kitty", "jokrs"]


def test_a_table_missing_a_new_designations_value_points_at_the_clubs_addition(
    club: Callable[..., str],
) -> None:
    """The trust issue: "a problem caused by the club's own addition (a new designation without a B value)
    points into the shipped standard.yaml": it points at the club's designation instead, and says the fix."""
    import yaml

    standard = yaml.safe_load((REPO / "rulesets" / "standard.yaml").read_text(encoding="utf-8"))
    designations = standard["designations"]
    added = {**designations[1], "id": "stor", "display": "stor", "tier": 5}
    doc = {"extends": "standard", "name": "k", "title": "K", "description": "K", "source": "K"}
    path = club("club.yaml", yaml.safe_dump({**doc, "designations": [*designations, added]}, allow_unicode=True))
    (problem,) = validate_file(path)
    assert problem.location.file == "club.yaml" and problem.path == ("designations", 5, "id")
    assert problem.message == 'the table "B" has no value for "stor": add "stor" to scoring.tables.B.values'


def test_scoring_problems_are_reported_with_the_others_at_once(club: Callable[..., str]) -> None:
    """The trust issue: "Scoring problems are reported only after everything else passes, one at a time"."""
    path = club(
        "club.yaml",
        "extends: standard\nname: k\ntitle: K\ndescription: K\nsource: K\n"
        "jernhaand:\n  allowed: true\n  court_ranks: [A, A]\n"
        "scoring:\n  trump:\n    made: base\n    failed: -2 * base * B * D\n"
        "  sol:\n    made: S\n    failed: -2 * S * D\n",
    )
    found = {problem.key_path: problem.message for problem in validate_file(path)}
    assert set(found) == {"jernhaand.court_ranks", "scoring.trump", "scoring.sol"}
    assert found["scoring.sol"].startswith("the scores do not sum to zero: in sol with 0 tricks")
