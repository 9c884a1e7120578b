"""Multiclass and multilabel batches in the resampling: the replicates reduced to output
rows, and a bootstrap plan's rows for a multiclass batch.

The packing of multiclass and multilabel input (:class:`~._core.multiclass.Rows`,
``batch.multi``) is in :mod:`prroc_numba._core.multiclass`.
"""

from __future__ import annotations

import numpy as np

from ._core.batch import describe_row
from ._schema import MODEL


class Reduced:
    """What the bootstrap/compare code reads from a batch, after the reduction."""

    def __init__(self, keys, n_models, n_groups):
        self.keys = keys
        self.n_models = n_models
        self.group_offsets = np.arange(n_groups + 1, dtype=np.int64)
        self.n_curves = len(keys)

    def describe(self, c: int) -> str:
        return describe_row(self.keys.iloc[c]) if self.keys.shape[1] else "the curve"


def reduce_replicates(batch, est, reps):
    """Estimates and replicates per output row, and a :class:`Reduced` batch view."""
    m = batch.multi
    if m is None:
        return batch, est, reps
    n_models = 1
    keys = m.out_keys
    if MODEL in keys.columns and m.n_groups == 1:
        n_models = len(keys)
    return (Reduced(keys, n_models, len(keys) // n_models), m.reduce(est), m.reduce(reps))


def plan_rows(plan, batch, stratified):
    """Fill a bootstrap plan's row slots for a multiclass batch (see ``Rows``); returns
    the slot of every label row (the plan reads it at every curve's sorted rows).

    A replicate draws the **original rows** of each resampling group once (stratified by
    class, or by label pattern for multilabel input); every label row of every curve
    carries the count of its original row (``slot_order``), so all classes, the micro
    curve and all models of the group are resampled together (paired).
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
    strata_offsets = np.zeros(R * n_strata + 1, dtype=np.int64)
    np.cumsum(counts, out=strata_offsets[1:])
    first = strata_offsets[np.arange(R) * n_strata]
    slot = np.empty(n, dtype=np.int64)
    slot[idx] = np.arange(n) - first[g_of_row[idx]]
    plan.row_slot = slot  # slot of each original row (tests map draws back to rows)
    plan.strata_offsets = strata_offsets
    plan.n_strata = n_strata
    plan.n_groups = R
    plan.grouped = False
    plan.hard = False
    plan.n_pos_slots = np.zeros(R, dtype=np.int64)
    big = counts.max(initial=0) > np.iinfo(np.uint16).max
    plan.count_type = np.empty(0, dtype=np.int32 if big else np.uint16)
    plan.work = float(batch.values.size) * 2.0 + n
    return slot[rows.label_row]
