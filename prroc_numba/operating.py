"""Operating points: the threshold that meets a target, its confusion matrix and metrics.

One sweep per curve (:func:`prroc_numba._drivers.sweep.sweep_batch`), then one kernel
pass choosing the best vertex per curve and target
(:mod:`prroc_numba._kernels.operating`). Intervals re-run the choice on every bootstrap
replicate (the replicate draws of :mod:`prroc_numba._resampling.run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import re
import warnings

import numpy as np
import pandas as pd

from . import _backends
from . import _frames as F
from . import _schema as S
from ._calls import with_output
from ._core import check_thresholds_columns, refuse, thresholds_of_curves
from ._core.batch import describe_row, lengths_to_offsets, warn_undefined
from ._core.dataframes import Output
from ._core.inputs import Inputs
from ._core.reading import rows_result, rows_thresholds, weighted_rows
from ._docs import fill_doc
from ._drivers import counts_at_batch, pick_batch
from ._drivers.sweep import sweep_batch
from ._kernels.operating import (
    FPR_LE,
    MAX_FBETA,
    PRECISION_GE,
    RECALL_GE,
    TOPLEFT,
    TPR_GE,
    YOUDEN,
)
from ._options.choices import check_operating
from ._options.draws import label as _resampling_label
from ._resampling.design import cluster_codes
from ._resampling.plan import Plan
from ._resampling.run import operating as run_operating
from ._warnings import UndefinedMetricWarning

_NAMED = {"max_f1": MAX_FBETA, "youden": YOUDEN, "closest_topleft": TOPLEFT}
_BOUND = {
    ("precision", ">="): PRECISION_GE,
    ("recall", ">="): RECALL_GE,
    ("tpr", ">="): TPR_GE,
    ("fpr", "<="): FPR_LE,
}
_RE = re.compile(r"^\s*(precision|recall|tpr|fpr)\s*(>=|<=)\s*([0-9.eE+-]+)\s*$")
_NEEDS_NEG = {YOUDEN, TOPLEFT, FPR_LE, TPR_GE}


def parse_targets(targets: str | Sequence[str]):
    """``(names, kinds int64, bounds float64)`` from the ``targets=`` argument."""
    if isinstance(targets, str):
        targets = (targets,)
    try:
        names = list(targets)
    except TypeError:
        raise TypeError(f"targets must be a string or a list of strings, got {targets!r}") from None
    if not names:
        raise ValueError("targets is empty; pass e.g. targets=('max_f1', 'recall>=0.8')")
    if len(set(names)) != len(names):
        raise ValueError(f"targets lists a target twice: {names}")
    kinds, bounds = [], []
    for t in names:
        if not isinstance(t, str):
            raise TypeError(f"each target must be a string, got {t!r}")
        if t in _NAMED:
            kinds.append(_NAMED[t])
            bounds.append(np.nan)
            continue
        m = _RE.match(t)
        key = (m.group(1), m.group(2)) if m else None
        if key not in _BOUND:
            raise ValueError(
                f"target {t!r} is not known; use 'max_f1', 'youden', 'closest_topleft', "
                "or a constraint 'precision>=x', 'recall>=x', 'tpr>=x', 'fpr<=x' with x "
                "in [0, 1]"
            )
        assert m is not None  # a known key comes from a match
        try:
            x = float(m.group(3))
        except ValueError:
            x = np.nan
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"target {t!r}: the bound must be a number in [0, 1]")
        kinds.append(_BOUND[key])
        bounds.append(x)
    return names, np.array(kinds, dtype=np.int64), np.array(bounds, dtype=np.float64)


def _metrics(tp, fp, P, N, beta):
    """Columns from counts (arrays broadcasting together); NaN where undefined."""
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        fn = P - tp
        tn = N - fp
        prec = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        rec = np.where(P > 0, tp / P, np.nan)
        fpr = np.where(N > 0, fp / N, np.nan)
        spec = np.where(N > 0, tn / N, np.nan)
        d = (1 + b2) * tp + b2 * fn + fp
        fb = np.where(d > 0, (1 + b2) * tp / d, np.nan)
    return fn, tn, prec, rec, fpr, spec, fb


def _tuning_rows(batch, frame):
    """Map a ``thresholds=`` frame (from :func:`operating_points`) to curves.

    Returns ``(curve, threshold, target)`` per row of the frame, in frame order.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            "thresholds must be a DataFrame returned by operating_points() on tuning data "
            f"(key columns, 'target', 'threshold'), got {type(frame).__name__}"
        )
    keys = batch.key_names
    need = [*keys, S.TARGET, S.THRESHOLD]
    check_thresholds_columns(
        frame,
        need,
        "column(s)",
        "; pass the frame that operating_points(tuning, ...) returned, with the same "
        f"score/by arguments (columns needed: {need})",
    )
    if len(frame) == 0:
        raise ValueError("the thresholds frame is empty")
    try:
        thr = frame[S.THRESHOLD].to_numpy(np.float64)
    except (TypeError, ValueError):
        raise TypeError("the thresholds frame's 'threshold' column must be numeric") from None
    targets = frame[S.TARGET].to_numpy(object)
    if not keys:
        return np.zeros(len(frame), dtype=np.int64), thr, targets
    left = frame[keys].reset_index(drop=True).copy()
    left["__row"] = np.arange(len(left))
    right = batch.keys.reset_index(drop=True).copy()
    right["__curve"] = np.arange(batch.n_curves)
    try:
        merged = left.merge(right, on=keys, how="left", sort=False, validate="many_to_one")
    except ValueError as err:
        raise ValueError(
            f"cannot match the thresholds frame to the curves on {keys}: {err}"
        ) from None
    curve = merged.sort_values("__row")["__curve"].to_numpy(np.float64)
    if np.isnan(curve).any():
        bad = frame[keys][np.isnan(curve)].iloc[0]
        raise ValueError(
            f"the thresholds frame has curve(s) that are not in the data (first: "
            f"{describe_row(bad)}); drop them or check by=/score="
        )
    curve = curve.astype(np.int64)
    absent = np.flatnonzero(np.bincount(curve, minlength=batch.n_curves) == 0)
    if absent.size:
        raise ValueError(
            f"the thresholds frame has no rows for {batch.describe(int(absent[0]))}"
            f"{f' and {absent.size - 1} more curve(s)' if absent.size > 1 else ''}; give "
            "every curve of the data its tuning thresholds"
        )
    return curve, thr, targets


@with_output
@fill_doc
def operating_points(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    targets: str | Sequence[str] = ("max_f1",),
    beta: float = 1.0,
    thresholds: ArrayLike | pd.DataFrame | None = None,
    n_boot: int | None = None,
    level: float = 0.95,
    stratified: bool = True,
    seed: int | None = None,
    progress: bool | None = None,
    pos_label: Any = None,
    soft_labels: bool = False,
    cluster: str | ArrayLike | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Operating points: the threshold meeting each target, with its confusion matrix.

    For every curve and target the best **distinct score** is chosen as the threshold (a
    row is predicted positive when ``score >= threshold``; tied scores form one step;
    the origin -- nothing predicted positive -- is never chosen). Or, with
    ``thresholds=``, thresholds chosen on tuning data are evaluated on this data (the
    tuning-set method: choose on one set, report on another).

    Parameters
    ----------
    {binary}
    targets : str or sequence of str, default=("max_f1",)
        ``"max_f1"``: the highest F-beta (F1 for ``beta=1``). ``"youden"``: the highest
        TPR - FPR (Youden's J). ``"closest_topleft"``: the ROC point nearest (0, 1).
        Constraints, with a bound ``x`` in [0, 1]: ``"precision>=x"`` -- the highest
        recall whose precision is at least ``x`` (recall at a precision);
        ``"recall>=x"`` -- the highest precision with recall at least ``x``;
        ``"fpr<=x"`` -- the highest TPR with FPR at most ``x`` (sensitivity at a
        specificity of ``1 - x``); ``"tpr>=x"`` -- the lowest FPR with TPR at least
        ``x``. Ties go to the other metric of the pair (e.g. of two thresholds with the
        highest recall, the one with the higher precision), then to the higher
        threshold. A target no threshold meets (or one that needs negatives on a curve
        without any) gives a row of NaN and an :class:`~prroc_numba.UndefinedMetricWarning`
        naming the curve.
    beta : float, default=1.0
        The F-beta of ``"max_f1"`` and of the ``f_beta`` column: recall weighs ``beta``
        times as much as precision.
    thresholds : DataFrame, default=None
        The frame :func:`operating_points` returned on tuning data (same ``score`` /
        ``by`` arguments): each curve is evaluated at its own tuning thresholds, one row
        per row of the frame, ``target`` kept. ``targets`` is then unused. A NaN
        threshold (a target unmet on the tuning data) gives a NaN row.
    n_boot : int, default=None
        With a number of replicates, adds ``<metric>_ci_low`` and ``<metric>_ci_high``
        for ``threshold``, ``precision``, ``recall``, ``fpr``, ``specificity`` and
        ``f_beta``: percentile intervals over bootstrap replicates (the resampling of
        :func:`~prroc_numba.bootstrap`, paired across models). For a target, every
        replicate **re-picks** its threshold, so the interval includes the variability
        of the choice (as pROC's ``ci.coords``); with ``thresholds=`` the threshold
        stays fixed (as pROC's ``ci.thresholds``). Replicates where a target is unmet
        are left out of its intervals (warned).
    level : float, default=0.95
    stratified : bool, default=True
        Keep the class counts fixed in every replicate (see
        :func:`~prroc_numba.bootstrap`).
    seed : int, default=None
    progress : bool, default=None
    {cluster}

    Returns
    -------
    DataFrame
        Key columns, ``target``, ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``,
        ``precision``, ``recall``, ``fpr``, ``specificity``, ``f_beta`` (then the
        interval columns; with ``n_boot``, ``interval``, ``resampling`` and ``n_boot``
        come after the key columns, as in :func:`bootstrap`): one row per curve and
        target. Counts are float64 (weighted
        sums). ``precision`` is NaN where nothing is predicted positive (only possible
        with ``thresholds=``).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> df = pd.DataFrame({"s": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
    ...                    "y": [1, 1, 0, 1, 0, 1, 0, 0]})
    >>> op = prn.operating_points(df, score="s", label="y",
    ...                           targets=["max_f1", "precision>=0.9", "tpr>=0.75"])
    >>> op[["target", "threshold", "tp", "fp", "precision", "recall", "fpr"]]
               target  threshold   tp   fp  precision  recall   fpr
    0          max_f1        0.4  4.0  2.0   0.666667    1.00  0.50
    1  precision>=0.9        0.8  2.0  0.0   1.000000    0.50  0.00
    2       tpr>=0.75        0.6  3.0  1.0   0.750000    0.75  0.25

    The tuning-set method: choose on tuning data, evaluate on test data.

    >>> test = df.assign(s=[0.9, 0.7, 0.8, 0.3, 0.5, 0.6, 0.4, 0.2])
    >>> prn.operating_points(test, score="s", label="y", thresholds=op)[
    ...     ["target", "threshold", "tp", "fp"]]
               target  threshold   tp   fp
    0          max_f1        0.4  3.0  3.0
    1  precision>=0.9        0.8  1.0  1.0
    2       tpr>=0.75        0.6  3.0  1.0
    """
    beta = check_operating(beta, n_boot, level, cluster)
    inp = Inputs(score, label, by, weight, pos_label, soft_labels)
    wing = _backends.wing_for(data)
    if wing is not None:
        if n_boot is not None or cluster is not None:
            raise ValueError(
                "operating_points with n_boot= or cluster= resamples rows, which needs "
                f"every row in one place; for {_backends.input_name(data)} drop them (or "
                "use bootstrap() for intervals of the areas)"
            )
        return _on_table(wing, data, inp, targets, beta, thresholds)
    batch = inp.pack(data)
    codes = cluster_codes(data, cluster, batch)
    C = batch.n_curves
    P, N = batch.totals()
    thr_s = off = kinds = bounds = sorted_thr = thr_off = order = None
    if thresholds is None:
        curve, thr, target_col, tp, fp, thr_s, off, kinds, bounds = _at_targets(
            batch, targets, beta, P, N
        )
    else:
        refuse(batch, "thresholds= (compared as floats)", "drop thresholds=")
        curve, thr, target_col, tp, fp, order, sorted_thr, thr_off = _at_thresholds(
            batch, thresholds
        )
    Pr, Nr = P[curve], N[curve]
    fn, tn, prec, rec, fpr, spec, fb = _metrics(tp, fp, Pr, Nr, beta)
    cols = {
        S.TARGET: target_col,
        S.THRESHOLD: thr,
        S.TP: tp,
        S.FP: fp,
        S.FN: fn,
        S.TN: tn,
        S.PRECISION: prec,
        S.RECALL: rec,
        S.FPR: fpr,
        S.SPECIFICITY: spec,
        S.F_BETA: fb,
    }
    if n_boot is not None:
        if thresholds is None:
            reps = _replicate_targets(
                batch, thr_s, off, kinds, bounds, beta, n_boot, stratified, seed, progress, codes
            )
        else:
            reps = _replicate_fixed(
                batch, sorted_thr, thr_off, order, n_boot, stratified, seed, progress, codes
            )
        cols.update(_intervals(batch, curve, target_col, reps, beta, level, thr))
    cols[S.THRESHOLD] = thresholds_of_curves(batch, thr, curve)  # integers beyond 2**53
    offsets = lengths_to_offsets(np.bincount(curve, minlength=C))
    out = F.points_frame(batch.keys, offsets, cols)
    if n_boot is not None:  # what produced the intervals
        kind = _resampling_label(bool(stratified), False, cluster)
        F.describe(out, S.TARGET, interval="percentile", resampling=kind, n_boot=int(n_boot))
    return out


def _on_table(wing, data, inp: Inputs, targets, beta, thresholds):
    """Distributed input: the operating points of its merged table (one positive and
    one negative weighted row per distinct score; the counts are the rows' own).
    """
    acc = wing.merged_state(data, "operating_points", **inp.binary())
    rows, kw = weighted_rows(acc)
    out = operating_points(
        rows,
        **kw,
        targets=targets,
        beta=beta,
        thresholds=rows_thresholds(acc, thresholds),
    )
    return rows_result(acc, out)


def _at_targets(batch, targets, beta, P, N):
    """Each curve's best vertex for each target: ``(curve, threshold, target, tp, fp)``
    per output row, then the sweep ``(thr, offsets)`` and the parsed targets that the
    replicates re-pick from.
    """
    C = batch.n_curves
    names, kinds, bounds = parse_targets(targets)
    T = len(names)
    thr_s, tp_s, fp_s, off = sweep_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    idx = pick_batch(tp_s, fp_s, off, kinds, bounds, beta).ravel()
    ok = idx >= 0
    safe = np.where(ok, idx, 0)
    thr = np.where(ok, thr_s[safe], np.nan)
    tp = np.where(ok, tp_s[safe], np.nan)
    fp = np.where(ok, fp_s[safe], np.nan)
    curve = np.repeat(np.arange(C), T)
    target_col = np.tile(np.asarray(names, dtype=object), C)
    for k, name in enumerate(names):
        miss = ~ok.reshape(C, T)[:, k]
        undefined = (P <= 0) | ((N <= 0) & (kinds[k] in _NEEDS_NEG))
        warn_undefined(
            batch,
            miss & undefined,
            f"target {name!r} is undefined (no positives"
            + (" or no negatives" if kinds[k] in _NEEDS_NEG else "")
            + "): NaN row",
        )
        warn_undefined(batch, miss & ~undefined, f"no threshold meets target {name!r}: NaN row")
    return curve, thr, target_col, tp, fp, thr_s, off, kinds, bounds


def _at_thresholds(batch, thresholds):
    """The counts at the tuning thresholds: ``(curve, threshold, target, tp, fp)`` per
    output row, then the sort of the thresholds that the replicates reuse.
    """
    C = batch.n_curves
    curve, thr_in, target_col = _tuning_rows(batch, thresholds)
    order = np.lexsort((-np.nan_to_num(thr_in, nan=np.inf), curve))
    sorted_thr = np.ascontiguousarray(np.nan_to_num(thr_in[order], nan=np.inf))
    thr_off = lengths_to_offsets(np.bincount(curve, minlength=C))
    tps, fps = counts_at_batch(
        batch.values,
        batch.offsets,
        batch.pos,
        batch.neg,
        batch.label_start,
        sorted_thr,
        thr_off,
    )
    tp = np.empty(curve.size)
    fp = np.empty(curve.size)
    tp[order] = tps
    fp[order] = fps
    nan = np.isnan(thr_in)
    tp[nan] = np.nan
    fp[nan] = np.nan
    thr = thr_in
    if nan.any():
        warn_undefined(
            batch,
            np.bincount(curve[nan], minlength=C) > 0,
            "the thresholds frame has NaN thresholds (targets unmet on the tuning data): NaN rows",
        )
    return curve, thr, target_col, tp, fp, order, sorted_thr, thr_off


# ------------------------------------------------------------------------- bootstrap


def _run(batch, boot, thr, thr_off, n_rows, pick, kinds, bounds, beta):
    """Replicates of the counts at the thresholds (:func:`._resampling.run.operating`);
    ``boot = (n_boot, stratified, seed, progress, cluster codes)``.
    """
    n_boot, stratified, seed, progress, cluster = boot
    plan = Plan(batch, stratified, cluster, keep_order=True)
    target = (kinds, bounds, beta)
    return run_operating(plan, seed, n_boot, progress, thr, thr_off, n_rows, pick, target)


def _replicate_targets(
    batch, thr_s, off, kinds, bounds, beta, n_boot, stratified, seed, progress, cluster=None
):
    boot = (n_boot, stratified, seed, progress, cluster)
    # the curve's distinct scores, descending (the sweep without its origin)
    keep = np.ones(thr_s.size, dtype=bool)
    keep[off[:-1]] = False
    thr = np.ascontiguousarray(thr_s[keep])
    thr_off = off - np.arange(off.size, dtype=np.int64)
    C = batch.n_curves
    out, totals = _run(batch, boot, thr, thr_off, C * kinds.size, True, kinds, bounds, beta)
    return out, np.repeat(totals, kinds.size, axis=0)


def _replicate_fixed(
    batch, sorted_thr, thr_off, order, n_boot, stratified, seed, progress, cluster=None
):
    boot = (n_boot, stratified, seed, progress, cluster)
    kinds = np.zeros(1, dtype=np.int64)
    bounds = np.zeros(1)
    out, totals = _run(batch, boot, sorted_thr, thr_off, sorted_thr.size, False, kinds, bounds, 1.0)
    curve_sorted = np.repeat(np.arange(batch.n_curves), np.diff(thr_off))
    res = np.empty_like(out)
    res[order] = out
    tot = np.empty((order.size,) + totals.shape[1:])
    tot[order] = totals[curve_sorted]
    return res, tot


def _intervals(batch, curve, target_col, reps, beta, level, thr):
    out, totals = reps
    tp, fp, rthr = out[..., 0], out[..., 1], out[..., 2]
    P, N = totals[..., 0], totals[..., 1]
    _, _, prec, rec, fpr, spec, fb = _metrics(tp, fp, P, N, beta)
    # a fixed threshold that was NaN (unmet on tuning data) stays NaN
    rthr = np.where(np.isnan(thr)[:, None], np.nan, rthr)
    alpha = 1.0 - level
    cols = {}
    unmet = np.isnan(tp).sum(axis=1)
    hit = (unmet > 0) & np.isfinite(thr)
    if hit.any():
        r = int(np.argmax(unmet * hit))
        warnings.warn(
            f"{int(unmet[hit].sum())} bootstrap replicates did not meet their target and "
            f"were left out of its interval (most: target {target_col[r]!r} for "
            f"{batch.describe(int(curve[r]))}, {int(unmet[r])} of {tp.shape[1]})",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    for name, v in zip(S.OPERATING_METRICS, (rthr, prec, rec, fpr, spec, fb)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows give NaN
            q = np.nanquantile(v, [alpha / 2, 1 - alpha / 2], axis=1)
        lo_name, hi_name = S.ci_names(name)
        cols[lo_name] = q[0]
        cols[hi_name] = q[1]
    return cols
