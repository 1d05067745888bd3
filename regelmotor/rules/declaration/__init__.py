"""The declaration: who names trump and what may be called as partner card (000 4.1). Its keys
(``partner_card``, a designation's ``trump`` and ``call``), checks and hooks.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
