"""A hand record's double-dummy table: for each trump and each declaring seat, the tricks his side takes,
as a bridge hand record prints them.

The hands come from a small text file (docs/notation.md "Hand record"): one line per seat, ``0: AS KS 7H JK1
...`` (cards in the notation, ``#`` starts a comment), or for a 52-card game a PBN deal (the bare
``N:AKQ.T98.765.432 ...``; N is seat 0, then clockwise), or a PBN file of one deal or of an evening's boards,
read as PBN is written (tags, ``;`` and ``{...}`` comments, ``%`` lines); every board that cannot be read is
refused at its line, and nothing is analysed while one is. The declarer
plays with the partner across and the seat after him leads, in the ruleset's play rules (its card order,
jokers and their leads); no partner card is called, as in a bridge table.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from regelmotor import play_row
from regelmotor.cards import RANK_LETTERS, SUIT_LETTERS, Card, format_card, make_card, parse_card
from regelmotor.double_dummy import position, transposition
from regelmotor.double_dummy import solver as S
from regelmotor.double_dummy.analysis import NODES, AnalysisError, kernel_of
from regelmotor.errors import CardError, RegelmotorError
from regelmotor.files import BOM, InputError, read_input
from regelmotor.phrase_table import Said, say
from regelmotor.rules.cardplay.end_of_play import TRUMP_GAME
from regelmotor.rules.cardplay.masks import Rows, mask_of
from regelmotor.ruleset.compile import Rules

MAX_DEAL_BYTES = 10_000
"""A hand record is a few lines; ten kilobytes is certainly not one."""
TRUMPS: tuple[str | None, ...] = ("S", "H", "D", "C", None)
_PBN = re.compile(r"^\s*[NESWnesw]:\S+(?:\s+\S+){3}\s*$")
"""A bare PBN deal in a hand record of one deal (a file with tags is read as PBN)."""
_SEAT_LINE = re.compile(r"^\s*([0-4])\s*:\s*(.*)$")


Bounds = tuple[int, int]
"""The fewest and the most tricks a search proved, where it did not settle the value."""


@dataclass(frozen=True)
class HandTable:
    ruleset: str
    hands: tuple[tuple[Card, ...], ...]
    tricks: dict[str | None, tuple[int | None, ...]]
    """For each trump (None: no trump), the declaring side's tricks with each seat as declarer."""
    board: str | None = None
    """The board's name in an evening's hand record (``[Board "3"]``), where it has one."""
    jokers_out: int = 0
    """The ruleset's jokers that are in no hand (a joker game's table of a 52-card deal is played without
    them): the table says so."""
    bounds: dict[str | None, tuple[Bounds | None, ...]] = field(default_factory=dict)
    """For a cell its search did not settle: the fewest and the most tricks it proved ("7-8"), never a bare
    "?"; the trumps with such a cell only."""


@dataclass(frozen=True)
class Board:
    """One deal of a hand-record file, with where it was written (its ``[Deal]``'s line)."""

    name: str | None
    """The board's name in an evening's PBN file (``[Board "17"]``), whole; None where it has none."""
    hands: list[list[Card]]
    path: Path
    line: int = 0
    """The line of its ``[Deal]``; 0 for a hand record of seat lines (its problems name the file)."""

    @property
    def where(self) -> str:
        """Where a problem of the board is: ``aften.pbn:54 (spil 17)``, said in the reader's language."""
        if self.line == 0:
            return str(self.path)
        if self.name is None:
            return f"{self.path}:{self.line}"
        return Said.of("board_at", path=self.path, line=self.line, board=self.name)


@dataclass(frozen=True)
class HandFile:
    """A hand-record file as read: its boards, whether it is an evening's PBN file (its ``--json`` is a list
    whatever its number of boards) and what the member is told of the file itself (a BOM skipped)."""

    path: Path
    boards: tuple[Board, ...]
    evening: bool
    notice: RegelmotorError | None = None


class UnreadableBoards(AnalysisError):
    """Every board of a file (or of the files) that cannot be read or checked, each at its line: nothing is
    analysed while one is wrong."""

    def __init__(self, problems: Sequence[RegelmotorError], more: int = 0) -> None:
        self.problems, self.more = tuple(problems), more
        super().__init__(self.text("en"))

    def text(self, lang: str = "da") -> str:
        lines = [say("err_boards_unreadable", {"count": len(self.problems) + self.more}, lang)]
        lines += [f"  {problem.text(lang)}" for problem in self.problems]
        if self.more:
            lines.append("  " + say("boards_more_problems", {"count": self.more}, lang))
        return "\n".join(lines)


class _Problems:
    """The problems a reading finds, the first ``MAX_PROBLEMS`` of them kept (one per line)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, RegelmotorError]] = []
        self.more = 0
        self.lines: set[int] = set()

    def add(self, error: RegelmotorError, line: int = 0) -> None:
        if line and line in self.lines:
            return
        self.lines.add(line)
        if len(self.found) < MAX_PROBLEMS:
            self.found.append((line, error))
        else:
            self.more += 1

    def check(self) -> None:
        """Raise what was found, in the order of the file's lines: the one problem, or all of them."""
        found = [error for _, error in sorted(self.found, key=lambda item: item[0])]
        if len(found) == 1 and not self.more:
            raise found[0]
        if found:
            raise UnreadableBoards(found, self.more)


def _pbn_deal(value: str, where: str) -> list[list[Card]]:
    """The four hands of a PBN deal ``F:h1 h2 h3 h4`` (F the seat of the first hand, then clockwise; a hand
    is its spades, hearts, diamonds and clubs separated by dots), in seat order: N is seat 0."""
    found = re.fullmatch(r"\s*([NESWnesw]):(.*)", value, flags=re.S)
    if found is None:
        raise AnalysisError.said("pbn_deal_value", where=where, value=_shown(value))
    texts = found.group(2).split()
    if len(texts) != 4:
        raise AnalysisError.said("pbn_deal_four", where=where, count=len(texts))
    start = "NESW".index(found.group(1).upper())
    hands: list[list[Card]] = [[] for _ in range(4)]
    for number, hand_text in enumerate(texts):
        seat = (start + number) % 4
        if hand_text == "-":
            raise AnalysisError.said("pbn_hand_unknown", where=where, seat=seat, compass="NESW"[seat])
        suits = hand_text.split(".")
        if len(suits) != 4:
            raise AnalysisError.said("pbn_hand_suits", where=where, seat=seat, hand=_shown(hand_text))
        for suit, ranks in enumerate(suits):
            if "10" in ranks:
                raise AnalysisError.said("pbn_rank_ten", where=where, seat=seat, hand=_shown(hand_text))
            for rank in ranks.replace("-", ""):  # "-" for a void suit, as some programs write it
                if rank.upper() not in RANK_LETTERS:
                    raise AnalysisError.said("pbn_rank", where=where, seat=seat, rank=_shown(rank))
                hands[seat].append(make_card(RANK_LETTERS.index(rank.upper()), suit))
    return hands


def _shown(text: str) -> str:
    """A piece of the file quoted in a refusal, bounded."""
    return text if len(text) <= 40 else text[:40] + "…"


CELLS = len(TRUMPS) * 4
"""A table's cells: every trump and no trump, every seat as declarer."""
MAX_BOARDS_BYTES = 1_000_000
"""An evening's PBN file of a few dozen boards, with all its tags, is some tens of kilobytes."""
MAX_BOARDS = 200
"""More boards than any evening plays."""
MAX_BOARD_NAME = 100
"""A board's name is a number or a few words; a longer one is no board name (it is refused, never cut)."""
MAX_PROBLEMS = 20
"""The problems of a file said one by one; the rest are counted."""
NODES_PER_SECOND = 2_000_000
"""About how many positions a search visits a second (``NODES``, twenty million, is about ten seconds)."""

_PBN_TOKEN = re.compile(
    r"(?P<newline>\n)"
    r"|(?P<space>[^\S\n]+)"
    r"|(?P<escape>(?<![^\n])%[^\n]*)"  # a line beginning with % (an escape line), read past
    r"|(?P<brace>\{[^}]*\}?)"  # a comment, over lines; without its } it runs to the end of the file
    r"|(?P<semi>;[^\n]*)"
    r'|(?P<tag>\[[^\S\n]*(?P<name>[A-Za-z0-9_]+)[^\S\n]+"(?P<value>(?:[^"\\\n]|\\.)*)"[^\S\n]*\])'
    r"|(?P<bad_tag>\[[^\n]*)"
    r"|(?P<data>[^\s\[{;]+)"
)
_PBN_LINE = re.compile(r"^[^\S\n]*[\[%{]", flags=re.M)
"""A file with a line beginning with a tag, an escape or a comment is a PBN file."""


def _section(name: str) -> bool:
    """A tag followed by its section's data (the auction, the play, a table such as ``OptimumResultTable``)."""
    return name in ("Auction", "Play") or name.endswith("Table")


@dataclass
class _Game:
    """The tags of one game of a PBN file, each with its line."""

    tags: dict[str, tuple[str, int]]
    broken: bool = False
    """A ``[Deal`` that is no tag: said at its line already."""


def _read_pbn(text: str, path: Path) -> tuple[list[Board], bool]:
    """The boards of a PBN file as PBN is written: tags ``[Name "value"]``, ``;`` and ``{...}`` comments (over
    lines), ``%`` escape lines, a game's tags until an empty line or a tag it has already; the section data
    of the auction, the play and the tables read past. Every board that cannot be read is a problem at its
    line; any problem and nothing is returned."""
    problems = _Problems()
    boards: list[Board] = []
    named = False
    game = _Game({})
    section = False
    line, content = 1, False

    def finish() -> None:
        nonlocal game, named
        done, game = game, _Game({})
        board, deal = done.tags.get("Board"), done.tags.get("Deal")
        name = board[0] if board is not None and board[0] not in ("", "#") else None
        named = named or board is not None
        if board is not None and len(board[0]) > MAX_BOARD_NAME:
            where = f"{path}:{board[1]}"
            problems.add(AnalysisError.said("pbn_board_name", where=where, most=MAX_BOARD_NAME), board[1])
            return
        if deal is None:
            if board is not None and not done.broken:
                where = f"{path}:{board[1]}"
                problems.add(AnalysisError.said("pbn_no_deal", where=where, board=board[0]), board[1])
            return
        if len(boards) >= MAX_BOARDS:
            raise AnalysisError.said("boards_too_many", path=path, most=MAX_BOARDS)
        at = Board(name, [], path, deal[1])
        try:
            boards.append(Board(name, _pbn_deal(deal[0], at.where), path, deal[1]))
        except AnalysisError as exc:
            problems.add(exc, deal[1])

    position = 0
    while position < len(text):
        found = _PBN_TOKEN.match(text, position)
        assert found is not None  # every character begins a token
        position = found.end()
        kind, token = found.lastgroup, found.group()
        if kind == "newline":
            if not content and game.tags:  # an empty line ends a game
                finish()
            line, content = line + 1, False
            continue
        if kind == "space":
            continue
        content = True
        if kind == "brace" and not token.endswith("}"):
            problems.add(AnalysisError.said("pbn_comment_open", where=f"{path}:{line}"), line)
        elif kind == "tag":
            name = found.group("name")
            if name in game.tags:  # a tag the game has already: the next game's
                finish()
            game.tags[name] = (re.sub(r"\\(.)", r"\1", found.group("value")), line)
            section = _section(name) or (section and name == "Note")
        elif kind == "bad_tag":
            deal = re.match(r"\[\s*Deal\b", token) is not None
            board = game.tags.get("Board")
            if deal:  # a board that cannot be read: said at its line, with its name where it has one
                game.broken = True
            at = Board(board[0] if board and deal else None, [], path, line).where
            phrase = "pbn_deal_tag" if deal else "pbn_tag"
            problems.add(AnalysisError.said(phrase, where=at, tag=_shown(token)), line)
        elif kind == "data" and not section:
            problems.add(AnalysisError.said("pbn_line", where=f"{path}:{line}", text=_shown(token)), line)
        line += token.count("\n")
    if game.tags:
        finish()
    problems.check()
    if not boards:
        raise AnalysisError.said("boards_none", path=path)
    return boards, named or len(boards) > 1


def read_hand_file(path: Path, most: int = MAX_BOARDS_BYTES) -> HandFile:
    """A hand-record file (docs/notation.md "Hand record"): four seat lines (``1: AS KS ...``) or a bare PBN deal
    (``N:AKQ.T98.765.432 ...``), one board; or a PBN file, one board for each ``[Deal]`` (an evening's, its
    ``[Board "n"]`` naming each). Read by ``read_input`` (a FIFO or a device refused at once, the size
    bounded, a BOM skipped and said); every problem at its line, every board's before any is returned."""
    try:
        found = read_input(path, most)
    except InputError as exc:
        raise AnalysisError.said("as_is", error=exc) from None
    try:
        text = found.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AnalysisError.said("hands_not_utf8", path=path, byte=exc.start + len(BOM) * found.bom) from None
    if _PBN_LINE.search(text):
        boards, evening = _read_pbn(text, path)
        return HandFile(path, tuple(boards), evening, found.notice())
    if len(found.data) > MAX_DEAL_BYTES:  # one hand record: its own bound
        too_large = InputError.said("in_too_large", size=len(found.data), most=MAX_DEAL_BYTES)
        raise AnalysisError.said("at_path", path=path, error=too_large)
    return HandFile(path, (Board(None, _hands_in(text, path), path),), False, found.notice())


def read_boards(path: Path) -> list[tuple[str | None, list[list[Card]]]]:
    """The boards of a hand record (``read_hand_file``), each its name and its hands."""
    return [(board.name, board.hands) for board in read_hand_file(path).boards]


def read_hands(path: Path) -> list[list[Card]]:
    """The four hands of a hand-record file of one deal (either format), each error located by line."""
    boards = read_hand_file(path, MAX_DEAL_BYTES).boards
    if len(boards) != 1:
        raise AnalysisError.said("hands_one_board", path=path, count=len(boards))
    return boards[0].hands


def _hands_in(text: str, path: Path) -> list[list[Card]]:
    found: dict[int, list[Card]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        where = f"{path}:{number}"
        if not line:
            continue
        pbn = _PBN.match(line)
        if pbn:
            if found:
                raise AnalysisError.said("hands_pbn_twice", where=where)
            for seat, hand in enumerate(_pbn_deal(line, where)):
                found[seat] = hand
            continue
        seat_line = _SEAT_LINE.match(line)
        if not seat_line:
            raise AnalysisError.said("hands_line", where=where)
        seat = int(seat_line.group(1))
        if seat in found:
            raise AnalysisError.said("hands_twice", where=where, number=seat)
        try:
            found[seat] = [parse_card(c) for c in seat_line.group(2).split()]
        except CardError as exc:
            raise AnalysisError.said("hands_card", where=where, error=exc) from None
    if 4 in found and 0 in found:  # counted from 0 and from 1 at once: which hand is whose cannot be told
        raise AnalysisError.said("hands_both_counts", path=path)
    if set(found) == {1, 2, 3, 4}:  # seats as a person counts them, "1:" forhånd (the notation's "0:")
        found = {seat - 1: hand for seat, hand in found.items()}
    missing = [seat for seat in range(4) if seat not in found]
    if missing:
        raise AnalysisError.said("hands_missing", path=path, count=4 - len(found))
    return [found[seat] for seat in range(4)]


def check_boards(boards: Sequence[Board], rules: Rules) -> None:
    """Every board's hands checked against the ruleset's deck (``check_hands``), every problem at its board,
    before any board is searched."""
    problems = _Problems()
    for board in boards:
        try:
            check_hands(board.hands, rules, board.where)
        except AnalysisError as exc:
            problems.add(exc)
    problems.check()


def table_seconds(boards: int, nodes: int, jobs: int) -> float:
    """The most ``boards`` tables take, about: a trump's four cells never search more than four budgets
    (``hand_table``), and the five trumps go ``jobs`` at a time."""
    rounds = -(-len(TRUMPS) // max(1, min(jobs, len(TRUMPS))))
    return boards * rounds * 4 * nodes / NODES_PER_SECOND


def check_hands(hands: list[list[Card]], rules: Rules, where: str) -> None:
    sizes = {len(hand) for hand in hands}
    if len(sizes) != 1 or not 1 <= min(sizes) <= 13:
        raise AnalysisError.said("hands_sizes", where=where, sizes=", ".join(map(str, sorted(map(len, hands)))))
    seen: set[Card] = set()
    jokers = rules.dealing.jokers
    for seat, hand in enumerate(hands):
        for card in hand:
            if card in seen:
                raise AnalysisError.said("hands_card_twice", where=where, card=format_card(card), seat=seat)
            if card >= 52 + jokers:
                raise AnalysisError.said("hands_not_in_deck", where=where, card=format_card(card), jokers=jokers)
            seen.add(card)


def table_row(hands: list[list[Card]], trump: str | None, declarer: int) -> Rows:
    """A trump game of ``declarer`` with the partner across, the seat after him to lead."""
    row = np.zeros(play_row.ROW, dtype=np.int64)
    row[play_row.TRUMP] = -1 if trump is None else SUIT_LETTERS.index(trump)
    row[play_row.CALLED] = row[play_row.EXEMPT] = row[play_row.SOL_LIMIT] = row[play_row.FIRST_TRICKS] = row[
        play_row.FD_SUIT
    ] = row[play_row.OPEN_AFTER] = -1
    row[play_row.SIDE] = TRUMP_GAME
    row[play_row.DECLARERS] = 1 << declarer
    row[play_row.DECLARER] = declarer
    row[play_row.PARTNER] = (declarer + 2) % 4
    row[play_row.FIXED_SIDE] = 1 << ((declarer + 2) % 4)
    row[play_row.LEADER] = row[play_row.TO_PLAY] = (declarer + 1) % 4
    row[play_row.TRICKS] = 13 - len(hands[0])
    for seat in range(4):
        row[play_row.HANDS + seat] = mask_of(hands[seat])
    return row


def hand_table(
    rules: Rules,
    label: str,
    hands: list[list[Card]],
    nodes: int = NODES,
    progress: Callable[[int], None] | None = None,
    board: str | None = None,
    solvers: Sequence[S.Solver] | None = None,
) -> HandTable:
    """The double-dummy tricks of every trump and declarer (``progress(done)`` as the 20 cells are done).

    Each trump is searched from an empty table (``table_solvers``' tables, where an evening's boards share
    them: a table is 100 MB), by one solver at a time; with several solvers the trumps are searched side
    by side on as many threads (the search lets go of the interpreter), as DDS's ``CalcDDtable`` does, and
    every cell is the same, nodes and all, whichever thread took its trump. Within a trump each declarer's
    search starts from the last value found as its first guess (MTD(f)): the partner's, else the other
    side's tricks of the seat before him (the first declarer of a trump: the solver's own guess).

    ``nodes`` is a cell's budget, and a trump's four cells share four times it: a cell its budget did not
    settle is searched again, once the others are done, with what they left (its table still holds what
    the first search learnt). A table never searches more than 20 budgets, as before, but a hard cell
    beside three easy ones is settled where it was "?"."""
    if not solvers:
        solvers = table_solvers(rules, 1)
    free: queue.SimpleQueue[S.Solver] = queue.SimpleQueue()
    for solver in solvers:
        free.put(solver)
    lock = threading.Lock()
    done = [0]
    stopped = threading.Event()
    size = len(hands[0])

    def cells(trump: str | None) -> tuple[tuple[int | None, ...], tuple[Bounds | None, ...]]:
        solver = free.get()
        try:
            transposition.clear(solver.table)
            by_seat: list[int | None] = [None] * 4
            proven: list[Bounds | None] = [None] * 4  # what a cell's search narrowed it to, where unsettled
            spent = 0
            for again in (False, True):  # again: a cell over its budget, with what the trump's others left
                for declarer in range(4):
                    if again and by_seat[declarer] is not None:
                        continue
                    left = 4 * nodes - spent
                    if not again or left > 0:
                        if stopped.is_set():
                            raise KeyboardInterrupt
                        row = table_row(hands, trump, declarer)
                        guess = _guess(by_seat, declarer, size)
                        found = solver.value(row, _side(declarer), position.MOST, left if again else nodes, guess)
                        spent += solver.searched
                        by_seat[declarer] = None if found == position.UNKNOWN else found
                        proven[declarer] = solver.bounds() if found == position.UNKNOWN else None
                    if again or by_seat[declarer] is not None:  # the cell is final: progress counts it
                        with lock:
                            done[0] += 1
                            if progress is not None:
                                progress(done[0])
            return tuple(by_seat), tuple(proven)
        finally:
            free.put(solver)

    if progress is not None:
        progress(0)
    if len(solvers) == 1:
        found = [cells(trump) for trump in TRUMPS]
    else:
        pool = ThreadPoolExecutor(max_workers=len(solvers), thread_name_prefix="hand-table")
        try:
            found = list(pool.map(cells, TRUMPS))
        except BaseException:  # Ctrl-C: the searches under way stop at their next position
            stopped.set()
            for solver in solvers:
                solver.stop()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    jokers_out = max(0, rules.dealing.jokers - sum(card >= 52 for hand in hands for card in hand))
    tricks = {trump: cell[0] for trump, cell in zip(TRUMPS, found, strict=True)}
    bounds = {trump: cell[1] for trump, cell in zip(TRUMPS, found, strict=True) if any(cell[1])}
    return HandTable(label, tuple(tuple(h) for h in hands), tricks, board, jokers_out, bounds)


def _guess(by_seat: Sequence[int | None], declarer: int, size: int) -> int:
    """A declarer's first guess (MTD(f)) from the cells of his trump found so far: his partner's tricks, else
    the other side's of a seat beside him; else -1, the solver's own guess."""
    partner = by_seat[(declarer + 2) % 4]
    if partner is not None:
        return partner
    for beside in ((declarer - 1) % 4, (declarer + 1) % 4):
        found = by_seat[beside]
        if found is not None:
            return size - found
    return -1


def _side(declarer: int) -> int:
    """The declarer's side in a hand table: he and the seat across."""
    return (1 << declarer) | (1 << ((declarer + 2) % 4))


def table_solvers(rules: Rules, count: int) -> list[S.Solver]:
    """``count`` solvers for ``hand_table`` (at most one a trump): its threads, a 100 MB table each."""
    consts = kernel_of(rules).constants
    return [S.Solver(consts) for _ in range(max(1, min(count, len(TRUMPS))))]
