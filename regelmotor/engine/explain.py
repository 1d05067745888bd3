"""Why an action is refused: the rule that forbids it, its key path and its source.

Kept out of the state machine: a refusal is explained only when it happens. Where a rule can say
why itself (the legal-cards rule's ``why_not``, the auction's ``IllegalCall``), the reason comes
from the code that decided; what is said here is only what no rule decides (whose turn, which
seat may act, a card not held).
"""

from __future__ import annotations

from typing import Any, Protocol

from regelmotor.bids import Bid
from regelmotor.cards import Card
from regelmotor.engine.actions import Action, Verb
from regelmotor.errors import IllegalCall, RuleViolation
from regelmotor.hooks import TrickContext
from regelmotor.model.ruleset import Ruleset
from regelmotor.phrases import PLAIN, refusal
from regelmotor.ruleset.compile import Rules


class Game(Protocol):
    """What a refusal is explained from: the game that refused (``engine.game.Game``)."""

    rules: Rules
    ruleset: Ruleset
    seats: tuple[int, ...]
    calls: list[str]
    bid: Bid | None
    called: Card | None
    hands: list[list[Card]]
    trick: list[tuple[int, Card]]

    def legal_actions(self) -> list[Action]: ...
    def exchange_counts(self) -> tuple[int, ...]: ...
    def trick_context(self, seat: int) -> TrickContext: ...


def rule_source(ruleset: Ruleset, path: str) -> str | None:
    """The ``source`` of the rule at a key path such as ``designations[1].trump``."""
    node: Any = ruleset
    for part in path.replace("]", "").replace("[", ".").split("."):
        if not part:
            continue
        if part.isdigit():
            index = int(part)
            node = node[index] if isinstance(node, tuple | list) and index < len(node) else None
        else:
            node = getattr(node, part, None)
        if node is None:
            return None
    source = getattr(node, "source", None)
    if source is None and "." in path:
        return rule_source(ruleset, path.rsplit(".", 1)[0])
    return source if isinstance(source, str) else None


Reason = tuple[str, str, dict[str, object]]
"""(the ruleset key that forbids an action, the refusal's phrase key, its values)."""


def violation(game: Game, kind: str, seat: int, action: Action) -> RuleViolation:
    path, phrase, values = why(game, kind, seat, action)
    return RuleViolation(path, phrase, values, rule_source(game.ruleset, path), render=refusal)


def _designation_path(game: Game) -> str:
    designations = [d.id for d in game.rules.auction.designations]
    assert game.bid is not None and game.bid.designation is not None
    return f"designations[{designations.index(game.bid.designation)}]"


def why(game: Game, kind: str, seat: int, action: Action) -> Reason:
    legal = game.legal_actions()
    values: dict[str, object] = {"action": str(action), "seat": seat, "legal": legal}
    if kind == "claim":
        rule = next(
            (c.rule for c in game.rules.dealing.redeal_claims if any(a.name == c.action for a in legal)), "redeal"
        )
        return rule, "claim", values
    if kind == "call":
        if action.verb is Verb.MISDEAL:
            return "misdeal", "misdeal_late", {}
        if action.is_call:
            try:
                game.rules.auction.procedure(game.seats, [*game.calls, str(action)])
            except IllegalCall as exc:
                return exc.rule, exc.phrase, dict(exc.values)
        return "auction", "call", values
    if kind in ("trump", "trump_or_vip"):
        return f"{_designation_path(game)}.trump", "trump", values
    if kind == "call_card":
        return "partner_card", "partner_card", values
    if kind == "vip":
        return f"{_designation_path(game)}.trump", "vip", values
    if kind == "exchanger":
        return f"{_designation_path(game)}.exchange", "exchanger", values
    if kind == "exchange":
        if game.called is not None and action.verb is Verb.DISCARD and game.called in action.cards:
            return "exchange.called_card_may_be_discarded", "called_card_kept", {"card": game.called}
        if action.verb is Verb.KEEP:
            return "exchange.required", "exchange_compulsory", {}
        counts = [k for k in game.exchange_counts() if k]
        return "exchange", "exchange_count", {**values, "counts": counts}
    if kind == "fordaekt":
        return "fordaekt", "fordaekt", values
    if kind in ("double", "redouble"):
        return "doubling", "doubling", values
    return why_not_play(game, seat, action, legal)


def why_not_play(game: Game, seat: int, action: Action, legal: list[Action]) -> Reason:
    """The play rule a card breaks, as the legal-cards rule itself says it (``legal``: the cards that may be)."""
    card = action.card
    if action.verb is not Verb.PLAY or card is None:
        return "play", "not_a_card", {"action": str(action), "legal": legal}
    hand = game.hands[seat]
    if card not in hand:
        return "play", "not_held", {"card": card}
    explain = getattr(game.rules.play.legal_cards, "why_not", None)
    if explain is not None:
        refusal = explain(hand, [c for _, c in game.trick], game.trick_context(seat), card)
        if refusal is not None:
            if len(refusal) == 2:  # a plugin's rule that says why in one sentence
                return str(refusal[0]), PLAIN, {"text": str(refusal[1])}
            return str(refusal[0]), str(refusal[1]), dict(refusal[2])
    return "play", "not_playable", {"card": card, "legal": legal}
