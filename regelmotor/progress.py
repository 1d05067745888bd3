"""Progress on the terminal for a long command, in the reader's language: shown only once the work has
taken two seconds (a quick command stays quiet) and only where stderr is a terminal (a pipe, a log file
and the tests stay clean). One kind of line for every long command: the analysis's cards and cells, the
deals of ``simulate``, ``compare`` and ``match`` (with the time left, as their deals cost alike)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from regelmotor.phrase_table import phrases

QUIET_SECONDS = 2.0
"""Work that ends sooner shows no progress."""


def duration(seconds: float, lang: str = "da") -> str:
    """A time as a person says it: ``8 s``, ``3 min``."""
    if seconds < 120:
        return f"{round(seconds)} s"
    return phrases(lang)["progress_minutes"].format(minutes=round(seconds / 60))


class Progress:
    """``progress(done)`` after each of ``total`` steps: "analyserer: 12 af 52 kort (8 s)"; where the steps
    cost alike (``what`` "deals"), with the time left: "spiller: 300 af 2000 spil (12 s, ca. 1 min tilbage)"."""

    def __init__(
        self,
        total: int,
        what: str,
        lang: str = "da",
        stream: TextIO | None = None,
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.what, self.lang = total, what, lang
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self.shown = False
        self.width = 0
        self.live = not quiet and bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int) -> None:
        elapsed = self.clock() - self.started
        if not self.live or (elapsed < QUIET_SECONDS and not self.shown):
            return
        words = phrases(self.lang)
        left = ""
        if self.what == "deals" and 0 < done < self.total:
            left = words["progress_left"].format(left=duration(elapsed * (self.total - done) / done, self.lang))
        text = words[f"progress_{self.what}"].format(
            done=done, total=self.total, elapsed=duration(elapsed, self.lang), left=left
        )
        self.stream.write("\r" + text.ljust(self.width))  # a shorter line covers what the longer one showed
        self.width = max(self.width, len(text))
        self.shown = True
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


class FirstCompile:
    """The line said before a cold compile (the compiled search not yet in the cache, on the first run after
    installing): what is prepared and how long it takes, then how long it took. "Forbereder søgningen første
    gang (oversættes til maskinkode, ca. 1-2 min; næste gang går det straks) ... færdig efter 84 s".

    On ``stream`` (stderr) where it is a terminal (or ``always``), never with ``quiet``: stdout and
    ``--json`` stay clean, as a pipe and the tests do."""

    def __init__(
        self,
        what: str,
        lang: str = "da",
        stream: TextIO | None = None,
        quiet: bool = False,
        always: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.lang = what, lang
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.live = not quiet and (always or terminal)

    def __enter__(self) -> FirstCompile:
        self.started = self.clock()
        if self.live:
            self.stream.write(phrases(self.lang)[f"compile_{self.what}"] + " ...")
            self.stream.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live:
            elapsed = duration(self.clock() - self.started, self.lang)
            self.stream.write(" " + phrases(self.lang)["compile_done"].format(elapsed=elapsed) + "\n")
            self.stream.flush()
