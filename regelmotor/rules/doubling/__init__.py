"""Doubling (Whistgruppe 2): who may double, redouble, and for how long into the play. Its keys
(``doubling``), checks and hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
