"""The expert bot's playouts and sampled deals, on the play row (``regelmotor.play_row``).

A determinized deal is played out hundreds of times per decision, on the play row the double-dummy
solver searches too: the play rules are ``rules.cardplay``'s own functions, reached through the row's.
This module keeps only the playout policy and the sampling. Where a club's plugin decides a
play-relevant hook, ``rules.play.exact`` is False and the bot plays out with the compiled hooks
themselves (``engine_playout``): slower, but right. The row's own names are ``play_row``'s, read there.
"""

from __future__ import annotations

import random

import numpy as np

from regelmotor.compiled import jit, unowned
from regelmotor.engine.game import PLAY, Game
from regelmotor.hooks import ContractInfo, TrickContext
from regelmotor.play_row import (
    CALLED,
    CALLED_PLAYED,
    DECLARER,
    DECLARERS,
    FD_SUIT,
    FIXED_SIDE,
    HANDS,
    LEADER,
    OPEN_AFTER,
    OPEN_SEATS,
    PARTNER,
    PARTNER_KNOWN,
    SEEN,
    SOL,
    SUIT_LED,
    TO_PLAY,
    TRICK,
    TRICK_N,
    TRICKS,
    TRUMP,
    VOIDS,
    WON,
    PlayFacts,
    card_strength,
    card_suit,
    leads_called_suit,
    legal_mask,
    play_card,
    play_over,
    row_from_game,
    side_mask,
    suit_mask,
    weakest_of,
    winning_index,
)
from regelmotor.rules.cardplay.masks import (
    FORDAEKT,
    JOKER_MASK,
    JOKER_SUIT,
    SUIT_MASKS,
    Rows,
    bit_count,
    cards_of,
    lowest_card,
)
from regelmotor.rules.jokers.cardplay import led_beats_trump
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

EPSILON = 0.05
"""How often a playout plays a random legal card instead of its greedy choice (the playouts' spread); never
a sol declarer's, whose random card would take a trick no player would take, and lose the deal."""

# --- the playout policy ---------------------------------------------------------------------------
#
# A seat in a playout acts on what it would know at that moment in that sampled deal: its own hand,
# the cards played, the voids shown, the hands the rules have laid open and the partner once the
# table knows him. Another seat's hidden hand is never read (tests/test_kernel.py poisons them to check).


@jit
def visible(row: Rows, viewer: int, seat: int) -> bool:
    """Whether ``viewer`` sees ``seat``'s hand: his own, or one the rules have laid open by now."""
    if seat == viewer:
        return True
    played = int(row[TRICKS]) * 4 + int(row[TRICK_N])
    return bool((int(row[OPEN_SEATS]) >> seat) & 1 == 1) and played >= row[OPEN_AFTER]


@jit
def known_side(row: Rows, viewer: int) -> int:
    """The seats ``viewer`` knows to play on the declaring side: the declarers, fixed partners, and the
    partner once the table knows him (the partner knows himself)."""
    partner = int(row[PARTNER])
    if partner >= 0 and (row[PARTNER_KNOWN] != 0 or row[CALLED_PLAYED] != 0 or viewer == partner):
        return side_mask(row)
    return int(row[DECLARERS]) | int(row[FIXED_SIDE])


@jit
def known_void(row: Rows, seat: int, suit: int) -> bool:
    return bool((int(row[VOIDS]) >> (4 * seat + suit)) & 1 == 1)


@jit
def random_card(mask: int) -> int:
    pick = np.random.randint(bit_count(mask))
    while pick > 0:
        mask &= mask - 1
        pick -= 1
    return lowest_card(mask)


@jit
def keep_value(row: Rows, card: int, consts: Rows) -> int:
    """How much a hand wants to keep a card: high cards and trumps in trump games; in sol, a card the more
    cards still out rank above it (then the lower it is), and the jokers most of all."""
    if 52 <= card < 55:
        if row[SOL] != 0:  # the declarer's way under a trick he cannot duck, a defender's way to the lead
            return 1000
        return 40 if led_beats_trump(consts) or row[TRUMP] < 0 else 5
    strength = card_strength(card, int(row[SOL]), consts)
    if row[SOL] != 0:  # a card that none still out ranks above is a sure trick: the first to go
        return 32 * cards_out_around(row, card, consts)[1] + 20 - strength
    if card_suit(card, int(row[FD_SUIT])) == row[TRUMP]:
        return strength + 20
    return strength


@jit
def cards_out_around(row: Rows, card: int, consts: Rows) -> tuple[int, int]:
    """How many cards still out (not played, not in the hand of the seat to play) rank below ``card`` in
    its suit, and how many above it. With none above, a card takes any trick of its suit it is played to."""
    fd = int(row[FD_SUIT])
    sol = int(row[SOL])
    strength = card_strength(card, sol, consts)
    out = ~(int(row[SEEN]) | int(row[HANDS + int(row[TO_PLAY])])) & suit_mask(card_suit(card, fd), fd)
    below = 0
    above = 0
    while out:
        other = lowest_card(out)
        out &= out - 1
        if card_strength(other, sol, consts) > strength:
            above += 1
        else:
            below += 1
    return below, above


@jit
def sol_exit(row: Rows, plain: int, lowest: int, consts: Rows) -> int:
    """A sol declarer's lead: the lowest card of the suit where the fewest cards still out rank below it
    (a defender who holds one ducks under it and leaves him the trick), and of those where the most rank
    above it (one of them must go over it); never a suit where none still out can go over while another
    is left. ``lowest`` (his lowest card) where no suit has a card out above his."""
    fd = int(row[FD_SUIT])
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        mine = plain & suit_mask(suit, fd)
        if mine == 0:
            continue
        low = weakest_of(mine, 1, consts)
        below, above = cards_out_around(row, low, consts)
        key = below * 64 - above  # at most 13 cards of a suit are out: the fewest below first
        if above > 0 and key < best_key:
            best, best_key = low, key
    return best if best >= 0 else lowest


@jit
def master(row: Rows, card: int, consts: Rows) -> bool:
    """Whether no card still out (not played, not in the player's own hand) beats ``card`` in its suit."""
    return card < 52 and cards_out_around(row, card, consts)[1] == 0


@jit
def choose(row: Rows, legal: int, consts: Rows) -> int:
    """The playout's card: cheap play that wins tricks for its side (sol: declarers duck, defenders push)."""
    wild = np.random.random() < EPSILON
    seat = int(row[TO_PLAY])
    n = int(row[TRICK_N])
    sol = row[SOL] != 0
    side = known_side(row, seat)
    mine = (side >> seat) & 1 == 1
    if wild and not (sol and mine):  # a sol's declarer never plays at random: any card may take a trick
        return random_card(legal)
    cheapest = -1  # the card the hand least wants to keep (sol: its surest trick)
    cheapest_value = 1 << 30
    dearest = -1  # the card the hand most wants to keep (sol: a joker, else its safest card)
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
        if sol:  # a declarer leads low to stay under (never a joker: led, it takes the trick);
            # a defender leads where the declarer must go over
            plain = legal & ~JOKER_MASK
            low = weakest_of(plain, 1, consts) if plain != 0 else dearest
            return sol_exit(row, plain, low, consts) if mine else sol_lead(row, legal, low, consts)
        jokers = legal & JOKER_MASK
        if jokers != 0 and (led_beats_trump(consts) or row[TRUMP] < 0):
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
        elif sol:  # the card it most wants rid of that stays under; a joker (never taking a trick it follows) last
            duck = -(1 << 20) if 52 <= card < 55 else -value
            if duck > ducking_value or ducking < 0:
                ducking, ducking_value = card, duck
    if sol:
        if mine:  # duck with the card it most wants rid of that does not take the trick
            return ducking if ducking >= 0 else cheapest
        if (side >> winning) & 1:  # leave the trick to the declarer
            return ducking if ducking >= 0 else cheapest
        for i in range(n):
            if (side >> ((leader + i) % 4)) & 1:
                return cheapest  # the declarer has ducked this one: away with a high card
        return under_declarer(row, legal, n, cheapest, consts)
    if ((side >> winning) & 1 == 1) == mine:
        return cheapest
    if taking >= 0:
        return taking
    return cheapest


@jit
def under_declarer(row: Rows, legal: int, n: int, cheapest: int, consts: Rows) -> int:
    """A defender before the sol declarer in the trick: keep the trick low, so that he must go over.

    Where the declarer's hand lies open: the highest card that keeps the trick below his lowest card
    of the led suit (where he can duck anyway, a high card away: ``cheapest``). Where it is hidden, he
    plays on what he can know: a high card away where the declarer has shown void in the led suit,
    else the highest card under the trick's highest, else his lowest of the suit.
    """
    fd = int(row[FD_SUIT])
    led = card_suit(int(row[TRICK]), fd)
    if led == JOKER_SUIT:
        return cheapest
    seat = int(row[TO_PLAY])
    declarers = int(row[DECLARERS])
    target = 1 << 30  # the lowest led-suit card of a declarer still to play, where his hand is open
    for offset in range(1, 4 - n):
        other = (seat + offset) % 4
        if (declarers >> other) & 1:
            if known_void(row, other, led):
                return cheapest  # he is void: he discards whatever he likes
            if visible(row, seat, other):
                theirs = int(row[HANDS + other]) & suit_mask(led, fd)
                if theirs == 0:
                    return cheapest
                target = min(target, card_strength(weakest_of(theirs, 1, consts), 1, consts))
    highest = 0
    for i in range(n):
        card = int(row[TRICK + i])
        if card_suit(card, fd) == led:
            highest = max(highest, card_strength(card, 1, consts))
    if target == 1 << 30:  # nothing seen: under the trick's highest card, or as low as he can
        target = highest
    elif highest > target:
        return cheapest  # already above him: he ducks under it
    best = -1
    best_strength = -1
    mine = legal & suit_mask(led, fd)
    rest = mine
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        strength = card_strength(card, 1, consts)
        if best_strength < strength < target:
            best, best_strength = card, strength
    if best >= 0:
        return best
    low = weakest_of(mine, 1, consts)
    return low if low >= 0 else cheapest


@jit
def sol_lead(row: Rows, legal: int, lowest: int, consts: Rows) -> int:
    """A defender's lead against sol: his lowest card of a suit where the declarer must go over it,
    never a suit a declarer has shown void in (that gives him a free discard).

    Where a declarer's hand lies open: the suit where his lowest card stands highest above the
    defender's. Where it is hidden: the defender's lowest card of a suit no declarer is known void in.
    """
    declarers = int(row[DECLARERS])
    seat = int(row[TO_PLAY])
    best = -1
    best_gap = -(1 << 30)
    for suit in range(4):
        mine = legal & int(SUIT_MASKS[suit])
        if mine == 0:
            continue
        low = weakest_of(mine, 1, consts)
        low_strength = card_strength(low, 1, consts)
        for other in range(4):
            if (declarers >> other) & 1 == 0 or known_void(row, other, suit):
                continue
            if visible(row, seat, other):
                theirs = int(row[HANDS + other]) & int(SUIT_MASKS[suit])
                if theirs == 0:
                    continue
                gap = card_strength(weakest_of(theirs, 1, consts), 1, consts) - low_strength
            else:
                gap = -low_strength  # unseen: the lower his own card, the likelier the declarer is over it
            if gap > best_gap:
                best, best_gap = low, gap
    return best if best >= 0 else lowest


@jit
def policy_card(row: Rows, consts: Rows, seed: int) -> int:
    """The playout policy's card for the seat to play, drawn from the stream of ``seed`` (for tests)."""
    np.random.seed(seed)
    legal = legal_mask(row, int(row[TO_PLAY]), consts)
    return lowest_card(legal) if legal & (legal - 1) == 0 else choose(row, legal, consts)


@jit
def play_to(row: Rows, consts: Rows, cards: int) -> None:
    """Play ``row`` on with the playout policy (in place) until at most ``cards`` cards are left in the
    hands, or play is over: where a leaf takes the rest over (0: to the end)."""
    row, consts = unowned(row), unowned(consts)
    while not play_over(row, consts) and (13 - int(row[TRICKS])) * 4 - int(row[TRICK_N]) > cards:
        seat = int(row[TO_PLAY])
        legal = legal_mask(row, seat, consts)
        play_card(row, lowest_card(legal) if legal & (legal - 1) == 0 else choose(row, legal, consts), consts)


@jit
def playout(row: Rows, consts: Rows) -> None:
    """Play ``row`` to the end of play with the playout policy (in place)."""
    play_to(row, consts, 0)


@jit
def looking_card(row: Rows, legal: int, consts: Rows, seed: int) -> int:
    """A sol declarer's card weighed by one playout of each of his legal cards on this deal, with the same
    chances (``evaluate_cards`` from ``seed``): the card that leaves his side the fewest tricks, the rules
    of thumb's card where it does as well as any."""
    mine = choose(row, legal, consts)
    cards = np.empty(bit_count(legal), dtype=np.int64)
    rest = legal
    for i in range(cards.shape[0]):
        cards[i] = lowest_card(rest)
        rest &= rest - 1
    won = evaluate_cards(row.reshape((1, row.shape[0])), cards, consts, seed, True)
    side = side_mask(row)
    best = mine
    fewest = 1 << 30
    for c in range(cards.shape[0]):
        tricks = 0
        for seat in range(4):
            if (side >> seat) & 1:
                tricks += int(won[0, c, seat])
        if tricks < fewest or (tricks == fewest and cards[c] == mine):
            best, fewest = int(cards[c]), tricks
    np.random.seed(seed + 1)
    return best


@jit
def playout_rows_looking(rows: Rows, consts: Rows, seed: int, tricks: int) -> Rows:
    """``playout_rows`` where a sol's declarer weighs each of his cards in the first ``tricks`` tricks by a
    playout of it (``looking_card``), as the declarer at the table weighs his on sampled deals: played by
    the rules of thumb alone, the bidding's playouts made fewer sols than the experts at the table."""
    np.random.seed(seed)
    won = np.empty((rows.shape[0], 4), dtype=np.int64)
    for r in range(rows.shape[0]):
        row = rows[r].copy()
        play_looking(row, consts, tricks)
        for seat in range(4):
            won[r, seat] = row[WON + seat]
    return won


@jit
def play_looking(row: Rows, consts: Rows, tricks: int) -> None:
    """``row`` played to the end (in place), its declarer looking in the first ``tricks`` tricks."""
    row, consts = unowned(row), unowned(consts)
    declarer = int(row[DECLARER])
    while not play_over(row, consts):
        seat = int(row[TO_PLAY])
        legal = legal_mask(row, seat, consts)
        if legal & (legal - 1) == 0:
            card = lowest_card(legal)
        elif seat == declarer and row[TRICKS] < tricks:
            card = looking_card(row, legal, consts, np.random.randint(1 << 30))
        else:
            card = choose(row, legal, consts)
        play_card(row, card, consts)


@jit
def play_rows_to(rows: Rows, consts: Rows, seed: int, cards: int) -> None:
    """Every row played on to its last ``cards`` cards (``play_to``), from the stream of ``seed``."""
    np.random.seed(seed)
    for r in range(rows.shape[0]):
        play_to(rows[r], consts, cards)


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
def evaluate_cards(rows: Rows, candidates: Rows, consts: Rows, seed: int, common: bool = True) -> Rows:
    """For each sampled deal and each candidate card of the seat to play: the tricks won after playing it.

    ``common``: every candidate on a deal is played out with the same chances (common random numbers), so
    that two cards' values differ by what the cards do, not by the playouts' luck; it took a quarter of a
    trick per side per deal off the expert's loss to double-dummy play (benchmarks/expert.py, ddloss)."""
    np.random.seed(seed)
    won = np.empty((rows.shape[0], candidates.shape[0], 4), dtype=np.int64)
    for r in range(rows.shape[0]):
        for c in range(candidates.shape[0]):
            if common:
                np.random.seed(seed + r)
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


def first_lead_rows(rules: Rules, kernel: PlayPhase, count: int, rng: random.Random) -> Rows:
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
    while not rules.play.play_over(info, won, played):
        exempt = not rules.play.called_card_binds(seat, info)
        context = TrickContext(
            trump, sol, played == 0, None if called < 0 or called_played or exempt else called, suit_led, fordaekt
        )
        if first is None:
            card = rng.choice(rules.play.legal_cards(hands[seat], trick, context))
        else:
            card, first = first, None
        hands[seat].remove(card)
        trick.append(card)
        called_played = called_played or card == called
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        winner = (leader + rules.play.trick_winner(trick, trump, sol, fordaekt)) % 4
        suit_led = suit_led or leads_called_suit(trick[0], called, fd)
        won[winner] += 1
        played += 1
        leader = seat = winner
        trick = []
    return np.array(won, dtype=np.int64)
