"""Fordækt kort: a card laid face down in the partner card's place. Its keys (``fordaekt``), checks and
hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
