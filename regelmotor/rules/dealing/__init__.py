"""The deck and the dealing: jokers, the kitty, the pattern and packets (000 2). Its keys (``deck``,
``dealing``), checks and the dealing hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
