"""Jernhånd: a new deal for a hand without court cards, aces and jokers. Its keys (``jernhaand``),
checks and the redeal claim it adds.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
