"""``plot()``: the exact curves of every row seen, drawn by :mod:`prroc_numba.plot`.

torchmetrics' ``plot`` returns ``(fig, ax)``; here it draws the state's PR curve (Davis
and Goadrich's interpolation between the points, not straight lines) or ROC curve, one
line per curve (score column, class or group), with each curve's area in the legend.
"""

from __future__ import annotations

from typing import Any

from .. import _schema as S


def plot_state(metric: Any, curve: str, val: Any, ax: Any, auc: Any, kwargs: dict) -> tuple:
    """``(fig, ax)`` of the metric's curves (``curve``: "pr" or "roc"); ``auc``: a frame
    of the curves' areas for the legend, or None.
    """
    from ..plot import plot_pr, plot_roc

    if val is not None:
        raise ValueError(
            f"{type(metric).__name__}.plot draws the curves of every row seen, not "
            "given values: call plot() (or plot(ax=ax)) without val"
        )
    with metric._synced():
        acc = metric._accumulator()
    frame = acc.pr_curve() if curve == "pr" else acc.roc_curve()
    if getattr(metric, "_curve_key", S.MODEL) == S.CLASS and S.MODEL in frame.columns:
        frame = frame.rename(columns={S.MODEL: S.CLASS})
    draw = plot_pr if curve == "pr" else plot_roc
    ax = draw(frame, ax=ax, auc=auc, **kwargs)
    return ax.figure, ax
