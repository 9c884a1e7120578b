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
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from .._checks import method_code, method_label, metric_names
from .._core.batch import describe_row
from .._core.pack import inputs, pack
from .._drivers import all_float32, split_sweep_range
from .._drivers.resample import segments_batch
from .._schema import MODEL
from .exact_ints import needs_ranks, refuse
from .presort import split_sorted
from .sweep import _split_sweep

# the pending runs' entries merged into the table once they pass this many (or the
# table's own size, whichever is larger: amortised, each entry is sorted O(log) times)
_BUFFER_ENTRIES = 1 << 16
# rows of one curve's hard-labelled, unweighted batches kept as they came (each
# class's scores, 8 bytes a row) before they are reduced: then one keys-only sort of
# each class and one merge (:func:`split_table`), not one sort per batch
_RAW_ROWS = 1 << 18


def _narrow(x):
    """Masses as held: uint32 when every one is a whole number below 2**32 (the counts
    of unweighted rows; exact, and half the bytes), else float64 as given.
    """
    if x.dtype != np.float64 or x.size == 0:
        return x
    if x.max() < 2.0**32 and (np.floor(x) == x).all():
        return x.astype(np.uint32)
    return x


def _sum_runs(masses, order, idx):
    """The held masses of several runs, taken in ``order``, summed over each run of
    ``idx`` as float64 (uint32 counts stay uint32 until the sum: fewer bytes moved).
    """
    if all(m.dtype == np.uint32 for m in masses):
        return np.add.reduceat(np.concatenate(masses)[order], idx, dtype=np.float64)
    return np.add.reduceat(np.concatenate([_wide(m) for m in masses])[order], idx)


def _wide(x):
    """Held masses as float64."""
    return x if x.dtype == np.float64 else x.astype(np.float64)


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


def hard_split(score, label, decimals=None):
    """``(positives' scores, negatives' scores)`` (float64, rounded to ``decimals``) of a
    batch of one curve given as arrays: numeric scores, all finite, and labels that are
    bool or exactly 0 / 1. ``None`` for anything else, which the full path then packs
    (and explains, where the batch is bad).
    """
    if not isinstance(score, (np.ndarray, pd.Series)) or not isinstance(
        label, (np.ndarray, pd.Series)
    ):
        return None
    s, y = np.asarray(score), np.asarray(label)
    if s.ndim != 1 or y.shape != s.shape or s.size == 0 or s.dtype.kind not in "fiu":
        return None
    if needs_ranks(s):  # integers float64 would round: the full path refuses them
        return None
    if y.dtype.kind == "b":
        pos = y
    elif y.dtype.kind in "fiu":
        pos = y == 1
        if not (pos | (y == 0)).all():
            return None
    else:
        return None
    s = s.astype(np.float64, copy=False)
    if not np.isfinite(s).all():
        return None
    if decimals is not None:
        s = np.round(s, decimals)
    return s[pos], s[~pos]


def _sort_keys(x):
    """``x`` sorted ascending (a new array); keys that are all exactly float32 (model
    probabilities often are) sort as float32, twice as fast and exact back.
    """
    if x.size > 1 and all_float32(x):
        return np.sort(x.astype(np.float32)).astype(np.float64)
    return np.sort(x)


def split_table(sp, sn):
    """``(score, pos, neg)`` of unit-mass rows given as the positives' scores ``sp`` and
    the negatives' scores ``sn`` (finite float64): one entry per distinct score,
    descending, with its counts of each class (float64). Keys-only ``np.sort`` of each
    class, then the class-split merge kernel (the sweep's: cumulative counts at every
    distinct score, differenced here).
    """
    svals = np.concatenate([_sort_keys(sp), _sort_keys(sn)])
    n = svals.size
    thr, tp, fp = np.empty(n + 1), np.empty(n + 1), np.empty(n + 1)
    k = np.empty(1, dtype=np.int64)
    offsets = np.array([0, n], dtype=np.int64)
    split_sweep_range(svals, offsets, np.array([sp.size], dtype=np.int64), thr, tp, fp, k, 0, 1)
    k = int(k[0])
    return thr[1:k].copy(), np.diff(tp[:k]), np.diff(fp[:k])


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


def batch_entries(batch, decimals=None):
    """``(curve, score, pos, neg)`` of a packed batch, as :func:`swept_entries` gives
    them: by the class-split keys-only sort (:func:`.presort.split_sorted`, what
    ``prn.auc`` sorts by) and the curves' sweep (:func:`.sweep._split_sweep`) where they
    apply (hard, unweighted labels; curves of a few thousand rows or more; no
    rounding), each vertex's counts differenced; else :func:`swept_entries`.
    """
    refuse(
        batch,
        "a table merged with other batches (Accumulator, partitions, streams)",
        "pass the scores in one call, or rank them into float64 first",
    )
    split = None if decimals is not None else split_sorted(batch)
    if split is None:
        return swept_entries(batch, decimals)
    thr, tp, fp, off = _split_sweep(batch, *split)  # each curve's origin, then its vertices
    entry = np.ones(thr.size, dtype=bool)
    entry[off[:-1]] = False
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), np.diff(off) - 1)
    return curve, thr[entry], np.diff(tp, prepend=0.0)[entry], np.diff(fp, prepend=0.0)[entry]


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
    by_names, models, groups = batch_layout(batch, data, score, by)
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), lengths)
    local = np.arange(batch.values.size, dtype=np.int64) - batch.offsets[curve]
    row = batch.label_start[curve] + local
    values = batch.values
    if decimals is not None:
        values = np.round(values, decimals)
    return by_names, models, groups, curve, values, batch.pos[row], batch.neg[row], row


def batch_layout(batch, data, score, by):
    """``(by_names, models, groups)``: the key layout of a packed batch's curves as
    :class:`Accumulator` holds it.
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
    if not by_names:
        return by_names, models, pd.DataFrame(index=range(G))
    groups = batch.keys.iloc[np.arange(G) * M][by_names].reset_index(drop=True)
    return by_names, models, groups


def _unit_rows_fit(pos, neg):
    """Whether one curve's table is counts (unweighted rows) of at most twice as many
    rows as entries: then its rows are rebuilt one by one (:func:`_unit_batch`), which
    the class-split sort reads without an index payload.
    """
    if pos.dtype != np.uint32 or neg.dtype != np.uint32 or pos.size == 0:
        return False
    return int(pos.sum(dtype=np.int64)) + int(neg.sum(dtype=np.int64)) <= 2 * pos.size


def _unit_batch(score, pos, neg, keys):
    """The batch of one curve's unit rows rebuilt from its counts, class-split sorted:
    the positives' scores, then the negatives', each ascending (see
    :attr:`~prroc_numba._core.batch.Batch.split_npos`).
    """
    from .batch import Batch

    asc = score[::-1]
    sp, sn = _rows_of(asc, pos[::-1]), _rows_of(asc, neg[::-1])
    values = np.concatenate([sp, sn])
    P = np.zeros(values.size)
    P[: sp.size] = 1.0
    offsets = np.array([0, values.size], dtype=np.int64)
    npos = np.array([sp.size], dtype=np.int64)
    return Batch(
        values,
        offsets,
        P,
        1.0 - P,
        offsets,
        np.zeros(1, np.int64),
        keys,
        1,
        None,
        values.size,
        split_npos=npos,
    )


def _rows_of(scores, counts):
    """Each score repeated ``counts`` times (uint32 counts; a mask where all are 0 or 1)."""
    if counts.size and counts.max() <= 1:
        return scores[counts > 0]
    return np.repeat(scores, counts)


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
        self._m_groups: Any = None  # DataFrame of the by columns, one row per group, sorted
        self._m_curve = np.empty(0, dtype=np.int64)
        self._m_score = np.empty(0)
        self._m_pos = np.empty(0)
        self._m_neg = np.empty(0)
        self._m_extra: tuple = ()  # per-entry 2-D masses (the Poisson replicates of Dask input)
        self._started = False
        self._pending: list[tuple] = []  # reduced runs not yet merged into the table
        self._n_pending = 0
        self._raw: list[tuple] = []  # one curve's batches as (positives', negatives' scores)
        self._n_raw = 0
        self._growth = 1  # runs kept up to this many times the table (see _flush)
        self._source = None  # the file a loaded state came from (named in errors)
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ state

    # The table is held as one reduced run (``_m_*``) plus the reduced runs of later
    # batches (``_pending``); reading any of ``_curve`` ... ``_groups`` merges the pending
    # runs first (one sort for all of them), so a stream of batches costs about one sort
    # of its entries, not one re-merge of the whole table per batch.

    @property
    def _curve(self):
        self._flush()
        c = self._m_curve
        return np.zeros(self._m_score.size, dtype=np.int64) if c is None else c

    @property
    def _score(self):
        self._flush()
        return self._m_score

    @property
    def _pos(self):
        self._flush()
        return _wide(self._m_pos)

    @property
    def _neg(self):
        self._flush()
        return _wide(self._m_neg)

    @property
    def _extra(self):
        self._flush()
        return self._m_extra

    @property
    def _groups(self):
        self._flush()
        return self._m_groups

    @property
    def n_entries(self) -> int:
        """Number of (curve, distinct score) entries held."""
        return int(self._score.size)

    def __sizeof__(self) -> int:
        # what sys.getsizeof (and so Dask's memory accounting, which decides what a
        # worker spills to disk) sees: the arrays, not only the object's header
        with self._lock:
            arrays = [self._m_curve, self._m_score, self._m_pos, self._m_neg, *self._m_extra]
            arrays += [x for pair in self._raw for x in pair]
            groups = [self._m_groups]
            for run in self._pending:
                arrays += [*run[1:5], *run[5]]
                groups.append(run[0])
        frames = sum(int(g.memory_usage(deep=True).sum()) for g in groups if g is not None)
        held = sum(int(a.nbytes) for a in arrays if a is not None)
        return object.__sizeof__(self) + held + frames

    def __reduce__(self):
        # pickled as the state format's columns and metadata (the same checks run when
        # it is unpickled); the pending runs are merged first
        from .state import pickled

        with self._lock:
            return _unpickle, (self.decimals, pickled(self))

    def table(self) -> pd.DataFrame:
        """The state as a tidy frame: key columns, ``score``, ``pos``, ``neg``.

        One row per (curve, distinct score), scores descending within a curve.
        """
        self._require()
        with self._lock:
            curve, score, pos, neg = self._curve, self._score, self._pos, self._neg
            keys = self._curve_keys().iloc[curve].reset_index(drop=True)
        out = keys.copy()
        out["score"], out["pos"], out["neg"] = score, pos, neg
        return out

    # ---------------------------------------------------------- the state format

    def to_arrow(self) -> Any:
        """The state as a ``pyarrow.Table`` (needs the ``arrow`` extra).

        Columns: the key columns (dictionary-encoded), ``score``, ``pos``, ``neg``; the
        metadata (format version, library version, ``decimals``, key names, models, row
        count, byte order, checksum) under the schema metadata key ``prroc_numba``. See
        the Guarantees page for the format.
        """
        from .state import to_arrow

        with self._lock:
            return to_arrow(self)

    @classmethod
    def from_arrow(cls, table: Any) -> Accumulator:
        """The Accumulator of a table from :meth:`to_arrow` (or its Arrow IPC bytes).

        Every check of :meth:`load` runs; a table that fails one raises
        :class:`~prroc_numba.StateFormatError` (a ``ValueError``).
        """
        from .state import from_arrow

        return _built(from_arrow(table))

    def save(self, path: Any, *, format: str | None = None) -> None:
        """Write the state to ``path``: ``.npz`` (numpy only), ``.arrow`` (Arrow IPC)
        or ``.parquet`` (both need the ``arrow`` extra); ``format=`` ("npz", "arrow",
        "parquet") overrides the suffix.

        The file holds the rows of :meth:`table` and versioned, checksummed metadata;
        loading it never unpickles. See the Guarantees page for the format.
        """
        from .state import save

        with self._lock:
            save(self, path, format)

    @classmethod
    def load(cls, path: Any, *, format: str | None = None) -> Accumulator:
        """The Accumulator saved at ``path`` by :meth:`save`.

        Refuses (:class:`~prroc_numba.StateFormatError`, a ``ValueError`` naming the
        file and the fix) a file of a newer format version, a checksum mismatch,
        missing, extra or mistyped columns, negative or non-finite masses, unsorted or
        duplicated keys.
        """
        from .state import load

        acc = _built(load(path, format))
        acc._source = str(path)
        return acc

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

        A batch's rows are reduced to its own (curve, distinct score) table and kept
        beside the state; the kept tables are merged, in one sort, when a result is read
        (or the state is merged, pickled or saved, or the kept tables outgrow the
        state), so a stream of batches costs about one sort of all its entries. Batches
        of one curve given as arrays (numeric scores, labels bool or 0/1, no weights)
        are kept as they came, each class's scores (8 bytes a row, less than a table
        entry), until they pass 262,144 rows or the table's size; then each class is
        sorted keys-only (``np.sort``) and the two runs merged into the table.

        Several threads may call ``update`` (and :meth:`merge`) on one Accumulator at
        once: each batch is reduced outside the Accumulator's lock (the compiled code
        releases the GIL) and added under it, so the result is that of one thread
        feeding every batch (exactly so for unweighted or integer-weight rows; weighted
        sums to rounding, as the order of addition may differ).
        """
        if isinstance(by, (list, tuple)) and len(by) == 0:
            by = None
        if data is None and by is None and weight is None and pos_label is None:
            split = None if soft_labels else hard_split(score, label, self.decimals)
            if split is not None and (not self._started or self._single()):
                with self._lock:
                    self._keep_raw(*split)
                return self
        kept = drop_zero_weight(data, score, label, by, weight)
        if kept is None:
            return self
        data, score, label, by, weight = kept[0]
        batch = pack(data, **inputs(locals()))
        by_names, models, groups = batch_layout(batch, data, score, by)
        run = batch_entries(batch, self.decimals)
        with self._lock:
            self._push(by_names, models, groups, *run)
        return self

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the rows seen by ``other`` (an :class:`Accumulator`); returns ``self``.

        Both must hold the same curves' layout (``by`` column names, models) and the
        same ``decimals``.
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"merge takes an Accumulator, got {type(other).__name__}")
        if other.decimals != self.decimals:
            what = "" if other._source is None else f" (loaded from {other._source!r})"
            raise ValueError(
                f"cannot merge accumulators with decimals={self.decimals!r} and "
                f"decimals={other.decimals!r}{what}; build both with the same rounding"
            )
        if not other._started:
            return self
        with other._lock:
            layout = (other._by, other._models, other._groups)
            run = (other._curve, other._score, other._pos, other._neg, other._extra)
        with self._lock:
            self._push(*layout, *run)
        return self

    def _push(self, by_names, models, groups, curve, score, pos, neg, extra=()):
        """Keep a reduced run (sorted, one entry per (curve, score)) beside the table."""
        if not self._started:
            self._by, self._models, self._m_groups = by_names, models, groups
            self._m_score, self._m_extra = score, tuple(extra)
            self._m_curve, self._m_pos, self._m_neg = self._compact(curve, pos, neg)
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
        if len(extra) != len(self._m_extra) or any(
            x.shape[1:] != y.shape[1:] for x, y in zip(extra, self._m_extra)
        ):
            raise ValueError("cannot merge states holding different bootstrap replicates")
        self._pending.append((groups, *self._compact(curve, pos, neg, score), tuple(extra)))
        self._n_pending += int(score.size)
        if self._n_pending > max(_BUFFER_ENTRIES, self._growth * self._m_score.size):
            self._flush()

    def _keep_raw(self, sp, sn):
        """Keep one curve's hard-labelled rows as they came, reduced in bulk later."""
        if not self._started:
            self._by, self._models, self._m_groups = [], None, pd.DataFrame(index=range(1))
            self._m_curve, self._m_score = None, np.empty(0)
            self._m_pos, self._m_neg = np.empty(0, np.uint32), np.empty(0, np.uint32)
            self._started = True
        elif not self._single():
            raise RuntimeError("raw rows kept for an Accumulator of several curves")
        self._raw.append((sp, sn))
        self._n_raw += sp.size + sn.size
        if self._n_raw > max(_RAW_ROWS, self._growth * self._m_score.size):
            self._flush()

    def _reduce_raw(self):
        """The kept rows as one reduced run: the table itself when it is empty, else a
        pending run merged with it next.
        """
        sp = np.concatenate([r[0] for r in self._raw])
        sn = np.concatenate([r[1] for r in self._raw])
        self._raw, self._n_raw = [], 0
        if self._m_score.size and not self._pending and _unit_rows_fit(self._m_pos, self._m_neg):
            # a table of (nearly) one row per score: its rows join the sort, which
            # costs less than merging two tables
            asc = self._m_score[::-1]
            sp = np.concatenate([_rows_of(asc, self._m_pos[::-1]), sp])
            sn = np.concatenate([_rows_of(asc, self._m_neg[::-1]), sn])
            self._m_score = np.empty(0)
        score, pos, neg = split_table(sp, sn)
        if self._m_score.size == 0 and not self._pending:
            self._m_score, self._m_pos, self._m_neg = score, _narrow(pos), _narrow(neg)
            self._growth = 4 if score.size > 0.9 * (sp.size + sn.size) else 1
            return
        self._pending.append((self._m_groups, None, score, _narrow(pos), _narrow(neg), ()))
        self._n_pending += int(score.size)

    def _single(self):
        """One curve (no ``by``, one score column): entries need no curve ids."""
        return not self._by and self._models is None

    def _compact(self, curve, pos, neg, score=None):
        """``(curve, pos, neg)`` as held (or ``(curve, score, pos, neg)`` when ``score``
        is given): no curve ids for one curve, whole-number masses as uint32 (unweighted
        rows), so that the table costs 16 bytes per entry, not 32.
        """
        c = None if self._single() else curve
        p, n = _narrow(pos), _narrow(neg)
        return (c, p, n) if score is None else (c, score, p, n)

    def _flush(self):
        """Merge the pending runs into the table (one sort of all their entries)."""
        if not self._pending and not self._raw:
            return
        with self._lock:
            if self._raw:
                self._reduce_raw()
            if not self._pending:
                return
            runs = [
                (
                    self._m_groups,
                    self._m_curve,
                    self._m_score,
                    self._m_pos,
                    self._m_neg,
                    self._m_extra,
                ),
                *self._pending,
            ]
            n_before = sum(int(r[2].size) for r in runs)
            self._pending, self._n_pending = [], 0
            self._combine(runs)
            # merging saves memory only where the runs share scores (ties): where it
            # saved little, keep more runs before the next merge (fewer sorts of the
            # table, the same memory, as the runs then hold the same entries)
            self._growth = 4 if self._m_score.size > 0.9 * n_before else 1

    def _combine(self, runs):
        if self._single() and not runs[0][5]:
            score = np.concatenate([r[2] for r in runs])
            order = np.argsort(-score, kind="stable")  # merges the sorted runs
            s = score[order]
            start = np.ones(s.size, dtype=bool)
            start[1:] = s[1:] != s[:-1]
            idx = np.flatnonzero(start)
            self._m_score = s[idx]
            self._m_pos = _narrow(_sum_runs([r[3] for r in runs], order, idx))
            self._m_neg = _narrow(_sum_runs([r[4] for r in runs], order, idx))
            return
        runs = [(r[0], self._ids(r[1], r[2]), r[2], _wide(r[3]), _wide(r[4]), r[5]) for r in runs]
        M = self._n_models()
        if self._by:
            both = pd.concat([r[0] for r in runs], ignore_index=True)
            codes = both.groupby(self._by, sort=True, dropna=False, observed=True).ngroup()
            codes = codes.to_numpy(np.int64)
            _uniq, first = np.unique(codes, return_index=True)
            self._m_groups = both.iloc[first].reset_index(drop=True)
            bounds = np.cumsum([0] + [len(r[0]) for r in runs])
            curves = [
                codes[a:b][r[1] // M] * M + r[1] % M for a, b, r in zip(bounds, bounds[1:], runs)
            ]
        else:
            curves = [r[1] for r in runs]
        extra = tuple(np.concatenate([r[5][k] for r in runs]) for k in range(len(runs[0][5])))
        curve, self._m_score, pos, neg, self._m_extra = reduce_entries(
            np.concatenate(curves),
            np.concatenate([r[2] for r in runs]),
            np.concatenate([r[3] for r in runs]),
            np.concatenate([r[4] for r in runs]),
            extra,
        )
        self._m_curve, self._m_pos, self._m_neg = self._compact(curve, pos, neg)

    @staticmethod
    def _ids(curve, score):
        return np.zeros(score.size, dtype=np.int64) if curve is None else curve

    def _absorb(self, by_names, models, groups, curve, score, pos, neg, extra=()):
        """Add a reduced run and merge it into the table now."""
        with self._lock:
            self._push(by_names, models, groups, curve, score, pos, neg, extra)
            self._flush()

    # ---------------------------------------------------------------- results

    def _batch(self):
        """The batch of the state's weighted rows, built from the table directly: per
        curve (group by group, model by model) its positive rows (mass ``pos``), then its
        negative rows (mass ``neg``), each in the table's order, zero masses left out --
        the batch that packing those rows as a frame (``by`` the key columns) gives.
        """
        from .batch import Batch, lengths_to_offsets

        self._require()
        with self._lock:  # one consistent state, even while other threads update
            self._flush()
            groups, curve, score = self._m_groups, self._m_curve, self._m_score
            pos, neg = self._m_pos, self._m_neg
        keys = _curve_keys(groups, self._models)
        C = len(keys)
        if C == 1 and _unit_rows_fit(pos, neg):
            return _unit_batch(score, pos, neg, keys)
        pos, neg = _wide(pos), _wide(neg)
        kp, kn = pos > 0, neg > 0
        if C == 1:  # one curve: its positive rows, then its negative rows
            values = np.concatenate([score[kp], score[kn]])
            P = np.concatenate([pos[kp], np.zeros(int(kn.sum()))])
            N = np.concatenate([np.zeros(int(kp.sum())), neg[kn]])
            offsets = np.array([0, values.size], dtype=np.int64)
            return Batch(
                values, offsets, P, N, offsets, np.zeros(1, np.int64), keys, 1, None, 2 * score.size
            )
        cp, cn = curve[kp], curve[kn]
        n_p, n_n = np.bincount(cp, minlength=C), np.bincount(cn, minlength=C)
        live = (n_p + n_n) > 0
        if not live.all():  # curves without entries here (a Dask range) are no curves
            keys = keys[live].reset_index(drop=True)
            new = np.cumsum(live) - 1
            cp, cn, n_p, n_n = new[cp], new[cn], n_p[live], n_n[live]
            C = int(live.sum())
        offsets = lengths_to_offsets(n_p + n_n)
        at_p = offsets[cp] + np.arange(cp.size) - lengths_to_offsets(n_p)[cp]
        at_n = offsets[cn] + n_p[cn] + np.arange(cn.size) - lengths_to_offsets(n_n)[cn]
        total = int(offsets[-1])
        values, P, N = np.empty(total), np.zeros(total), np.zeros(total)
        values[at_p], P[at_p] = score[kp], pos[kp]
        values[at_n], N[at_n] = score[kn], neg[kn]
        return Batch(
            values,
            offsets,
            P,
            N,
            offsets,
            np.arange(C, dtype=np.int64),
            keys,
            1,
            None,
            2 * score.size,
        )

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


def _built(parts, extra=()):
    """The Accumulator of the state format's decoded parts."""
    by, models, groups, curve, score, pos, neg, decimals = parts
    acc = holding(Layout(by, models, groups), curve, score, pos, neg, extra)
    acc.decimals = decimals
    return acc


def _unpickle(decimals, payload):
    """An unpickled Accumulator (its columns checked as a loaded file's are)."""
    if payload is None:
        return Accumulator(decimals)
    from .state import unpickled

    return _built(*unpickled(payload))


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


def weighted_rows(acc):
    """``(rows, kw)``: the table as weighted rows (one positive, one negative row per
    entry) and the input arguments naming them: an in-memory call on them gives the
    counts of the rows the table holds (for a function the Accumulator does not offer).
    """
    acc._require()
    with acc._lock:  # one consistent table, even while other threads update
        acc._flush()
        groups, curve, score = acc._m_groups, acc._m_curve, acc._m_score
        pos, neg = _wide(acc._m_pos), _wide(acc._m_neg)
    if curve is None:  # one curve
        curve = np.zeros(score.size, dtype=np.int64)
    keys = _curve_keys(groups, acc._models)
    key_names = list(keys.columns)
    if acc._models is not None:  # keep the models' order (by sorts its keys)
        keys[MODEL] = pd.Categorical(
            keys[MODEL], categories=pd.unique(np.asarray(acc._models, dtype=object)), ordered=True
        )
    s, y, w = "__prn_score", "__prn_label", "__prn_weight"
    rows = keys.iloc[np.concatenate([curve, curve])].reset_index(drop=True)
    rows[s] = np.concatenate([score, score])
    rows[y] = np.concatenate([np.ones(score.size), np.zeros(score.size)])
    rows[w] = np.concatenate([pos, neg])
    return rows, {"score": s, "label": y, "weight": w, "by": key_names or None}


def rows_thresholds(acc, thresholds):
    """``thresholds=`` (a frame of thresholds per curve) as :func:`weighted_rows` reads it."""
    return acc._thresholds(thresholds)


def rows_result(acc, frame):
    """A frame computed on :func:`weighted_rows` as the in-memory call returns it."""
    return acc._finish(frame)
