"""One deal of es-makker whist as an explicit state machine, driven only by compiled rules.

A ``Game`` knows its phase, whose turn it is and what that seat may do (``legal_actions()``);
``apply(action)`` is the only way to change it. An action is checked against the legal actions
before anything changes, so an illegal one raises ``RuleViolation`` (naming the ruleset key that
forbids it, and its source) and leaves the game exactly as it was. Steps the rules decide alone
(a fixed trump, a kitty card that cannot be accepted, the third vip card that must be) happen
by themselves and are listed in ``events``; only real choices are actions.

Phases (notation.md): ``auction`` (with jernhånd claims and misdeals before the first call),
``declaration``, ``exchange`` (then fordækt and doubling), ``play``, and ``redeal`` when the
deal is void, ``finished`` when play is over and every seat has its score.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple, cast

from regelmotor.bids import Bid, fold
from regelmotor.cards import SUIT_LETTERS, Card, format_card, new_deck, parse_card, suit_of
from regelmotor.engine.actions import (
    DOUBLE,
    EXCHANGER,
    KEEP,
    MISDEAL,
    NO_FORDAEKT,
    PASS,
    REDOUBLE,
    REJECT,
    VIP,
    canonical,
    card_order_key,
)
from regelmotor.engine.discards import Discards
from regelmotor.errors import DealError, RuleViolation
from regelmotor.hooks import (
    PARTNER,
    ContractInfo,
    Denomination,
    ExchangePlan,
    ExchangeTurn,
    Moment,
    RedealBy,
    TrickContext,
    VipOffer,
    next_dealer,
)
from regelmotor.ruleset.compile import Rules

SEATS = 4
HAND = 13
SUIT_NAMES_EN = ("spades", "hearts", "diamonds", "clubs")
NAMES = tuple(format_card(c) for c in range(55))
"""Card index -> notation, looked up rather than built: views are made on every decision."""
CARDS = {name: card for card, name in enumerate(NAMES)}
"""Canonical notation -> card index, for actions already checked against the legal ones."""
HAND_ORDER = tuple(sorted(range(55), key=card_order_key).index(card) for card in range(55))
"""Card index -> its place in a hand kept in canonical order (a sort key without a call)."""
DERIVED = ("_legal", "_tricks_view", "_contexts", "_public")
"""Attributes computed from the rest of the state and kept only to save work."""
AUCTION, DECLARATION, EXCHANGE, PLAY, FINISHED, REDEAL = (
    "auction",
    "declaration",
    "exchange",
    "play",
    "finished",
    "redeal",
)


@cache
def _deck(jokers: int) -> frozenset[Card]:
    return frozenset(new_deck(jokers))


@dataclass(frozen=True)
class Redeal:
    """Why a deal is void, and who deals next."""

    reason: str
    next_dealer: int
    seat: int | None = None
    """The claimant (jernhånd) or the culprit (misdeal), where there is one."""


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, and the winning seat."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % SEATS for i in range(len(self.cards)))


@dataclass(slots=True)
class View:
    """What one seat may know: its own hand and what is public at the table.

    A fresh copy on every call (so not frozen: building it is on every bot decision's path).
    """

    seat: int
    phase: str
    dealer: int
    to_act: int | None
    hand: tuple[str, ...]
    legal_actions: tuple[str, ...]
    calls: tuple[tuple[int, str], ...]
    contract: str | None
    declarers: tuple[int, ...]
    trump: str | None
    called: str | None
    partner: int | None
    joiner_calls: tuple[tuple[int, str], ...]
    turned: tuple[str, ...]
    kitty_size: int
    hand_sizes: tuple[int, ...]
    fordaekt_laid: bool
    doublings: int
    events: tuple[str, ...]
    redeal: Redeal | None
    trick: tuple[tuple[int, str], ...] = ()
    tricks: tuple[tuple[int, tuple[str, ...], int], ...] = ()
    tricks_won: tuple[int, ...] = (0, 0, 0, 0)
    open_hands: tuple[tuple[int, tuple[str, ...]], ...] = ()
    scores: tuple[Fraction, ...] | None = None
    history: tuple[tuple[int, str], ...] = ()
    """Every action so far as the table saw it: another seat's discards and fordækt card face down
    (``discard ? ? ?``, ``fordækt ?``)."""
    received: tuple[str, ...] = ()
    """The kitty cards this seat took in the exchange."""
    discarded: tuple[str, ...] = ()
    """The cards this seat discarded in the exchange."""
    fordaekt: str | None = None
    """The card this seat laid fordækt, which only it knows."""


@dataclass
class _Vip:
    """Turning the kitty: the card being decided, what accepting it means, and who still has the choice."""

    designation: str
    original: int
    joiners: list[int]
    number: int = 0
    deciders: list[int] = field(default_factory=list)
    forced_last: bool = False
    offer: VipOffer | None = None


class Game:
    """One deal: from the dealt hands to the first lead (or a redeal)."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        kitty: Sequence[Card],
        dealer: int = 0,
        *,
        seed: int | None = None,
    ) -> None:
        expected = _deck(rules.jokers)
        if len(hands) != SEATS or any([len(hand) != HAND for hand in hands]):
            raise DealError(f"a deal has four hands of {HAND} cards, not {[len(h) for h in hands]}")
        if len(kitty) != rules.kitty_size:
            raise DealError(f"the kitty holds {rules.kitty_size} cards in {rules.ruleset.name}, not {len(kitty)}")
        dealt = [*itertools.chain(*hands), *kitty]
        if len(dealt) != len(expected) or expected.symmetric_difference(dealt):
            twice = sorted({c for c in dealt if dealt.count(c) > 1})
            missing = sorted(expected - set(dealt))
            extra = sorted(set(dealt) - expected)
            detail = "; ".join(
                part
                for part in (
                    "twice: " + " ".join(map(format_card, twice)) if twice else "",
                    "missing: " + " ".join(map(format_card, missing)) if missing else "",
                    "not in this deck: " + " ".join(map(format_card, extra)) if extra else "",
                )
                if part
            )
            raise DealError(f"the hands and kitty must hold the {len(expected)} cards once each ({detail})")
        if not 0 <= dealer < SEATS:
            raise DealError(f"the dealer is a seat 0-3, not {dealer}")
        self.rules = rules
        self.ruleset = rules.ruleset
        self.seed = seed
        self.dealer = dealer
        self.seats = _SEAT_ORDERS[dealer]
        self.initial_hands = tuple(map(tuple, hands))
        self.initial_kitty = tuple(kitty)
        self.hands: list[list[Card]] = [sorted(hand, key=HAND_ORDER.__getitem__) for hand in hands]
        self.kitty: list[Card] = list(kitty)
        self.discards: list[Card] = []
        self.turned: list[Card] = []
        self.history: list[tuple[int, str]] = []
        self.received: dict[int, tuple[Card, ...]] = {}
        self.discarded: dict[int, tuple[Card, ...]] = {}
        self.events: list[str] = []
        self.phase = AUCTION
        self.step: tuple[str, int] | None = None
        self._legal: Sequence[str] | None = None
        self._contexts: dict[bool, TrickContext] = {}
        self._playing: ContractInfo  # these two are set when play begins
        self._facts: tuple[int | None, bool, tuple[Card, int] | None]
        self.redeal: Redeal | None = None
        self.claims = self._offer_claims() if rules.redeal_claims else []
        self.calls: list[str] = []
        self._auction = rules.auction.start(self.seats)
        self.seat_calls: list[tuple[int, str]] = []
        self.bid: Bid | None = None
        self.declarers: tuple[int, ...] = ()
        self.trump: Denomination | None = None
        self.called: Card | None = None
        self.joiner_calls: dict[int, Card] = {}
        self.partner: int | None = None
        self.partner_public = False
        self.vip_card = 0
        self._declaration: list[tuple[str, int]] = []
        self._vip: _Vip | None = None
        self.exchanger: int | None = None
        self._exchange: list[ExchangeTurn] = []
        self._exchanged: list[int] = []
        self._pass_on = False
        self.fordaekt: Card | None = None
        self._fordaekt_offer: int | None = None
        self.doublings = 0
        self._doublers: list[int] | None = None
        self._redouble = False
        self.trick: list[tuple[int, Card]] = []
        self._trick_cards: list[Card] = []  # the trick's cards alone, as the play rules take them
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * SEATS
        self.leader = self.seats[0]
        self.called_played = False
        self.called_suit_led = False
        self.open_hands: tuple[int, ...] = ()
        self.scores: list[Fraction] | None = None
        self._advance()

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def from_deck(
        cls, rules: Rules, deck: Sequence[Card], dealer: int = 0, pattern: Sequence[int | str] | None = None
    ) -> Game:
        """Deal a deck order (top card first) by the ruleset's pattern, or by ``pattern``."""
        deal = rules.deal(deck, dealer, pattern)
        return cls(rules, deal.hands, deal.kitty, dealer)

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, dealer: int = 0) -> Game:
        """A shuffled deck from ``seed``: the same seed always gives the same deal."""
        deck = new_deck(rules.jokers)
        random.Random(seed).shuffle(deck)
        deal = rules.deal(deck, dealer, None)
        return cls(rules, deal.hands, deal.kitty, dealer, seed=seed)

    # --- the public face ---------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return None if self.step is None else self.step[1]

    @property
    def forhaand(self) -> int:
        return self.seats[0]

    @property
    def contract(self) -> str | None:
        return None if self.bid is None else self.bid.text

    def legal_actions(self) -> list[str]:
        """What the seat to act may do now, in canonical notation, as a new list."""
        return list(self.legal)

    @property
    def legal(self) -> Sequence[str]:
        """The legal actions as a read-only sequence, worked out once per state and not copied.

        For bots and simulations: the exchange's many discards are written out only when read.
        """
        legal = self._legal
        if legal is None:
            if self.step is None:
                return ()
            kind, seat = self.step
            legal = self._legal = _LEGAL[kind](self, seat)
        return legal

    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action`` for the seat to act (checked against ``seat`` when given)."""
        if self.step is None:
            raise RuleViolation("phase", f"the deal is over ({self.phase}): no more actions")
        kind, to_act = self.step
        if seat is not None and seat != to_act:
            raise RuleViolation("turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
        legal = self.legal
        if action not in legal:  # canonical input (bots, records) needs no parsing
            action = self._canonical(action, legal)
            if action not in legal:
                raise self._violation(kind, to_act, action)
        self.history.append((to_act, action))
        self._legal = None
        _DO[kind](self, to_act, action)
        if kind != "play":  # a card played names the next seat itself: the commonest step, kept short
            self._advance()

    def _canonical(self, action: str, legal: Sequence[str]) -> str:
        """A person's spelling of an action: the notation's canonical form, or a legal action's name
        (a plugin's claim) written in another case or with ASCII æøå."""
        folded = fold(action)
        if len(legal) < 64:
            for candidate in legal:
                if fold(candidate) == folded:
                    return candidate
        return canonical(action, self.rules.ladder)

    def view(self, seat: int) -> View:
        return View(
            seat=seat,
            phase=self.phase,
            dealer=self.dealer,
            to_act=self.to_act,
            hand=() if self.blind() else tuple(NAMES[c] for c in self.hands[seat]),
            legal_actions=tuple(self.legal) if self.to_act == seat else (),
            calls=tuple(self.seat_calls),
            contract=self.contract,
            declarers=self.declarers,
            trump=self.trump,
            called=None if self.called is None else format_card(self.called),
            partner=self.partner if self.partner_public else None,
            joiner_calls=tuple((s, format_card(c)) for s, c in self.joiner_calls.items()),
            turned=tuple(format_card(c) for c in self.turned),
            kitty_size=len(self.kitty),
            hand_sizes=tuple(len(h) for h in self.hands),
            fordaekt_laid=self.fordaekt is not None,
            doublings=self.doublings,
            events=tuple(self.events),
            redeal=self.redeal,
            trick=tuple((s, self._shown(c, seat)) for s, c in self.trick),
            tricks=self._tricks_shown(seat),
            tricks_won=tuple(self.tricks_won),
            open_hands=tuple((s, tuple(format_card(c) for c in self.hands[s])) for s in self.open_hands),
            scores=None if self.scores is None else tuple(self.scores),
            history=self.public_history(),
            received=tuple(NAMES[c] for c in self.received.get(seat, ())),
            discarded=tuple(NAMES[c] for c in self.discarded.get(seat, ())),
            fordaekt=NAMES[self.fordaekt] if self.fordaekt is not None and seat == self.declarers[0] else None,
        )

    def public_history(self) -> tuple[tuple[int, str], ...]:
        """The history as the table saw it: another seat's discards and fordækt card face down.

        Derived from ``history`` when a view asks for it (kept while no action is added), so that
        ``apply`` does no work for it.
        """
        cached: tuple[tuple[int, str], ...] | None = self.__dict__.get("_public")
        if cached is None or len(cached) != len(self.history):
            cached = tuple((seat, _face_down(action)) for seat, action in self.history)
            self.__dict__["_public"] = cached
        return cached

    def _tricks_shown(self, seat: int) -> tuple[tuple[int, tuple[str, ...], int], ...]:
        """The finished tricks as this seat sees them (kept between calls while no fordækt card hides)."""
        if self.fordaekt is not None:
            return tuple((t.leader, tuple(self._shown(c, seat) for c in t.cards), t.winner) for t in self.tricks)
        cached: tuple[tuple[int, tuple[str, ...], int], ...] | None = self.__dict__.get("_tricks_view")
        if cached is None or len(cached) != len(self.tricks):
            cached = tuple((t.leader, tuple(NAMES[c] for c in t.cards), t.winner) for t in self.tricks)
            self.__dict__["_tricks_view"] = cached
        return cached

    def _shown(self, card: Card, seat: int) -> str:
        """A played fordækt card lies face down (000 definitions, "Spille et kort"): only its owner sees it."""
        if card == self.fordaekt and seat != self.declarers[0]:
            return "fordækt"
        return NAMES[card]

    def clone(self) -> Game:
        """An independent copy that shares the (immutable) compiled rules.

        Copied by kind rather than by ``deepcopy``: the expert bot clones a game for every
        candidate action it weighs. Lists and dicts are copied (hands, lists of lists, one level
        deeper), the vip state with its lists; everything else a game holds is immutable, and an
        attribute of any other kind is deep-copied so that a new one can never be shared by mistake.
        """
        twin = object.__new__(Game)
        state: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key in DERIVED:
                continue
            kind = type(value)
            if key in _SHARED or kind in _IMMUTABLE or isinstance(value, _FROZEN):
                state[key] = value
            elif kind is list:
                state[key] = [list(item) if type(item) is list else item for item in value]
            elif kind is dict:
                state[key] = dict(value)
            elif kind is _Vip:
                state[key] = dataclasses.replace(value, joiners=list(value.joiners), deciders=list(value.deciders))
            else:
                state[key] = copy.deepcopy(value)
        twin.__dict__ = state
        twin._legal = None
        twin._contexts = {}
        return twin

    def snapshot(self) -> bytes:
        """The whole state as bytes: equal snapshots, equal games (the legal-action cache is derived)."""
        state = {k: v for k, v in self.__dict__.items() if k not in DERIVED and k not in ("rules", "ruleset")}
        return pickle.dumps(state)

    def cards_in_play(self) -> list[Card]:
        """Every card, wherever it is now: hands, kitty, discards, tricks (the deck is conserved)."""
        played = [c for trick in self.tricks for c in trick.cards] + [c for _, c in self.trick]
        return [c for hand in self.hands for c in hand] + self.kitty + self.discards + played

    # --- the machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """Move on until a seat has a real choice, or the deal is void or at the first lead."""
        while True:
            if self.phase == PLAY:
                self.step = _PLAY_STEPS[self.leader]
                return
            if self.phase == AUCTION:
                if self._auction_step():
                    return
            elif self.phase == DECLARATION:
                if self._declaration_step():
                    return
            elif self.phase == EXCHANGE:
                if self._exchange_step():
                    return
            else:
                self.step = None
                return

    # auction ----------------------------------------------------------------------------------

    def _offer_claims(self) -> list[tuple[int, tuple[str, ...], bool]]:
        """The claims each seat may make, in order: every seat's blind claims (before anyone looks
        at his cards), then each seat's claims its hand allows."""
        claims = self.rules.redeal_claims
        out: list[tuple[int, tuple[str, ...], bool]] = []
        for blind in (True, False):
            for seat in self.seats:
                offered = tuple(c.action for c in claims if c.blind == blind and c.allowed(self.hands[seat]))
                if offered:
                    out.append((seat, offered, blind))
        return out

    def blind(self) -> bool:
        """Whether a claim made before looking at the cards is pending: no seat sees its hand yet."""
        return bool(self.claims) and self.claims[0][2] and self.phase == AUCTION

    def _auction_step(self) -> bool:
        if self.claims:
            self.step = ("claim", self.claims[0][0])
            return True
        status = self._auction
        if status.to_act is not None:
            self.step = ("call", status.to_act)
            return True
        if status.highest is None:
            self._void("all_pass", self.rules.redealing.all_pass)
            return False
        assert status.holder is not None
        self.bid = status.highest
        self.declarers = (status.holder, *status.joiners)
        self.phase = DECLARATION
        plan = self.rules.declaration(ContractInfo(self.bid, self.declarers))
        self._declaration = list(plan.steps)
        if plan.trump is not None:
            self.trump = plan.trump
        return False

    def _legal_claim(self, seat: int) -> Sequence[str]:
        return (*self.claims[0][1], KEEP)

    def _do_claim(self, seat: int, action: str) -> None:
        self.claims.pop(0)
        if action != KEEP:
            claim = next(c for c in self.rules.redeal_claims if c.action == action)
            self._void(claim.rule, claim.redeal_by, seat)

    def _legal_call(self, seat: int) -> Sequence[str]:
        legal = self._auction.legal
        if not self.calls and seat == self.forhaand:
            legal += (MISDEAL,)  # the dealer's fault
            if self.rules.redealing.misdeal_names_culprit:  # 000 2.7: another player at fault pays the penalty
                legal += tuple(f"{MISDEAL} {s}" for s in self.seats if s != self.dealer)
        return legal

    def _do_call(self, seat: int, action: str) -> None:
        if action.startswith(MISDEAL):
            culprit = int(action.split()[1]) if " " in action else self.dealer
            self._void("misdeal", self.rules.redealing.misdeal, culprit)
            return
        self._auction = self.rules.auction.advance(self._auction, action)
        self.calls.append(action)
        self.seat_calls.append((seat, action))

    def _void(self, reason: str, redeal_by: RedealBy, seat: int | None = None) -> None:
        following = next_dealer(redeal_by, self.dealer, SEATS)
        self.redeal = Redeal(reason, following, seat)
        self.claims = []
        self.phase = REDEAL
        self.events.append(f"redeal ({reason}): seat {following} deals")

    # declaration ------------------------------------------------------------------------------

    def _designation_id(self) -> str:
        assert self.bid is not None and self.bid.designation is not None
        return self.bid.designation

    def _seat_for(self, seat: int) -> int:
        """A step's seat: ``PARTNER`` is the partner, or the declarer when he is selvmakker."""
        if seat != PARTNER:
            return seat
        if self.partner is None:
            self._find_partner()
        return self.partner if self.partner is not None else self.declarers[0]

    def _declaration_step(self) -> bool:
        while self._declaration:
            kind, seat = self._declaration[0]
            if kind == "reveal":
                self._declaration.pop(0)
                self._reveal_partner()
                continue
            seat = self._seat_for(seat)
            if kind == "kitty":
                if self._vip_step(seat):
                    return True
                self._declaration.pop(0)
                continue
            if kind == "exchanger" and self.partner is None:
                self._declaration.pop(0)  # a selvmakker has no one to choose between
                continue
            self.step = (_DECLARATION_KINDS[kind], seat)
            return True
        self._find_partner()
        self.phase = EXCHANGE
        self._plan_exchange()
        return False

    def _legal_trump(self, seat: int) -> Sequence[str]:
        return tuple(f"trump {d}" for d in self.rules.trump_choices(self._designation_id(), self.called))

    def _do_trump(self, seat: int, action: str) -> None:
        self._declaration.pop(0)
        self.trump = cast(Denomination, action.split()[1])  # one of the legal "trump X" actions

    def _legal_trump_or_vip(self, seat: int) -> Sequence[str]:
        return (*self._legal_trump(seat), VIP)

    def _do_trump_or_vip(self, seat: int, action: str) -> None:
        if action == VIP:  # jeberg.eu: "Makkeren kan også vælge at vippe"
            self._declaration[0] = ("kitty", seat)
            self.events.append(f"seat {seat} vips")
        else:
            self._do_trump(seat, action)

    def _legal_exchanger(self, seat: int) -> Sequence[str]:
        return tuple(f"{EXCHANGER} {s}" for s in dict.fromkeys((self.declarers[0], seat)))

    def _do_exchanger(self, seat: int, action: str) -> None:
        self._declaration.pop(0)
        self.exchanger = int(action.split()[1])
        self.events.append(f"seat {self.exchanger} exchanges")

    def _legal_call_card(self, seat: int) -> Sequence[str]:
        choices = self.rules.call_choices(self.hands[seat], self._designation_id(), self.trump)
        return tuple(f"call {NAMES[c]}" for c in choices)

    def _do_call_card(self, seat: int, action: str) -> None:
        self._declaration.pop(0)
        card = CARDS[action[len("call ") :]]  # one of the legal "call X" actions
        if seat == self.declarers[0]:
            self.called = card
        else:
            self.joiner_calls[seat] = card

    def _reveal_partner(self) -> None:
        """The holder of the called card shows himself at once (halve: 000 4.2.2; 001)."""
        self._find_partner()
        self.partner_public = self.partner is not None

    def _find_partner(self) -> None:
        """The partner holds the called card; nobody else holding it makes a selvmakker (000 4.2.4)."""
        self.partner = None
        if self.called is None or self.bid is None or self.bid.is_sol:
            return
        for seat in self.seats:
            if seat != self.declarers[0] and self.called in self.hands[seat]:
                self.partner = seat

    # vip: turning the kitty ---------------------------------------------------------------------

    def _vip_step(self, seat: int) -> bool:
        """Turn kitty cards until someone has a choice (True) or a card is accepted (False).

        The seat that vips decides first; when it is the declarer, his joiners after him (000 4.3.4).
        """
        if self._vip is None:
            joiners = list(self.declarers[1:]) if seat == self.declarers[0] else []
            self._vip = _Vip(self._designation_id(), seat, joiners)
        vip = self._vip
        while True:
            if not vip.deciders:
                vip.number += 1
                card = self.kitty[vip.number - 1]
                self.turned.append(card)
                vip.offer = offer = self.rules.vip(vip.designation, self.turned)
                self.events.append(f"kitty card {vip.number} turned: {format_card(card)}")
                if offer.turn == "cannot_accept":
                    self.events.append(f"kitty card {vip.number} cannot be accepted")
                    continue
                vip.deciders = [vip.original, *vip.joiners]
                vip.forced_last = offer.turn == "must_accept"
            assert vip.offer is not None
            if vip.forced_last and len(vip.deciders) == 1 and len(vip.offer.accepts) == 1:
                seat = vip.deciders[0]
                self.events.append(f"seat {seat} must accept kitty card {vip.number}")
                self._vip_accept(seat, vip.offer.accepts[0][1])
                return False
            self.step = ("vip", vip.deciders[0])
            return True

    def _legal_vip(self, seat: int) -> Sequence[str]:
        vip = self._vip
        assert vip is not None and vip.offer is not None
        accepts = tuple(action for action, _ in vip.offer.accepts)
        return accepts if vip.forced_last and len(vip.deciders) == 1 else (*accepts, REJECT)

    def _do_vip(self, seat: int, action: str) -> None:
        vip = self._vip
        assert vip is not None and vip.offer is not None
        if action == REJECT:
            vip.deciders.pop(0)
            return
        self._vip_accept(seat, dict(vip.offer.accepts)[action])
        self._declaration.pop(0)

    def _vip_accept(self, seat: int, trump: Denomination) -> None:
        """000 4.3.2: the accepted card decides trump (its suit; a wild card no trump)."""
        assert self._vip is not None
        self.trump = trump
        self.vip_card = self._vip.number
        self._vip.deciders = []
        if seat not in (self.declarers[0], self.partner):
            # 000 4.3.4: "Hvis en af medgængerne antager et kort, bliver denne spilfører."
            self.called = self.joiner_calls[seat]
            self.events.append(f"seat {seat} takes over the contract")
            self.declarers = (seat,)
        elif seat == self.declarers[0]:
            self.declarers = (seat,)

    # exchange, fordækt, doubling ----------------------------------------------------------------

    def _contract_info(self) -> ContractInfo:
        assert self.bid is not None
        return ContractInfo(self.bid, self.declarers, self.partner if self.partner_public else None, self.exchanger)

    def _plan_exchange(self) -> None:
        plan = self.rules.exchange(self._contract_info())
        self._exchange_plan = plan
        self._exchange = list(plan.turns)
        self._pass_on = plan.leftover_passes_clockwise

    def _exchange_step(self) -> bool:
        """The exchange turns, then fordækt, then doubling; then the first lead."""
        while self._exchange:
            turn = self._exchange[0]
            if self.kitty and any(0 < k <= len(self.kitty) for k in turn.counts):
                self.step = ("exchange", turn.seat)
                return True
            self._exchange.pop(0)
        if self._pass_on and self.kitty and self._exchanged:
            nxt = self._next_pass_on()
            if nxt is not None:  # Whistklubben: what he leaves passes to the next player clockwise
                self._exchange.append(ExchangeTurn(nxt, tuple(range(len(self.kitty) + 1)), False))
                return self._exchange_step()
        if self._fordaekt_offer is None:
            self._fordaekt_offer = self._fordaekt_seat()
        if self._fordaekt_offer is not None and self._fordaekt_offer >= 0:
            self.step = ("fordaekt", self._fordaekt_offer)
            return True
        if self._doublers is None:
            self._doublers = self._who_may_double()
        if self._doublers:
            self.step = ("double", self._doublers[0])
            return True
        if self._redouble:
            self.step = ("redouble", self.declarers[0])
            return True
        self._find_partner()
        assert self.bid is not None
        self._playing = ContractInfo(self.bid, self.declarers, self.partner)  # what the play rules see
        self._facts = self._play_facts()
        self.phase = PLAY
        return False

    def _next_pass_on(self) -> int | None:
        start = self._exchanged[-1]
        for offset in range(1, SEATS):
            seat = (start + offset) % SEATS
            if seat not in self._exchanged and seat not in [t.seat for t in self._exchange]:
                return seat
        return None

    def exchange_counts(self) -> tuple[int, ...]:
        """How many cards the seat now exchanging may discard."""
        return self._exchange[0].counts if self._exchange else ()

    def _legal_exchange(self, seat: int) -> Sequence[str]:
        turn = self._exchange[0]
        protected = self.called if not self._exchange_plan.called_card_may_be_discarded else None
        # 001: "Makker-esset må ikke lægges i katten"; the hand is kept in canonical order.
        names = [NAMES[c] for c in self.hands[seat] if c != protected]
        keep = (KEEP,) if 0 in turn.counts and not turn.compulsory else ()
        return Discards(keep, names, [count for count in turn.counts if 0 < count <= len(self.kitty)])

    def _do_exchange(self, seat: int, action: str) -> None:
        turn = self._exchange.pop(0)
        self._exchanged.append(turn.seat)
        if action == KEEP:
            return
        cards = [CARDS[name] for name in action.split()[1:]]  # one of the legal discards: canonical
        taken, untaken = self.kitty[: len(cards)], self.kitty[len(cards) :]
        self.received[seat] = tuple(taken)
        self.discarded[seat] = tuple(cards)
        hand = [c for c in self.hands[seat] if c not in cards] + taken
        self.hands[seat] = sorted(hand, key=HAND_ORDER.__getitem__)
        if self._exchange_plan.discards_become_kitty and self._exchange:
            self.kitty = cards + untaken  # 000 5.2.4: "De tre afkastede kort bliver ny kat"
        else:
            self.discards.extend(cards)
            self.kitty = untaken
        self.events.append(f"seat {seat} exchanged {len(cards)} card(s)")

    def _fordaekt_seat(self) -> int:
        """The declarer, if the fordækt rule lets him lay a card face down now; -1 when nobody may."""
        declarer = self.declarers[0]
        allowed = self.rules.fordaekt(self._contract_info(), self.called, self.hands[declarer])
        return declarer if allowed else -1

    def _legal_fordaekt(self, seat: int) -> Sequence[str]:
        return (NO_FORDAEKT, *(f"fordækt {NAMES[c]}" for c in self.hands[seat]))

    def _do_fordaekt(self, seat: int, action: str) -> None:
        self._fordaekt_offer = -1
        if action != NO_FORDAEKT:
            self.fordaekt = parse_card(action.split()[1])
            self.events.append(f"seat {seat} lays a card fordækt")

    def _who_may_double(self) -> list[int]:
        assert self.bid is not None
        contract = ContractInfo(self.bid, self.declarers, self.partner)
        return list(self.rules.doubling.doublers(contract, self.seats))

    def _legal_double(self, seat: int) -> Sequence[str]:
        return (PASS, DOUBLE)

    def _do_double(self, seat: int, action: str) -> None:
        assert self._doublers is not None
        self._doublers.pop(0)
        if action == DOUBLE:  # once per deal (rules-matrix.md section 9)
            self.doublings = 1
            self._doublers = []
            self._redouble = self.rules.doubling.redouble

    def _legal_redouble(self, seat: int) -> Sequence[str]:
        return (PASS, REDOUBLE)

    def _do_redouble(self, seat: int, action: str) -> None:
        self._redouble = False
        if action == REDOUBLE:
            self.doublings = 2

    # play -----------------------------------------------------------------------------------

    def _suit(self, card: Card) -> int:
        """The suit a card counts in: the fordækt card in the partner card's suit (000 6.1.1)."""
        if card == self.fordaekt and self.called is not None:
            return suit_of(self.called)
        return suit_of(card)

    def trick_context(self, seat: int) -> TrickContext:
        """What besides the hand decides ``seat``'s legal cards now.

        It changes only when a trick ends or the partner card falls, so it is kept until then.
        """
        exempt = not self.rules.called_card_binds(seat, self._playing)
        context = self._contexts.get(exempt)
        if context is None:
            context = self._contexts[exempt] = self._new_trick_context(exempt)
        return context

    def _new_trick_context(self, exempt: bool) -> TrickContext:
        trump, sol, fordaekt = self._play_facts()
        called = None if sol or self.called_played or exempt else self.called
        return TrickContext(trump, sol, not self.tricks, called, self.called_suit_led, fordaekt)

    def _play_facts(self) -> tuple[int | None, bool, tuple[Card, int] | None]:
        """The trump suit, whether it is sol, and the fordækt card with the suit it counts in:
        fixed once play begins, so worked out once then."""
        if self.phase == PLAY:
            return self._facts
        trump = None if self.trump in (None, "none") else SUIT_LETTERS.index(self.trump)
        fordaekt = None
        if self.fordaekt is not None and self.called is not None:
            fordaekt = (self.fordaekt, suit_of(self.called))
        return trump, self.bid is not None and self.bid.is_sol, fordaekt

    def _legal_play(self, seat: int) -> Sequence[str]:
        cards = self.rules.legal_cards(self.hands[seat], self._trick_cards, self.trick_context(seat))
        return tuple([NAMES[c] for c in cards])

    def _do_play(self, seat: int, action: str) -> None:
        card = CARDS[action]
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self._trick_cards.append(card)
        if card == self.called:
            self.called_played = True
            self._contexts.clear()
            self.partner_public = self.partner is not None  # 001: "Først når esset bliver spillet, ved alle"
            self.events.append(f"seat {seat} plays the partner card {format_card(card)}")
        if len(trick) == 1:
            if not self.tricks:
                self._open_hands("after_first_lead")
        elif len(trick) == SEATS:
            self._end_trick()
            if self.phase != PLAY:
                self._advance()
                return
            seat = self.leader - 1  # the winner leads the next trick
        self.step = _PLAY_STEPS[(seat + 1) % SEATS]

    def _end_trick(self) -> None:
        trick = self.trick
        leader = trick[0][0]
        cards = tuple(self._trick_cards)
        context = self.trick_context(leader)
        winner = trick[self.rules.trick_winner(cards, context.trump, context.sol, context.fordaekt)][0]
        if not self.called_suit_led and self.called is not None and self._suit(cards[0]) == suit_of(self.called):
            self.called_suit_led = True
        self.tricks.append(Trick(leader, cards, winner))
        self._contexts.clear()
        self.tricks_won[winner] += 1
        self.leader = winner
        self.trick = []
        self._trick_cards = []
        if len(self.tricks) == 1:
            self._open_hands("after_first_trick")
        if self.rules.play_over(self._playing, self.tricks_won, len(self.tricks)):
            self._finish()

    def _open_hands(self, moment: Moment) -> None:
        seats = self.rules.open_hands(self._playing, moment)
        if seats:
            self.open_hands = seats
            self.events.append("the declarer's cards lie open: " + ", ".join(f"seat {s}" for s in self.declarers))

    def _finish(self) -> None:
        """Score the deal: every seat's points, summing to zero (000 7.1.2)."""
        assert self.bid is not None
        contract = ContractInfo(self.bid, self.declarers, self.partner)
        self.scores = self.rules.settle(contract, self.tricks_won, self.vip_card, self.doublings)
        self.partner_public = self.partner is not None
        self.phase = FINISHED
        self.events.append("the deal is over")

    # helpers ----------------------------------------------------------------------------------

    def _violation(self, kind: str, seat: int, action: str) -> RuleViolation:
        from regelmotor.engine.explain import violation

        return violation(self, kind, seat, action)


def _face_down(action: str) -> str:
    """An action as the other seats see it: which cards were discarded or laid fordækt is hidden."""
    if action.startswith("discard "):
        return "discard" + " ?" * action.count(" ")
    if action.startswith("fordækt "):
        return "fordækt ?"
    return action


_SHARED = frozenset({"rules", "ruleset", "initial_hands", "initial_kitty", "seats"})
_IMMUTABLE = frozenset({int, str, bool, tuple, frozenset, Fraction, type(None)})
_FROZEN = (tuple, Bid, Redeal, ContractInfo, ExchangePlan, ExchangeTurn)
"""Immutable kinds of value a game holds (named tuples are tuples; the dataclasses are frozen)."""

_SEAT_ORDERS = tuple(tuple((dealer + i) % SEATS for i in range(1, SEATS + 1)) for dealer in range(SEATS))
"""Dealer -> the seats in calling order, forhånd (the dealer's left) first."""
_PLAY_STEPS = tuple(("play", seat) for seat in range(SEATS))
_KINDS = (
    "claim",
    "call",
    "trump",
    "trump_or_vip",
    "call_card",
    "vip",
    "exchanger",
    "exchange",
    "fordaekt",
    "double",
    "redouble",
    "play",
)
_DECLARATION_KINDS = {
    "trump": "trump",
    "call": "call_card",
    "trump_or_vip": "trump_or_vip",
    "exchanger": "exchanger",
}
"""A declaration step -> the kind of step a seat takes for it."""
_LEGAL: dict[str, Callable[[Game, int], Sequence[str]]] = {kind: getattr(Game, f"_legal_{kind}") for kind in _KINDS}
"""Step kind -> the method listing its legal actions (looked up once, not per action)."""
_DO: dict[str, Callable[[Game, int, str], None]] = {kind: getattr(Game, f"_do_{kind}") for kind in _KINDS}
"""Step kind -> the method that applies one of its actions."""
