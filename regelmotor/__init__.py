"""regelmotor: Danish es-makker whist and its club variants, rulesets as data, one engine."""

__version__ = "0.1.0"
