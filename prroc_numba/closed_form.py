"""Closed-form AUC intervals: no resampling, one row per curve, instant.

* ``"logit"`` and ``"binomial"`` -- the two intervals for AUC-PR that Boyd, Eng & Page
  (2013, "Area under the precision-recall curve: point estimates and confidence
  intervals", ECML PKDD) recommend, with ``n`` the number of positives;
* ``"delong"`` -- DeLong's interval for the ROC AUC (:func:`prroc_numba.delong`, the
  same numbers as pROC's ``ci.auc``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

from statistics import NormalDist

import numpy as np

from . import _frames as F
from . import _schema as S
from ._calls import checked
from ._checks import check_level, method_code, method_label
from ._core.area_frames import batch_areas
from ._core.batch import warn_undefined
from ._core.inputs import Inputs
from ._core.packing import pack
from ._docs import fill_doc
from ._drivers import placements_batch
from ._resampling import folds as _folds

CIS = ("logit", "binomial", "delong")
_NORM = NormalDist()


def boyd_interval(theta, n, level: float, ci: str):
    """Boyd et al.'s (2013) ``"logit"`` or ``"binomial"`` interval, elementwise.

    ``binomial``: ``theta +- z sqrt(theta (1 - theta) / n)``, clipped to [0, 1];
    ``logit``: ``expit(logit(theta) +- z / sqrt(n theta (1 - theta)))`` (inside (0, 1)
    by construction; NaN where ``theta`` is 0 or 1, where the logit is infinite).
    """
    theta = np.asarray(theta, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = _NORM.inv_cdf(1.0 - (1.0 - level) / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = theta * (1.0 - theta)
        if ci == "binomial":
            half = z * np.sqrt(v / n)
            return np.clip(theta - half, 0.0, 1.0), np.clip(theta + half, 0.0, 1.0)
        eta = np.log(theta / (1.0 - theta))
        tau = 1.0 / np.sqrt(n * v)
        ok = (theta > 0.0) & (theta < 1.0) & (n > 0)
        lo = np.where(ok, 1.0 / (1.0 + np.exp(-(eta - z * tau))), np.nan)
        hi = np.where(ok, 1.0 / (1.0 + np.exp(-(eta + z * tau))), np.nan)
    return lo, hi


def _effective_positives(batch):
    """Kish's effective number of positives per curve: ``(sum p)^2 / sum p^2`` over the
    rows' positive mass ``p = weight * label`` (the count of positives when unweighted).
    """
    p = batch.pos
    starts = batch.group_offsets[:-1]
    s1 = np.add.reduceat(p, starts) if p.size else p
    s2 = np.add.reduceat(p * p, starts) if p.size else p
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.where(s2 > 0, s1 * s1 / s2, 0.0)
    return n[batch.curve_group]


@checked
@fill_doc
def auc_ci(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    curve: str = "pr",
    method: str | None = None,
    ci: str = "logit",
    level: float = 0.95,
    pos_label: Any = None,
    soft_labels: bool = False,
    fold: str | ArrayLike | None = None,
) -> pd.DataFrame:
    """Closed-form confidence intervals of AUC-PR (Boyd et al. 2013) or AUC-ROC (DeLong).

    No resampling: one row per curve, as fast as :func:`~prroc_numba.auc`. Boyd, Eng &
    Page (2013) compared AUC-PR estimators and intervals by simulation and recommend
    two closed forms, with ``n`` the number of positives and ``theta`` the estimate:

    * ``"binomial"``: ``theta +- z sqrt(theta (1 - theta) / n)`` (clipped to [0, 1]);
    * ``"logit"``: ``logit(theta) +- z / sqrt(n theta (1 - theta))``, back-transformed
      with the logistic function, so the interval stays inside (0, 1) and is skewed
      away from the nearer bound -- Boyd et al.'s preferred one for small ``n``.

    Both treat ``theta`` like a proportion over ``n`` positives: they are quick and
    reasonable when the positives are not few (see the coverage table in the README,
    ``benchmarks/coverage_study.py``), but carry no information about the scores'
    dependence, so prefer :func:`~prroc_numba.bootstrap` when it matters. For ROC,
    ``ci="delong"`` gives DeLong's normal interval (clipped to [0, 1]; the same numbers
    as :func:`~prroc_numba.delong` and pROC's ``ci.auc``).

    Parameters
    ----------
    {binary}
    curve : {"pr", "roc"}, default="pr"
        ``"logit"`` and ``"binomial"`` are for ``curve="pr"``; ``"delong"`` for
        ``curve="roc"``.
    method : str, default=None
        AUC-PR estimator (see :func:`~prroc_numba.auc`); ``"dg"`` by default. For ROC
        ``"trapezoid"`` (DeLong's interval is for the empirical AUC), or
        ``"influence"`` with ``fold=``: the cross-validated ROC AUC (the mean of the
        folds' AUCs) and its influence-curve interval (below).
    ci : {"logit", "binomial", "delong"}, default="logit"
    level : float, default=0.95
    fold : str or array-like, default=None
        Cross-validation folds (a column or one fold id per row), for
        ``method="influence"``.

    Returns
    -------
    DataFrame
        Key columns, then ``curve``, ``method`` and ``interval`` (the ``ci`` kind), then
        ``estimate``, ``ci_low``, ``ci_high``: one row per curve.
        NaN (with an :class:`~prroc_numba.UndefinedMetricWarning`) where the AUC is
        undefined; the logit interval is NaN where the estimate is exactly 0 or 1.

    With ``curve="roc", method="influence", fold=...``: one row per model and ``by``
    group, with ``fold`` ``"mean"``, ``estimate`` (the cross-validated AUC: the mean
    over the folds of each fold's empirical AUC), ``se``, ``ci_low``, ``ci_high``.

    Notes
    -----
    The influence-curve interval (LeDell, Petersen & van der Laan 2015, R's
    ``cvAUC::ci.cvAUC``): with ``n`` rows in all, ``n1`` positives and ``n0``
    negatives over all folds, the influence of a row of fold ``v`` is ``(n / n1)
    (F0_v(x) - AUC_v)`` for a positive scored ``x`` (``F0_v(x)``: the share of fold
    ``v``'s negatives scored below ``x``, ties counting half) and ``(n / n0) (S1_v(x) -
    AUC_v)`` for a negative (``S1_v``: the share of the fold's positives scored above,
    ties half); ``sigma^2`` is the mean over folds of the mean squared influence in
    the fold, ``se = sqrt(sigma^2 / n)`` and the interval ``estimate +- z se``,
    clipped to [0, 1]. cvAUC counts ties as 0 in ``F0_v``/``S1_v``; with untied
    scores the two agree. Hard 0/1 labels, no weights.

    With sample weights or soft labels ``n`` is Kish's effective number of positives,
    ``(sum p)^2 / sum p^2`` over the rows' positive mass ``p = weight * label``: the
    count of positives when every positive weighs the same, fewer when a few rows carry
    most of the weight, and unchanged when all weights are scaled.

    References
    ----------
    K. Boyd, K. H. Eng, C. D. Page (2013). Area under the precision-recall curve: point
    estimates and confidence intervals. ECML PKDD, LNCS 8190, 451-466.

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.1  # 10% positives; m2 separates them better than m1
    >>> df = pd.DataFrame({"y": y, "m1": y + rng.normal(size=2000),
    ...                    "m2": 2 * y + rng.normal(size=2000)})
    >>> prn.auc_ci(df, score=["m1", "m2"], label="y").round(3)
      model curve method interval  estimate  ci_low  ci_high
    0    m1    pr     dg    logit     0.282   0.225    0.347
    1    m2    pr     dg    logit     0.634   0.566    0.696
    >>> prn.auc_ci(df, score="m2", label="y", curve="roc", ci="delong").round(3)
      curve     method interval  estimate  ci_low  ci_high
    0   roc  trapezoid   delong     0.916   0.897    0.935
    """
    if ci not in CIS:
        raise ValueError(f"ci={ci!r} is not known; use one of {CIS}")
    check_level(level)
    if method == "influence" or fold is not None:
        if method != "influence" or fold is None or curve != "roc":
            raise ValueError(
                "the cross-validated AUC interval needs curve='roc', method='influence' "
                "and fold= (the fold of each row)"
            )
        if weight is not None or soft_labels:
            raise ValueError(
                "method='influence' needs hard 0/1 labels without weights, as cvAUC; "
                "drop weight= / soft_labels=, or use prn.bootstrap(..., fold=)"
            )
        return _cv_influence(data, score, label, by, fold, level, pos_label)
    if curve not in ("pr", "roc"):
        raise ValueError(f"curve={curve!r} is not known; use 'pr' or 'roc'")
    if ci == "delong":
        if curve != "roc":
            raise ValueError(
                "ci='delong' is DeLong's interval of the ROC AUC; pass "
                "curve='roc', or use ci='logit' / 'binomial' for AUC-PR"
            )
        if method not in (None, "trapezoid"):
            raise ValueError("ci='delong' is for the empirical ROC AUC (method='trapezoid')")
        if weight is not None or soft_labels:
            raise ValueError(
                "ci='delong' needs hard 0/1 labels without weights, as in pROC; "
                "drop weight= / soft_labels=, or use prn.bootstrap"
            )
        from .comparison import delong

        res = delong(data, score=score, label=label, by=by, level=level, pos_label=pos_label)
        # the key columns and the descriptors (curve, method, interval) come along
        out = res.drop(columns=[S.VAR, S.SE]).rename(columns={S.AUC: S.ESTIMATE})
        return out
    if curve != "pr":
        raise ValueError(
            f"ci={ci!r} is Boyd et al.'s interval for AUC-PR; pass curve='pr', "
            "or use ci='delong' for the ROC AUC"
        )
    code = method_code(curve, method)
    batch = Inputs(score, label, by, weight, pos_label, soft_labels).pack(data)
    est = batch_areas(batch, [code], [False])[:, 0]
    P, _ = batch.totals()
    warn_undefined(batch, P <= 0, "AUC-PR is undefined (no positives): NaN")
    lo, hi = boyd_interval(est, _effective_positives(batch), level, ci)
    out = F.curves_frame(batch.keys, {S.ESTIMATE: est, S.CI_LOW: lo, S.CI_HIGH: hi})
    return F.describe(out, S.ESTIMATE, curve="pr", method=method_label("pr", method), interval=ci)


def _cv_influence(data, score, label, by, fold, level, pos_label):
    """The cross-validated ROC AUC and its influence-curve interval (see
    :func:`auc_ci`), every model, group and fold in one batch: DeLong placement values
    (:func:`~._kernels.delong._placements_batch`) give each row's influence; sums per
    fold and means over folds are vectorised (no loop over folds or rows).
    """
    d, by_f, col = _folds.with_fold(data, score, label, by, None, fold)
    batch = pack(d, score=score, label=label, by=by_f, pos_label=pos_label)
    C = batch.n_curves
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(C), lengths)
    local = np.arange(batch.offsets[-1]) - batch.offsets[curve]
    y = batch.pos[batch.label_start[curve] + local]
    v = placements_batch(batch.values, batch.offsets, batch.pos, batch.label_start)
    est = batch_areas(batch, [method_code("roc", None)], [False])[:, 0]
    n_pos = np.bincount(curve, weights=y, minlength=C)
    n_all = lengths.astype(np.float64)
    warn_undefined(batch, (n_pos <= 0) | (n_pos >= n_all), "AUC-ROC is undefined: NaN")
    dev2 = (v - est[curve]) ** 2
    s1 = np.bincount(curve, weights=dev2 * y, minlength=C)
    s0 = np.bincount(curve, weights=dev2 * (1.0 - y), minlength=C)
    gid, first = _folds.group_ids(batch.keys, col)
    G = first.size

    def per_group(x):
        return np.bincount(gid, weights=x, minlength=G)

    n_folds = per_group(np.ones(C))
    n = per_group(n_all)
    w1 = n / per_group(n_pos)
    w0 = n / per_group(n_all - n_pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        fold_ic2 = (w1[gid] ** 2 * s1 + w0[gid] ** 2 * s0) / n_all
        sigma2 = per_group(fold_ic2) / n_folds
        se = np.sqrt(sigma2 / n)
    cv = per_group(est) / n_folds
    z = _NORM.inv_cdf(0.5 + level / 2)
    out = batch.keys.iloc[first].drop(columns=[col]).reset_index(drop=True)
    out[S.FOLD] = _folds.MEAN
    out = F.curves_frame(
        out,
        {
            S.ESTIMATE: cv,
            S.SE: se,
            S.CI_LOW: np.clip(cv - z * se, 0.0, 1.0),
            S.CI_HIGH: np.clip(cv + z * se, 0.0, 1.0),
        },
    )
    return F.describe(out, S.ESTIMATE, curve="roc", method="trapezoid", interval="influence")
