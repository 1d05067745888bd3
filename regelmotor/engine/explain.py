"""Why an action is refused: the rule that forbids it, its key path and its source.

Kept out of the state machine: a refusal is explained only when it happens. Where a rule can say
why itself (the legal-cards rule's ``why_not``, the auction's ``IllegalCall``), the reason comes
from the code that decided; what is said here is only what no rule decides (whose turn, which
seat may act, a card not held).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from regelmotor.cards import format_card, parse_card
from regelmotor.engine.actions import KEEP, MISDEAL
from regelmotor.errors import CardError, IllegalCall, RuleViolation
from regelmotor.ruleset.model import Ruleset

if TYPE_CHECKING:
    from regelmotor.engine.game import Game


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


def violation(game: Game, kind: str, seat: int, action: str) -> RuleViolation:
    path, reason = why(game, kind, seat, action)
    return RuleViolation(path, reason, rule_source(game.ruleset, path))


def _designation_path(game: Game) -> str:
    designations = [d.id for d in game.ruleset.designations]
    assert game.bid is not None and game.bid.designation is not None
    return f"designations[{designations.index(game.bid.designation)}]"


def why(game: Game, kind: str, seat: int, action: str) -> tuple[str, str]:
    legal = game.legal_actions()
    shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
    if kind == "claim":
        rule = next((c.rule for c in game.rules.redeal_claims if c.action in legal), "redeal")
        return rule, f"seat {seat} may say {shown} now, not {action!r}"
    if kind == "call":
        if action == MISDEAL:
            return "misdeal", "a misdeal is called before the first call, by forhånd"
        try:
            game.rules.auction(game.seats, [*game.calls, action])
        except IllegalCall as exc:
            message = str(exc).split(": ", 1)[1] if ": " in str(exc) else str(exc)
            rule = "auction.gaa_med" if "gaa_med" in message else "auction"
            return rule, message
        return "auction", f"{action!r} is not a call seat {seat} can make now: {shown}"
    if kind in ("trump", "trump_or_vip"):
        return f"{_designation_path(game)}.trump", f"{action!r} is not a trump choice here: {shown}"
    if kind == "call_card":
        return "partner_card", f"{action!r} cannot be called as partner card: {shown}"
    if kind == "vip":
        return f"{_designation_path(game)}.trump", f"say {shown} for the turned kitty card, not {action!r}"
    if kind == "exchanger":
        return f"{_designation_path(game)}.exchange", f"choose who exchanges: {shown}"
    if kind == "exchange":
        if game.called is not None and format_card(game.called) in action.split():
            return (
                "exchange.called_card_may_be_discarded",
                f"the called card {format_card(game.called)} may not be discarded",
            )
        if action == KEEP:
            return "exchange.required", "the exchange is compulsory here"
        counts = " or ".join(str(k) for k in game.exchange_counts() if k)
        return "exchange", f"{action!r} is not an exchange seat {seat} can make: discard {counts} card(s)"
    if kind == "fordaekt":
        return "fordaekt", f"lay one of your cards fordækt or say 'no fordækt', not {action!r}"
    if kind in ("double", "redouble"):
        return "doubling", f"{action!r} is not allowed now: {shown}"
    return why_not_play(game, seat, action)


def why_not_play(game: Game, seat: int, action: str) -> tuple[str, str]:
    """The play rule a card breaks, as the legal-cards rule itself says it."""
    try:
        card = parse_card(action)
    except CardError:
        return "play", f"{action!r} is not a card; play one of: {', '.join(game.legal_actions())}"
    hand = game.hands[seat]
    if card not in hand:
        return "play", f"you do not hold {format_card(card)}"
    explain = getattr(game.rules.legal_cards, "why_not", None)
    if explain is not None:
        refusal = explain(hand, [c for _, c in game.trick], game.trick_context(seat), card)
        if refusal is not None:
            return (str(refusal[0]), str(refusal[1]))
    return "play", f"{format_card(card)} cannot be played now: play one of {', '.join(game.legal_actions())}"
