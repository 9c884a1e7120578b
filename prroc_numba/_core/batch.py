"""The ragged batch every kernel call starts from, and the names of its curves.

:class:`Batch` is validated input laid out curve by curve (see
:mod:`prroc_numba._kernels` for the layout); :class:`CurveKeys` is the one home of a
curve's name: one row of key columns per curve (``by`` columns, then ``model``), how
curves group into models, and how a curve is named in messages and warnings
(:func:`warn_undefined`, :func:`warn_undefined_auc`). :func:`lengths_to_offsets` is the
one way to build the layout's offsets.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._drivers import offsets_from_counts
from .._schema import CLASS_A
from .._warnings import UndefinedMetricWarning

#: curves named in one warning or message; the rest are counted
SHOWN = 5


def plain(v):
    """A numpy scalar as the plain Python value it holds (others as they are)."""
    return v.item() if isinstance(v, np.generic) else v


def describe_row(row) -> str:
    """``k1='a', k2=3`` for a row of key values (numpy scalars shown as plain values)."""
    return ", ".join(f"{k}={plain(row[k])!r}" for k in row.index)


@dataclass(frozen=True)
class CurveKeys:
    """The names of a batch's curves.

    Attributes
    ----------
    keys : DataFrame
        One row per curve with the key columns (``by`` columns, then ``model``); no
        columns for a single unnamed curve.
    n_models : int
        Curves per group: curve ``c`` is model ``c % n_models`` of group
        ``c // n_models``.
    """

    keys: pd.DataFrame
    n_models: int = 1

    @property
    def n_curves(self) -> int:
        return len(self.keys)

    @property
    def names(self) -> list:
        """The key columns' names."""
        return list(self.keys.columns)

    @property
    def group_offsets(self) -> np.ndarray:
        """Curve groups as offsets over the groups, ``arange(n_groups + 1)``: what the
        resampling front ends read from a batch to count its groups.
        """
        return np.arange(self.n_curves // self.n_models + 1, dtype=np.int64)

    def describe(self, c: int) -> str:
        """Human-readable name of curve ``c`` for messages, e.g. ``model='m1'``."""
        if self.keys.shape[1] == 0:
            return "the curve"
        return describe_row(self.keys.iloc[c])


@dataclass(frozen=True)
class Batch:
    """A validated ragged batch of curves.

    Attributes
    ----------
    values : float64 (n_values,)
        Scores, curve by curve: ``values[offsets[c]:offsets[c + 1]]``.
    offsets : int64 (n_curves + 1,)
    pos, neg : float64 (n_rows,)
        Positive / negative mass of each label row (``weight*label``,
        ``weight*(1-label)``), rows sorted by group.
    group_offsets : int64 (n_groups + 1,)
        Label rows of group ``g`` are ``[group_offsets[g]:group_offsets[g + 1]]``.
    curve_group : int64 (n_curves,)
        The group of each curve; the models of a group (wide input) share its rows.
    keys : DataFrame
        One row per curve with the key columns (``by`` columns, then ``model``);
        :attr:`curves` names them.
    n_models : int
        Number of score columns; curve ``c`` is model ``c % n_models`` of group
        ``c // n_models``.
    rows : int64 (n_rows,) or None
        The input row number of each label row (rows sorted by group, zero-weight rows
        dropped); the Poisson bootstrap keys its counts on it. None: ``arange(n_rows)``.
    multi : Rows or None
        Multiclass/multilabel input (see :mod:`prroc_numba._core.multiclass`):
        "groups" are then the curves' own label blocks, and ``multi`` says which
        original rows they hold, for the resampling, and how curves reduce to output
        rows.
    """

    values: np.ndarray
    offsets: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    group_offsets: np.ndarray
    curve_group: np.ndarray
    keys: pd.DataFrame
    n_models: int
    #: input row of each label row (after zero-weight rows are dropped and rows are
    #: sorted by group); None when the label rows are the input rows in input order
    rows: np.ndarray | None = None
    #: number of input rows (before zero-weight rows are dropped)
    n_input: int = 0
    #: multiclass / multilabel input: each curve's own label rows and how they map back
    #: to the original rows (:class:`prroc_numba._core.multiclass.Rows`); None otherwise
    multi: object = None
    #: the number of positives (int64, one per curve) when ``values`` already holds each
    #: curve's positives' scores ascending, then its negatives' ascending, every row of
    #: unit mass (the class-split sorted layout of :mod:`prroc_numba._core.presort`,
    #: which then sorts nothing); None otherwise
    split_npos: np.ndarray | None = None
    #: integer score columns beyond 2**53, read as their dense ranks: each column's
    #: sorted distinct integers (None for a column read as floats); None when no column
    #: was ranked (:mod:`prroc_numba._core.exact_ints`)
    score_levels: tuple | None = None

    @property
    def n_curves(self) -> int:
        return self.offsets.size - 1

    @property
    def label_start(self) -> np.ndarray:
        return self.group_offsets[self.curve_group]

    @property
    def curves(self) -> CurveKeys:
        """The names of the curves (:class:`CurveKeys`)."""
        return CurveKeys(self.keys, self.n_models)

    @property
    def key_names(self) -> list:
        return self.curves.names

    def totals(self):
        """Per-curve total positive and negative mass ``(P, N)``, float64 (n_curves,)."""
        P = np.add.reduceat(self.pos, self.group_offsets[:-1]) if self.pos.size else self.pos
        N = np.add.reduceat(self.neg, self.group_offsets[:-1]) if self.neg.size else self.neg
        return P[self.curve_group], N[self.curve_group]

    def describe(self, c: int) -> str:
        """Human-readable name of curve ``c`` for messages, e.g. ``model='m1'``."""
        return self.curves.describe(c)


def lengths_to_offsets(lengths) -> np.ndarray:
    """CSR offsets (int64, length ``len(lengths) + 1``) from per-curve lengths: the
    ragged layout's one offsets builder (:func:`prroc_numba._kernels.layout._offsets_from_counts`,
    which the kernels call too).
    """
    return offsets_from_counts(np.require(lengths, np.int64, ["C", "W"]))


def row_ids(batch) -> np.ndarray:
    """Input row number of each label row of ``batch`` (int64; see ``Batch.rows``)."""
    return np.arange(batch.pos.size, dtype=np.int64) if batch.rows is None else batch.rows


# ------------------------------------------------------------------------- warnings


def some_names(curves, idx) -> str:
    """The names of curves ``idx`` (at most :data:`SHOWN`, then how many more);
    ``curves``: a :class:`Batch` or :class:`CurveKeys` (anything with ``describe``).
    """
    names = "; ".join(curves.describe(int(c)) for c in idx[:SHOWN])
    return names + (f" and {len(idx) - SHOWN} more" if len(idx) > SHOWN else "")


def warn_undefined(curves, bad: np.ndarray, what: str, stacklevel: int = 3) -> None:
    """Warn once, naming up to five curves (:func:`some_names`), that ``what`` is NaN
    for the ``bad`` curves.
    """
    idx = np.flatnonzero(bad)
    if idx.size == 0:
        return
    warnings.warn(
        f"{what} for {some_names(curves, idx)}", UndefinedMetricWarning, stacklevel=stacklevel
    )


def undefined_auc(curve: str) -> str:
    """The message of an undefined AUC: PR without positives, ROC (and PRG) without
    positives or without negatives.
    """
    both = curve in ("roc", "prg")
    return (
        f"AUC-{curve.upper()} is undefined (no positives"
        + (" or no negatives)" if both else ")")
        + ": NaN"
    )


def warn_undefined_auc(batch, curve: str, stacklevel: int = 3, totals=None) -> np.ndarray:
    """The curves whose AUC is undefined (PR: no positives; ROC: no positives or no
    negatives), warned about once (:class:`~prroc_numba.UndefinedMetricWarning`);
    returns their mask. ``stacklevel`` as for :func:`warn_undefined` called from the
    caller; ``batch``: a :class:`Batch` or :class:`CurveKeys`; ``totals``: the curves'
    ``(P, N)`` when not ``batch.totals()``.
    """
    P, N = batch.totals() if totals is None else totals
    both = curve in ("roc", "prg")
    bad = (P <= 0) | (N <= 0) if both else P <= 0
    shown = bad
    multi = getattr(batch, "multi", None)
    if multi is not None and CLASS_A in batch.keys.columns:
        # one-vs-one averages leave out the pairs of an absent class (weight 0, as
        # scikit-learn, which does not warn either)
        shown = bad & (multi.coef != 0)
    warn_undefined(batch, shown, undefined_auc(curve), stacklevel=stacklevel + 1)
    return bad
