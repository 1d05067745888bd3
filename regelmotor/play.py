"""Play in the terminal against three computer players.

The person sits at one seat and sees only what that seat may see (``view``); the three other
seats are computer players (heuristic unless ``--bots`` says otherwise). An action is typed as
itself (``7``, ``8 vip``, ``sol``, ``AS``, ``♠A``, ``as``, ``joker 1``) or chosen from the menu as
``#7``; cards are shown as they are typed (``A♠``, jokers as jokers). Anything the rules refuse is
answered in Danish with the rule's key, ``?`` shows the rule's source, and nothing changes.
``quit``, end of input or Ctrl-C print the standings and end cleanly, and every deal is saved as a
record ``regelmotor replay`` accepts from any folder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from regelmotor.bids import fold
from regelmotor.bots import make_bot
from regelmotor.cards import SUIT_SYMBOLS, Card, parse_card, suit_of
from regelmotor.double_dummy.analysis import AnalysisError, analyse_game
from regelmotor.double_dummy.report import analysis_text
from regelmotor.engine.actions import Action, Verb
from regelmotor.engine.game import FINISHED, Game, View
from regelmotor.errors import CardError, NotationError, RuleViolation
from regelmotor.files import check_output, write_atomic
from regelmotor.hooks import ContractInfo
from regelmotor.phrase_table import seat_no
from regelmotor.phrases import card_shown, in_notation, phrases, said
from regelmotor.records import game_record
from regelmotor.rounding import number_text
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.catalogue import is_path
from regelmotor.ruleset.compile import Rules
from regelmotor.session import GAME_DEALER, Session

QUIT = {"quit", "exit", "q", "afslut"}
MENU_BIDS = 10
"""The bids the menu lists, lowest first: the first bidding prompt is a line to read, not forty items."""


class _Quit(Exception):
    pass


def shown(card: Card | str) -> str:
    """A card as the terminal shows it, in a form it also reads: ``A♠``, ``10♥``, ``joker 1`` (a card in the
    notation: as that card)."""
    return card_shown(parse_card(card) if isinstance(card, str) else card, "da")


def shown_action(action: Action, lang: str = "da") -> str:
    """An action as the table says it, with its cards shown as cards: ``pas``, ``trumf ♠``, ``makker A♥``,
    ``læg A♠ K♥`` (``phrases.said``; ``lang`` ``en``: the notation)."""
    return said(str(action), lang)


def result_line(game: Game, lang: str = "da") -> str | None:
    """Whether the contract held, and the declarer's side's tricks (``7 gode: holdt, 9 stik til melderens
    side``), as the compiled ``made`` rule judges it; None for a game no one bid (engelsk, pasnolo)."""
    if game.bid is None or not game.declarers:
        return None
    contract = ContractInfo(game.bid, game.declarers, game.partner)
    side = {game.declarers[0], *(() if game.partner is None else (game.partner,))}
    tricks = sum(game.tricks_won[seat] for seat in side)
    key = "result_made" if game.rules.scoring.made(contract, game.tricks_won) else "result_lost"
    return phrases(lang)[key].format(contract=game.contract, tricks=tricks)


def _all_cards(text: str) -> bool:
    """Whether ``text`` is one or more cards and nothing else."""
    try:
        return bool(text.split()) and all(parse_card(word) is not None for word in text.split())
    except CardError:
        return False


def _suit_symbol(letter: str | None) -> str:
    return SUIT_SYMBOLS["SHDC".index(letter)] if letter in ("S", "H", "D", "C") else str(letter)


def _hand_by_suit(view: View) -> str:
    groups: list[list[str]] = [[], [], [], [], []]
    for card in view.hand:
        groups[suit_of(card)].append(shown(card))
    return "   ".join(" ".join(cards) for cards in groups if cards)


YOU = 0
"""The person is player 0 of the session."""
TERMINAL_NODES = 2_000_000
"""The analysis's node budget per search at the table: about a second."""
TERMINAL_SECONDS = 30.0
"""The analysis's time at the table: from the last card back, so what is left unknown is the first tricks."""


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
        force: bool = False,
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
        self.force = force
        # The person is player 0 and keeps a chair; the deal passes round, so the seat in each deal
        # (seat 0 forhånd, 3 the dealer) moves. ``seat`` is the person's seat in the first deal.
        self.session = Session(rules, ["Du", "Bot 1", "Bot 2", "Bot 3"], first_dealer=(GAME_DEALER - seat) % 4)
        self.rng = random.Random(seed)
        self.saved: list[Path] = []
        self.adviser = make_bot("heuristic", rules, random.Random(seed))
        """The computer's advice on an exchange, offered first (the heuristic: quick, and never a trump ace)."""

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def who(self, seat: int) -> str:
        """A seat as the player reads it: "du", or "plads 2 (Bot 1)" (a person counts seats from 1)."""
        if seat == self.seat:
            return "du"
        return f"plads {seat_no(seat)} ({self.session.players[self.session.seating()[seat]]})"

    def run(self) -> int:
        self.say(
            f"regelmotor: {self.label}. Du sidder på plads {seat_no(self.seat)} i første spil (pladserne skifter, "
            "når kortene går rundt). Skriv et træk (pas, 7, 8 vip, A♠) eller #nummer fra listen; hjælp forklarer; "
            "? viser reglens kilde; 'afslut' stopper."
        )
        number = 0
        try:
            while True:
                number += 1
                game = self.session.new_game(seed=self.rng.getrandbits(63))
                self.play_deal(game, number)
                if self.session.evening_over():  # the club's evening of a fixed number of deals (session.deals)
                    self.say(f"Aftenen er slut: de {self.session.played()} spil er spillet.")
                    answer = self.ask("Analyse af spillet? [a = analyse, Enter = slut] ") if game.tricks else ""
                    if answer.strip().lower() in {"a", "analyse"}:
                        self.show_analysis(game)
                    break
                prompt = "Et spil til? [J/n, a = analyse af spillet] " if game.tricks else "Et spil til? [J/n] "
                answer = self.ask(prompt).strip().lower()
                if game.tricks and answer in {"a", "analyse"}:
                    self.show_analysis(game)
                    answer = self.ask("Et spil til? [J/n] ").strip().lower()
                if answer in {"n", "nej", "no", *QUIT}:
                    break
        except (_Quit, KeyboardInterrupt):  # Ctrl-C at a prompt or while the bots play
            self.say("Farvel.")
        self.say(f"Stilling efter {len(self.session.deals)} spil: {self.standings()}")
        self.say("Referater: " + ", ".join(str(p) for p in self.saved) if self.saved else "Intet referat gemt.")
        return 0

    def show_analysis(self, game: Game) -> None:
        """The deal with every hand open: what each card cost (``regelmotor analyse``)."""
        self.say("Analyserer med åbne kort (det kan tage et halvt minut) ...")
        try:
            analysis = analyse_game(game, self.label, TERMINAL_NODES, seconds=TERMINAL_SECONDS)
        except AnalysisError as exc:
            self.say(f"Ingen analyse: {exc.text('da')}")
            return
        record = str(self.saved[-1]) if self.saved else None  # the advice on unsettled cards names it
        self.say(analysis_text(analysis, "da", record=record))

    def standings(self) -> str:
        shown_points = self.rules.scoring.shown_points(self.session.totals)
        return ", ".join(f"{name} {number_text(p)}" for name, p in zip(self.session.players, shown_points, strict=True))

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
            f"\n=== Spil {number}: {self.who(GAME_DEALER)} giver, {self.who(0)} er forhånd; "
            f"du sidder på plads {seat_no(self.seat)} ==="
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
                    said = shown_action(game.public_history(self.seat)[-1][1])
                    self.say(f"  {self.who(seat)}: {said}")
                if len(game.tricks) > seen_tricks:
                    trick = game.tricks[-1]
                    tally = ", ".join(f"{self.who(s)}: {n}" for s, n in enumerate(game.tricks_won))
                    self.say(f"  -> {self.who(trick.winner)} tager stikket (stik: {tally})")
                    seen_tricks = len(game.tricks)
        finally:
            self.save(game, number)
        if game.phase == FINISHED:  # the tricks named before record() passes the deal on (who() reads the seating)
            self.say("Stik: " + ", ".join(f"{self.who(s)}: {n}" for s, n in enumerate(game.tricks_won)))
            entry = self.session.record(game)
            result = result_line(game)
            if result:
                self.say(result)
            booked = self.rules.scoring.shown_points([entry.points[p] for p in seating])
            self.say(
                "Point: "
                + ", ".join(f"{self.session.players[p]} {number_text(b)}" for p, b in zip(seating, booked, strict=True))
            )
        else:
            self.session.record(game)
            assert game.redeal is not None
            reason = phrases("da").get(f"redeal_{game.redeal.reason}", game.redeal.reason)
            self.say(f"Spillet gives om ({reason}).")
        self.say(f"Stilling: {self.standings()}")

    def human_turn(self, game: Game) -> None:
        view = game.view(self.seat)
        legal = game.legal_actions()
        self.say("")
        if view.contract is not None:
            partner = "" if view.partner is None else f", makker: {self.who(view.partner)}"
            trump = {None: "?", "none": "uden trumf"}.get(view.trump) or _suit_symbol(view.trump)
            called = f", makkerkort {shown(view.called)}" if view.called is not None else ""
            declarers = ", ".join(map(self.who, view.declarers)) if view.declarers else "ingen melder"
            if view.trump_card is not None:
                trump += f" (kortgiverens sidste kort {shown(view.trump_card)})"
            bid = view.contract
            alone = self.rules.auction.side(bid) is Side.EACH
            if self.rules.auction.fixed_partners and not partner and not alone:
                partner = f", din makker: {self.who((self.seat + 2) % 4)}"
            self.say(f"Kontrakt: {bid.text} ({declarers}), trumf {trump}{called}{partner}")
        elif view.calls:
            seating = self.session.seating()
            names = self.session.players
            self.say("Meldinger: " + ", ".join(f"{names[seating[s]]}: {shown_action(c)}" for s, c in view.calls))
        if view.turned:
            self.say("Vendte kattekort: " + " ".join(shown(c) for c in view.turned))
        if view.received:
            self.say("Du fik fra katten: " + " ".join(shown(c) for c in view.received))
        play = view.play
        if play.tricks:
            self.say("Stik taget: " + ", ".join(f"{self.who(s)}: {n}" for s, n in enumerate(play.tricks_won)))
        if play.trick:
            self.say("Stikket: " + "  ".join(f"{self.who(s)}: {shown(view.seen(c))}" for s, c in play.trick))
        for seat, cards in view.open_hands:
            self.say(f"Åben hånd, {self.who(seat)}: {' '.join(shown(c) for c in cards)}")
        self.say(f"Din hånd: {_hand_by_suit(view)}")
        # The exchange is asked for as the cards to lay away, not offered as every combination of them: the
        # computer's advice is offered first and said to be its advice (a bare number never lays away the
        # trump ace). Only the lowest bids are listed; a higher one is typed as it is (9 gode).
        discards = [a for a in legal if a.verb is Verb.DISCARD]
        advice = self.adviser.choose(view, legal) if discards else None
        others = [a for a in legal if a.verb not in (Verb.DISCARD, Verb.MISDEAL)]  # no misdeal: the computer deals
        bids = [a for a in others if a.verb is Verb.BID]
        menu = [a for a in others if a.verb is not Verb.BID] + bids[:MENU_BIDS]
        if advice is not None and advice.verb is Verb.DISCARD:
            menu.append(advice)
        if menu:
            self.say(
                "Du kan: "
                + "  ".join(
                    f"[#{i}] {shown_action(a)}{' (computerens råd)' * (a == advice)}" for i, a in enumerate(menu, 1)
                )
            )
        if len(bids) > MENU_BIDS:
            self.say(
                f"Eller skriv et højere bud, op til {shown_action(bids[-1])} (fx {shown_action(bids[MENU_BIDS])})."
            )
        if discards:
            counts = " eller ".join(str(n) for n in sorted({len(a.cards) for a in discards}))
            example = f", fx {shown_action(advice)}" if advice is not None and advice.verb is Verb.DISCARD else ""
            self.say(f"Læg {counts} kort fra: skriv de kort, du vil lægge{example}")
        refused: RuleViolation | None = None
        while True:
            answer = self.ask("> ").strip()
            if answer == "?":
                source = refused.source if refused is not None else None
                self.say(f"Kilde: {source}" if source else "Skriv et træk, eller #nummer fra listen.")
                continue
            if fold(answer) in (fold(phrases("da")["act_help"]), "help"):
                self.say(phrases("da")["help"])
                continue
            typed = in_notation(answer)
            if discards and _all_cards(typed):
                typed = f"discard {typed}"  # the cards alone, where cards are to be laid away
            # an action typed as itself (a bid past the menu's 40th item too); else a menu number
            action = typed if typed in {str(a) for a in legal} else self.action_of(typed, menu)
            try:
                game.apply(action, self.seat)
                self.say(f"  du: {shown_action(game.history[-1][1])}")
                return
            except RuleViolation as exc:
                refused = exc
                self.say(f"Ikke tilladt efter reglen {exc.rule}: {exc.text('da')} (? viser kilden)")
            except NotationError:
                self.say(phrases("da")["not_an_action"].format(text=answer))

    @staticmethod
    def action_of(answer: str, legal: list[Action]) -> Action | str:
        """``#7`` is the menu's seventh item; anything else is the action itself (``7`` bids 7), read by the
        game. A bare number that is no action here (``1`` when no bid is 1) is read as a menu item, as it
        used to be."""
        if answer.startswith("#") and answer[1:].isdigit() and 1 <= int(answer[1:]) <= len(legal):
            return legal[int(answer[1:]) - 1]
        if answer.isdigit() and answer not in {str(a) for a in legal} and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        return answer

    def save(self, game: Game, number: int) -> None:
        path = self.record.with_name(f"{self.record.stem}-{number}{self.record.suffix or '.json'}")
        # A ruleset or house rule named by a path is recorded by its absolute path, so that the record
        # replays from any folder.
        ref = str(Path(self.ruleset_ref).resolve()) if is_path(self.ruleset_ref) else self.ruleset_ref
        house = [str(Path(h).resolve()) if is_path(h) else h for h in self.house_rules]
        data = game_record(game, ref, house)
        check_output(path, force=self.force, records=True)  # another evening's record: not without --force
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        self.saved.append(path)
