"""A sensible computer player for es-makker whist under any ruleset.

It bids from hand strength against the ruleset's own ladder, names its longest suit trump, calls
an ace where it holds the king (001: "Kald et es i en kulør, hvor du selv har kongen"), leads the
partner suit early to find its partner, wins tricks as cheaply as it can, keeps its jokers for
leading where a led joker wins (001: "Gem jokerne til du selv skal spille ud"), and in sol ducks
as a declarer. It knows only its own view and works out trick winners with the ruleset's own
compiled trick-winner rule, so it plays by the same rules as the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from regelmotor.bids import Bid
from regelmotor.cards import ACE, FACE_DOWN, KING, QUEEN, SUIT_LETTERS, Card, is_joker, rank_of, suit_of
from regelmotor.engine.actions import (
    ACCEPT_ACTION,
    JOIN_ACTION,
    KEEP_ACTION,
    NO_FORDAEKT_ACTION,
    PASS_ACTION,
    PLAYS,
    REJECT_ACTION,
    Action,
    Verb,
    seat_action,
)
from regelmotor.engine.game import View
from regelmotor.hooks import ContractInfo
from regelmotor.rules.contracts.keys import Side, SolBid
from regelmotor.ruleset.compile import Rules

PARTNER_TRICKS = 2.5


def _honour_tricks(cards: Sequence[Card]) -> float:
    """Tricks a suit's honours should take: the ace, a guarded king, a twice-guarded queen."""
    ranks = {rank_of(c) for c in cards}
    return (ACE in ranks) + 0.6 * (KING in ranks and len(cards) >= 2) + 0.3 * (QUEEN in ranks and len(cards) >= 3)


"""What a partner adds, on average, to the tricks a declarer counts in his own hand."""


VIP_CHOICES = (ACCEPT_ACTION, REJECT_ACTION)


def _bid_action(bid: Bid, legal: Sequence[Action]) -> Action:
    """The legal action that makes ``bid``."""
    return next(a for a in legal if a.bid == bid)


class HeuristicBot:
    name = "heuristic"
    needs_view = True

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        self.trump_strength = rules.play.trump_strength
        self.sol_strength = rules.play.sol_strength
        self.joker_lead_wins = rules.play.led_joker_wins
        fixed: dict[str, str | None] = {}  # the trump each designation fixes, as its declaration says
        for bid in rules.auction.ladder.bids:
            if bid.designation is not None and bid.designation not in fixed:
                fixed[bid.designation] = rules.declaration.plan(ContractInfo(bid, (0,))).trump
        self.fixed_clubs = {d for d, trump in fixed.items() if trump == "C"}
        self.fixed_none = {d for d, trump in fixed.items() if trump == "none"}
        self.plain = rules.auction.designations[0].id if rules.auction.designations else None
        self.sol_ids = {s.id for s in rules.auction.sol_contracts}

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "the heuristic bot decides from its view"
        if len(legal) == 1:  # no choice (a partner who may only pass on a double)
            return legal[0]
        hand = list(view.hand)
        if view.phase == "auction":
            return self._call(view, hand, legal)
        verb = legal[0].verb
        if verb is Verb.TRUMP:
            return self.choose_trump(hand, legal)
        if verb is Verb.CALL:
            return self.choose_partner_card(hand, legal)
        if verb in (Verb.ACCEPT, Verb.REJECT):
            return self.choose_vip(hand, view.turned[-1], legal)
        if verb is Verb.EXCHANGER:  # the partner in halve chooses: he exchanges himself
            mine = seat_action(Verb.EXCHANGER, view.seat)
            return mine if mine in legal else legal[0]
        if verb in (Verb.DISCARD, Verb.KEEP):
            return self._exchange(hand, legal, view)
        if verb is Verb.NO_FORDAEKT:
            return self._fordaekt(hand, legal, view)
        if verb is Verb.PASS and any(a.verb in (Verb.DOUBLE, Verb.REDOUBLE) for a in legal):
            return PASS_ACTION
        return self._play(view, hand, legal)

    # --- bidding -------------------------------------------------------------------------------

    def _trump_estimate(self, hand: list[Card]) -> tuple[float, int]:
        """Tricks the hand should take with its longest suit as trump, and that suit."""
        by_suit = [[c for c in hand if suit_of(c) == s] for s in range(4)]
        trump = max(range(4), key=lambda s: (len(by_suit[s]), sum(rank_of(c) for c in by_suit[s])))
        tricks = 0.0
        for suit, cards in enumerate(by_suit):
            tricks += _honour_tricks(cards)
            if suit == trump:
                tricks += 0.9 * max(0, len(cards) - 3)
        jokers = sum(1 for c in hand if is_joker(c))
        tricks += jokers * (0.9 if self.joker_lead_wins else 0.6)
        return tricks, trump

    def _sol_danger(self, hand: list[Card]) -> int:
        """Cards that may win a trick in sol: high cards of short holdings."""
        danger = 0
        for suit in range(4):
            cards = sorted((self.sol_strength[rank_of(c)] for c in hand if suit_of(c) == suit), reverse=True)
            for position, strength in enumerate(cards):
                if strength >= 9 - 2 * position:  # a high card not covered by enough low ones
                    danger += 1
        return danger

    def _call(self, view: View, hand: list[Card], legal: Sequence[Action]) -> Action:
        jernhaand = next((a for a in legal if a.verb is Verb.CLAIM and a.name == "jernhånd"), None)
        if jernhaand is not None:
            return jernhaand
        if KEEP_ACTION in legal:
            return KEEP_ACTION
        tricks, trump = self._trump_estimate(hand)
        level = int(tricks + PARTNER_TRICKS)
        designation = self.plain
        if trump == 3 and self.fixed_clubs:
            designation = next(iter(self.fixed_clubs))
        elif max(sum(1 for c in hand if suit_of(c) == s) for s in range(4)) <= 4 and tricks >= 4.5 and self.fixed_none:
            designation = next(iter(self.fixed_none))
        ladder = self.rules.auction.ladder
        wanted: Bid | None = None
        levels = self.rules.auction.levels
        if levels and level >= levels[0]:
            level = min(level, levels[-1])
            text = str(level) if designation == self.plain else f"{level} {designation}"
            wanted = ladder.parse(text)
        if not self.rules.auction.designations:  # only bids named by their name (dansk whist)
            return self._call_named(hand, legal)
        if self._sol_danger(hand) <= 1 and self.rules.auction.sol_contracts:
            sol = ladder.parse(self.rules.auction.sol_contracts[0].id)
            if wanted is None or sol.rank > wanted.rank:
                wanted = sol
            if JOIN_ACTION in legal and self._is_sol(view):
                return JOIN_ACTION
        if wanted is None:
            return PASS_ACTION
        candidates = [a.bid for a in legal if a.bid is not None]
        same_kind = [
            b
            for b in candidates
            if b.rank <= wanted.rank and (b.sol == wanted.sol if wanted.is_sol else b.designation == wanted.designation)
        ]
        if not same_kind:
            return PASS_ACTION
        return _bid_action(min(same_kind, key=lambda b: b.rank), legal)

    def _call_named(self, hand: list[Card], legal: Sequence[Action]) -> Action:
        """The highest legal named bid the hand looks good for, from what each bid asks (its side, its most or
        least tricks, the first tricks), not from its name; else pass."""
        fitting = []
        for action in legal:
            bid = action.bid
            named = None if bid is None else self.rules.auction.named(bid)
            if bid is not None and named is not None and self._named_fits(named, hand):
                fitting.append(bid)
        return _bid_action(max(fitting, key=lambda b: b.rank), legal) if fitting else PASS_ACTION

    def _named_fits(self, named: SolBid, hand: list[Card]) -> bool:
        partner = PARTNER_TRICKS if named.side == Side.PARTNER else 0.0
        if named.first_tricks is not None:
            return self._top_tricks(hand) >= named.first_tricks
        if named.min_tricks is not None and self._high_tricks(hand) + partner < named.min_tricks:
            return False
        if named.max_tricks is not None:
            allowed = named.max_tricks if named.side == Side.ALONE else named.max_tricks / 2
            return self._sol_danger(hand) <= allowed
        return True

    def _high_tricks(self, hand: list[Card]) -> float:
        """Tricks the hand should take without trump, ace high."""
        tricks = 0.0
        for suit in range(4):
            cards = [c for c in hand if suit_of(c) == suit]
            tricks += _honour_tricks(cards)
            ranks = {rank_of(c) for c in cards}
            if ACE in ranks and KING in ranks:
                tricks += 0.5 * max(0, len(cards) - 4)
        return tricks

    def _top_tricks(self, hand: list[Card]) -> int:
        """Tricks the hand takes from the top without losing the lead: each suit's unbroken run from the ace."""
        sure = 0
        for suit in range(4):
            ranks = sorted((rank_of(c) for c in hand if suit_of(c) == suit), key=lambda r: -self.trump_strength[r])
            run = 0
            for position, rank in enumerate(ranks):
                if self.trump_strength[rank] != 13 - position:
                    break
                run += 1
            sure += run
        return sure

    # --- declaration and exchange --------------------------------------------------------------

    def choose_trump(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action:
        def score(action: Action) -> tuple[int, int]:
            choice = action.trump
            assert choice is not None
            if choice == "none":
                return (3, 0) if all(sum(1 for c in hand if suit_of(c) == s) <= 4 for s in range(4)) else (0, 0)
            suit = SUIT_LETTERS.index(choice)
            cards = [c for c in hand if suit_of(c) == suit]
            return (len(cards), sum(rank_of(c) for c in cards))

        return max([a for a in legal if a.verb is Verb.TRUMP], key=score)

    def choose_partner_card(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action:
        held = set(hand)
        lengths = [0] * 5
        kings = [False] * 5
        for c in hand:  # each suit's length and king counted once, not once per card that may be called
            lengths[suit_of(c)] += 1
            kings[suit_of(c)] |= rank_of(c) == KING

        def score(action: Action) -> tuple[bool, bool, int]:
            called = action.card
            assert called is not None
            suit = suit_of(called)
            return (called not in held, kings[suit], lengths[suit])

        return max(legal, key=score)

    def choose_vip(self, hand: Sequence[Card], turned: Card, legal: Sequence[Action] = VIP_CHOICES) -> Action:
        """Accept a suit held four times or more, no trump with no long suit; where a turned joker may
        give the previous card's suit (``accept S``), that suit by the same measure."""
        for action in legal:
            if action.verb is Verb.ACCEPT and action.trump is not None:
                suit = SUIT_LETTERS.index(action.trump)
                if sum(1 for c in hand if suit_of(c) == suit) >= 4:
                    return action
        if is_joker(turned):
            accept = all(sum(1 for c in hand if suit_of(c) == s) <= 4 for s in range(4))
        else:
            accept = sum(1 for c in hand if suit_of(c) == suit_of(turned)) >= 4
        choice = VIP_CHOICES[0] if accept else VIP_CHOICES[1]
        return choice if choice in legal else legal[0]

    def _is_sol(self, view: View) -> bool:
        return view.contract is not None and view.contract.text in self.sol_ids

    def keep_value(self, c: Card, view: View, hand: list[Card]) -> float:
        """How much the hand wants to keep a card (sol: low cards; trump games: high cards, trumps)."""
        return self.value_of(c, self._is_sol(view), view.trump, view.called)

    def value_of(self, c: Card, sol: bool, trump: str | None, called: Card | None) -> float:
        """``keep_value`` from the contract's facts alone: whether it is sol, the trump, the partner card."""
        if is_joker(c):
            return 20.0 if self.joker_lead_wins and not sol else 5.0
        if sol:
            return 13.0 - self.sol_strength[rank_of(c)]
        value = float(self.trump_strength[rank_of(c)])
        if trump not in (None, "none") and SUIT_LETTERS[suit_of(c)] == trump:
            value += 14
        if called is not None and suit_of(c) == suit_of(called):
            value += 4  # keep the partner suit to lead it
        return value

    def _exchange(self, hand: list[Card], legal: Sequence[Action], view: View) -> Action:
        discards = [a for a in legal if a.verb is Verb.DISCARD]
        if not discards:
            return legal[0]
        most = max(len(a.cards) for a in discards)
        full = [a for a in discards if len(a.cards) == most]
        value = {c: self.keep_value(c, view, hand) for c in hand}
        return min(full, key=lambda a: sum(value[c] for c in a.cards))

    def _fordaekt(self, hand: list[Card], legal: Sequence[Action], view: View) -> Action:
        options = [a for a in legal if a.verb is Verb.FORDAEKT]
        best = min(options, key=lambda a: self.keep_value(a.card or 0, view, hand))
        return best if self.keep_value(best.card or 0, view, hand) < 6 else NO_FORDAEKT_ACTION

    # --- play ----------------------------------------------------------------------------------

    def _play(self, view: View, hand: list[Card], offered: Sequence[Action]) -> Action:
        legal = [a for a in offered if a.card is not None]  # it never doubles during play
        cards = [c for c in (a.card for a in legal) if c is not None]
        sol = self._is_sol(view)
        trump = None if view.trump in (None, "none") else SUIT_LETTERS.index(view.trump)
        strength = self.sol_strength if sol else self.trump_strength
        trick = view.play.trick
        played = [(seat, c) for seat, c in trick if c != FACE_DOWN]
        me = view.seat
        declarer = view.declarers[0] if view.declarers else None

        def height(c: Card) -> int:
            if is_joker(c):
                return -1
            return strength[rank_of(c)] + (20 if trump is not None and suit_of(c) == trump else 0)

        if not played or len(played) != len(trick):
            return PLAYS[self._lead(view, hand, cards, sol, trump, declarer)]

        def winning_seat(extra: Card | None) -> int:
            trick = [c for _, c in played] + ([extra] if extra is not None else [])
            index = self.rules.play.trick_winner(trick, trump, sol, None)
            return played[index][0] if index < len(played) else me

        leader_now = winning_seat(None)
        if sol:
            if me in view.declarers:
                ducks = [c for c in cards if winning_seat(c) != me]
                return PLAYS[max(ducks, key=height) if ducks else max(cards, key=height)]
            return PLAYS[min(cards, key=height)]
        ally = self._ally(view, hand, declarer)
        last = len(played) == 3
        if ally is not None and leader_now == ally and (last or height(dict(played)[ally]) >= 12):
            return PLAYS[min(cards, key=lambda c: self.keep_value(c, view, hand))]
        winners = [c for c in cards if winning_seat(c) == me and not is_joker(c)]
        if winners and (last or max(height(c) for c in winners) >= 12):
            return PLAYS[min(winners, key=height)]
        keep_jokers = [c for c in cards if not is_joker(c)] or cards
        return PLAYS[min(keep_jokers, key=lambda c: self.keep_value(c, view, hand))]

    def _ally(self, view: View, hand: list[Card], declarer: int | None) -> int | None:
        if declarer is None:
            return None
        me = view.seat
        if me == declarer:
            return view.partner
        called = view.called
        if called is not None and called in hand:
            return declarer
        if view.partner is not None:
            others = [s for s in range(4) if s not in (declarer, view.partner, me)]
            return others[0] if me != view.partner else declarer
        return None

    def _lead(
        self, view: View, hand: list[Card], cards: list[Card], sol: bool, trump: int | None, declarer: int | None
    ) -> Card:
        if sol:
            if view.seat in view.declarers:
                return min(cards, key=lambda c: self.sol_strength[rank_of(c)] if not is_joker(c) else 0)
            return min(
                (c for c in cards if not is_joker(c)), key=lambda c: self.sol_strength[rank_of(c)], default=cards[0]
            )
        jokers = [c for c in cards if is_joker(c)]
        if jokers and self.joker_lead_wins:
            return jokers[0]
        called = view.called
        if called is not None and called in cards:
            return called  # the partner shows himself and takes the trick
        if called is not None and view.seat == declarer and view.partner is None:
            partner_suit = [c for c in cards if not is_joker(c) and suit_of(c) == suit_of(called)]
            if partner_suit:
                return min(partner_suit, key=rank_of)  # 001: "Spil ud i makker-essets kulør tidligt"
        aces = [c for c in cards if not is_joker(c) and rank_of(c) == ACE and suit_of(c) != trump]
        if aces:
            return aces[0]
        trumps = [c for c in cards if trump is not None and not is_joker(c) and suit_of(c) == trump]
        if trumps and view.seat == declarer and len(trumps) >= 4:
            return max(trumps, key=rank_of)
        side = [c for c in cards if not is_joker(c) and suit_of(c) != trump] or cards
        longest = max(range(4), key=lambda s: sum(1 for c in side if not is_joker(c) and suit_of(c) == s))
        suited = [c for c in side if not is_joker(c) and suit_of(c) == longest] or side
        return min(suited, key=lambda c: rank_of(c) if not is_joker(c) else 99)
