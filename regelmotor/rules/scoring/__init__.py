"""Scoring: the point tables and formulas, rounding, who pays, and the evening's settlement (000 7;
001). Its keys (``scoring``), checks (tables keyed by what the ruleset has; zero-sum), the scorer and
the settlement hooks.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
