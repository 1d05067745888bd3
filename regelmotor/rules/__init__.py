"""The rule families, each one home (``rules/<family>/``): its keys (``keys.py``, part of the model),
its checks (``checks.py``), its hooks, its play bits and named predicates for the search, and the key
paths it owns (``families.py``). ``cardplay`` is the bitmask machinery the play families share."""
