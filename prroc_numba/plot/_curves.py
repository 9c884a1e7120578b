"""PR and ROC curves (:func:`plot_pr`, :func:`plot_roc`): one drawing routine for both
(:func:`_plot_curves`; cross-validation folds: :func:`_plot_folds`), told apart by a
:class:`_Kind`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

from typing import NamedTuple

import numpy as np
import pandas as pd

from .. import _schema as S
from ._common import (
    _auc_suffixes,
    _axes,
    _band_line,
    _curves,
    _finish,
    _groups,
    _key_columns,
    _legend_text,
    _line_style,
    _public,
    _require,
)
from ._overlays import _draw_no_skill, add_iso_f1, add_operating_points, add_partial_range

__all__ = ["plot_pr", "plot_roc"]

_CONNECT = ("curve", "line", "step")


def _pr_curve_xy(sub, connect, max_points):
    """(recall, precision) to draw for one curve's rows."""
    r = sub[S.RECALL].to_numpy(dtype=float)
    p = sub[S.PRECISION].to_numpy(dtype=float)
    if connect == "line" or r.size < 2:
        return r, p
    if connect == "step":
        # average precision's reading: point i's precision over (recall[i-1], recall[i]]
        x = np.repeat(r, 2)[:-1]
        y = np.repeat(p, 2)[1:]
        return x, y
    if S.TP not in sub.columns or S.FP not in sub.columns:
        return r, p
    tp = sub[S.TP].to_numpy(dtype=float)
    fp = sub[S.FP].to_numpy(dtype=float)
    j = int(np.argmax(tp))
    if not (tp[j] > 0 and r[j] > 0 and np.isfinite(r[j])):
        return r, p
    total_pos = tp[j] / r[j]
    dtp, dfp = np.diff(tp), np.diff(fp)
    n_seg = dtp.size
    k = int(np.clip(max_points // max(n_seg, 1), 1, 64))
    t = np.broadcast_to(np.arange(1, k + 1) / k, (n_seg, k))
    if k >= 4:
        # half the samples evenly in t, half evenly in precision (where the curve is
        # steep, e.g. just after a vertex followed by many negatives): invert
        # p(t) = (a + b t) / (c + d t)
        h = k // 2
        a, b = tp[:-1, None], dtp[:, None]
        c, d = (tp + fp)[:-1, None], (dtp + dfp)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            p0, p1 = a / c, (a + b) / (c + d)
            q = p0 + (p1 - p0) * (np.arange(1, h + 1) / (h + 1))
            tq = (a - q * c) / (q * d - b)
        tq = np.where(np.isfinite(tq) & (tq > 0) & (tq < 1), tq, np.nan)
        tu = np.broadcast_to(np.arange(1, k - h + 1) / (k - h), (n_seg, k - h))
        t = np.sort(np.concatenate([tq, tu], axis=1), axis=1)  # NaN sorts last
        t = np.where(np.isnan(t), 1.0, t)  # unused samples repeat the segment's end
    seg_tp = tp[:-1, None] + dtp[:, None] * t
    seg_fp = fp[:-1, None] + dfp[:, None] * t
    # a segment along which TP does not move is a straight (vertical) line: its end will do
    straight = dtp <= 0
    seg_tp[straight, :-1] = np.nan
    all_tp = np.concatenate([tp[:1], seg_tp.ravel()])
    all_fp = np.concatenate([fp[:1], seg_fp.ravel()])
    keep = ~np.isnan(all_tp)
    all_tp, all_fp = all_tp[keep], all_fp[keep]
    # precision from the counts; where nothing is counted yet (the origin), the flat
    # start: the precision of the first counted point (the frame's rule at recall 0)
    d = all_tp + all_fp
    counted = d > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = all_tp / d
    first = np.flatnonzero(counted)
    prec[~counted] = prec[first[0]] if first.size else np.nan
    prec = np.where(np.isnan(prec), p[0], prec)
    return all_tp / total_pos, prec


def _prevalences(frame, keys):
    """Per-curve share of positives, read from the last point (everything predicted
    positive: precision = P / (P + N)).
    """
    out = []
    for _, sub in _groups(frame, keys):
        if S.TP in sub.columns and S.FP in sub.columns:
            j = int(np.argmax(sub[S.TP].to_numpy() + sub[S.FP].to_numpy()))
            t, f = float(sub[S.TP].iloc[j]), float(sub[S.FP].iloc[j])
            if t + f > 0:
                out.append(t / (t + f))
                continue
        rec = sub[S.RECALL].to_numpy(dtype=float)
        if rec.size and np.nanmax(rec) >= 1.0:
            # the all-positive point has recall 1 and the smallest precision there
            out.append(float(np.nanmin(sub[S.PRECISION].to_numpy(dtype=float)[rec >= 1.0])))
    return out


def _plot_micro(ax, x, y, legend):
    """The pooled (micro-average) curve of a multiclass frame: black, dashed, thick."""
    ax.plot(x, y, color="black", ls="--", lw=2.2, label="micro-average" if legend else None)
    return 1


def _note_macro(ax, macro, legend):
    """A legend entry for the macro average (a number, or a one-row ``auc`` frame)."""
    if macro is None:
        return 0
    if isinstance(macro, pd.DataFrame):
        if S.AUC not in macro.columns or len(macro) != 1:
            raise ValueError(
                "macro= takes a number or the one-row frame of auc(..., average='macro')"
            )
        macro = float(macro[S.AUC].iloc[0])
    ax.plot([], [], ls="none", label=f"macro-average AUC {float(macro):.3f}" if legend else None)
    return 1


class _Kind(NamedTuple):
    """What differs between drawing PR and ROC curves (:func:`_plot_curves`)."""

    curve: str
    func: str
    columns: list
    hint: str
    hull_hint: str
    micro_hint: str
    hull_label: str  # legend of a hull line with one curve ("... hull" with keys)
    hull_suffix: str
    hull_style: dict
    title: str
    xlabel: str
    ylabel: str


_PR = _Kind(
    "pr",
    "plot_pr",
    [S.RECALL, S.PRECISION],
    "Pass the output of prroc_numba.pr_curve (or interpolate/bootstrap_curve).",
    "hull= takes the output of pr_curve(..., hull=True).",
    "micro= takes pr_curve(..., multiclass='ovr', average='micro').",
    "achievable",
    "achievable",
    {},
    "Precision-recall",
    "recall",
    "precision",
)


_ROC = _Kind(
    "roc",
    "plot_roc",
    [S.FPR, S.TPR],
    "Pass the output of prroc_numba.roc_curve.",
    "hull= takes the output of roc_curve(..., hull=True).",
    "micro= takes roc_curve(..., multiclass='ovr', average='micro').",
    "convex hull",
    "hull",
    {"marker": "o", "ms": 3},
    "ROC",
    "false positive rate",
    "true positive rate",
)


def _plot_curves(
    kind,
    frame,
    *,
    ax,
    hue,
    hull,
    auc,
    label,
    legend,
    micro,
    macro,
    operating_points,
    partial,
    kwargs,
    xy,
    no_skill,
    before=None,
    partial_focus="fpr",
):
    """The drawing of :func:`plot_pr` and :func:`plot_roc`: one line per curve (``xy``
    gives its points; ``main=False`` for a hull), hulls dashed, the multiclass micro
    curve and macro note, the no-skill line (``no_skill(keys)``: prevalences, True,
    or None), operating points and the partial range; ``before(ax)`` draws first.
    """
    _require(frame, kind.columns, kind.func, kind.hint)
    ax = _axes(ax)
    keys = _key_columns(frame, hue)
    curves = _curves(frame, keys)
    suffixes = _auc_suffixes(auc, keys, curves)
    hull_groups = {}
    if hull is not None:
        _require(hull, kind.columns, kind.func, kind.hull_hint)
        hull_groups = dict(_groups(hull, [k for k in keys if k in hull.columns]))
    if before is not None:
        before(ax)
    n_labels = 0
    for key, sub, color in curves:
        kw = _line_style(kwargs, color, 1.5)
        text = _legend_text(label, key, suffixes, len(curves) == 1)
        ax.plot(*xy(sub), label=text if legend else None, **kw)
        n_labels += text is not None
        if key in hull_groups:
            hull_text = f"{key} {kind.hull_suffix}" if key is not None else kind.hull_label
            ax.plot(
                *xy(hull_groups[key], main=False),
                color=kw["color"],
                ls="--",
                lw=kw["lw"],
                **kind.hull_style,
                label=hull_text if legend else None,
            )
            n_labels += 1
    if micro is not None:
        _require(micro, kind.columns, kind.func, kind.micro_hint)
        n_labels += _plot_micro(ax, *xy(micro, main=False), legend)
    n_labels += _note_macro(ax, macro, legend)
    n_labels += _draw_no_skill(ax, kind.curve, no_skill(keys), legend)
    if operating_points is not None:
        add_operating_points(
            operating_points,
            ax=ax,
            curve=kind.curve,
            colors={key: c for key, _, c in curves},
            hue=[k for k in keys if k in operating_points.columns],
        )
    if partial is not None:
        add_partial_range(ax, partial, curve=kind.curve, partial_focus=partial_focus)
    ax.set_title(ax.get_title() or kind.title)
    return _finish(ax, kind.xlabel, kind.ylabel, legend, n_labels)


def _fold_means(kind, folds, fold, band, keys):
    """``(frame, what)``: the fold-averaged curves with ``ci_low`` / ``ci_high`` to draw
    -- the ``"mean"`` rows of ``band``, or :func:`prroc_numba.average_curves`' mean
    +- 1 sd across folds -- and their legend text.
    """
    from ..grids import average_curves  # on first use: importing the plots stays light

    if band is not None:
        _require(
            band,
            kind.columns + [fold, S.CI_LOW, S.CI_HIGH],
            kind.func,
            "band= takes bootstrap_curve(..., fold=...) output (its 'mean' rows are drawn).",
        )
        return band[band[fold] == "mean"], "fold mean and band"
    avg = average_curves(
        folds, grid=201, fold=fold, by=keys or None, space=kind.curve, quantiles=[]
    )
    y_col = kind.columns[1]
    avg[S.CI_LOW] = np.clip(avg[y_col] - avg[S.SD], 0.0, 1.0)
    avg[S.CI_HIGH] = np.clip(avg[y_col] + avg[S.SD], 0.0, 1.0)
    return avg, "mean +- 1 sd across folds"


def _plot_folds(kind, frame, fold, band, *, ax, hue, legend, kwargs, xy, no_skill):
    """Cross-validation folds (``fold=`` of :func:`plot_pr` / :func:`plot_roc`): each
    fold's curve thin, the fold-averaged curve bold with its band (:func:`_fold_means`).
    """
    _require(frame, kind.columns + [fold], kind.func, kind.hint)
    ax = _axes(ax)
    folds = frame[~frame[fold].isin(["mean", "pooled"])]
    keys = [k for k in _key_columns(frame, hue) if k != fold]
    avg, what = _fold_means(kind, folds, fold, band, keys)
    mean_groups = dict(_groups(avg, [k for k in keys if k in avg.columns]))
    n_labels = 0
    for key, sub, color in _curves(folds, keys):
        kw = _line_style(kwargs, color, 2.5)
        for i, (_, one) in enumerate(sub.groupby(fold, sort=False)):
            first = legend and i == 0
            text = (f"{key}: folds" if key is not None else "folds") if first else None
            ax.plot(*xy(one), color=kw["color"], lw=0.8, alpha=0.45, label=text)
            n_labels += first
        m = mean_groups.get(key)
        if m is not None:
            text = f"{key}: {what}" if key is not None else what
            _band_line(ax, m, kind.columns, S.CI_LOW, S.CI_HIGH, 0.2, text if legend else None, kw)
            n_labels += bool(legend)
    n_labels += _draw_no_skill(ax, kind.curve, no_skill(keys), legend)
    ax.set_title(ax.get_title() or kind.title)
    return _finish(ax, kind.xlabel, kind.ylabel, legend, n_labels)


def _draw(kind, frame, fold, band, xy, no_skill, fold_no_skill, common, curves, extras):
    """What :func:`plot_pr` and :func:`plot_roc` draw once their options are read: the
    folds (``fold``) or the curves with everything over them.
    """
    if fold is not None:
        return _plot_folds(kind, frame, fold, band, xy=xy, no_skill=fold_no_skill, **common)
    return _plot_curves(kind, frame, xy=xy, no_skill=no_skill, **common, **curves, **extras)


@_public
def plot_pr(
    frame: pd.DataFrame,
    *,
    connect: str = "curve",
    ax: Axes | None = None,
    hue: str | Sequence[str] | None = None,
    hull: bool | None = None,
    auc: pd.DataFrame | None = None,
    baseline: bool | float | None = True,
    iso_f1: bool | Sequence[float] = False,
    label: str | ArrayLike | None = None,
    legend: bool = True,
    max_points: int = 200_000,
    micro: pd.DataFrame | None = None,
    macro: float | pd.DataFrame | None = None,
    operating_points: pd.DataFrame | None = None,
    partial: tuple[float, float] | None = None,
    fold: str | None = None,
    band: pd.DataFrame | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot precision-recall curves from a tidy frame, one line per curve.

    Parameters
    ----------
    frame : DataFrame
        Key columns, then at least ``recall`` and ``precision`` (e.g.
        :func:`prroc_numba.pr_curve`'s output; with ``tp`` and ``fp`` for the exact
        interpolation).
    ax : matplotlib Axes, default=None
        Draw into these axes; a new figure when None.
    hue : str or list of str, default=None
        Column(s) whose values pick the colour; default: all key columns (every column
        that is not a value column such as ``recall`` or ``tp``).
    micro : DataFrame, default=None
        Multiclass: the pooled curve, ``pr_curve(..., multiclass="ovr",
        average="micro")`` (ROC: ``roc_curve``), drawn black and dashed over the
        per-class curves (one colour per ``class``).
    macro : float or DataFrame, default=None
        Multiclass: the macro-average area (a number or ``auc(..., average="macro")``),
        shown in the legend.
    connect : {"curve", "line", "step"}, default="curve"
        How points are joined. ``"curve"``: the correct PR interpolation (Davis &
        Goadrich 2006: TP and FP grow together linearly between points), computed from
        ``tp`` and ``fp`` (straight lines when the frame lacks them); ``"line"``:
        straight segments in PR space (over-optimistic; to compare); ``"step"``: the
        average-precision steps.
    hull : DataFrame, default=None
        An achievable-PR-curve frame (``pr_curve(..., hull=True)``), drawn dashed over
        each curve in its colour.
    auc : DataFrame, default=None
        An :func:`prroc_numba.auc` frame with the same keys: its values go in the legend.
    baseline : bool or float, default=True
        The no-skill line at the prevalence (read from each curve's last point, where
        everything is predicted positive), or at the given value; False for none.
    iso_f1 : bool or sequence of float, default=False
        Iso-F1 lines (True: 0.2, 0.4, 0.6, 0.8).
    {label}
    max_points : int, default=200000
        Upper bound on the points drawn per curve by ``connect="curve"``.
    operating_points : DataFrame, default=None
        An :func:`prroc_numba.operating_points` frame with the same keys: each point
        marked in its curve's colour, with interval bars when it has them (see
        :func:`add_operating_points`).
    partial : (float, float), default=None
        Shade this recall range (the range of a partial area).
    {folds}
        PR curves are averaged in count space.
    {band}
    **kwargs
        Passed to ``Axes.plot`` (e.g. ``lw``, ``alpha``, ``color``).

    {returns}
    >>> import prroc_numba as prn
    >>> from prroc_numba.plot import plot_pr
    >>> pts = prn.pr_curve(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0])
    >>> ax = plot_pr(pts, iso_f1=True)
    >>> ax.get_xlabel()
    'recall'
    """
    if connect not in _CONNECT:
        raise ValueError(f"connect must be one of {_CONNECT}, got {connect!r}")

    def draw_iso_f1(ax):
        add_iso_f1(ax, levels=(0.2, 0.4, 0.6, 0.8) if iso_f1 is True else iso_f1)

    def prevalences(keys):
        if baseline is False or baseline is None:
            return None
        return _prevalences(frame, keys) if baseline is True else [float(baseline)]

    def xy(sub, main=True):  # hulls and the micro curve: always the exact curve
        return _pr_curve_xy(sub, connect if main else "curve", max_points)

    return _draw(
        _PR,
        frame,
        fold,
        band,
        xy,
        prevalences,
        # with folds, baseline=True draws no line (the folds differ in prevalence)
        prevalences if baseline is not True else lambda keys: None,
        dict(ax=ax, hue=hue, legend=legend, kwargs=kwargs),
        dict(hull=hull, auc=auc, label=label, micro=micro, macro=macro),
        dict(
            operating_points=operating_points,
            partial=partial,
            before=None if iso_f1 is False else draw_iso_f1,
        ),
    )


@_public
def plot_roc(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    hue: str | Sequence[str] | None = None,
    hull: bool | None = None,
    auc: pd.DataFrame | None = None,
    diagonal: bool = True,
    label: str | ArrayLike | None = None,
    legend: bool = True,
    micro: pd.DataFrame | None = None,
    macro: float | pd.DataFrame | None = None,
    operating_points: pd.DataFrame | None = None,
    partial: tuple[float, float] | None = None,
    partial_focus: str = "fpr",
    fold: str | None = None,
    band: pd.DataFrame | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot ROC curves from a tidy frame, one line per curve.

    Points are joined by straight lines, which is correct in ROC space.

    Parameters
    ----------
    frame : DataFrame
        Key columns, then at least ``fpr`` and ``tpr`` (e.g.
        :func:`prroc_numba.roc_curve`'s output).
    ax : matplotlib Axes, default=None
    hue : str or list of str, default=None
        Column(s) that pick the colour; default: all key columns.
    hull : DataFrame, default=None
        A ROC convex hull frame (``roc_curve(..., hull=True)``), drawn dashed in each
        curve's colour.
    auc : DataFrame, default=None
        An :func:`prroc_numba.auc` frame (``curve="roc"``) whose values go in the legend.
    diagonal : bool, default=True
        The no-skill diagonal.
    micro, macro : DataFrame or float, default=None
        Multiclass: the pooled curve (``roc_curve(..., multiclass="ovr",
        average="micro")``, drawn black and dashed) and the macro-average AUC (shown in
        the legend); see :func:`plot_pr`.
    {label}
    operating_points : DataFrame, default=None
        An :func:`prroc_numba.operating_points` frame: each point marked at
        (``fpr``, ``recall``) in its curve's colour, with interval bars when present.
    partial : (float, float), default=None
        Shade this FPR range (TPR range with ``partial_focus="tpr"``).
    partial_focus : {"fpr", "tpr"}, default="fpr"
    {folds}
        TPR is averaged at each FPR.
    {band}
    **kwargs
        Passed to ``Axes.plot``.

    {returns}
    >>> import prroc_numba as prn
    >>> from prroc_numba.plot import plot_roc
    >>> pts = prn.roc_curve(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0])
    >>> ax = plot_roc(pts)
    >>> ax.get_ylabel()
    'true positive rate'
    """

    def roc_xy(sub, main=True):
        return sub[S.FPR].to_numpy(float), sub[S.TPR].to_numpy(float)

    def no_skill(keys):
        return True if diagonal else None

    return _draw(
        _ROC,
        frame,
        fold,
        band,
        roc_xy,
        no_skill,
        no_skill,
        dict(ax=ax, hue=hue, legend=legend, kwargs=kwargs),
        dict(hull=hull, auc=auc, label=label, micro=micro, macro=macro),
        dict(operating_points=operating_points, partial=partial, partial_focus=partial_focus),
    )
