"""The plan of a bootstrap: every curve sorted once, laid out for the replicate kernels.

:class:`Plan` is built by its own constructor from a :class:`~.design.Design` (what a
replicate draws): one sort of every curve (:func:`~prroc_numba._kernels.resample.
sorted_curves`) whose order is turned, in place, into the slot of every sorted row,
the segments of every curve and the estimate from the same sort. :mod:`.run` drives
the replicates over it. :func:`fold_plan` is the plan of the pooled curves and their
folds' curves (``fold=``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from .._core.batch import Batch, lengths_to_offsets
from .._drivers import fold_marks_range, poisson_tables
from .._drivers.resample import sorted_curves
from .._drivers.threads import run_curves
from .._kernels.rng import POISSON_MAX
from . import run as _run
from .design import design

#: the most rows a curve may have: the plan's row indices and slots are int32
_MAX_CURVE_ROWS = int(np.iinfo(np.int32).max)
#: rows per block when reading per-row arrays at the sorted rows
_BLOCK = 1 << 20


class Plan:
    """Everything the replicate kernels need, computed once per call.

    Memory: first the slot of every label row (:func:`~.design.design`, no sorting
    needed), then one sort of every curve whose int32 order is turned, in place, into
    the slot of every sorted row (``slot_order``, what the walks read); the estimate by
    ``estimate = (method, hull)`` comes from the same sort. ``keep_order`` keeps the
    order too (:mod:`prroc_numba.operating` reads each curve's scores in sorted order).
    ``cluster``: int64 cluster codes per label row; ``strata``: an int64 code per label
    row (e.g. its fold), rows then drawn within each (code, class) stratum of their
    group; ``folds``: ``(n_models, n_folds, fold_rows)`` of a :func:`fold_plan`. The design's
    fields (``slot``, ``strata_offsets``, ``n_strata``, ``hard``, ...) read as the
    plan's own.
    """

    def __init__(
        self,
        batch,
        stratified,
        cluster=None,
        poisson=False,
        *,
        estimate=None,
        keep_order=False,
        strata=None,
        folds=None,
    ):
        self.batch = b = batch
        self.design = d = design(batch, stratified, cluster, poisson, strata)
        for f in fields(d):  # what a replicate draws, read as the plan's own attributes
            setattr(self, f.name, getattr(d, f.name))
        if b.offsets.size > 1 and int(np.diff(b.offsets).max()) > _MAX_CURVE_ROWS:
            raise ValueError(
                f"a curve has more than {_MAX_CURVE_ROWS:,} rows, more than the bootstrap's "
                "int32 row indices hold; pass by= to split the rows into groups"
            )
        # the hard-label walks read slot numbers only: the per-row masses in sorted
        # order (two float64 arrays of every curve's rows) are built only on demand
        masses = not d.hard
        out = sorted_curves(
            b.values,
            b.offsets,
            b.pos,
            b.neg,
            b.label_start,
            masses,
            d.label_slot,
            keep_order or folds is not None,
            None if estimate is None else (int(estimate[0]), bool(estimate[1])),
        )
        self.order = out["order"]
        self.slot_order = out["slot_order"]
        self.estimate = out["estimate"]
        self._masses = (out["ps"], out["ns"]) if masses else None
        self.seg_offsets, self.seg_end, self.sp, self.sn = out["segments"]
        # work per replicate: row visits, segment visits when grouped
        self.work = float(self.sp.size) * 4.0 if d.grouped else d.work
        # Poisson inversion tables for the grouped draws, one per distinct cell size
        self.lp, self.ln, self.tabs = _cell_tables(self.sp, self.sn, d.grouped)
        # a fold plan's marks: its replicates walk the pooled curves only
        self.folds = None
        if folds is not None:
            M, V, fold_rows = folds
            self.folds = _fold_marks(self, fold_rows, M, V)
            self.order = None  # the walks read the slots and the marks only
            pooled_rows = float(np.diff(b.group_offsets).sum())
            self.work = pooled_rows * (1.0 + M)  # rows visited per replicate

    @property
    def ps(self):
        """Positive mass of every curve's rows in sorted order (built on first use)."""
        return self._sorted_masses()[0]

    @property
    def ns(self):
        """Negative mass of every curve's rows in sorted order (built on first use)."""
        return self._sorted_masses()[1]

    def _sorted_masses(self):
        """Hard 0/1 labels (the only case built on demand): slot ``s`` of group ``g`` is
        a positive exactly when ``s < n_pos_slots[g]``, so the masses are read off the
        slot numbers, in blocks of curves (temporaries O(block)).
        """
        if self._masses is None:
            b = self.batch
            ps = np.empty(self.slot_order.size)
            for c0, c1 in self._curve_blocks():
                a, e = b.offsets[c0], b.offsets[c1]
                n_pos = np.repeat(
                    self.n_pos_slots[b.curve_group[c0:c1]], np.diff(b.offsets[c0 : c1 + 1])
                )
                np.less(self.slot_order[a:e], n_pos, out=ps[a:e], casting="unsafe")
            self._masses = (ps, 1.0 - ps)
        return self._masses

    def _curve_blocks(self):
        """``(c0, c1)``: curves in blocks of about ``_BLOCK`` rows (at least one curve)."""
        b = self.batch
        c0 = 0
        while c0 < b.n_curves:
            c1 = int(np.searchsorted(b.offsets, b.offsets[c0] + _BLOCK, side="right")) - 1
            c1 = min(max(c1, c0 + 1), b.n_curves)
            yield c0, c1
            c0 = c1

    def run(self, seed, n_boot, hull, progress, label, *, code=-1, grid=None, partial=None):
        """Replicates of every curve (:func:`.run.run`)."""
        return _run.run(
            self, seed, n_boot, hull, progress, label, code=code, grid=grid, partial=partial
        )

    def curve_estimate(self, grid, hull, what=-1):
        """The data's own curve on ``grid`` (:func:`.run.curve_estimate`)."""
        return _run.curve_estimate(self, grid, hull, what)

    def jackknife(self, seed, code, hull):
        """Jackknife areas per curve (:func:`.run.jackknife`)."""
        return _run.jackknife(self, seed, code, hull)


@dataclass(frozen=True)
class _FoldBatch(Batch):
    """A :class:`~.._core.batch.Batch` whose groups also hold their folds' curves: per group
    the pooled curves (``n_pooled`` models), then every fold's curve of every model,
    each reading a contiguous run of the group's label rows (``starts``).
    """

    starts: np.ndarray | None = None

    @property
    def label_start(self):
        return self.starts


def fold_plan(
    batch,
    fold_rows,
    n_folds,
    stratified,
    estimate=None,
    *,
    within=True,
    poisson=False,
    cluster=None,
    walk_pooled=True,
):
    """One plan for the pooled curves of ``batch`` and their folds' curves, so that
    every replicate draws each group's rows once (within fold and class strata) and
    every curve -- pooled and per fold -- reads the same counts.

    ``within=False`` draws each group's rows regardless of fold (by class with
    ``stratified``), so the folds' sizes vary from replicate to replicate; ``poisson``
    and ``cluster`` (int64 codes per label row, or a :class:`~.design.ClusterArg`)
    choose the draw as for :class:`Plan`. ``walk_pooled=False``: no fold marks; the
    replicates walk every curve, pooled and per fold, on its own (the paired walks, in
    blocks of eight replicates for hard labels) over the same counts.

    ``fold_rows``: the fold code (0 .. ``n_folds`` - 1) of every label row of
    ``batch``, non-decreasing within each group (the caller orders the rows by fold).
    Returns ``(plan, sizes)``: ``plan`` over curves ``g * M' + j`` with ``M' = M (1 +
    n_folds)`` (``j < M``: pooled model ``j``; else fold ``(j - M) // M``, model ``(j -
    M) % M``) and ``sizes`` the row count of every curve. The replicates walk only the
    pooled curves, which give their folds' vertices too (``plan.folds``,
    :func:`_fold_marks`; :mod:`._kernels.resample_folds`).
    """
    M = batch.n_models
    G = batch.group_offsets.size - 1
    V = int(n_folds)
    lengths = np.diff(batch.group_offsets)
    g_of_row = np.repeat(np.arange(G), lengths)
    per = np.bincount(g_of_row * V + fold_rows, minlength=G * V).reshape(G, V)
    fold_start = np.zeros((G, V), dtype=np.int64)
    fold_start[:, 1:] = np.cumsum(per, axis=1)[:, :-1]
    # every curve: (start within its group's rows, length), pooled first
    start = np.zeros((G, 1 + V, M), dtype=np.int64)
    size = np.empty((G, 1 + V, M), dtype=np.int64)
    size[:, 0, :] = lengths[:, None]
    start[:, 1:, :] = fold_start[:, :, None]
    size[:, 1:, :] = per[:, :, None]
    model = np.broadcast_to(np.arange(M), (G, 1 + V, M))
    group = np.broadcast_to(np.arange(G)[:, None, None], (G, 1 + V, M))
    start, size = start.ravel(), size.ravel()
    src = batch.offsets[(group * M + model).ravel()] + start  # into the pooled values
    offsets = lengths_to_offsets(size)
    idx = np.repeat(src - offsets[:-1], size) + np.arange(offsets[-1])
    fb = _FoldBatch(
        values=batch.values[idx],
        offsets=offsets,
        pos=batch.pos,
        neg=batch.neg,
        group_offsets=batch.group_offsets,
        curve_group=group.ravel().copy(),
        keys=batch.keys,
        n_models=M * (1 + V),
        rows=batch.rows,
        n_input=batch.n_input,
        starts=batch.group_offsets[group.ravel()] + start,
    )
    plan = Plan(
        fb,
        stratified,
        cluster,
        poisson,
        strata=fold_rows if within else None,
        estimate=estimate,
        folds=(M, V, fold_rows) if walk_pooled else None,
    )
    return plan, size


def _fold_marks(plan, fold_rows, M, V):
    """What the folds add to the one walk per pooled curve of a fold plan.

    ``(mark, mark_offsets, seg_base, ev_offsets, ev_fold, M, V)``
    (:mod:`._kernels.resample_folds`), from the plan's sort in one pass
    (:func:`~._kernels.resample_folds._fold_marks_range`):

    * ``mark``: per pooled curve ``k = g M + m`` (plan curve ``g M (1 + V) + m``), in
      its sorted order ``mark[mark_offsets[k]:mark_offsets[k + 1]]``, ``2 * fold`` of
      every row, plus 1 for a negative row when the walk reads slot numbers (hard
      labels);
    * the fold vertices that each pooled segment end emits: pooled curve ``k``'s
      segments are ``seg_base[k] ..`` (in the pooled curves' own numbering), segment
      ``s``'s folds ``ev_fold[ev_offsets[s]:ev_offsets[s + 1]]``.

    A fold's segment end is emitted at the end of the pooled segment holding its last
    row: no row of that fold lies in between (a fold's positive-bearing block lies in
    a pooled positive-bearing block, a segment of its own; a fold's run of negatives
    ends before its next positive block, which starts a pooled segment), so the
    fold's running counts there are those at its own segment end, and two ends of one
    fold never share a pooled segment.
    """
    fb = plan.batch
    G = fb.group_offsets.size - 1
    Mx = M * (1 + V)
    curve = (np.arange(G)[:, None] * Mx + np.arange(M)).ravel()  # pooled curve k's
    plen = fb.offsets[curve + 1] - fb.offsets[curve]
    n_seg = np.diff(plan.seg_offsets)
    fold_segs = n_seg[curve[:, None] + M * np.arange(1, V + 1)].sum(axis=1)
    mark_offsets = lengths_to_offsets(plen)
    seg_base = lengths_to_offsets(n_seg[curve])
    ev_base = lengths_to_offsets(fold_segs)
    ev_offsets = np.empty(seg_base[-1] + 1, dtype=np.int64)
    ev_offsets[-1] = ev_base[-1]
    mark = np.empty(mark_offsets[-1], dtype=np.uint32)
    ev_fold = np.empty(ev_base[-1], dtype=np.uint32)
    curves = (
        plan.order,
        plan.slot_order,
        fb.offsets,
        plan.seg_offsets,
        plan.seg_end,
        fb.group_offsets,
    )
    out = (mark, mark_offsets, seg_base, ev_base, ev_offsets, ev_fold)
    run_curves(
        fold_marks_range, mark_offsets, curves, fold_rows, plan.n_pos_slots, plan.hard, M, V, out
    )
    return mark, mark_offsets, seg_base, ev_offsets, ev_fold, M, V


def _cell_tables(sp, sn, grouped):
    """Per-cell table numbers (-1: none) and the Poisson tables of the distinct cell
    sizes up to ``POISSON_MAX`` (only for grouped draws; the paired walks read neither,
    so without ``grouped`` the table numbers are empty).
    """
    vals = np.concatenate([sp, sn]) if grouped else np.empty(0)
    small = (vals > 0) & (vals <= POISSON_MAX)
    lams = np.unique(vals[small])
    if lams.size == 0:
        lams = np.ones(1)
    tabs = poisson_tables(lams)

    def index(k):
        if not grouped:
            return np.empty(0, dtype=np.int64)
        ok = (k > 0) & (k <= POISSON_MAX)
        return np.where(ok, np.searchsorted(lams, k), -1).astype(np.int64)

    return index(sp), index(sn), tabs
