"""The old address of ``regelmotor.model.formula``, kept so that a plugin written against it still loads."""

from regelmotor.model import formula as _new
from regelmotor.model import moved_from

__getattr__ = moved_from(__name__, _new)
