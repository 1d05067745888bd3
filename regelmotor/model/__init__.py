"""The ruleset's types: the value types and base models (``base``), the formulas a file may hold (``formula``)
and the resolved ruleset that puts every family's keys together (``ruleset``). Each family's own keys live in
its home (``regelmotor/rules/<family>/keys.py``) on this floor: the ground the rule families, the hooks and the
bid ladder stand on. Loading and compiling a ruleset (``regelmotor.ruleset``) stand above the rule families."""
