"""Paired comparison of many models: bootstrap differences, DeLong's test, adjustment.

:func:`compare` resamples all models of a group together (one row-count vector per
replicate, see :mod:`prroc_numba._resampling`), so each replicate gives every
pairwise difference at once. :func:`delong` gives DeLong's variance and interval of
each ROC AUC, as pROC does.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from . import _frames as F
from . import _schema as S
from ._calls import with_output
from ._checks import check_level, kernel_seed
from ._core import device as _device
from ._core.batch import warn_undefined
from ._core.dataframes import Output
from ._core.inputs import Inputs
from ._core.packing import pack
from ._core.pr_floor import check_normalize, normalized_replicates
from ._docs import fill_doc
from ._drivers import unpaired_stat, venkatraman_unpaired
from ._options.choices import ADJUSTMENTS, TESTS, check_choice
from ._options.draws import Resampling, call_label
from ._options.estimator import Estimator
from ._options.pairs import BEST, Comparison, check_compare, choose_pairs
from ._options.replicates import fold_runs, replicates
from ._resampling import folds as _folds
from ._resampling.intervals import (
    boot_pairs,
    boot_se,
    normal_interval,
    pair_index,
)
from ._resampling.paired import delong_cov, delong_pairs, delong_parts, venkatraman_pairs
from ._warnings import UndefinedMetricWarning

# ------------------------------------------------------------------ adjustment


def adjust_pvalues(p, method="holm"):
    """Adjust a family of p-values for multiple comparisons.

    Parameters
    ----------
    p : array-like of shape (n_tests,)
        Raw p-values; NaN entries are left NaN and do not count in the family.
    method : {"holm", "bonferroni", "bh", "none"}, default="holm"
        Holm's step-down (controls the family-wise error rate), Bonferroni, or
        Benjamini-Hochberg (controls the false discovery rate); ``"none"`` (or None)
        returns ``p`` unchanged.

    Returns
    -------
    ndarray of shape (n_tests,)

    Examples
    --------
    >>> from prroc_numba.comparison import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03], "holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_pvalues([0.01, 0.04, 0.03], "bh").round(3).tolist()
    [0.03, 0.04, 0.04]
    """
    if method is None:
        method = "none"
    check_choice("adjust", method, ADJUSTMENTS)
    p = np.asarray(p, dtype=np.float64)
    out = p.copy()
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if method == "none" or m == 0:
        return out
    q = p[ok]
    if method == "bonferroni":
        out[ok] = np.minimum(1.0, q * m)
        return out
    order = np.argsort(q, kind="stable")
    qs = q[order]
    if method == "holm":
        adj = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * qs))
    else:  # bh
        adj = np.minimum.accumulate((m / np.arange(m, 0, -1)) * qs[::-1])[::-1]
        adj = np.minimum(1.0, adj)
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


# ---------------------------------------------------------------------- DeLong


@with_output
@fill_doc
def delong(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    level: float = 0.95,
    pos_label: Any = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """ROC AUC with DeLong's variance and confidence interval (as pROC's ``ci.auc``).

    The placement values are computed in O(N log N) from each curve's sorted order
    (Sun & Xu 2014); the variance is ``var(V10)/m + var(V01)/n`` with sample variances
    over the ``m`` positives and ``n`` negatives, and the interval is the normal one,
    clipped to [0, 1] as pROC does.

    Parameters
    ----------
    {data}
    score : str, list of str, or array-like
        As in :func:`prroc_numba.auc`.
    label : str or array-like
        Hard binary labels (no weights or soft labels: DeLong's estimator is unweighted).
    by : str, list of str, or array-like, default=None
    level : float, default=0.95
    pos_label : scalar, default=None

    Returns
    -------
    DataFrame
        Key columns, then ``curve`` (``"roc"``), ``method`` (``"trapezoid"``),
        ``interval`` (``"delong"``), then ``auc``, ``var``, ``se``, ``ci_low``,
        ``ci_high``: one row per
        curve. The variance is NaN (warned) with fewer than two positives or negatives.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> res = prn.delong(score=[0.9, 0.8, 0.7, 0.6, 0.4, 0.3], label=[1, 1, 0, 1, 0, 0])
    >>> res.round(4)
      curve     method interval     auc     var      se  ci_low  ci_high
    0   roc  trapezoid   delong  0.8889  0.0247  0.1571  0.5809      1.0
    """
    check_level(level)
    batch = pack(data, score=score, label=label, by=by, pos_label=pos_label)
    parts = delong_parts(batch)
    auc = np.empty(batch.n_curves)
    var = np.empty(batch.n_curves)
    M = batch.n_models
    for g, (v10, v01) in enumerate(parts):
        theta, cov = delong_cov(v10, v01)
        auc[g * M : (g + 1) * M] = theta
        var[g * M : (g + 1) * M] = np.diag(cov)
    warn_undefined(
        batch,
        ~np.isfinite(var),
        "DeLong's variance needs at least two positives and two negatives: NaN",
    )
    se = np.sqrt(var)
    lo, hi = (np.clip(v, 0.0, 1.0) for v in normal_interval(auc, se, level))
    out = F.curves_frame(
        batch.keys, {S.AUC: auc, S.VAR: var, S.SE: se, S.CI_LOW: lo, S.CI_HIGH: hi}
    )
    return F.describe(out, S.AUC, curve="roc", method="trapezoid", interval="delong")


# --------------------------------------------------------------------- compare


def _mark_best(frame, best, level, adjust):
    """``not_worse`` (``p_adjusted >= 1 - level``: the difference from the best is not
    significant after the stated adjustment) and the answer in ``attrs``: the models
    not worse on every deciding row (with ``fold=`` the fold means, with
    ``combine=True`` the random-effects pooled rows, else every group's row).
    """
    alpha = 1.0 - level
    frame[S.NOT_WORSE] = frame[S.P_ADJUSTED].to_numpy() >= alpha
    rows = frame
    if S.FOLD in frame.columns:
        rows = frame[frame[S.FOLD].astype(str) == "mean"]
    elif S.COMBINED in frame.columns:
        rows = frame[frame[S.COMBINED] == "random"]
    verdict = rows.groupby(rows[S.MODEL_B].astype(str), sort=False)[S.NOT_WORSE].all()
    same = [str(m) for m, ok in verdict.items() if ok]
    frame.attrs["best"] = best
    frame.attrs["not_worse"] = same
    frame.attrs["adjust"] = adjust
    frame.attrs["summary"] = (
        f"best: {best}; not significantly worse at the {alpha:g} level "
        f"({adjust}-adjusted p-values over the comparisons with the best): "
        + (", ".join(same) if same else "none")
    )
    return frame


def _venkatraman_unpaired_frame(batch, baseline, n_perm, seed, adjust):
    """Venkatraman's (2000) unpaired test of every pair of curves (the ``by`` groups)."""
    parts = delong_parts(batch)  # checks hard labels
    G = len(parts)
    if G < 2:
        raise ValueError("the unpaired Venkatraman test needs at least two by= groups (curves)")
    keys = batch.keys
    if keys.shape[1] == 1:
        names = list(keys.iloc[:, 0])
    else:
        names = [", ".join(f"{c}={v}" for c, v in zip(keys.columns, row)) for row in keys.values]
    pairs, _ = choose_pairs(names, baseline, None)  # (baseline="best" refused before)
    est = np.array([v10.mean() if v10.size and v01.size else np.nan for v10, v01 in parts])
    seqs = []
    for g in range(G):
        a, e = batch.group_offsets[g], batch.group_offsets[g + 1]
        order = np.argsort(batch.values[batch.offsets[g] : batch.offsets[g + 1]], kind="stable")
        seqs.append((batch.pos[a:e][order] == 1).astype(np.int64))
    s = kernel_seed(seed)
    stat = np.full(len(pairs), np.nan)
    p = np.full(len(pairs), np.nan)
    for k, (i, j) in enumerate(pairs):
        r, q = seqs[i], seqs[j]
        if not (0 < r.sum() < r.size and 0 < q.sum() < q.size):
            continue
        # pROC's mixing proportion, (positives of both) / (2 x rows of the first curve)
        mp = (r.sum() + q.sum()) / (2.0 * r.size)
        stat[k] = unpaired_stat(r, q, mp)
        perm = venkatraman_unpaired(r, q, mp, s, k, n_perm)
        p[k] = np.count_nonzero(perm >= stat[k]) / n_perm
    if np.isnan(stat).any():
        warnings.warn(
            "Venkatraman's test needs positives and negatives in every curve; the affected "
            "comparisons are NaN",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    ia = np.array([i for i, _ in pairs], dtype=np.int64)
    ib = np.array([j for _, j in pairs], dtype=np.int64)
    names_arr = np.asarray(names, dtype=object)
    nan = np.full(len(pairs), np.nan)
    return pd.DataFrame(
        {
            S.MODEL_A: names_arr[ia],
            S.MODEL_B: names_arr[ib],
            S.ESTIMATE_A: est[ia],
            S.ESTIMATE_B: est[ib],
            S.DIFF: est[ia] - est[ib],
            S.CI_LOW: nan,
            S.CI_HIGH: nan.copy(),
            S.P_VALUE: p,
            S.P_ADJUSTED: adjust_pvalues(p, adjust),
            S.STATISTIC: stat,
        }
    )


@with_output
@fill_doc
def compare(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    curve: str = "pr",
    method: str | None = None,
    hull: bool = False,
    n_boot: int = 2000,
    level: float = 0.95,
    stratified: bool | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    baseline: str | int | None = None,
    adjust: str = "holm",
    test: str = "bootstrap",
    p_value: str = "wald",
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    cluster: str | ArrayLike | None = None,
    partial: tuple[float, float] | None = None,
    partial_focus: str = "fpr",
    standardize: bool = False,
    resampling: str | None = None,
    combine: bool = False,
    fold: str | ArrayLike | None = None,
    row_id: str | None = None,
    normalize: bool = False,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Paired comparison of the AUCs of several models scored on the same rows.

    Every pair of models (or every model against ``baseline``) is compared by the
    difference ``diff = estimate_a - estimate_b``. With ``test="bootstrap"`` the models
    are resampled together (paired: each replicate draws one set of rows for all of
    them), which gives the bootstrap distribution of each difference: its percentile
    interval and a two-sided p-value. With ``test="delong"`` (ROC only) DeLong's paired
    test gives the z statistic, p-value and normal interval, as pROC's ``roc.test``.

    Parameters
    ----------
    {shared}
    {boot}
    baseline : str or int, default=None
        None: all pairs, ``model_a`` before ``model_b`` in column order. A model name:
        every other model (``model_a``) against it (``model_b``). ``"best"``: the model
        with the highest estimate (averaged over the ``by`` groups; with ``fold=``, of
        the fold means) against every other -- the best as ``model_a``, so ``diff >= 0``
        -- with a column ``not_worse``: True where ``p_adjusted >= 1 - level``, i.e. the
        model cannot be told apart from the best after the ``adjust`` adjustment (Holm by
        default) over the comparisons with the best. ``frame.attrs`` holds ``best``,
        ``not_worse`` (the names), ``adjust`` and a one-line ``summary``. Not with
        ``test="venkatraman"``.
    adjust : {"holm", "bonferroni", "bh", "none"}, default="holm"
        Multiple-comparison adjustment of ``p_value`` across the family (all pairs of
        one group; each ``by`` group is its own family): Holm, Bonferroni,
        Benjamini-Hochberg, or none.
    test : {"bootstrap", "delong", "venkatraman"}, default="bootstrap"
        ``"bootstrap"``: the interval is the percentile interval of the replicate
        differences and the p-value is given by ``p_value``. Degenerate replicates are
        left out (see :func:`~prroc_numba.bootstrap`). ``"delong"``: needs
        ``curve="roc"``, hard labels and no weights; ``n_boot``, ``seed``,
        ``stratified`` and ``p_value`` are unused. ``"venkatraman"``: Venkatraman &
        Begg's (1996) permutation test that the two paired ROC *curves* are equal at
        every operating point (not only their areas), as pROC's ``roc.test(method=
        "venkatraman")``: the statistic ``E`` (column ``statistic``) sums, over every
        rank cut-off, the difference in misclassified rows; ``n_boot`` permutations
        (each row's two ranks exchanged with probability 1/2, ties broken by row
        order, as pROC) seeded by ``seed`` give ``p = #(E* >= E) / n_boot``. Same
        conditions as DeLong; ``ci_low``/``ci_high`` are NaN (no interval).
        **Unpaired curves** (Venkatraman 2000): pass one score column and ``by=``
        naming the curves (each group one curve, on its own rows); every pair of
        groups is compared (``model_a``/``model_b`` name the groups), the
        permutations pooling each class's jittered ranks of both curves, as pROC's
        unpaired test (including its mixing proportion, positives of both curves
        over twice the first curve's rows).
    p_value : {"wald", "percentile"}, default="wald"
        How the bootstrap test's two-sided p-value is computed. ``"wald"``: ``z = diff
        / se``, with ``se`` the standard deviation of the replicate differences, and
        ``p = 2 (1 - Phi(|z|))`` (pROC's bootstrap ``roc.test``); it can be as small as
        the data warrant. ``"percentile"``: twice the smaller share of replicate
        differences on either side of 0, ``min(1, 2 min(1 + #(d* <= 0), 1 + #(d* >= 0))
        / (B + 1))`` -- the smallest level at which the percentile interval excludes 0.
        It needs no normality but **cannot go below 2 / (B + 1)** (0.001 at
        ``n_boot=2000``): with many models every clear difference gets that same floor
        before adjustment. Two identical models give 1 either way.
    {cluster}
        Not with ``test="delong"`` (DeLong's variance assumes independent rows).
    {partial}
        Compares partial areas (``test="bootstrap"`` only).
    device : {"cpu", "cuda"}, default=None
        ``"cuda"``: the paired Poisson bootstrap on the GPU (see
        :func:`~prroc_numba.bootstrap`; needs ``stratified=False``); DeLong runs on the
        CPU only. ``frame.attrs["device"]`` says which ran.
    fold : str or array-like, default=None
        Cross-validation folds: rows resampled within folds (see
        :func:`~prroc_numba.bootstrap`'s ``fold``); a ``fold`` column after
        ``model_a``, ``model_b`` gives each pair's difference per fold, of the fold
        means (``"mean"``) and of the pooled curves (``"pooled"``); p-values are
        adjusted within each of these families. ``test="bootstrap"`` only.
    normalize : bool, default=False
        Compare Boyd et al.'s normalised AUC-PR (see :func:`~prroc_numba.auc`), every
        replicate normalised at its prevalence; the same conditions as
        :func:`~prroc_numba.bootstrap`'s ``normalize`` (the stratified bootstrap,
        ``test="bootstrap"``).

    combine : bool, default=False
        With ``by=`` (e.g. ``by="dataset"``): also pool each pair's difference across
        the groups, weighting each group's difference by its inverse variance (the
        bootstrap SE, or DeLong's), as a fixed-effect estimate and as DerSimonian &
        Laird's random-effects estimate (which widens the interval when the data sets
        disagree). Adds a ``se`` column after ``diff`` and, after the per-group rows,
        two rows per pair with the ``by`` columns empty and ``combined`` =
        ``"fixed"`` / ``"random"``, normal intervals at ``level``, two-sided p-values
        (adjusted within each of the two families), Cochran's ``q``, the
        between-group variance ``tau2`` and ``n_groups``. Not with
        ``test="venkatraman"`` (no standard error).

    Returns
    -------
    DataFrame
        ``by`` columns (if any), then ``model_a``, ``model_b``, what produced the numbers
        (``curve``, ``method``, ``interval``; with the bootstrap also ``resampling`` and
        ``n_boot``, see :func:`bootstrap`), ``estimate_a``,
        ``estimate_b``, ``diff``, ``ci_low``, ``ci_high``, ``p_value``, ``p_adjusted``;
        ``test="delong"`` adds ``z``, ``test="venkatraman"`` ``statistic``. One row per
        pair.

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(1)
    >>> y = rng.random(3000) < 0.1
    >>> df = pd.DataFrame({"y": y, "good": 1.5 * y + rng.normal(size=3000),
    ...                    "weak": 0.5 * y + rng.normal(size=3000)})
    >>> res = prn.compare(df, score=["good", "weak"], label="y", n_boot=500, seed=0)
    >>> res[["model_a", "model_b"]].values.tolist()
    [['good', 'weak']]
    >>> bool(res.p_value.iloc[0] < 0.01)
    True
    >>> dl = prn.compare(df, score=["good", "weak"], label="y", curve="roc", test="delong")
    >>> dl[["estimate_a", "estimate_b", "diff"]].round(3).to_numpy().tolist()
    [[0.842, 0.625, 0.217]]

    Which models cannot be told apart from the best:

    >>> df["also_good"] = df.good + rng.normal(0, 0.2, size=3000)
    >>> top = prn.compare(df, score=["weak", "good", "also_good"], label="y",
    ...                   baseline="best", n_boot=500, seed=0)
    >>> top[["model_a", "model_b", "not_worse"]].values.tolist()
    [['also_good', 'weak', False], ['also_good', 'good', True]]
    >>> top.attrs["not_worse"]
    ['good']
    """
    check_choice("test", test, TESTS)
    if test == "venkatraman" and baseline == BEST:
        raise ValueError(
            "baseline='best' picks the model with the best area; test='venkatraman' "
            "compares whole curves, not areas: use test='bootstrap' or 'delong', or name "
            "the baseline model"
        )
    if normalize:  # (fold= and the rank tests are refused here)
        check_normalize(curve, method, hull, partial, fold)
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    what = Estimator(curve, method, hull, partial, partial_focus, standardize, bool(normalize))
    boot = Resampling(
        n_boot, level, stratified, seed, progress, cluster, resampling, fold, row_id, device
    )
    cmp = Comparison(test, p_value, adjust, baseline, combine)
    if fold is not None:
        return _fold_compare(data, inp, what, boot, cmp)
    return _compare(data, inp, what, boot, cmp)


def _compare(data, inp: Inputs, what: Estimator, boot: Resampling, cmp: Comparison):
    """:func:`compare` without ``fold=``, its options built."""
    device, inp, adjust, multi, wide = check_compare(data, inp, what, boot, cmp)
    test, n_boot, seed, level = cmp.test, boot.n_boot, boot.seed, boot.level
    if not multi and not wide and test == "venkatraman" and inp.by is not None:
        batch = pack(data, score=inp.score, label=inp.label, by=inp.by, pos_label=inp.pos_label)
        frame = _venkatraman_unpaired_frame(batch, cmp.baseline, n_boot, seed, adjust)
        return _device.tag(frame, device)
    if test in ("delong", "venkatraman"):
        batch = pack(data, score=inp.score, label=inp.label, by=inp.by, pos_label=inp.pos_label)
    else:
        batch, _plan, _code, est, reps, _ = replicates(
            data, inp, what, boot, device, label_bar="compare", pair_models=multi
        )
        if what.normalize:
            floor_method = check_normalize(what.curve, what.method)
            est, reps = normalized_replicates(_plan, batch, est, reps, floor_method)
    M = batch.n_models
    if M < 2:
        raise ValueError("compare needs at least two score columns (models)")
    names = list(batch.keys[S.MODEL].iloc[:M]) if S.MODEL in batch.keys else list(range(M))
    G = batch.group_offsets.size - 1
    if test == "delong":
        covs = [delong_cov(v10, v01) for v10, v01 in delong_parts(batch)]
        est = np.concatenate([theta for theta, _ in covs])
    pairs, best = choose_pairs(names, cmp.baseline, None if test == "venkatraman" else est)
    K = len(pairs)
    ia, ib, ca, cb = pair_index(G, M, pairs)

    extra = {}
    if test == "delong":
        diff, lo, hi, p, extra[S.Z], se_d = delong_pairs(est, covs, ia, ib, ca, cb, level)
    elif test == "venkatraman":
        est, e_obs, p = venkatraman_pairs(batch, ia, ib, n_boot, seed)
        diff = est[ca] - est[cb]
        lo = hi = np.full(G * K, np.nan)
        extra[S.STATISTIC] = e_obs
    else:
        diff, lo, hi, p = boot_pairs(est, reps, ca, cb, level, cmp.p_value)
        if cmp.combine:
            se_d = boot_se(reps[ca] - reps[cb])
    out = _pair_frame(batch.keys, names, pairs, G, est, diff, lo, hi, p, adjust, extra)
    if cmp.combine:
        out = _combined_rows(out, se_d, G, K, level, adjust)
    if test == "delong":
        said: dict[str, Any] = {"interval": "delong"}
    elif test == "venkatraman":
        said = {"resampling": "permutation", "n_boot": int(n_boot)}
    else:
        scheme = call_label(data, device, boot.resampling, boot.stratified, boot.cluster)
        said = {"interval": "percentile", "resampling": scheme, "n_boot": int(n_boot)}
    F.describe(out, S.ESTIMATE_A, curve=what.curve, method=what.label, **said)
    if best is not None:
        _mark_best(out, best, level, adjust)
    return _device.tag(out, device)


def _pair_frame(curve_keys, names, pairs, G, est, diff, lo, hi, p, adjust, extra=None):
    """:func:`compare`'s frame: one row per (group, pair); ``curve_keys`` one row per
    curve (group by group, ``len(names)`` models each); p-values adjusted per group.
    """
    K = len(pairs)
    ia, ib, ca, cb = pair_index(G, len(names), pairs)
    p_adj = (
        np.concatenate([adjust_pvalues(p[g * K : (g + 1) * K], adjust) for g in range(G)])
        if K
        else p
    )
    keys = curve_keys.iloc[ca].drop(columns=[S.MODEL], errors="ignore").reset_index(drop=True)
    cols = {
        S.MODEL_A: np.asarray(names, dtype=object)[np.tile(ia, G)],
        S.MODEL_B: np.asarray(names, dtype=object)[np.tile(ib, G)],
        S.ESTIMATE_A: est[ca],
        S.ESTIMATE_B: est[cb],
        S.DIFF: diff,
        S.CI_LOW: lo,
        S.CI_HIGH: hi,
        S.P_VALUE: p,
        S.P_ADJUSTED: p_adj,
        **(extra or {}),
    }
    return F.curves_frame(keys, cols)


def _combined_rows(frame, se_d, G, K, level, adjust):
    """The per-group frame with ``se``, then the pooled rows of each pair."""
    from ._resampling import meta as _meta

    frame.insert(frame.columns.get_loc(S.DIFF) + 1, S.SE, se_d)
    pooled = _meta.combine(
        frame[S.DIFF].to_numpy().reshape(G, K), np.asarray(se_d).reshape(G, K), level
    )
    rows = {c: [np.nan] * (2 * K) for c in frame.columns}
    for c in frame.columns[: frame.columns.get_loc(S.MODEL_A)]:
        rows[c] = [None] * (2 * K)
    rows[S.MODEL_A] = np.tile(frame[S.MODEL_A].to_numpy()[:K], 2)
    rows[S.MODEL_B] = np.tile(frame[S.MODEL_B].to_numpy()[:K], 2)
    for c in (S.DIFF, S.SE, S.CI_LOW, S.CI_HIGH, S.P_VALUE):
        rows[c] = pooled[c]
    p = pooled[S.P_VALUE]
    rows[S.P_ADJUSTED] = np.concatenate(
        [adjust_pvalues(p[:K], adjust), adjust_pvalues(p[K:], adjust)]
    )
    extra = {S.COMBINED: pooled["kind"], S.Q: pooled["q"], S.TAU2: pooled["tau2"]}
    extra[S.N_GROUPS] = pooled["n_groups"]
    out = pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)
    n = len(frame)
    for c, v in extra.items():
        col = np.empty(len(out), dtype=object) if c == S.COMBINED else np.full(len(out), np.nan)
        col[n:] = v
        out[c] = col
    return out


def _fold_compare(data, inp: Inputs, what: Estimator, boot: Resampling, cmp: Comparison):
    """:func:`compare` with ``fold=``: the paired differences per fold, of the fold
    means and of the pooled curves, from the replicates of
    :func:`~prroc_numba.bootstrap`'s ``fold=`` (rows drawn within folds).
    """
    _, (runs, col, names, M) = fold_runs(data, inp, what, boot, cmp.test, "compare")
    # the best of the fold means (the cross-validated estimates)
    pairs, best = choose_pairs(names, cmp.baseline, runs[1][1])
    frames = []
    for keys, est, reps in runs:
        G = len(keys) // M
        _, _, ca, cb = pair_index(G, M, pairs)
        diff, lo, hi, p = boot_pairs(est, reps, ca, cb, boot.level, cmp.p_value, 4)
        frames.append(_pair_frame(keys, names, pairs, G, est, diff, lo, hi, p, cmp.adjust))
    keys = [c for c in frames[2].columns if c not in S.VALUE_COLUMNS] + [S.MODEL_A, S.MODEL_B]
    out = _folds.table(frames[0], frames[2], col, mean=frames[1], keys=keys)
    F.describe(  # the descriptors in the one order of every frame (see _schema)
        out,
        S.ESTIMATE_A,
        curve=what.curve,
        method=what.label,
        interval="percentile",
        resampling="stratified by fold and class",
        n_boot=int(boot.n_boot),
    )
    if best is not None:
        _mark_best(out, best, boot.level, cmp.adjust)
    return out
