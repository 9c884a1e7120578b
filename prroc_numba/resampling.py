"""Bootstrap confidence intervals and bands of AUC-PR / AUC-ROC, many curves at once.

:func:`bootstrap` (intervals of each curve's AUC) and :func:`bootstrap_curve`
(pointwise bands of PR curves on a recall grid). The engine -- one sort per curve,
count-vector replicates, intervals -- is :mod:`prroc_numba._resampling`; the options are
checked once in :mod:`prroc_numba._options`, built there as typed objects at the
door.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

from dataclasses import replace

import numpy as np
import pandas as pd

from . import _backends
from . import _frames as F
from . import _schema as S
from ._calls import with_output
from ._checks import kernel_seed, pr_band_grid
from ._core import device as _device
from ._core.dataframes import Output
from ._core.inputs import Inputs
from ._core.pr_floor import check_normalize, normalized_replicates
from ._docs import fill_doc
from ._kernels.resample import GRID_PR
from ._options.bands import Bands, check_bands
from ._options.choices import INTERVALS, check_choice
from ._options.draws import Resampling
from ._options.draws import label as scheme_label
from ._options.estimator import Estimator
from ._options.replicates import bootstrap_replicates, fold_runs
from ._resampling import engine as E
from ._resampling import folds as _folds
from ._resampling.intervals import band_bounds, interval_bounds, warn_degenerate


@overload
def bootstrap(
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
    interval: str = "percentile",
    stratified: bool | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    return_replicates: Literal[False] = False,
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
    fold: str | ArrayLike | None = None,
    row_id: str | None = None,
    normalize: bool = False,
    output: Output = "pandas",
) -> pd.DataFrame: ...


@overload
def bootstrap(
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
    interval: str = "percentile",
    stratified: bool | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    return_replicates: Literal[True],
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
    fold: str | ArrayLike | None = None,
    row_id: str | None = None,
    normalize: bool = False,
    output: Output = "pandas",
) -> tuple[pd.DataFrame, pd.DataFrame]: ...


@with_output
@fill_doc
def bootstrap(
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
    interval: str = "percentile",
    stratified: bool | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    return_replicates: bool = False,
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
    fold: str | ArrayLike | None = None,
    row_id: str | None = None,
    normalize: bool = False,
    output: Output = "pandas",
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
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
        which costs 500 passes over the rows instead of N. Not with ``cluster=`` or
        ``partial=``.
    {cluster}
    {partial}
        Replicates of a partial area use the paired row draws (also for one model).
    return_replicates : bool, default=False
        Also return the replicate values as a tidy frame.
    fold : str or array-like, default=None
        Cross-validation folds (a column or one fold id per row): rows are resampled
        **within folds** (stratified by fold, and by class unless
        ``stratified=False``), paired across models, and the result has a ``fold``
        column: per model and group one row per fold (that fold's area), a row
        ``"mean"`` (the mean of the folds' areas; each replicate averages the folds'
        replicates) and a row ``"pooled"`` (the area of all rows as one curve). Every
        replicate draws the rows once and all three read that draw. Any area: every
        estimator, ``hull=``, ``partial=`` (partial areas draw the folds and the pooled
        rows separately). Not with ``interval="bca"``, ``cluster=``, ``device="cuda"``,
        ``resampling="poisson"``, ``return_replicates=True`` or multiclass input.
    normalize : bool, default=False
        Intervals of Boyd et al.'s normalised AUC-PR (see :func:`~prroc_numba.auc`):
        every replicate normalised at its prevalence, which the stratified bootstrap
        keeps fixed; so it needs that design (``stratified`` True or None,
        ``resampling="multinomial"``, unweighted 0/1 labels, no ``cluster=``,
        ``fold=`` or ``device="cuda"``), ``curve="pr"`` and ``method`` "dg",
        "integral" or "ap" (whole areas, no ``hull=``). Not with ``interval="bca"``.
    device : {"cpu", "cuda"}, default=None
        Where it runs (None: ``"cuda"`` for GPU arrays, else ``"cpu"``; see
        :func:`~prroc_numba.auc`). ``"cuda"`` runs the **Poisson bootstrap** on the GPU:
        in replicate ``b`` each input row counts ``Poisson(1)`` times, a pure function
        of (seed, ``b``, row number), so every model of a group sees the same counts
        (paired) and memory stays O(rows + replicates x rows / 1024). It needs
        ``stratified=False`` (Poisson counts do not fix the class counts), ``hull=False``
        and ``interval`` "percentile" or "basic". ``frame.attrs["device"]`` says which
        ran.

    Returns
    -------
    DataFrame, or (DataFrame, DataFrame) with ``return_replicates=True``
        Key columns, then what produced the numbers -- ``curve``, ``method`` (as
        :func:`auc`), ``interval`` (``interval=``), ``resampling`` (``"stratified"``,
        ``"unstratified"``, ``"poisson"``, ``"stratified cluster"``, ...) and
        ``n_boot`` -- then ``estimate`` (the AUC of the data), ``se`` (standard deviation
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
    >>> noise = rng.normal(size=(2, 2000))
    >>> df = pd.DataFrame({"y": y, "m1": y + noise[0], "m2": 0.5 * y + noise[1]})
    >>> res = prn.bootstrap(df, score=["m1", "m2"], label="y", n_boot=500, seed=0)
    >>> list(res.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['model', 'curve', 'method', 'interval', 'resampling', 'n_boot',
     'estimate', 'se', 'ci_low', 'ci_high', 'n_degenerate']
    >>> bool((res.ci_low < res.estimate).all() and (res.estimate < res.ci_high).all())
    True
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    what = Estimator(curve, method, hull, partial, partial_focus, standardize, bool(normalize))
    if normalize:
        floor_method = check_normalize(curve, method, hull, partial, fold, interval)
    boot = Resampling(
        n_boot, level, stratified, seed, progress, cluster, resampling, fold, row_id, device
    )
    boot = replace(boot, interval=interval, return_replicates=return_replicates)
    if fold is not None:
        check_choice("interval", interval, INTERVALS)
        return _fold_bootstrap(data, inp, what, boot)
    device, labels, (batch, plan, code, est, reps, s) = bootstrap_replicates(data, inp, what, boot)
    if normalize:
        est, reps = normalized_replicates(plan, batch, est, reps, floor_method)
    n_bad = warn_degenerate(batch, est, reps, n_boot)
    jack = plan.jackknife(s, code, bool(hull)) if interval == "bca" else None
    se, lo, hi = interval_bounds(reps, est, level, interval, jack)
    out = F.curves_frame(
        batch.keys,
        {
            S.ESTIMATE: est,
            S.SE: se,
            S.CI_LOW: lo,
            S.CI_HIGH: hi,
            S.N_DEGENERATE: n_bad.astype(np.int64),
        },
    )
    _describe_intervals(out, curve, labels["method"], labels["resampling"], boot)
    _device.tag(out, device)
    if not return_replicates:
        return out
    C, B = reps.shape
    keys = batch.keys.iloc[np.repeat(np.arange(C), B)].reset_index(drop=True)
    keys[S.REPLICATE] = np.tile(np.arange(B, dtype=np.int64), C)
    keys[S.ESTIMATE] = reps.ravel()
    return out, _device.tag(keys, device)


@with_output
@fill_doc
def bootstrap_curve(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    curve: str = "pr",
    space: str | None = None,
    band: str = "pointwise",
    hull: bool = False,
    n_boot: int = 2000,
    level: float = 0.95,
    stratified: bool | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    grid: int | ArrayLike = 101,
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    cluster: str | ArrayLike | None = None,
    resampling: str | None = None,
    fold: str | ArrayLike | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Bootstrap confidence bands of PR or ROC curves on a shared grid.

    Every replicate's curve (the same count resampling as :func:`bootstrap`; wide
    input paired) is interpolated onto the grid. PR curves (``curve="pr"``) are
    interpolated **in counts** on a recall grid -- between two vertices FP grows
    linearly with TP, so precision is never joined by straight lines in PR space (Davis
    & Goadrich 2006); at recall 0 the curve starts flat at its first positive-bearing
    vertex's precision (0 when the top scores are negatives); at a recall reached by
    several vertices the best precision is taken. ROC curves (``curve="roc"``) are
    linear between vertices: TPR at a grid of FPR (at an FPR with several vertices the
    highest TPR, as pROC's ``ci.se``), or with ``space="tpr"`` FPR at a grid of TPR
    (at a TPR with several vertices the lowest FPR, as pROC's ``ci.sp``).

    Two bands:

    * ``band="pointwise"``: at each grid point separately, the percentile interval of
      the replicate values there (each point covers its true value with probability
      ``level``; the whole curve is covered less often);
    * ``band="simultaneous"``: the sup-t band (Montiel Olea & Plagborg-Moller 2019,
      "Simultaneous confidence bands: theory, implementation, and an application to
      SVARs", J. Appl. Econometrics 34(1); for ROC curves the bootstrap version of the
      fixed-width bands of Campbell 1994, Stat. Med. 13(5)), built on the
      arcsine-square-root scale ``z = asin(sqrt(v))`` (the variance-stabilising scale
      of a proportion: the band stays inside [0, 1] and follows the curve's skew near 0
      and 1, where a symmetric band undercovers): with ``se_j`` the standard deviation
      of the replicates' ``z`` at grid point ``j`` and ``t_b = max_j |z_bj - z_j| /
      se_j`` (over the points with ``se_j > 0``), the band is ``sin(z_j -+ c se_j)^2``
      with ``c`` the ``level`` quantile of ``t_b``. It covers the whole curve over the
      grid's range with probability ``level`` (asymptotically; the binormal study in
      ``benchmarks/coverage_bands.py`` gives 94-97% at level 0.95 with 100 or 300
      positives, where the pointwise band covers the whole curve about 73% of the
      time); points where every replicate agrees (``se_j = 0``, e.g. TPR at FPR 1) get
      the estimate itself.

    Parameters
    ----------
    {shared}
    curve : {"pr", "roc"}, default="pr"
        Bands of PR curves (precision at recall) or ROC curves.
    space : {"recall", "fpr", "tpr"}, default=None
        The grid's axis: ``"recall"`` for PR (the only one); for ROC ``"fpr"``
        (default: TPR at each FPR) or ``"tpr"`` (FPR at each TPR).
    band : {"pointwise", "simultaneous"}, default="pointwise"
        See above.
    hull : bool, default=False
        Bands of the achievable PR curve (the ROC convex hull in PR space), or of the
        ROC hull.
    n_boot : int, default=2000
    level : float, default=0.95
        Confidence level: of each grid point (pointwise) or of the whole curve over the
        grid (simultaneous).
    stratified : bool, default=None
        Keep the class counts fixed in every replicate (see :func:`bootstrap`).
    seed : int, default=None
    progress : bool, default=None
    grid : int or array-like of float, default=101
        Number of evenly spaced grid values, or the values themselves (strictly
        increasing, in [0, 1]). An int spans [0, 1] for ROC; for PR it spans
        ``[1 / P, 1]``, ``P`` the positives of the curve with the fewest (with ``fold=``,
        of the fold with the fewest; with weights or soft labels their total weight):
        below the recall of one positive the precision only interpolates from no
        positive, 0 in a replicate that ranks a negative first and 1 in one that
        ranks a positive first, so a band there would span [0, 1] whatever the data.
        Pass the values (e.g. ``np.linspace(0, 1, 101)``) for another grid.
    {cluster}
    resampling : {"multinomial", "poisson"}, default=None
        See :func:`bootstrap`.
    fold : str or array-like, default=None
        Cross-validation folds (a column or one fold id per row): rows are resampled
        within folds (as :func:`bootstrap`'s ``fold``), and a ``fold`` column after the
        key columns gives, per model and group, each fold's curve and band, then the
        **fold-averaged** curve (``"mean"``) and the pooled curve (``"pooled"``) with
        theirs. ROC curves are averaged vertically (the mean TPR at each FPR; with
        ``space="tpr"`` the mean FPR at each TPR); PR curves in count space at each
        recall ``r`` -- the folds' TP and FP added up, ``sum_v TP_v / sum_v (TP_v +
        FP_v)`` with ``TP_v = r P_v``, i.e. ``sum_v P_v / sum_v (P_v / precision_v)``,
        ``P_v`` the fold's positives in the data. Each replicate of the averaged curve
        averages the folds' replicates, so its band (pointwise or simultaneous)
        carries the spread of every fold.

    Returns
    -------
    DataFrame
        Key columns, then ``curve``, ``interval`` (``"pointwise percentile"`` or
        ``"simultaneous sup-t"``), ``resampling`` and ``n_boot`` (see :func:`bootstrap`),
        then the grid column and the data's own curve on it (``recall``, ``precision``
        for PR; ``fpr``, ``tpr`` for ROC; ``tpr``, ``fpr`` for ROC with
        ``space="tpr"``), ``ci_low``, ``ci_high``: one row per curve and grid point.
        Replicates without positives (PR, ROC) or negatives (ROC), only with
        ``stratified=False``, are left out.

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.2
    >>> m1, m2 = y + rng.normal(size=1000), rng.normal(size=1000)
    >>> df = pd.DataFrame({"y": y, "m1": m1, "m2": m2})
    >>> bands = prn.bootstrap_curve(df, score=["m1", "m2"], label="y", grid=11, n_boot=200,
    ...                             seed=0)
    >>> list(bands.columns), len(bands)  # doctest: +NORMALIZE_WHITESPACE
    (['model', 'curve', 'interval', 'resampling', 'n_boot', 'recall', 'precision',
      'ci_low', 'ci_high'], 22)
    >>> bool((bands.ci_low <= bands.ci_high).all())
    True
    >>> roc = prn.bootstrap_curve(df, score="m1", label="y", curve="roc", grid=11,
    ...                           n_boot=200, seed=0, band="simultaneous")
    >>> list(roc.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['curve', 'interval', 'resampling', 'n_boot', 'fpr', 'tpr', 'ci_low', 'ci_high']
    >>> roc.interval.iloc[0]
    'simultaneous sup-t'
    >>> bool(((roc.ci_low <= roc.tpr) & (roc.tpr <= roc.ci_high)).all())
    True
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    boot = Resampling(n_boot, level, stratified, seed, progress, cluster, resampling, fold)
    bands = Bands(space, band, grid)
    what, xname, yname, g, stratified, poisson = check_bands(data, inp, curve, boot, bands)
    hull = bool(hull)
    wing = _backends.wing_for(data)
    if wing is not None:
        wing.no_multiclass(multiclass)
        batch, P, est, reps, g = wing.curve_replicates(
            data, grid=g, hull=hull, n_boot=int(n_boot), seed=kernel_seed(seed), **inp.binary()
        )
        reps = np.ascontiguousarray(reps.transpose(0, 2, 1))  # (curve, grid, replicate)
        bad = P <= 0
    elif fold is not None:
        axes = (what, xname, yname, g)
        boot = replace(boot, stratified=stratified)  # as resolved
        return _fold_curves(data, inp, Estimator(curve, hull=hull), boot, bands, axes)
    else:
        spec = (curve, what, g, hull, stratified, poisson, cluster, n_boot, seed, progress)
        batch, bad, est, reps, g = E.curve_replicates(data, inp, spec)
    lo, hi = band_bounds(reps, est, bad, band, level)
    out = _band_frame(batch.keys, g, xname, yname, est, lo, hi)
    return F.describe(
        out,
        xname,
        curve=curve,
        interval=BAND_LABELS[band],
        resampling=scheme_label(stratified, poisson, cluster),
        n_boot=int(n_boot),
    )


def _band_frame(keys, g, xname, yname, est, lo, hi):
    """:func:`bootstrap_curve`'s frame: keys, grid, curve, band; one row per point."""
    C = len(keys)
    offsets = np.arange(C + 1, dtype=np.int64) * g.size
    return F.points_frame(
        keys, offsets, {xname: np.tile(g, C), yname: est.ravel(), S.CI_LOW: lo, S.CI_HIGH: hi}
    )


def _fold_curves(data, inp: Inputs, est: Estimator, boot: Resampling, bands: Bands, axes):
    """:func:`bootstrap_curve` with ``fold=``: bands per fold, of the fold-averaged
    curve and of the pooled curve, from one resampling run (:func:`_one_run`; two runs,
    folds as groups and pooled with fold strata, where it does not apply), no loop over
    folds. ``axes``: ``(what, grid column, value column, grid)`` and ``boot.stratified``
    as checked (:func:`~prroc_numba._options.bands.check_bands`).
    """
    what, xname, yname, g = axes
    curve, fold, stratified = est.curve, boot.fold, boot.stratified
    d, by_f, col = _folds.with_fold(data, inp.score, inp.label, inp.by, inp.weight, fold)
    # an int PR grid starts where every fold's curve has a positive
    g = pr_band_grid(g, replace(inp, by=by_f).pack(d).totals()[0] if isinstance(g, int) else None)
    one = E.one_run(d, inp, col, stratified, "bootstrap_curve", est, boot, grid=g, what=what)
    if one is not None:
        (keys_f, est_f, reps_f, P), (keys_p, est_p, reps_p) = one
        bad_f, bad_p = np.isnan(est_f).all(axis=1), np.isnan(est_p).all(axis=1)
    else:
        n_boot, seed, progress = boot.n_boot, boot.seed, boot.progress
        spec = (curve, what, g, est.hull, stratified, False, None, n_boot, seed, progress)
        batch_f, bad_f, est_f, reps_f, _ = E.curve_replicates(d, replace(inp, by=by_f), spec)
        n = len(d) if d is not None else np.asarray(fold).shape[0]
        strata = _folds.codes(d, col if d is not None else fold, n)
        batch_p, bad_p, est_p, reps_p, _ = E.curve_replicates(data, inp, spec, strata=strata)
        keys_f, keys_p = batch_f.keys, batch_p.keys
        P, _ = batch_f.totals()
    gid, first = _folds.group_ids(keys_f, col)
    G = first.size
    if what == GRID_PR:  # count space: sum of TP over sum of TP + FP at each recall
        est_m = _folds.count_mean(est_f, P, gid, G)
        reps_m = _folds.count_mean(reps_f, P, gid, G)
    else:  # vertical (or horizontal) averaging
        est_m = _folds.fold_means(est_f, gid, G)
        reps_m = _folds.fold_means(reps_f, gid, G)
    bad_m = np.bincount(gid, weights=bad_f, minlength=G) > 0
    keys_m = keys_f.iloc[first].drop(columns=[col]).reset_index(drop=True)
    frames = []
    for keys, bad, est, reps in (
        (keys_f, bad_f, est_f, reps_f),
        (keys_m, bad_m, est_m, reps_m),
        (keys_p, bad_p, est_p, reps_p),
    ):
        lo, hi = band_bounds(reps, est, bad, bands.band, boot.level)
        frames.append(_band_frame(keys, g, xname, yname, est, lo, hi))
    keys = list(keys_p.columns)
    out = _folds.table(frames[0], frames[2], col, mean=frames[1], keys=keys)
    return F.describe(
        out,
        xname,
        curve=curve,
        interval=BAND_LABELS[bands.band],
        resampling=_fold_label(stratified),
        n_boot=int(boot.n_boot),
    )


#: the ``interval`` column of each band
BAND_LABELS = {"pointwise": "pointwise percentile", "simultaneous": "simultaneous sup-t"}


def _fold_label(stratified):
    """The ``resampling`` column of the ``fold=`` bootstraps (rows drawn within folds)."""
    return "stratified by fold and class" if stratified else "stratified by fold"


def _fold_bootstrap(data, inp: Inputs, what: Estimator, boot: Resampling):
    """:func:`bootstrap` with ``fold=``: per-fold, fold-mean and pooled intervals."""
    stratified, (runs, col, _, _) = fold_runs(data, inp, what, boot, "bootstrap", "bootstrap")
    frames = []
    for keys, est, reps in runs:
        se, lo, hi = interval_bounds(reps, est, boot.level, boot.interval)
        n_bad = np.where(np.isfinite(est), np.isnan(reps).sum(axis=1), 0)
        frames.append(
            F.curves_frame(
                keys,
                {
                    S.ESTIMATE: est,
                    S.SE: se,
                    S.CI_LOW: lo,
                    S.CI_HIGH: hi,
                    S.N_DEGENERATE: n_bad.astype(np.int64),
                },
            )
        )
    out = _folds.table(frames[0], frames[2], col, mean=frames[1])
    return _describe_intervals(out, what.curve, what.label, _fold_label(stratified), boot)


def _describe_intervals(out, curve, method, scheme, boot: Resampling):
    """What produced :func:`bootstrap`'s numbers, in ``out`` (in place; returned):
    ``curve``, ``method`` (its label), ``interval``, ``resampling`` (``scheme``) and
    ``n_boot`` (:func:`prroc_numba._frames.describe`).
    """
    return F.describe(
        out,
        S.ESTIMATE,
        curve=curve,
        method=method,
        interval=boot.interval,
        resampling=scheme,
        n_boot=int(boot.n_boot),
    )
