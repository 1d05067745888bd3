"""The command line (``regelmotor``): its commands are in ``commands``, its words in ``words``.

``regelmotor --version`` answers before the engine is imported: a club member's first command is quick.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        from regelmotor import __version__

        (out or sys.stdout).write(f"regelmotor {__version__}\n")
        raise SystemExit(0)  # as argparse's version action ends
    from regelmotor.cli.commands import main as run

    return run(args, out)
