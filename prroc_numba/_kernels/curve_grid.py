"""Precision of bootstrap replicates' PR curves on a recall grid (``bootstrap_curve``).

A thin adaptor: the interpolation itself is the shared grid kernel of :mod:`.grid`
(count interpolation -- FP linear in TP between vertices, never a straight line in PR
space; flat start at recall 0; at a recall reached by several vertices the best
precision). :mod:`.resample` calls only :func:`_precision_on_grid`, so the grid kernel
can change without touching the resampling code.
"""

from __future__ import annotations

from .._numba import jit
from .grid import _precision_at_recall, _precision_at_recall_batch
from .hull import _hull_indices


@jit
def _precision_on_grid(tp, fp, grid, out, hull):
    """Precision on ``grid`` of one curve's vertices (``hull=True``: of its achievable
    PR curve), written into ``out``. (Not through ``grid._interp_one``: a constant
    ``space_roc`` would compile it a second time, typed as a literal.)"""
    if hull:
        idx = _hull_indices(tp, fp)
        _precision_at_recall(tp[idx], fp[idx], grid, out)
    else:
        _precision_at_recall(tp, fp, grid, out)


def _grid_batch(tp, fp, offsets, grid, hull):
    """Precision on ``grid`` of every curve of a ragged vertex batch
    (``tp[offsets[c]:offsets[c + 1]]``); float64 ``(n_curves, grid.size)``."""
    return _precision_at_recall_batch(tp, fp, offsets, grid, hull)
