"""Optional dependencies, imported on first use with a message that says how to install
them (``import prroc_numba`` imports none of them).
"""

from __future__ import annotations

from importlib import import_module


def optional(module: str, needed_by: str, extra: str):
    """``module`` imported, or an ImportError naming ``needed_by``, the package and the
    ``prroc-numba[extra]`` install that brings it.
    """
    try:
        return import_module(module)
    except ImportError as err:
        package = module.split(".")[0]
        raise ImportError(
            f"{needed_by} needs {package}, which is not installed; install the optional "
            f"extra with `pip install prroc-numba[{extra}]` (or `pip install {package}`)"
        ) from err
