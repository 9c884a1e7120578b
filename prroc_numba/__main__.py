"""``python -m prroc_numba`` runs the command line (see :mod:`prroc_numba.cli`)."""

import sys

from .cli import main

sys.exit(main())
