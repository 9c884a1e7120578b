"""Which engine answers a call, chosen once per call from the type of its ``data``.

* ``"memory"``: rows in memory (pandas, polars, numpy, GPU arrays): the core
  (:mod:`prroc_numba._core`, :mod:`prroc_numba._resampling`) answers; the ``device=``
  argument then picks the CPU or CUDA kernels (:mod:`prroc_numba._core.device`, which loads
  the CUDA kernels by their module path on first use).
* ``"dask"``: a Dask DataFrame: the Dask wing answers (:mod:`prroc_numba._dask`).
* ``"spark"``: a ``pyspark.sql.DataFrame`` (classic or Spark Connect): the Spark wing
  answers (:mod:`prroc_numba._spark`), its rows reduced in Spark's executors.

Each wing is named here by its module path only and imported on first use, so neither
``import prroc_numba`` nor the core imports it (or dask, or pyspark).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ._core.dataframes import is_dask, is_spark

MEMORY = "memory"
DASK = "dask"
SPARK = "spark"

_WINGS = {DASK: "prroc_numba._dask", SPARK: "prroc_numba._spark"}

#: how the messages name each engine's input
NAMES = {MEMORY: "in-memory input", DASK: "Dask input", SPARK: "Spark input"}


def engine(data) -> str:
    """The engine whose rows ``data`` holds: ``"dask"``, ``"spark"`` or ``"memory"``.

    Examples
    --------
    >>> import pandas as pd
    >>> engine(pd.DataFrame({"s": [0.5]})), wing_for(None) is None
    ('memory', True)
    """
    if is_dask(data):
        return DASK
    return SPARK if is_spark(data) else MEMORY


def input_name(data) -> str:
    """How a message names ``data``'s kind of input ("Dask input", "Spark input")."""
    return NAMES[engine(data)]


def wing_for(data) -> ModuleType | None:
    """The module answering a call on ``data`` outside memory (the Dask wing for a Dask
    frame, the Spark wing for a Spark frame), or None when the in-memory core answers.
    """
    path = _WINGS.get(engine(data))
    return None if path is None else import_module(path)


def command_input(engine_name: str) -> ModuleType:
    """The reader of the command line's input on the wing ``engine_name`` (``"dask"``
    or ``"spark"``): its ``session(master)`` and ``read(session, path, kind, columns)``.
    """
    return import_module(_WINGS[engine_name] + ".command_input")
