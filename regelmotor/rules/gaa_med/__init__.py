"""Gå med: joining another's sol or vip bid (001). Its keys (``auction.gaa_med``), checks and hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
