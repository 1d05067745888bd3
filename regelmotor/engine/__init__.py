"""The engine: one explicit state machine, parameterised only by compiled rules."""

from regelmotor.engine.game import Game, View

__all__ = ["Game", "View"]
