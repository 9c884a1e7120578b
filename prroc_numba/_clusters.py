"""The ``cluster=`` argument of the resampling functions: one code per label row.

Resampling whole clusters (several rows per patient, user or session) keeps the rows
of a cluster together: a replicate draws clusters with replacement and every row of a
drawn cluster comes along, once per draw. The replicate drivers need nothing new:
in :class:`prroc_numba._resampling._Plan` a cluster takes the place of a row's "slot",
so the row-count vector of the paired draws becomes a cluster-count vector, shared by
every model of the group (paired).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._core.batch import lengths_to_offsets
from ._core.resolve import _as_1d, _column

DOC = """
    cluster : str or array-like of shape (n_samples,), default=None
        Cluster of each row (a column name or an array): resample whole clusters
        instead of rows -- for several rows per patient, user or session, whose
        correlation makes a row bootstrap too narrow. A replicate draws as many
        clusters, with replacement, as the group has (each ``by`` group on its own;
        every model of a group sees the same clusters: paired). With
        ``stratified=True`` every cluster must hold one class (e.g. one label per
        patient, several images each): positive clusters and negative clusters are
        drawn separately, so the number of positive *clusters* is fixed (the number
        of positive rows may still vary with the cluster sizes). A cluster holding
        both classes cannot be put in one class's stratum: pass ``stratified=False``,
        which draws clusters regardless of class (the prevalence then varies too).
        Clusters that are one row each give the row bootstrap."""


def cluster_codes(data, cluster, batch):
    """int64 code of each label row's cluster (codes in order of first appearance in
    the batch's row order), or None; clear errors for a missing column, a length
    mismatch or missing values.
    """
    if cluster is None:
        return None
    if isinstance(cluster, str):
        if data is None:
            raise TypeError(f"cluster={cluster!r} names a column but data is None; pass data=")
        arr = _column(data, cluster, "cluster").to_numpy()
    else:
        arr = _as_1d(cluster, "cluster", batch.n_input)
    if arr.shape[0] != batch.n_input:
        raise ValueError(
            f"cluster has {arr.shape[0]} rows but the data has {batch.n_input}; pass one "
            "cluster id per row"
        )
    if batch.rows is not None:
        arr = arr[batch.rows]
    codes, _ = pd.factorize(arr, use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError(
            f"cluster has {int((codes < 0).sum())} missing values; give every row a "
            "cluster id (e.g. its own row number)"
        )
    return codes.astype(np.int64)


def cluster_slots(batch, codes, stratified):
    """Cluster units of each group: ``(slot, strata_offsets, n_strata, counts)``.

    A unit is a (group, stratum, cluster); units are numbered group by group, stratum
    by stratum (stratum 0: positive clusters, 1: negative ones when ``stratified``),
    clusters in order of first appearance. ``slot[r]`` is the unit of label row ``r``
    counted from its group's first unit; ``strata_offsets`` counts units per
    (group, stratum) as the paired draws expect.
    """
    G = batch.group_offsets.size - 1
    lengths = np.diff(batch.group_offsets)
    g_of_row = np.repeat(np.arange(G, dtype=np.int64), lengths)
    n_strata = 2 if stratified else 1
    if stratified:
        cls = np.where(batch.pos > 0, 0, 1).astype(np.int64)
        K = codes.max(initial=0) + 1
        pair = g_of_row * K + codes
        lo = pd.Series(cls).groupby(pair).transform("min").to_numpy()
        hi = pd.Series(cls).groupby(pair).transform("max").to_numpy()
        mixed = lo != hi
        if mixed.any():
            r = int(np.argmax(mixed))
            raise ValueError(
                f"cluster= with stratified=True needs every cluster to hold one class, but "
                f"{int(np.unique(pair[mixed]).size)} clusters hold positives and negatives "
                f"(first in {batch.describe(int(g_of_row[r]) * batch.n_models)}); pass "
                "stratified=False to draw clusters regardless of class"
            )
    else:
        cls = np.zeros(codes.size, dtype=np.int64)
    key = (g_of_row * n_strata + cls) * (codes.max(initial=0) + 1) + codes
    units, unit = np.unique(key, return_inverse=True)
    unit_stratum = units // (codes.max(initial=0) + 1)
    counts = np.bincount(unit_stratum, minlength=G * n_strata)
    strata_offsets = lengths_to_offsets(counts)
    first = strata_offsets[np.arange(G) * n_strata]
    slot = unit.astype(np.int64) - first[g_of_row]
    return slot, strata_offsets, n_strata, counts
