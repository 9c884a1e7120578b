"""The command line's input on Dask (``prroc-numba ... --engine dask``).

:func:`session` is a ``distributed.LocalCluster`` started for the command and closed
after it, or the scheduler ``--master`` names; :func:`read` reads the input with
``dask.dataframe`` (a Parquet dataset's ``key=value`` folders become columns).
"""

from __future__ import annotations

import contextlib

from .._core import check_read_columns


@contextlib.contextmanager
def session(master):
    """A client of the scheduler ``master``, or of a local cluster for the command."""
    from distributed import Client, LocalCluster

    if master:
        with Client(master) as client:
            yield client
        return
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        yield client


def read(client, path, kind, want):
    """The columns ``want`` of the input at ``path`` (``kind``: ``"csv"`` or
    ``"parquet"``) as a Dask DataFrame; a ValueError naming a missing column. Hive
    partition keys (categoricals) are read as their values, as the in-memory path reads
    them.
    """
    import dask.dataframe as dd

    if kind == "csv":
        frame = dd.read_csv(path, sep="\t" if ".tsv" in path else ",")
    else:
        frame = dd.read_parquet(path)
    check_read_columns(want, frame.columns, path)
    frame = frame[want]
    types = {}
    for c in want:
        if str(frame[c].dtype) == "category":
            kind_ = frame[c].cat.categories.dtype
            types[c] = "int64" if kind_.kind in "iu" else kind_
    return frame.astype(types) if types else frame
