"""Computer players: they see only ``view(seat)`` and choose only from ``legal_actions()``."""

from regelmotor.bots.base import BOTS, Bot, make_bot

__all__ = ["BOTS", "Bot", "make_bot"]
