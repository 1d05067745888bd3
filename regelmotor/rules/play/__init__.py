"""Card play: the first lead, following suit, the trick's winner, the card orders and when play ends
(000 6; 001). Its keys (``play``, ``card_order``), checks and hooks; the bitmask functions they play by
are ``rules/cardplay``.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
