"""Which engine answers a call, chosen once per call from the type of its ``data``.

* ``"memory"``: rows in memory (pandas, polars, numpy, GPU arrays): the core
  (:mod:`prroc_numba._core`, :mod:`prroc_numba._resampling`) answers; the ``device=``
  argument then picks the CPU or CUDA kernels (:mod:`prroc_numba._core.device`, which loads
  the CUDA kernels by their module path on first use).
* ``"dask"``: a Dask DataFrame: the Dask wing answers (:mod:`prroc_numba._dask`).

The wing is named here by its module path only and imported on first use, so neither
``import prroc_numba`` nor the core imports it (or dask).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ._core.dataframes import is_dask

MEMORY = "memory"
DASK = "dask"

_WINGS = {DASK: "prroc_numba._dask"}


def engine(data) -> str:
    """The engine whose rows ``data`` holds: ``"dask"`` or ``"memory"``.

    Examples
    --------
    >>> import pandas as pd
    >>> engine(pd.DataFrame({"s": [0.5]})), wing_for(None) is None
    ('memory', True)
    """
    return DASK if is_dask(data) else MEMORY


def wing_for(data) -> ModuleType | None:
    """The module answering a call on ``data`` outside memory (the Dask wing for a Dask
    frame), or None when the in-memory core answers.
    """
    path = _WINGS.get(engine(data))
    return None if path is None else import_module(path)
