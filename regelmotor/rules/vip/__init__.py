"""Vip: the kitty turned for trump, one card after another (000 4.3), the partner's vip in halve, and a
turned joker taking the card before it. Its checks and hooks; its keys are a designation's ``trump.turns``,
``trump.partner_may_vip`` and ``trump.joker_takes_previous``.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
