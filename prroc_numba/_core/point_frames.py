"""Frames of many curves' points packed as ragged counts (:func:`pack_points`).

The frame is validated by the rules of :mod:`.points`: the packing kernel
(:func:`prroc_numba._drivers.grid.check_points`) checks every curve in one pass and
answers with a status code, which becomes the rule's message here.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from .. import _schema as S
from .._checks import positive_scalar
from .._drivers import with_ends_batch
from .._drivers.grid import check_points
from .._kernels.points import (
    BAD_FP,
    BAD_TP,
    FP_OVER,
    N_DISAGREE,
    N_UNKNOWN,
    NOT_SORTED,
    OK,
    P_DISAGREE,
    P_UNKNOWN,
    TOTALS_VARY,
    TP_OVER,
)
from .batch import lengths_to_offsets, plain
from .dataframes import to_pandas
from .points import POINTS_TOL, pr_to_counts
from .resolve import _grouping


def _frame_column(points, spec, arg):
    """Per-row float64 values of ``spec``: None, a scalar, or a column name."""
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in points.columns:
            raise ValueError(f"{arg}={spec!r} is not a column of points")
        return points[spec].to_numpy(dtype=np.float64)
    return np.full(len(points), positive_scalar(spec, arg))


def _kernel_view(a):
    """``a`` as float64, C-contiguous and flagged writeable, without copying it.

    Numba types read-only arrays (pandas copy-on-write hands out read-only views of a
    frame's columns) as another type, a second specialisation of every kernel
    (tests/test_specialisations.py). The packed points go only to kernels that read
    them (the checks of :mod:`prroc_numba._kernels.points` and the grid interpolation
    of :mod:`prroc_numba._kernels.grid`), so a writeable-flagged view of the caller's
    column does instead of a copy of 10 million rows. NEVER write into the result: it
    may be the caller's data. Memory that is read-only itself is copied.
    """
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.flags.writeable:
        return a
    view = a.view()
    try:
        view.flags.writeable = True
    except ValueError:  # no writeable base: the memory itself is read-only
        return a.copy()
    return view


def _or_empty(a):
    """Per-row totals for the kernels: an empty array when absent (one array type)."""
    return np.empty(0) if a is None else _kernel_view(a)


def pack_points(points, by, space, n_pos, n_neg, pos_neg_ratio, grid=None, hull=False):
    """Validate a tidy frame of many curves' points and lay them out as ragged counts.

    Returns ``(tp, fp, offsets, keys, P, N, open_end)``: per curve the origin, the
    points sorted by (TP, FP), and the end ``(P, N)``; keys one row per curve (sorted
    key order). With ``grid`` (float64, checked), an eighth item: the curves
    interpolated onto it (``hull``; PR or ROC by ``space``) by the checking pass itself
    when every curve is complete as given (the usual case: each curve is read once),
    else None (interpolate the returned ragged counts). Class totals come from
    ``n_pos``/``n_neg``/``pos_neg_ratio``, else from
    the rate columns next to ``tp``/``fp`` (``P = tp / recall`` or ``tp / tpr``,
    ``N = fp / fpr``, read and checked by the packing kernel); ``open_end`` is None, or
    (a PR frame without ``fpr``: N taken as each curve's largest FP, exact up to its
    last point) per curve the recall beyond which it is unknown.
    """
    points, n, by = _points_frame(points, by, space)
    kind = _points_kind(points)
    Pcol, Ncol = _class_totals(points, n_pos, n_neg, pos_neg_ratio, n)
    if by is None:
        codes, key_frame, runs = None, None, np.array([0, n], dtype=np.int64)
    else:
        codes, key_frame, runs = _grouping(points, by, n)
    read = _read_points(points, kind, space, Pcol, Ncol, partial(_where, points, key_frame))
    tp, fp, p_rate, n_rate, Pcol, Ncol, cols_used, totals_unknown = read
    where = partial(_where, points, key_frame, cols_used)
    onto = () if grid is None else (grid, hull, space == "roc")
    checked = _check_in_order(codes, runs, tp, fp, Pcol, Ncol, p_rate, n_rate, onto)
    status, row, P, N, complete, values, order, starts, tp, fp, p_rate, n_rate = checked
    if status != OK:
        _raise_bad_points(status, row, starts, order, where, cols_used, P, N)
    if totals_unknown:  # the points are valid, but P and N are not known
        raise ValueError(
            "points has 'tp' and 'fp' columns but no 'recall' (or 'tpr') column, so the "
            "class totals of each curve are unknown (the largest tp is not P when a curve "
            "stops short of recall 1); pass n_pos= and n_neg= (numbers or column names), "
            "or keep the 'recall'/'fpr' columns that pr_curve/roc_curve return"
        )
    open_end = _open_end(p_rate, n_rate, P, tp, starts, space, where, order)
    if complete:  # every curve runs from the origin to (P, N): use the input as it is
        T, Fp, off = tp, fp, starts
    else:
        T, Fp, off = with_ends_batch(starts, tp, fp, P, N)
    first = starts[:-1] if order is None else order[starts[:-1]]
    keys = (
        key_frame.iloc[first].reset_index(drop=True)
        if by is not None
        else pd.DataFrame(index=range(1))
    )
    if grid is not None:
        return T, Fp, off, keys, P, N, open_end, values
    return T, Fp, off, keys, P, N, open_end


def _points_frame(points, by, space):
    """``(points, n rows, by)``: a non-empty pandas frame and ``by`` column names (or
    None).
    """
    points = to_pandas(points, every=True)  # polars / pyarrow frames of points
    if not isinstance(points, pd.DataFrame):
        raise TypeError(
            f"points must be a pandas DataFrame (e.g. the output of pr_curve), "
            f"got {type(points).__name__}"
        )
    if space not in ("pr", "roc"):
        raise ValueError(f"space={space!r} is not known; use 'pr' or 'roc'")
    n = len(points)
    if n == 0:
        raise ValueError("points is empty; pass a frame with at least one point per curve")
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    if by is not None and not (isinstance(by, str) or all(isinstance(b, str) for b in by)):
        raise TypeError("by must be a column name or a list of column names of points")
    return points, n, by


def _points_kind(points) -> str:
    """``"counts"`` (tp, fp), ``"pr"`` (recall, precision) or ``"roc"`` (fpr, tpr)."""
    cols = set(points.columns)
    if {S.TP, S.FP} <= cols:
        return "counts"
    if {S.RECALL, S.PRECISION} <= cols:
        return "pr"
    if {S.FPR, S.TPR} <= cols:
        return "roc"
    raise ValueError(
        "points needs columns 'tp' and 'fp' (counts, as pr_curve/roc_curve return), or "
        "'recall' and 'precision', or 'fpr' and 'tpr'; it has "
        f"{', '.join(map(repr, list(points.columns)[:20]))}"
    )


def _class_totals(points, n_pos, n_neg, pos_neg_ratio, n):
    """``(P, N)`` per row from ``n_pos``/``n_neg`` or ``pos_neg_ratio`` (None, None
    when none is given).
    """
    Pcol = _frame_column(points, n_pos, "n_pos")
    Ncol = _frame_column(points, n_neg, "n_neg")
    Rcol = _frame_column(points, pos_neg_ratio, "pos_neg_ratio")
    if Rcol is not None and (Pcol is not None or Ncol is not None):
        raise ValueError("pass either n_pos= and n_neg= or pos_neg_ratio=, not both")
    if (Pcol is None) != (Ncol is None):
        raise ValueError("pass both n_pos= and n_neg= (or pos_neg_ratio=)")
    if Rcol is not None:
        Pcol, Ncol = Rcol, np.ones(n)
    for a, arg in ((Pcol, "n_pos"), (Ncol, "n_neg")):
        if a is not None and (~np.isfinite(a) | (a <= 0)).any():
            raise ValueError(f"{arg} must be finite and > 0 on every row")
    return Pcol, Ncol


def _numeric(points, col, check=True):
    """A points column as float64 (checked finite and >= 0 unless ``check`` is False:
    the packing kernel checks counts).
    """
    try:
        a = points[col].to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"points column {col!r} must be numeric") from None
    if not check:
        return a
    bad = ~np.isfinite(a) | (a < 0)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"points column {col!r} must be finite and >= 0; row {k} has {a[k]!r}")
    return a


def _where(points, key_frame, cols_used, k) -> str:
    """Row ``k`` of ``points`` named by its keys and the columns read from it."""
    keys = (
        ""
        if key_frame is None
        else ", ".join(f"{c}={plain(key_frame[c].iloc[k])!r}" for c in key_frame.columns) + ", "
    )
    return (
        f"row {k} ({keys}" + ", ".join(f"{c}={plain(points[c].iloc[k])!r}" for c in cols_used) + ")"
    )


def _read_points(points, kind, space, Pcol, Ncol, where_of):
    """``(tp, fp, p_rate, n_rate, P, N, columns read, totals unknown)``: the points as
    counts (rates scaled by the class totals), with the rate columns the packing kernel
    reads totals from when none are given; ``where_of(columns)`` names a row.
    """
    n = len(points)
    cols = set(points.columns)
    empty = np.empty(0)
    p_rate = n_rate = empty
    totals_unknown = False
    if kind == "counts":
        cols_used = [S.TP, S.FP]
        tp, fp = _numeric(points, S.TP, check=False), _numeric(points, S.FP, check=False)
        if Pcol is None:  # totals from the rates next to the counts, when there are any
            rate_cols = [c for c in (S.RECALL if S.RECALL in cols else S.TPR, S.FPR) if c in cols]
            if rate_cols and rate_cols[0] != S.FPR:
                p_rate = _numeric(points, rate_cols[0], check=False)
                n_rate = _numeric(points, S.FPR, check=False) if S.FPR in cols else empty
                cols_used = cols_used + rate_cols
            else:
                totals_unknown = True
    else:
        cols_used = [S.RECALL, S.PRECISION] if kind == "pr" else [S.FPR, S.TPR]
        where = partial(where_of, cols_used)
        x, y = _numeric(points, cols_used[0]), _numeric(points, cols_used[1])
        for a, c in ((x, cols_used[0]), (y, cols_used[1])):
            if (a > 1).any():
                k = int(np.argmax(a > 1))
                raise ValueError(f"points column {c!r} must be in [0, 1]; {where(k)}")
        needs_counts = kind == "pr" or space == "pr"
        if Pcol is None:
            if needs_counts:
                raise ValueError(
                    f"points given as {cols_used[0]}/{cols_used[1]} need the class balance "
                    f"for space={space!r}: pass n_pos= and n_neg= or pos_neg_ratio= (numbers "
                    "or column names), or give 'tp' and 'fp' columns"
                )
            Pcol, Ncol = np.ones(n), np.ones(n)
        if kind == "pr":
            tp, fp = pr_to_counts(x, y, Pcol, where)
        else:
            tp, fp = y * Pcol, x * Ncol
    tp, fp, p_rate, n_rate = (_kernel_view(a) for a in (tp, fp, p_rate, n_rate))
    return tp, fp, p_rate, n_rate, Pcol, Ncol, cols_used, totals_unknown


def _check_in_order(codes, runs, tp, fp, Pcol, Ncol, p_rate, n_rate, onto):
    """The one-pass check of every curve's points (:func:`.._drivers.check_points`),
    on the rows as they come when they are ordered by (curve, TP, FP), as pr_curve
    output is (no sort, no per-row codes), else after one sort. Returns the check's
    ``(status, row, P, N, complete, values)``, then ``order`` (None: no sort),
    ``starts`` and the (sorted) ``tp, fp, p_rate, n_rate``.
    """
    order = None
    status = NOT_SORTED
    if runs is not None:
        starts = runs
    elif codes.size < 2 or (codes[1:] >= codes[:-1]).all():
        starts = lengths_to_offsets(np.bincount(codes))
    else:
        starts = None
    if starts is not None:
        status, row, P, N, complete, values = check_points(
            starts, tp, fp, _or_empty(Pcol), _or_empty(Ncol), p_rate, n_rate, POINTS_TOL, *onto
        )
    if status == NOT_SORTED:
        if codes is None:
            codes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
        order = np.lexsort((fp, tp, codes))
        codes, tp, fp = codes[order], tp[order], fp[order]
        if Pcol is not None:
            Pcol, Ncol = Pcol[order], Ncol[order]
        p_rate = p_rate[order] if p_rate.size else p_rate
        n_rate = n_rate[order] if n_rate.size else n_rate
        starts = lengths_to_offsets(np.bincount(codes))
        status, row, P, N, complete, values = check_points(
            starts, tp, fp, _or_empty(Pcol), _or_empty(Ncol), p_rate, n_rate, POINTS_TOL, *onto
        )
    return status, row, P, N, complete, values, order, starts, tp, fp, p_rate, n_rate


def _raise_bad_points(status, row, starts, order, where, cols_used, P, N):
    """The error for a check's failing ``status`` at (sorted) ``row``."""

    def orig(i):
        return int(i) if order is None else int(order[i])

    k = orig(row)
    c = int(np.searchsorted(starts, row, side="right") - 1)
    if status in (BAD_TP, BAD_FP):
        col = S.TP if status == BAD_TP else S.FP
        raise ValueError(f"points column {col!r} must be finite and >= 0; {where(k)}")
    if status in (P_UNKNOWN, N_UNKNOWN, P_DISAGREE, N_DISAGREE):
        positives = status in (P_UNKNOWN, P_DISAGREE)
        cname, count, rname, arg = (
            ("positives", S.TP, cols_used[2], "n_pos")
            if positives
            else ("negatives", S.FP, S.FPR, "n_neg")
        )
        if status in (P_UNKNOWN, N_UNKNOWN):
            raise ValueError(
                f"the number of {cname} of the curve of {where(k)} cannot be known from "
                f"its points: no row of that curve has {rname} > 0; pass {arg}= (a "
                "number or a column name)"
            )
        raise ValueError(
            f"the rows of one curve disagree on its number of {cname} ({count} / "
            f"{rname}): {where(k)} gives another total than the row of its largest "
            f"{rname}; are several curves mixed under one key (check by=)? Or pass "
            f"{arg}= explicitly"
        )
    if status == TOTALS_VARY:
        raise ValueError(
            f"class counts differ between rows of one curve ({where(k)}); "
            "n_pos/n_neg/pos_neg_ratio must be constant within a curve"
        )
    if status == TP_OVER:
        raise ValueError(f"{where(k)} has more true positives than the curve's n_pos={P[c]:g}")
    if status == FP_OVER:
        raise ValueError(
            f"{where(k)} implies more false positives than the curve's "
            f"n_neg={N[c]:g}: its precision is below what the class balance "
            "allows at that recall"
        )
    raise ValueError(
        f"points of one curve are not one ranking: {where(k)} has more true positives "
        f"but fewer false positives than {where(orig(row - 1))}; FP must not decrease "
        "as TP grows (check the by= columns: does each key identify one curve?)"
    )


def _open_end(p_rate, n_rate, P, tp, starts, space, where, order):
    """None, or (a PR frame without ``fpr``: N is each curve's largest FP, exact up to
    its last point only) per curve the recall beyond which it is unknown.
    """
    if not (p_rate.size and not n_rate.size):
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        reach = np.where(P > 0, tp[starts[1:] - 1] / P, 1.0)
    open_end = np.where(reach >= 1.0 - POINTS_TOL, 1.0, reach)
    short = open_end < 1.0
    if space == "roc" and short.any():
        c = int(np.argmax(short))
        k = int(starts[c]) if order is None else int(order[starts[c]])
        raise ValueError(
            f"space='roc' needs the number of negatives of the curve of "
            f"{where(k)}, which stops at recall {open_end[c]:.6g}, and "
            "points has no 'fpr' column; pass n_pos= and n_neg= (numbers or column "
            "names), or the output of roc_curve"
        )
    return open_end
