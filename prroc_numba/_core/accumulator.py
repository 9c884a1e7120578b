"""The :class:`Accumulator`: the mergeable table of many curves, fed in batches.

It holds, for every curve (the ``by`` groups times the models of a wide input), the
table *distinct score -> (positive mass, negative mass)* (:mod:`.table`), so rows can
arrive in batches (a stream, a training loop) or in partitions (Dask and Spark
workers), and the results equal those of one in-memory call on all the rows. Rows of
one curve with hard labels are kept as they came and reduced in bulk
(:mod:`.kept_rows`); the wings read and build accumulators through :mod:`.reading`,
never through their attributes; they save and load in the state format (:mod:`.state`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from .._checks import method_code, method_label, metric_names
from .._schema import MODEL
from .inputs import Inputs
from .kept_rows import KeptRows, hard_split, split_table, unit_rows_fit
from .table import (
    Layout,
    batch_entries,
    batch_layout,
    curve_keys,
    drop_zero_weight,
    narrow,
    reduce_entries,
    sum_runs,
    table_batch,
    wide,
)

# the pending runs' entries merged into the table once they pass this many (or the
# table's own size, whichever is larger: amortised, each entry is sorted O(log) times)
_BUFFER_ENTRIES = 1 << 16


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
        self._raw = KeptRows()  # one curve's hard-labelled rows as they came
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
        return wide(self._m_pos)

    @property
    def _neg(self):
        self._flush()
        return wide(self._m_neg)

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
            arrays += self._raw.arrays()
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
        from .state_files import pickled

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
        from .state_files import to_arrow

        with self._lock:
            return to_arrow(self)

    @classmethod
    def from_arrow(cls, table: Any) -> Accumulator:
        """The Accumulator of a table from :meth:`to_arrow` (or its Arrow IPC bytes).

        Every check of :meth:`load` runs; a table that fails one raises
        :class:`~prroc_numba.StateFormatError` (a ``ValueError``).
        """
        from .state_files import from_arrow

        return from_parts(from_arrow(table))

    def save(self, path: Any, *, format: str | None = None) -> None:
        """Write the state to ``path``: ``.npz`` (numpy only), ``.arrow`` (Arrow IPC)
        or ``.parquet`` (both need the ``arrow`` extra); ``format=`` ("npz", "arrow",
        "parquet") overrides the suffix.

        The file holds the rows of :meth:`table` and versioned, checksummed metadata;
        loading it never unpickles. See the Guarantees page for the format.
        """
        from .state_files import save

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
        from .state_files import load

        acc = from_parts(load(path, format))
        acc._source = str(path)
        return acc

    def _n_models(self):
        return 1 if self._models is None else len(self._models)

    def _curve_keys(self):
        return curve_keys(self._groups, self._models)

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
        batch = Inputs(score, label, by, weight, pos_label, soft_labels).pack(data)
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
        if self._raw.add(sp, sn, self._growth * self._m_score.size):
            self._flush()

    def _reduce_raw(self):
        """The kept rows as one reduced run: the table itself when it is empty, else a
        pending run merged with it next.
        """
        joins = bool(self._m_score.size) and not self._pending
        sp, sn = self._raw.take(self._m_score, self._m_pos, self._m_neg, joins)
        if joins and unit_rows_fit(self._m_pos, self._m_neg):
            self._m_score = np.empty(0)  # its rows joined the kept ones
        score, pos, neg = split_table(sp, sn)
        if self._m_score.size == 0 and not self._pending:
            self._m_score, self._m_pos, self._m_neg = score, narrow(pos), narrow(neg)
            self._growth = 4 if score.size > 0.9 * (sp.size + sn.size) else 1
            return
        self._pending.append((self._m_groups, None, score, narrow(pos), narrow(neg), ()))
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
        p, n = narrow(pos), narrow(neg)
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
            self._m_pos = narrow(sum_runs([r[3] for r in runs], order, idx))
            self._m_neg = narrow(sum_runs([r[4] for r in runs], order, idx))
            return
        runs = [(r[0], self._ids(r[1], r[2]), r[2], wide(r[3]), wide(r[4]), r[5]) for r in runs]
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
        """The batch of the state's weighted rows (:func:`.table.table_batch`)."""
        self._require()
        with self._lock:  # one consistent state, even while other threads update
            self._flush()
            groups, curve, score = self._m_groups, self._m_curve, self._m_score
            pos, neg = self._m_pos, self._m_neg
        return table_batch(curve_keys(groups, self._models), curve, score, pos, neg)

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


def _unpickle(decimals, payload):
    """An unpickled Accumulator (its columns checked as a loaded file's are)."""
    if payload is None:
        return Accumulator(decimals)
    from .state_files import unpickled

    return from_parts(*unpickled(payload))


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


def from_parts(parts, extra=()):
    """The Accumulator of the state format's decoded parts (:mod:`.state`)."""
    by, models, groups, curve, score, pos, neg, decimals = parts
    acc = holding(Layout(by, models, groups), curve, score, pos, neg, extra)
    acc.decimals = decimals
    return acc
