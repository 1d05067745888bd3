"""Compile the expert's numba functions into their on-disk cache while the test workers start.

On a fresh checkout nothing is cached, and every process that plays an expert deal compiles the kernel
(about 26 s of one core) and the double-dummy leaf (about 78 s): both xdist workers at once, and any
``--jobs`` pool, Dask worker or command-line subprocess a test starts before the cache is written. Run
once at the start of a parallel test run, one process per part (the two parts share only small
functions), every later process loads the compiled code from the cache in a second or two.

The workers do not wait for it: each begins with test files that need no compiled search (those not in
``NEEDS``), and a test of a file that does waits until both parts are done (``wait``). So the cores play
tests beside the compile instead of idling while the leaf compiles (the kernel is done in a third of the
leaf's time). On a clean checkout the test run took 5 min 17 s this way against 5 min 47 s waiting for
the compile first, in the same hour.

``python tests/compile_ahead.py kernel|leaf`` (each part compiled as ``regelmotor prepare`` compiles it);
``start()`` starts both side by side.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

PARTS = ("kernel", "leaf")
DONE = "REGELMOTOR_COMPILED"
"""The environment variable naming the folder where each part leaves a file of its name once it is done
(or has failed: its functions are then compiled where they are first used)."""
NEEDS = frozenset(
    {
        "test_analyse",
        "test_analysis_for_a_club",
        "test_call_reading",
        "test_cli",
        "test_club_data",
        "test_club_evening",
        "test_club_word",
        "test_compare",
        "test_double_dummy",
        "test_expert",
        "test_first_lead",
        "test_kernel",
        "test_play_terminal",
        "test_plugin_package",
        "test_simulation",
        "test_tune",
        "test_web",
        "test_web_table",
        "test_whist_family",
    }
)
"""The test files whose tests play the expert or search double dummy (a file left out is still right, only
slower: its first such test compiles what it needs itself)."""
WAIT = 900.0
"""How long a test waits for the parts at most, in seconds, before it goes on and compiles for itself."""


_started: list[subprocess.Popen[bytes]] = []


def start(folder: Path) -> None:
    """Both parts side by side (numba compiles under one lock a process), not waited for: each leaves its
    file in ``folder`` when it ends."""
    _started.extend(subprocess.Popen([sys.executable, __file__, part, str(folder)]) for part in PARTS)


def stop() -> None:
    """Ends the parts still compiling when the run is over (a few tests that needed none of it): what they
    finished is in the cache, the rest is compiled where it is first used."""
    for process in _started:
        process.terminate()
        process.wait()
    _started.clear()


def wait(folder: Path) -> None:
    """Until both parts have left their files in ``folder`` (or ``WAIT`` has passed)."""
    ends = time.monotonic() + WAIT
    while not all((folder / part).exists() for part in PARTS) and time.monotonic() < ends:
        time.sleep(0.2)


if __name__ == "__main__":
    try:
        from regelmotor.prepare import COMPILE  # the package's own compile of each part, written once

        COMPILE[sys.argv[1]]()
    finally:
        (Path(sys.argv[2]) / sys.argv[1]).touch()
