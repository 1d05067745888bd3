"""The ruleset's types: what a club's file says, as pydantic models (``ruleset``) and the formulas it may
hold (``formula``). The ground the rule families, the hooks and the bid ladder stand on; loading and
compiling a ruleset (``regelmotor.ruleset``) stand above the rule families."""
