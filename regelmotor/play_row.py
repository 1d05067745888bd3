"""The play phase as one row of integers: what the expert's playouts and the double-dummy solver both play on.

A deal's play is kept as one row per deal (hands as 56-bit masks) and played by functions that numba
compiles (plain Python under ``NUMBA_DISABLE_JIT=1``). The play rules are not copied here: legal cards,
the trick winner and the end of play are ``rules.cardplay``'s functions, the same ones ``Game`` plays
with through the shipped hooks, and the constants are the compiled ``rules.play.constants``. The row is
built from a ``Game`` (``row_from_game``) or from a contract's facts (``base_row``); where a club's
plugin decides a play-relevant hook, ``PlayPhase.exact`` is False and a caller must play through the
compiled hooks instead.

The fordækt card (000 6.1.1) is card 55 here, whoever looks: a card that counts as the lowest of
the partner card's suit and as nothing else; its real face plays no part in the play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import regelmotor.rules.called_card.cardplay as CC
from regelmotor.bids import Bid
from regelmotor.cards import SUIT_LETTERS, suit_of
from regelmotor.compiled import jit
from regelmotor.engine.state import PlayObservation, State
from regelmotor.hooks import ContractInfo, Moment
from regelmotor.rules.cardplay import masks as M
from regelmotor.rules.cardplay.constants import TRUMP_ENDING
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, sol_ends_early
from regelmotor.rules.cardplay.end_of_play import PARTNER as PARTNER_SIDE
from regelmotor.rules.cardplay.end_of_play import play_over as ends
from regelmotor.rules.cardplay.legal import legal_cards

# The card encoding the row is written in, for the row's readers (the bots, the search, the tests): the one
# set of names this module passes on from ``masks``.
from regelmotor.rules.cardplay.masks import FORDAEKT as FORDAEKT
from regelmotor.rules.cardplay.masks import JOKER_SUIT
from regelmotor.rules.cardplay.masks import Rows as Rows
from regelmotor.rules.cardplay.masks import cards_of as cards_of
from regelmotor.rules.cardplay.masks import lowest_card as lowest_card
from regelmotor.rules.cardplay.masks import mask_of as mask_of
from regelmotor.rules.cardplay.trick_winner import winning_index as trick_index
from regelmotor.rules.jokers.cardplay import led_beats_trump, played_any_time
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

# --- the row: one deal's play phase --------------------------------------------------------------
TRUMP = 0  # trump suit 0-3, or -1
SOL = 1  # 1 where the cards rank in the sol order
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
SOL_LIMIT = 16  # the most tricks a named bid allows the declarer's side, or -1
TRICK_N = 17
TRICK = 18  # 18-21: the current trick's cards in play order
HANDS = 22  # 22-25: each seat's hand as a mask
SEEN = 26  # every card played so far (a mask)
FD_SUIT = 27  # the suit the fordækt card counts in, or -1
SIDE = 28  # the contract's kind for the end of play: -1 a trump game, else the named bid's side
FIRST_TRICKS = 29  # a named bid of the first tricks: how many, or -1
FIXED_SIDE = 30  # seats known to play on the declaring side from the start (fixed partners), as a mask
OPEN_SEATS = 31  # the seats whose hands the rules lay open (a mask), once OPEN_AFTER cards are played
OPEN_AFTER = 32  # how many cards of the deal are played when those hands open (1: the first lead, 4: the first trick)
VOIDS = 33  # the suits each seat has shown void in, for all to see: bit 4 * seat + suit
PARTNER_KNOWN = 34  # 1 where the table knows who the partner is (announced, or the partner card played)
ROW = 35


@jit
def fd_card(row: Rows) -> int:
    return FORDAEKT if row[FD_SUIT] >= 0 else -1


@jit
def card_suit(card: int, fd_suit: int) -> int:
    """The suit a card counts in, the fordækt card being card 55."""
    return M.card_suit(card, FORDAEKT if fd_suit >= 0 else -1, fd_suit)


@jit
def card_strength(card: int, sol: int, consts: Rows) -> int:
    return M.card_strength(card, sol, FORDAEKT, consts)


@jit
def weakest_of(cards: int, sol: int, consts: Rows) -> int:
    """The card of ``cards`` weakest in the contract's order (``sol``: the sol games'), -1 for none."""
    weakest = -1
    weakest_strength = 1 << 30
    while cards:
        card = M.lowest_card(cards)
        cards &= cards - 1
        strength = card_strength(card, sol, consts)
        if strength < weakest_strength:
            weakest, weakest_strength = card, strength
    return weakest


@jit
def strongest_of(cards: int, sol: int, consts: Rows) -> int:
    """The card of ``cards`` strongest in the contract's order, -1 for none (of equals, the lowest card): the
    one helper the search and the playouts ask, where each wrote the loop by hand."""
    strongest = -1
    strongest_strength = -1
    while cards:
        card = M.lowest_card(cards)
        cards &= cards - 1
        strength = card_strength(card, sol, consts)
        if strength > strongest_strength:
            strongest, strongest_strength = card, strength
    return strongest


@jit
def stronger_than(cards: int, strength: int, sol: int, consts: Rows) -> int:
    """The cards of ``cards`` stronger than ``strength`` in the contract's order (a mask)."""
    above = 0
    while cards:
        card = M.lowest_card(cards)
        cards &= cards - 1
        if card_strength(card, sol, consts) > strength:
            above |= 1 << card
    return above


@jit
def strength_of_strongest(cards: int, sol: int, consts: Rows) -> int:
    """The strength of the strongest of ``cards``, -1 for none."""
    strongest = strongest_of(cards, sol, consts)
    return -1 if strongest < 0 else card_strength(strongest, sol, consts)


@jit
def leads_called_suit(led: int, called: int, fd_suit: int) -> bool:
    """``called_card.leads_its_suit`` on the row's cards (the fordækt card being card 55)."""
    return CC.leads_its_suit(led, called, FORDAEKT if fd_suit >= 0 else -1, fd_suit)


def barred_from_called(
    shown: Sequence[tuple[int, Sequence[int]]], called: int, fd_suit: int, trump: int, consts: Rows
) -> int:
    """The seats (a mask) that cannot hold the partner card ``called`` after the tricks ``shown`` (leader,
    cards; the trick under way last): each seat whose play there the partner card's rules would have refused
    to its holder (``called_card``'s own ``binds``, ``not_led`` and ``must_fall``, as ``legal_cards`` asks
    them): a follower to a trick of its suit where it must fall, a leader of another card of its suit where
    the holder must lead the card itself (``trump`` -1: none). A seat those rules do not bind (a selvmakker) is the
    caller's."""
    fd_card = FORDAEKT if fd_suit >= 0 else -1
    holding = 1 << called
    barred = 0
    suit_led = False
    for number, (leader, cards) in enumerate(shown):
        led = int(cards[0])
        if CC.binds(holding, called, suit_led, number == 0, consts):
            if CC.not_led(1 << led, called, fd_card, fd_suit, trump, consts)[0] != 0:
                barred |= 1 << leader
            if CC.must_fall(called, card_suit(led, fd_suit), fd_card, fd_suit, consts):
                for place in range(1, len(cards)):
                    barred |= 1 << ((leader + place) % 4)
        suit_led = suit_led or leads_called_suit(led, called, fd_suit)
    return barred


@jit
def suit_mask(suit: int, fd_suit: int) -> int:
    return M.suit_mask(suit, FORDAEKT if fd_suit >= 0 else -1, fd_suit)


@jit
def legal_mask(row: Rows, seat: int, consts: Rows) -> int:
    """The cards ``seat`` may play now, as a mask (``cardplay.legal``)."""
    called = int(row[CALLED])
    if row[SOL] != 0 or row[CALLED_PLAYED] != 0 or seat == row[EXEMPT]:
        called = -1
    first = row[TRICKS] == 0
    legal, _, _ = legal_cards(
        int(row[HANDS + seat]),
        int(row[TRICK_N]),
        int(row[TRICK]),
        first,
        called,
        row[SUIT_LED] != 0,
        fd_card(row),
        int(row[FD_SUIT]),
        int(row[TRUMP]),
        consts,
    )
    return legal


@jit
def winning_index(row: Rows, count: int, consts: Rows) -> int:
    """The index of the card that wins (or is winning) the row's trick of ``count`` cards."""
    return trick_index(
        int(row[TRICK]),
        int(row[TRICK + 1]),
        int(row[TRICK + 2]),
        int(row[TRICK + 3]),
        count,
        int(row[TRUMP]),
        int(row[SOL]),
        fd_card(row),
        int(row[FD_SUIT]),
        int(not led_beats_trump(consts)),
        consts,
    )


@jit
def play_over(row: Rows, consts: Rows) -> bool:
    """Whether play has ended (``cardplay.end_of_play``)."""
    return ends(
        int(row[TRICKS]),
        int(row[WON]),
        int(row[WON + 1]),
        int(row[WON + 2]),
        int(row[WON + 3]),
        int(row[DECLARERS]),
        int(row[SIDE]),
        int(row[SOL_LIMIT]),
        int(row[FIRST_TRICKS]),
        int(sol_ends_early(consts)),
    )


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
    if n > 0:
        row[VOIDS] |= shown_void(int(row[TRICK]), card, seat, int(row[FD_SUIT]), consts)
    if card == row[CALLED]:
        row[CALLED_PLAYED] = 1
    if n < 3:
        row[TO_PLAY] = (seat + 1) % 4
        return -1
    leader = int(row[LEADER])
    winner = (leader + winning_index(row, 4, consts)) % 4
    if row[SUIT_LED] == 0 and leads_called_suit(int(row[TRICK]), int(row[CALLED]), int(row[FD_SUIT])):
        row[SUIT_LED] = 1
    row[WON + winner] += 1
    row[TRICKS] += 1
    row[LEADER] = winner
    row[TO_PLAY] = winner
    row[TRICK_N] = 0
    return winner


@jit
def shown_void(led_card: int, card: int, seat: int, fd_suit: int, consts: Rows) -> int:
    """The void bit ``card`` shows when ``seat`` plays it to a trick led with ``led_card`` (0 for none):
    a card of another suit than the led one, but a joker where jokers may be played at any time."""
    led = card_suit(led_card, fd_suit)
    suit = card_suit(card, fd_suit)
    if led == JOKER_SUIT or suit == led or (suit == JOKER_SUIT and played_any_time(consts)):
        return 0
    return 1 << (4 * seat + led)


@jit
def side_mask(row: Rows) -> int:
    """The declaring side as the row holds it, every hand known: the declarers, fixed partners and the
    partner card's holder (the double-dummy search's side; a playout seat knows only ``known_side``)."""
    mask = int(row[DECLARERS]) | int(row[FIXED_SIDE])
    if row[PARTNER] >= 0:
        mask |= 1 << int(row[PARTNER])
    return mask


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
    open_seats: int = 0
    """The seats whose hands the rules lay open during play, as a mask (``open_at``)."""
    open_after: int = -1
    """How many cards are played when they open."""


OPEN_MOMENTS: tuple[tuple[Moment, int], ...] = (
    ("before_first_lead", 0),
    ("after_first_lead", 1),
    ("after_first_trick", 4),
)
"""Each moment the open-hands hook may name, and how many cards of the deal are played by then."""


def open_at(rules: Rules, bid: Bid, declarers: Sequence[int]) -> tuple[int, int]:
    """The seats the open-hands hook lays open in this contract (a mask), and after how many cards; asked
    once per contract and kept with the rules (the bidding's playouts ask it for every sampled deal)."""
    known: dict[tuple[Bid, tuple[int, ...]], tuple[int, int]] = rules.kept("open at", lambda _: {})
    key = (bid, tuple(declarers))
    found = known.get(key)
    if found is None:
        found = (0, -1)
        contract = ContractInfo(bid, key[1])
        for moment, after in OPEN_MOMENTS:
            seats = rules.play.open_hands(contract, moment)
            if seats:
                found = (mask_of(seats), after)
                break
        known[key] = found
    return found


def sol_order(rules: Rules, bid: Bid, declarers: Sequence[int]) -> bool:
    """Whether a contract's cards rank in the sol order, as its declaration says."""
    order = rules.declaration.plan(ContractInfo(bid, tuple(declarers))).sol_order
    return bid.is_sol if order is None else order


def base_values(kernel: PlayPhase, facts: PlayFacts, partner: int) -> list[int]:
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
    end = TRUMP_ENDING if facts.bid.sol is None else kernel.endings[facts.bid.sol]
    row[SOL_LIMIT] = end.max_tricks
    row[SIDE] = end.side
    row[FIRST_TRICKS] = end.first_tricks
    if end.side == PARTNER_SIDE and declarer >= 0:
        row[FIXED_SIDE] = 1 << ((declarer + 2) % 4)
    elif end.side == PAIRS:
        row[FIXED_SIDE] = 0b0101
    elif end.side == EACH:
        row[FIXED_SIDE] = 0b1111
    row[FD_SUIT] = -1 if facts.fordaekt_suit is None else facts.fordaekt_suit
    row[OPEN_SEATS] = facts.open_seats
    row[OPEN_AFTER] = facts.open_after
    return row


def base_row(kernel: PlayPhase, facts: PlayFacts, partner: int) -> Rows:
    """``base_values`` as the kernel's array."""
    return np.array(base_values(kernel, facts, partner), dtype=np.int64)


def game_facts(game: State) -> PlayFacts:
    """The contract of a ``Game`` at or after the first lead."""
    assert game.bid is not None, "a game in play has a contract"
    fordaekt_suit = None
    if game.fordaekt is not None and game.called is not None:
        fordaekt_suit = suit_of(game.called)
    open_seats, open_after = open_at(game.rules, game.bid, game.declarers)
    return PlayFacts(
        game.bid,
        tuple(game.declarers),
        game.trump,
        game.called,
        fordaekt_suit,
        game.sol_order,
        open_seats,
        open_after,
    )


def voids_shown(tricks: Sequence[tuple[int, Sequence[int]]], fd_suit: int, consts: Rows) -> int:
    """The public voids (``VOIDS``) the tricks show, each given as (leader, its cards in kernel codes)."""
    voids = 0
    for leader, cards in tricks:
        for i in range(1, len(cards)):
            voids |= int(shown_void(int(cards[0]), int(cards[i]), (leader + i) % 4, fd_suit, consts))
    return voids


def observed_row(
    kernel: PlayPhase,
    facts: PlayFacts,
    partner: int,
    hands: Sequence[Sequence[int]],
    play: PlayObservation,
    to_play: int,
    partner_known: bool,
) -> list[int]:
    """The row of a moment in play: the contract, the hands as far as they are known (kernel codes, the
    fordækt card as ``FORDAEKT``) and the table's observation of the play.

    The one builder behind a seat's knowledge (``bots.knowledge``) and the full-information row below.
    """
    row = base_values(kernel, facts, partner)
    partner_card = row[CALLED] >= 0
    for seat in range(4):
        row[HANDS + seat] = mask_of(hands[seat])
        row[WON + seat] = play.tricks_won[seat]
    row[SEEN] = mask_of(play.played)
    row[CALLED_PLAYED] = int(partner_card and play.called_played)
    row[SUIT_LED] = int(partner_card and play.called_suit_led)
    row[TRICKS] = len(play.tricks)
    row[LEADER] = play.leader
    row[TO_PLAY] = to_play
    row[TRICK_N] = len(play.trick)
    for i, (_, card) in enumerate(play.trick):
        row[TRICK + i] = card
    row[PARTNER_KNOWN] = int(partner_known)
    row[VOIDS] = voids_shown(play.shown, row[FD_SUIT], kernel.constants)
    return row


def row_from_game(kernel: PlayPhase, game: State, facts: PlayFacts | None = None) -> Rows:
    """The kernel's row for a ``Game`` in its play phase (every card known: for playouts and tests);
    ``facts``: its ``game_facts``, where the caller has them."""
    facts = game_facts(game) if facts is None else facts
    fordaekt = game.fordaekt
    hands = [[FORDAEKT if c == fordaekt else c for c in hand] for hand in game.hands]
    to_play = game.to_act if game.to_act is not None else game.leader
    partner = -1 if game.partner is None else game.partner
    row = observed_row(kernel, facts, partner, hands, game.play_observation(), to_play, game.partner_public)
    return np.array(row, dtype=np.int64)
