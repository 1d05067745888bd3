"""The partner card in play: when it must fall, for whom, and in which trick (001; 003 36-37). Its keys
(``called_card``), checks and the play bits the engine and the search both play by (``cardplay``).

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
