"""A hand record's double-dummy table: for each trump and each declaring seat, the tricks his side takes,
as a bridge hand record prints them.

The hands come from a small text file (notation.md "Hand record"): one line per seat, ``0: AS KS 7H JK1
...`` (cards in the notation, ``#`` starts a comment), or for a 52-card game a PBN deal
(``[Deal "N:AKQ.T98.765.432 ..."]`` or the bare ``N:...``; N is seat 0, then clockwise). The declarer
plays with the partner across and the seat after him leads, in the ruleset's play rules (its card order,
jokers and their leads); no partner card is called, as in a bridge table.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from regelmotor import play_row as K
from regelmotor.cards import RANK_LETTERS, SUIT_LETTERS, Card, format_card, make_card, parse_card
from regelmotor.double_dummy import solver as S
from regelmotor.double_dummy.analysis import NODES, AnalysisError, kernel_of
from regelmotor.errors import CardError
from regelmotor.rules.cardplay.end_of_play import TRUMP_GAME
from regelmotor.rules.cardplay.masks import Rows, mask_of
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.yaml_source import TooLarge, read_bounded

MAX_DEAL_BYTES = 10_000
"""A hand record is a few lines; ten kilobytes is certainly not one."""
TRUMPS: tuple[str | None, ...] = ("S", "H", "D", "C", None)
_PBN = re.compile(r'^\s*(?:\[Deal\s+")?([NESW]):([^\s"\]]+(?:\s+[^\s"\]]+){3})(?:"\])?\s*$')
_SEAT_LINE = re.compile(r"^\s*([0-4])\s*:\s*(.*)$")


@dataclass(frozen=True)
class HandTable:
    ruleset: str
    hands: tuple[tuple[Card, ...], ...]
    tricks: dict[str | None, tuple[int | None, ...]]
    """For each trump (None: no trump), the declaring side's tricks with each seat as declarer."""
    board: str | None = None
    """The board's name in an evening's hand record (``[Board "3"]``), where it has one."""


def _pbn_hands(first: str, text: str, where: str) -> list[list[Card]]:
    hands: list[list[Card]] = []
    for hand_text in text.split():
        suits = hand_text.split(".")
        if len(suits) != 4:
            raise AnalysisError(f"{where}: a PBN hand has four suits separated by dots, not {hand_text!r}")
        hand = []
        for suit, ranks in enumerate(suits):
            for rank in ranks.replace("-", ""):
                if rank.upper() not in RANK_LETTERS:
                    raise AnalysisError(f"{where}: {rank!r} is not a rank (2-9, T, J, Q, K, A)")
                hand.append(make_card(RANK_LETTERS.index(rank.upper()), suit))
        hands.append(hand)
    start = "NESW".index(first)  # the first hand given is that seat's; seat 0 is N
    return [hands[(seat - start) % 4] for seat in range(4)]


CELLS = len(TRUMPS) * 4
"""A table's cells: every trump and no trump, every seat as declarer."""
MAX_BOARDS_BYTES = 1_000_000
"""An evening's PBN file of a few dozen boards, with all its tags, is some tens of kilobytes."""
MAX_BOARDS = 200
"""More boards than any evening plays."""
_BOARD = re.compile(r'^\s*\[Board\s+"([^"]{0,20})"\]\s*$')
_DEAL_TAG = re.compile(r'^\s*\[Deal\s+"')


def read_boards(path: Path) -> list[tuple[str | None, list[list[Card]]]]:
    """The boards of a hand record: one (unnamed) in a file of four seat lines or one PBN deal; each board of
    an evening's PBN file (``[Board "n"]`` then its ``[Deal "..."]``; the other tags are read past), as the
    hand records a club hands out after an evening."""
    text = _read_text(path, MAX_BOARDS_BYTES)
    lines = text.splitlines()
    if not any(_BOARD.match(line) for line in lines) and sum(bool(_DEAL_TAG.match(line)) for line in lines) < 2:
        if len(text.encode("utf-8")) > MAX_DEAL_BYTES:  # one hand record: its own bound, and its refusal
            return [(None, read_hands(path))]
        return [(None, _hands_in(text, path))]
    boards: list[tuple[str | None, list[list[Card]]]] = []
    name: str | None = None
    for number, line in enumerate(lines, 1):
        found = _BOARD.match(line)
        if found:
            name = found.group(1)
            continue
        pbn = _PBN.match(line) if _DEAL_TAG.match(line) else None
        if pbn:
            if len(boards) >= MAX_BOARDS:
                raise AnalysisError.said("boards_too_many", path=path, most=MAX_BOARDS)
            boards.append((name, _pbn_hands(pbn.group(1), pbn.group(2), f"{path}:{number}")))
            name = None
    if not boards:
        raise AnalysisError.said("boards_none", path=path)
    return boards


def _read_text(path: Path, most: int) -> str:
    """A hand record's text, read up to ``most`` bytes."""
    try:
        return read_bounded(path, most).decode("utf-8")
    except (OSError, TooLarge) as exc:
        raise AnalysisError(f"{path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise AnalysisError.said("hands_not_utf8", path=path, byte=exc.start) from None


def read_hands(path: Path) -> list[list[Card]]:
    """The four hands of a hand-record file (either format), each error located by line."""
    return _hands_in(_read_text(path, MAX_DEAL_BYTES), path)


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
            for seat, hand in enumerate(_pbn_hands(pbn.group(1), pbn.group(2), where)):
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


def check_hands(hands: list[list[Card]], rules: Rules, where: str) -> None:
    sizes = {len(hand) for hand in hands}
    if len(sizes) != 1 or not 1 <= min(sizes) <= 13:
        raise AnalysisError.said("hands_sizes", where=where, sizes=", ".join(map(str, sorted(map(len, hands)))))
    seen: set[Card] = set()
    jokers = rules.jokers
    for seat, hand in enumerate(hands):
        for card in hand:
            if card in seen:
                raise AnalysisError.said("hands_card_twice", where=where, card=format_card(card), seat=seat)
            if card >= 52 + jokers:
                raise AnalysisError.said("hands_not_in_deck", where=where, card=format_card(card), jokers=jokers)
            seen.add(card)


def table_row(hands: list[list[Card]], trump: str | None, declarer: int) -> Rows:
    """A trump game of ``declarer`` with the partner across, the seat after him to lead."""
    row = np.zeros(K.ROW, dtype=np.int64)
    row[K.TRUMP] = -1 if trump is None else SUIT_LETTERS.index(trump)
    row[K.CALLED] = row[K.EXEMPT] = row[K.SOL_LIMIT] = row[K.FIRST_TRICKS] = row[K.FD_SUIT] = row[K.OPEN_AFTER] = -1
    row[K.SIDE] = TRUMP_GAME
    row[K.DECLARERS] = 1 << declarer
    row[K.DECLARER] = declarer
    row[K.PARTNER] = (declarer + 2) % 4
    row[K.FIXED_SIDE] = 1 << ((declarer + 2) % 4)
    row[K.LEADER] = row[K.TO_PLAY] = (declarer + 1) % 4
    row[K.TRICKS] = 13 - len(hands[0])
    for seat in range(4):
        row[K.HANDS + seat] = mask_of(hands[seat])
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

    def cells(trump: str | None) -> tuple[int | None, ...]:
        solver = free.get()
        try:
            S.clear(solver.table)
            by_seat: list[int | None] = [None] * 4
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
                        found = solver.value(row, _side(declarer), S.MOST, left if again else nodes, guess)
                        spent += int(solver.budget[1])
                        by_seat[declarer] = None if found == S.UNKNOWN else found
                    if again or by_seat[declarer] is not None:  # the cell is final: progress counts it
                        with lock:
                            done[0] += 1
                            if progress is not None:
                                progress(done[0])
            return tuple(by_seat)
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
    return HandTable(label, tuple(tuple(h) for h in hands), dict(zip(TRUMPS, found, strict=True)), board)


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
