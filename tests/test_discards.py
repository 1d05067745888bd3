"""The exchange's legal actions, made on demand, are exactly the list they stand for."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import Card, parse_card
from regelmotor.engine.actions import KEEP_ACTION, PASS_ACTION, Action, Verb, card_order_key, discard, play
from regelmotor.engine.discards import Discards

HANDS = st.lists(st.integers(0, 54), min_size=0, max_size=16, unique=True).map(
    lambda cards: sorted(cards, key=card_order_key)
)
COUNTS = st.lists(st.integers(1, 3), min_size=0, max_size=3, unique=True).map(sorted)
FIRST = st.sampled_from([(), (KEEP_ACTION,)])


def written_out(first: tuple[Action, ...], cards: list[Card], counts: list[int]) -> list[Action]:
    return [*first, *(Action(Verb.DISCARD, cards=c) for k in counts for c in itertools.combinations(cards, k))]


@given(FIRST, HANDS, COUNTS)
def test_every_index_length_and_iteration_match_the_written_out_list(
    first: tuple[Action, ...], cards: list[Card], counts: list[int]
) -> None:
    expected = written_out(first, cards, counts)
    discards = Discards(first, cards, counts)
    assert len(discards) == len(expected)
    assert list(discards) == expected
    assert [discards[i] for i in range(len(expected))] == expected
    assert [discards[-i] for i in range(1, len(expected) + 1)] == [expected[-i] for i in range(1, len(expected) + 1)]
    assert discards[1:4] == expected[1:4]


@given(FIRST, HANDS, COUNTS)
def test_it_holds_its_actions_and_nothing_else(first: tuple[Action, ...], cards: list[Card], counts: list[int]) -> None:
    discards = Discards(first, cards, counts)
    expected = written_out(first, cards, counts)
    assert all(action in discards for action in expected)
    wrong: list[object] = [KEEP_ACTION if not first else PASS_ACTION, Action(Verb.DISCARD), "discard", 3, None]
    if len(cards) >= 2:
        # out of order, twice
        wrong += [Action(Verb.DISCARD, cards=(cards[1], cards[0])), Action(Verb.DISCARD, cards=(cards[0], cards[0]))]
    wrong += [Action(Verb.DISCARD, cards=tuple(cards[:k])) for k in range(1, min(3, len(cards)) + 1) if k not in counts]
    wrong += [Action(Verb.DISCARD, hidden=k) for k in counts]  # another seat's discard as the table sees it
    missing = [c for c in range(55) if c not in cards]
    if missing:
        wrong += [discard([missing[0]]), play(missing[0])]
    assert not any(action in discards for action in wrong)


def test_an_index_past_the_end_is_an_index_error() -> None:
    discards = Discards((KEEP_ACTION,), [parse_card(c) for c in ("AS", "KS", "QS")], [3])
    assert len(discards) == 2 and str(discards[-1]) == "discard AS KS QS"
    with pytest.raises(IndexError, match="legal action 2 of 2"):
        discards[2]
    with pytest.raises(IndexError):
        discards[-3]


def test_a_declarer_exchanging_three_of_thirteen_has_286_actions_made_only_when_read() -> None:
    discards = Discards((), sorted(range(13), key=card_order_key), [3])
    assert len(discards) == 286 and str(discards[0]) == "discard AS KS QS" and str(discards[285]) == "discard 4S 3S 2S"
    assert "Discards(286 actions: discard AS KS QS" in repr(discards)
