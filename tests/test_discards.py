"""The exchange's legal actions, made on demand, are exactly the list they stand for."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import format_card
from regelmotor.engine.actions import card_order_key
from regelmotor.engine.discards import Discards

HANDS = st.lists(st.integers(0, 54), min_size=0, max_size=16, unique=True).map(
    lambda cards: [format_card(c) for c in sorted(cards, key=card_order_key)]
)
COUNTS = st.lists(st.integers(1, 3), min_size=0, max_size=3, unique=True).map(sorted)
FIRST = st.sampled_from([(), ("keep",)])


def written_out(first: tuple[str, ...], names: list[str], counts: list[int]) -> list[str]:
    return [*first, *("discard " + " ".join(c) for k in counts for c in itertools.combinations(names, k))]


@given(FIRST, HANDS, COUNTS)
def test_every_index_length_and_iteration_match_the_written_out_list(
    first: tuple[str, ...], names: list[str], counts: list[int]
) -> None:
    expected = written_out(first, names, counts)
    discards = Discards(first, names, counts)
    assert len(discards) == len(expected)
    assert list(discards) == expected
    assert [discards[i] for i in range(len(expected))] == expected
    assert [discards[-i] for i in range(1, len(expected) + 1)] == [expected[-i] for i in range(1, len(expected) + 1)]
    assert discards[1:4] == expected[1:4]


@given(FIRST, HANDS, COUNTS)
def test_it_holds_its_actions_and_nothing_else(first: tuple[str, ...], names: list[str], counts: list[int]) -> None:
    discards = Discards(first, names, counts)
    expected = written_out(first, names, counts)
    assert all(action in discards for action in expected)
    wrong = ["keep" if not first else "pass", "discard", "discard ", 3, None]
    if len(names) >= 2:
        wrong += [f"discard {names[1]} {names[0]}", f"discard {names[0]} {names[0]}"]  # out of order, twice
    wrong += [f"discard {' '.join(names[:k])}" for k in range(1, min(3, len(names)) + 1) if k not in counts]
    wrong += ["discard XX", f"discard {names[0]}  {names[-1]}" if names else "discard  "]
    assert not any(action in discards for action in wrong)


def test_an_index_past_the_end_is_an_index_error() -> None:
    discards = Discards(("keep",), ["AS", "KS", "QS"], [3])
    assert len(discards) == 2 and discards[-1] == "discard AS KS QS"
    with pytest.raises(IndexError, match="legal action 2 of 2"):
        discards[2]
    with pytest.raises(IndexError):
        discards[-3]


def test_a_declarer_exchanging_three_of_thirteen_has_286_actions_made_only_when_read() -> None:
    names = [format_card(c) for c in sorted(range(13), key=card_order_key)]
    discards = Discards((), names, [3])
    assert len(discards) == 286 and discards[0] == "discard AS KS QS" and discards[285] == "discard 4S 3S 2S"
    assert "Discards(286 actions: discard AS KS QS" in repr(discards)
