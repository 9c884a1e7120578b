"""The first call on a Spark session checks its Python workers, once.

Spark starts its Python workers with ``PYSPARK_PYTHON`` as it was when the session
started (``spark-submit``: the conf ``spark.pyspark.python``), else with ``python3``
from the ``PATH`` -- not necessarily
the driver's interpreter: a session started from a shell whose environment is not
activated runs its workers on the system Python, and the first task that needs numba
fails deep in a Java stack trace (``No module named 'numba'``). :func:`check` runs one
tiny task (a plain Python UDF on one row, so the worker needs nothing but its own
standard library) that reports the worker's interpreter, its version and whether it
can import what the reductions need; when it cannot -- or the task itself fails --
the call raises a :class:`RuntimeError` naming both interpreters and the fix, before
any reduction runs. A session passes the check once (remembered by its id).
"""

from __future__ import annotations

import logging
import sys

LOG = logging.getLogger("prroc_numba.spark")
#: what the reductions import in the workers
NEEDED = ("numpy", "pandas", "pyarrow", "numba", "prroc_numba")

_checked: set = set()

# The probe is compiled here from source, in a namespace that is no importable module,
# so that cloudpickle sends it by value: the worker needs no prroc_numba to run it.
_PROBE_SRC = """
def probe(_x):
    import importlib, sys
    missing = ""
    for name in NEEDED:
        try:
            importlib.import_module(name)
        except Exception as err:
            missing = f"{type(err).__name__}: {err}"
            break
    return "\\t".join([sys.executable, sys.version.split()[0], missing])
"""


def _probe():
    space = {"__name__": "prroc_numba_worker_probe", "NEEDED": NEEDED}
    exec(compile(_PROBE_SRC, "<prroc_numba worker probe>", "exec"), space)
    return space["probe"]


def _session_key(session):
    try:
        return session.sparkContext.applicationId  # classic
    except Exception:  # Spark Connect has no SparkContext on the client
        return getattr(session, "session_id", id(session))


def _fix() -> str:
    exe = sys.executable
    return (
        f"start the session with the driver's interpreter for the workers: set "
        f"PYSPARK_PYTHON={exe} before the session starts (export it in the shell, or "
        "os.environ['PYSPARK_PYTHON'] = sys.executable before "
        "SparkSession.builder...getOrCreate(); spark-submit: --conf "
        "spark.pyspark.python=...), or install prroc-numba and its dependencies into "
        "the workers' Python"
    )


def check(data) -> None:
    """Raise a RuntimeError (the fix named) when ``data``'s session runs its Python
    workers on an interpreter that cannot run the reductions; once per session.
    """
    session = data.sparkSession
    key = _session_key(session)
    if key in _checked:
        return
    from pyspark.sql import functions as F

    probe = F.udf(_probe(), "string", useArrow=False)  # the worker may lack pyarrow
    try:
        row = session.range(1).select(probe(F.col("id")).alias("w")).first()
    except Exception as err:  # the worker could not even run the probe
        first = next((ln for ln in str(err).splitlines() if ln.strip()), type(err).__name__)
        raise RuntimeError(
            "Spark's Python workers failed to run a one-row task (the driver runs "
            f"{sys.executable}, Python {sys.version.split()[0]}): {first[:300]}. "
            f"They may run another interpreter than the driver; {_fix()}"
        ) from err
    exe, version, missing = row["w"].split("\t")
    if missing:
        raise RuntimeError(
            f"Spark's Python workers run {exe} (Python {version}), which cannot import "
            f"what prroc_numba needs there ({missing}); the driver runs {sys.executable} "
            f"(Python {sys.version.split()[0]}). {_fix()[0].upper()}{_fix()[1:]}"
        )
    if exe != sys.executable:
        LOG.info("prroc_numba: Spark's Python workers run %s (Python %s)", exe, version)
    _checked.add(key)
