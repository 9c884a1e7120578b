"""The mergeable state of many curves: per curve, distinct score -> (positive, negative) mass.

Every curve, area and hull this library computes depends on a curve's rows only through
the table *distinct score -> (positive weight, negative weight)*. That table is
mergeable: tables of two batches of rows are concatenated and equal scores summed. An
:class:`Accumulator` holds it for every curve (the ``by`` groups times the models of a
wide input), so rows can arrive in batches (a stream, a training loop) or in partitions
(Dask workers), and the results equal those of one in-memory call on all the rows.

Results are computed from the table's own rows: each distinct score becomes one
positive row of weight ``P_s`` and one negative row of weight ``N_s`` (a zero-weight
half is dropped, which changes nothing, as zero weight is removal), packed once and
handed to the batch-level code the in-memory functions run (:mod:`.area_frames`,
:mod:`.curve_frames`), so the sweep, hull and area kernels run unchanged.

The Dask wing reads and builds tables through the few functions at the end of this
module (:func:`layout_of`, :func:`entries_of`, :func:`replicates_of`, :func:`holding`,
:func:`thresholds_of`), never
through the Accumulator's attributes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from .._checks import method_code, method_label, metric_names
from .._core.batch import describe_row
from .._core.pack import inputs, pack
from .._drivers.resample import segments_batch
from .._schema import MODEL

# internal column names of the weighted-row table (never a user's key column)
_S, _Y, _W = "__prn_score", "__prn_label", "__prn_weight"


def _sort_entries(curve, score):
    """Order of values by curve, then score descending, the start of each distinct
    ``(curve, score)`` run in that order, and the sorted scores (``-0.0`` and ``+0.0``
    are one score, as in the sweep).
    """
    score = score + 0.0
    order = np.lexsort((-score, curve))
    c, s = curve[order], score[order]
    start = np.ones(c.size, dtype=bool)
    start[1:] = (c[1:] != c[:-1]) | (s[1:] != s[:-1])
    return order, np.flatnonzero(start), s


def reduce_entries(curve, score, pos, neg, extra=()):
    """Sum ``pos``/``neg`` (and the rows of each 2-D array of ``extra``) over equal
    ``(curve, score)``; the result is sorted by curve, then score descending.
    """
    if curve.size == 0:
        return curve, score, pos, neg, extra
    order, idx, s = _sort_entries(curve, score)
    red = tuple(np.add.reduceat(x[order], idx, axis=0) for x in extra)
    return (
        curve[order][idx],
        s[idx],
        np.add.reduceat(pos[order], idx),
        np.add.reduceat(neg[order], idx),
        red,
    )


def swept_entries(batch, decimals=None):
    """``(curve, score, pos, neg)`` summed over equal (curve, score), sorted by curve then
    score descending: each curve's rows in the order of the bootstrap plan's one radix
    sort per curve (:func:`._drivers.resample.segments_batch`), then one sum per run of
    tied scores.
    """
    values = batch.values if decimals is None else np.round(batch.values, decimals)
    order, ps, ns = segments_batch(values, batch.offsets, batch.pos, batch.neg, batch.label_start)[
        :3
    ]
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), lengths)
    xs = values[batch.offsets[curve] + order] + 0.0
    start = np.ones(xs.size, dtype=bool)
    start[1:] = (curve[1:] != curve[:-1]) | (xs[1:] != xs[:-1])
    idx = np.flatnonzero(start)
    return curve[idx], xs[idx], np.add.reduceat(ps, idx), np.add.reduceat(ns, idx)


def drop_zero_weight(data, score, label, by, weight):
    """Rows of weight 0 are removal; a batch may hold a group only through such rows
    (pack would call that group empty), so drop them first. Returns the arguments and
    the kept input positions (None: all), or None when no row is left.
    """
    if weight is None:
        return (data, score, label, by, weight), None
    w = _column_or_array(data, weight)
    zero = w == 0 if w is not None and w.ndim == 1 else np.zeros(1, dtype=bool)
    if zero.all():
        return None
    if not zero.any():
        return (data, score, label, by, weight), None
    return tuple(_take(~zero, data, score, label, by, weight)), np.flatnonzero(~zero)


def entries(batch, data, score, by, decimals=None):
    """The layout of a packed batch's curves and one entry per value.

    Returns ``(by_names, models, groups, curve, values, pos, neg)``: the key layout as
    :class:`Accumulator` holds it, then per value its curve, score and row masses.
    """
    M = batch.n_models
    if by is None:
        by_names = []
    elif data is not None and isinstance(by, str):
        by_names = [by]
    elif data is not None and isinstance(by, (list, tuple)) and all(isinstance(b, str) for b in by):
        by_names = list(by)
    else:
        by_names = list(batch.keys.columns[:1])  # the "group" column of an array by
    wide = batch.keys.shape[1] > len(by_names)
    models = list(batch.keys[MODEL].iloc[:M]) if wide else None
    G = batch.group_offsets.size - 1
    groups = batch.keys.iloc[np.arange(G) * M][by_names].reset_index(drop=True)
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), lengths)
    local = np.arange(batch.values.size, dtype=np.int64) - batch.offsets[curve]
    row = batch.label_start[curve] + local
    values = batch.values
    if decimals is not None:
        values = np.round(values, decimals)
    return by_names, models, groups, curve, values, batch.pos[row], batch.neg[row], row


def _curve_keys(groups, models):
    """Every curve's key columns: each group's row, once per model (a ``model`` column)."""
    M = 1 if models is None else len(models)
    G = len(groups)
    keys = groups.iloc[np.repeat(np.arange(G), M)].reset_index(drop=True)
    if models is not None:
        keys[MODEL] = np.tile(np.asarray(models, dtype=object), G)
    return keys


def _column_or_array(data, x):
    if isinstance(x, str) and data is not None and x in data.columns:
        return np.asarray(data[x])
    return None if isinstance(x, str) else np.asarray(x)  # pack explains a bad name


def _take(keep, data, *args):
    """Rows ``keep`` of ``data`` and of every array-like argument (names stay names)."""
    out = [None if data is None else data[keep]]
    for x in args:
        if (
            x is None
            or isinstance(x, str)
            or (isinstance(x, (list, tuple)) and x and all(isinstance(v, str) for v in x))
        ):
            out.append(x)
        elif isinstance(x, (pd.Series, pd.DataFrame)):
            out.append(x[keep])
        else:
            out.append(np.asarray(x)[keep])
    return out


class Accumulator:
    """Exact, mergeable state of many ROC / PR curves, fed in batches.

    Rows arrive through :meth:`update` (any number of times: per batch of a stream, per
    step of a training loop, per partition of a distributed frame); accumulators built
    apart combine with :meth:`merge`. The results (:meth:`auc`, :meth:`roc_curve`,
    :meth:`pr_curve`, :meth:`confusion`, :meth:`metrics`) equal those of the in-memory
    functions called once on all the rows seen (to rounding of weighted sums).

    The state holds, per curve, one entry per distinct score (its positive and negative
    mass), so memory is O(distinct scores), not O(rows). Scores with many distinct
    values (floats from a model) keep nearly one entry per row; ``decimals=`` rounds
    scores on entry to bound the state, which *changes the scores* (and so the curves)
    exactly as rounding them in the data would. Accumulators pickle (they travel between
    workers).

    Parameters
    ----------
    decimals : int, default=None
        Round scores to this many decimals on entry (``numpy.round``); None keeps them.

    Examples
    --------
    >>> import numpy as np, prroc_numba as prn
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000); s = y + rng.normal(size=1000)
    >>> acc = prn.Accumulator()
    >>> for i in range(0, 1000, 100):  # ten batches
    ...     _ = acc.update(score=s[i:i + 100], label=y[i:i + 100])  # returns acc
    >>> bool(np.isclose(acc.auc(curve="roc")["auc"].iloc[0],
    ...                 prn.auc_roc(y, s), rtol=0, atol=1e-12))
    True
    """

    def __init__(self, decimals: int | None = None) -> None:
        if decimals is not None and (
            isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer))
        ):
            raise TypeError(f"decimals must be an int or None, got {decimals!r}")
        self.decimals = None if decimals is None else int(decimals)
        self._by = None  # names of the by columns (list), fixed by the first update
        self._models = None  # list of model names (wide input) or None
        self._groups: Any = None  # DataFrame of the by columns, one row per group, sorted
        self._curve = np.empty(0, dtype=np.int64)
        self._score = np.empty(0)
        self._pos = np.empty(0)
        self._neg = np.empty(0)
        self._extra = ()  # per-entry 2-D masses (the Poisson replicates of Dask input)
        self._started = False

    # ------------------------------------------------------------------ state

    @property
    def n_entries(self) -> int:
        """Number of (curve, distinct score) entries held."""
        return int(self._score.size)

    def __sizeof__(self) -> int:
        # what sys.getsizeof (and so Dask's memory accounting, which decides what a
        # worker spills to disk) sees: the arrays, not only the object's header
        arrays = (self._curve, self._score, self._pos, self._neg, *self._extra)
        groups = 0 if self._groups is None else int(self._groups.memory_usage(deep=True).sum())
        return object.__sizeof__(self) + sum(int(a.nbytes) for a in arrays) + groups

    def table(self) -> pd.DataFrame:
        """The state as a tidy frame: key columns, ``score``, ``pos``, ``neg``.

        One row per (curve, distinct score), scores descending within a curve.
        """
        self._require()
        keys = self._curve_keys().iloc[self._curve].reset_index(drop=True)
        out = keys.copy()
        out["score"], out["pos"], out["neg"] = self._score, self._pos, self._neg
        return out

    def _n_models(self):
        return 1 if self._models is None else len(self._models)

    def _curve_keys(self):
        return _curve_keys(self._groups, self._models)

    def _require(self):
        if not self._started:
            raise ValueError("the Accumulator has seen no rows yet; call update(...) first")

    # ----------------------------------------------------------------- update

    def update(
        self,
        data: Any = None,
        *,
        score: str | Sequence[str] | ArrayLike,
        label: str | ArrayLike,
        by: str | Sequence[str] | None = None,
        weight: str | ArrayLike | None = None,
        pos_label: Any = None,
        soft_labels: bool = False,
    ) -> Accumulator:
        """Add rows (arguments as in :func:`~prroc_numba.auc`); returns ``self``.

        Every call must describe the same curves' layout: the same ``by`` column names
        and the same models (score columns) in the same order. New groups may appear
        in any call.
        """
        if isinstance(by, (list, tuple)) and len(by) == 0:
            by = None
        kept = drop_zero_weight(data, score, label, by, weight)
        if kept is None:
            return self
        data, score, label, by, weight = kept[0]
        batch = pack(data, **inputs(locals()))
        by_names, models, groups = entries(batch, data, score, by)[:3]
        self._absorb(by_names, models, groups, *swept_entries(batch, self.decimals))
        return self

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the rows seen by ``other`` (an :class:`Accumulator`); returns ``self``.

        Both must hold the same curves' layout (``by`` column names, models) and the
        same ``decimals``.
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"merge takes an Accumulator, got {type(other).__name__}")
        if other.decimals != self.decimals:
            raise ValueError(
                f"cannot merge accumulators with decimals={self.decimals!r} and "
                f"decimals={other.decimals!r}; build both with the same rounding"
            )
        if not other._started:
            return self
        self._absorb(
            other._by,
            other._models,
            other._groups,
            other._curve,
            other._score,
            other._pos,
            other._neg,
            other._extra,
        )
        return self

    def _absorb(self, by_names, models, groups, curve, score, pos, neg, extra=()):
        if not self._started:
            self._by, self._models, self._groups = by_names, models, groups
            self._curve, self._score, self._pos, self._neg = curve, score, pos, neg
            self._extra = tuple(extra)
            self._started = True
            return
        if by_names != self._by:
            raise ValueError(
                f"these rows are grouped by {by_names} but the Accumulator holds curves "
                f"grouped by {self._by}; pass the same by= in every update"
            )
        if (models is None) != (self._models is None) or (
            models is not None and list(models) != list(self._models)
        ):
            raise ValueError(
                f"these rows score the models {models} but the Accumulator holds "
                f"{self._models}; pass the same score columns, in the same order, every time"
            )
        M = self._n_models()
        if by_names:
            both = pd.concat([self._groups, groups], ignore_index=True)
            codes = both.groupby(by_names, sort=True, dropna=False, observed=True).ngroup()
            codes = codes.to_numpy(np.int64)
            _uniq, first = np.unique(codes, return_index=True)
            new_groups = both.iloc[first].reset_index(drop=True)
            G0 = len(self._groups)
            map_a, map_b = codes[:G0], codes[G0:]
            ca = map_a[self._curve // M] * M + self._curve % M
            cb = map_b[curve // M] * M + curve % M
        else:
            new_groups, ca, cb = self._groups, self._curve, curve
        if len(extra) != len(self._extra) or any(
            x.shape[1:] != y.shape[1:] for x, y in zip(extra, self._extra)
        ):
            raise ValueError("cannot merge states holding different bootstrap replicates")
        self._groups = new_groups
        self._curve, self._score, self._pos, self._neg, self._extra = reduce_entries(
            np.concatenate([ca, cb]),
            np.concatenate([self._score, score]),
            np.concatenate([self._pos, pos]),
            np.concatenate([self._neg, neg]),
            tuple(np.concatenate([x, y]) for x, y in zip(self._extra, extra)),
        )

    # ---------------------------------------------------------------- results

    def _weighted_rows(self):
        """The state as weighted rows and the keyword arguments that name them."""
        self._require()
        keys = self._curve_keys()
        key_names = list(keys.columns)
        if self._models is not None:  # keep the models' order (by sorts its keys)
            keys[MODEL] = pd.Categorical(
                keys[MODEL],
                categories=pd.unique(np.asarray(self._models, dtype=object)),
                ordered=True,
            )
        k = self._score.size
        rows = keys.iloc[np.concatenate([self._curve, self._curve])].reset_index(drop=True)
        rows[_S] = np.concatenate([self._score, self._score])
        rows[_Y] = np.concatenate([np.ones(k), np.zeros(k)])
        rows[_W] = np.concatenate([self._pos, self._neg])
        return rows, {"score": _S, "label": _Y, "weight": _W, "by": key_names or None}

    def _batch(self):
        """The packed batch of the state's weighted rows (its curves' layout and keys)."""
        rows, kw = self._weighted_rows()
        return pack(rows, **kw)

    def _finish(self, frame):
        if self._models is not None and MODEL in frame.columns:
            frame[MODEL] = np.asarray(frame[MODEL].astype(object), dtype=object)
        return frame

    def _thresholds(self, thresholds):
        if (
            isinstance(thresholds, pd.DataFrame)
            and self._models is not None
            and MODEL in thresholds.columns
        ):
            thresholds = thresholds.copy()
            thresholds[MODEL] = pd.Categorical(
                thresholds[MODEL],
                categories=pd.unique(np.asarray(self._models, dtype=object)),
                ordered=True,
            )
        return thresholds

    def _answer(self, frame):
        """A result frame as the in-memory function on the same rows returns it."""
        from . import device as _device

        return _device.tag(self._finish(frame), "cpu")

    # the result methods import the batch-level code (and the frames' helpers) when
    # called: a Dask worker, which only reduces and merges tables, never loads them

    def auc(
        self, *, curve: str = "pr", method: str | None = None, hull: bool = False
    ) -> pd.DataFrame:
        """Areas as :func:`~prroc_numba.auc` on all rows seen: key columns, ``auc``."""
        from .area_frames import auc_frame, batch_areas, prg_frame

        if curve == "prg":
            from .._checks import area_code

            area_code("prg", method)
            return self._finish(prg_frame(self._batch(), hull))
        code = method_code(curve, method)
        batch = self._batch()
        out = batch_areas(batch, [code], [bool(hull)])[:, 0]
        return self._answer(auc_frame(batch, curve, out, method_label(curve, method, hull)))

    def roc_curve(
        self, *, hull: bool = False, thresholds: ArrayLike | pd.DataFrame | None = None
    ) -> pd.DataFrame:
        """ROC curves as :func:`~prroc_numba.roc_curve` on all rows seen."""
        from .curve_frames import check_curve_options, roc_frame

        check_curve_options(hull, thresholds)
        batch = self._batch()
        return self._answer(roc_frame(batch, bool(hull), self._thresholds(thresholds)))

    def pr_curve(
        self,
        *,
        hull: bool = False,
        interpolate: str | None = None,
        thresholds: ArrayLike | pd.DataFrame | None = None,
        recall_step: float | None = None,
    ) -> pd.DataFrame:
        """PR curves as :func:`~prroc_numba.pr_curve` on all rows seen."""
        from .curve_frames import check_curve_options, pr_frame

        check_curve_options(hull, thresholds, interpolate, recall_step)
        batch = self._batch()
        thresholds = self._thresholds(thresholds)
        return self._answer(pr_frame(batch, bool(hull), interpolate, thresholds, recall_step))

    def confusion(self, *, thresholds: ArrayLike | pd.DataFrame | None = None) -> pd.DataFrame:
        """Confusion matrices as :func:`~prroc_numba.confusion` on all rows seen."""
        from .curve_frames import confusion_frame

        return self._answer(confusion_frame(self._batch(), self._thresholds(thresholds)))

    def metrics(self, metrics: str | Sequence[str] = ("auc_pr", "auc_roc")) -> pd.DataFrame:
        """Several metrics per curve as :func:`~prroc_numba.metrics` on all rows seen."""
        from .area_frames import metrics_frame

        names = metric_names(metrics)
        return self._answer(metrics_frame(self._batch(), names))

    def __repr__(self) -> str:
        if not self._started:
            return "Accumulator(empty)"
        return (
            f"Accumulator({len(self._groups) * self._n_models()} curve(s), "
            f"{self.n_entries} distinct (curve, score) entries)"
        )


# ------------------------------------------------- the table as the Dask wing reads it


class Layout:
    """The curves' layout of a table: the ``by`` column names, the models (None: one
    score column) and the groups (one row per group, sorted); curve ``c`` is model
    ``c % n_models`` of group ``c // n_models``. What :func:`warn_undefined` and the
    bootstrap front ends read from a batch: ``keys``, ``n_models``, ``n_curves``,
    ``group_offsets``, :meth:`describe`.
    """

    def __init__(self, by, models, groups):
        self.by, self.models, self.groups = by, models, groups
        self.n_models = 1 if models is None else len(models)
        self.n_curves = len(groups) * self.n_models

    @functools.cached_property
    def keys(self):
        """The key columns of every curve, one row per curve."""
        return _curve_keys(self.groups, self.models)

    @property
    def group_offsets(self):
        return np.arange(len(self.groups) + 1, dtype=np.int64)

    def describe(self, c):
        keys = self.keys
        return "the curve" if keys.shape[1] == 0 else describe_row(keys.iloc[c])


def layout_of(acc):
    """The :class:`Layout` of ``acc`` (None while it has seen no rows)."""
    return Layout(acc._by, acc._models, acc._groups) if acc._started else None


def entries_of(acc):
    """``(curve, score, pos, neg)``: the table's entries, sorted by curve, then score
    descending, one per distinct (curve, score).
    """
    return acc._curve, acc._score, acc._pos, acc._neg


def replicates_of(acc):
    """The per-entry replicate masses (``(pos, neg)``, each entries x replicates), or ()."""
    return acc._extra


def holding(layout, curve, score, pos, neg, extra=(), reduced=True):
    """A new Accumulator of ``layout`` holding these entries (``reduced``: already one
    per distinct (curve, score), sorted; else summed and sorted first).
    """
    acc = Accumulator()
    entries = (
        (curve, score, pos, neg, extra)
        if reduced
        else reduce_entries(curve, score, pos, neg, extra)
    )
    acc._absorb(layout.by, layout.models, layout.groups, *entries)
    return acc


def thresholds_of(acc, thresholds):
    """Each curve's thresholds (``thresholds=`` of the curve functions) as the table's
    curves read them: ``(values, offsets)`` of :func:`.thresholds.ragged_thresholds`.
    """
    from .thresholds import ragged_thresholds

    return ragged_thresholds(acc._batch(), acc._thresholds(thresholds))
