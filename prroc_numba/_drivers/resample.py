"""Drivers of the bootstrap kernels: one stable descending sort of every curve cut into
segments (:mod:`prroc_numba._kernels.resample`, two passes over chunks of curves on the
thread pool), and replicates from merged entry masses
(:mod:`prroc_numba._kernels.resample_poisson`) in their two shapes.
"""

from __future__ import annotations

import numpy as np

from .._kernels.layout import _offsets_from_counts
from .._kernels.resample import _fill_segments_range, _sort_and_count
from .._kernels.resample_poisson import _table_replicates
from .threads import run_curves


def segments_batch(values, offsets, pos, neg, label_start, masses=True):
    """Sort every curve once and cut it into segments.

    Returns ``(order, ps, ns, seg_offsets, seg_end, sp, sn)``:
    ``order[offsets[c]:offsets[c+1]]`` is curve ``c``'s descending argsort (local row
    indices, int32) and ``ps``/``ns`` its rows' positive / negative mass in that order
    (empty with ``masses=False``); its segments are ``[seg_offsets[c]:seg_offsets[c+1]]``
    with exclusive end positions ``seg_end`` (in sorted order) and positive / negative
    mass ``sp`` / ``sn``. See :func:`sorted_curves` (which the bootstrap plan calls).
    """
    out = sorted_curves(values, offsets, pos, neg, label_start, masses)
    return (out["order"], out["ps"], out["ns"]) + out["segments"]


def sorted_curves(
    values, offsets, pos, neg, label_start, masses, slots=None, keep_order=True, estimate=None
):
    """One stable descending sort of every curve and what the bootstrap reads of it.

    Two serial passes over chunks of curves on the thread pool
    (:func:`.threads.run_curves`; compiles seconds faster than ``prange``): sort and count
    the segments (and gather the masses in sorted order, ``masses``; and the curve's
    area by ``estimate = (method, hull)``, from the sorted scores the sort hands back, as
    :func:`prroc_numba._kernels.area._areas_batch` computes it), then fill the segments (and read
    ``slots``
    at the sorted rows). Returns a dict:

    * ``order``: int32, ``order[offsets[c]:offsets[c+1]]`` curve ``c``'s descending
      argsort in local row indices (None when ``slots`` is given without
      ``keep_order``: its buffer became ``slot_order``);
    * ``slot_order``: int32, ``slots[label_start[c] + order[i]]`` at every sorted row
      (``slots``: one int64 entry per label row; None without it). Without
      ``keep_order`` it is written over ``order``, so the one int32 array of every
      curve's sorted rows is all that the sort leaves (no int64 order, no second copy);
    * ``ps``/``ns``: the rows' positive / negative mass in sorted order (float64; empty
      without ``masses``: the hard-label walks read slot numbers only);
    * ``segments``: ``(seg_offsets, seg_end, sp, sn)`` (see :func:`segments_batch`);
    * ``estimate``: float64 area per curve (None without ``estimate``).

    Local row indices and slots are int32 (a curve of 2**31 rows holds 16 GiB of
    scores alone); the callers check it.
    """
    n_curves = offsets.size - 1
    order = np.empty(values.size, dtype=np.int32)
    ps = np.empty(values.size if masses else 0)
    ns = np.empty(values.size if masses else 0)
    counts = np.empty(n_curves, dtype=np.int64)
    method, hull = (-1, False) if estimate is None else estimate
    est = np.empty(n_curves if estimate is not None else 0)
    args = (values, offsets, pos, neg, label_start)
    run_curves(
        _sort_and_count,
        offsets,
        *args,
        bool(masses),
        int(method),
        bool(hull),
        order,
        ps,
        ns,
        counts,
        est,
    )
    seg_offsets = _offsets_from_counts(counts)
    total = int(seg_offsets[n_curves])
    seg_end = np.empty(total, dtype=np.int64)
    sp = np.empty(total)
    sn = np.empty(total)
    has_slots = slots is not None
    if has_slots:
        slots = np.ascontiguousarray(slots, dtype=np.int64)
        slot_order = order if not keep_order else np.empty_like(order)
    else:
        slots = np.empty(0, dtype=np.int64)
        slot_order = order
    segs = (seg_offsets, seg_end, sp, sn)
    run_curves(_fill_segments_range, offsets, *args, order, segs, slots, slot_order)
    return {
        "order": order if keep_order or not has_slots else None,
        "slot_order": slot_order if has_slots else None,
        "ps": ps,
        "ns": ns,
        "segments": segs,
        "estimate": est if estimate is not None else None,
    }


def table_areas(offsets, pb, nb, method, hull):
    """Replicate areas ``(n_curves, n_boot)`` from entry masses."""
    out = np.empty((offsets.size - 1, 1, pb.shape[1]))
    _table_replicates(offsets, pb, nb, (method, bool(hull), np.empty(0)), out)
    return out[:, 0, :]


def table_curves(offsets, pb, nb, grid, hull):
    """Replicate precisions on ``grid``, ``(n_curves, n_boot, grid.size)``: a view of
    the ``(n_curves, grid.size, n_boot)`` array the kernel writes.
    """
    out = np.empty((offsets.size - 1, grid.size, pb.shape[1]))
    _table_replicates(offsets, pb, nb, (-1, bool(hull), grid), out)
    return out.transpose(0, 2, 1)
