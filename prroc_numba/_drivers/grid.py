"""Curves onto shared grids, and the check of curves given as points, for a whole
ragged batch: the kernels of :mod:`prroc_numba._kernels.grid` (conventions documented
there) run over chunks of curves on the thread pool (:func:`.threads.run_curves`: each
curve by one thread, so results do not depend on the thread count).

These drivers are plain Python on purpose: called from jitted code, the constant
``space_roc`` would be typed as a literal and compile ``_interp_curves`` (and its
callees) twice; from Python it is a runtime bool: one specialisation
(tests/test_specialisations.py).
"""

from __future__ import annotations

import numpy as np

from .._kernels.grid import _interp_curves
from .._kernels.points import NOT_SORTED, OK, _check_curves
from .threads import run_curves


def _interp_batch_into(tp, fp, offsets, grid, hull, space_roc, out):
    """Fill ``out`` (float64 ``(n_curves, grid.size)``, C order): row ``c`` is curve
    ``c`` (``tp[offsets[c]:offsets[c + 1]]``) on ``grid``; chunks of curves in parallel
    on the thread pool (:func:`.threads.run_curves`: each curve by one thread, so the
    result does not depend on the thread count).
    """
    run_curves(_interp_curves, offsets, tp, fp, offsets, grid, bool(hull), bool(space_roc), out)


def precision_at_recall_batch(tp, fp, offsets, grid, hull):
    """Precision at each recall of ``grid`` for every curve of a ragged batch.

    ``tp[offsets[c]:offsets[c + 1]]`` (and ``fp``) are curve ``c``'s vertices in sweep
    order. Returns float64 ``(n_curves, grid.size)``.
    """
    out = np.empty((offsets.size - 1, grid.size))
    _interp_batch_into(tp, fp, offsets, grid, bool(hull), False, out)
    return out


def tpr_at_fpr_batch(tp, fp, offsets, grid, hull):
    """TPR at each FPR of ``grid`` for every curve of a ragged batch (see the PR twin)."""
    out = np.empty((offsets.size - 1, grid.size))
    _interp_batch_into(tp, fp, offsets, grid, bool(hull), True, out)
    return out


def check_points(
    starts, tp, fp, P_row, N_row, p_rate, n_rate, tol, grid=None, hull=False, space_roc=False
):
    """Validate the points of many curves and find each curve's totals; with ``grid``,
    interpolate them onto it in the same pass.

    Rows of curve ``c`` are ``[starts[c]:starts[c + 1]]`` (non-empty).
    ``P_row``/``N_row``: per-row class totals, or empty arrays to read them from the
    rates ``p_rate`` (recall or TPR: ``P = tp / rate``) and ``n_rate`` (FPR) where given
    (non-empty), else to take each curve's largest TP and FP. Returns
    ``(status, row, P, N, complete, values)``: ``NOT_SORTED`` when the rows of some
    curve are not ordered by (TP, FP) (sort them and call again: nothing else is
    reported then); else the problem of the first curve that has one (a status code
    above and the row it concerns; for ``NOT_MONOTONE`` the later of the two rows), and
    whether every curve already starts at the origin, ends at ``(P, N)`` and needs no
    rounding fix (then the input can be used as it is). ``values`` (with ``grid``, else
    None): the ``(n_curves, grid.size)`` matrix of :func:`_interp_batch_into`
    (``hull``, ``space_roc`` as there) when ``complete``, else None (the curves need
    their ends first). One pass per curve, curves in parallel chunks on the thread pool
    (:func:`.threads.run_curves`).
    """
    n_curves = starts.size - 1
    P = np.empty(n_curves)
    N = np.empty(n_curves)
    st = np.empty(n_curves, dtype=np.int64)
    rows = np.empty(n_curves, dtype=np.int64)
    comp = np.empty(n_curves, dtype=np.bool_)
    if grid is None:
        grid = np.empty(0)
        out = np.empty((0, 0))
    else:
        out = np.empty((n_curves, grid.size))
    inputs = (tp, fp, P_row, N_row, p_rate, n_rate, tol, grid, bool(hull), bool(space_roc))
    run_curves(_check_curves, starts, starts, *inputs, out, P, N, st, rows, comp)
    if (st == NOT_SORTED).any():
        return NOT_SORTED, -1, P, N, False, None
    bad = np.flatnonzero(st != OK)
    if bad.size:
        return int(st[bad[0]]), int(rows[bad[0]]), P, N, False, None
    complete = bool(comp.all())
    return OK, -1, P, N, complete, out if complete and out.shape[0] == n_curves else None
