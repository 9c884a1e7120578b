"""For whom is it worse: subgroup gaps in AUC-PR / AUC-ROC with paired intervals.

:func:`disparity` checks its options once (:class:`~._resampling.subgroup_options.SubgroupOptions`),
draws the replicates of every group's and the overall curve in one pass
(:mod:`._resampling.subgroup_draws`) and reduces them to gaps
(:mod:`._resampling.gaps`, :mod:`._resampling.gap_frame`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import pandas as pd

from . import _backends
from ._calls import with_output
from ._core.dataframes import Output
from ._docs import fill_doc
from ._options.choices import ADJUSTMENTS, check_choice
from ._options.draws import label as scheme_label
from ._options.draws import resolve
from ._resampling.gap_frame import disparity_frame
from ._resampling.subgroup_draws import subgroup_replicates
from ._resampling.subgroup_options import SubgroupOptions, check_data
from .comparison import adjust_pvalues


@with_output
@fill_doc
def disparity(
    data: Any = None,
    *,
    score: str | Sequence[str],
    label: str,
    group: str | Sequence[str],
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    curve: str = "pr",
    method: str | None = None,
    normalize: bool = False,
    reference: Any = "overall",
    n_boot: int = 2000,
    level: float = 0.95,
    interval: str = "percentile",
    stratified: bool | None = None,
    seed: int | None = None,
    adjust: str = "holm",
    baseline: str | None = None,
    resampling: str | None = None,
    cluster: str | ArrayLike | None = None,
    row_id: str | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Each subgroup's AUC-PR (or AUC-ROC) and its gap to a reference, with paired
    bootstrap intervals, for one or many models at once.

    Every replicate draws the rows once; each group's area **and** the overall area of
    that replicate come from the same resampled rows, and every model sees the same
    draw (paired). So a gap's interval is the interval of the replicates' own gaps,
    and with ``baseline=`` a model's change of a gap against the baseline model's is
    the interval of the paired changes ("model B narrows model A's gap", not "the
    intervals overlap").

    Parameters
    ----------
    {data}
        ``disparity`` on Dask and Spark frames runs the Poisson bootstrap (the only
        one there, as :func:`~prroc_numba.bootstrap`): two runs on the workers with one
        seed, the groups' curves and the overall curves, whose replicates read the same
        counts (each row's count is keyed by (seed, replicate, row) whatever the
        grouping), equal to the in-memory ``resampling="poisson"`` replicates.
    score : str or list of str
        Score column, or several (wide input: one model per column, resampled paired).
    label : str
        Binary label column (0/1, bool, -1/1).
    group : str or list of str
        The column holding each row's group; several columns: their combinations are
        the groups (intersectional groups, as fairlearn's several sensitive features).
        A missing value is an error (give those rows a group of their own).
    by : str or list of str, default=None
        Strata (fairlearn's control features): the groups and their gaps within each.
    weight : str, default=None
        Non-negative sample weights.
    curve : {"pr", "roc"}, default="pr"
    method : str, default=None
        The AUC estimator (as :func:`~prroc_numba.auc`): ``"dg"`` (default for PR),
        ``"integral"``, ``"ap"``, ``"trapezoid"``; ``"trapezoid"`` for ROC.
    normalize : bool, default=False
        Boyd et al.'s (2012) normalised AUC-PR, ``(auc - min) / (1 - min)``, ``min``
        the least area that estimator gives over every ranking of the group's
        positives and negatives (:mod:`prroc_numba._core.pr_floor`: the closed form
        ``1 + (1 - pi) ln(1 - pi) / pi`` for ``"integral"``, the finite-sample minima for
        ``"ap"`` and ``"dg"``), so that groups of different prevalence are compared on
        ranking alone. Needs the class counts fixed in every replicate (the default
        stratified design; no ``weight=``, ``cluster=``).
    reference : "overall", a group value, "between_groups" or "to_overall", default="overall"
        What each group is compared with: the area of all rows of the stratum and model
        (``"overall"``), or a group's (its value; a tuple with several group columns;
        its own row has difference 0 and no p-value). A summary gives one row per
        (stratum, model) instead (fairlearn's names): ``"between_groups"``: the largest
        minus the smallest group area (``difference``), the smallest over the largest
        (``ratio``); the row's group columns and ``estimate`` are the **lowest** group's,
        ``versus`` names the highest. ``"to_overall"``: the largest absolute difference
        between a group and the overall area, the smallest of group/overall and
        overall/group as ``ratio``; the row shows that group, ``versus`` is
        ``"overall"``. A summary's interval takes each replicate's own maximum, as
        fairlearn's ``difference_ci``; a summary has no p-value (it is never below 0).
    n_boot : int, default=2000
    level : float, default=0.95
    interval : {"percentile", "basic"}, default="percentile"
    stratified : bool, default=None
        None or True: rows are drawn within each (group, class) stratum, so every
        replicate keeps the group sizes and prevalences: the interval is for the gap
        **at these groups** (a fixed test set, a clinical validation cohort).
        ``False``: all rows of the stratum are drawn together (fairlearn's design): the
        group sizes and prevalences vary too, as when the groups themselves were
        sampled; a replicate that leaves a group without positives counts in
        ``n_degenerate`` and is left out.
    seed : int, default=None
    adjust : {"holm", "bonferroni", "bh", "none"}, default="holm"
        Adjustment of ``p_value`` across the groups of each (stratum, model).
    baseline : str, default=None
        A model (score column): every row of the other models also gets its gap less
        the baseline model's gap on the same replicates: ``difference_vs_baseline``,
        ``difference_vs_baseline_low``, ``difference_vs_baseline_high`` and the
        bootstrap ``p_value_vs_baseline`` (NaN on the baseline's own rows).
    resampling : {"multinomial", "poisson"}, default=None
        ``"poisson"``: every row counts ``Poisson(1)`` times, keyed by (seed,
        replicate, input row), as :func:`~prroc_numba.bootstrap`'s (needs
        ``stratified=False``).
    cluster : str or array-like, default=None
        Resample whole clusters (e.g. patients) instead of rows, as in
        :func:`~prroc_numba.bootstrap` (drawn over all rows of the stratum, by class
        with ``stratified=True``).
    row_id : str, default=None
        Spark input: the column of unique row ids that keys each row's Poisson counts
        (as :func:`~prroc_numba.bootstrap`'s).
    output : {"pandas", "polars"}, default="pandas"

    Returns
    -------
    DataFrame
        One row per (``by`` keys, ``model``, group) -- the ``by`` columns, ``model``
        (wide input) and the group columns under their own names -- then ``curve``,
        ``method`` (``", normalized"`` appended with ``normalize=True``), ``interval``,
        ``resampling`` (``"stratified by group and class"``, ``"unstratified"``,
        ``"poisson"``, ``"stratified cluster"``, ...), ``n_boot``, then ``n_pos``,
        ``n_neg``, ``prevalence``, ``estimate`` (the group's area), ``ci_low``,
        ``ci_high``, ``reference``, ``difference`` (group minus reference),
        ``difference_low``, ``difference_high``, ``ratio`` (group over reference),
        ``ratio_low``, ``ratio_high``, ``p_value`` (two-sided bootstrap p-value of a
        zero difference: twice the smaller share of replicate differences on either
        side of 0, ``min(1, 2 min(1 + #(d* <= 0), 1 + #(d* >= 0)) / (B + 1))``; it is
        below ``1 - level`` exactly when the percentile interval leaves 0 out),
        ``p_adjusted``, ``n_degenerate`` (replicates without a gap, left out), and the
        ``baseline=`` columns. A summary ``reference`` adds ``versus`` after
        ``reference``.

        A group without positives (ROC: or without negatives) gets NaN, with an
        :class:`~prroc_numba.UndefinedMetricWarning` naming it. When the groups'
        prevalences differ more than twofold and the gap is of raw AUC-PR, a
        :class:`~prroc_numba.PrevalenceWarning` says that the gap mixes prevalence with
        ranking (the no-skill AUC-PR is the prevalence) and names ``normalize=True`` and
        ``curve="roc"``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> n = 4000
    >>> g = rng.choice(["a", "b"], n)
    >>> y = rng.random(n) < 0.2
    >>> s = y * np.where(g == "a", 2.0, 1.0) + rng.normal(size=n)
    >>> df = pd.DataFrame({"y": y, "s": s, "g": g})
    >>> res = prn.disparity(df, score="s", label="y", group="g", n_boot=200, seed=0)
    >>> res[["g", "estimate", "difference"]].round(3)
       g  estimate  difference
    0  a     0.809       0.165
    1  b     0.458      -0.186
    >>> bool((res.difference_high < 0).iloc[1])
    True
    """
    check_data(data, row_id)
    check_choice("adjust", "none" if adjust is None else adjust, ADJUSTMENTS)
    strat, poisson = resolve(resampling, stratified, _backends.engine(data))
    o = SubgroupOptions.check(
        data,
        score=score,
        label=label,
        group=group,
        by=by,
        weight=weight,
        curve=curve,
        method=method,
        normalize=normalize,
        reference=reference,
        n_boot=n_boot,
        level=level,
        interval=interval,
        stratified=strat,
        poisson=poisson,
        design=scheme_label(strat, poisson, cluster),
        seed=seed,
        adjust=adjust,
        baseline=baseline,
        cluster=cluster,
        row_id=row_id,
    )
    return disparity_frame(subgroup_replicates(data, o), o, adjust_pvalues)
