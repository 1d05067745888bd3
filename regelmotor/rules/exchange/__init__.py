"""The exchange with the kitty: who, how much, in which order, and in sol games (000 4.2). Its keys
(``exchange``, a designation's ``exchange``), checks and hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
