"""Whether a progress bar can be seen: a terminal or a Jupyter kernel (tqdm.auto draws
a widget there).
"""

from __future__ import annotations

import sys


def visible() -> bool:
    """True when stderr is a terminal or the code runs in a Jupyter (IPython) kernel."""
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # replaced or closed stderr
        pass
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001 - an IPython without a running shell
        return False
    return getattr(shell, "kernel", None) is not None
