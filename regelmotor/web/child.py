"""The start of a process the server starts for one request's work (a club's file checked, a club's question
played): its priority lowered below the server's before anything heavy is imported, then the work, named by its
module and function and imported only then.

Such a process costs a core for a second (a check: the rules' modules imported and the file checked) up to
minutes (a question); on a club's two cores it would take its share from the table's and the sheet's requests,
which a person waits for. At a lower priority it takes only what the server leaves (``benchmarks/server_load.py
--questions``). Started by ``spawn``, the process imports this module before it runs, so the module imports
nothing beyond the standard library (and ``regelmotor/web/__init__.py`` imports the app only when asked).
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable
from typing import Any

CHECK_NICENESS = 5
"""A check's priority below the server's: a person waits for it too, and it has a deadline to start within
(``upload.STARTUP_SECONDS``), so it is lowered less than a question's."""
IDLE = 20
"""Below every niceness: Linux's ``SCHED_IDLE``, a process that runs only where the cores are otherwise idle."""
QUESTION_NICENESS = IDLE
"""A question's priority below the server's: it holds a core for minutes, and takes only what is left."""


def named(function: Callable[..., Any]) -> str:
    """``function`` as the process is told it: ``module:name`` (a module's own function)."""
    return f"{function.__module__}:{function.__qualname__}"


def found(work: str) -> Callable[..., Any]:
    """The function ``named`` names, imported."""
    module, name = work.split(":", 1)
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def run(niceness: int, work: str, args: tuple[Any, ...]) -> None:
    """The process's target: its priority lowered by ``niceness`` (``IDLE``: run only on a core nothing else
    wants), then ``work(*args)``."""
    with contextlib.suppress(OSError, AttributeError):  # no niceness here (not POSIX): the deadlines still hold
        if niceness == IDLE:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        else:
            os.nice(niceness)
    found(work)(*args)


__all__ = ["CHECK_NICENESS", "QUESTION_NICENESS", "found", "named", "run"]
