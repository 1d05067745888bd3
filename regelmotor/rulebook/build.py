"""Build the rule book of a resolved ruleset, in Danish or English.

Every sentence is a template filled with the ruleset's own values, and every table is computed
from the compiled rules (the ladder from the bid ladder, the point tables from the scorer), so a
rule book is never text written for one ruleset. A sentence built from a rule the ruleset marks
as inferred carries the mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from regelmotor.bids import Bid
from regelmotor.diff import label_of
from regelmotor.hooks import ContractInfo
from regelmotor.model.base import Rule
from regelmotor.model.formula import written
from regelmotor.model.ruleset import Ruleset
from regelmotor.phrases import SECTION_OF
from regelmotor.phrases import phrases as phrases
from regelmotor.rounding import number_text, points
from regelmotor.rulebook.model import Item, RuleBook, Section, Table
from regelmotor.rules.auction import book as auction_book
from regelmotor.rules.called_card import book as called_card_book
from regelmotor.rules.contracts.keys import Designation, SolBid
from regelmotor.rules.contracts.named import one_against_three
from regelmotor.rules.dealing import book as dealing_book
from regelmotor.rules.declaration import book as declaration_book
from regelmotor.rules.doubling import book as doubling_book
from regelmotor.rules.evening import book as evening_book
from regelmotor.rules.exchange import book as exchange_book
from regelmotor.rules.families import Sentence, designation_name, in_words, joined
from regelmotor.rules.fordaekt import book as fordaekt_book
from regelmotor.rules.gaa_med import book as gaa_med_book
from regelmotor.rules.jernhaand import book as jernhaand_book
from regelmotor.rules.jokers import book as jokers_book
from regelmotor.rules.play import book as play_book
from regelmotor.rules.redeal import book as redeal_book
from regelmotor.ruleset.compile import RoleScores, Rules
from regelmotor.ruleset.load import ResolvedRuleset

_FUNCTIONS = frozenset(("min", "max", "abs"))
"""The functions a formula may call: no letter to explain."""

LANGS = ("da", "en")
_BY_NAME = ("designations", "sol_bids")
"""Lists whose entries the book names by their names: the whole list is named by its own words, no section."""

SOURCE_TITLES = {
    "000": "Love for esmakkerwhist af Thomas Thorsen",
    "001": "Es-makker whist regler, online-spil mod tre computerspillere",
    "002": "Whist spilleregler: engelsk, dansk og es-makker whist",
    "003": "Whistgruppe nr. 2, forslag til regler",
    "WK": "Whistklubbens regelsæt",
}
SHORT_TITLES = {
    "da": {
        "000": "Thorsens love",
        "001": "Online-reglerne",
        "002": "Whist spilleregler",
        "003": "Whistgruppe 2",
        "WK": "Whistklubben",
    },
    "en": {
        "000": "Thorsen's laws",
        "001": "The online rules",
        "002": "Whist rules",
        "003": "Whistgruppe 2",
        "WK": "Whistklubben",
    },
}


def cited(source: str, lang: str) -> str:
    """A source as a reader cites it: the document by its short title, not its file name or number
    (the rule book's list of sources gives each in full); "udledt" in Danish. The rule book and ``diff``
    cite so."""
    titles = SHORT_TITLES[lang]
    genitive = "s" if lang == "da" else "'s"  # "Online-reglernes", not "Online-reglerne's"
    text = _CITED.sub(lambda m: titles[m.group(1) or "WK"] + (genitive if m.group(2) else ""), source)
    words, section = MATRIX_WORDS[lang]
    text = _MATRIX.sub(lambda m: words + (f", {section} {m.group(1)}" if m.group(1) else ""), text)
    return text.replace("inferred", "udledt") if lang == "da" else text


"""A source as the rule book cites it in a sentence: by a short title, the full one in its list of sources."""
_CITED = re.compile(r"\b(?:(00[0-3])(?:_[0-9a-f]{16}\.txt)?|WK)\b('s)?")
_MATRIX = re.compile(r"\brules-matrix\.md(?: (?:afsnit|section) (\d+))?")
MATRIX_WORDS = {
    "da": ("regelmotors oversigt over regelforskelle", "afsnit"),
    "en": ("regelmotor's table of rule differences", "section"),
}
_SOURCE_IDS = re.compile(r"\b(000|001|002|003)(?:_[0-9a-f]{16}\.txt)?\b|\b(WK|Whistklubben)")


def _decimal(value: Fraction, decimals: int, lang: str) -> str:
    return number_text(points(value, decimals), lang)


class _Builder:
    def __init__(self, resolved: ResolvedRuleset, rules: Rules, lang: str) -> None:
        if lang not in LANGS:
            raise ValueError(f"the rule book is written in Danish (da) or English (en), not {lang!r}")
        self.resolved = resolved
        self.rules = rules
        self.r = resolved.ruleset
        self.lang = lang
        self.inferred: dict[str, str] = {}
        self.own_sources = resolved.own_sources()
        self.formulas: list[Item] = []
        """The scoring formulas, printed in their own section after the rules (the tables say the points)."""
        self._role_points: dict[tuple[Bid, int, bool], RoleScores] = {}

    def t(self, key: str, **values: object) -> str:
        return in_words(self.lang, key, **values)

    def family(self, sentences: Callable[[Ruleset, str], list[Sentence]]) -> list[Item]:
        """A rule family's own sentences (its ``book.py``), as the book's items."""
        return [self.item(s.text, s.rule, s.path) for s in sentences(self.r, self.lang)]

    def subtitle(self) -> str:
        """What the book is and what it was made from, in the club's words: the house rules by their titles
        (a member does not know the files' ids)."""
        rules = self.t("title", game=self.game_name())
        house = [
            (info.title_en or info.title) if self.lang == "en" else info.title for info in self.resolved.house_rule_info
        ]
        if not house:
            return self.t("subtitle", rules=rules)
        return self.t(
            "subtitle_house_one" if len(house) == 1 else "subtitle_house", rules=rules, house=", ".join(house)
        )

    def letters(self, formula: str, kind: str) -> list[str]:
        """Each name a formula reads, said: a point table's number, a constant's value, or the variable the
        engine sets (``letter_<kind>_<name>``), in the order the formula first names them."""
        scoring = self.resolved.ruleset.scoring
        said: list[str] = []
        for name in dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", formula)):
            if name in _FUNCTIONS:
                continue
            if name in scoring.tables:
                said.append(self.t("letter_table", name=name))
            elif name in scoring.constants:
                value = _decimal(Fraction(scoring.constants[name]), 4, self.lang)
                said.append(self.t("letter_constant", name=name, value=value))
            elif f"letter_{kind}_{name}" in phrases(self.lang):
                said.append(self.t(f"letter_{kind}_{name}"))
        return said

    def limit(self, key: str, most: int | None, none: str) -> str:
        """At most ``most`` tricks in the phrase ``key`` ("one trick" in words, not "1 tricks"); none (0 or
        None): the phrase ``none``."""
        if not most:
            return self.t(none)
        return self.t(f"{key}_one") if most == 1 else self.t(key, n=most)

    def join(self, words: Sequence[str], word: str = "or") -> str:
        return joined(self.lang, words, word)

    def item(self, text: str, rule: Rule | None, path: str) -> Item:
        # "udledt" marks what the club's own file infers; what it inherits is its parent's reading
        inferred = rule is not None and rule.inferred and (rule.source or "") in self.own_sources
        if inferred and rule is not None and rule.source:
            self.inferred[path] = rule.source
        return Item(text, inferred, None if rule is None else rule.source)

    def rule_name(self, path: str) -> str:
        """A rule's place in words, not its key path: the section and what the key is about (the schema's
        own Danish words), or the designation or sol bid by its name."""
        match = re.match(r"^(designations|sol_bids)\[(\d+)\](.*)$", path)
        if match:
            kind, index = match.group(1), int(match.group(2))
            entry = self.r.designations[index] if kind == "designations" else self.r.sol_bids[index]
            what = self.name(entry) if isinstance(entry, Designation) else entry.display
            return f"{self.t('s_decl' if kind == 'designations' else 's_bids')}: {what}"
        parts: tuple[str | int, ...] = tuple(path.split("."))
        label = label_of(parts) if self.lang == "da" else ""
        section = None if parts[0] in _BY_NAME else SECTION_OF.get(str(parts[0]))
        heading = self.t(section) if section else ""
        text = label or path.replace("_", " ")
        if heading and text.casefold() == heading.casefold():  # a section of one rule: named once
            return heading
        return f"{heading}: {text}" if heading else text

    def cited(self, source: str) -> str:
        return cited(source, self.lang)

    def name(self, designation: Designation) -> str:
        return designation_name(designation, self.lang)

    # --- sections ----------------------------------------------------------------------------

    def cards(self) -> Section:
        section = Section(self.t("s_cards"), self.family(evening_book.table))
        section.items.extend(self.family(dealing_book.deck))
        section.items.extend(self.family(evening_book.session))
        return section

    def dealing(self) -> Section:
        r = self.r
        section = Section(self.t("s_deal"))
        section.items.append(self.item(self.t("rotation"), r.table, "table"))
        if r.table.same_dealer_after_sol:
            section.items.append(self.item(self.t("same_dealer_after_sol"), r.table, "table"))
        section.items.extend(self.family(dealing_book.sentences))
        section.items.extend(self.family(redeal_book.sentences))
        section.items.extend(self.family(jernhaand_book.sentences))
        return section

    def bidding(self) -> Section:
        r = self.r
        section = Section(self.t("s_bids"))
        passed = r.all_pass.contract
        if r.auction.procedure == "none":
            section.items.append(self.item(self.t("no_auction"), r.auction, "auction"))
            if passed is not None:
                section.items.append(self.item(self.contract_text(passed), passed, "all_pass"))
            return section
        section.items.append(self.item(self.t("melde_tilbage"), r.auction, "auction"))
        if not r.designations:  # only bids named by their name (dansk whist)
            section.items.append(Item(self.t("named_bids", ladder=self.rules.auction.ladder.describe())))
            for i, sol in enumerate(r.sol_bids):
                section.items.append(self.item(self.contract_text(sol), sol, f"sol_bids[{i}]"))
            if passed is not None:
                section.items.append(self.item(self.contract_text(passed), passed, "all_pass"))
            self._joining(section)
            return section
        assert r.bids is not None  # the checks require bids with designations
        section.items.append(
            self.item(self.t("trick_bids", lo=r.bids.min_tricks, hi=r.bids.max_tricks), r.bids, "bids")
        )
        groups: dict[int, list[str]] = {}
        for designation in r.designations:
            groups.setdefault(designation.tier, []).append(self.name(designation))
        order = " < ".join(" = ".join(names) for _, names in sorted(groups.items()))
        if len(groups) > 1:  # one designation (or all equal) has no order to state
            section.items.append(self.item(self.t("designation_order", order=order), r.designations[0], "designations"))
        for i, sol in enumerate(r.sol_bids):
            section.items.append(self.item(self.contract_text(sol), sol, f"sol_bids[{i}]"))
        if passed is not None:  # the game of a deal all passed, which "Kort og spil" sends the reader to
            section.items.append(self.item(self.contract_text(passed), passed, "all_pass"))
        self._joining(section)
        section.items.append(Item(self.t("ladder", ladder=self.rules.auction.ladder.describe())))
        section.tables.append(self.ladder_table())
        return section

    def _joining(self, section: Section) -> None:
        """Gå med and kan selv: who may join the highest bid or take it at its height."""
        section.items.extend(self.family(gaa_med_book.sentences))
        section.items.extend(self.family(auction_book.sentences))

    def contract_text(self, sol: SolBid) -> str:
        """A bid named by its name in one sentence: who plays, trump, what must be taken, who leads."""
        opened = "" if sol.open_hand == "never" else self.t(f"open_{sol.open_hand}")
        if one_against_three(sol) and sol.after is not None:  # es-makker whist's sol bids, in their own words
            limit = self.limit("at_most", sol.max_tricks, "no_tricks")
            return self.t("sol_bid", name=sol.display, limit=limit, open=opened, after=sol.after)
        goals = []
        if sol.side in ("pairs", "each"):
            how = "each_difference" if sol.side == "each" and sol.settle == "trick_difference" else sol.side
            goals.append(self.t(f"goal_{how}_{'fewest' if sol.fewest_tricks else 'most'}"))
        if sol.first_tricks is not None:
            goals.append(self.t("goal_first", n=sol.first_tricks))
        if sol.min_tricks is not None:
            goals.append(self.t("goal_min", n=sol.min_tricks))
        if sol.max_tricks is not None:
            goals.append(self.limit("goal_max", sol.max_tricks, "goal_none"))
        order = self.r.card_order.sol_games if sol.card_order == "sol_games" else self.r.card_order.trump_games
        ace = self.t("ace_low") if order[-1] == "A" else self.t("ace_high") if order[0] == "A" else ""
        passed = sol is self.r.all_pass.contract
        after = (
            "" if passed else self.t("place_lowest") if sol.after is None else self.t("place_after", after=sol.after)
        )
        return self.t(
            "contract",
            name=sol.display,
            who=self.t(f"who_{sol.side}"),
            trump=self.t(f"trump_{sol.trump}"),
            goal=self.join(goals, "and"),
            leader=self.t("leader_declarer") if sol.leader == "declarer" else "",
            order=ace,
            open=opened,
            place=after,
        )

    def game_name(self) -> str:
        key = f"game_{self.r.game}"
        return self.t(key) if key in phrases(self.lang) else self.r.game

    def ladder_table(self) -> Table:
        r = self.r
        ladder = self.rules.auction.ladder
        header = (self.t("tricks"), *(self.name(d) for d in r.designations))
        rows: list[tuple[str, ...]] = []
        for level in r.levels:
            row = [str(level)]
            for designation in r.designations:
                text = str(level) if designation is r.designations[0] else f"{level} {designation.id}"
                row.append(str(ladder.parse(text).rank + 1))
            rows.append(tuple(row))
        for sol in r.sol_bids:
            rows.append((sol.display, str(ladder.parse(sol.id).rank + 1), *([""] * (len(header) - 2))))
        return Table(self.t("ladder_table"), header, tuple(rows))

    def declaration(self) -> Section:
        return Section(self.t("s_decl"), self.family(declaration_book.sentences))

    def exchange(self) -> Section:
        return Section(self.t("s_exchange"), self.family(exchange_book.sentences))

    def fordaekt_and_doubling(self) -> list[Section]:
        fordaekt = Section(self.t("s_fordaekt"), self.family(fordaekt_book.sentences))
        doubling = Section(self.t("s_doubling"), self.family(doubling_book.sentences))
        return [fordaekt, doubling]

    def play(self) -> Section:
        section = Section(self.t("s_play"), self.family(play_book.sentences))
        section.items.extend(self.family(jokers_book.sentences))
        if self.r.designations:
            section.items.extend(self.family(called_card_book.sentences))
        section.items.extend(self.family(play_book.ending))
        return section

    def role_points(self, bid: Bid, tricks: int, *, alone: bool = False) -> RoleScores:
        """``rules.scoring.role_points``, each asked once: the tables read every role of the same cell, and a formula
        ruleset's cells cost a formula each."""
        key = (bid, tricks, alone)
        found = self._role_points.get(key)
        if found is None:
            found = self._role_points[key] = self.rules.scoring.role_points(bid, tricks, alone=alone)
        return found

    def scoring(self) -> Section:
        r = self.r
        points = self.role_points
        decimals = r.scoring.decimals
        section = Section(self.t("s_scoring"))
        summed = self.t("zero_sum") if r.scoring.losers_pay else self.t("winners_only")
        if r.scoring.rounding == "whole_up":
            section.items.append(self.item(summed + " " + self.t("whole_up"), r.scoring, "scoring"))
        elif not r.scoring.losers_pay:
            exact = " " + self.t("exact_alone", d=decimals) if decimals else ""
            section.items.append(self.item(summed + exact, r.scoring, "scoring"))
        else:
            section.items.append(Item(summed + (" " + self.t("exact", d=decimals) if decimals else "")))
        levels = r.levels
        tables: dict[tuple[tuple[str, ...], ...], list[str]] = {}
        related = True
        for d in r.designations:
            grid = []
            for level in levels:
                row = []
                for tricks in range(14):
                    bid = self.rules.auction.ladder.trump_bid(d.id, level)
                    pair = points(bid, tricks)
                    alone = points(bid, tricks, alone=True)
                    related &= pair.partner == pair.declarer and pair.opponent == -pair.declarer
                    related &= alone.declarer == 3 * pair.declarer and alone.opponent == -pair.declarer
                    row.append(_decimal(pair.declarer, decimals, self.lang))
                grid.append(tuple(row))
            tables.setdefault(tuple(grid), []).append(self.name(d))
        trump_game = r.scoring.trump
        if r.designations:
            section.items.append(
                self.item(
                    self.t("trump_roles") if related else self.t("role_tables", roles=self.t("role_declarer")),
                    trump_game,
                    "scoring.trump",
                )
            )
        header = (self.t("bid_taken"), *(str(t) for t in range(14)))
        for cells, names in tables.items():
            level_rows = tuple((str(level), *row) for level, row in zip(levels, cells, strict=True))
            section.tables.append(Table(self.t("points_for", what=", ".join(names)), header, level_rows))
        if not related:  # spell out every role where the simple relation does not hold
            for role in ("partner", "opponent", "alone", "alone_opponent"):
                for d in r.designations:
                    role_rows = tuple(
                        (
                            str(level),
                            *(
                                _decimal(self._role(d.id, level, tricks, role), decimals, self.lang)
                                for tricks in range(14)
                            ),
                        )
                        for level in levels
                    )
                    section.tables.append(Table(f"{self.name(d)}: {self.t('role_' + role)}", header, role_rows))
        sides = [s for s in r.named_bids() if s.side != "alone"]
        if sides:
            roles = "named_roles" if r.scoring.losers_pay else "named_roles_winners"
            section.items.append(self.item(self.t(roles), r.scoring.sol, "scoring.sol"))
            for s in sides:
                section.tables.append(self.side_table(s))
        solo = [s for s in r.sol_bids if s.side == "alone"]
        if solo and not sides:
            sol_related = all(
                game.opponent * -3 == game.declarer
                for s in r.sol_bids
                for game in (points(self._named_bid(s), t) for t in range(14))
            )
            section.items.append(
                self.item(
                    self.t("sol_roles") if sol_related else self.t("role_tables", roles=self.t("role_declarer")),
                    r.scoring.sol,
                    "scoring.sol",
                )
            )
        if solo:
            rows = tuple(
                (s.display, *(_decimal(points(self._named_bid(s), t).declarer, decimals, self.lang) for t in range(14)))
                for s in solo
            )
            section.tables.append(Table(self.t("sol_table" if not sides else "named_table"), header, rows))
        games = (("trump_games", r.scoring.trump), ("sol_games", r.scoring.sol))
        for what, game in games if r.designations else (("named_games", r.scoring.sol),):
            if game is None:
                continue
            if game.formula:
                formula = written(game.formula)
            else:
                formula = self.t("made_failed", made=written(game.made or ""), failed=written(game.failed or ""))
            self.formulas.append(Item(self.t("formula", what=self.t(what), formula=formula)))
            texts = " ".join(str(part) for part in (game.formula, game.made, game.failed) if part)
            letters = self.letters(texts, "sol" if what != "trump_games" else "trump")
            if letters:  # what each letter is, in the game's words: the formula alone means nothing to a member
                self.formulas.append(Item(self.t("formula_letters", letters="; ".join(letters))))
        money = r.money
        if money.losses_to_box:
            section.items.append(self.item(self.t("money_box"), money, "money"))
        if money.evening_fee:
            fee = self.t("money_fee", fee=_decimal(money.evening_fee, 2, self.lang))
            section.items.append(self.item(fee, money, "money"))
        return section

    def side_table(self, s: SolBid) -> Table:
        """The points of a bid played by sides: by the side's tricks, or (each for himself) by winners."""
        bid = self._named_bid(s)
        decimals = self.r.scoring.decimals
        if s.side == "each" and s.settle == "trick_difference":
            splits = ((0, 3, 4, 6), (1, 3, 4, 5), (2, 2, 4, 5), (3, 3, 3, 4))
            shown = (
                (
                    "-".join(map(str, split)),
                    ", ".join(
                        _decimal(p, decimals, self.lang)
                        for p in self.rules.scoring.points(ContractInfo(bid, ()), split)
                    ),
                )
                for split in splits
            )
            return Table(
                self.t("difference_table", name=s.display), (self.t("split"), self.t("split_points")), tuple(shown)
            )
        if s.side == "each":
            header: tuple[str, ...] = (self.t("winners"), self.t("winner_points"), self.t("loser_points"))
            rows: list[tuple[str, ...]] = []
            for winners in (1, 2, 3):
                tricks = _split_with_winners(winners, fewest=s.fewest_tricks)
                points = self.rules.scoring.points(ContractInfo(bid, ()), tricks)
                best = min(tricks) if s.fewest_tricks else max(tricks)
                win = next(p for p, t in zip(points, tricks, strict=True) if t == best)
                lose = next(p for p, t in zip(points, tricks, strict=True) if t != best)
                rows.append((str(winners), _decimal(win, decimals, self.lang), _decimal(lose, decimals, self.lang)))
            return Table(self.t("each_table", name=s.display), header, tuple(rows))
        counts = range(7, 14) if s.side == "pairs" else range(14)
        header = (self.t("tricks"), *(str(t) for t in counts))
        row = (s.display, *(_decimal(self.role_points(bid, t).declarer, decimals, self.lang) for t in counts))
        pairs = "pairs_table" if self.r.scoring.losers_pay else "pairs_table_winners"
        title = self.t(pairs, name=s.display) if s.side == "pairs" else s.display
        return Table(title, header, (row,))

    def _role(self, designation: str, level: int, tricks: int, role: str) -> Fraction:
        bid = self.rules.auction.ladder.trump_bid(designation, level)
        if role.startswith("alone"):
            game = self.role_points(bid, tricks, alone=True)
            return game.declarer if role == "alone" else game.opponent
        game = self.role_points(bid, tricks)
        return game.opponent if role == "opponent" else (game.partner or Fraction(0))

    def _named_bid(self, s: SolBid) -> Bid:
        """A named bid (a sol, or the game played when all pass) as a contract."""
        return self.rules.contract_bid(s.id)

    def house_and_notes(self) -> list[Section]:
        house = Section(self.t("s_house"))
        for info in self.resolved.house_rule_info:
            house.items.append(
                Item(
                    self.t(
                        "house",
                        title=(info.title_en if self.lang == "en" else None) or info.title,
                        description=(info.description_en if self.lang == "en" else None) or info.description,
                    ),
                    False,
                    info.source,
                )
            )
        if not house.items:
            house.items.append(Item(self.t("no_house")))
        sections = [house]
        described = self.rules.describe(self.lang)
        if self.rules.plugins or described:
            plugins = Section(self.t("s_plugins"))
            for name, version in self.rules.plugins:
                plugins.items.append(Item(self.t("plugin", name=name, version=version)))
            plugins.items.extend(Item(line) for line in described)
            sections.append(plugins)
        if self.r.notes:
            notes = Section(self.t("s_notes"))
            for i, note in enumerate(self.r.notes):
                notes.items.append(self.item(note.text, note, f"notes[{i}]"))
            sections.append(notes)
        return sections

    def build(self) -> RuleBook:
        r = self.r
        sections: list[Section] = [self.cards(), self.dealing(), self.bidding()]
        if r.designations:  # a game of trick bids: the partner card, trump, the kitty, fordækt (es-makker whist)
            sections += [self.declaration(), self.exchange()]
            sections += self.fordaekt_and_doubling()
        elif r.doubling.allowed:
            sections += self.fordaekt_and_doubling()[1:]
        sections += [self.play(), self.scoring()]
        sections += self.house_and_notes()
        if self.formulas:  # the tables say the points; the formulas behind them are for the curious
            sections.append(Section(self.t("s_formulas"), self.formulas))
        every_source = " ".join(rule.source or "" for rule in _rules_of(r)) + " " + r.source
        found = []
        for match in _SOURCE_IDS.finditer(every_source):
            key = match.group(1) or "WK"
            if key not in found:
                found.append(key)
        short = SHORT_TITLES[self.lang]
        docs = [f"{short[key]} ({SOURCE_TITLES[key]})" for key in sorted(found)]
        section = Section(self.t("s_sources"))
        section.items.append(Item(self.t("sources", docs="; ".join(docs) if docs else self.cited(r.source))))
        own = [
            self.cited(source)
            for source in dict.fromkeys([r.source, *(info.source for info in self.resolved.house_rule_info)])
            if not _SOURCE_IDS.search(source) and not source.startswith("inferred")
        ]
        if own and docs:  # the club's own sources: its minutes, its pages, its members' word
            section.items.append(Item(self.t("own_sources", sources="; ".join(own))))
        sections.append(section)
        return RuleBook(
            title=(r.title_en if self.lang == "en" else None) or r.title,  # the club's name: the book is the club's
            subtitle=self.subtitle(),
            lang=self.lang,
            sections=tuple(sections),
            inferred_legend=self.t("legend"),
            inferred_rules=tuple(
                sorted((self.rule_name(path), self.cited(source)) for path, source in self.inferred.items())
            ),
            sources=tuple(docs),
        )


def _split_with_winners(winners: int, *, fewest: bool) -> tuple[int, ...]:
    """A way 13 tricks can fall with ``winners`` players sharing the fewest (or most) of them."""
    low = {1: (1, 4, 4, 4), 2: (2, 2, 4, 5), 3: (3, 3, 3, 4)}[winners]
    high = {1: (5, 3, 3, 2), 2: (5, 5, 2, 1), 3: (4, 4, 4, 1)}[winners]
    return low if fewest else high


def _rules_of(model: object) -> list[Rule]:
    from pydantic import BaseModel

    found: list[Rule] = []
    if isinstance(model, Rule):
        found.append(model)
    if isinstance(model, BaseModel):
        for name in type(model).model_fields:
            value = getattr(model, name)
            for item in value if isinstance(value, tuple) else (value,):
                found.extend(_rules_of(item))
    return found


def build_rulebook(resolved: ResolvedRuleset, rules: Rules, lang: str = "da") -> RuleBook:
    return _Builder(resolved, rules, lang).build()


__all__ = ["LANGS", "build_rulebook"]
