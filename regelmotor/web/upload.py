"""A club's uploaded ruleset, checked in a process of its own that is stopped when it takes too long, a
few at a time.

Checking a ruleset evaluates every score formula for every contract and trick count (the zero-sum
check); a file with hundreds of designations costs seconds of CPU, and a thread cannot be stopped.
So the upload is loaded in a fresh process with a CPU-time limit and a deadline: when either runs out
the process is killed and the client told, and no other request waits for it.

Each check holds a core and a thread for up to ``UPLOAD_SECONDS``. Forty-five at once (one client's
burst) held every worker thread the other requests share, so a plain state request of another table
waited half a minute, and the processes starting side by side on two cores missed their own deadline.
So the checks go through ``UploadPool``: a few at once on threads of their own, a few more waiting, and
a bounded share of those per client; one more is refused at once (429, in Danish), never queued.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import tempfile
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from regelmotor.errors import Problem, RegelmotorError, RulesetError
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.web import child
from regelmotor.web.child import CHECK_NICENESS, named

UPLOAD_SECONDS = 15.0
"""The most a club's file may take to check (the shipped ones take a fraction of a second)."""
STARTUP_SECONDS = 30.0
"""The checking process's start (an import of regelmotor), on a loaded machine."""
ISOLATED = True
"""Check uploads in a process of their own (tests that watch which files the loader opens turn it off)."""


UPLOADS_AT_ONCE = 2
"""Files checked at once: each check is a process on a core of its own (a club's server has two or so)."""
UPLOADS_WAITING = 6
"""Files that may wait for a check (a few people opening tables at once); one more is told to try again."""
UPLOADS_PER_CLIENT = 2
"""Files one client (a network, ``tables.network_of``) may have checked or waiting at once."""


class UploadTooSlow(RegelmotorError):
    """The uploaded file took longer to check than the server allows."""


class UploadsBusy(RegelmotorError):
    """The pool of checks is full, in all or for this client: try again shortly (429)."""


class UploadRefused(RegelmotorError):
    """The checking process's refusal, brought back in both languages (its error's values stay there)."""

    def __init__(self, da: str, en: str) -> None:
        super().__init__(en)
        self.da = da

    def text(self, lang: str = "da") -> str:
        return self.da if lang == "da" else str(self)


class UploadPool:
    """Where uploads are checked: ``at_once`` on threads of their own (the threads every other request
    shares are never held by a check), ``waiting`` more in line, and at most ``per_client`` of those from
    one client. Counted in the event loop, so a full pool refuses the next at once."""

    def __init__(
        self, at_once: int = UPLOADS_AT_ONCE, waiting: int = UPLOADS_WAITING, per_client: int = UPLOADS_PER_CLIENT
    ) -> None:
        self.at_once, self.room, self.per_client = at_once, at_once + waiting, per_client
        self.held: dict[str, int] = {}
        """Checks running or waiting, by client."""
        self._limiter: anyio.CapacityLimiter | None = None

    async def check(self, client: str, upload: str, name: str, house: list[str]) -> ResolvedRuleset:
        """``load_upload`` in the pool; ``UploadsBusy`` at once when it is full, in all or for ``client``."""
        found: ResolvedRuleset = await self.run(client, load_upload, upload, name, house)
        return found

    async def run(self, client: str, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on one of the pool's threads (it starts its own process: ``isolated``);
        ``UploadsBusy`` at once when the pool is full, in all or for ``client``. The club's page checks its
        drafts here, as an upload is checked."""
        if sum(self.held.values()) >= self.room:
            raise UploadsBusy.said("web_uploads_busy")
        if self.held.get(client, 0) >= self.per_client:
            raise UploadsBusy.said("web_uploads_busy_here", most=self.per_client)
        if self._limiter is None:  # made in the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.at_once)
        self.held[client] = self.held.get(client, 0) + 1
        try:
            return await anyio.to_thread.run_sync(function, *args, limiter=self._limiter)
        finally:
            self.held[client] -= 1
            if not self.held[client]:
                del self.held[client]


def load_upload(upload: str, name: str, house: list[str], seconds: float | None = None) -> ResolvedRuleset:
    """The uploaded file loaded as ``load_ruleset`` loads it (shipped ``extends`` and house rules only), in a
    process that is killed after ``seconds``; ``RulesetError`` with its problems, or ``UploadTooSlow``."""
    if not ISOLATED:
        return _load(upload, name, house)
    found = isolated(_load, (upload, name, house), seconds)
    assert isinstance(found, ResolvedRuleset)
    return found


def isolated(function: Callable[..., Any], args: tuple[Any, ...], seconds: float | None = None) -> Any:
    """``function(*args)`` (a module's function, its arguments and answer picklable) in a process of its own at a
    lower priority than the server's (``child``), killed after ``seconds`` of time or CPU: its answer, or its
    ``RulesetError`` (with the problems), its other refusal (``UploadRefused``, in both languages), or
    ``UploadTooSlow``."""
    if seconds is None:
        seconds = UPLOAD_SECONDS
    context = multiprocessing.get_context("spawn")  # no copy of the server's threads and locks
    receive, send = context.Pipe(duplex=False)
    work = (send, named(function), args, seconds)  # imported there, at the check's lower priority (``child``)
    worker = context.Process(target=child.run, args=(CHECK_NICENESS, named(_work), work), daemon=True)
    worker.start()
    send.close()
    try:
        if not receive.poll(STARTUP_SECONDS) or receive.recv() != "ready":  # regelmotor imported
            raise UploadTooSlow.said("web_upload_start")
        if not receive.poll(seconds):
            raise UploadTooSlow.said("web_upload_slow", seconds=f"{seconds:g}")
        kind, value = receive.recv()
    except EOFError:  # the process ended without an answer: the CPU limit, or memory
        raise UploadTooSlow.said("web_upload_cpu", seconds=f"{seconds:.0f}") from None
    finally:
        receive.close()
        if worker.is_alive():
            worker.kill()
        worker.join(5)
    if kind == "problems":
        raise RulesetError(value)
    if kind == "error":
        raise UploadRefused(*value)
    return value


def _work(send: Connection, work: str, args: tuple[Any, ...], seconds: float) -> None:
    function = child.found(work)  # its modules imported before "ready": within the start's deadline
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
        answer = ("resolved", function(*args))
    except RulesetError as exc:
        answer = ("problems", list[Problem](exc.problems))
    except RegelmotorError as exc:
        answer = ("error", (exc.text("da"), exc.text("en")))
    send.send(answer)
    send.close()


def _load(upload: str, name: str, house: list[str]) -> ResolvedRuleset:
    """Loaded from a private temporary folder; it may extend shipped rulesets only."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")
        path.write_text(upload, encoding="utf-8")
        resolved = load_ruleset(str(path), house, shipped_only=True)
        return dataclasses.replace(resolved, files=tuple(f.replace(folder + "/", "") for f in resolved.files))


__all__ = ["UPLOAD_SECONDS", "UploadPool", "UploadRefused", "UploadTooSlow", "UploadsBusy", "isolated", "load_upload"]
