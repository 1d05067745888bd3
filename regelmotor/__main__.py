"""``python -m regelmotor``: the same command line as the ``regelmotor`` script."""

from regelmotor.cli import main

raise SystemExit(main())
