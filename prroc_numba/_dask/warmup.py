"""The Dask wing's representative calls, for the build's warm-up and ``prroc-numba
warmup`` (:mod:`prroc_numba._jit.warmup` gathers them): the public functions on a small
Dask frame, synchronously, through both exact routes (merged tables and score ranges),
and the signatures of the kernels only the Dask partitions reach, which the build
compiles even without Dask. Dask is imported only when a call runs.
"""

from __future__ import annotations


def available() -> bool:
    """Whether dask (and its dataframes) can be imported here."""
    try:
        import dask.dataframe  # noqa: F401
    except ImportError:
        return False
    return True


def _dask(d, call):
    import dask
    import dask.dataframe as dd

    import prroc_numba as prn

    ddf = dd.from_pandas(d.small, npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        return call(prn, ddf)


def _dask_ranges(d, call):
    import dask

    with dask.config.set({"prroc_numba.dask_exact": "ranges"}):
        return _dask(d, call)


def signatures() -> dict:
    """``{kernel: argument types}`` of the kernels that only the Dask partition
    functions reach, as they reach them (C-contiguous writable arrays, one dtype path).

    :func:`prroc_numba._jit.warmup.compile_dask_kernels` compiles them from these
    signatures, so a build
    environment without Dask ships them too; the calls of :data:`CALLS` check the
    types: ``tests/test_wheel.py`` builds the wheel with Dask hidden, and the installed
    wheel compiles nothing on those calls.
    """
    from numba import types as T

    i8, f8 = T.int64, T.float64

    def a(dtype, ndim=1):
        return T.Array(dtype, ndim, "C")

    k = "prroc_numba._kernels."
    return {
        k + "paired_masses._paired_masses": (a(i8, 2), a(i8), a(f8), a(f8), i8, i8, i8, i8),
        k + "resample_poisson._table_vertices": (a(f8, 2), a(f8, 2), i8, i8, i8, a(f8), a(f8)),
        k + "resample_poisson._table_replicates": (
            a(i8),
            a(f8, 2),
            a(f8, 2),
            T.Tuple((i8, T.boolean, a(f8))),
            a(f8, 3),
        ),
        k + "ranges._range_hulls": (a(i8), a(f8), a(f8), a(f8), a(f8)),
        k + "ranges._range_areas": (a(i8), a(f8), a(f8), a(f8), a(f8), i8),
        k + "segments.segment_area_cpu": (i8, f8, f8, f8, f8),
        k + "ranges._replicate_range_totals": (
            a(i8),
            a(i8),
            a(f8),
            a(f8),
            i8,
            a(f8, 2),
            a(f8, 2),
        ),
        k + "ranges._replicate_range_areas": (
            a(i8),
            a(i8),
            a(i8),
            a(f8),
            a(f8),
            a(f8, 2),
            a(f8, 2),
            i8,
            i8,
            i8,
            i8,
            a(f8, 2),
        ),
    }


#: (name, call): ``call(d)`` on the warm-up's inputs ``d`` (needs dask)
CALLS = [
    ("dask auc", lambda d: _dask(d, lambda prn, x: prn.auc(x, score="s", label="y", by="g"))),
    (
        "dask bootstrap",
        lambda d: _dask(
            d, lambda prn, x: prn.bootstrap(x, score=["s", "si"], label="y", n_boot=20, seed=0)
        ),
    ),
    (
        "dask bootstrap_curve",
        lambda d: _dask(
            d,
            lambda prn, x: prn.bootstrap_curve(x, score="s", label="y", n_boot=20, seed=0, grid=11),
        ),
    ),
    (
        "dask ranges auc hull",
        lambda d: _dask_ranges(
            d, lambda prn, x: prn.auc(x, score="s", label="y", by="g", hull=True)
        ),
    ),
    (
        "dask ranges auc",
        lambda d: _dask_ranges(d, lambda prn, x: prn.auc(x, score="s", label="y", by="g")),
    ),
    (
        "dask ranges bootstrap",
        lambda d: _dask_ranges(
            d, lambda prn, x: prn.bootstrap(x, score=["s", "si"], label="y", n_boot=20, seed=0)
        ),
    ),
    (
        "dask ranges bootstrap hull",
        lambda d: _dask_ranges(
            d, lambda prn, x: prn.bootstrap(x, score="s", label="y", n_boot=20, seed=0, hull=True)
        ),
    ),
    (
        "dask ranges bootstrap_curve",
        lambda d: _dask_ranges(
            d,
            lambda prn, x: prn.bootstrap_curve(x, score="s", label="y", n_boot=20, seed=0, grid=11),
        ),
    ),
]
