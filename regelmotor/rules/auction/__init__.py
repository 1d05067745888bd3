"""Meldeforløbet: melde tilbage or no auction at all, and kan selv (000 3; 001). Its keys (``auction``), checks and
the hook that runs the auction.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
