"""What a plot can add over its curves: iso-F1 lines, the no-skill baseline, operating
points with their intervals and the range of a partial area.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from .. import _schema as S
from ._common import _axes, _curves, _key_columns, _note, _public, _require

__all__ = ["add_iso_f1", "add_no_skill", "add_operating_points", "add_partial_range"]


@_public
def add_iso_f1(
    ax: Axes | None = None,
    levels: Sequence[float] = (0.2, 0.4, 0.6, 0.8),
    *,
    color: str = "0.75",
    label: str | ArrayLike = True,
    **kwargs: Any,
) -> Axes:
    """Draw iso-F1 lines on a PR plot: the (recall, precision) pairs with F1 = level.

    Parameters
    ----------
    ax : matplotlib Axes, default=None
        The axes of a PR plot; a new figure when None.
    levels : sequence of float, default=(0.2, 0.4, 0.6, 0.8)
        F1 values in (0, 1).
    color : matplotlib colour, default="0.75"
    label : bool, default=True
        Write ``F1=level`` at the right end of each line (recall 1), just outside the
        axes, where no legend and no curve can cover it.
    **kwargs
        Passed to ``Axes.plot``.

    {returns}
    >>> from prroc_numba.plot import add_iso_f1
    >>> ax = add_iso_f1(levels=[0.5])
    >>> len(ax.lines)
    1
    """
    ax = _axes(ax)
    kwargs.setdefault("lw", 0.8)
    kwargs.setdefault("zorder", 0)
    for f in levels:
        if not 0 < f < 1:
            raise ValueError(f"levels must lie in (0, 1), got {f}")
        # F1 = 2 r p / (r + p)  ->  p = f r / (2 r - f), defined for r > f / 2
        r = np.linspace(f / (2 - f), 1.0, 200)
        p = f * r / (2 * r - f)
        ax.plot(r, p, color=color, ls="-", **kwargs)
        if label:
            # in the right margin at the line's end: (recall 1, precision f / (2 - f))
            ax.annotate(
                f"F1={f:g}",
                xy=(1.0, p[-1]),
                xycoords=ax.get_yaxis_transform(),  # x in axes units, y in data
                xytext=(3, 0),
                textcoords="offset points",
                ha="left",
                va="center",
                fontsize=7,
                color=color,
                annotation_clip=False,
            )
    return ax


@_public
def add_no_skill(
    ax: Axes | None = None,
    prevalence: float | Sequence[float] | None = None,
    *,
    curve: str = "pr",
    color: str = "0.5",
    label: str | ArrayLike = True,
    **kwargs: Any,
) -> Axes:
    """Draw the no-skill baseline: precision = prevalence on PR, the diagonal on ROC.

    A ranking by chance has these curves on average.

    Parameters
    ----------
    ax : matplotlib Axes, default=None
    prevalence : float or sequence of float, default=None
        Share of positives (PR only): a random ranking has this precision at every
        recall. One line per distinct value.
    curve : {"pr", "roc"}, default="pr"
    color : matplotlib colour, default="0.5"
    label : bool, default=True
        Add a legend entry.
    **kwargs
        Passed to ``Axes.plot``.

    {returns}
    >>> from prroc_numba.plot import add_no_skill
    >>> ax = add_no_skill(prevalence=0.05)
    >>> ax.lines[0].get_ydata().tolist()
    [0.05, 0.05]
    """
    ax = _axes(ax)
    kwargs.setdefault("lw", 1.0)
    kwargs.setdefault("ls", "--")
    if curve == "roc":
        ax.plot([0, 1], [0, 1], color=color, label="no skill" if label else None, **kwargs)
        return ax
    if curve != "pr":
        raise ValueError(f"curve must be 'pr' or 'roc', got {curve!r}")
    if prevalence is None:
        raise ValueError("add_no_skill(curve='pr') needs prevalence= (share of positives)")
    values = np.unique(np.round(np.atleast_1d(np.asarray(prevalence, dtype=float)), 12))
    for i, v in enumerate(values):
        if not 0 <= v <= 1:
            raise ValueError(f"prevalence must lie in [0, 1], got {v}")
        text = None
        if label and i == 0:
            text = f"no skill ({v:.3g})" if values.size == 1 else "no skill"
        ax.plot([0, 1], [v, v], color=color, label=text, **kwargs)
    return ax


@_public
def add_operating_points(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    curve: str = "pr",
    hue: str | Sequence[str] | None = None,
    colors: dict | None = None,
    annotate: bool = True,
    **kwargs: Any,
) -> Axes:
    """Mark operating points (:func:`prroc_numba.operating_points`) with interval bars.

    Parameters
    ----------
    frame : DataFrame
        The output of :func:`prroc_numba.operating_points`; with ``n_boot=`` its
        ``<metric>_ci_low`` / ``_ci_high`` columns give the bars.
    ax : matplotlib Axes, default=None
    curve : {"pr", "roc"}, default="pr"
        PR: at (``recall``, ``precision``); ROC: at (``fpr``, ``recall``).
    hue : str or list of str, default=None
        Column(s) that pick the colour; default: the key columns.
    colors : dict, default=None
        Colour of each curve's label (as the plots build them); used by
        :func:`plot_pr` / :func:`plot_roc` to match their lines.
    annotate : bool, default=True
        Write each point's target next to it.
    **kwargs
        Passed to ``Axes.errorbar``.

    {returns}
    >>> import prroc_numba as prn
    >>> from prroc_numba.plot import add_operating_points
    >>> op = prn.operating_points(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0],
    ...                           targets=["max_f1", "youden"])
    >>> ax = add_operating_points(op, curve="roc")
    >>> len(ax.containers)
    1
    """
    if curve not in ("pr", "roc"):
        raise ValueError(f"curve must be 'pr' or 'roc', got {curve!r}")
    xcol, ycol = (S.RECALL, S.PRECISION) if curve == "pr" else (S.FPR, S.RECALL)
    _require(
        frame,
        [S.TARGET, xcol, ycol],
        "add_operating_points",
        "Pass the output of prroc_numba.operating_points.",
    )
    ax = _axes(ax)
    for key, sub, color in _curves(frame, _key_columns(frame, hue)):
        if colors is not None and key in colors:
            color = colors[key]
        ok = sub[xcol].notna() & sub[ycol].notna()
        sub = sub[ok]
        if sub.empty:
            continue
        x = sub[xcol].to_numpy(float)
        y = sub[ycol].to_numpy(float)

        def bar(col, v, sub=sub):
            lo, hi = S.ci_names(col)
            if lo not in sub.columns:
                return None
            return np.vstack([v - sub[lo].to_numpy(float), sub[hi].to_numpy(float) - v])

        kw = dict(kwargs)
        kw.setdefault("fmt", "o")
        kw.setdefault("ms", 5)
        kw.setdefault("capsize", 2)
        kw.setdefault("zorder", 3)
        ax.errorbar(x, y, xerr=bar(xcol, x), yerr=bar(ycol, y), color=color, **kw)
        if annotate:
            for xi, yi, t in zip(x, y, sub[S.TARGET]):
                _note(ax, str(t), (xi, yi), (4, 4), color)
    return ax


@_public
def add_partial_range(
    ax: Axes | None = None,
    partial: tuple[float, float] = (0.0, 1.0),
    *,
    curve: str = "pr",
    partial_focus: str = "fpr",
    color: str = "0.6",
    alpha: float = 0.15,
    **kwargs: Any,
) -> Axes:
    """Shade the range of a partial area (``auc(..., partial=(lo, hi))``).

    Parameters
    ----------
    ax : matplotlib Axes, default=None
    partial : (float, float), default=(0.0, 1.0)
    curve : {"pr", "roc"}, default="pr"
        PR: a recall range (vertical band); ROC: an FPR range, or with
        ``partial_focus="tpr"`` a TPR range (horizontal band).
    partial_focus : {"fpr", "tpr"}, default="fpr"
    color : matplotlib colour, default="0.6"
    alpha : float, default=0.15
    **kwargs
        Passed to ``Axes.axvspan`` / ``Axes.axhspan``.

    {returns}
    >>> from prroc_numba.plot import add_partial_range
    >>> ax = add_partial_range(partial=(0, 0.1), curve="roc")
    >>> len(ax.patches)
    1
    """
    lo, hi = (float(v) for v in partial)
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError(f"partial=({lo}, {hi}) must satisfy 0 <= lo < hi <= 1")
    ax = _axes(ax)
    kwargs.setdefault("zorder", 0)
    if curve == "roc" and partial_focus == "tpr":
        ax.axhspan(lo, hi, color=color, alpha=alpha, lw=0, **kwargs)
    else:
        ax.axvspan(lo, hi, color=color, alpha=alpha, lw=0, **kwargs)
    return ax


def _draw_no_skill(ax, curve, prev, legend):
    """The no-skill line of ``curve`` ("pr" or "roc"): ``prev`` True (ROC diagonal),
    prevalences, or None; returns the number of legend entries it adds.
    """
    if prev is True:
        add_no_skill(ax, curve=curve, label=legend)
        return 1
    if prev:
        add_no_skill(ax, prev, curve=curve, label=legend)
        return 1
    return 0
