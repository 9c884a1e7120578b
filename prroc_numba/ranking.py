"""Many models across many data sets: average ranks and the tests built on them.

:func:`rank_models` takes one number per (model, data set) -- for example the output of
``auc(..., by="dataset")`` -- and gives what Demšar (JMLR 2006) made the standard for
comparing several models over several data sets: average ranks, Friedman's test and
Iman & Davenport's F, the Nemenyi critical difference, pairwise Wilcoxon signed-rank
tests with Holm's adjustment and, with ``rope=``, the Bayesian signed-rank test of
Benavoli et al. (JMLR 2017). :func:`prroc_numba.plot.critical_difference` draws the
critical-difference diagram from the result.

The statistics come from scipy (``pip install prroc-numba[stats]``), which is imported
only when :func:`rank_models` is called.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import _schema as S
from ._checks import check_level
from ._optional import optional
from ._warnings import FewDataSetsWarning, outside_stacklevel
from .comparison import adjust_pvalues

__all__ = ["RankResult", "rank_models"]

#: Demšar (2006, section 3.2.2, p. 11): the Friedman statistic follows the chi-square
#: distribution "when N and k are big enough (as a rule of a thumb, N > 10 and k > 5)";
#: for fewer data sets exact critical values are needed
MIN_DATASETS = 11


def _warn_few(n, k):
    if n >= MIN_DATASETS:
        return
    warnings.warn(
        f"rank_models: {n} data sets are few. Demšar (2006, JMLR 7:1-30, section 3.2.2) "
        f"takes Friedman's chi-square approximation as sound only for more than 10 data "
        f"sets (and more than 5 models; here {k}), with exact critical values for fewer; "
        "the Nemenyi critical difference rests on the same large-sample approximation, "
        "and with so few data sets the tests have little power: read a non-significant "
        "result as 'not shown', not as 'no difference'. Add data sets (or seeds, or "
        "folds) where you can.",
        FewDataSetsWarning,
        stacklevel=outside_stacklevel(),
    )


@dataclass(frozen=True)
class RankResult:
    """What :func:`rank_models` returns.

    Attributes
    ----------
    ranks : DataFrame
        One row per model, best average rank first: ``model``, ``rank`` (average rank
        over the data sets, 1 = best), ``mean`` (mean value), ``n_datasets``.
    pairs : DataFrame
        One row per pair of models (``model_a`` ranked better than ``model_b``):
        ``rank_a``, ``rank_b``, ``rank_diff`` (``rank_b - rank_a``), ``nemenyi``
        (True when ``rank_diff`` exceeds the critical difference), ``statistic`` and
        ``p_value`` of the Wilcoxon signed-rank test, ``p_adjusted`` (Holm), and with
        ``rope=`` the Bayesian signed-rank probabilities ``p_left`` (``model_a``
        better by more than the rope), ``p_rope`` (practically equivalent) and
        ``p_right`` (``model_b`` better).
    summary : Series
        ``n_models``, ``n_datasets``, ``friedman_chi2``, ``friedman_p``,
        ``iman_davenport_f``, ``iman_davenport_p``, ``critical_difference``, ``level``.
    """

    ranks: pd.DataFrame
    pairs: pd.DataFrame
    summary: pd.Series

    @property
    def critical_difference(self) -> float:
        """The Nemenyi critical difference of average ranks."""
        return float(self.summary[S.CRITICAL_DIFFERENCE])

    def __repr__(self) -> str:
        return (
            f"RankResult\n{self.summary.to_string()}\n\n{self.ranks.to_string(index=False)}"
            f"\n\n{self.pairs.to_string(index=False)}"
        )


def _table(data, model, dataset, value):
    """The (n_datasets, n_models) table of values, with the model names."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"rank_models needs a DataFrame with one row per (model, data set), got "
            f"{type(data).__name__}"
        )
    for arg, col in (("model", model), ("dataset", dataset), ("value", value)):
        if not isinstance(col, str) or col not in data.columns:
            raise ValueError(
                f"{arg}={col!r} is not a column of the frame; available: {list(data.columns)}"
            )
    dup = data.duplicated([model, dataset])
    if dup.any():
        row = data.loc[dup, [model, dataset]].iloc[0].tolist()
        raise ValueError(
            f"rank_models needs one value per (model, data set); {model}={row[0]!r}, "
            f"{dataset}={row[1]!r} appears more than once: aggregate first (for example "
            f"average over seeds with groupby)"
        )
    table = data.pivot(index=dataset, columns=model, values=value)
    vals = table.to_numpy(dtype=np.float64)
    bad = ~np.isfinite(vals)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"rank_models needs a value for every model on every data set; "
            f"{model}={table.columns[j]!r} has no finite {value!r} on "
            f"{dataset}={table.index[i]!r}: drop that data set or that model"
        )
    if vals.shape[1] < 2:
        raise ValueError(f"rank_models needs at least two models in column {model!r}")
    if vals.shape[0] < 2:
        raise ValueError(f"rank_models needs at least two data sets in column {dataset!r}")
    return vals, list(table.columns)


def _friedman(ranks):
    """Friedman's chi-square from the (N, k) within-row ranks, corrected for ties
    (the formula of scipy's ``friedmanchisquare``, which needs k >= 3).
    """
    N, k = ranks.shape
    ties = 0.0
    for row in ranks:
        _, t = np.unique(row, return_counts=True)
        ties += float((t * t * t - t).sum())
    c = 1.0 - ties / (N * k * (k * k - 1))
    if c <= 0:  # every data set ties every model
        return 0.0
    r = ranks.sum(axis=0)
    return (12.0 / (N * k * (k + 1)) * float(r @ r) - 3.0 * N * (k + 1)) / c


def _dirichlet(n, n_samples, seed):
    """Baycomp's posterior weights of the Bayesian signed-rank test.

    Dirichlet(0.5, 1, ..., 1) over the pseudo observation and the ``n`` data sets,
    drawn by ``numpy.random.RandomState(seed)``. The same draws serve every pair of
    models (baycomp draws them afresh for each pair, identically for a given seed).
    """
    weights = np.ones(n + 1)
    weights[0] = 0.5
    return np.random.RandomState(seed).dirichlet(weights, n_samples)


def _bayes_signed_rank(x, y, rope, w):
    """(p_left, p_rope, p_right): Benavoli et al.'s Bayesian signed-rank test.

    The Dirichlet process posterior of the differences ``y - x`` (with a pseudo
    observation at 0 of weight 0.5), one sample per row of the weights ``w``
    (:func:`_dirichlet`); each probability is the share of samples in which that
    region is the most probable one, as baycomp computes it.
    """
    diff = np.concatenate([[0.0], y - x])
    sums = diff[:, None] + diff[None, :]
    n_samples = w.shape[0]

    def mass(region):
        return ((w @ region) * w).sum(axis=1)

    def heaviside(a, t):
        return (a > t) + 0.5 * (a == t)

    if rope > 0:
        left = mass(heaviside(-sums, 2 * rope))
        right = mass(heaviside(sums, 2 * rope))
        samples = np.column_stack([left, 1.0 - left - right, right])
        winners = np.argmax(samples, axis=1)
        return tuple(np.bincount(winners, minlength=3) / n_samples)
    right = mass(heaviside(sums, 0.0))
    winners = np.argmax(np.column_stack([1.0 - right, right]), axis=1)
    p_left, p_right = np.bincount(winners, minlength=2) / n_samples
    return p_left, 0.0, p_right


def rank_models(
    data: pd.DataFrame,
    *,
    model: str,
    dataset: str,
    value: str,
    higher_is_better: bool = True,
    rope: float | None = None,
    level: float = 0.95,
    n_samples: int = 50000,
    seed: int | None = None,
) -> RankResult:
    """Average ranks of several models over several data sets, and the tests on them.

    Each data set ranks the models (1 = best, ties share the average rank); the
    models' average ranks are compared with Friedman's test (scipy's
    ``friedmanchisquare``, ties corrected) and Iman & Davenport's F,
    ``F = (N - 1) chi2 / (N (k - 1) - chi2)`` on ``(k - 1, (k - 1)(N - 1))`` degrees
    of freedom. Two models differ by Nemenyi's test when their average ranks differ by
    more than the critical difference ``CD = q / sqrt(2) * sqrt(k (k + 1) / (6 N))``,
    with ``q`` the studentized range quantile at ``level`` (Demšar 2006). Each pair is
    also tested with the Wilcoxon signed-rank test on its ``N`` paired values (scipy's
    ``wilcoxon``: zero differences dropped, exact for small ``N`` without ties), Holm
    adjusted over all pairs; with ``rope=`` the Bayesian signed-rank test (Benavoli et
    al. 2017, as baycomp) gives the probability that each model is better by more than
    ``rope``, or that the two are practically equivalent.

    With 10 data sets or fewer a :class:`~prroc_numba.FewDataSetsWarning` says that
    the tests' large-sample approximations are rough and their power low: Demšar (2006,
    section 3.2.2) takes the chi-square distribution of Friedman's statistic as a rule
    of thumb for more than 10 data sets and more than 5 models, and exact critical
    values otherwise.

    Parameters
    ----------
    data : DataFrame
        Long frame, one row per (model, data set): every model needs a finite value on
        every data set.
    model, dataset, value : str
        Column names: the model, the data set (or seed, or fold) and the number
        compared (e.g. ``"auc"``).
    higher_is_better : bool, default=True
        False for losses (lower values rank first).
    rope : float, default=None
        Half-width of the region of practical equivalence, in the units of ``value``
        (e.g. 0.01 AUC). None: no Bayesian test (no ``p_left``, ``p_rope``,
        ``p_right`` columns); 0: the Bayesian test without a rope (``p_rope`` = 0).
    level : float, default=0.95
        Confidence level of the critical difference (``alpha = 1 - level``).
    n_samples : int, default=50000
        Posterior samples of the Bayesian test.
    seed : int, default=None
        Seed of the Bayesian test's sampling: with the data sets in sorted order,
        ``rank_models`` draws what baycomp's ``SignedRankTest`` draws with
        ``random_state=seed``.

    Returns
    -------
    RankResult
        ``.ranks``, ``.pairs`` and ``.summary`` frames (see :class:`RankResult`).

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> rows = [(m, d, 0.7 + 0.02 * i + rng.normal(0, 0.03))
    ...         for i, m in enumerate(["a", "b", "c"]) for d in range(12)]
    >>> df = pd.DataFrame(rows, columns=["model", "dataset", "auc"])
    >>> res = prn.rank_models(df, model="model", dataset="dataset", value="auc")
    >>> res.ranks[["model", "rank"]].round(3).values.tolist()
    [['c', 1.417], ['b', 2.167], ['a', 2.417]]
    >>> round(res.critical_difference, 3)
    0.957
    >>> res.pairs[["model_a", "model_b", "nemenyi"]].values.tolist()
    [['c', 'b', False], ['c', 'a', True], ['b', 'a', False]]
    >>> res.pairs["p_adjusted"].round(3).tolist()
    [0.054, 0.015, 0.339]
    """
    check_level(level)
    if rope is not None and not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"rope={rope!r} must be a non-negative number (or None)")
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples={n_samples!r} must be a positive integer")
    stats = optional("scipy.stats", "rank_models", "stats")
    vals, names = _table(data, model, dataset, value)
    N, k = vals.shape
    _warn_few(N, k)
    sign = -1.0 if higher_is_better else 1.0
    ranks = stats.rankdata(sign * vals, axis=1)
    avg = ranks.mean(axis=0)
    order = np.argsort(avg, kind="stable")

    chi2 = _friedman(ranks)
    chi2_p = stats.chi2.sf(chi2, k - 1)
    den = N * (k - 1) - chi2
    f = (N - 1) * chi2 / den if den > 0 else np.inf  # inf: every data set ranks alike
    f_p = stats.f.sf(f, k - 1, (k - 1) * (N - 1)) if np.isfinite(f) else 0.0
    q = stats.studentized_range.ppf(level, k, np.inf) / np.sqrt(2.0)
    cd = q * np.sqrt(k * (k + 1) / (6.0 * N))

    pairs = [(order[i], order[j]) for i in range(k) for j in range(i + 1, k)]
    stat = np.empty(len(pairs))
    p = np.empty(len(pairs))
    bayes = np.empty((len(pairs), 3))
    for t, (a, b) in enumerate(pairs):
        d = vals[:, a] - vals[:, b]
        if np.all(d == 0):
            stat[t], p[t] = np.nan, 1.0
        else:
            res = stats.wilcoxon(vals[:, a], vals[:, b])
            stat[t], p[t] = res.statistic, res.pvalue
        if rope is not None:
            if t == 0:
                w = _dirichlet(N, n_samples, seed)
            bayes[t] = _bayes_signed_rank(-sign * vals[:, a], -sign * vals[:, b], rope, w)

    ia = np.array([a for a, _ in pairs], dtype=np.int64)
    ib = np.array([b for _, b in pairs], dtype=np.int64)
    names_arr = np.asarray(names, dtype=object)
    pair_cols = {
        S.MODEL_A: names_arr[ia],
        S.MODEL_B: names_arr[ib],
        S.RANK_A: avg[ia],
        S.RANK_B: avg[ib],
        S.RANK_DIFF: avg[ib] - avg[ia],
        S.NEMENYI: avg[ib] - avg[ia] > cd,
        S.STATISTIC: stat,
        S.P_VALUE: p,
        S.P_ADJUSTED: adjust_pvalues(p, "holm"),
    }
    if rope is not None:
        pair_cols.update({S.P_LEFT: bayes[:, 0], S.P_ROPE: bayes[:, 1], S.P_RIGHT: bayes[:, 2]})
    rank_frame = pd.DataFrame(
        {
            model: names_arr[order],
            S.RANK: avg[order],
            S.MEAN: vals.mean(axis=0)[order],
            S.N_DATASETS: np.full(k, N, dtype=np.int64),
        }
    )
    if model != S.MODEL:
        rank_frame = rank_frame.rename(columns={model: S.MODEL})
    summary = pd.Series(
        {
            S.N_MODELS: k,
            S.N_DATASETS: N,
            S.FRIEDMAN_CHI2: float(chi2),
            S.FRIEDMAN_P: float(chi2_p),
            S.IMAN_DAVENPORT_F: float(f),
            S.IMAN_DAVENPORT_P: float(f_p),
            S.CRITICAL_DIFFERENCE: float(cd),
            "level": level,
        },
        dtype=object,
    )
    return RankResult(rank_frame, pd.DataFrame(pair_cols), summary)
