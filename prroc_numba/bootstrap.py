"""Bootstrap confidence intervals for AUC-PR / AUC-ROC of many curves at once.

The work is done by :mod:`prroc_numba._kernels.resample`: every curve is sorted once; a
replicate is a vector of counts over the sorted rows (or over its tied blocks), drawn
from a counter-based random stream per ``(seed, group, replicate)``. Replicates run in
chunks so a progress bar can advance and Ctrl-C stops between chunks.
"""

from __future__ import annotations

import warnings
from statistics import NormalDist

import numpy as np

from . import _frames as F
from ._kernels.area import _area_batch
from ._kernels.curve_grid import _grid_batch
from ._kernels.resample import (
    POISSON_MAX,
    _boot_grouped,
    _boot_grouped_curve,
    _boot_paired,
    _boot_paired_curve,
    _jackknife_group,
    _poisson_tables,
    _segments_batch,
)
from ._kernels.sweep import _sweep_batch
from ._methods import method_code
from ._progress import visible
from ._ragged import UndefinedMetricWarning, pack, warn_undefined
from .curves import _doc

ESTIMATE, SE, CI_LOW, CI_HIGH = "estimate", "se", "ci_low", "ci_high"
N_DEGENERATE = "n_degenerate"
REPLICATE = "replicate"

INTERVALS = ("percentile", "basic", "bca")

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
    """Everything the replicate kernels need, computed once per call."""

    def __init__(self, batch, stratified):
        self.batch = batch
        self.stratified = bool(stratified)
        b = batch
        (self.order, self.ps, self.ns, self.seg_offsets, self.seg_end, self.sp,
         self.sn) = _segments_batch(b.values, b.offsets, b.pos, b.neg, b.label_start)
        both = (b.pos > 0) & (b.neg > 0)
        if self.stratified and both.any():
            raise ValueError(
                "stratified=True resamples positives and negatives separately, which needs "
                "hard 0/1 labels; soft labels mix both classes in one row. Pass "
                "stratified=False to resample rows"
            )
        hard = bool(np.all(((b.pos == 0) | (b.pos == 1)) & (b.pos + b.neg == 1)))
        # one model per group and unweighted 0/1 labels: draw counts per segment
        self.grouped = hard and b.n_models == 1
        n = b.pos.size
        G = b.group_offsets.size - 1
        self.n_groups = G
        lengths = np.diff(b.group_offsets)
        g_of_row = np.repeat(np.arange(G, dtype=np.int64), lengths)
        local = np.arange(n, dtype=np.int64) - b.group_offsets[g_of_row]
        if self.stratified:
            cls = np.where(b.pos > 0, 0, np.where(b.neg > 0, 1, -1))
            self.n_strata = 2
        else:
            cls = np.where(b.pos + b.neg > 0, 0, -1)
            self.n_strata = 1
        keep = cls >= 0  # rows of zero weight are never drawn (zero weight = removal)
        key = (g_of_row * self.n_strata + cls)[keep]
        # inside a stratum, positive rows take the first slots: with hard unweighted
        # labels a slot's class is then known from its number alone
        idx = np.lexsort(((b.pos <= 0)[keep], key))
        counts = np.bincount(key, minlength=G * self.n_strata)
        self.strata_offsets = np.zeros(G * self.n_strata + 1, dtype=np.int64)
        np.cumsum(counts, out=self.strata_offsets[1:])
        # slot of each row: its place among its group's drawable rows, stratum by
        # stratum; zero-weight rows get the group's extra slot (never drawn)
        first = self.strata_offsets[np.arange(G) * self.n_strata]
        n_slots = self.strata_offsets[np.arange(1, G + 1) * self.n_strata] - first
        slot = n_slots[g_of_row].copy()
        kept_rows = np.flatnonzero(keep)[idx]
        slot[kept_rows] = np.arange(kept_rows.size) - first[g_of_row[kept_rows]]
        self.slot = slot
        self.strata_rows = local[kept_rows]
        row_base = np.repeat(b.label_start, np.diff(b.offsets))
        self.slot_order = slot[row_base + self.order].astype(np.int32)
        big = counts.max(initial=0) > np.iinfo(np.uint16).max
        self.count_type = np.empty(0, dtype=np.int32 if big else np.uint16)
        self.hard = hard
        self.n_pos_slots = np.add.reduceat(b.pos > 0, b.group_offsets[:-1]).astype(np.int64) \
            if n else np.zeros(G, dtype=np.int64)
        # Poisson inversion tables for the grouped draws, one per distinct cell size
        self.lp, self.ln, self.tabs = _cell_tables(self.sp, self.sn, self.grouped)
        # work per replicate (row or segment visits), to size chunks and the progress bar
        if self.grouped:
            self.work = float(self.sp.size) * 4.0
        else:
            self.work = float(n) * (1.0 + b.n_models)

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

    def run(self, seed, n_boot, code, hull, progress, label="bootstrap"):
        """Replicate areas, float64 (n_curves, n_boot)."""
        b = self.batch
        C = b.n_curves
        reps = np.empty((C, n_boot))
        curves = np.arange(C, dtype=np.int64)
        groups = np.arange(self.n_groups, dtype=np.int64)

        def kernel(b0, b1):
            out = np.empty((C, b1 - b0))
            if self.grouped:
                _boot_grouped(self.seg_offsets, self.sp, self.sn, curves, b.curve_group,
                              seed, b0, b1, self.stratified, code, hull, self.lp, self.ln,
                              self.tabs, out)
            else:
                _boot_paired(self.slot_order, self.ps, self.ns, b.offsets, self.seg_offsets,
                             self.seg_end, self.strata_offsets, self.n_strata, b.n_models,
                             groups, seed, b0, b1, code, hull, self.count_type, self.hard,
                             self.n_pos_slots, out)
            reps[:, b0:b1] = out

        self._chunks(n_boot, progress, label, kernel)
        return reps

    def run_curve(self, seed, n_boot, grid, hull, progress):
        """Replicate precisions on the recall grid, float64 (n_curves, n_boot, n_grid)."""
        b = self.batch
        C = b.n_curves
        reps = np.empty((C, n_boot, grid.size))
        curves = np.arange(C, dtype=np.int64)
        groups = np.arange(self.n_groups, dtype=np.int64)

        def kernel(b0, b1):
            out = np.empty((C, b1 - b0, grid.size))
            if self.grouped:
                _boot_grouped_curve(self.seg_offsets, self.sp, self.sn, curves, b.curve_group,
                                    seed, b0, b1, self.stratified, grid, hull, self.lp,
                                    self.ln, self.tabs, out)
            else:
                _boot_paired_curve(self.slot_order, self.ps, self.ns, b.offsets,
                                   self.seg_offsets, self.seg_end, self.strata_offsets,
                                   self.n_strata, b.n_models, groups, seed, b0, b1, grid, hull,
                                   self.count_type, self.hard, self.n_pos_slots, out)
            reps[:, b0:b1] = out

        self._chunks(n_boot, progress, "bootstrap_curve", kernel, extra=grid.size)
        return reps

    def jackknife(self, seed, code, hull):
        """Jackknife areas per curve (list of 1-D arrays), for the BCa acceleration."""
        b = self.batch
        M = b.n_models
        rng = np.random.default_rng(seed)
        out = [None] * b.n_curves
        for g in range(self.n_groups):
            a, e = int(b.group_offsets[g]), int(b.group_offsets[g + 1])
            n = e - a
            block = np.full(n, -1, dtype=np.int64)
            rows = [self.strata_rows[self.strata_offsets[g * self.n_strata + s]:
                                     self.strata_offsets[g * self.n_strata + s + 1]]
                    for s in range(self.n_strata)]
            n_kept = sum(r.size for r in rows)
            if n_kept <= _JACK_EXACT:
                kept = np.sort(np.concatenate(rows))
                block[kept] = np.arange(kept.size)
                n_blocks = kept.size
            else:
                # delete-a-block: each stratum spread evenly over the blocks at random
                n_blocks = _JACK_BLOCKS
                start = 0
                for r in rows:
                    perm = rng.permutation(r)
                    block[perm] = (start + np.arange(perm.size)) % n_blocks
                    start += perm.size
            vals = _jackknife_group(self.order, self.ps, self.ns, b.offsets, self.seg_offsets,
                                    self.seg_end, g * M, M, block, n_blocks, code, hull)
            for m in range(M):
                out[g * M + m] = vals[:, m]
        return out


def _cell_tables(sp, sn, grouped):
    """Per-cell table numbers (-1: none) and the Poisson tables of the distinct cell
    sizes up to ``POISSON_MAX`` (only for grouped draws)."""
    vals = np.concatenate([sp, sn])
    small = (vals > 0) & (vals <= POISSON_MAX)
    lams = np.unique(vals[small]) if grouped else np.empty(0)
    if lams.size == 0:
        lams = np.ones(1)
    tabs = _poisson_tables(lams)

    def index(k):
        ok = (k > 0) & (k <= POISSON_MAX) & grouped
        return np.where(ok, np.searchsorted(lams, k), -1).astype(np.int64)

    return index(sp), index(sn), tabs


def _seed(seed):
    """Map ``seed`` (None or int) to a non-negative int63 for the kernels."""
    if seed is not None and (isinstance(seed, (bool, np.bool_))
                             or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be None or an int, got {type(seed).__name__}")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")
    state = np.random.SeedSequence(None if seed is None else int(seed)).generate_state(
        2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def _check_common(n_boot, level):
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 2:
        raise ValueError(f"n_boot must be an int >= 2, got {n_boot!r}")
    if not isinstance(level, (float, int, np.floating)) or not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), e.g. 0.95, got {level!r}")


def _replicates(data, score, label, by, weight, curve, method, hull, n_boot, stratified,
                seed, progress, pos_label, soft_labels, label_bar="bootstrap"):
    """Validate, pack, estimate and resample. Returns (batch, plan, code, est, reps, seed)."""
    code = method_code(curve, method)
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    plan = _Plan(batch, stratified)
    hull = bool(hull)
    est = _area_batch(batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start,
                      code, hull)
    P, N = batch.totals()
    bad = (P <= 0) | (N <= 0) if curve == "roc" else P <= 0
    warn_undefined(batch, bad, f"AUC-{curve.upper()} is undefined (no positives"
                   + (" or no negatives)" if curve == "roc" else ")") + ": NaN", stacklevel=4)
    s = _seed(seed)
    reps = plan.run(s, int(n_boot), code, hull, progress, label_bar)
    reps[bad] = np.nan
    return batch, plan, code, est, reps, s


def _degenerate(batch, est, reps, n_boot, what="replicates", stacklevel=4):
    """Count NaN replicates of curves whose estimate is defined; warn if any."""
    n_bad = np.where(np.isfinite(est), np.isnan(reps).sum(axis=1), 0)
    if n_bad.any():
        c = int(np.argmax(n_bad))
        warnings.warn(
            f"{int(n_bad.sum())} bootstrap {what} had no positives (or, for ROC, no "
            f"negatives) and were left out (most in {batch.describe(c)}: {int(n_bad[c])} "
            f"of {n_boot}); use stratified=True to keep the class counts fixed",
            UndefinedMetricWarning, stacklevel=stacklevel)
    return n_bad


def _row_quantiles(reps, q):
    """Per-row linear-interpolation quantiles ignoring NaN; ``q`` has one level per row."""
    s = np.sort(reps, axis=1)  # NaN last
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
    q_lo = _row_quantiles(reps, lo_q)
    q_hi = _row_quantiles(reps, hi_q)
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
    return float(np.sum(d ** 3) / (6.0 * s2 ** 1.5))


_BOOT_DOC = """
    curve : {"pr", "roc"}, default="pr"
    method : str, default=None
        AUC estimator (see :func:`prroc_numba.auc`): for PR ``"dg"`` (default),
        ``"integral"``, ``"ap"``, ``"trapezoid"``; for ROC ``"trapezoid"``.
    hull : bool, default=False
        Area under the ROC convex hull / achievable PR curve of each replicate.
    n_boot : int, default=2000
        Number of bootstrap replicates.
    level : float, default=0.95
        Confidence level of the intervals.
    stratified : bool, default=True
        Resample positives and negatives separately, keeping the class counts fixed
        (pROC's default). The interval is then for the AUC at the observed prevalence:
        right for case-control data and fixed test sets. With ``stratified=False`` rows
        are resampled regardless of class, so the prevalence varies between replicates
        and the interval also carries the sampling variance of the prevalence (right
        when the prevalence itself was sampled). AUC-PR depends on the prevalence, so
        the two differ. On binormal data with a known population AUC-PR, the percentile
        interval covers about 93-95% at n = 2,000 and about 95% at n = 5,000 when the
        design matches the resampling; a stratified bootstrap of data whose prevalence
        was sampled covers less (about 92-93% in ``benchmarks/coverage_study.py``).
        Stratified resampling needs hard 0/1 labels (not soft labels).
    seed : int, default=None
        Seed of the counter-based random streams (one per group and replicate): the
        same seed gives the same numbers whatever the thread count or chunking. None
        draws fresh entropy.
    progress : bool, default=None
        Show a tqdm progress bar (if tqdm is installed). None: only for long runs, in a
        terminal or a Jupyter notebook. Ctrl-C stops between chunks of replicates.
    pos_label : scalar, default=None
        The value of ``label`` that marks a positive.
    soft_labels : bool, default=False
        Read ``label`` as P(positive) (needs ``stratified=False``)."""


@_doc
def bootstrap(data=None, *, score, label, by=None, weight=None, curve="pr", method=None,
              hull=False, n_boot=2000, level=0.95, interval="percentile", stratified=True,
              seed=None, progress=None, return_replicates=False, pos_label=None,
              soft_labels=False):
    """Bootstrap confidence intervals of AUC-PR or AUC-ROC, many curves at once.

    Each curve is sorted once; a replicate is a vector of counts over its sorted rows, so
    no replicate is ever re-sorted and memory stays O(rows), never O(n_boot x rows).
    Wide input (several score columns) is resampled **paired**: in every replicate all
    models of a group see the same resampled rows. Long input (``by=``) resamples each
    group on its own.

    Parameters
    ----------
    {shared}
    {boot}
    interval : {"percentile", "basic", "bca"}, default="percentile"
        ``"percentile"``: the ``(1-level)/2`` and ``(1+level)/2`` quantiles of the
        replicates. ``"basic"``: the percentile interval reflected about the estimate
        (``2*estimate - q_high``, ``2*estimate - q_low``). ``"bca"``: bias-corrected and
        accelerated (Efron 1987); the bias correction ``z0`` comes from the share of
        replicates below the estimate (ties count half, clipped to
        ``[1/(2B), 1 - 1/(2B)]``), the acceleration from a jackknife of the estimate:
        delete-one up to 2,000 rows per group, and at larger N a delete-a-block
        jackknife over 500 random blocks (each class spread evenly over the blocks),
        which costs 500 passes over the rows instead of N.
    return_replicates : bool, default=False
        Also return the replicate values as a tidy frame.

    Returns
    -------
    DataFrame, or (DataFrame, DataFrame) with ``return_replicates=True``
        Key columns, then ``estimate`` (the AUC of the data), ``se`` (standard deviation
        of the replicates), ``ci_low``, ``ci_high`` and ``n_degenerate``: one row per
        curve. The replicates frame has the key columns, ``replicate`` and
        ``estimate``.

        Degenerate replicates -- a resample with no positives (PR, ROC) or no negatives
        (ROC), possible only with ``stratified=False`` -- have no AUC: they are left out
        of ``se`` and of the interval (as pROC does), counted in ``n_degenerate``, NaN in
        the replicates frame, and an :class:`~prroc_numba.UndefinedMetricWarning` says
        how many. A curve whose data has no positives gets NaN throughout (warned).

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.1
    >>> df = pd.DataFrame({{"y": y, "m1": y + rng.normal(size=2000),
    ...                    "m2": 0.5 * y + rng.normal(size=2000)}})
    >>> res = prn.bootstrap(df, score=["m1", "m2"], label="y", n_boot=500, seed=0)
    >>> list(res.columns)
    ['model', 'estimate', 'se', 'ci_low', 'ci_high', 'n_degenerate']
    >>> bool((res.ci_low < res.estimate).all() and (res.estimate < res.ci_high).all())
    True
    """
    if interval not in INTERVALS:
        raise ValueError(f"interval={interval!r} is not known; use one of {INTERVALS}")
    _check_common(n_boot, level)
    batch, plan, code, est, reps, s = _replicates(
        data, score, label, by, weight, curve, method, hull, n_boot, stratified, seed,
        progress, pos_label, soft_labels)
    n_bad = _degenerate(batch, est, reps, n_boot)
    jack = plan.jackknife(s, code, bool(hull)) if interval == "bca" else None
    se, lo, hi = _intervals(reps, est, level, interval, jack)
    out = F.curves_frame(batch.keys, {ESTIMATE: est, SE: se, CI_LOW: lo, CI_HIGH: hi,
                                      N_DEGENERATE: n_bad.astype(np.int64)})
    if not return_replicates:
        return out
    C, B = reps.shape
    keys = batch.keys.iloc[np.repeat(np.arange(C), B)].reset_index(drop=True)
    keys[REPLICATE] = np.tile(np.arange(B, dtype=np.int64), C)
    keys[ESTIMATE] = reps.ravel()
    return out, keys


bootstrap.__doc__ = bootstrap.__doc__.replace("    {boot}", _BOOT_DOC.strip("\n")).replace(
    "{{", "{").replace("}}", "}")


def _recall_grid(grid):
    if isinstance(grid, (bool, np.bool_)):
        raise TypeError("grid must be an int (number of recall points) or an array of recalls")
    if isinstance(grid, (int, np.integer)):
        if grid < 2:
            raise ValueError(f"grid={grid} points is too few; use at least 2 (e.g. 101)")
        return np.linspace(0.0, 1.0, int(grid))
    g = np.asarray(grid, dtype=np.float64)
    if g.ndim != 1 or g.size == 0:
        raise ValueError("grid must be an int or a non-empty 1-D array of recalls")
    if not np.all(np.isfinite(g)) or g.min() < 0 or g.max() > 1:
        raise ValueError("grid recalls must lie in [0, 1]")
    if np.any(np.diff(g) <= 0):
        raise ValueError("grid recalls must be strictly increasing")
    return np.ascontiguousarray(g)


@_doc
def bootstrap_curve(data=None, *, score, label, by=None, weight=None, hull=False,
                    n_boot=2000, level=0.95, stratified=True, seed=None, progress=None,
                    grid=101, pos_label=None, soft_labels=False):
    """Pointwise bootstrap confidence bands of PR curves on a shared recall grid.

    Every replicate's PR curve (the same count resampling as :func:`bootstrap`; wide
    input paired) is interpolated onto the recall grid **in counts** -- between two
    vertices FP grows linearly with TP, so precision is never joined by straight lines
    in PR space (Davis & Goadrich 2006) -- and the band at each recall is the percentile
    interval of the replicate precisions there. At recall 0 the curve starts flat at its
    first positive-bearing vertex's precision (0 when the top scores are negatives); at
    a recall reached by several vertices the best precision is taken.

    Parameters
    ----------
    {shared}
    hull : bool, default=False
        Bands of the achievable PR curve (the ROC convex hull in PR space).
    n_boot : int, default=2000
    level : float, default=0.95
        Pointwise confidence level (each recall separately; not a simultaneous band).
    stratified : bool, default=True
        Keep the class counts fixed in every replicate (see :func:`bootstrap`).
    seed : int, default=None
    progress : bool, default=None
    grid : int or array-like of float, default=101
        Number of evenly spaced recalls in [0, 1], or the recalls themselves (strictly
        increasing, in [0, 1]).

    Returns
    -------
    DataFrame
        Key columns, then ``recall``, ``precision`` (the data's own curve on the grid),
        ``ci_low``, ``ci_high``: one row per curve and grid point. Replicates without
        positives (only with ``stratified=False``) are left out.

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.2
    >>> df = pd.DataFrame({{"y": y, "m1": y + rng.normal(size=1000),
    ...                    "m2": rng.normal(size=1000)}})
    >>> bands = prn.bootstrap_curve(df, score=["m1", "m2"], label="y", grid=11, n_boot=200,
    ...                             seed=0)
    >>> list(bands.columns), len(bands)
    (['model', 'recall', 'precision', 'ci_low', 'ci_high'], 22)
    >>> bool((bands.ci_low <= bands.ci_high).all())
    True
    """
    _check_common(n_boot, level)
    g = _recall_grid(grid)
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    plan = _Plan(batch, stratified)
    hull = bool(hull)
    P, _ = batch.totals()
    warn_undefined(batch, P <= 0, "the PR curve is undefined (no positives): NaN",
                   stacklevel=3)
    _, tp, fp, vo = _sweep_batch(batch.values, batch.offsets, batch.pos, batch.neg,
                                 batch.label_start)
    est = _grid_batch(tp, fp, vo, g, hull)
    reps = plan.run_curve(_seed(seed), int(n_boot), g, hull, progress)
    C, B, G = reps.shape
    flat = np.ascontiguousarray(reps.transpose(0, 2, 1)).reshape(C * G, B)
    alpha = 1.0 - level
    lo = _row_quantiles(flat, np.full(C * G, alpha / 2))
    hi = _row_quantiles(flat, np.full(C * G, 1 - alpha / 2))
    bad = np.repeat(P <= 0, G)
    lo[bad] = np.nan
    hi[bad] = np.nan
    offsets = np.arange(C + 1, dtype=np.int64) * G
    return F.points_frame(batch.keys, offsets, {F.RECALL: np.tile(g, C),
                                                F.PRECISION: est.ravel(),
                                                CI_LOW: lo, CI_HIGH: hi})


bootstrap_curve.__doc__ = bootstrap_curve.__doc__.replace("{{", "{").replace("}}", "}")
