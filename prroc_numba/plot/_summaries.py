"""Plots of summaries: curves with bands, forest plots of intervals, the
critical-difference diagram of ranked models and power against sample size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

    from ..ranking import RankResult

import numpy as np
import pandas as pd

from .. import _schema as S
from ._common import (
    _axes,
    _band_line,
    _colors,
    _curves,
    _doc,
    _finish,
    _key_columns,
    _line_style,
    _public,
    _require,
)
from ._overlays import add_no_skill

__all__ = ["critical_difference", "plot_bands", "plot_intervals", "plot_power"]


@_public
def plot_bands(
    frame: pd.DataFrame,
    *,
    low: str = "ci_low",
    high: str = "ci_high",
    ax: Axes | None = None,
    hue: str | Sequence[str] | None = None,
    alpha: float = 0.2,
    legend: bool = True,
    baseline: bool | float | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot curves with pointwise confidence bands (:func:`prroc_numba.bootstrap_curve`).

    Parameters
    ----------
    frame : DataFrame
        Key columns, then ``recall``, ``precision``, ``ci_low``, ``ci_high`` (PR) or
        ``fpr``, ``tpr``, ``ci_low``, ``ci_high`` (ROC); one row per grid point.
    ax : matplotlib Axes, default=None
    hue : str or list of str, default=None
        Column(s) that pick the colour; default: all key columns.
    low, high : str, default="ci_low", "ci_high"
        The band's columns; e.g. ``low="q0.025", high="q0.975"`` for
        :func:`prroc_numba.average_curves` output.
    alpha : float, default=0.2
        Opacity of the bands.
    legend : bool, default=True
    baseline : float, default=None
        Draw the no-skill line at this prevalence (PR).
    **kwargs
        Passed to ``Axes.plot`` for the centre lines.

    {returns}
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_bands
    >>> band = pd.DataFrame({"recall": [0, .5, 1], "precision": [1, .8, .5],
    ...                      "ci_low": [.9, .7, .45], "ci_high": [1, .9, .55]})
    >>> ax = plot_bands(band)
    >>> len(ax.collections)
    1
    """
    horizontal = False
    if isinstance(frame, pd.DataFrame) and S.FPR in frame.columns and S.RECALL not in frame:
        x_col, y_col, xlabel, ylabel = S.FPR, S.TPR, "false positive rate", "true positive rate"
        cols = list(frame.columns)
        # bootstrap_curve(curve="roc", space="tpr"): FPR values on a TPR grid
        horizontal = S.TPR in cols and cols.index(S.TPR) < cols.index(S.FPR)
    else:
        x_col, y_col, xlabel, ylabel = S.RECALL, S.PRECISION, "recall", "precision"
    _require(
        frame,
        [x_col, y_col, low, high],
        "plot_bands",
        "Pass the output of prroc_numba.bootstrap_curve (or average_curves with "
        "low='q0.025', high='q0.975').",
    )
    ax = _axes(ax)
    n_labels = 0
    for label, sub, color in _curves(frame, _key_columns(frame, hue)):
        sub = sub.sort_values(y_col if horizontal else x_col, kind="stable")
        kw = _line_style(kwargs, color, 1.5)
        text = label if legend else None
        _band_line(ax, sub, (x_col, y_col), low, high, alpha, text, kw, horizontal)
        n_labels += label is not None
    if baseline is not None:
        add_no_skill(ax, baseline, curve="pr" if y_col == S.PRECISION else "roc", label=legend)
        n_labels += 1
    return _finish(ax, xlabel, ylabel, legend, n_labels)


#: the quantity each curve's area measures, for axis labels
_AREA_NAMES = {"pr": "AUC-PR", "roc": "AUC-ROC", "prg": "AUC-PRG"}


def _quantity(frame):
    """What a frame's estimates measure, e.g. ``"AUC-PR (dg)"``, from its ``curve`` and
    ``method`` columns (None where they are missing or mixed).
    """
    out = []
    for col, names in ((S.CURVE, _AREA_NAMES), (S.METHOD, None)):
        if col not in frame.columns:
            continue
        values = frame[col].dropna().unique()
        if len(values) != 1:
            return None
        v = str(values[0])
        out.append(names.get(v, v) if names is not None else f"({v})")
    if not out or S.CURVE not in frame.columns:
        return None
    return " ".join(out)


def _oriented(df, estimate):
    """``compare`` rows with a negative difference turned round: ``model_b - model_a``
    with the difference and its interval negated, so that every row reads the better
    model minus the worse.
    """
    flip = (df[estimate] < 0).to_numpy()
    if not flip.any():
        return df
    df = df.copy()
    a, b = df[S.MODEL_A].copy(), df[S.MODEL_B].copy()
    df.loc[flip, S.MODEL_A], df.loc[flip, S.MODEL_B] = b[flip], a[flip]
    lo, hi = df[S.CI_LOW].to_numpy(float), df[S.CI_HIGH].to_numpy(float)
    df[S.CI_LOW] = np.where(flip, -hi, lo)
    df[S.CI_HIGH] = np.where(flip, -lo, hi)
    df[estimate] = np.where(flip, -df[estimate].to_numpy(float), df[estimate].to_numpy(float))
    return df


@_public
def plot_intervals(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    estimate: str | None = None,
    label: str | ArrayLike | None = None,
    reference: float | None = None,
    sort: bool = True,
    orient: bool = True,
    **kwargs: Any,
) -> Axes:
    """Forest plot: one row per curve (or pair) with its estimate and interval.

    Differences (a :func:`prroc_numba.compare` frame) get a reference line at 0, and
    by default each pair reads the better model minus the worse (see ``orient``). The
    axis names the quantity, e.g. "AUC-PR (dg)" or "difference in AUC-PR (dg)", from
    the frame's ``curve`` and ``method`` columns.

    Parameters
    ----------
    frame : DataFrame
        :func:`prroc_numba.bootstrap` output (keys, ``estimate``, ``ci_low``,
        ``ci_high``) or :func:`prroc_numba.compare` output (``model_a``, ``model_b``,
        ``diff``, ``ci_low``, ``ci_high``).
    ax : matplotlib Axes, default=None
    estimate : str, default=None
        The column of point estimates: ``"estimate"``, else ``"diff"``.
    label : str or list of str, default=None
        Column(s) naming each row: the key columns, or ``model_a - model_b``.
    reference : float, default=None
        A vertical reference line (0 for differences by default).
    sort : bool, default=True
        Order rows by estimate (largest at the top).
    orient : bool, default=True
        Differences: draw a pair whose difference is negative as ``model_b - model_a``
        with the difference and its interval negated, so that every row reads "the
        better minus the worse" and lies right of 0 unless its interval crosses it.
        False: the pairs as ``compare`` gives them.
    **kwargs
        Passed to ``Axes.errorbar``.

    {returns}
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_intervals
    >>> boot = pd.DataFrame({"model": ["a", "b"], "estimate": [.6, .7],
    ...                      "ci_low": [.5, .65], "ci_high": [.7, .75]})
    >>> ax = plot_intervals(boot)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b']
    >>> pairs = pd.DataFrame({"model_a": ["a"], "model_b": ["b"], "curve": ["pr"],
    ...                       "method": ["dg"], "diff": [-.1], "ci_low": [-.15],
    ...                       "ci_high": [-.05]})
    >>> ax = plot_intervals(pairs)
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()
    (['b - a'], 'difference in AUC-PR (dg)')
    """
    if estimate is None:
        estimate = S.ESTIMATE if isinstance(frame, pd.DataFrame) and S.ESTIMATE in frame else S.DIFF
    _require(
        frame,
        [estimate, S.CI_LOW, S.CI_HIGH],
        "plot_intervals",
        "Pass the output of prroc_numba.bootstrap or prroc_numba.compare.",
    )
    ax = _axes(ax)
    df = frame.reset_index(drop=True)
    pairs = {S.MODEL_A, S.MODEL_B} <= set(df.columns)
    if pairs and orient and estimate == S.DIFF:
        df = _oriented(df, estimate)
    if sort:
        df = df.sort_values(estimate, kind="stable").reset_index(drop=True)
    if label is None and pairs:
        names = (df[S.MODEL_A].astype(str) + " - " + df[S.MODEL_B].astype(str)).tolist()
        if reference is None:
            reference = 0.0
    else:
        cols = _key_columns(df, label)
        if cols:
            names = df[cols].astype(str).agg(", ".join, axis=1).tolist()
        else:
            names = [str(i) for i in range(len(df))]
    y = np.arange(len(df))
    est = df[estimate].to_numpy(float)
    err = np.vstack([est - df[S.CI_LOW].to_numpy(float), df[S.CI_HIGH].to_numpy(float) - est])
    kwargs.setdefault("fmt", "o")
    kwargs.setdefault("capsize", 3)
    kwargs.setdefault("color", _colors(1)[0])
    ax.errorbar(est, y, xerr=err, **kwargs)
    if reference is not None:
        ax.axvline(reference, color="0.5", ls="--", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    quantity = _quantity(df)
    if estimate == S.DIFF:
        xlabel = f"difference in {quantity}" if quantity else "difference"
        if not (pairs and orient):
            xlabel += " (a - b)"
    else:
        xlabel = quantity or estimate
    ax.set_xlabel(xlabel)
    ax.set_ylim(-0.6, len(df) - 0.4)
    return ax


def _cliques(ranks, cd):
    """[(i, j)]: maximal runs of models (sorted by rank) whose ranks span at most ``cd``."""
    out = []
    k = len(ranks)
    for i in range(k):
        j = i
        while j + 1 < k and ranks[j + 1] - ranks[i] <= cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in out):
            out.append((i, j))
    return out


@_doc
def critical_difference(
    result: RankResult, *, ax: Axes | None = None, title: str | None = None
) -> Axes:
    """Critical-difference diagram of average ranks (Demšar 2006).

    Models sit on an axis of average rank (1 = best, on the left); a thick bar joins
    each maximal group of models whose ranks differ by no more than the Nemenyi
    critical difference (no significant difference inside the group), and a bar above
    the axis shows the critical difference itself.

    Parameters
    ----------
    result : RankResult
        The output of :func:`prroc_numba.rank_models`.
    ax : matplotlib Axes, default=None
    title : str, default=None

    {returns}
    >>> import numpy as np, pandas as pd, prroc_numba as prn
    >>> from prroc_numba.plot import critical_difference
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame([(m, d, i / 50 + rng.normal(0, 0.03))
    ...                    for i, m in enumerate("abcd") for d in range(15)],
    ...                   columns=["model", "dataset", "auc"])
    >>> ax = critical_difference(prn.rank_models(df, model="model", dataset="dataset",
    ...                                          value="auc"))
    >>> sorted(t.get_text() for t in ax.texts if t.get_text() in "abcd")
    ['a', 'b', 'c', 'd']
    """
    ranks = getattr(result, "ranks", None)
    if not isinstance(ranks, pd.DataFrame) or not hasattr(result, "summary"):
        raise TypeError(
            "critical_difference() needs the result of prroc_numba.rank_models, got "
            f"{type(result).__name__}"
        )
    half = (len(ranks) + 1) // 2
    step = 0.4  # between the rows of model names (one row per model on each side)
    ax = _axes(ax, figsize=(8.0, 2.0 + 0.4 * half))
    names = ranks[S.MODEL].astype(str).tolist()
    r = ranks[S.RANK].to_numpy(float)
    k = len(r)
    cd = float(result.summary[S.CRITICAL_DIFFERENCE])
    lo, hi = 1.0, float(max(k, np.ceil(r.max())))
    # the rank axis on top, ticks at whole ranks
    ax.plot([lo, hi], [0, 0], color="k", lw=1)
    for t in range(int(lo), int(hi) + 1):
        ax.plot([t, t], [0, 0.08], color="k", lw=1)
        ax.text(t, 0.14, str(t), ha="center", va="bottom", fontsize=10)
    # the critical difference bar above the axis
    ax.plot([lo, lo + cd], [0.62, 0.62], color="k", lw=1.5)
    for x in (lo, lo + cd):
        ax.plot([x, x], [0.57, 0.67], color="k", lw=1.5)
    ax.text(lo + cd / 2, 0.7, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=10)
    # models: the better half to the left, the rest to the right, each on its own row;
    # a model's average rank is written beside its name (at the outer end of its
    # elbow), so that close ranks never print over each other
    for i in range(k):
        left = i < half
        if left:
            y, x_text, ha = -(i + 1) * step - 0.25, lo - 0.15, "right"
        else:
            y, x_text, ha = -(k - i) * step - 0.25, hi + 0.15, "left"
        ax.plot([r[i], r[i], x_text], [0, y, y], color="0.3", lw=1)
        ax.text(x_text, y, names[i], ha=ha, va="center", fontsize=11)
        ax.text(
            x_text + (0.08 if left else -0.08),
            y + 0.03,
            f"{r[i]:.2f}",
            ha="left" if left else "right",
            va="bottom",
            fontsize=9,
            color="0.3",
        )
    # groups with no significant difference
    for n, (i, j) in enumerate(_cliques(r, cd)):
        y = -0.1 - 0.08 * n
        ax.plot([r[i] - 0.03, r[j] + 0.03], [y, y], color="k", lw=3.5, solid_capstyle="round")
    ax.set_xlim(lo - 1.6, hi + 1.6)
    ax.set_ylim(-(half + 0.6) * step - 0.25, 1.0)
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def _power_models(frame):
    """The model(s) a power frame is about, ``"a"`` or ``"a vs b"``: its ``model`` or
    ``model_a`` / ``model_b`` columns, else ``frame.attrs["score"]``; None if unknown.
    """
    for cols in ((S.MODEL_A, S.MODEL_B), (S.MODEL,)):
        if all(c in frame.columns for c in cols):
            values = [frame[c].dropna().astype(str).unique() for c in cols]
            if all(len(v) == 1 for v in values):
                return " vs ".join(str(v[0]) for v in values)
    score = frame.attrs.get("score")
    if isinstance(score, str):
        return score
    if isinstance(score, (list, tuple)) and all(isinstance(x, str) for x in score):
        return " vs ".join(score)
    return None


@_doc
def plot_power(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    target: float | None = 0.8,
    label: str | None = None,
    title: str | None = None,
    **kwargs: Any,
) -> Axes:
    """Power against sample size, from :func:`prroc_numba.power` with ``n=``.

    Draws the simulated power at each candidate size with a band of two Monte Carlo
    standard errors, and a dashed line at the ``target`` power. The line's legend entry
    and the title name the model(s) and, where the frame says it (``curve``,
    ``method``), the quantity compared.

    Parameters
    ----------
    frame : DataFrame
        ``power(..., n=[...])`` output (``n``, ``power``, ``se``).
    ax : matplotlib Axes, default=None
    target : float, default=0.8
        A horizontal reference line (None: none).
    label : str, default=None
        Legend text of the line: default the model(s) of the frame (its ``model`` or
        ``model_a`` / ``model_b`` columns, or ``frame.attrs["score"]``); pass it when
        the frame does not name them (e.g. ``label="gbm vs logreg"``).
    title : str, default=None
        The axes' title: default "Simulated power" with the quantity and the models
        (the ``label``); ``""`` for none.
    **kwargs
        Passed to ``Axes.plot``.

    {returns}
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_power
    >>> sim = pd.DataFrame({"n": [50, 100, 200], "power": [.3, .6, .9],
    ...                     "se": [.03, .03, .02]})
    >>> ax = plot_power(sim, label="gbm vs logreg")
    >>> ax.get_xlabel(), ax.get_title()
    ('sample size n', 'Simulated power: gbm vs logreg')
    """
    _require(
        frame,
        [S.N, S.POWER, S.SE],
        "plot_power",
        "Pass the output of prroc_numba.power(..., n=[...]).",
    )
    ax = _axes(ax)
    df = frame.sort_values(S.N, kind="stable")
    x = df[S.N].to_numpy(float)
    p = df[S.POWER].to_numpy(float)
    se = df[S.SE].to_numpy(float)
    models = label if label is not None else _power_models(frame)
    kwargs.setdefault("color", _colors(1)[0])
    kwargs.setdefault("marker", "o")
    (line,) = ax.plot(x, p, label=models, **kwargs)
    ax.fill_between(
        x, np.clip(p - 2 * se, 0, 1), np.clip(p + 2 * se, 0, 1), color=line.get_color(), alpha=0.2
    )
    if target is not None:
        ax.axhline(target, color="0.5", ls="--", lw=1)
    ax.set_xlabel("sample size n")
    ax.set_ylabel("power")
    ax.set_ylim(0, 1.02)
    if title is None:
        quantity = _quantity(frame)
        title = "Simulated power" + (f" of {quantity}" if quantity else "")
        title += f": {models}" if models else ""
    if title:
        ax.set_title(title)
    if models:
        ax.legend(loc="lower right", fontsize=8, frameon=False)
    return ax
