"""The resampling engine behind :func:`~prroc_numba.bootstrap`,
:func:`~prroc_numba.bootstrap_curve` and :func:`~prroc_numba.compare`.

:class:`_Plan` sorts every curve once and lays out what the replicate kernels of
:mod:`prroc_numba._kernels.resample` need; a replicate is a vector of counts over the
sorted rows (or over its tied blocks), drawn from a counter-based random stream per
``(seed, group, replicate)``. Replicates run in chunks so a progress bar can advance and
Ctrl-C stops between chunks. The intervals (percentile, basic, BCa) and their
quantiles live here too.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import _device, _multiclass
from ._checks import area_code, check_seed
from ._clusters import cluster_codes, cluster_slots
from ._core.batch import Batch, lengths_to_offsets, row_ids, warn_undefined_auc
from ._core.classes import check_args
from ._core.multiclass import check_device
from ._core.pack import inputs, pack
from ._dataframes import is_dask as _is_dask
from ._drivers.resample import _sorted_curves
from ._drivers.threads import run_curves, run_items
from ._kernels.partial import _boot_partial
from ._kernels.resample import (
    MULTINOMIAL,
    POISSON,
    UNIT,
    _boot_grouped,
    _boot_paired,
    _jackknife_group,
)
from ._kernels.resample_folds import _boot_folds, _fold_marks_range
from ._kernels.rng import POISSON_MAX, _poisson_tables
from ._memory import check
from ._partial import check_partial, partial_areas, standardized
from ._progress import visible
from ._resampling_kind import resolve as _resolve_resampling
from ._warnings import UndefinedMetricWarning

#: the count type of the paired walks (int32 only where a count overflows it)
_NARROW_COUNT = np.uint16
#: the most rows a curve may have: the plan's row indices and slots are int32
_MAX_CURVE_ROWS = int(np.iinfo(np.int32).max)
#: rows per block when reading per-row arrays at the sorted rows
_BLOCK = 1 << 20
#: replicates per chunk are sized so a chunk does about this many row visits
_CHUNK_WORK = 2e7
#: progress bar by default only for runs with at least this many row visits
_PROGRESS_WORK = 5e8
#: BCa jackknife: delete-one up to this many rows per group, else this many blocks
_JACK_EXACT = 2000
_JACK_BLOCKS = 500

_NORM = NormalDist()


# ---------------------------------------------------------------------------- plan


class _Plan:
    """Everything the replicate kernels need, computed once per call.

    Memory: first the slot of every label row (no sorting needed), then one sort of every
    curve (:func:`~._kernels.resample._sorted_curves`) whose int32 order is turned, in
    place, into the slot of every sorted row (``slot_order``, what the walks read); the
    estimate by ``estimate = (method, hull)`` comes from the same sort. ``keep_order``
    keeps the order too (:mod:`prroc_numba.operating` reads each curve's scores in sorted
    order); nothing else needs it.
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
    ):
        self.batch = batch
        # a fold plan's marks (:func:`fold_plan`): its replicates walk the pooled curves only
        self.folds = None
        # ``strata``: int64 code (0 .. V-1) of every label row, e.g. its fold: rows are
        # then drawn within each (code, class) stratum of their group
        self.extra = strata
        self.clustered = cluster is not None
        self.stratified = bool(stratified)
        self.poisson = bool(poisson)
        b = batch
        hard = bool(np.all(((b.pos == 0) | (b.pos == 1)) & (b.pos + b.neg == 1)))
        self.hard = hard
        if b.multi is not None:  # multiclass: curves map label rows back to original rows
            if self.clustered:
                raise ValueError(
                    "cluster= is not available with multiclass or multilabel input yet; "
                    "drop cluster= (rows are then resampled one by one)"
                )
            slots = _multiclass.plan_rows(self, b, stratified)
        else:
            slots = self._row_slots(hard)
            if strata is not None and not self.stratified:
                # fold-major strata: a group's positives no longer take its first slots
                hard = self.hard = False
            if cluster is not None:
                slots = self._use_clusters(cluster)
        # the hard-label walks read slot numbers only: the per-row masses in sorted
        # order (two float64 arrays of every curve's rows) are built only on demand
        masses = b.multi is not None or cluster is not None or not hard
        if b.offsets.size > 1 and int(np.diff(b.offsets).max()) > _MAX_CURVE_ROWS:
            raise ValueError(
                f"a curve has more than {_MAX_CURVE_ROWS:,} rows, more than the bootstrap's "
                "int32 row indices hold; pass by= to split the rows into groups"
            )
        out = _sorted_curves(
            b.values,
            b.offsets,
            b.pos,
            b.neg,
            b.label_start,
            masses,
            slots,
            keep_order,
            None if estimate is None else (int(estimate[0]), bool(estimate[1])),
        )
        self.order = out["order"]
        self.slot_order = out["slot_order"]
        self.estimate = out["estimate"]
        self._masses = (out["ps"], out["ns"]) if masses else None
        self.seg_offsets, self.seg_end, self.sp, self.sn = out["segments"]
        if self.grouped:  # work per replicate: segment visits
            self.work = float(self.sp.size) * 4.0
        # Poisson inversion tables for the grouped draws, one per distinct cell size
        self.lp, self.ln, self.tabs = _cell_tables(self.sp, self.sn, self.grouped)

    def _row_slots(self, hard):
        """Slot of every label row: its place among its group's drawable rows, stratum
        by stratum (positives first inside a stratum); zero-weight rows get the group's
        extra slot (never drawn). Sets the strata and the draw's settings.
        """
        b = self.batch
        both = (b.pos > 0) & (b.neg > 0)
        if self.stratified and both.any():
            raise ValueError(
                "stratified=True resamples positives and negatives separately, which needs "
                "hard 0/1 labels; soft labels mix both classes in one row. Pass "
                "stratified=False to resample rows"
            )
        # one model per group and unweighted 0/1 labels: draw counts per segment
        # (the Poisson bootstrap draws a count per row: always the paired walk)
        self.grouped = hard and b.n_models == 1 and not self.poisson and self.extra is None
        n = b.pos.size
        G = b.group_offsets.size - 1
        self.n_groups = G
        lengths = np.diff(b.group_offsets)
        g_of_row = np.repeat(np.arange(G, dtype=np.int64), lengths)
        if self.stratified:
            cls = np.where(b.pos > 0, 0, np.where(b.neg > 0, 1, -1))
            self.n_strata = 2
        else:
            cls = np.where(b.pos + b.neg > 0, 0, -1)
            self.n_strata = 1
        if self.extra is not None:  # class-major: a group's positives stay first
            V = int(self.extra.max(initial=0)) + 1
            cls = np.where(cls >= 0, cls * V + self.extra, -1)
            self.n_strata *= V
        keep = cls >= 0  # rows of zero weight are never drawn (zero weight = removal)
        key = (g_of_row * self.n_strata + cls)[keep]
        del cls
        # inside a stratum, positive rows take the first slots: with hard unweighted
        # labels a slot's class is then known from its number alone
        idx = np.lexsort(((b.pos <= 0)[keep], key))
        counts = np.bincount(key, minlength=G * self.n_strata)
        del key
        self.strata_offsets = lengths_to_offsets(counts)
        first = self.strata_offsets[np.arange(G) * self.n_strata]
        n_slots = self.strata_offsets[np.arange(1, G + 1) * self.n_strata] - first
        slot = n_slots[g_of_row]
        kept_rows = np.flatnonzero(keep)[idx]
        del idx, keep
        slot[kept_rows] = np.arange(kept_rows.size) - first[g_of_row[kept_rows]]
        self.slot = slot
        # Poisson: the input row id of each slot (its count is keyed by it)
        self.slot_ids = row_ids(b)[kept_rows] if self.poisson else None
        big = counts.max(initial=0) > np.iinfo(np.uint16).max
        self.count_type = np.empty(0, dtype=np.int32 if big else np.uint16)
        self.n_pos_slots = (
            np.add.reduceat(b.pos > 0, b.group_offsets[:-1]).astype(np.int64)
            if n
            else np.zeros(G, dtype=np.int64)
        )
        # work per replicate (row visits; segment visits when grouped, set once the
        # segments are known), to size chunks and the progress bar
        self.work = float(n) * (1.0 + b.n_models)
        return slot

    def _use_clusters(self, codes):
        """Draw clusters instead of rows (see :mod:`prroc_numba._clusters`): a row's
        slot becomes its cluster's, so the paired draws count clusters and every row of
        a drawn cluster comes along; the walk reads masses (not the slot numbers).
        Returns the slot of every label row.
        """
        b = self.batch
        slot, self.strata_offsets, self.n_strata, counts = cluster_slots(b, codes, self.stratified)
        self.slot = slot
        big = counts.max(initial=0) > np.iinfo(np.uint16).max
        self.count_type = np.empty(0, dtype=np.int32 if big else np.uint16)
        self.grouped = False
        self.hard = False
        self.work = float(b.pos.size) * (1.0 + b.n_models)
        return slot

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

    def _chunks(self, n_boot, progress, label, kernel, extra=0):
        """Call ``kernel(b0, b1)`` on chunks of replicates, advancing a progress bar.

        Chunks are sized to about ``_CHUNK_WORK`` row visits, so the bar moves and
        Ctrl-C (checked between chunks) stops within a fraction of a second.
        """
        work = self.work + extra * self.batch.n_curves
        chunk = int(max(8, min(n_boot, _CHUNK_WORK / max(work, 1.0))))
        show = progress
        if show is None:
            show = visible() and work * n_boot >= _PROGRESS_WORK
        bar = None
        if show:
            try:
                from tqdm.auto import tqdm

                bar = tqdm(total=n_boot, desc=label, unit="rep", leave=False)
            except ImportError:  # progress is optional
                bar = None
        try:
            for b0 in range(0, n_boot, chunk):
                b1 = min(n_boot, b0 + chunk)
                kernel(b0, b1)
                if bar is not None:
                    bar.update(b1 - b0)
        finally:
            if bar is not None:
                bar.close()

    def _rows(self):
        """The sorted curves as :func:`~._kernels.resample._boot_paired` reads them."""
        b = self.batch
        if self.hard and self._masses is None:  # the hard walk reads slot numbers only
            ps = ns = np.empty(0)
        else:
            ps, ns = self.ps, self.ns
        return (
            self.slot_order,
            ps,
            ns,
            b.offsets,
            self.seg_offsets,
            self.seg_end,
            b.n_models,
        )

    def _draw(self, kind, wide=False):
        """How :func:`~._kernels.resample._boot_paired` fills the slot counts: narrow
        counts that the caller re-runs ``wide`` on overflow, or (``wide=None``) the
        plan's own count type, sized for its biggest stratum (never overflows).
        """
        ids = getattr(self, "slot_ids", None)
        return (
            kind,
            self.strata_offsets,
            self.n_strata,
            np.empty(0, dtype=np.int64) if ids is None else ids,
            self.n_pos_slots,
            self.hard,
            self.count_type
            if wide is None
            else np.empty(0, dtype=np.int32 if wide else _NARROW_COUNT),
            np.zeros(1, dtype=np.int64),  # set when a count overflowed uint16
        )

    def run(self, seed, n_boot, hull, progress, label, *, code=-1, grid=None, partial=None):
        """Replicates of every curve, chunk by chunk: the one driver of every draw kind.

        ``grid`` None: areas by estimator ``code``, float64 ``(n_curves, n_boot)``.
        Otherwise the values on ``grid`` that ``code`` names (precision at recall,
        TPR at FPR or FPR at TPR: :func:`._kernels.resample._emit`), float64 ``(n_curves, n_grid,
        n_boot)`` -- grid points by replicates, so each (curve, grid point) is one
        contiguous row for the quantiles; the kernels write this layout directly.
        ``partial``: ``(lo, hi, focus)`` of a partial area by estimator ``code``
        (:mod:`prroc_numba._kernels.partial`, paired draws).
        """
        b = self.batch
        C = b.n_curves
        on_grid = grid is not None
        spec = (code, bool(hull), grid if on_grid else np.empty(0))
        reps = np.empty((C, grid.size if on_grid else 1, n_boot))
        if self.grouped and partial is None:
            segs = (self.seg_offsets, self.sp, self.sn, b.curve_group)
            draw = (self.stratified, self.lp, self.ln, self.tabs)

            def kernel(b0, b1):
                n = b.n_curves * (b1 - b0)
                run_items(_boot_grouped, n, segs, draw, seed, b0, b1, spec, reps)

        else:  # paired draws (partial areas too: cluster= and partial= are multinomial)
            rows = self._rows()
            kind = POISSON if self.poisson else MULTINOMIAL
            draw = self._draw(kind)
            items, head = _boot_paired, (rows,)
            if partial is not None:
                items, spec = _boot_partial, (code, bool(hull), *partial)
            elif self.folds is not None:  # one walk per pooled curve gives its folds' too
                items, head = _boot_folds, (rows, self.folds)
            n_groups = b.n_curves // b.n_models

            def kernel(b0, b1):
                n = n_groups * (b1 - b0)
                draw[-1][0] = 0
                run_items(items, n, *head, draw, seed, b0, b1, spec, reps)
                if draw[-1][0]:  # a count above 65,535 (big strata only): int32 counts
                    wide = self._draw(kind, wide=True)
                    run_items(items, n, *head, wide, seed, b0, b1, spec, reps)

        self._chunks(n_boot, progress, label, kernel, extra=grid.size if on_grid else 0)
        return reps if on_grid else reps[:, 0, :]

    def curve_estimate(self, grid, hull, what=-1):
        """The data's own curve on ``grid``, float64 ``(n_curves, n_grid)``, from the
        plan's order (no second sort): the paired walk with every count 1. ``what``:
        precision at recall (-1) or the ROC values of :func:`._kernels.resample._emit`.
        """
        out = np.empty((self.batch.n_curves, grid.size, 1))
        n_groups = self.batch.n_curves // self.batch.n_models
        spec = (int(what), bool(hull), grid)
        run_items(_boot_paired, n_groups, self._rows(), self._draw(UNIT), 0, 0, 1, spec, out)
        return out[:, :, 0]

    def jackknife(self, seed, code, hull):
        """Jackknife areas per curve (list of 1-D arrays), for the BCa acceleration."""
        b = self.batch
        if b.multi is not None:
            raise ValueError(
                "interval='bca' is not available for multiclass/multilabel "
                "input; use interval='percentile' or 'basic'"
            )
        M = b.n_models
        rng = np.random.default_rng(seed)
        out = [None] * b.n_curves
        curves = (self.slot_order, self.ps, self.ns, b.offsets, self.seg_offsets, self.seg_end)
        for g in range(self.n_groups):
            # blocks are given per slot (the walk reads the count of each sorted row's
            # slot); the group's extra slot (rows of zero weight) is never left out
            s0 = self.strata_offsets[g * self.n_strata]
            bounds = self.strata_offsets[g * self.n_strata : (g + 1) * self.n_strata + 1] - s0
            n_kept = int(bounds[-1])
            block = np.full(n_kept + 1, -1, dtype=np.int64)
            if n_kept <= _JACK_EXACT:
                # delete-one, the rows numbered in input order
                slots = self.slot[b.group_offsets[g] : b.group_offsets[g + 1]]
                kept = slots[slots < n_kept]
                block[kept] = np.arange(kept.size)
                n_blocks = kept.size
            else:
                # delete-a-block: each stratum spread evenly over the blocks at random
                n_blocks = _JACK_BLOCKS
                start = 0
                for lo, hi in zip(bounds[:-1], bounds[1:]):
                    perm = rng.permutation(np.arange(lo, hi))
                    block[perm] = (start + np.arange(perm.size)) % n_blocks
                    start += perm.size
            vals = _jackknife_group(curves, g * M, M, block, n_blocks, code, hull)
            for m in range(M):
                out[g * M + m] = vals[:, m]
        return out


@dataclass(frozen=True)
class _FoldBatch(Batch):
    """A :class:`~._core.batch.Batch` whose groups also hold their folds' curves: per group
    the pooled curves (``n_pooled`` models), then every fold's curve of every model,
    each reading a contiguous run of the group's label rows (``starts``).
    """

    starts: np.ndarray | None = None

    @property
    def label_start(self):
        return self.starts


def fold_plan(batch, fold_rows, n_folds, stratified, estimate=None):
    """One plan for the pooled curves of ``batch`` and their folds' curves, so that
    every replicate draws each group's rows once (within fold and class strata) and
    every curve -- pooled and per fold -- reads the same counts.

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
    plan = _Plan(fb, stratified, strata=fold_rows, estimate=estimate, keep_order=True)
    plan.folds = _fold_marks(plan, fold_rows, M, V)
    plan.order = None  # the walks read the slots and the marks only
    plan.work = float(lengths.sum()) * (1.0 + M)  # rows visited per replicate
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
        _fold_marks_range, mark_offsets, curves, fold_rows, plan.n_pos_slots, plan.hard, M, V, out
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
    tabs = _poisson_tables(lams)

    def index(k):
        if not grouped:
            return np.empty(0, dtype=np.int64)
        ok = (k > 0) & (k <= POISSON_MAX)
        return np.where(ok, np.searchsorted(lams, k), -1).astype(np.int64)

    return index(sp), index(sn), tabs


def _seed(seed):
    """Map ``seed`` (None or int) to a non-negative int63 for the kernels."""
    check_seed(seed)
    state = np.random.SeedSequence(None if seed is None else int(seed)).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


#: the arguments that the bootstrap functions hand on to :func:`_replicates` by name
#: (with the input arguments, :data:`~._core.pack.INPUTS`)
REPLICATE_ARGS = (
    "curve",
    "method",
    "hull",
    "n_boot",
    "stratified",
    "seed",
    "progress",
    "resampling",
    "device",
    "cluster",
    "partial",
    "partial_focus",
    "standardize",
)


def _replicates(
    data,
    *,
    curve,
    method,
    hull,
    n_boot,
    stratified,
    seed,
    progress,
    label_bar="bootstrap",
    keep_replicates=False,
    resampling=None,
    device="cpu",
    cluster=None,
    partial=None,
    partial_focus="fpr",
    standardize=False,
    strata=None,
    **args,
):
    """Validate, pack, estimate and resample. Returns (batch, plan, code, est, reps, seed).

    ``device="cuda"``: the Poisson bootstrap on the GPU (``plan`` is None). Dask input:
    the Poisson bootstrap on the workers (``plan`` is None, ``batch`` only names curves).
    ``strata``: an int64 code per input row (e.g. its fold): rows are drawn within
    each (code, class) stratum of their group (see :class:`_Plan`).
    ``args``: the input arguments (:data:`~._core.pack.INPUTS`) and any multiclass ones;
    with these the estimates and replicates come reduced to the output rows (per
    class, pair or average) and ``batch`` is a view of those.
    """
    code = area_code(curve, method)
    if curve == "prg":
        from .gains import check_prg

        check_prg(data, method, device, {**args, "partial": partial})
    if args.get("multiclass") == "ovo":
        check_args("ovo", args.get("classes"), args.get("average"), False, curve)
    if args.get("average") == "samples":
        raise ValueError(
            "average='samples' has no bootstrap here (each row is its own curve); use "
            "average='macro', 'weighted' or 'micro', or auc(..., average='samples') for "
            "the estimate"
        )
    distributed = _is_dask(data)
    engine = "dask" if distributed else ("cuda" if device == "cuda" else "memory")
    stratified, poisson = _resolve_resampling(resampling, stratified, engine)
    if poisson and (cluster is not None or partial is not None):
        raise ValueError(
            "cluster= and partial= use the multinomial (row or cluster) bootstrap; drop "
            "them or pass resampling='multinomial'"
        )
    if distributed:
        from ._backends import wing_for

        _dask = wing_for(data)
        _dask.no_multiclass(args.get("multiclass"))
        return _dask.replicates(
            data,
            curve=curve,
            code=code,
            hull=bool(hull),
            n_boot=int(n_boot),
            seed=_seed(seed),
            **inputs(args),
        )
    batch = pack(data, **args)
    check_device(batch, device)
    check_replicates_fit(batch, n_boot, label_bar, keep_replicates)
    hull = bool(hull)
    spec = check_partial(curve, partial, partial_focus, standardize)
    if device == "cuda":
        if cluster is not None or spec is not None:
            raise ValueError("cluster= and partial= run on the CPU only; pass device='cpu'")
        return _replicates_cuda(batch, curve, code, hull, n_boot, stratified, seed)
    # the estimate from the plan's one sort of every curve (no second sort)
    plan = _Plan(
        batch,
        stratified,
        cluster_codes(data, cluster, batch),
        poisson,
        estimate=(code, hull) if spec is None else None,
        strata=None if strata is None else strata[row_ids(batch)],
    )
    if spec is None:
        est = plan.estimate
    else:
        est = partial_areas(batch, code, hull, curve, spec, standardize)
    bad = warn_undefined_auc(batch, curve, stacklevel=4)
    s = _seed(seed)
    reps = plan.run(s, int(n_boot), hull, progress, label_bar, code=code, partial=spec)
    if spec is not None and standardize:
        reps = standardized(reps, curve, *spec)
    reps[bad] = np.nan
    batch, est, reps = _multiclass.reduce_replicates(batch, est, reps)
    return batch, plan, code, est, reps, s


def check_replicates_fit(batch, n_boot, label, keep=False, grid=None):
    """Refuse (:class:`~prroc_numba._memory.NotEnoughMemory`) before any draw when the
    replicate matrix cannot fit: float64 ``(curves[, grid points], n_boot)`` and its
    sorted copy for the quantiles; with ``keep`` (``return_replicates=True``) the
    replicate frame instead (row index, key columns, replicate, estimate).
    """
    cells = batch.n_curves * int(n_boot) * (1 if grid is None else grid.size)
    per_cell = 8 * (4 + batch.keys.shape[1]) if keep else 16
    shape = f"{batch.n_curves:,} curves x {int(n_boot):,} replicates"
    shrink = [
        f"fewer replicates (n_boot={int(n_boot):,} now; a few thousand give stable 95% intervals)",
        "fewer curves per call (split the groups of by= into batches)",
    ]
    if grid is not None:
        shape += f" x {grid.size:,} grid points"
        shrink.insert(1, f"a coarser grid ({grid.size:,} recalls now)")
    if keep:
        shape += " with return_replicates=True"
        shrink.insert(1, "return_replicates=False (the intervals need far less)")
    check(cells * per_cell, f"{label}: {shape}", "; ".join(shrink))


def _replicates_cuda(batch, curve, code, hull, n_boot, stratified, seed):
    """The Poisson bootstrap on the GPU (see :func:`~prroc_numba.bootstrap`'s ``device``)."""
    if stratified:
        raise ValueError(
            "device='cuda' runs the Poisson bootstrap (each row counts Poisson(1) times), "
            "which does not keep the class counts fixed; pass stratified=False (the "
            "interval then also carries the prevalence's sampling variance)"
        )
    if hull:
        raise ValueError("the bootstrap with hull=True runs on the CPU only; pass device='cpu'")
    gpu = _device.backend()
    est = gpu.area_batch(batch, code, False)
    bad = warn_undefined_auc(batch, curve, stacklevel=5)
    s = _seed(seed)
    reps = gpu.poisson_replicates(batch, code, s, int(n_boot), batch.rows)
    reps[bad] = np.nan
    return batch, None, code, est, reps, s


def _degenerate(batch, est, reps, n_boot, what="replicates", stacklevel=4):
    """Count NaN replicates of curves whose estimate is defined; warn if any."""
    n_bad = np.where(np.isfinite(est), np.isnan(reps).sum(axis=1), 0)
    if n_bad.any():
        c = int(np.argmax(n_bad))
        warnings.warn(
            f"{int(n_bad.sum())} bootstrap {what} had no positives (or, for ROC and PRG, no "
            f"negatives) and were left out (most in {batch.describe(c)}: {int(n_bad[c])} "
            f"of {n_boot}); use stratified=True to keep the class counts fixed",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    return n_bad


def _row_quantiles(reps, q, sorted_reps=None):
    """Per-row quantiles ignoring NaN, numpy's default ("linear") definition; ``q`` has
    one level per row; ``sorted_reps``: ``np.sort(reps, axis=1)`` when the caller has it.
    The one quantile helper (intervals, bands, average_curves).
    """
    s = np.sort(reps, axis=1) if sorted_reps is None else sorted_reps  # NaN last
    n = np.isfinite(s).sum(axis=1)
    out = np.full(reps.shape[0], np.nan)
    ok = (n > 0) & np.isfinite(q)
    if not ok.any():
        return out
    pos = np.clip(q[ok], 0.0, 1.0) * (n[ok] - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, n[ok] - 1)
    rows = np.flatnonzero(ok)
    frac = pos - lo
    out[ok] = s[rows, lo] + frac * (s[rows, hi] - s[rows, lo])
    return out


def _intervals(reps, est, level, interval, jack=None):
    """se, ci_low, ci_high per row of ``reps`` (NaN replicates left out)."""
    alpha = 1.0 - level
    C = reps.shape[0]
    n = np.isfinite(reps).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.nansum(reps, axis=1) / np.maximum(n, 1), np.nan)
        dev = np.where(np.isfinite(reps), reps - mean[:, None], 0.0)
        se = np.where(n > 1, np.sqrt((dev * dev).sum(axis=1) / np.maximum(n - 1, 1)), np.nan)
    lo_q = np.full(C, alpha / 2)
    hi_q = np.full(C, 1 - alpha / 2)
    if interval == "bca":
        z_lo, z_hi = _NORM.inv_cdf(alpha / 2), _NORM.inv_cdf(1 - alpha / 2)
        for c in range(C):
            r = reps[c][np.isfinite(reps[c])]
            if r.size == 0 or not np.isfinite(est[c]):
                lo_q[c] = hi_q[c] = np.nan
                continue
            frac = (np.sum(r < est[c]) + 0.5 * np.sum(r == est[c])) / r.size
            frac = min(max(frac, 0.5 / r.size), 1 - 0.5 / r.size)
            z0 = _NORM.inv_cdf(frac)
            a = _acceleration(jack[c]) if jack is not None else 0.0
            for z, store in ((z_lo, lo_q), (z_hi, hi_q)):
                w = z0 + z
                den = 1.0 - a * w
                store[c] = _NORM.cdf(z0 + w / den) if den > 0 else (0.0 if z < 0 else 1.0)
    srt = np.sort(reps, axis=1)  # NaN last
    q_lo = _row_quantiles(reps, lo_q, sorted_reps=srt)
    q_hi = _row_quantiles(reps, hi_q, sorted_reps=srt)
    if interval == "basic":
        lo, hi = 2 * est - q_hi, 2 * est - q_lo
    else:
        lo, hi = q_lo, q_hi
    bad = ~np.isfinite(est)
    se[bad] = np.nan
    lo[bad] = np.nan
    hi[bad] = np.nan
    return se, lo, hi


def _acceleration(theta):
    """Jackknife estimate of the BCa acceleration (Efron 1987)."""
    t = theta[np.isfinite(theta)]
    if t.size < 3:
        return 0.0
    d = t.mean() - t
    s2 = np.sum(d * d)
    if s2 <= 0:
        return 0.0
    return float(np.sum(d**3) / (6.0 * s2**1.5))
