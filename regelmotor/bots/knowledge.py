"""What one seat knows of the hidden cards, read from its view alone, and deals sampled to match.

Two moments need it. Before play (auction, declaration, exchange, doubling) the bot deals the
cards it cannot see at random around its own hand, the turned kitty cards and the kitty cards it
took, builds a ``Game`` of that deal and replays the table's history on it (another seat's
discards, which it never saw, chosen as that seat plausibly would); a deal the history cannot be
replayed on is dropped. In play it builds the kernel's row and hands the sampler the constraints:
cards played, suits a seat has shown void in, open hands, the revealed partner holding the partner
card, turned kitty cards lying with the declarers or out of play, and the partner card out of the
hands once its suit was led without it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from regelmotor import play_row
from regelmotor.bots import call_reading as R
from regelmotor.cards import new_deck, suit_of
from regelmotor.engine.actions import KEEP_ACTION, Action, Verb, discard, fordaekt
from regelmotor.engine.game import HAND, SEATS, Game, View
from regelmotor.errors import RegelmotorError
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

OUT = 4
"""The sampler's holder for cards out of play: the kitty, others' discards, the fordækt card's face."""
REAL_CARDS = (1 << 55) - 1
"""Every card but the kernel's fordækt card (55), as a mask."""

Chooser = Callable[[Game, int, int], Action]
"""Picks a hidden action for a seat in a sampled deal: (game, seat, number of cards) -> action."""


@dataclass(frozen=True)
class PlayKnowledge:
    """A seat's knowledge in play, as the kernel's sampler takes it."""

    facts: play_row.PlayFacts
    base: play_row.Rows
    pool: play_row.Rows
    allowed: play_row.Rows
    capacity: play_row.Rows
    candidates: tuple[int, ...]
    """The legal cards of the seat, as kernel cards, in the order of the legal actions."""
    played_by: tuple[int, ...] = (0, 0, 0, 0)
    """The cards each seat has played so far, as masks: with its hand now, the hand its calls were made on."""


def play_knowledge(view: View, legal: Sequence[Action], rules: Rules, kernel: PlayPhase) -> PlayKnowledge:
    """The kernel row of what ``view.seat`` knows, and what the sampler must respect for the rest."""
    me = view.seat
    bid = view.contract
    assert bid is not None
    called = None if view.called is None or bid.is_sol else view.called
    fd_suit = suit_of(called) if view.fordaekt_laid and called is not None else None
    open_seats, open_after = play_row.open_at(rules, bid, view.declarers)
    facts = play_row.PlayFacts(
        bid,
        tuple(view.declarers),
        view.trump,
        called,
        fd_suit,
        play_row.sol_order(rules, bid, view.declarers),
        open_seats,
        open_after,
    )
    own_fd = view.fordaekt
    play = view.play
    hand = [play_row.FORDAEKT if c == own_fd else c for c in view.hand]
    played = play.played
    known: list[list[int]] = [[] for _ in range(SEATS)]
    known[me] = hand
    for seat, cards in view.open_hands:
        if seat != me:
            known[seat] = list(cards)
    if view.trump_card is not None and view.dealer != me:  # turned for all to see (engelsk whist)
        face_up = view.trump_card
        if face_up not in played and face_up not in known[view.dealer]:
            known[view.dealer].append(face_up)
    if called is None:
        partner = -1
    elif view.partner is not None:
        partner = view.partner
    elif called in hand or called in played:
        partner = -1 if called in played or me in view.declarers[:1] else me
    else:
        partner = -2  # whoever holds the partner card in each sampled deal
    if partner >= 0 and called is not None and called not in played and called not in known[partner]:
        known[partner].append(called)
    face_down_out = fd_suit is not None and play_row.FORDAEKT not in played and play_row.FORDAEKT not in hand
    if face_down_out and play_row.FORDAEKT not in known[view.declarers[0]]:
        known[view.declarers[0]].append(play_row.FORDAEKT)
    row = np.array(
        play_row.observed_row(kernel, facts, partner, known, play, me, view.partner is not None), dtype=np.int64
    )
    # the cards nobody has shown this seat
    real = new_deck(rules.dealing.jokers)
    seen_real = {c for c in played if c != play_row.FORDAEKT} | {c for cards in known for c in cards}
    seen_real |= set(view.discarded)
    if own_fd is not None:
        seen_real.add(own_fd)
    pool = [c for c in real if c not in seen_real]
    shown = play.shown
    fd = -1 if fd_suit is None else fd_suit
    public_voids = int(row[play_row.VOIDS])
    voids = [(public_voids >> (4 * seat)) & 0b1111 for seat in range(SEATS)]
    capacity = [0] * 5
    for seat in range(SEATS):
        if seat != me:
            capacity[seat] = view.hand_sizes[seat] - len(known[seat])
    capacity[OUT] = len(pool) - sum(capacity[:SEATS])
    if capacity[OUT] < 0 or min(capacity) < 0:
        raise RegelmotorError(f"seat {me}'s view does not add up: {capacity} for {len(pool)} unseen cards")
    turned = set(view.turned)
    declarer_bits = play_row.mask_of(view.declarers)
    barred = (
        0
        if called is None
        else play_row.barred_from_called(shown, called, fd, int(row[play_row.TRUMP]), kernel.constants)
    )
    if row[play_row.EXEMPT] >= 0:  # the partner card's rules do not bind a selvmakker declarer
        barred &= ~(1 << int(row[play_row.EXEMPT]))
    allowed = []
    for card in pool:
        mask = 1 << OUT
        for seat in range(SEATS):
            if seat != me and capacity[seat] > 0 and not (card < 52 and (voids[seat] >> (card // 13)) & 1):
                mask |= 1 << seat
        if card in turned:
            mask &= declarer_bits | (1 << OUT)
        if card == called:  # not with a seat its rules made play it, where it did not fall
            mask &= ~barred
        allowed.append(mask)
    candidates = tuple(play_row.FORDAEKT if action.card == own_fd else (action.card or 0) for action in legal)
    played_by = [0] * SEATS
    for leader, trick_cards in shown:
        for i, code in enumerate(trick_cards):
            played_by[(leader + i) % SEATS] |= 1 << code
    return PlayKnowledge(
        facts,
        row,
        np.array(pool, dtype=np.int64),
        np.array(allowed, dtype=np.int64),
        np.array(capacity, dtype=np.int64),
        candidates,
        tuple(played_by),
    )


# --- before play: deals the history can be replayed on ----------------------------------------------


def _initial_hand(view: View) -> list[int]:
    hand = set(view.hand)
    hand -= set(view.received)
    hand |= set(view.discarded)
    return sorted(hand)


def _kitty_known(view: View) -> dict[int, int]:
    """Kitty position -> card, for the kitty cards this seat has seen turned or taken."""
    known = dict(enumerate(view.turned))
    if view.received:
        offset = 0  # the cards taken before this seat's turn came off the top of the kitty
        for seat, action in view.history:
            if action.verb is Verb.DISCARD:
                if seat == view.seat:
                    break
                offset += action.hidden or len(action.cards)
        for i, card in enumerate(view.received):
            known[offset + i] = card
    return known


@dataclass(frozen=True)
class CallReading:
    """How the sampler reads the other seats' calls (``call_reading``): deal ``oversample`` times as many
    deals as wanted, then draw the wanted ones in proportion to how likely each makes the calls heard."""

    measures: R.HandMeasures
    meanings: R.Meanings
    oversample: int

    def order(self, hands: Sequence[play_row.Rows], view: View, rules: Rules, rng: random.Random) -> list[int]:
        """The deals in the order they are to be tried, ``hands[seat]`` being each deal's hand of that seat
        when the cards were dealt (as masks)."""
        said = R.what_calls_say(view.history, rules)
        seats = [s for s in range(SEATS) if s != view.seat and not said[s].empty]
        deals = len(hands[0])
        if not seats:
            return list(range(deals))
        w = R.weights([hands[s] for s in seats], [said[s] for s in seats], self.measures, self.meanings)
        return R.weighted_order(w, np.random.default_rng(rng.getrandbits(64)).random(deals))


def read_rows(
    rows: play_row.Rows,
    know: PlayKnowledge,
    view: View,
    rules: Rules,
    reading: CallReading,
    count: int,
    rng: random.Random,
) -> play_row.Rows:
    """``count`` of the sampled play rows, drawn in proportion to how likely they make the calls heard
    (each seat's hand read as its cards now and those it has played; a declarer's exchange is not undone)."""
    if len(rows) <= count:
        return rows
    held = [rows[:, play_row.HANDS + s] | (know.played_by[s] & REAL_CARDS) for s in range(SEATS)]
    return rows[reading.order(held, view, rules, rng)[:count]]


def sample_worlds(
    view: View,
    rules: Rules,
    rng: random.Random,
    count: int,
    hidden: Chooser,
    tries: int = 4,
    reading: CallReading | None = None,
) -> list[Game]:
    """Up to ``count`` games whose public history is ``view``'s and where ``view.seat`` holds its hand,
    each at ``view.seat``'s turn; the hidden cards dealt at random (at most ``tries * count`` deals), or,
    with ``reading``, drawn from ``reading.oversample * count`` random deals as the calls heard say."""
    me = view.seat
    mine = _initial_hand(view)
    kitty_size = rules.dealing.kitty
    kitty_known = _kitty_known(view)
    if len(mine) != HAND or any(i >= kitty_size for i in kitty_known):
        return []
    taken = set(mine) | set(kitty_known.values())
    pool = [c for c in new_deck(rules.dealing.jokers) if c not in taken]
    hand_now = sorted(view.hand)
    dealt = max(tries, reading.oversample if reading else 0) * count
    shuffled = np.random.default_rng(rng.getrandbits(64)).permuted(np.tile(np.array(pool), (dealt, 1)), axis=1)
    places: list[tuple[int, int]] = []  # each seat's columns of a shuffled row (none for the seat itself)
    position = 0
    for seat in range(SEATS):
        places.append((position, position + (0 if seat == me else HAND)))
        position = places[-1][1]
    unknown_kitty = [i for i in range(kitty_size) if i not in kitty_known]
    if reading is None:
        order: Sequence[int] = range(dealt)
    else:
        masks = [np.bitwise_or.reduce(np.left_shift(1, shuffled[:, a:b]), axis=1) for a, b in places]
        order = reading.order(masks, view, rules, rng)
    worlds: list[Game] = []
    for tried, d in enumerate(order):
        if len(worlds) == count or tried == tries * count:
            break
        cards = shuffled[d].tolist()
        hands = [mine if seat == me else cards[a:b] for seat, (a, b) in enumerate(places)]
        kitty = [kitty_known.get(i, -1) for i in range(kitty_size)]
        for i, card in zip(unknown_kitty, cards[position:], strict=False):
            kitty[i] = card
        game = Game(rules, hands, kitty, view.dealer)
        if _replay(game, view, hidden) and sorted(game.hands[me]) == hand_now:
            worlds.append(game)
    return worlds


def _replay(game: Game, view: View, hidden: Chooser) -> bool:
    """Replay the view's history on ``game``; False when the deal cannot have led to it."""
    me = view.seat
    try:
        for seat, action in view.history:
            while game.step is not None and game.step[0] == "claim" and game.step[1] != seat:
                game.apply(KEEP_ACTION)  # a claim this deal offers and the real one did not: kept
            step = game.step
            if action == KEEP_ACTION and (step is None or step[1] != seat or step[0] not in ("claim", "exchange")):
                continue  # the real deal offered a claim this one does not
            if step is None or step[1] != seat:
                return False
            if action.hidden and action.verb is Verb.DISCARD:
                action = discard(list(view.discarded)) if seat == me else hidden(game, seat, action.hidden)
            elif action.hidden:
                if seat != me:
                    action = hidden(game, seat, 1)
                elif view.fordaekt is not None:
                    action = fordaekt(view.fordaekt)
                else:
                    return False
            game.apply(action, seat)
        while game.step is not None and game.step[0] == "claim" and game.step[1] != me:
            game.apply(KEEP_ACTION)
    except RegelmotorError:
        return False
    legal = game.legal
    return (
        game.step is not None
        and game.step[1] == me
        and len(legal) == len(view.legal_actions)
        and legal[0] == view.legal_actions[0]
    )
