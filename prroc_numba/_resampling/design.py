"""What a bootstrap replicate draws: the design of a plan (:mod:`.plan`).

Every label row gets a **slot**: its place among the units its group draws, stratum
by stratum. A replicate is a vector of counts over a group's slots (drawn stratum by
stratum, :mod:`prroc_numba._kernels.resample`), shared by every model of the
group (paired). Four designs fill the slots:

* rows (:func:`row_design`): a slot per row, per class with ``stratified=True``
  (positives first inside a stratum), optionally within an extra stratum code per
  row (the fold); rows of zero weight get an extra slot that is never drawn;
* clusters (:func:`cluster_design`, ``cluster=``): a slot per (group, stratum,
  cluster), so a replicate counts clusters and every row of a drawn cluster comes
  along, once per draw;
* multiclass rows (:func:`multiclass_design`): a slot per original row of a
  resampling group, so all classes, the micro curve and all models are resampled
  together;
* the Poisson bootstrap (``poisson``): rows as above, each slot's count keyed by its
  input row id.

Cluster codes come from the call's ``cluster=`` (:func:`cluster_codes`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._core.batch import lengths_to_offsets, row_ids
from .._core.resolve import as_1d, frame_column

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
        arr = frame_column(data, cluster, "cluster").to_numpy()
    else:
        arr = as_1d(cluster, "cluster", batch.n_input)
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


@dataclass(frozen=True)
class Design:
    """What a replicate of a plan draws, built by :func:`design` (never filled in later).

    ``slot``: the slot of every label row (multiclass: of every original row, and
    ``label_slot`` the slot at every label row); group ``g``'s slots are
    ``strata_offsets[g * n_strata] ..``, stratum by stratum. ``hard``: unweighted 0/1
    labels, positives first in their group's slots (``n_pos_slots``), so a walk reads
    slot numbers only; ``grouped``: one model per group and hard labels, drawn as
    counts per segment (:func:`~prroc_numba._kernels.resample._boot_grouped`).
    ``count_type``: an empty array of the count type that never overflows (int32 when
    a stratum has more than 65,535 units); ``slot_ids``: the input row id of every slot
    (Poisson only); ``work``: row visits per replicate.
    """

    stratified: bool
    poisson: bool
    slot: np.ndarray
    label_slot: np.ndarray
    strata_offsets: np.ndarray
    n_strata: int
    n_groups: int
    n_pos_slots: np.ndarray
    count_type: np.ndarray
    hard: bool
    grouped: bool
    work: float
    slot_ids: np.ndarray | None = None
    row_slot: np.ndarray | None = None
    clustered: bool = False


def _count_type(counts):
    """The count type that holds every stratum's draws (uint16 unless one is bigger)."""
    big = counts.max(initial=0) > np.iinfo(np.uint16).max
    return np.empty(0, dtype=np.int32 if big else np.uint16)


class ClusterArg(NamedTuple):
    """A call's ``cluster=`` as the user gave it (a column name of ``data``, or one id
    per input row), read by :func:`design` (:func:`cluster_codes`) when the plan is made.
    """

    data: Any
    cluster: Any


def design(batch, stratified, cluster=None, poisson=False, strata=None):
    """The :class:`Design` of ``batch``: multiclass rows, clusters (int64 codes per
    label row, :func:`cluster_codes`; or a :class:`ClusterArg`, read here) or rows,
    within ``strata`` (an int64 code per label row, e.g. its fold) when given.
    """
    if isinstance(cluster, ClusterArg):
        cluster = cluster_codes(cluster.data, cluster.cluster, batch)
    stratified, poisson = bool(stratified), bool(poisson)
    if batch.multi is not None:
        if cluster is not None:
            raise ValueError(
                "cluster= is not available with multiclass or multilabel input yet; "
                "drop cluster= (rows are then resampled one by one)"
            )
        return multiclass_design(batch, stratified, poisson)
    rows = row_design(batch, stratified, poisson, strata)
    return rows if cluster is None else cluster_design(rows, batch, cluster)


def row_design(batch, stratified, poisson=False, strata=None):
    """Slot of every label row: its place among its group's drawable rows, stratum by
    stratum (positives first inside a stratum); zero-weight rows get the group's extra
    slot (never drawn).
    """
    b = batch
    hard = bool(np.all(((b.pos == 0) | (b.pos == 1)) & (b.pos + b.neg == 1)))
    both = (b.pos > 0) & (b.neg > 0)
    if stratified and both.any():
        raise ValueError(
            "stratified=True resamples positives and negatives separately, which needs "
            "hard 0/1 labels; soft labels mix both classes in one row. Pass "
            "stratified=False to resample rows"
        )
    n = b.pos.size
    G = b.group_offsets.size - 1
    lengths = np.diff(b.group_offsets)
    g_of_row = np.repeat(np.arange(G, dtype=np.int64), lengths)
    if stratified:
        cls = np.where(b.pos > 0, 0, np.where(b.neg > 0, 1, -1))
        n_strata = 2
    else:
        cls = np.where(b.pos + b.neg > 0, 0, -1)
        n_strata = 1
    if strata is not None:  # class-major: a group's positives stay first
        V = int(strata.max(initial=0)) + 1
        cls = np.where(cls >= 0, cls * V + strata, -1)
        n_strata *= V
    keep = cls >= 0  # rows of zero weight are never drawn (zero weight = removal)
    key = (g_of_row * n_strata + cls)[keep]
    del cls
    # inside a stratum, positive rows take the first slots: with hard unweighted
    # labels a slot's class is then known from its number alone
    idx = np.lexsort(((b.pos <= 0)[keep], key))
    counts = np.bincount(key, minlength=G * n_strata)
    del key
    strata_offsets = lengths_to_offsets(counts)
    first = strata_offsets[np.arange(G) * n_strata]
    n_slots = strata_offsets[np.arange(1, G + 1) * n_strata] - first
    slot = n_slots[g_of_row]
    kept_rows = np.flatnonzero(keep)[idx]
    del idx, keep
    slot[kept_rows] = np.arange(kept_rows.size) - first[g_of_row[kept_rows]]
    n_pos_slots = (
        np.add.reduceat(b.pos > 0, b.group_offsets[:-1]).astype(np.int64)
        if n
        else np.zeros(G, dtype=np.int64)
    )
    return Design(
        stratified=stratified,
        poisson=poisson,
        slot=slot,
        label_slot=slot,
        strata_offsets=strata_offsets,
        n_strata=n_strata,
        n_groups=G,
        n_pos_slots=n_pos_slots,
        count_type=_count_type(counts),
        # fold-major strata without classes: a group's positives no longer come first
        hard=hard and (strata is None or stratified),
        # one model per group and unweighted 0/1 labels: draw counts per segment (the
        # Poisson bootstrap draws a count per row: always the paired walk)
        grouped=hard and b.n_models == 1 and not poisson and strata is None,
        # row visits per replicate (segment visits when grouped, once they are known)
        work=float(n) * (1.0 + b.n_models),
        # Poisson: the input row id of each slot (its count is keyed by it)
        slot_ids=row_ids(b)[kept_rows] if poisson else None,
    )


def cluster_design(rows, batch, codes):
    """Draw clusters instead of rows (``rows``: the batch's :func:`row_design`): a
    row's slot becomes its cluster's, so the paired draws count clusters and every row
    of a drawn cluster comes along; the walk reads masses (not the slot numbers).
    """
    slot, strata_offsets, n_strata, counts = cluster_slots(batch, codes, rows.stratified)
    return replace(
        rows,
        slot=slot,
        label_slot=slot,
        strata_offsets=strata_offsets,
        n_strata=n_strata,
        count_type=_count_type(counts),
        hard=False,
        grouped=False,
        clustered=True,
    )


def multiclass_design(batch, stratified, poisson=False):
    """Slots of a multiclass batch (see :class:`~prroc_numba._multiclass.Rows`).

    A replicate draws the **original rows** of each resampling group once (stratified by
    class, or by label pattern for multilabel input); every label row of every curve
    carries the count of its original row (``label_slot``), so all classes, the micro
    curve and all models of the group are resampled together (paired). ``row_slot``:
    the slot of each original row (tests map draws back to rows).
    """
    rows = batch.multi
    R = rows.n_groups
    n = rows.stratum.size
    g_of_row = np.repeat(np.arange(R, dtype=np.int64), np.diff(rows.offsets))
    st = rows.stratum if stratified else np.zeros(n, dtype=np.int64)
    n_strata = int(st.max(initial=0)) + 1
    key = g_of_row * n_strata + st
    idx = np.argsort(key, kind="stable")
    counts = np.bincount(key, minlength=R * n_strata)
    strata_offsets = lengths_to_offsets(counts)
    first = strata_offsets[np.arange(R) * n_strata]
    slot = np.empty(n, dtype=np.int64)
    slot[idx] = np.arange(n) - first[g_of_row[idx]]
    return Design(
        stratified=stratified,
        poisson=poisson,
        slot=slot,
        label_slot=slot[rows.label_row],
        strata_offsets=strata_offsets,
        n_strata=n_strata,
        n_groups=R,
        n_pos_slots=np.zeros(R, dtype=np.int64),
        count_type=_count_type(counts),
        hard=False,
        grouped=False,
        work=float(batch.values.size) * 2.0 + n,
        row_slot=slot,
    )
