"""Progress on the terminal for a long command, in the reader's language: shown only once the work has
taken two seconds (a quick command stays quiet) and only where stderr is a terminal (a pipe, a log file
and the tests stay clean)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from regelmotor.phrase_table import phrases

QUIET_SECONDS = 2.0
"""Work that ends sooner shows no progress."""


class Progress:
    """``progress(done)`` after each of ``total`` steps: "analyserer: 12 af 52 kort (8 s)"."""

    def __init__(self, total: int, what: str, lang: str = "da", stream: TextIO | None = None) -> None:
        self.total, self.what, self.lang = total, what, lang
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.shown = False
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int) -> None:
        elapsed = time.monotonic() - self.started
        if not self.live or (elapsed < QUIET_SECONDS and not self.shown):
            return
        words = phrases(self.lang)
        text = words["progress"].format(
            done=done, total=self.total, what=words[f"progress_{self.what}"], seconds=round(elapsed)
        )
        self.stream.write("\r" + text)
        self.shown = True
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
