"""A club's ruleset from its files to the engine: finding the files (``catalogue``), checking each against the
schema (``schema_check``), merging them (``overlay``), resolving and checking the whole (``load``, ``checks``,
``validate``), and compiling it into the engine's ``Rules``, read by phase (``compile``, ``phases``). The
ruleset's types are ``regelmotor.model`` and each family's keys; the rules themselves, ``regelmotor.rules``."""
