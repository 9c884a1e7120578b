"""Bootstrap replicates from a reduced table: per curve, distinct score -> (positives,
negatives), as :mod:`prroc_numba._core.table` holds it.

For one model per group and unweighted 0/1 labels, the in-memory bootstrap draws its
counts per **segment** of a curve (``boot_grouped``, offered by :mod:`prroc_numba._drivers`):
every tied block of scores holding positives is a segment, and every run of tied
blocks holding negatives only is merged into one. A segment's positive and negative
counts are read off the table's entries alone, and the random stream of a replicate is
keyed by ``(seed, curve, replicate)``, so replicates drawn from the table equal those
of :func:`prroc_numba.bootstrap` on the rows the table was built from (stratified or
not), whatever the order in which the rows arrived. What needs the rows themselves
(weights, soft labels, clusters, paired models, the Poisson bootstrap keyed by row ids)
cannot be drawn from a table.
"""

from __future__ import annotations

import numpy as np

from .._checks import kernel_seed
from .._core import warn_undefined_auc
from .._drivers import boot_grouped, run_items
from .._drivers import table_areas as driver_table_areas
from .intervals import interval_bounds, warn_degenerate
from .plan import _cell_tables


def table_segments(offsets, pos, neg):
    """The segments of every curve of a table whose entries are sorted by curve, then
    score descending (one entry per distinct score): ``(seg_offsets, sp, sn)``.
    """
    n = pos.size
    start = np.zeros(n, dtype=bool)
    has = pos > 0
    start[offsets[:-1][offsets[:-1] < n]] = True  # every curve starts a segment
    start[1:] |= has[1:] | has[:-1]  # a positive block is a segment of its own
    idx = np.flatnonzero(start)
    sp = np.add.reduceat(pos, idx) if n else np.empty(0)
    sn = np.add.reduceat(neg, idx) if n else np.empty(0)
    seg_offsets = np.searchsorted(idx, offsets).astype(np.int64)
    return seg_offsets, np.ascontiguousarray(sp, np.float64), np.ascontiguousarray(sn, np.float64)


def is_counts(pos, neg) -> bool:
    """Whether the table's masses are row counts (unweighted 0/1 labels)."""
    return bool(np.all(pos == np.round(pos)) and np.all(neg == np.round(neg)))


def table_replicates(offsets, pos, neg, code, hull, n_boot, seed, stratified=True):
    """Replicate areas ``(n_curves, n_boot)`` by estimator ``code`` of a table of row
    counts (see the module docstring): those of the in-memory bootstrap of the same rows
    for the same ``seed`` (curve ``c`` drawing the stream of the in-memory call's curve
    ``c``: one model per group).
    """
    seg_offsets, sp, sn = table_segments(offsets, pos, neg)
    C = offsets.size - 1
    B = int(n_boot)
    lp, ln, tabs = _cell_tables(sp, sn, True)
    segs = (seg_offsets, sp, sn, np.arange(C, dtype=np.int64))
    draw = (bool(stratified), lp, ln, tabs)
    spec = (int(code), bool(hull), np.empty(0))
    reps = np.empty((C, 1, B))
    run_items(boot_grouped, C * B, segs, draw, kernel_seed(seed), 0, B, spec, reps)
    return reps[:, 0, :]


def table_areas(offsets, pos, neg, code, hull):
    """Every curve's area by estimator ``code`` from its entries' masses (no sort)."""
    p1 = np.ascontiguousarray(pos, np.float64)[:, None]
    n1 = np.ascontiguousarray(neg, np.float64)[:, None]
    return driver_table_areas(offsets, p1, n1, int(code), bool(hull))[:, 0]


def table_bootstrap(
    curves, offsets, pos, neg, *, curve, code, hull, n_boot, level, seed, stratified
):
    """``(estimate, se, ci_low, ci_high, n_degenerate)`` per curve of a table of row
    counts, as :func:`prroc_numba.bootstrap` (percentile intervals) gives them for the
    rows the table was built from. ``curves``: what names the curves in warnings (a
    :class:`~prroc_numba._core.table.Layout`).
    """
    P = np.add.reduceat(pos, offsets[:-1]) if pos.size else np.zeros(offsets.size - 1)
    N = np.add.reduceat(neg, offsets[:-1]) if neg.size else np.zeros(offsets.size - 1)
    est = table_areas(offsets, pos, neg, code, hull)
    bad = warn_undefined_auc(curves, curve, stacklevel=4, totals=(P, N))
    est[bad] = np.nan
    reps = table_replicates(offsets, pos, neg, code, hull, n_boot, seed, stratified)
    reps[bad] = np.nan
    n_bad = warn_degenerate(curves, est, reps, int(n_boot), stacklevel=4)
    se, lo, hi = interval_bounds(reps, est, level, "percentile", None)
    return est, se, lo, hi, n_bad.astype(np.int64)
