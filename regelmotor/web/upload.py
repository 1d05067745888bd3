"""A club's uploaded ruleset, checked in a process of its own that is stopped when it takes too long.

Checking a ruleset evaluates every score formula for every contract and trick count (the zero-sum
check); a file with hundreds of designations costs seconds of CPU, and a thread cannot be stopped.
So the upload is loaded in a fresh process with a CPU-time limit and a deadline: when either runs out
the process is killed and the client told, and no other request waits for it.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import tempfile
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from regelmotor.errors import Problem, RegelmotorError, RulesetError
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset

UPLOAD_SECONDS = 15.0
"""The most a club's file may take to check (the shipped ones take a fraction of a second)."""
STARTUP_SECONDS = 30.0
"""The checking process's start (an import of regelmotor), on a loaded machine."""
ISOLATED = True
"""Check uploads in a process of their own (tests that watch which files the loader opens turn it off)."""


class UploadTooSlow(RegelmotorError):
    """The uploaded file took longer to check than the server allows."""


def load_upload(upload: str, name: str, house: list[str], seconds: float | None = None) -> ResolvedRuleset:
    """The uploaded file loaded as ``load_ruleset`` loads it (shipped ``extends`` and house rules only), in a
    process that is killed after ``seconds``; ``RulesetError`` with its problems, or ``UploadTooSlow``."""
    if not ISOLATED:
        return _load(upload, name, house)
    if seconds is None:
        seconds = UPLOAD_SECONDS
    context = multiprocessing.get_context("spawn")  # no copy of the server's threads and locks
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_work, args=(send, upload, name, house, seconds), daemon=True)
    worker.start()
    send.close()
    try:
        if not receive.poll(STARTUP_SECONDS) or receive.recv() != "ready":  # regelmotor imported
            raise UploadTooSlow("the server could not start checking the ruleset file")
        if not receive.poll(seconds):
            raise UploadTooSlow(f"the ruleset file took longer than {seconds:g} s to check")
        kind, value = receive.recv()
    except EOFError:  # the process ended without an answer: the CPU limit, or memory
        raise UploadTooSlow(f"the ruleset file took more than {seconds:.0f} s of CPU to check") from None
    finally:
        receive.close()
        if worker.is_alive():
            worker.kill()
        worker.join(5)
    if kind == "problems":
        raise RulesetError(value)
    if kind == "error":
        raise RegelmotorError(value)
    assert isinstance(value, ResolvedRuleset)
    return value


def _work(send: Connection, upload: str, name: str, house: list[str], seconds: float) -> None:
    try:
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        limit = int(used.ru_utime + used.ru_stime + seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
    except (ImportError, ValueError, OSError):  # pragma: no cover - no CPU limit here: the deadline still holds
        pass
    send.send("ready")
    answer: tuple[str, Any]
    try:
        answer = ("resolved", _load(upload, name, house))
    except RulesetError as exc:
        answer = ("problems", list[Problem](exc.problems))
    except RegelmotorError as exc:
        answer = ("error", str(exc))
    send.send(answer)
    send.close()


def _load(upload: str, name: str, house: list[str]) -> ResolvedRuleset:
    """Loaded from a private temporary folder; it may extend shipped rulesets only."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")
        path.write_text(upload, encoding="utf-8")
        resolved = load_ruleset(str(path), house, shipped_only=True)
        return dataclasses.replace(resolved, files=tuple(f.replace(folder + "/", "") for f in resolved.files))


__all__ = ["UPLOAD_SECONDS", "UploadTooSlow", "load_upload"]
