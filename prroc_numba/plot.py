"""Plots of PR and ROC curves from the library's tidy frames (matplotlib, optional).

Every function takes a tidy frame as the library returns it (key columns first, then
fixed column names), draws one line per curve -- the key columns (``by`` columns and
``model``) pick the colour, or ``hue=`` names them -- and returns the matplotlib
``Axes``, so plots compose: pass ``ax=`` to overlay a hull, bands or another frame.

PR curves are drawn the way Davis & Goadrich (2006, section 4) say they must be read:
between two points, true and false positives grow together linearly, so precision is
*not* a straight line in recall. When the frame has ``tp`` and ``fp`` columns (as
:func:`prroc_numba.pr_curve` returns), :func:`plot_pr` draws that exact curve between
the points (``connect="curve"``, the default); ``connect="line"`` draws the straight,
over-optimistic segments and ``connect="step"`` the average-precision steps, to compare.

matplotlib is imported only when a function here is called (``import prroc_numba`` does
not import it); install it with ``pip install prroc-numba[plot]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

    from .ranking import RankResult

import re
from typing import NamedTuple

import numpy as np
import pandas as pd

from . import _schema as S
from ._calls import checked
from ._kernels.densify import _precision_flat_start

__all__ = [
    "add_iso_f1",
    "add_no_skill",
    "add_operating_points",
    "add_partial_range",
    "critical_difference",
    "plot_bands",
    "plot_intervals",
    "plot_power",
    "plot_pr",
    "plot_roc",
]

# Columns that hold values, not keys: everything else in a frame is a key column.
_VALUE_COLUMNS = S.VALUE_COLUMNS
_QUANTILE = re.compile(S.QUANTILE_PATTERN)  # average_curves' quantile columns, e.g. q0.025

_CONNECT = ("curve", "line", "step")


def _pyplot():
    """Import matplotlib.pyplot lazily with a message that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - exercised with a patched import
        raise ImportError(
            "prroc_numba.plot needs matplotlib, which is not installed; install the "
            "optional extra with `pip install prroc-numba[plot]` (or `pip install "
            "matplotlib`)"
        ) from err
    return plt


def _axes(ax):
    if ax is None:
        plt = _pyplot()
        _, ax = plt.subplots(figsize=(5.5, 4.5))
    else:
        _pyplot()
    return ax


def _require(frame, columns, func, hint):
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{func}() needs a DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{func}() needs the columns {columns}; the frame lacks {missing} "
            f"(columns: {list(frame.columns)}). {hint}"
        )


def _key_columns(frame, hue):
    """The columns whose values name one curve (one colour)."""
    if hue is None:
        # key columns come first in every frame of the library; the first value column
        # ends them (later unknown columns, e.g. counts of degenerate replicates, are
        # values too)
        keys = []
        for c in frame.columns:
            if c in _VALUE_COLUMNS or _QUANTILE.match(str(c)):
                break
            keys.append(c)
        return keys
    cols = [hue] if isinstance(hue, str) else list(hue)
    for c in cols:
        if c not in frame.columns:
            raise ValueError(
                f"hue={c!r} is not a column of the frame; available: {list(frame.columns)}"
            )
    return cols


def _groups(frame, keys):
    """[(label, sub-frame)] in order of first appearance (frame order kept inside)."""
    if not keys:
        return [(None, frame)]
    out = []
    for name, sub in frame.groupby(keys, sort=False, dropna=False):
        if not isinstance(name, tuple):
            name = (name,)
        if len(keys) == 1:
            label = str(name[0])
        else:
            label = ", ".join(f"{k}={v}" for k, v in zip(keys, name))
        out.append((label, sub))
    return out


def _colors(n):
    plt = _pyplot()
    cycle = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    if n <= len(cycle):
        return list(cycle[:n])
    cmap = plt.get_cmap("viridis")
    return [cmap(x) for x in np.linspace(0.0, 0.95, n)]


def _auc_suffixes(auc, keys, groups):
    """``{key: " (AUC 0.812)"}`` from an :func:`prroc_numba.auc` frame (empty when None)."""
    if auc is None:
        return {}
    if not isinstance(auc, pd.DataFrame) or S.AUC not in auc.columns:
        raise ValueError("auc= must be a frame with an 'auc' column, as prroc_numba.auc returns")
    missing = [k for k in keys if k not in auc.columns]
    if missing:
        raise ValueError(
            f"auc= frame lacks the key column(s) {missing} of the curves; compute it with "
            "the same by=/score= as the curves"
        )
    out = {}
    for key, sub in groups:
        mask = np.ones(len(auc), dtype=bool)
        for k in keys:
            mask &= (auc[k] == sub[k].iloc[0]).to_numpy()
        vals = auc.loc[mask, S.AUC]
        out[key] = f" (AUC {float(vals.iloc[0]):.3f})" if len(vals) == 1 else ""
    return out


def _legend_text(label, key, suffixes, single):
    """Legend entry of one curve: the user's label (alone when there is one curve) or the
    key values, then the AUC.
    """
    if label is not None:
        name = label if single or key is None else f"{label} {key}"
    else:
        name = key
    suffix = suffixes.get(key, "")
    if name is None:
        return f"curve{suffix}" if suffix else None
    return name + suffix


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
    # precision from the counts, the origin's being the flat start (the kernels' rule)
    prec = _precision_flat_start(all_tp, all_fp, np.array([0, all_tp.size], dtype=np.int64))
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


def _note(ax, text, xy, offset, color):
    """A small label at ``xy``, shifted by ``offset`` points."""
    ax.annotate(text, xy=xy, xytext=offset, textcoords="offset points", fontsize=7, color=color)


@checked
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
        Write ``F1=level`` at the top end of each line.
    **kwargs
        Passed to ``Axes.plot``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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
            _note(ax, f"F1={f:g}", (r[0], min(p[0], 1.0)), (2, -10), color)
    return ax


@checked
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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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


@checked
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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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
    keys = _key_columns(frame, hue)
    groups = _groups(frame, keys)
    default = _colors(len(groups))
    for (key, sub), color in zip(groups, default):
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


@checked
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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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


def _finish(ax, xlabel, ylabel, legend, n_labels):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend and n_labels:
        ax.legend(loc="best", fontsize=8, frameon=False)
    return ax


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


def _draw_no_skill(ax, kind, prev, legend):
    """The no-skill line: ``prev`` True (ROC diagonal), prevalences, or None; returns
    the number of legend entries it adds.
    """
    if prev is True:
        add_no_skill(ax, curve=kind.curve, label=legend)
        return 1
    if prev:
        add_no_skill(ax, prev, curve=kind.curve, label=legend)
        return 1
    return 0


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
    groups = _groups(frame, keys)
    colors = _colors(len(groups))
    suffixes = _auc_suffixes(auc, keys, groups)
    hull_groups = {}
    if hull is not None:
        _require(hull, kind.columns, kind.func, kind.hull_hint)
        hull_groups = dict(_groups(hull, [k for k in keys if k in hull.columns]))
    if before is not None:
        before(ax)
    n_labels = 0
    for (key, sub), color in zip(groups, colors):
        x, y = xy(sub)
        kw = dict(kwargs)
        kw.setdefault("color", color)
        kw.setdefault("lw", 1.5)
        text = _legend_text(label, key, suffixes, len(groups) == 1)
        ax.plot(x, y, label=text if legend else None, **kw)
        n_labels += text is not None
        if key in hull_groups:
            hx, hy = xy(hull_groups[key], main=False)
            hull_text = f"{key} {kind.hull_suffix}" if key is not None else kind.hull_label
            ax.plot(
                hx,
                hy,
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
    n_labels += _draw_no_skill(ax, kind, no_skill(keys), legend)
    if operating_points is not None:
        add_operating_points(
            operating_points,
            ax=ax,
            curve=kind.curve,
            colors={key: c for (key, _), c in zip(groups, colors)},
            hue=[k for k in keys if k in operating_points.columns],
        )
    if partial is not None:
        add_partial_range(ax, partial, curve=kind.curve, partial_focus=partial_focus)
    ax.set_title(ax.get_title() or kind.title)
    return _finish(ax, kind.xlabel, kind.ylabel, legend, n_labels)


def _plot_folds(kind, frame, fold, band, *, ax, hue, legend, kwargs, xy, no_skill):
    """Cross-validation folds (``fold=`` of :func:`plot_pr` / :func:`plot_roc`): each
    fold's curve thin, the fold-averaged curve bold with its band -- the ``"mean"``
    rows of ``band`` (a :func:`prroc_numba.bootstrap_curve` frame with ``fold=``), or
    without ``band`` the :func:`prroc_numba.average_curves` mean +- 1 sd across folds.
    """
    from .grids import average_curves

    _require(frame, kind.columns + [fold], kind.func, kind.hint)
    ax = _axes(ax)
    folds = frame[~frame[fold].isin(["mean", "pooled"])]
    keys = [k for k in _key_columns(frame, hue) if k != fold]
    groups = _groups(folds, keys)
    colors = _colors(len(groups))
    if band is None:
        avg = average_curves(
            folds, grid=201, fold=fold, by=keys or None, space=kind.curve, quantiles=[]
        )
        y_col = kind.columns[1]
        avg[S.CI_LOW] = np.clip(avg[y_col] - avg[S.SD], 0.0, 1.0)
        avg[S.CI_HIGH] = np.clip(avg[y_col] + avg[S.SD], 0.0, 1.0)
        what = "mean +- 1 sd across folds"
    else:
        _require(
            band,
            kind.columns + [fold, S.CI_LOW, S.CI_HIGH],
            kind.func,
            "band= takes bootstrap_curve(..., fold=...) output (its 'mean' rows are drawn).",
        )
        avg = band[band[fold] == "mean"]
        what = "fold mean and band"
    mean_groups = dict(_groups(avg, [k for k in keys if k in avg.columns]))
    n_labels = 0
    for (key, sub), color in zip(groups, colors):
        kw = dict(kwargs)
        kw.setdefault("color", color)
        for i, (_, one) in enumerate(sub.groupby(fold, sort=False)):
            x, y = xy(one)
            first = legend and i == 0
            ax.plot(
                x,
                y,
                color=kw["color"],
                lw=0.8,
                alpha=0.45,
                label=(f"{key}: folds" if key is not None else "folds") if first else None,
            )
            n_labels += first
        m = mean_groups.get(key)
        if m is None:
            continue
        x = m[kind.columns[0]].to_numpy(float)
        ax.fill_between(
            x,
            m[S.CI_LOW].to_numpy(float),
            m[S.CI_HIGH].to_numpy(float),
            color=kw["color"],
            alpha=0.2,
            lw=0,
        )
        kw.setdefault("lw", 2.5)
        text = f"{key}: {what}" if key is not None else what
        ax.plot(x, m[kind.columns[1]].to_numpy(float), label=text if legend else None, **kw)
        n_labels += bool(legend)
    n_labels += _draw_no_skill(ax, kind, no_skill(keys), legend)
    ax.set_title(ax.get_title() or kind.title)
    return _finish(ax, kind.xlabel, kind.ylabel, legend, n_labels)


@checked
def plot_pr(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    hue: str | Sequence[str] | None = None,
    connect: str = "curve",
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
    label : str, default=None
        Legend text for the curves (prefixed to the key values when there are several).
    legend : bool, default=True
    max_points : int, default=200000
        Upper bound on the points drawn per curve by ``connect="curve"``.
    operating_points : DataFrame, default=None
        An :func:`prroc_numba.operating_points` frame with the same keys: each point
        marked in its curve's colour, with interval bars when it has them (see
        :func:`add_operating_points`).
    partial : (float, float), default=None
        Shade this recall range (the range of a partial area).
    fold : str, default=None
        Cross-validation folds: the fold column of ``frame`` (e.g. ``pr_curve(...,
        fold=...)`` output; its ``"pooled"`` rows are not drawn). Each fold's curve is
        drawn thin and the fold-averaged curve bold with a band: the ``"mean"`` rows
        of ``band``, or without it the mean +- 1 sd across folds
        (:func:`prroc_numba.average_curves` with ``fold=``), PR curves averaged in count space.
    band : DataFrame, default=None
        With ``fold``: a :func:`prroc_numba.bootstrap_curve` frame with ``fold=``
        (``band="pointwise"`` or ``"simultaneous"``), whose ``"mean"`` rows give the
        averaged curve and its band.
    **kwargs
        Passed to ``Axes.plot`` (e.g. ``lw``, ``alpha``, ``color``).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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

    if fold is not None:
        return _plot_folds(
            _PR,
            frame,
            fold,
            band,
            ax=ax,
            hue=hue,
            legend=legend,
            kwargs=kwargs,
            xy=lambda sub: _pr_curve_xy(sub, connect, max_points),
            no_skill=prevalences if baseline is not True else lambda keys: None,
        )
    return _plot_curves(
        _PR,
        frame,
        ax=ax,
        hue=hue,
        hull=hull,
        auc=auc,
        label=label,
        legend=legend,
        micro=micro,
        macro=macro,
        operating_points=operating_points,
        partial=partial,
        kwargs=kwargs,
        xy=lambda sub, main=True: _pr_curve_xy(sub, connect if main else "curve", max_points),
        before=None if iso_f1 is False else draw_iso_f1,
        no_skill=prevalences,
    )


@checked
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

    Parameters
    ----------
    frame : DataFrame
        Key columns, then at least ``fpr`` and ``tpr`` (e.g.
        :func:`prroc_numba.roc_curve`'s output). Points are joined by straight lines,
        which is correct in ROC space.
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
    label : str, default=None
        Legend text for the curves (prefixed to the key values when there are several).
    legend : bool, default=True
    operating_points : DataFrame, default=None
        An :func:`prroc_numba.operating_points` frame: each point marked at
        (``fpr``, ``recall``) in its curve's colour, with interval bars when present.
    partial : (float, float), default=None
        Shade this FPR range (TPR range with ``partial_focus="tpr"``).
    partial_focus : {"fpr", "tpr"}, default="fpr"
    fold : str, default=None
        Cross-validation folds: the fold column of ``frame`` (e.g. ``roc_curve(...,
        fold=...)`` output; its ``"pooled"`` rows are not drawn). Each fold's curve is
        drawn thin and the fold-averaged curve bold with a band: the ``"mean"`` rows
        of ``band``, or without it the mean +- 1 sd across folds
        (:func:`prroc_numba.average_curves` with ``fold=``), TPR averaged at each FPR.
    band : DataFrame, default=None
        With ``fold``: a :func:`prroc_numba.bootstrap_curve` frame with ``fold=``
        (``band="pointwise"`` or ``"simultaneous"``), whose ``"mean"`` rows give the
        averaged curve and its band.
    **kwargs
        Passed to ``Axes.plot``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import prroc_numba as prn
    >>> from prroc_numba.plot import plot_roc
    >>> pts = prn.roc_curve(score=[0.9, 0.8, 0.7, 0.4, 0.2], label=[1, 0, 1, 0, 0])
    >>> ax = plot_roc(pts)
    >>> ax.get_ylabel()
    'true positive rate'
    """

    def roc_xy(sub, main=True):
        return sub[S.FPR].to_numpy(float), sub[S.TPR].to_numpy(float)

    if fold is not None:
        return _plot_folds(
            _ROC,
            frame,
            fold,
            band,
            ax=ax,
            hue=hue,
            legend=legend,
            kwargs=kwargs,
            xy=roc_xy,
            no_skill=lambda keys: True if diagonal else None,
        )
    return _plot_curves(
        _ROC,
        frame,
        ax=ax,
        hue=hue,
        hull=hull,
        auc=auc,
        label=label,
        legend=legend,
        micro=micro,
        macro=macro,
        operating_points=operating_points,
        partial=partial,
        kwargs=kwargs,
        xy=roc_xy,
        no_skill=lambda keys: True if diagonal else None,
        partial_focus=partial_focus,
    )


@checked
def plot_bands(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    hue: str | Sequence[str] | None = None,
    low: str = "ci_low",
    high: str = "ci_high",
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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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
    keys = _key_columns(frame, hue)
    groups = _groups(frame, keys)
    colors = _colors(len(groups))
    n_labels = 0
    for (label, sub), color in zip(groups, colors):
        sub = sub.sort_values(y_col if horizontal else x_col, kind="stable")
        x = sub[x_col].to_numpy(float)
        kw = dict(kwargs)
        kw.setdefault("color", color)
        kw.setdefault("lw", 1.5)
        fill = ax.fill_betweenx if horizontal else ax.fill_between
        fill(
            sub[y_col if horizontal else x_col].to_numpy(float),
            sub[low].to_numpy(float),
            sub[high].to_numpy(float),
            color=kw["color"],
            alpha=alpha,
            lw=0,
        )
        ax.plot(x, sub[y_col].to_numpy(float), label=label if legend else None, **kw)
        n_labels += label is not None
    if baseline is not None:
        add_no_skill(ax, baseline, curve="pr" if y_col == S.PRECISION else "roc", label=legend)
        n_labels += 1
    return _finish(ax, xlabel, ylabel, legend, n_labels)


@checked
def plot_intervals(
    frame: pd.DataFrame,
    *,
    ax: Axes | None = None,
    estimate: str | None = None,
    label: str | ArrayLike | None = None,
    reference: float | None = None,
    sort: bool = True,
    **kwargs: Any,
) -> Axes:
    """Forest plot: one row per curve (or pair) with its estimate and interval.

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
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_intervals
    >>> boot = pd.DataFrame({"model": ["a", "b"], "estimate": [.6, .7],
    ...                      "ci_low": [.5, .65], "ci_high": [.7, .75]})
    >>> ax = plot_intervals(boot)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b']
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
    if sort:
        df = df.sort_values(estimate, kind="stable").reset_index(drop=True)
    if label is None and {S.MODEL_A, S.MODEL_B} <= set(df.columns):
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
    ax.set_xlabel(estimate if estimate != S.DIFF else "difference (a - b)")
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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
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
    if ax is None:
        plt = _pyplot()
        k0 = len(ranks)
        _, ax = plt.subplots(figsize=(7.0, 1.6 + 0.28 * ((k0 + 1) // 2)))
    else:
        _pyplot()
    names = ranks[S.MODEL].astype(str).tolist()
    r = ranks[S.RANK].to_numpy(float)
    k = len(r)
    cd = float(result.summary[S.CRITICAL_DIFFERENCE])
    lo, hi = 1.0, float(max(k, np.ceil(r.max())))
    # the rank axis on top, ticks at whole ranks
    ax.plot([lo, hi], [0, 0], color="k", lw=1)
    for t in range(int(lo), int(hi) + 1):
        ax.plot([t, t], [0, 0.08], color="k", lw=1)
        ax.text(t, 0.14, str(t), ha="center", va="bottom", fontsize=9)
    # the critical difference bar above the axis
    ax.plot([lo, lo + cd], [0.55, 0.55], color="k", lw=1.5)
    for x in (lo, lo + cd):
        ax.plot([x, x], [0.5, 0.6], color="k", lw=1.5)
    ax.text(lo + cd / 2, 0.62, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    # models: the better half to the left, the rest to the right
    half = (k + 1) // 2
    step = 0.32
    for i in range(k):
        if i < half:
            y, x_text, ha = -(i + 1) * step - 0.25, lo - 0.15, "right"
        else:
            y, x_text, ha = -(k - i) * step - 0.25, hi + 0.15, "left"
        ax.plot([r[i], r[i], x_text], [0, y, y], color="0.3", lw=1)
        ax.text(x_text, y, names[i], ha=ha, va="center", fontsize=10)
        ax.text(
            r[i],
            y + 0.02,
            f"{r[i]:.2f}",
            ha="left" if i < half else "right",
            va="bottom",
            fontsize=7,
            color="0.4",
        )
    # groups with no significant difference
    for n, (i, j) in enumerate(_cliques(r, cd)):
        y = -0.1 - 0.08 * n
        ax.plot([r[i] - 0.03, r[j] + 0.03], [y, y], color="k", lw=3.5, solid_capstyle="round")
    ax.set_xlim(lo - 1.2, hi + 1.2)
    ax.set_ylim(-(half + 1) * step - 0.25, 0.95)
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def plot_power(
    frame: pd.DataFrame, *, ax: Axes | None = None, target: float | None = 0.8, **kwargs: Any
) -> Axes:
    """Power against sample size, from :func:`prroc_numba.power` with ``n=``.

    Draws the simulated power at each candidate size with a band of two Monte Carlo
    standard errors, and a dashed line at the ``target`` power.

    Parameters
    ----------
    frame : DataFrame
        ``power(..., n=[...])`` output (``n``, ``power``, ``se``).
    ax : matplotlib Axes, default=None
    target : float, default=0.8
        A horizontal reference line (None: none).
    **kwargs
        Passed to ``Axes.plot``.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from prroc_numba.plot import plot_power
    >>> sim = pd.DataFrame({"n": [50, 100, 200], "power": [.3, .6, .9],
    ...                     "se": [.03, .03, .02]})
    >>> ax = plot_power(sim)
    >>> ax.get_xlabel()
    'sample size n'
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
    kwargs.setdefault("color", _colors(1)[0])
    kwargs.setdefault("marker", "o")
    (line,) = ax.plot(x, p, **kwargs)
    ax.fill_between(
        x, np.clip(p - 2 * se, 0, 1), np.clip(p + 2 * se, 0, 1), color=line.get_color(), alpha=0.2
    )
    if target is not None:
        ax.axhline(target, color="0.5", ls="--", lw=1)
    ax.set_xlabel("sample size n")
    ax.set_ylabel("power")
    ax.set_ylim(0, 1.02)
    return ax
