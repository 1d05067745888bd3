"""The declaration phase: trump, the partner card, the partner's reveal, vip (turning the kitty), who exchanges."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from regelmotor.bids import Bid
from regelmotor.cards import Card
from regelmotor.engine.actions import (
    REJECT_ACTION,
    VIP_ACTION,
    Action,
    Verb,
    accept_action,
    partner_card,
    seat_action,
    trump,
)
from regelmotor.engine.notes import Note
from regelmotor.engine.state import (
    EXCHANGE,
    State,
    StepKind,
    Vip,
)
from regelmotor.hooks import (
    PARTNER,
    Denomination,
    VipOffer,
)

if TYPE_CHECKING:
    from regelmotor.ruleset.compile import Rules

STEP_KINDS = {
    "trump": StepKind.TRUMP,
    "call": StepKind.CALL_CARD,
    "trump_or_vip": StepKind.TRUMP_OR_VIP,
    "exchanger": StepKind.EXCHANGER,
}
"""A declaration step (``hooks.DeclarationStep``) -> the kind of step a seat takes for it."""


def trump_actions(rules: Rules, designation: str, called: Card | None) -> tuple[Action, ...]:
    """The trumps the declaration offers, as actions (the phase's legal actions, and a sampled deal's
    choices where the expert settles one without a ``Game``)."""
    return tuple([trump(d) for d in rules.declaration.trump_choices(designation, called)])


def call_card_actions(
    rules: Rules, hand: Sequence[Card], designation: str, trump_suit: Denomination | None
) -> tuple[Action, ...]:
    """The partner cards a hand may call, as actions."""
    return tuple([partner_card(c) for c in rules.declaration.call_choices(hand, designation, trump_suit)])


def exchanger_actions(declarer: int, seat: int) -> tuple[Action, ...]:
    """Who may exchange, where the partner ``seat`` chooses: the declarer or himself."""
    return tuple([seat_action(Verb.EXCHANGER, s) for s in dict.fromkeys((declarer, seat))])


def vip_actions(offer: VipOffer, forced: bool) -> tuple[Action, ...]:
    """A decider's choices on a turned kitty card: accept it (each way the offer names), or turn the next,
    but where he is the last to decide on a card that must be accepted (``forced``)."""
    accepts = tuple([accept_action(text) for text, _ in offer.accepts])
    return accepts if forced else (*accepts, REJECT_ACTION)


def vip_trump(offer: VipOffer, action: Action) -> Denomination:
    """The trump an accepting action makes (000 4.3.2: the card's suit, a joker no trump)."""
    made = {accept_action(text): denomination for text, denomination in offer.accepts}
    return made[action]  # the offer names its accepting actions in the notation


def partner_now(
    bid: Bid | None,
    called: Card | None,
    partner: int | None,
    hands: Sequence[Sequence[Card]],
    declarers: Sequence[int],
    seats: Sequence[int],
) -> int | None:
    """The partner holds the called card; nobody else holding it makes a selvmakker (000 4.2.4). With no
    partner card called yet, or in a sol, ``partner`` stands: none, or the one the contract fixed (fixed
    partnerships)."""
    if called is None or bid is None or bid.is_sol:
        return partner
    found = None
    for seat in seats:
        if seat != declarers[0] and called in hands[seat]:
            found = seat
    return found


class DeclarationPhase(State):
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
            self.step = (STEP_KINDS[kind], seat)
            return True
        self._find_partner()
        self.phase = EXCHANGE
        self._plan_exchange()
        return False

    def _legal_trump(self, seat: int) -> Sequence[Action]:
        return trump_actions(self.rules, self._designation_id(), self.called)

    def _do_trump(self, seat: int, action: Action) -> None:
        self._declaration.pop(0)
        self.trump = action.trump

    def _legal_trump_or_vip(self, seat: int) -> Sequence[Action]:
        return (*self._legal_trump(seat), VIP_ACTION)

    def _do_trump_or_vip(self, seat: int, action: Action) -> None:
        if action.verb is Verb.VIP:  # jeberg.eu: "Makkeren kan også vælge at vippe"
            self._declaration[0] = ("kitty", seat)
            self.events.append(Note.said("vips", seat=seat))
        else:
            self._do_trump(seat, action)

    def _legal_exchanger(self, seat: int) -> Sequence[Action]:
        return exchanger_actions(self.declarers[0], seat)

    def _do_exchanger(self, seat: int, action: Action) -> None:
        self._declaration.pop(0)
        self.exchanger = action.seat
        self.events.append(Note.said("exchanger", seat=self.exchanger))

    def _legal_call_card(self, seat: int) -> Sequence[Action]:
        return call_card_actions(self.rules, self.hands[seat], self._designation_id(), self.trump)

    def _do_call_card(self, seat: int, action: Action) -> None:
        self._declaration.pop(0)
        card = action.card
        assert card is not None
        if seat == self.declarers[0]:
            self.called = card
        else:
            self.joiner_calls[seat] = card

    def _reveal_partner(self) -> None:
        """The holder of the called card shows himself at once where the declaration says so (000 4.2.2; 001)."""
        self._find_partner()
        self.partner_public = self.partner is not None

    def _find_partner(self) -> None:
        """Who the partner is now (``partner_now``)."""
        self.partner = partner_now(self.bid, self.called, self.partner, self.hands, self.declarers, self.seats)

    # vip: turning the kitty ---------------------------------------------------------------------

    def _vip_step(self, seat: int) -> bool:
        """Turn kitty cards until someone has a choice (True) or a card is accepted (False).

        The seat that vips decides first; when it is the declarer, his joiners after him (000 4.3.4).
        """
        if self._vip is None:
            joiners = list(self.declarers[1:]) if seat == self.declarers[0] else []
            self._vip = Vip(self._designation_id(), seat, joiners)
        vip = self._vip
        while True:
            if not vip.deciders:
                vip.number += 1
                card = self.kitty[vip.number - 1]
                self.turned.append(card)
                vip.offer = offer = self.rules.declaration.vip(vip.designation, self.turned)
                self.events.append(Note.said("kitty_turned", number=vip.number, card=card))
                if offer.turn == "cannot_accept":
                    self.events.append(Note.said("kitty_refused", number=vip.number))
                    continue
                vip.deciders = [vip.original, *vip.joiners]
                vip.forced_last = offer.turn == "must_accept"
            assert vip.offer is not None
            if vip.forced_last and len(vip.deciders) == 1 and len(vip.offer.accepts) == 1:
                seat = vip.deciders[0]
                self.events.append(Note.said("kitty_forced", seat=seat, number=vip.number))
                self._vip_accept(seat, vip.offer.accepts[0][1])
                return False
            self.step = (StepKind.VIP, vip.deciders[0])
            return True

    def _legal_vip(self, seat: int) -> Sequence[Action]:
        vip = self._vip
        assert vip is not None and vip.offer is not None
        return vip_actions(vip.offer, vip.forced_last and len(vip.deciders) == 1)

    def _do_vip(self, seat: int, action: Action) -> None:
        vip = self._vip
        assert vip is not None and vip.offer is not None
        if action.verb is Verb.REJECT:
            vip.deciders.pop(0)
            return
        self._vip_accept(seat, vip_trump(vip.offer, action))
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
            self.events.append(Note.said("takes_over", seat=seat))
            self.declarers = (seat,)
        elif seat == self.declarers[0]:
            self.declarers = (seat,)
