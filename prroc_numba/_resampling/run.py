"""The one replicate driver: every draw kind, in chunks, over a plan (:mod:`.plan`).

A replicate is a vector of counts over the sorted rows of a curve (or over its tied
blocks), drawn from a counter-based random stream per ``(seed, group, replicate)``
(:mod:`prroc_numba._kernels.rng`), so results do not depend on the thread count or on
the chunking. Replicates run in chunks so a progress bar can advance and Ctrl-C stops
between chunks (:func:`chunks`). Areas, values on a grid, partial areas, fold curves
(:func:`run`), the data's own curve (:func:`curve_estimate`), the BCa jackknife
(:func:`jackknife`) and the counts at operating points (:func:`operating`) all run
here.
"""

from __future__ import annotations

import numba
import numpy as np

from .._checks import kernel_seed
from .._drivers import (
    boot_folds,
    boot_grouped,
    boot_operating,
    boot_paired,
    boot_paired_blocks,
    boot_partial,
    jackknife_group,
)
from .._drivers.threads import run_items
from .._kernels.resample import MULTINOMIAL, POISSON, UNIT
from .._kernels.resample_blocks import LANES
from .progress import visible

#: the count type of the paired walks (int32 only where a count overflows it)
_NARROW_COUNT = np.uint16
#: hard labels: eight replicates per walk over a model's rows (False: one walk per
#: replicate, the same numbers; for before/after timings)
_BLOCK_WALK = True
#: the largest slot count of the block walk's byte lanes (more: the chunk re-runs with
#: the one-replicate walk)
_BLOCK_COUNT_MAX = 255
#: replicates per chunk are sized so a chunk does about this many row visits
_CHUNK_WORK = 2e7
#: progress bar by default only for runs with at least this many row visits
_PROGRESS_WORK = 5e8
#: BCa jackknife: delete-one up to this many rows per group, else this many blocks
_JACK_EXACT = 2000
_JACK_BLOCKS = 500


def chunks(plan, n_boot, progress, label, kernel, extra=0, multiple=1, least=8):
    """Call ``kernel(b0, b1)`` on chunks of replicates, advancing a progress bar.

    Chunks are sized to about ``_CHUNK_WORK`` row visits (the plan's ``work`` per
    replicate, plus ``extra`` per curve), so the bar moves and Ctrl-C (checked between
    chunks) stops within a fraction of a second; at least ``least`` replicates, rounded
    up to a ``multiple`` (the block walk's blocks).
    """
    work = plan.work + extra * plan.batch.n_curves
    chunk = int(max(least, min(n_boot, _CHUNK_WORK / max(work, 1.0))))
    chunk = -(-chunk // multiple) * multiple
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


def _rows(plan):
    """The sorted curves as :func:`~prroc_numba._kernels.resample._boot_paired`
    reads them.
    """
    b = plan.batch
    if plan.hard and plan._masses is None:  # the hard walk reads slot numbers only
        ps = ns = np.empty(0)
    else:
        ps, ns = plan.ps, plan.ns
    return (plan.slot_order, ps, ns, b.offsets, plan.seg_offsets, plan.seg_end, b.n_models)


def _draw(plan, kind, wide=False):
    """How :func:`~prroc_numba._kernels.resample._boot_paired` fills the slot
    counts: narrow counts that the caller re-runs ``wide`` on overflow, or
    (``wide=None``) the plan's own count type, sized for its biggest stratum (never
    overflows).
    """
    ids = plan.slot_ids
    return (
        kind,
        plan.strata_offsets,
        plan.n_strata,
        np.empty(0, dtype=np.int64) if ids is None else ids,
        plan.n_pos_slots,
        plan.hard,
        plan.count_type if wide is None else np.empty(0, dtype=np.int32 if wide else _NARROW_COUNT),
        np.zeros(1, dtype=np.int64),  # set when a count overflowed uint16
    )


def run(plan, seed, n_boot, hull, progress, label, *, code=-1, grid=None, partial=None):
    """Replicates of every curve of ``plan``, chunk by chunk: every draw kind.

    ``grid`` None: areas by estimator ``code``, float64 ``(n_curves, n_boot)``.
    Otherwise the values on ``grid`` that ``code`` names (precision at recall, TPR at
    FPR or FPR at TPR: :func:`prroc_numba._kernels.resample._emit`), float64
    ``(n_curves, n_grid, n_boot)`` -- grid points by replicates, so each (curve, grid
    point) is one contiguous row for the quantiles; the kernels write this layout
    directly. ``partial``: ``(lo, hi, focus)`` of a partial area by estimator ``code``
    (:mod:`prroc_numba._kernels.partial`, paired draws).
    """
    b = plan.batch
    C = b.n_curves
    on_grid = grid is not None
    spec = (code, bool(hull), grid if on_grid else np.empty(0))
    reps = np.empty((C, grid.size if on_grid else 1, n_boot))
    layout = {}
    if plan.grouped and partial is None:
        segs = (plan.seg_offsets, plan.sp, plan.sn, b.curve_group)
        draw = (plan.stratified, plan.lp, plan.ln, plan.tabs)

        def kernel(b0, b1):
            n = b.n_curves * (b1 - b0)
            run_items(boot_grouped, n, segs, draw, seed, b0, b1, spec, reps)

    else:  # paired draws (partial areas too: cluster= and partial= are multinomial)
        rows = _rows(plan)
        kind = POISSON if plan.poisson else MULTINOMIAL
        draw = _draw(plan, kind)
        items, head = boot_paired, (rows,)
        if partial is not None:
            items, spec = boot_partial, (code, bool(hull), *partial)
        elif plan.folds is not None:  # one walk per pooled curve gives its folds' too
            items, head = boot_folds, (rows, plan.folds)
        n_groups = b.n_curves // b.n_models
        # hard labels: eight replicates per walk over each model's rows
        blocks = _BLOCK_WALK and items is boot_paired and plan.hard
        block_draw = (*draw, _BLOCK_COUNT_MAX)

        def kernel(b0, b1):
            if blocks:
                draw[-1][0] = 0
                n = n_groups * -(-(b1 - b0) // LANES)
                run_items(boot_paired_blocks, n, rows, block_draw, seed, b0, b1, spec, reps)
                if not draw[-1][0]:
                    return
            n = n_groups * (b1 - b0)
            draw[-1][0] = 0
            run_items(items, n, *head, draw, seed, b0, b1, spec, reps)
            if draw[-1][0]:  # a count above 65,535 (big strata only): int32 counts
                wide = _draw(plan, kind, wide=True)
                run_items(items, n, *head, wide, seed, b0, b1, spec, reps)

        if blocks:  # enough blocks per chunk for every thread
            threads = numba.get_num_threads()
            layout = {"multiple": LANES, "least": LANES * -(-4 * threads // n_groups)}

    chunks(plan, n_boot, progress, label, kernel, extra=grid.size if on_grid else 0, **layout)
    return reps if on_grid else reps[:, 0, :]


def curve_estimate(plan, grid, hull, what=-1):
    """The data's own curve on ``grid``, float64 ``(n_curves, n_grid)``, from the
    plan's order (no second sort): the paired walk with every count 1. ``what``:
    precision at recall (-1) or the ROC values of
    :func:`prroc_numba._kernels.resample._emit`.
    """
    out = np.empty((plan.batch.n_curves, grid.size, 1))
    n_groups = plan.batch.n_curves // plan.batch.n_models
    spec = (int(what), bool(hull), grid)
    run_items(boot_paired, n_groups, _rows(plan), _draw(plan, UNIT), 0, 0, 1, spec, out)
    return out[:, :, 0]


def jackknife(plan, seed, code, hull):
    """Jackknife areas per curve (list of 1-D arrays), for the BCa acceleration:
    delete-one up to ``_JACK_EXACT`` rows per group, else delete-a-block over
    ``_JACK_BLOCKS`` blocks, each stratum spread evenly over them at random.
    """
    b = plan.batch
    M = b.n_models
    rng = np.random.default_rng(seed)
    out = [None] * b.n_curves
    curves = (plan.slot_order, plan.ps, plan.ns, b.offsets, plan.seg_offsets, plan.seg_end)
    for g in range(plan.n_groups):
        # blocks are given per slot (the walk reads the count of each sorted row's
        # slot); the group's extra slot (rows of zero weight) is never left out
        s0 = plan.strata_offsets[g * plan.n_strata]
        bounds = plan.strata_offsets[g * plan.n_strata : (g + 1) * plan.n_strata + 1] - s0
        n_kept = int(bounds[-1])
        block = np.full(n_kept + 1, -1, dtype=np.int64)
        if n_kept <= _JACK_EXACT:
            # delete-one, the rows numbered in input order
            slots = plan.slot[b.group_offsets[g] : b.group_offsets[g + 1]]
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
        vals = jackknife_group(curves, g * M, M, block, n_blocks, code, hull)
        for m in range(M):
            out[g * M + m] = vals[:, m]
    return out


def operating(plan, seed, n_boot, progress, thr, thr_off, n_rows, pick, target):
    """Replicates of the counts at the thresholds of every curve of ``plan`` (built
    with ``keep_order=True``; see :func:`~prroc_numba._kernels.operating.
    boot_operating`): ``(out (n_rows, n_boot, 3), totals (n_curves, n_boot, 2))``.
    ``target = (kinds, bounds, beta)``.
    """
    batch = plan.batch
    start = np.repeat(batch.offsets[:-1], np.diff(batch.offsets))
    xs = np.ascontiguousarray(batch.values[start + plan.order])  # scores, sorted order
    kinds, bounds, beta = target
    s = kernel_seed(seed)
    B = int(n_boot)
    C = batch.n_curves
    out = np.empty((n_rows, B, 3))
    totals = np.empty((C, B, 2))
    draw = _draw(plan, MULTINOMIAL, wide=None)
    n_groups = C // batch.n_models

    def kernel(b0, b1):
        o = np.empty((n_rows, b1 - b0, 3))
        t = np.empty((C, b1 - b0, 2))
        run_items(
            boot_operating,
            n_groups * (b1 - b0),
            xs,
            plan.slot_order,
            plan.ps,
            plan.ns,
            batch.offsets,
            thr,
            thr_off,
            draw,
            batch.n_models,
            s,
            b0,
            b1,
            kinds,
            bounds,
            beta,
            pick,
            o,
            t,
        )
        out[:, b0:b1] = o
        totals[:, b0:b1] = t

    chunks(plan, B, progress, "operating_points", kernel)
    return out, totals
