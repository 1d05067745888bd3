"""regelmotor: Danish es-makker whist and its club variants, rulesets as data, one engine."""

__version__ = "0.1.0"
"""The one place the version is written: pyproject.toml reads it (``[tool.setuptools.dynamic]``), game records
carry it, and a record of a newer minor version is refused. A change is named in CHANGELOG.md."""
