"""What every plot shares: matplotlib on first use, checks of the frame, the curves of a
frame (key columns, groups, colours), legend text and the axes' finish.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .. import _schema as S
from .._calls import checked
from .._optional import optional

# Columns that hold values, not keys: everything else in a frame is a key column.
_VALUE_COLUMNS = S.VALUE_COLUMNS
_QUANTILE = re.compile(S.QUANTILE_PATTERN)  # average_curves' quantile columns, e.g. q0.025

# shared blocks of the plots' docstrings (``    {name}`` alone on a line, see :func:`_doc`)
_DOCS = {
    "returns": """    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")""",
    "folds": """    fold : str, default=None
        Cross-validation folds: the fold column of ``frame`` (e.g. the curve's
        ``fold=`` output; its ``"pooled"`` rows are not drawn). Each fold's curve is
        drawn thin and the fold-averaged curve bold with a band: the ``"mean"`` rows
        of ``band``, or without it the mean +- 1 sd across folds
        (:func:`prroc_numba.average_curves` with ``fold=``).""",
    "band": """    band : DataFrame, default=None
        With ``fold``: a :func:`prroc_numba.bootstrap_curve` frame with ``fold=``
        (``band="pointwise"`` or ``"simultaneous"``), whose ``"mean"`` rows give the
        averaged curve and its band.""",
    "label": """    label : str, default=None
        Legend text for the curves (prefixed to the key values when there are several).
    legend : bool, default=True""",
}


def _doc(f):
    """Put the blocks of ``_DOCS`` in place of their ``    {name}`` lines in ``f.__doc__``."""
    for name, text in _DOCS.items():
        f.__doc__ = f.__doc__.replace("    {" + name + "}", text)
    return f


def _public(f):
    """A public plot: its docstring blocks filled (:func:`_doc`), its arguments checked
    by :func:`prroc_numba._calls.checked`.
    """
    return checked(_doc(f))


def _pyplot():
    """Import matplotlib.pyplot lazily with a message that says how to install it."""
    return optional("matplotlib.pyplot", "prroc_numba.plot", "plot")


def _axes(ax, figsize=(5.5, 4.5)):
    """``ax``, or the axes of a new figure of ``figsize`` when None."""
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
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


def _curves(frame, keys):
    """``[(label, sub-frame, colour)]``: the curves of ``frame`` named by ``keys``."""
    groups = _groups(frame, keys)
    return [(key, sub, c) for (key, sub), c in zip(groups, _colors(len(groups)))]


def _line_style(kwargs, color, lw=None):
    """The user's ``Axes.plot`` options with this curve's colour (and width) as defaults."""
    kw = dict(kwargs)
    kw.setdefault("color", color)
    if lw is not None:
        kw.setdefault("lw", lw)
    return kw


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
    for key, sub, _ in groups:
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


def _note(ax, text, xy, offset, color):
    """A small label at ``xy``, shifted by ``offset`` points."""
    ax.annotate(text, xy=xy, xytext=offset, textcoords="offset points", fontsize=7, color=color)


def _finish(ax, xlabel, ylabel, legend, n_labels):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend and n_labels:
        ax.legend(loc="best", fontsize=8, frameon=False)
    return ax


def _band_line(ax, frame, columns, low, high, alpha, label, kw, horizontal=False):
    """One curve of ``frame`` (``columns``: its x and y) over its band, the columns
    ``low`` to ``high``: a band of y at each x, or with ``horizontal`` of x at each y.
    """
    x_col, y_col = columns
    fill = ax.fill_betweenx if horizontal else ax.fill_between
    fill(
        frame[y_col if horizontal else x_col].to_numpy(float),
        frame[low].to_numpy(float),
        frame[high].to_numpy(float),
        color=kw["color"],
        alpha=alpha,
        lw=0,
    )
    ax.plot(frame[x_col].to_numpy(float), frame[y_col].to_numpy(float), label=label, **kw)
