"""The jokers: played at any time, never led to the first trick, and a led joker wins its trick unless the
house rule lets trump take it (001; 000 6.4.1). Its keys (``jokers``), checks, the house rule's hook
(``joker_trumpable``) and the play bits and named predicates the search asks (``cardplay``).

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""
