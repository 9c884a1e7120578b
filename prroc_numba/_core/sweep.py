"""The confusion sweep of a packed batch: every curve's distinct-score vertices (or its
counts at given thresholds), then optionally its ROC convex hull. The one path from a
:class:`~prroc_numba._core.batch.Batch` to points, shared by the curve functions and the
Precision-Recall-Gain curves.
"""

from __future__ import annotations

import numpy as np

from .._drivers import compact_points, counts_at_batch, hull_batch, split_sweep_range
from .._drivers.sweep import sweep_batch
from .._drivers.threads import run_curves
from . import device as _device
from .batch import lengths_to_offsets
from .exact_ints import original_thresholds, refuse
from .memory import check
from .presort import split_sorted, sweep_buffers
from .thresholds import ragged_thresholds


def sweep_points(batch, thresholds, hull=False, device="cpu"):
    """Sweep (or counts at ``thresholds``), then optionally the hull vertices.

    Returns thr, tp, fp, out_offsets and P, N per curve.
    """
    if batch.score_levels is not None:
        _check_levels(batch, thresholds, device)
    P = N = None
    if device == "cuda":
        if thresholds is not None:
            raise ValueError(
                "thresholds= is evaluated on the CPU only; pass device='cpu' "
                "(or leave device=None with host arrays)"
            )
        gpu = _device.backend()
        thr, tp, fp, off = gpu.sweep_batch(batch)
        if hull:
            idx, off = gpu.hull_batch(tp, fp, off)
            thr, tp, fp = thr[idx], tp[idx], fp[idx]
        P, N = batch.totals()
        return thr, tp, fp, off, P, N
    if thresholds is None:  # the sweep's scratch (thresholds, counts) and sorted scores
        _check_fit(batch, 32 * (batch.values.size + batch.n_curves), "sorted scores and counts")
    split = split_sorted(batch) if thresholds is None else None
    if split is not None:  # hard, unweighted labels: keys-only sorts, no argsort
        thr, tp, fp, off = _split_sweep(batch, *split)
        # unit masses: the class totals are the counts of the split (exact in float64)
        P = split[1].astype(np.float64)
        N = np.diff(batch.offsets) - P
    elif thresholds is None:
        thr, tp, fp, off = sweep_batch(
            batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
        )
    else:
        thr, off = ragged_thresholds(batch, thresholds)
        tp, fp = counts_at_batch(
            batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start, thr, off
        )
    if hull:
        idx, off = hull_batch(tp, fp, off)
        thr, tp, fp = thr[idx], tp[idx], fp[idx]
    # the two derived columns and the repeated keys of the output frame
    _check_fit(batch, int(off[-1]) * 8 * (2 + batch.keys.shape[1]), f"{int(off[-1]):,} points")
    if P is None:
        P, N = batch.totals()
    return original_thresholds(batch, thr, off), tp, fp, off, P, N


def _check_levels(batch, thresholds, device):
    """Ranked integer scores: the sweeps that cannot keep their thresholds exact."""
    if thresholds is not None:
        refuse(batch, "thresholds= (compared as floats)", "drop thresholds= for the exact curve")
    if device == "cuda":
        refuse(batch, "the GPU sweep", "pass device='cpu'")
    if batch.multi is not None:
        refuse(
            batch,
            "a multiclass or multilabel curve frame",
            "rank the scores first (e.g. scipy.stats.rankdata) or use float scores",
        )


def _check_fit(batch, needed, what):
    """Refuse a curve whose arrays cannot fit (see :mod:`prroc_numba._core.memory`)."""
    check(
        needed,
        f"a curve call on {batch.n_curves:,} curves over {batch.values.size:,} scores ({what})",
        "thresholds= (counts at thresholds you choose, e.g. np.linspace(0, 1, 1001)); "
        "fewer curves per call; hull=True (roc_curve / pr_curve: only the hull's "
        "vertices are returned); or auc() / bootstrap() when only the areas are needed",
    )


def _split_sweep(batch, svals, npos):
    """The sweep of a class-split sorted batch (:func:`prroc_numba._core.presort.split_sorted`):
    curves merged in chunks on the thread pool, each at its largest possible start, then
    moved down over the room their ties left (only when some curve must move).
    """
    thr, tp, fp = sweep_buffers(batch)
    counts = np.empty(batch.n_curves, dtype=np.int64)
    run_curves(split_sweep_range, batch.offsets, svals, batch.offsets, npos, thr, tp, fp, counts)
    off = lengths_to_offsets(counts)
    src = batch.offsets[:-1] + np.arange(batch.n_curves)
    if (src != off[:-1]).any():
        compact_points(thr, tp, fp, src, off)
    return thr[: off[-1]], tp[: off[-1]], fp[: off[-1]], off
