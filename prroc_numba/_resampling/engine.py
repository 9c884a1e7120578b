"""In-memory bootstrap runs: plan, estimate, replicates, reduced to the output rows.

The options of a call are checked before (:mod:`prroc_numba._options`) and arrive
here by name; the batch
is planned (:class:`~.plan.Plan`: one sort per curve), its estimate taken from the
same sort and the replicates run (:mod:`.run`): areas (:func:`replicates`; for
multiclass input reduced to the output rows), curves on a grid
(:func:`curve_replicates`) and the pooled and per-fold curves of ``fold=``
(:func:`fold_replicates`). :func:`replicates_cuda` is the Poisson bootstrap on the GPU.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
import pandas as pd

from .. import _schema as S
from .._checks import kernel_seed, pr_band_grid
from .._core import device as _device
from .._core.batch import CurveKeys, row_ids, warn_undefined, warn_undefined_auc
from .._core.inputs import Inputs
from .._core.memory import check
from .._core.partial import partial_areas, standardized
from .._warnings import UndefinedMetricWarning
from . import folds as F
from .design import ClusterArg
from .plan import Plan, fold_plan


def replicates(
    data,
    batch,
    code,
    spec,
    boot,
    *,
    cluster=None,
    strata=None,
    standardize=False,
    stacklevel=5,
    keep=False,
):
    """``(batch, plan, code, estimates, replicates, seed)`` of ``batch``.

    ``spec``: the partial area's ``(lo, hi, focus)`` or None; ``boot = (curve, hull,
    n_boot, stratified, poisson, seed, progress, label)``; ``cluster``: the call's
    ``cluster=``; ``strata``: an int64 code per input row (e.g. its fold): rows are drawn
    within each (code, class) stratum of their group. For multiclass input the
    estimates and replicates come reduced to the output rows (per class, pair or
    average) and ``batch`` is a view of those. Refused first when the replicates
    cannot fit (:func:`check_replicates_fit`; ``keep``: ``return_replicates=True``).
    """
    curve, hull, n_boot, stratified, poisson, seed, progress, label = boot
    check_replicates_fit(batch, n_boot, label, keep)
    bad = warn_undefined_auc(batch, curve, stacklevel=stacklevel)
    s = kernel_seed(seed)
    # the estimate from the plan's one sort of every curve (no second sort)
    plan = Plan(
        batch,
        stratified,
        ClusterArg(data, cluster),
        poisson,
        estimate=(code, hull) if spec is None else None,
        strata=None if strata is None else strata[row_ids(batch)],
    )
    reps = plan.run(s, int(n_boot), hull, progress, label, code=code, partial=spec)
    if spec is None:
        est = plan.estimate
    else:
        est = partial_areas(batch, code, hull, curve, spec, standardize)
    if spec is not None and standardize:
        reps = standardized(reps, curve, *spec)
    reps[bad] = np.nan
    batch, est, reps = _reduced(batch, est, reps)
    return batch, plan, code, est, reps, s


def _reduced(batch, est, reps):
    """Multiclass estimates and replicates per output row, and a
    :class:`~prroc_numba._core.batch.CurveKeys` view of the output rows (else
    unchanged).
    """
    m = batch.multi
    if m is None:
        return batch, est, reps
    n_models = 1
    keys = m.out_keys
    if S.MODEL in keys.columns and m.n_groups == 1:
        n_models = len(keys)
    view = CurveKeys(keys, n_models)
    return view, m.reduce(est), m.reduce(reps)


def replicates_cuda(batch, curve, code, n_boot, seed, label="bootstrap", keep=False):
    """The Poisson bootstrap on the GPU (see :func:`~prroc_numba.bootstrap`'s ``device``)."""
    check_replicates_fit(batch, n_boot, label, keep)
    gpu = _device.backend()
    est = gpu.area_batch(batch, code, False)
    bad = warn_undefined_auc(batch, curve, stacklevel=5)
    s = kernel_seed(seed)
    reps = gpu.poisson_replicates(batch, code, s, int(n_boot), batch.rows)
    reps[bad] = np.nan
    return batch, None, code, est, reps, s


def check_replicates_fit(batch, n_boot, label, keep=False, grid=None):
    """Refuse (:class:`~prroc_numba._core.memory.NotEnoughMemory`) before any draw when the
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


def curve_replicates(data, inp: Inputs, spec, strata=None):
    """``(batch, undefined, estimate, replicates, grid)`` of :func:`bootstrap_curve` on
    in-memory data: the curves on grid ``g`` and their replicates ``(curves, grid,
    replicates)`` (an int ``g``: the PR grid of that many points from the data's
    positives, :func:`~prroc_numba._checks.pr_band_grid`). ``spec``: ``(curve, what,
    g, hull, stratified, poisson, cluster, n_boot, seed, progress)``; ``strata``: an
    extra stratum code per input row (the fold).
    """
    curve, what, g, hull, stratified, poisson, cluster, n_boot, seed, progress = spec
    batch = inp.pack(data)
    P, N = batch.totals()
    g = pr_band_grid(g, P)
    check_replicates_fit(batch, n_boot, "bootstrap_curve", grid=g)
    plan = Plan(
        batch,
        stratified,
        ClusterArg(data, cluster),
        poisson,
        strata=None if strata is None else strata[row_ids(batch)],
    )
    bad = P <= 0 if curve == "pr" else (P <= 0) | (N <= 0)
    undefined = "no positives" if curve == "pr" else "no positives or no negatives"
    warn_undefined(
        batch, bad, f"the {curve.upper()} curve is undefined ({undefined}): NaN", stacklevel=4
    )
    est = plan.curve_estimate(g, hull, what)  # from the plan's order: one sort per curve
    reps = plan.run(
        kernel_seed(seed), int(n_boot), hull, progress, "bootstrap_curve", code=what, grid=g
    )
    return batch, bad, est, reps, g


# ------------------------------------------------------------------ fold bootstrap


def one_run(
    d,
    inp: Inputs,
    col,
    stratified,
    label_bar,
    estimator,
    boot,
    *,
    code=None,
    grid=None,
    what=None,
):
    """Per-fold and pooled curves from **one** resampling run (:func:`~.plan.
    fold_plan`): each replicate draws every group's rows once, within fold and class,
    and the pooled and per-fold curves all read those counts. Returns ``((keys_f,
    est_f, reps_f, P_f), (keys_p, est_p, reps_p))``, or None where this path does not
    apply (arrays without a frame, rows the packing does not keep in fold order).
    ``estimator`` and ``boot``: the call's estimator and resampling options
    (:class:`~prroc_numba._options.estimator.Estimator`,
    :class:`~prroc_numba._options.draws.Resampling`; their ``curve``, ``hull``,
    ``n_boot``, ``seed`` and ``progress`` are read); ``code``: areas by that estimator;
    else values on ``grid`` as ``what`` says. The inputs are read as binary input
    (``fold=`` takes no multiclass input).
    """
    if d is None:
        return None
    curve = estimator.curve
    codes, values = pd.factorize(np.asarray(d[col]), sort=True)
    order = np.argsort(codes, kind="stable")
    d = d.iloc[order].reset_index(drop=True)
    codes = codes[order].astype(np.int64)
    batch = inp.without_classes().pack(d)
    if batch.multi is not None:
        return None
    rows = codes[row_ids(batch)]
    G = batch.group_offsets.size - 1
    same = np.repeat(np.arange(G), np.diff(batch.group_offsets))
    if rows.size and ((np.diff(rows) < 0) & (same[1:] == same[:-1])).any():
        return None
    V = values.size
    hull = bool(estimator.hull)
    plan, size = fold_plan(
        batch, rows, V, stratified, estimate=None if code is None else (code, hull)
    )
    seed = kernel_seed(boot.seed)
    n_boot = int(boot.n_boot)
    if code is None:
        est = plan.curve_estimate(grid, hull, what)
        reps = plan.run(seed, n_boot, hull, boot.progress, label_bar, code=what, grid=grid)
    else:
        est = plan.estimate
        reps = plan.run(seed, n_boot, hull, boot.progress, label_bar, code=code)
    fb = plan.batch
    cs = np.r_[0.0, np.cumsum(batch.pos)]
    cn = np.r_[0.0, np.cumsum(batch.neg)]
    P = cs[fb.starts + size] - cs[fb.starts]
    N = cn[fb.starts + size] - cn[fb.starts]
    bad = ((P <= 0) if curve == "pr" else (P <= 0) | (N <= 0)) & (size > 0)
    if bad.any():
        warnings.warn(
            f"{int(bad.sum())} pooled or per-fold curve(s) have no positives"
            + ("" if curve == "pr" else " or no negatives")
            + ": their values are NaN",
            UndefinedMetricWarning,
            stacklevel=5,
        )
        est[bad] = np.nan
        reps[bad] = np.nan
    M = batch.n_models
    Mx = M * (1 + V)
    base = (np.arange(G) * Mx)[:, None]
    pooled = (base + np.arange(M)).ravel()
    folded = (base + M + np.arange(V * M)).ravel()  # (group, fold, model) order
    keys_p = batch.keys
    which = (
        np.arange(G)[:, None, None] * M
        + np.zeros((1, V, 1), np.int64)
        + np.arange(M)[None, None, :]
    ).ravel()
    keys_f = keys_p.iloc[which].reset_index(drop=True)
    fold_ids = np.asarray(values, dtype=object)[np.tile(np.repeat(np.arange(V), M), G)]
    at = keys_f.columns.get_loc(S.MODEL) if S.MODEL in keys_f.columns else keys_f.shape[1]
    keys_f.insert(at, col, fold_ids)
    keep = size[folded] > 0  # a group without rows in a fold has no curve there
    folded = folded[keep]
    keys_f = keys_f[keep].reset_index(drop=True)
    return (keys_f, est[folded], reps[folded], P[folded]), (keys_p, est[pooled], reps[pooled])


def fold_replicates(data, inp: Inputs, opts, estimator, boot, label_bar="bootstrap"):
    """The replicates behind ``fold=`` (:func:`~prroc_numba.bootstrap`,
    :func:`~prroc_numba.compare`): ``(runs, fold_column, model_names, n_models)`` with
    ``runs`` three ``(curve_keys, estimates, replicates)``: per fold, fold means,
    pooled. ``opts = (code, stratified, spec)``, the options checked
    (:func:`prroc_numba._options.replicates.check_fold`); ``estimator`` and ``boot``:
    the call's estimator and resampling options (``curve``, ``hull``, ``standardize``;
    ``fold``, ``n_boot``, ``seed``, ``progress``); ``inp``: binary inputs.

    One resampling run (:func:`one_run`): every replicate draws each group's rows
    once within fold and class strata, and the pooled and per-fold curves read the
    same counts; the mean's replicate ``b`` is the mean of the folds' replicates ``b``.
    With ``partial=`` (or arrays without a frame) two runs instead: the folds as groups
    and the pooled curves with the fold as an extra stratum. No loop over folds.
    """
    code, stratified, spec = opts
    fold = boot.fold
    inp = inp.without_classes()
    d, by_f, col = F.with_fold(data, inp.score, inp.label, inp.by, inp.weight, fold)
    one = None
    if spec is None:
        one = one_run(d, inp, col, stratified, label_bar, estimator, boot, code=code)
    if one is not None:
        (keys_f, est_f, reps_f, _), (keys_p, est_p, reps_p) = one
    else:
        curve, hull, standardize = estimator.curve, bool(estimator.hull), estimator.standardize
        draw = (curve, hull, boot.n_boot, stratified, False, boot.seed, boot.progress, label_bar)

        def run(data, inp, strata=None):
            batch = inp.pack(data)
            return replicates(data, batch, code, spec, draw, strata=strata, standardize=standardize)

        batch_f, _, _, est_f, reps_f, _ = run(d, replace(inp, by=by_f))
        n = len(d) if d is not None else np.asarray(fold).shape[0]
        strata = F.codes(d, col if d is not None else fold, n)
        batch_p, _, _, est_p, reps_p, _ = run(data, inp, strata)
        keys_f, keys_p = batch_f.keys, batch_p.keys
    gid, first = F.group_ids(keys_f, col)
    est_m = F.fold_means(est_f, gid, first.size)
    reps_m = F.fold_means(reps_f, gid, first.size)
    M = int(keys_p[S.MODEL].nunique()) if S.MODEL in keys_p else 1
    names = list(keys_p[S.MODEL].iloc[:M]) if S.MODEL in keys_p else list(range(M))
    runs = (
        (keys_f, est_f, reps_f),
        (keys_f.iloc[first].drop(columns=[col]).reset_index(drop=True), est_m, reps_m),
        (keys_p, est_p, reps_p),
    )
    return runs, col, names, M
