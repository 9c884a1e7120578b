"""Collection rules for the whole tree: the PyTorch subpackage's docstring examples run
only where torch and torchmetrics are installed (its tests skip themselves there).
"""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore_glob = (
    [] if find_spec("torch") and find_spec("torchmetrics") else ["prroc_numba/torch/*"]
)
