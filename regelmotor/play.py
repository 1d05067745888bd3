"""Play in the terminal against three computer players.

The person sits at one seat and sees only what that seat may see (``view``); the three other
seats are computer players (heuristic unless ``--bots`` says otherwise). Input is typed in the
notation or chosen by number; anything the rules refuse is answered with the rule's name and
changes nothing. ``quit``, end of input or Ctrl-C end cleanly, and every deal is saved as a
record ``regelmotor replay`` accepts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from regelmotor.bots import make_bot
from regelmotor.cards import SUIT_SYMBOLS, parse_card, suit_of
from regelmotor.engine.game import FINISHED, Game, View
from regelmotor.engine.record import game_record, points
from regelmotor.errors import NotationError, RuleViolation
from regelmotor.ruleset.compile import Rules
from regelmotor.session import GAME_DEALER, Session

QUIT = {"quit", "exit", "q", "afslut"}


class _Quit(Exception):
    pass


def _hand_by_suit(view: View) -> str:
    groups: list[list[str]] = [[], [], [], [], []]
    for text in view.hand:
        groups[suit_of(parse_card(text))].append(text[:-1] if not text.startswith("JK") else text)
    parts = [f"{SUIT_SYMBOLS[s]} {' '.join(cards)}" for s, cards in enumerate(groups[:4]) if cards]
    if groups[4]:
        parts.append(" ".join(groups[4]))
    return "   ".join(parts)


YOU = 0
"""The person is player 0 of the session."""


class TerminalGame:
    def __init__(
        self,
        rules: Rules,
        label: str,
        ruleset_ref: str,
        house_rules: list[str],
        *,
        seed: int,
        seat: int,
        record: Path,
        read: Callable[[str], str],
        out: TextIO,
        bots: str = "heuristic",
    ) -> None:
        self.rules = rules
        self.label = label
        self.ruleset_ref = ruleset_ref
        self.house_rules = house_rules
        self.seed = seed
        self.seat = seat
        self.record = record
        self.read = read
        self.out = out
        self.bots = bots
        # The person is player 0 and keeps a chair; the deal passes round, so the seat in each deal
        # (seat 0 forhånd, 3 the dealer) moves. ``seat`` is the person's seat in the first deal.
        self.session = Session(rules, ["Du", "Bot 1", "Bot 2", "Bot 3"], first_dealer=(GAME_DEALER - seat) % 4)
        self.rng = random.Random(seed)
        self.saved: list[Path] = []

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def run(self) -> int:
        self.say(
            f"regelmotor: {self.label}. Du sidder på plads {self.seat} i første spil (pladserne skifter, når "
            "kortene går rundt); skriv et træk eller dets nummer, 'quit' for at stoppe."
        )
        number = 0
        try:
            while True:
                number += 1
                game = self.session.new_game(seed=self.rng.getrandbits(63))
                self.play_deal(game, number)
                if self.ask("Et spil til? [J/n] ").strip().lower() in {"n", "nej", "no", *QUIT}:
                    break
        except (_Quit, KeyboardInterrupt):  # Ctrl-C at a prompt or while the bots play
            self.say("Farvel.")
        self.say("Referater: " + ", ".join(str(p) for p in self.saved) if self.saved else "Intet referat gemt.")
        return 0

    def ask(self, prompt: str) -> str:
        try:
            answer = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None
        if answer.strip().lower() in QUIT:
            raise _Quit
        return answer

    def play_deal(self, game: Game, number: int) -> None:
        seating = self.session.seating()
        self.seat = seating.index(YOU)
        bots = {
            s: make_bot(self.bots, self.rules, random.Random(self.rng.getrandbits(63)))
            for s in range(4)
            if s != self.seat
        }
        self.say(
            f"\n=== Spil {number}: plads {GAME_DEALER} ({self.session.players[seating[GAME_DEALER]]}) giver, "
            f"plads 0 er forhånd; du sidder på plads {self.seat} ==="
        )
        seen_tricks = 0
        try:
            while game.step is not None:
                seat = game.to_act
                assert seat is not None
                if seat == self.seat:
                    self.human_turn(game)
                else:
                    view = game.view(seat)
                    action = bots[seat].choose(view, game.legal_actions())
                    game.apply(action)
                    if (
                        game.phase in ("auction", "declaration", "exchange")
                        or len(game.tricks) > seen_tricks
                        or game.trick
                    ):
                        self.say(f"  plads {seat}: {action}")
                if len(game.tricks) > seen_tricks:
                    trick = game.tricks[-1]
                    self.say(f"  -> plads {trick.winner} tager stikket")
                    seen_tricks = len(game.tricks)
        finally:
            self.save(game, number)
        if game.phase == FINISHED:
            entry = self.session.record(game)
            decimals = self.rules.ruleset.scoring.decimals
            self.say("Stik: " + ", ".join(f"plads {s}: {n}" for s, n in enumerate(game.tricks_won)))
            self.say(
                "Point: " + ", ".join(f"{self.session.players[p]} {points(entry.points[p], decimals)}" for p in seating)
            )
        else:
            self.session.record(game)
            assert game.redeal is not None
            self.say(f"Spillet gives om ({game.redeal.reason}).")
        totals = ", ".join(
            f"{name} {points(t, self.rules.ruleset.scoring.decimals)}"
            for name, t in zip(self.session.players, self.session.totals, strict=True)
        )
        self.say(f"Stilling: {totals}")

    def human_turn(self, game: Game) -> None:
        view = game.view(self.seat)
        legal = game.legal_actions()
        self.say("")
        if view.contract:
            partner = "" if view.partner is None else f", makker: plads {view.partner}"
            trump = view.trump or "?"
            called = f", makkerkort {view.called}" if view.called else ""
            declarers = ", ".join(map(str, view.declarers))
            self.say(f"Kontrakt: {view.contract} (plads {declarers}), trumf {trump}{called}{partner}")
        elif view.calls:
            self.say("Meldinger: " + ", ".join(f"{s}: {c}" for s, c in view.calls))
        if view.turned:
            self.say("Vendte kattekort: " + " ".join(view.turned))
        if view.trick:
            self.say("Stikket: " + " ".join(f"{s}:{c}" for s, c in view.trick))
        for seat, cards in view.open_hands:
            self.say(f"Åben hånd, plads {seat}: {' '.join(cards)}")
        self.say(f"Din hånd: {_hand_by_suit(view)}")
        shown = legal if len(legal) <= 40 else legal[:40]
        self.say(
            "Du kan: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(shown, 1)) + ("  ..." if len(legal) > 40 else "")
        )
        while True:
            answer = self.ask("> ").strip()
            action = legal[int(answer) - 1] if answer.isdigit() and 1 <= int(answer) <= len(legal) else answer
            try:
                game.apply(action, self.seat)
                self.say(f"  du: {game.history[-1][1]}")
                return
            except (RuleViolation, NotationError) as exc:
                self.say(f"Ikke tilladt: {exc}")

    def save(self, game: Game, number: int) -> None:
        path = self.record.with_name(f"{self.record.stem}-{number}{self.record.suffix or '.json'}")
        data = game_record(game, self.ruleset_ref, self.house_rules)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        self.saved.append(path)
