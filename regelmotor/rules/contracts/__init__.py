"""The bids: the trick bids' levels and designations, the sol bids, and the ladder they make (000 3-4; 001;
002). Its keys (``bids``, ``designations``, ``sol_bids``), checks, the kinds of designation by who decides
trump, the named bids' sides and shares, and the ladder hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
