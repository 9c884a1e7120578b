"""The ``prroc-numba`` command line: :func:`main` (the console script's entry point).

* :mod:`._commands` -- the commands and :func:`main`;
* :mod:`._parser` -- the arguments (``argparse``);
* :mod:`._io` -- reading the table, printing results, atomic ``--out``, titles.
"""

from ._commands import main

__all__ = ["main"]
