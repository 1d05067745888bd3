"""Computer players: they see only ``view(seat)`` and choose only from ``legal_actions()``."""

from regelmotor.bots.base import BOTS, Bot, UnknownBot, available_bots, check_bot, make_bot

__all__ = ["BOTS", "Bot", "UnknownBot", "available_bots", "check_bot", "make_bot"]
