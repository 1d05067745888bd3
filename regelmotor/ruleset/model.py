"""The old address of ``regelmotor.model.ruleset``, kept so that a plugin written against it still loads."""

from regelmotor.model import moved_from
from regelmotor.model import ruleset as _new

__getattr__ = moved_from(__name__, _new)
