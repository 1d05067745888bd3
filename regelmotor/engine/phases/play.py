"""The play phase: legal cards, tricks, open hands, and the settlement when play is over."""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import SUIT_LETTERS, Card, suit_of
from regelmotor.engine.actions import DOUBLE_ACTION, PLAYS, REDOUBLE_ACTION, Action
from regelmotor.engine.notes import Note
from regelmotor.engine.state import (
    FINISHED,
    PLAY,
    PLAY_STEPS,
    SEATS,
    State,
    Trick,
)
from regelmotor.hooks import (
    ContractInfo,
    Moment,
    TrickContext,
)
from regelmotor.phrase_table import seat_no


class PlayPhase(State):
    def trick_context(self, seat: int) -> TrickContext:
        """What besides the hand decides ``seat``'s legal cards now.

        It changes only when a trick ends or the partner card falls, so it is kept until then.
        """
        exempt = not self.rules.play.called_card_binds(seat, self._playing)
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
        return trump, self.sol_order, fordaekt

    def _legal_play(self, seat: int) -> Sequence[Action]:
        cards = self.rules.play.legal_cards(self.hands[seat], self._trick_cards, self.trick_context(seat))
        plays = tuple([PLAYS[c] for c in cards])
        if len(self.tricks) < self.rules.declaration.doubling.during_tricks:
            return plays + self._doubling_in_play(seat)
        return plays

    def _doubling_in_play(self, seat: int) -> tuple[Action, ...]:
        """A doubling at one's turn to play, in the first tricks where the ruleset allows it ("banke"):
        a seat the doubling rule lets double, while nobody has; the declarer's redouble after it."""
        if self.doublings == 0 and seat in self._may_double:
            return (DOUBLE_ACTION,)
        if (
            self.doublings == 1
            and self.rules.declaration.doubling.redouble
            and self.declarers
            and seat == self.declarers[0]
        ):
            return (REDOUBLE_ACTION,)
        return ()

    def _do_play(self, seat: int, action: Action) -> None:
        card = action.card
        if card is None:  # a doubling made at one's turn to play: the same seat then plays its card
            self.doublings += 1
            self.events.append(Note.said("doubled_in_play" if self.doublings == 1 else "redoubled_in_play", seat=seat))
            return
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self._trick_cards.append(card)
        if card == self.called:
            self.called_played = True
            self._contexts.clear()
            self.partner_public = self.partner is not None  # 001: "Først når esset bliver spillet, ved alle"
            self.events.append(Note.said("partner_card_played", seat=seat, card=card))
        if len(trick) == 1:
            if not self.tricks:
                self._open_hands("after_first_lead")
        elif len(trick) == SEATS:
            self._end_trick()
            if self.phase != PLAY:
                self._advance()
                return
            seat = self.leader - 1  # the winner leads the next trick
        self.step = PLAY_STEPS[(seat + 1) % SEATS]

    def _end_trick(self) -> None:
        trick = self.trick
        leader = trick[0][0]
        cards = tuple(self._trick_cards)
        context = self.trick_context(leader)
        winner = trick[self.rules.play.trick_winner(cards, context.trump, context.sol, context.fordaekt)][0]
        if not self.called_suit_led and self.called is not None:
            self.called_suit_led = self.rules.play.leads_called_suit(cards[0], self.called, context.fordaekt)
        self.tricks.append(Trick(leader, cards, winner))
        self._contexts.clear()
        self.tricks_won[winner] += 1
        self.leader = winner
        self.trick = []
        self._trick_cards = []
        if len(self.tricks) == 1:
            self._open_hands("after_first_trick")
        if self.rules.play.play_over(self._playing, self.tricks_won, len(self.tricks)):
            self._finish()

    def _open_hands(self, moment: Moment) -> None:
        seats = self.rules.play.open_hands(self._playing, moment)
        if seats:
            self.open_hands = seats
            self.events.append(Note.said("open_hands", seats=", ".join(str(seat_no(s)) for s in self.declarers)))

    def _finish(self) -> None:
        """Score the deal: every seat's points, summing to zero (000 7.1.2)."""
        assert self.bid is not None
        contract = ContractInfo(self.bid, self.declarers, self.partner)
        self.scores = self.rules.scoring.settle(contract, self.tricks_won, self.vip_card, self.doublings)
        self.partner_public = self.partner is not None
        self.phase = FINISHED
        self.events.append(Note.said("deal_over"))
