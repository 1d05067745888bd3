"""The card encoding the play rules work on: card numbers, suit masks, rank strengths.

The fordækt card (000 6.1.1) counts as the lowest card of the partner card's suit and as nothing else:
every function takes it as ``fd_card`` (its number, -1 for none) and ``fd_suit`` (the suit it counts in).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from regelmotor.cards import FACE_DOWN
from regelmotor.numba_cache import cached

F = TypeVar("F", bound=Callable[..., Any])
A = TypeVar("A")


try:  # pragma: no branch - numba is a dependency; the fallback keeps the play rules importable without it
    from numba import config as _config
    from numba import njit as _njit

    def jit(function: F) -> F:
        """Compiled by numba (cached on disk in ``numba_cache.cache_dir()``, the GIL released); plain Python where
        numba is missing."""
        return cached(cast(F, _njit(nogil=True)(function)))

    def jit_inlined(function: F) -> F:
        """``jit``, compiled into each of its callers (numba's ``inline="always"``): for a function called
        once a node of a search, whose call (a dozen arrays passed field by field) costs more than its body.
        Only where a caller is few: each caller compiles the whole body again."""
        return cached(cast(F, _njit(nogil=True, inline="always")(function)))

    def jit_uncounted(function: F) -> F:
        """``jit`` with no reference counting of arrays at all (numba's ``_nrt=False``), and so every function it
        calls that does not say otherwise: for the search's loop, which passes rows to small functions at
        every node and makes no array (counting them was a call into numba's runtime for each array passed,
        twice, even where the count is a null pointer's). A function it calls that makes an array must be
        ``jit_counted``; numba refuses one that is not (a compile error, never a leak)."""
        return cached(cast(F, cast(Any, _njit)(nogil=True, _nrt=False)(function)))

    def jit_counted(function: F) -> F:
        """``jit`` that counts references even where its caller is ``jit_uncounted``: for a function that makes
        an array of its own (and lets go of it before it returns)."""
        return cached(cast(F, cast(Any, _njit)(nogil=True, _nrt=True)(function)))

    JIT = not getattr(_config, "DISABLE_JIT", False)
    """Whether the play functions are compiled (not under ``NUMBA_DISABLE_JIT=1``)."""

    from llvmlite import ir as _ir
    from numba import types as _types
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic

    @_intrinsic
    def _unowned(typingctx: Any, array: Any) -> Any:
        if not isinstance(array, _types.Array):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            view = context.make_array(signature.args[0])(context, builder, value=args[0])
            view.meminfo = _cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call]
            return view._getvalue()

        return array(array), codegen

    def unowned(array: A) -> A:
        """``array`` as a view that keeps no count of its references, for a search's hot loop.

        Compiled code counts every array it passes or slices (an atomic add to the array's owner, and
        another to give it back): in the solver's search that was most of a node's time. A view with no
        owner makes each count a test of a null pointer. Only a compiled function's own parameters are
        made unowned, as views for the length of the call, while its caller holds the arrays (a local
        array may be freed after its last use while a view of it is still read); a view is never returned."""
        return array

    @_intrinsic
    def _prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
        if not isinstance(table, _types.Array) or table.ndim != 2 or not isinstance(row, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, value=args[0])
            zero = context.get_constant(_types.intp, 0)
            index = context.cast(builder, args[1], signature.args[1], _types.intp)
            pointer = _cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
                context, builder, signature.args[0], array, [index, zero], wraparound=False
            )
            byte = _ir.IntType(8).as_pointer()
            i32 = _ir.IntType(32)
            function = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=_ir.FunctionType(_ir.VoidType(), [byte, i32, i32, i32])
            )
            builder.call(function, [builder.bitcast(pointer, byte), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return _types.void(table, row), codegen

    def prefetch_row(table: Rows, row: int) -> None:
        """Asks the processor to bring ``table[row]`` into its cache now, without waiting for it: for a walk
        along a chain whose next rows are known before they are read (a miss costs more than a node's work)."""

    if JIT:
        unowned = _unowned  # type: ignore[assignment]
        prefetch_row = _prefetch_row  # type: ignore[assignment]
except ImportError:  # pragma: no cover

    def jit(function: F) -> F:
        return function

    def jit_inlined(function: F) -> F:
        return function

    def jit_uncounted(function: F) -> F:
        return function

    def jit_counted(function: F) -> F:
        return function

    def unowned(array: A) -> A:
        return array

    def prefetch_row(table: Rows, row: int) -> None:
        pass

    JIT = False

Rows = npt.NDArray[np.int64]

FORDAEKT = FACE_DOWN
"""The fordækt card, face down as the table sees it (every row, whether or not the real card is known)."""
JOKER_SUIT = 4
JOKER_MASK = (1 << 52) | (1 << 53) | (1 << 54)
SUIT_MASKS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)] + [JOKER_MASK], dtype=np.int64)

# --- the constants of a ruleset's play rules (an int64 array; ``constants.play_constants`` fills it) --
# Each family that the fast path plays owns a block of slots, named and written in its own home
# (``rules/<family>/cardplay.py``): a new flag of a family takes a free slot of its block, and no other
# family's slot moves. A slot is also the code of the rule it makes, where that rule refuses a card
# (``legal.legal_cards``' third answer), so the codes of two families never meet.
BLOCK = 8
JOKERS = 0  # rules/jokers/cardplay.py
CALLED_CARD = 8  # rules/called_card/cardplay.py
PLAY = 16  # the play family: rules/cardplay (following suit, the end of play)
SOL_EARLY = PLAY  # a bid with a most of tricks ends when every declarer's side has taken more
FOLLOW_SUIT = PLAY + 1  # no flag: the code of the rule "follow suit if you can" (001)
TRUMP_STRENGTH = 24  # 24-79: strength by card in trump games (higher wins; 0 for a joker), read without a division
SOL_STRENGTH = 80  # 80-135: strength by card in the sol games' order
CONSTANTS = 136
NO_RULE = -1
"""The code of no rule: the card is legal."""


@jit
def fd_bit(fd_card: int) -> int:
    return (1 << fd_card) if fd_card >= 0 else 0


@jit
def card_suit(card: int, fd_card: int, fd_suit: int) -> int:
    """The suit a card counts in (``JOKER_SUIT`` for a joker)."""
    if card == fd_card:
        return fd_suit
    if card < 52:
        return card // 13
    return JOKER_SUIT


@jit
def suit_mask(suit: int, fd_card: int, fd_suit: int) -> int:
    """The cards that count in ``suit`` (the jokers for ``JOKER_SUIT``)."""
    bit = fd_bit(fd_card)
    mask = int(SUIT_MASKS[suit]) & ~bit
    if suit == fd_suit:
        mask |= bit
    return mask


@jit
def card_strength(card: int, sol: int, fd_card: int, consts: Rows) -> int:
    """A card's strength within its suit (higher wins): the fordækt card and jokers 0, below the two."""
    if card == fd_card:
        return 0
    return int(consts[(SOL_STRENGTH if sol else TRUMP_STRENGTH) + card])


if JIT:
    from llvmlite import ir as _ir

    @_intrinsic
    def _popcount(typingctx: Any, mask: Any) -> Any:
        if not isinstance(mask, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return mask(mask), codegen

    @_intrinsic
    def _trailing_zeros(typingctx: Any, mask: Any) -> Any:
        if not isinstance(mask, _types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 0))

        return mask(mask), codegen

    _ones: Any = _popcount  # the processor's own instructions (popcnt, tzcnt), as LLVM's intrinsics
    _zeros_below: Any = _trailing_zeros

    @jit
    def lowest_card(mask: int) -> int:
        """The lowest card of a non-empty mask (its lowest set bit's index)."""
        return int(_zeros_below(np.int64(mask)))

    @jit
    def bit_count(mask: int) -> int:
        """The cards in a mask."""
        return int(_ones(np.int64(mask)))

else:  # pragma: no cover - plain Python has the bit's index at hand (and no 64-bit wrap-around)

    def lowest_card(mask: int) -> int:
        return int((mask & -mask).bit_length() - 1)

    def bit_count(mask: int) -> int:
        return int(mask).bit_count()


BITS = tuple(1 << card for card in range(56))


def mask_of(cards: Sequence[int]) -> int:
    """The mask of distinct cards (a sum of their bits)."""
    return sum(map(BITS.__getitem__, cards))


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest first: one step per card held, not per card in the deck."""
    cards = []
    mask = int(mask)
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
