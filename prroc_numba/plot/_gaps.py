"""The forest plot of subgroup gaps (:func:`prroc_numba.disparity` frames)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

import numpy as np
import pandas as pd

from .. import _schema as S
from ._common import _axes, _colors, _public, _require

__all__ = ["plot_disparity"]

#: the columns every disparity frame has (the gap and its interval)
_GAP = ("difference", "difference_low", "difference_high")
#: the value columns of a disparity frame (the key columns come before ``curve``)
_FIRST_VALUE = S.CURVE


@_public
def plot_disparity(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    gap_text: bool = True,
    legend: bool = True,
    **kwargs: Any,
) -> Axes:
    """Forest plot of a :func:`prroc_numba.disparity` frame.

    One row per group (per ``by`` stratum), each model in its own colour: the group's
    area and interval; a dashed vertical line per model and stratum at the reference
    area (the overall area or the reference group's, ``estimate - difference``); and,
    at the right, the gap with its interval (``difference [low, high]``). A summary
    frame (``reference="between_groups"`` or ``"to_overall"``) draws the summary gap
    of each model and stratum with its interval, against 0.

    Parameters
    ----------
    frame : DataFrame
        :func:`prroc_numba.disparity` output.
    ax : matplotlib Axes, default=None
    gap_text : bool, default=True
        Write each row's gap and interval at the right.
    legend : bool, default=True
        A legend of the models (wide input).
    **kwargs
        Passed to ``Axes.errorbar``.

    {returns}
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_disparity
    >>> gaps = pd.DataFrame({"g": ["a", "b"], "curve": "pr", "method": "dg",
    ...                      "estimate": [.8, .5], "ci_low": [.75, .45],
    ...                      "ci_high": [.85, .55], "reference": "overall",
    ...                      "difference": [.15, -.15], "difference_low": [.1, -.2],
    ...                      "difference_high": [.2, -.1]})
    >>> ax = plot_disparity(gaps)
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()
    (['a', 'b'], 'AUC-PR (dg)')
    """
    cols = [S.ESTIMATE, S.CI_LOW, S.CI_HIGH, "reference", *_GAP]
    _require(frame, cols, "plot_disparity", "Pass the output of prroc_numba.disparity.")
    ax = _axes(ax, figsize=(6.5, 0.6 + 0.35 * max(len(frame), 3)))
    df = frame.reset_index(drop=True)
    summary = "versus" in df.columns
    keys = list(df.columns[: df.columns.get_loc(_FIRST_VALUE)])
    by_model = S.MODEL in keys
    rows = [k for k in keys if k != S.MODEL]
    names = df[rows].astype(str).agg(", ".join, axis=1) if rows else pd.Series([""] * len(df))
    if summary:
        names = names + " vs " + df["versus"].astype(str)
    labels = list(dict.fromkeys(names))
    models = list(dict.fromkeys(df[S.MODEL])) if by_model else [None]
    colours = _colors(len(models))
    step = 0.6 / max(len(models), 1)
    what = _quantity(df)
    for i, (model, colour) in enumerate(zip(models, colours)):
        sub = df[df[S.MODEL] == model] if by_model else df
        y = np.array([labels.index(n) for n in names[sub.index]], float)
        y = y - (i - (len(models) - 1) / 2) * step
        x, lo, hi = (
            (sub["difference"], sub["difference_low"], sub["difference_high"])
            if summary
            else (sub[S.ESTIMATE], sub[S.CI_LOW], sub[S.CI_HIGH])
        )
        err = np.vstack([x - lo, hi - x])
        kw = {"fmt": "o", "capsize": 3, "color": colour, **kwargs}
        ax.errorbar(x, y, xerr=err, label=None if model is None else str(model), **kw)
        if not summary:
            for ref in np.unique((sub[S.ESTIMATE] - sub["difference"]).round(12).dropna()):
                ax.axvline(ref, color=colour, ls="--", lw=1, alpha=0.7)
        if gap_text:
            for yy, r in zip(y, sub.itertuples()):
                text = f"{r.difference:+.3f} [{r.difference_low:+.3f}, {r.difference_high:+.3f}]"
                ax.annotate(
                    text, (1.02, yy), xycoords=("axes fraction", "data"), va="center",
                    fontsize=7, color=colour, annotation_clip=False,
                )  # fmt: skip
    if summary:
        ax.axvline(0.0, color="0.5", ls="--", lw=1)
    ax.set_yticks(np.arange(len(labels)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    reference = str(df["reference"].iloc[0]) if len(df) else ""
    ax.set_xlabel(f"{reference.replace('_', ' ')} gap in {what}" if summary else what)
    ax.set_title(f"gap to {reference}" if not summary else "", fontsize=9)
    if legend and by_model and len(models) > 1:
        ax.legend(loc="best", fontsize=8, frameon=False)
    return ax


def _quantity(df: pd.DataFrame) -> str:
    """``AUC-PR (dg)`` from the frame's ``curve`` and ``method`` columns."""
    curve = str(df[S.CURVE].iloc[0]).upper() if S.CURVE in df and len(df) else "AUC"
    method = f" ({df[S.METHOD].iloc[0]})" if S.METHOD in df and len(df) else ""
    return f"AUC-{curve}{method}" if curve != "AUC" else "AUC"
