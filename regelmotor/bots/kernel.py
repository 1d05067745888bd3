"""The play phase as bitmasks: a fast copy of the engine's play rules for the expert bot's playouts.

A determinized deal is played out hundreds of times per decision, so the play phase is kept here as
one row of integers per deal (hands as 56-bit masks) and played by functions that numba compiles
when it is installed (they run as plain Python when it is not, or with ``NUMBA_DISABLE_JIT=1``).

Nothing here is a second rule book: ``KernelRules.build`` reads every flag from the compiled
``Rules`` of a ruleset whose play hooks are the shipped ones (legal cards, trick winner, end of
play), and a test plays thousands of random deals through both this kernel and ``Game`` and
checks they agree on every legal card, trick winner and end of play. Where a club's plugin
replaces one of those hooks, ``KernelRules.exact`` is False and the bot plays out with the engine's
own functions (``engine_playout``): slower, but right.

The fordækt card (000 6.1.1) is card 55 here, whoever looks: a card that counts as the lowest of
the partner card's suit and as nothing else; its real face plays no part in the play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from regelmotor.bids import Bid
from regelmotor.cards import SUIT_LETTERS, suit_of
from regelmotor.engine.game import PLAY, Game
from regelmotor.hooks import ContractInfo, TrickContext
from regelmotor.rules.contracts import one_against_three
from regelmotor.rules.trick_winner import strengths
from regelmotor.ruleset.compile import STANDARD_PLUGINS, Rules

F = TypeVar("F", bound=Callable[..., Any])

try:  # pragma: no branch - numba is a dependency; the fallback keeps the kernel importable without it
    from numba import njit as _njit

    def jit(function: F) -> F:
        return cast(F, _njit(cache=True, nogil=True)(function))

    JIT = True
except ImportError:  # pragma: no cover

    def jit(function: F) -> F:
        return function

    JIT = False

Rows = npt.NDArray[np.int64]

FORDAEKT = 55
"""The fordækt card in the kernel: the lowest card of the partner card's suit."""
JOKER_SUIT = 4
JOKER_MASK = (1 << 52) | (1 << 53) | (1 << 54)
SUIT_MASKS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)] + [JOKER_MASK], dtype=np.int64)

# --- the row: one deal's play phase --------------------------------------------------------------
TRUMP = 0  # trump suit 0-3, or -1
SOL = 1  # 1 in a sol game
CALLED = 2  # the partner card, or -1
EXEMPT = 3  # the seat the partner card's rules do not bind (a selvmakker declarer), or -1
CALLED_PLAYED = 4
SUIT_LED = 5  # the partner card's suit has been led in a finished trick
LEADER = 6
TO_PLAY = 7
TRICKS = 8  # tricks played
WON = 9  # 9-12: tricks won by each seat
DECLARERS = 13  # bitmask of the declarer seats
DECLARER = 14  # the first declarer
PARTNER = 15  # the partner's seat, -1 for none, -2 "whoever holds the partner card" (set when sampled)
SOL_LIMIT = 16  # the most tricks a sol declarer may take
TRICK_N = 17
TRICK = 18  # 18-21: the current trick's cards in play order
HANDS = 22  # 22-25: each seat's hand as a mask
SEEN = 26  # every card played so far (a mask)
FD_SUIT = 27  # the suit the fordækt card counts in, or -1
ROW = 28

# --- constants of a ruleset ---------------------------------------------------------------------
ANY_TIME = 0  # jokers may be played at any time
LEAD_FIRST = 1  # a joker may be led to the first trick
HOLDER_LEADS = 2  # the partner card's holder must lead it when he leads its suit
MUST_FALL = 3  # the partner card falls the first time its suit is led
JOKER_LOSES = 4  # a led joker loses to a trump
SOL_EARLY = 5  # sol ends when every declarer has taken too many tricks
TRUMP_STRENGTH = 6  # 6-18 by rank
SOL_STRENGTH = 19  # 19-31 by rank
FIRST_FREE = 32  # the partner card's rules do not bind in the first trick
CONSTANTS = 33

EPSILON = 0.05
"""How often a playout plays a random legal card instead of its greedy choice."""

SHIPPED_PLUGINS = frozenset(plugin.__name__ for plugin in STANDARD_PLUGINS)
"""The shipped rule families: where only they implement the play hooks, the kernel copies them exactly."""
PLAY_HOOKS = (
    "regelmotor_legal_cards",
    "regelmotor_trick_winner",
    "regelmotor_play_over",
    "regelmotor_called_card_binds",
    "regelmotor_open_hands",
    "regelmotor_fordaekt",
    "regelmotor_made",
    "regelmotor_settle",
)
"""Every play-relevant compiled callable: where a plugin decides any of them, playouts go through ``Game``."""


@jit
def card_suit(card: int, fd_suit: int) -> int:
    if card < 52:
        return card // 13
    if card < 55:
        return JOKER_SUIT
    return fd_suit


@jit
def card_strength(card: int, sol: int, consts: Rows) -> int:
    if card >= 52:
        return 0
    if sol:
        return int(consts[SOL_STRENGTH + card % 13])
    return int(consts[TRUMP_STRENGTH + card % 13])


@jit
def suit_mask(suit: int, fd_suit: int) -> int:
    mask = int(SUIT_MASKS[suit])
    if suit == fd_suit:
        mask |= 1 << FORDAEKT
    return mask


@jit
def binding(row: Rows, seat: int) -> bool:
    """Whether the partner card's rules bind ``seat`` now (he holds it, unplayed, its suit not yet led)."""
    called = row[CALLED]
    if called < 0 or row[SOL] != 0 or row[CALLED_PLAYED] != 0 or row[SUIT_LED] != 0 or seat == row[EXEMPT]:
        return False
    return bool((row[HANDS + seat] >> called) & 1 == 1)


@jit
def legal_mask(row: Rows, seat: int, consts: Rows) -> int:
    """The cards ``seat`` may play now, as a mask (the engine's ``legal_cards``)."""
    hand = int(row[HANDS + seat])
    fd = int(row[FD_SUIT])
    called = int(row[CALLED])
    bound = binding(row, seat) and not (consts[FIRST_FREE] != 0 and row[TRICKS] == 0)
    if row[TRICK_N] == 0:
        cards = hand
        if row[TRICKS] == 0 and consts[LEAD_FIRST] == 0:
            plain = cards & ~JOKER_MASK
            if plain != 0:
                cards = plain
        if bound and consts[HOLDER_LEADS] != 0:
            cards &= ~(suit_mask(card_suit(called, fd), fd) & ~(1 << called))
        return cards
    led = card_suit(int(row[TRICK]), fd)
    if led == JOKER_SUIT:
        return hand
    if bound and consts[MUST_FALL] != 0 and card_suit(called, fd) == led:
        return 1 << called
    following = hand & suit_mask(led, fd)
    if following != 0:
        if consts[ANY_TIME] != 0:
            following |= hand & JOKER_MASK
        return following
    return hand


@jit
def winning_index(row: Rows, count: int, consts: Rows) -> int:
    """The index of the card that wins (or is winning) the row's trick of ``count`` cards (the engine's
    ``trick_winner``)."""
    fd = int(row[FD_SUIT])
    trump = int(row[TRUMP])
    led = int(row[TRICK])
    led_joker = 52 <= led < 55
    if trump >= 0:
        best = highest_of_suit(row, count, trump, consts)
        if best >= 0 and (not led_joker or consts[JOKER_LOSES] != 0):
            return best
    if led_joker:
        return 0
    return highest_of_suit(row, count, card_suit(led, fd), consts)


@jit
def highest_of_suit(row: Rows, count: int, suit: int, consts: Rows) -> int:
    """The index of the strongest card of ``suit`` among the trick's first ``count``, or -1 (the
    fordækt card is the lowest of its suit)."""
    fd = int(row[FD_SUIT])
    sol = int(row[SOL])
    best = -1
    best_strength = -1
    for i in range(count):
        card = int(row[TRICK + i])
        if card_suit(card, fd) == suit:
            strength = card_strength(card, sol, consts)
            if strength > best_strength:
                best, best_strength = i, strength
    return best


@jit
def play_over(row: Rows, consts: Rows) -> bool:
    """Whether play has ended (the engine's ``play_over``): 13 tricks, or a sol lost by every declarer."""
    if row[TRICKS] >= 13:
        return True
    if row[SOL] == 0 or consts[SOL_EARLY] == 0:
        return False
    declarers = int(row[DECLARERS])
    for seat in range(4):  # noqa: SIM110 - a loop, not all(): numba compiles no generators
        if (declarers >> seat) & 1 and row[WON + seat] <= row[SOL_LIMIT]:
            return False
    return True


@jit
def play_card(row: Rows, card: int, consts: Rows) -> int:
    """Play ``card`` for the seat to play; returns the winner of the trick when it completes it, else -1."""
    seat = int(row[TO_PLAY])
    bit = 1 << card
    row[HANDS + seat] &= ~bit
    row[SEEN] |= bit
    n = int(row[TRICK_N])
    row[TRICK + n] = card
    row[TRICK_N] = n + 1
    if card == row[CALLED]:
        row[CALLED_PLAYED] = 1
    if n < 3:
        row[TO_PLAY] = (seat + 1) % 4
        return -1
    leader = int(row[LEADER])
    winner = (leader + winning_index(row, 4, consts)) % 4
    called = int(row[CALLED])
    fd = int(row[FD_SUIT])
    if row[SUIT_LED] == 0 and called >= 0 and card_suit(int(row[TRICK]), fd) == card_suit(called, fd):
        row[SUIT_LED] = 1
    row[WON + winner] += 1
    row[TRICKS] += 1
    row[LEADER] = winner
    row[TO_PLAY] = winner
    row[TRICK_N] = 0
    return winner


# --- the playout policy ---------------------------------------------------------------------------


@jit
def on_declarer_side(row: Rows, seat: int) -> bool:
    return bool(((row[DECLARERS] >> seat) & 1) == 1 or seat == row[PARTNER])


DE_BRUIJN = 0x03F79D71B4CB0A89
BIT_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    BIT_INDEX[(((1 << _bit) * DE_BRUIJN) >> 58) & 63] = _bit


@jit
def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty mask (its lowest set bit's index, by a de Bruijn sequence)."""
    low = np.uint64(mask & -mask)
    return int(BIT_INDEX[int(((low * np.uint64(DE_BRUIJN)) >> np.uint64(58)) & np.uint64(63))])


@jit
def random_card(mask: int) -> int:
    pick = np.random.randint(bit_count(mask))
    while pick > 0:
        mask &= mask - 1
        pick -= 1
    return lowest_card(mask)


@jit
def keep_value(row: Rows, card: int, consts: Rows) -> int:
    """How much a hand wants to keep a card: high cards and trumps in trump games, low cards in sol."""
    if 52 <= card < 55:
        if row[SOL] != 0:
            return 0
        return 40 if consts[JOKER_LOSES] == 0 or row[TRUMP] < 0 else 5
    strength = card_strength(card, int(row[SOL]), consts)
    if row[SOL] != 0:
        return 20 - strength
    if card_suit(card, int(row[FD_SUIT])) == row[TRUMP]:
        return strength + 20
    return strength


@jit
def master(row: Rows, card: int, consts: Rows) -> bool:
    """Whether no card still out (not played, not in the player's own hand) beats ``card`` in its suit."""
    if card >= 52:
        return False
    suit = card // 13
    seat = int(row[TO_PLAY])
    out = ~(int(row[SEEN]) | int(row[HANDS + seat])) & int(SUIT_MASKS[suit])
    strength = card_strength(card, int(row[SOL]), consts)
    while out:
        other = lowest_card(out)
        out &= out - 1
        if card_strength(other, int(row[SOL]), consts) > strength:
            return False
    return True


@jit
def choose(row: Rows, legal: int, consts: Rows) -> int:
    """The playout's card: cheap play that wins tricks for its side (sol: declarers duck, defenders push)."""
    if np.random.random() < EPSILON:
        return random_card(legal)
    seat = int(row[TO_PLAY])
    n = int(row[TRICK_N])
    sol = row[SOL] != 0
    mine = on_declarer_side(row, seat)
    cheapest = -1  # the card the hand least wants to keep (sol: its highest)
    cheapest_value = 1 << 30
    dearest = -1  # the card the hand most wants to keep (sol: its lowest)
    dearest_value = -1
    rest = legal
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        value = keep_value(row, card, consts)
        if value < cheapest_value:
            cheapest, cheapest_value = card, value
        if value > dearest_value:
            dearest, dearest_value = card, value
    if n == 0:
        if sol:  # a declarer leads low to stay under; a defender leads where the declarer must go over
            return dearest if mine else sol_lead(row, legal, dearest, consts)
        jokers = legal & JOKER_MASK
        if jokers != 0 and (consts[JOKER_LOSES] == 0 or row[TRUMP] < 0):
            return random_card(jokers)  # a led joker takes the trick
        rest = legal & ~JOKER_MASK
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            if master(row, card, consts) and (card // 13 != row[TRUMP] or mine):
                return card
        plain = legal & ~JOKER_MASK
        return cheapest if np.random.random() < 0.5 else random_card(plain if plain != 0 else legal)
    leader = int(row[LEADER])
    winning = (leader + winning_index(row, n, consts)) % 4
    # the cards that would take the trick as it stands, the cheapest first
    taking = -1
    taking_value = 1 << 30
    ducking = -1
    ducking_value = -1
    rest = legal
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        row[TRICK + n] = card  # tried in the trick's next place, which the card played overwrites
        value = keep_value(row, card, consts)
        if winning_index(row, n + 1, consts) == n:
            if value < taking_value:
                taking, taking_value = card, value
        elif sol:  # the highest card that stays under; a joker (never taking a trick it follows) last
            duck = -1 if 52 <= card < 55 else 20 - value
            if duck > ducking_value or ducking < 0:
                ducking, ducking_value = card, duck
    if sol:
        declarers = int(row[DECLARERS])
        if mine:  # duck with the highest card that does not take the trick
            return ducking if ducking >= 0 else cheapest
        if (declarers >> winning) & 1:  # leave the trick to the declarer
            return ducking if ducking >= 0 else cheapest
        for i in range(n):
            if (declarers >> ((leader + i) % 4)) & 1:
                return cheapest  # the declarer has ducked this one: away with a high card
        return under_declarer(row, legal, n, cheapest, consts)
    if on_declarer_side(row, winning) == mine:
        return cheapest
    if taking >= 0:
        return taking
    return cheapest


@jit
def under_declarer(row: Rows, legal: int, n: int, cheapest: int, consts: Rows) -> int:
    """A defender before the sol declarer in the trick: the highest card that keeps the trick below the
    declarer's lowest card of the led suit, so that he must go over; where he can duck anyway, a high
    card away (``cheapest``)."""
    fd = int(row[FD_SUIT])
    led = card_suit(int(row[TRICK]), fd)
    if led == JOKER_SUIT:
        return cheapest
    seat = int(row[TO_PLAY])
    declarers = int(row[DECLARERS])
    target = 1 << 30  # the lowest led-suit card of a declarer still to play
    for offset in range(1, 4 - n):
        other = (seat + offset) % 4
        if (declarers >> other) & 1:
            theirs = int(row[HANDS + other]) & suit_mask(led, fd)
            if theirs == 0:
                return cheapest  # he is void: he discards whatever he likes
            while theirs:
                card = lowest_card(theirs)
                theirs &= theirs - 1
                target = min(target, card_strength(card, 1, consts))
    highest = 0
    for i in range(n):
        card = int(row[TRICK + i])
        if card_suit(card, fd) == led:
            highest = max(highest, card_strength(card, 1, consts))
    if highest > target:
        return cheapest  # already above him: he ducks under it
    best = -1
    best_strength = -1
    rest = legal & suit_mask(led, fd)
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        strength = card_strength(card, 1, consts)
        if best_strength < strength < target:
            best, best_strength = card, strength
    return best if best >= 0 else cheapest


@jit
def sol_lead(row: Rows, legal: int, lowest: int, consts: Rows) -> int:
    """A defender's lead against sol: his lowest card of the suit where a declarer's lowest card stands
    highest above it, never a suit the declarers are all void in (that gives them a free discard)."""
    declarers = int(row[DECLARERS])
    best = -1
    best_gap = -(1 << 30)
    for suit in range(4):
        mine = legal & int(SUIT_MASKS[suit])
        if mine == 0:
            continue
        low = -1
        low_strength = 1 << 30
        rest = mine
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            strength = card_strength(card, 1, consts)
            if strength < low_strength:
                low, low_strength = card, strength
        for seat in range(4):
            if (declarers >> seat) & 1:
                theirs = int(row[HANDS + seat]) & int(SUIT_MASKS[suit])
                if theirs == 0:
                    continue
                their_low = 1 << 30
                while theirs:
                    card = lowest_card(theirs)
                    theirs &= theirs - 1
                    their_low = min(their_low, card_strength(card, 1, consts))
                if their_low - low_strength > best_gap:
                    best, best_gap = low, their_low - low_strength
    return best if best >= 0 else lowest


@jit
def playout(row: Rows, consts: Rows) -> None:
    """Play ``row`` to the end of play with the playout policy (in place)."""
    while not play_over(row, consts):
        seat = int(row[TO_PLAY])
        legal = legal_mask(row, seat, consts)
        play_card(row, lowest_card(legal) if legal & (legal - 1) == 0 else choose(row, legal, consts), consts)


@jit
def playout_rows(rows: Rows, consts: Rows, seed: int) -> Rows:
    """Every row played to the end; the tricks each seat won, one line per row."""
    np.random.seed(seed)
    won = np.empty((rows.shape[0], 4), dtype=np.int64)
    for r in range(rows.shape[0]):
        row = rows[r].copy()
        playout(row, consts)
        for seat in range(4):
            won[r, seat] = row[WON + seat]
    return won


@jit
def evaluate_cards(rows: Rows, candidates: Rows, consts: Rows, seed: int) -> Rows:
    """For each sampled deal and each candidate card of the seat to play: the tricks won after playing it."""
    np.random.seed(seed)
    won = np.empty((rows.shape[0], candidates.shape[0], 4), dtype=np.int64)
    for r in range(rows.shape[0]):
        for c in range(candidates.shape[0]):
            row = rows[r].copy()
            play_card(row, int(candidates[c]), consts)
            playout(row, consts)
            for seat in range(4):
                won[r, c, seat] = row[WON + seat]
    return won


@jit
def sample_rows(base: Rows, pool: Rows, allowed: Rows, capacity: Rows, samples: int, seed: int) -> Rows:
    """``samples`` deals: the pool's cards dealt to the holders (seats 0-3, 4 for out of play) at random,
    each card to a holder in its ``allowed`` mask with room left, the most constrained cards first.

    A deal that cannot be completed within the constraints is tried again; after 20 tries the
    constraints other than room are dropped for that deal.
    """
    np.random.seed(seed)
    n = pool.shape[0]
    rows = np.empty((samples, base.shape[0]), dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    choices = np.empty(5, dtype=np.int64)
    for s in range(samples):
        row = base.copy()
        for attempt in range(21):
            row[:] = base
            room = capacity.copy()
            for i in range(n):
                order[i] = i
            for i in range(n - 1, 0, -1):  # shuffle, then the most constrained first (a stable sort)
                j = np.random.randint(i + 1)
                order[i], order[j] = order[j], order[i]
            for i in range(1, n):
                k = order[i]
                width = bit_count(int(allowed[k]))
                j = i - 1
                while j >= 0 and bit_count(int(allowed[order[j]])) > width:
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = k
            ok = True
            for i in range(n):
                k = order[i]
                mask = int(allowed[k]) if attempt < 20 else 31
                total = 0
                m = 0
                for holder in range(5):
                    if (mask >> holder) & 1 and room[holder] > 0:
                        choices[m] = holder
                        m += 1
                        total += room[holder]
                if m == 0:
                    ok = False
                    break
                pick = np.random.randint(total)
                holder = choices[0]
                for c in range(m):
                    if pick < room[choices[c]]:
                        holder = choices[c]
                        break
                    pick -= room[choices[c]]
                room[holder] -= 1
                if holder < 4:
                    row[HANDS + holder] |= 1 << int(pool[k])
            if ok:
                break
        if row[PARTNER] == -2:
            row[PARTNER] = -1
            called = int(row[CALLED])
            for seat in range(4):
                if seat != row[DECLARER] and (row[HANDS + seat] >> called) & 1:
                    row[PARTNER] = seat
        rows[s] = row
    return rows


@jit
def bit_count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


# --- from the compiled rules and the engine ----------------------------------------------------------


BITS = tuple(1 << card for card in range(56))


def mask_of(cards: Sequence[int]) -> int:
    """The mask of distinct cards (a sum of their bits)."""
    return sum(map(BITS.__getitem__, cards))


def cards_of(mask: int) -> list[int]:
    return [card for card in range(56) if (mask >> card) & 1]


@dataclass(frozen=True)
class KernelRules:
    """The play rules of a compiled ruleset as the kernel's constants."""

    constants: Rows
    exact: bool
    """False where a plugin, not a shipped rule, decides a play hook: the kernel's copy of the shipped
    rules would be wrong, so playouts use the engine's functions (``engine_playout``)."""
    exempt_declarer: bool
    """The partner card's rules do not bind a selvmakker declarer."""
    sol_limits: dict[str, int]
    by_plugin: bool = False
    """Whether a plugin is why the kernel is not exact (the expert says so once)."""

    @classmethod
    def build(cls, rules: Rules) -> KernelRules:
        """The kernel's constants of a compiled ruleset."""
        hook = rules.plugin_manager.hook
        exact = not any(
            impl.plugin_name not in SHIPPED_PLUGINS
            for name in PLAY_HOOKS
            for impl in getattr(hook, name).get_hookimpls()
        )
        ruleset = rules.ruleset
        jokers = ruleset.jokers
        consts = np.zeros(CONSTANTS, dtype=np.int64)
        consts[ANY_TIME] = jokers is not None and jokers.play_any_time
        consts[LEAD_FIRST] = jokers is not None and jokers.lead_first_trick
        consts[HOLDER_LEADS] = ruleset.called_card.holder_leads_it
        consts[MUST_FALL] = ruleset.called_card.must_fall_first_time_led
        consts[FIRST_FREE] = ruleset.called_card.free_first_trick
        consts[JOKER_LOSES] = jokers is not None and jokers.led_joker == "loses_to_trump"
        consts[SOL_EARLY] = ruleset.play.sol_ends == "when_all_declarers_lost"
        consts[TRUMP_STRENGTH : TRUMP_STRENGTH + 13] = strengths(ruleset.card_order.trump_games)
        consts[SOL_STRENGTH : SOL_STRENGTH + 13] = strengths(ruleset.card_order.sol_games)
        consts.setflags(write=False)
        # The kernel knows one kind of named bid: one against three within a most of tricks, in the sol
        # order, forhånd leading. Any other (dansk whist's, engelsk whist's) is played out by the engine.
        by_plugin = not exact
        exact = exact and all(one_against_three(s) for s in ruleset.named_bids())
        limits = {s.id: s.max_tricks for s in ruleset.sol_bids if s.max_tricks is not None}
        return cls(consts, exact, not ruleset.called_card.applies_to_selvmakker, limits, by_plugin)


@dataclass(frozen=True)
class PlayFacts:
    """What the play rules need to know of a contract, besides the cards."""

    bid: Bid
    declarers: tuple[int, ...]
    trump: str | None
    called: int | None
    fordaekt_suit: int | None
    """The suit the fordækt card counts in, when one has been laid."""
    sol_order: bool
    """Whether the cards rank in the sol games' order (the declaration hook says; dansk whist's grand does not)."""


def sol_order(rules: Rules, bid: Bid, declarers: Sequence[int]) -> bool:
    """Whether a contract's cards rank in the sol order, as its declaration says."""
    order = rules.declaration(ContractInfo(bid, tuple(declarers))).sol_order
    return bid.is_sol if order is None else order


def base_values(kernel: KernelRules, facts: PlayFacts, partner: int) -> list[int]:
    """A row as a list (filled faster than an array), with the contract and no cards anywhere
    (``partner`` -2: the partner card's holder)."""
    row = [0] * ROW
    sol = facts.sol_order
    row[TRUMP] = -1 if facts.trump in (None, "none") else SUIT_LETTERS.index(facts.trump)
    row[SOL] = int(sol)
    row[CALLED] = -1 if facts.called is None or sol else facts.called
    declarer = facts.declarers[0] if facts.declarers else -1
    row[EXEMPT] = declarer if kernel.exempt_declarer else -1
    row[DECLARERS] = mask_of(facts.declarers)
    row[DECLARER] = declarer
    row[PARTNER] = -1 if facts.bid.is_sol else partner
    row[SOL_LIMIT] = kernel.sol_limits.get(facts.bid.sol or "", 13)
    row[FD_SUIT] = -1 if facts.fordaekt_suit is None else facts.fordaekt_suit
    return row


def base_row(kernel: KernelRules, facts: PlayFacts, partner: int) -> Rows:
    """``base_values`` as the kernel's array."""
    return np.array(base_values(kernel, facts, partner), dtype=np.int64)


def game_facts(game: Game) -> PlayFacts:
    """The contract of a ``Game`` at or after the first lead."""
    assert game.bid is not None, "a game in play has a contract"
    fordaekt_suit = None
    if game.fordaekt is not None and game.called is not None:
        fordaekt_suit = suit_of(game.called)
    return PlayFacts(game.bid, tuple(game.declarers), game.trump, game.called, fordaekt_suit, game.sol_order)


def row_from_game(kernel: KernelRules, game: Game) -> Rows:
    """The kernel's row for a ``Game`` in its play phase (every card known: for playouts and tests)."""
    facts = game_facts(game)
    row = base_values(kernel, facts, -1 if game.partner is None else game.partner)
    hands = game.hands
    seen = [c for trick in game.tricks for c in trick.cards] + [c for _, c in game.trick]
    trick = [c for _, c in game.trick]
    if game.fordaekt is not None:  # the fordækt card is card 55 in the kernel
        hands = [[FORDAEKT if c == game.fordaekt else c for c in hand] for hand in hands]
        seen = [FORDAEKT if c == game.fordaekt else c for c in seen]
        trick = [FORDAEKT if c == game.fordaekt else c for c in trick]
    for seat in range(4):
        row[HANDS + seat] = mask_of(hands[seat])
        row[WON + seat] = game.tricks_won[seat]
    row[SEEN] = mask_of(seen)
    row[CALLED_PLAYED] = int(game.called_played)
    row[SUIT_LED] = int(game.called_suit_led)
    row[TRICKS] = len(game.tricks)
    row[LEADER] = game.trick[0][0] if game.trick else game.leader
    row[TO_PLAY] = game.to_act if game.to_act is not None else game.leader
    row[TRICK_N] = len(trick)
    row[TRICK : TRICK + len(trick)] = trick
    return np.array(row, dtype=np.int64)


def first_lead_rows(rules: Rules, kernel: KernelRules, count: int, rng: random.Random) -> Rows:
    """The rows of ``count`` random deals (random calls and choices) at their first lead."""
    rows: list[Rows] = []
    while len(rows) < count:
        game = Game.from_seed(rules, rng.randrange(2**32), rng.randrange(4))
        while game.step is not None and game.phase != PLAY:
            game.apply(rng.choice(game.legal))
        if game.phase == PLAY:
            rows.append(row_from_game(kernel, game))
    return np.array(rows)


def engine_playout(rules: Rules, facts: PlayFacts, row: Rows, rng: random.Random, first: int | None = None) -> Rows:
    """Play a row to the end with the engine's own play functions and random legal cards.

    For rulesets whose play hooks a plugin replaces: the kernel's copy of the shipped rules would
    be wrong there, the engine's functions cannot be.
    """
    row = row.copy()
    hands = [cards_of(int(row[HANDS + s])) for s in range(4)]
    trick = [int(row[TRICK + i]) for i in range(int(row[TRICK_N]))]
    trump = None if row[TRUMP] < 0 else int(row[TRUMP])
    sol = bool(row[SOL])
    fordaekt = None if row[FD_SUIT] < 0 else (FORDAEKT, int(row[FD_SUIT]))
    partner = int(row[PARTNER])
    info = ContractInfo(facts.bid, facts.declarers, None if partner < 0 else partner)
    won = [int(row[WON + s]) for s in range(4)]
    played = int(row[TRICKS])
    leader = int(row[LEADER])
    seat = int(row[TO_PLAY])
    called_played = bool(row[CALLED_PLAYED])
    suit_led = bool(row[SUIT_LED])
    called = int(row[CALLED])
    fd = int(row[FD_SUIT])
    while not rules.play_over(info, won, played):
        exempt = not rules.called_card_binds(seat, info)
        context = TrickContext(
            trump, sol, played == 0, None if called < 0 or called_played or exempt else called, suit_led, fordaekt
        )
        if first is None:
            card = rng.choice(rules.legal_cards(hands[seat], trick, context))
        else:
            card, first = first, None
        hands[seat].remove(card)
        trick.append(card)
        called_played = called_played or card == called
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        winner = (leader + rules.trick_winner(trick, trump, sol, fordaekt)) % 4
        if called >= 0 and card_suit(trick[0], fd) == card_suit(called, fd):
            suit_led = True
        won[winner] += 1
        played += 1
        leader = seat = winner
        trick = []
    return np.array(won, dtype=np.int64)
