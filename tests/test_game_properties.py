"""Property tests over every shipped ruleset and every house rule it accepts: random legal play from
random deals reaches the first lead or a redeal; what legal_actions() offers, apply() takes; what it
refuses changes nothing; the deck is conserved; views hide what they must; records replay."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from regelmotor.bids import fold
from regelmotor.cards import format_card
from regelmotor.engine.actions import canonical
from regelmotor.engine.game import Game, PlayObservation, View
from regelmotor.errors import NotationError, RuleViolation
from regelmotor.records import Record, game_record, replay, state_json
from regelmotor.web.tables import view_json

from .conftest import CONFIGS, offered, rules_of

GAMES = 40
"""Deals per configuration (every ruleset with each house rule that applies: about sixty)."""
QUIET = 3
"""Every third deal is played at a quiet table, where a call is a pass nine times in ten: all pass, and the
redeal after it, comes up in every configuration without playing more deals."""
CANDIDATES = [
    *(format_card(c) for c in range(55)),
    "pass", "7", "8 vip", "9 gode", "13 halve", "sol", "ren sol", "gå med", "selv", "jernhånd", "keep", "misdeal",
    "accept", "reject", "trump S", "trump C", "trump none", "call AS", "call KH", "call 2C",
    "discard 2S 3S 4S", "discard AS", "fordækt AS", "no fordækt", "double", "redouble", "xyz", "trump X",
    "omblanding", "vip", "exchanger 0", "exchanger 2", "accept S", "accept H",
]  # fmt: skip
CARD = re.compile(r"\b(?:[AKQJT2-9][SHDC]|JK[123])\b")


def _canonical(action: str, game: Game, folded: dict[str, str]) -> str | None:
    """The legal action ``action`` names, as the engine reads a person's spelling (a claim's name in any
    case); ``folded``: each legal action's folded spelling."""
    named = folded.get(fold(action))
    if named is not None:
        return named
    try:
        return canonical(action, game.rules.auction.ladder)
    except NotationError:
        return None


def _usual(legal: list[str], rng: random.Random, passing: float = 0.5) -> str:
    """Passing half the time gives every kind of contract a fair chance (``passing``: more often at a quiet
    table); a claim (omblanding, jernhånd) is kept nine times in ten, so that most deals reach the auction."""
    if "keep" in legal and rng.random() < 0.9 and not any(a.startswith("discard") for a in legal):
        return "keep"
    return "pass" if "pass" in legal and rng.random() < passing else rng.choice(legal)


def check_view(game: Game) -> None:
    """view(seat) shows its own hand and the public cards only; the partner only when revealed (halve)."""
    public = {format_card(c) for c in game.turned}
    if game.called is not None:
        public.add(format_card(game.called))
    public |= {format_card(c) for c in game.joiner_calls.values()}
    if game.trump_card is not None:  # 002: "giverens sidste kort lægges på bordet med billedsiden op"
        public.add(format_card(game.trump_card))
    public |= {card for _, action in game.public_history() for card in CARD.findall(str(action))}  # said aloud
    for seat in range(4):
        view = game.view(seat)
        own = {format_card(c) for c in game.hands[seat]}
        assert {format_card(c) for c in view.hand} == (set() if game.blind() else own)  # omblanding: not looked
        written = {key: value for key, value in view_json(view).items() if key != "legal_actions"}
        shown = set(CARD.findall(json.dumps(written)))  # every card the view carries, in the notation
        # what a seat discarded it still knows (and only it: others see "discard ? ? ?")
        own |= {format_card(c) for c in game.discarded.get(seat, ())}
        assert shown <= own | public, f"seat {seat} sees {sorted(shown - own - public)}"
        if not game.partner_public:
            assert view.partner is None


def test_every_field_of_a_view_that_can_hold_a_card_is_written_out_where_the_leak_check_reads_it() -> None:
    """check_view reads a view's cards from ``view_json``: so every field of ``View`` and of its play is
    written there (the engine's notes aside, which hold no card; the two flags of the play hold none)."""
    game = Game.from_seed(rules_of("standard"), 1, dealer=0)
    written = set(view_json(game.view(0)))
    fields = {f.name for f in dataclasses.fields(View)} - {"events", "play"}
    play = {f.name for f in dataclasses.fields(PlayObservation)} - {"called_played", "called_suit_led"}
    assert fields | play <= written, sorted(fields | play - written)


@pytest.mark.parametrize(("name", "house"), CONFIGS, ids=[f"{n}+{h}" if h else n for n, h in CONFIGS])
def test_random_legal_play_reaches_the_first_lead_or_a_redeal(name: str, house: str | None) -> None:
    houses = (house,) if house else ()
    rules = rules_of(name, *houses)
    rng = random.Random(f"{name}{house}")
    deck_size = 52 + rules.ruleset.deck.jokers
    ends = set()
    for number in range(GAMES):
        game = Game.from_seed(rules, rng.randrange(2**32), dealer=number % 4)
        for _ in range(200):
            if game.phase in ("play", "redeal"):
                break
            legal = offered(game)
            assert legal, f"no legal action in {game.phase}"
            before = game.snapshot()  # the state each trial below must leave as it found it
            for action in rng.sample(legal, min(3, len(legal))):  # what is offered is taken, on a copy
                trial = game.clone()
                trial.apply(action)
                assert game.snapshot() == before  # the copy shares nothing the action changes
            folded: dict[str, str] = {}
            for spelled in reversed(legal):  # the first legal action of a spelling, as a search would find
                folded[fold(spelled)] = spelled
            for action in rng.sample(CANDIDATES, 4):  # what is refused changes nothing
                if _canonical(action, game, folded) in legal:
                    continue
                with pytest.raises((RuleViolation, NotationError)):
                    game.apply(action)
                assert game.snapshot() == before
            game.apply(_usual(legal, rng, 0.9 if number % QUIET == 0 else 0.5))
            assert sorted(game.cards_in_play()) == list(range(deck_size))
            check_view(game)
        else:
            pytest.fail("a deal did not reach the first lead within 200 actions")
        ends.add(game.phase)
        if number % 10 == 0:  # a record of the game replays to the same state
            again = replay(Record.model_validate(game_record(game, name, houses))).game
            assert state_json(again) == state_json(game) and again.hands == game.hands
    if rules.dealing.redealing.all_pass is not None:
        assert ends == {"play", "redeal"}
    else:  # all pass plays a game (pasnolo), or nobody bids (engelsk whist): a redeal needs a misdeal or a claim
        assert "play" in ends and ends <= {"play", "redeal"}
