"""``python -m prroc_numba`` runs the command line (see :mod:`prroc_numba.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
