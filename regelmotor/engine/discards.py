"""The exchange's legal actions as a sequence built on demand.

A declarer who may discard three of thirteen cards has 286 legal actions, and writing them all
out costs more than the rest of a simulated deal's bidding; a random player needs only how many
there are and the one it draws. So the discards are numbered as ``itertools.combinations``
numbers them and the action of one is made only when it is asked for. Iterating gives exactly
the list ``keep`` (where allowed) then every discard, in that order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from math import comb
from typing import overload

from regelmotor.cards import Card
from regelmotor.engine.actions import Action, Verb


class Discards(Sequence[Action]):
    """``first`` (e.g. ``keep``), then a discard for every ``count``-card choice among ``cards``.

    ``cards`` are the cards that may be discarded, in the hand's canonical order, so each
    discard holds its cards in canonical order too.
    """

    __slots__ = ("_blocks", "_first", "_length", "_names")

    def __init__(self, first: Sequence[Action], cards: Sequence[Card], counts: Sequence[int]) -> None:
        self._first = tuple(first)
        self._names = tuple(cards)
        self._blocks = [(count, comb(len(self._names), count)) for count in counts]
        self._length = len(self._first) + sum([size for _, size in self._blocks])

    def key(self) -> tuple[object, ...]:
        """What decides these actions, as a value (equal keys, the same actions): for memos."""
        return (self._first, self._names, tuple(self._blocks))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(f"legal action {index} of {self._length}")
        if index < len(self._first):
            return self._first[index]
        index -= len(self._first)
        for count, size in self._blocks:
            if index < size:
                return Action(Verb.DISCARD, cards=self._nth(count, index))
            index -= size
        raise AssertionError("unreachable: the index was checked against the length")  # pragma: no cover

    def _nth(self, count: int, rank: int) -> tuple[Card, ...]:
        """The ``rank``-th ``count``-card choice in ``itertools.combinations`` order."""
        names, start = self._names, 0
        chosen: list[Card] = []
        last = len(names) - 1
        for left in range(count - 1, -1, -1):
            for position in range(start, last + 1):
                following = comb(last - position, left)
                if rank < following:
                    chosen.append(names[position])
                    start = position + 1
                    break
                rank -= following
        return tuple(chosen)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action in self._first:
            return True
        if action.verb is not Verb.DISCARD or action.hidden:
            return False
        cards = action.cards
        if not any(count == len(cards) for count, _ in self._blocks):
            return False
        try:
            places = [self._names.index(card) for card in cards]
        except ValueError:
            return False
        return all(a < b for a, b in itertools.pairwise(places))  # canonical order, no card twice

    def __iter__(self) -> Iterator[Action]:
        yield from self._first
        for count, _ in self._blocks:
            for choice in itertools.combinations(self._names, count):
                yield Action(Verb.DISCARD, cards=choice)

    def __repr__(self) -> str:
        return f"Discards({len(self)} actions: {', '.join(map(str, itertools.islice(self, 4)))}, ...)"
