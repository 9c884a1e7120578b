"""The metric objects: torchmetrics ``Metric`` subclasses whose state is the rows or the
reduced table.

Batches of hard, unweighted labels on the CPU, shared by the score columns and without
``by=``, are kept as rows (two list states: the scores in their floating dtype, the
labels as bool); past 2**18 kept values a strided sample decides whether they are tied
(reduced to the table below, in bulk) or continuous (kept: a table entry costs more
than a row). ``compute`` on rows runs ``prn.auc``'s own route (the class-split sort and
area kernels), and ``compare`` runs ``prn.compare`` on them. Every other ``update``
reduces its batch to the table *(curve key, distinct score) ->
(positive, negative mass)* (:mod:`._reduce`) and appends it to four list states; the
list is merged into one table whenever its newer part outgrows the merged part (so a
stream costs a few sorts of the distinct scores, and memory stays O(distinct scores)).
Across processes the states are gathered with ``dist_reduce_fx="cat"`` after each rank
has merged its own list: ranks exchange their tables, never their rows. ``compute``
merges what it holds and evaluates it with the library's table code, the code behind
:class:`prroc_numba.Accumulator` and the Dask wing.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
import torch
from torchmetrics import Metric
from torchmetrics.utilities.distributed import gather_all_tensors

from .._core import Layout, holding
from .._resampling import is_counts
from ._binned import bins
from ._inputs import RowOptions, check_models, check_rows, drop_ignored
from ._reduce import (
    element_table,
    empty,
    merge,
    reduce_rows,
    reduce_table,
    rows_table,
    table_rows,
)

#: the four list states, one tensor each per merged table
_STATES = ("key", "score", "pos", "neg")
#: the two list states of the kept rows (hard, unweighted labels shared by the score
#: columns, no ``by=``): scores ``(n,)`` or, for k columns, ``(k, n)`` (column by
#: column: the layout the sort reads) in their floating dtype, bool labels ``(n,)``
_ROWS = ("rows", "labels")
#: with ``keep_rows=True``: the kept rows' weights (float64 ``(n,)``)
_WEIGHTS = "weights"
#: kept rows (times score columns) are reduced into the table once they pass this many
#: and ``_rows_limit`` (grown where a reduction shrinks nothing: continuous scores)
_RAW_VALUES = 1 << 18
#: scores sampled to tell continuous scores (kept as rows) from tied ones (reduced)
_SAMPLE = 4096
#: a merge starts once the tables after the first hold this many entries (and as many
#: as the first), or once the list holds this many tables
_MERGE_MIN = 1 << 16
_MERGE_TABLES = 64
#: ``spec``: options code, score columns (0: 1-D preds; -1: not seen yet), by= used
#: (-1: not seen yet), weighted rows seen
_OPTIONS, _COLUMNS, _BY, _WEIGHTED = range(4)


def _agree(stacked: torch.Tensor) -> torch.Tensor:
    """Combine the ``spec`` rows of several ranks (or of a state and a batch): the same
    options, score columns and ``by=`` use everywhere, or a clear error.
    """
    rows = stacked.reshape(-1, 4)
    if bool((rows[:, _OPTIONS] != rows[0, _OPTIONS]).any()):
        raise ValueError(
            "the metric's states were built with different options on different ranks "
            "(or in a loaded state); build the metric with the same arguments everywhere"
        )
    out = rows[0].clone()
    for col, what in ((_COLUMNS, "score columns"), (_BY, "by= use")):
        seen = rows[:, col][rows[:, col] >= 0]
        if seen.numel() and bool((seen != seen[0]).any()):
            raise ValueError(
                f"the metric's states disagree on their {what} across ranks ({seen.tolist()}); "
                "every rank must update with the same preds shape and by= (or none)"
            )
        out[col] = seen[0] if seen.numel() else -1
    out[_WEIGHTED] = rows[:, _WEIGHTED].max()
    return out


class _TableMetric(Metric):
    """A metric whose state is the reduced table (see the module docstring)."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    #: kept values past which the next look for ties waits (continuous scores)
    _rows_limit: int = 0
    #: (the labels list, its length, rows in it): :meth:`_rows_held`'s cache
    _rows_memo: tuple | None = None

    def __init__(
        self,
        *,
        merge_checkpoint: bool = False,
        keep_rows: bool = False,
        rows: RowOptions | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.merge_checkpoint = bool(merge_checkpoint)
        self.keep_rows = bool(keep_rows)
        self.row_opts = RowOptions() if rows is None else rows
        for name in (*_STATES, *_ROWS):
            self.add_state(name, default=[], dist_reduce_fx="cat", persistent=True)
        if self.keep_rows:  # each kept row's weight (once a weighted batch came)
            self.add_state(_WEIGHTS, default=[], dist_reduce_fx="cat", persistent=True)
        spec = torch.tensor([self._options_code(), -1, -1, 0], dtype=torch.int64)
        self.add_state("spec", default=spec, dist_reduce_fx=_agree, persistent=True)

    # ---------------------------------------------------------------- options

    def _options(self) -> str:
        raise NotImplementedError

    def _options_code(self) -> int:
        what = f"{type(self).__name__}|{self._options()}|{self.keep_rows}|{self.row_opts}"
        return int(zlib.crc32(what.encode()))

    # ----------------------------------------------------------------- update

    def update(
        self,
        preds: torch.Tensor,
        target: torch.Tensor,
        sample_weight: torch.Tensor | None = None,
        by: torch.Tensor | None = None,
    ) -> None:
        """Add a batch of rows.

        Parameters
        ----------
        preds : Tensor of shape (n,) or (n, k)
            Scores (higher: more likely positive); k columns are k models or tasks.
        target : Tensor of shape (n,) or (n, k)
            0/1 (or bool) labels, shared by the k columns or one column each.
        sample_weight : Tensor of shape (n,), default=None
            Non-negative row weights.
        by : Tensor of shape (n,), default=None
            Integer group id of each row: one curve per group (and column).
        """
        ro = self.row_opts
        preds, target, sample_weight, by, keep = drop_ignored(
            preds, target, sample_weight, by, ro.ignore_index
        )
        rows = check_rows(preds, target, sample_weight, by)
        if keep is not None and sample_weight is not None:  # rows of weight 0: dropped
            keep = keep[sample_weight.detach().to(keep.device) > 0]
        check_models(rows, ro.models, type(self).__name__)
        if ro.thresholds is not None:
            rows = rows._replace(preds=bins(rows.preds, np.asarray(ro.thresholds)))
        self._note_spec(rows.preds.shape[1] if rows.wide else 0, rows.by, rows.weight)
        if rows.preds.shape[0] == 0:
            return
        if keep is not None:  # single entries left out: one entry per (row, column)
            onehot = rows.target == 1
            self._add_table(element_table(rows.preds, onehot, keep, rows.weight, rows.by))
            return
        if self._keeps(rows):
            self._keep_rows(rows, preds)
            return
        self._add_table(reduce_rows(rows))

    def _note_spec(self, cols: int, by, weight) -> None:
        """Record a batch's score columns (0: 1-D preds), ``by=`` use and weights in the
        ``spec`` state (an error where they disagree with earlier batches).
        """
        old = self._spec()
        now = (cols, int(by is not None))
        if (int(old[_COLUMNS]), int(old[_BY])) != now or (
            weight is not None and int(old[_WEIGHTED]) == 0
        ):
            spec = old.clone()
            spec[_COLUMNS], spec[_BY] = now
            spec[_WEIGHTED] = int(weight is not None)
            self.spec = _agree(torch.stack([old, spec.to(old.device)]))

    def _add_table(self, table) -> None:
        """Append a batch's reduced table to the list state (merged as it grows; in
        the binned mode at once, so the state stays at one table of fixed size).
        """
        for name, x in zip(_STATES, table):
            self._table_list(name).append(x)
        if self._binned_mode():
            if len(self._tables()) > 1:
                self._merge_now()
            return
        self._maybe_merge()

    def _binned_mode(self) -> bool:
        """Whether ``thresholds=`` was given (the state is bins)."""
        return self.row_opts.thresholds is not None

    # ------------------------------------------------------------- kept rows

    def _keeps(self, rows) -> bool:
        """Whether a batch is kept as rows: CPU, no weights (unless ``keep_rows``), no
        ``by=``, one label column shared by the score columns, labels all 0/1 (checked).
        """
        return (
            rows.preds.device.type == "cpu"
            and self.row_opts.thresholds is None
            and (rows.weight is None or self.keep_rows)
            and rows.by is None
            and rows.target.shape[1] == 1
        )

    def _keep_rows(self, rows, preds) -> None:
        """Keep a batch's scores (a copy, in their own floating dtype: float32 scores
        cost 4 bytes, read back exactly as float64) and labels (bool).
        """
        if self.keep_rows:
            self._keep_weights(rows)
        # copies made by numpy (which asks for huge pages: several times faster than
        # torch's clone of a large CPU tensor)
        own = preds.is_floating_point() and preds.dtype != torch.bfloat16  # numpy has it
        src = (preds.detach() if own else rows.preds).numpy()
        if rows.wide:
            p = torch.from_numpy(np.ascontiguousarray(src.reshape(src.shape[0], -1).T))
        elif own:
            p = torch.from_numpy(np.array(src.reshape(-1)))
        else:  # the checked float64 copy
            p = torch.from_numpy(src.reshape(-1))
        self._rows_list("rows").append(p)
        t = rows.target[:, 0]
        self._rows_list("labels").append(t if t.dtype == torch.bool else t == 1)
        held = self._rows_held() * (p.shape[0] if p.ndim == 2 else 1)
        if self.keep_rows or held <= max(_RAW_VALUES, self._rows_limit):
            return
        if self._looks_continuous():
            # a table entry (32 bytes) costs more than the rows it would replace
            self._rows_limit = 4 * held
            return
        self._fold_rows()

    def _looks_continuous(self) -> bool:
        """Whether most of a strided sample of the kept scores (about 4096 of the first
        column) are distinct: then reducing would shrink little.
        """
        lst = self._rows_list("rows")
        step = max(1, (self._rows_held() + _SAMPLE - 1) // _SAMPLE)
        sample = torch.cat([(x if x.ndim == 1 else x[0])[::step] for x in lst])
        return 2 * torch.unique(sample).numel() > sample.numel()

    def reset(self) -> None:
        """Forget every row (torchmetrics' reset) and the continuous-scores guess."""
        super().reset()
        self._rows_limit = 0
        self._rows_memo = None

    def _clear_rows(self) -> None:
        for name in (*_ROWS, _WEIGHTS) if self.keep_rows else _ROWS:
            setattr(self, name, [])

    def _rows_list(self, name) -> list:
        x = getattr(self, name)
        if isinstance(x, torch.Tensor):  # gathered or loaded as one tensor
            x = [x] if x.numel() else []
            setattr(self, name, x)
        return x

    def _rows_held(self) -> int:
        """Rows kept (cached by the list's identity and length)."""
        lst = self._rows_list("labels")
        memo = self._rows_memo
        if memo is not None and memo[0] is lst and memo[1] <= len(lst):
            n = memo[2] + sum(int(x.shape[0]) for x in lst[memo[1] :])
        else:
            n = sum(int(x.shape[0]) for x in lst)
        self._rows_memo = (lst, len(lst), n)
        return n

    def _kept(self):
        """``(scores (k, n), labels (n,))`` of the kept rows as numpy arrays, or None."""
        rows = [x for x in self._rows_list("rows") if x.numel()]
        if not rows:
            return None
        labels = [x for x in self._rows_list("labels") if x.numel()]
        # joined by numpy (huge pages: faster than torch.cat on large CPU tensors)
        parts = [(x.reshape(1, -1) if x.ndim == 1 else x).numpy() for x in rows]
        ys = [x.numpy() for x in labels]
        scores = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
        y = ys[0] if len(ys) == 1 else np.concatenate(ys)
        return scores.astype(np.float64, copy=False), y.astype(bool, copy=False)

    def _keep_weights(self, rows) -> None:
        """Keep the batch's row weights beside its rows (``keep_rows=True``): ones for
        the rows kept before the first weighted batch, and for unweighted batches after.
        """
        lst = self._table_list(_WEIGHTS)
        held = sum(int(x.shape[0]) for x in lst)
        if rows.weight is None and not held:
            return
        before = self._rows_held()
        if held < before:
            lst.append(torch.ones(before - held, dtype=torch.float64))
        n = rows.preds.shape[0]
        w = rows.weight if rows.weight is not None else torch.ones(n, dtype=torch.float64)
        lst.append(w.detach().cpu().clone())

    def _kept_weights(self):
        """The kept rows' weights (numpy, aligned with :meth:`_kept`), or None."""
        if not self.keep_rows:
            return None
        lst = [x for x in self._table_list(_WEIGHTS) if x.numel()]
        if not lst:
            return None
        w = torch.cat(lst).numpy()
        n = self._rows_held()
        return w if w.size == n else np.concatenate([w, np.ones(n - w.size)])

    def _fold_rows(self) -> None:
        """Reduce the kept rows into the table."""
        kept = self._kept()
        if kept is None:
            return
        table = rows_table(kept[0], kept[1], self.device, self._kept_weights())
        self._clear_rows()
        for name, x in zip(_STATES, table):
            self._table_list(name).append(x)
        self._maybe_merge()

    def _table_list(self, name) -> list:
        x = getattr(self, name)
        if isinstance(x, torch.Tensor):
            x = [x]
            setattr(self, name, x)
        return x

    def _spec(self) -> torch.Tensor:
        return getattr(self, "spec")  # noqa: B009 (a state: typed as the Module's attribute)

    def _tables(self) -> list:
        states = [getattr(self, name) for name in _STATES]
        if isinstance(states[0], torch.Tensor):  # gathered across ranks: one tensor each
            return [tuple(states)]
        return list(zip(*states))

    def _set(self, table) -> None:
        for name, x in zip(_STATES, table):
            setattr(self, name, [x])

    def _maybe_merge(self) -> None:
        """Merge the list once its newer tables hold as many entries as the first (times
        a factor that grows while merges shrink nothing: continuous scores), or once it
        holds ``_MERGE_TABLES`` tables.
        """
        lst = self._tables()
        if len(lst) < 2:
            return
        head = lst[0][0].numel()
        tail = sum(x[0].numel() for x in lst[1:])
        factor = getattr(self, "_merge_factor", 1)
        if len(lst) >= _MERGE_TABLES or (tail >= _MERGE_MIN and tail >= factor * head):
            self._merge_now()
            out = getattr(self, "key")[0].numel()  # noqa: B009
            self._merge_factor = 4 * factor if out >= 0.9 * (head + tail) else 1

    def _merged(self):
        """The one table of the state (None when empty): the list's tables (and the
        kept rows' table) merged, or a gathered state (several ranks' tables one after
        another) summed and sorted.
        """
        tables = self._tables()
        kept = self._kept()
        if isinstance(getattr(self, "key"), torch.Tensor):  # noqa: B009
            tables = [reduce_table(tables[0])]
        if kept is not None:
            tables.append(rows_table(kept[0], kept[1], self.device, self._kept_weights()))
        return merge(tables)

    def _merge_now(self) -> None:
        table = self._merged()
        self._set(empty(self.device) if table is None else table)
        self._clear_rows()

    def _sync_dist(self, dist_sync_fn=gather_all_tensors, process_group=None) -> None:
        # each rank merges its own tables first, so one table per rank crosses the wire
        # (an empty one, of the right dtypes, from a rank that saw no rows)
        if isinstance(getattr(self, "key"), list):  # noqa: B009
            self._fold_rows()
            self._merge_now()
        super()._sync_dist(dist_sync_fn, process_group)

    @contextmanager
    def _synced(self) -> Iterator[None]:
        """The states of every rank while inside (as ``compute`` sees them)."""
        if self._is_synced or not self._to_sync:
            yield
            return
        with self.sync_context(
            dist_sync_fn=self.dist_sync_fn, should_sync=True, should_unsync=self._should_unsync
        ):
            yield

    # ----------------------------------------------------------- checkpoints

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """The metric's state; with ``merge_checkpoint=True`` in a process group, the
        merged table of every rank (a collective call: every rank must call it, as
        Lightning's checkpointing does), held by rank 0 when loaded.
        """
        if self.merge_checkpoint and self._world() > 1 and not self._is_synced:
            self.sync(should_sync=True, distributed_available=lambda: True)
            try:
                self._merge_now()
                return super().state_dict(destination, prefix, keep_vars)
            finally:
                self.unsync()
        return super().state_dict(destination, prefix, keep_vars)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs) -> None:
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
        for name in _STATES:  # a gathered state loads as one tensor: keep the list form
            self._table_list(name)
        for name in _ROWS:
            self._rows_list(name)
        if self.merge_checkpoint and self._world() > 1 and self._rank() != 0:
            self._set(empty(self.device))  # rank 0 holds the merged table of all ranks
            self._clear_rows()

    @staticmethod
    def _world() -> int:
        d = torch.distributed
        return d.get_world_size() if d.is_available() and d.is_initialized() else 1

    @staticmethod
    def _rank() -> int:
        d = torch.distributed
        return d.get_rank() if d.is_available() and d.is_initialized() else 0

    # ---------------------------------------------------------------- results

    def _state(self):
        """``(layout, curve, score, pos, neg, offsets, shape)`` on the host: the merged
        table, its curves' layout, and the shape of ``compute``'s tensors.
        """
        table = self._merged()
        spec = self._spec().reshape(-1, 4)
        spec = _agree(spec) if spec.shape[0] > 1 else spec[0]
        if table is None or table[0].numel() == 0:
            raise ValueError(
                f"{type(self).__name__} has seen no rows yet (on any rank); call update(...) "
                "with at least one row before compute"
            )
        key, score, pos, neg = (x.detach().cpu().numpy() for x in table)
        cols = int(spec[_COLUMNS])
        wide, K = cols > 0, max(cols, 1)
        by = int(spec[_BY]) == 1
        g = np.floor_divide(key, K)
        groups = g[:1] if g[0] == g[-1] else np.unique(g)  # sorted: one group, or several
        curve = (0 if groups.size == 1 else np.searchsorted(groups, g) * K) + (key - g * K)
        G = groups.size
        offsets = np.searchsorted(curve, np.arange(G * K + 1)).astype(np.int64)
        frame = pd.DataFrame({"group": groups}) if by else pd.DataFrame(index=[0])
        layout = Layout(["group"] if by else [], self._model_names(K) if wide else None, frame)
        shape = tuple(n for n, on in ((G, by), (K, wide)) if on)
        weighted = int(spec[_WEIGHTED]) == 1 or not is_counts(pos, neg)
        return layout, curve, score, pos, neg, offsets, shape, weighted

    def _all_rows(self):
        """``(scores, labels, K, wide)``: every row seen, where the state can give them --
        kept rows, and a table of one group's counts with about one row per entry
        (continuous scores, e.g. as gathered from the ranks) rebuilt row by row; None
        otherwise (weights, ``by=``, tied scores reduced).
        """
        spec = self._spec().reshape(-1, 4)
        spec = _agree(spec) if spec.shape[0] > 1 else spec[0]
        if int(spec[_BY]) == 1 or int(spec[_WEIGHTED]) == 1:
            return None
        cols = int(spec[_COLUMNS])
        K, wide = max(cols, 1), cols > 0
        parts = []
        tables = [t for t in self._tables() if t[0].numel()]
        if tables:
            rows = sum(float(t[2].sum() + t[3].sum()) for t in tables)
            if 2 * sum(t[0].numel() for t in tables) < rows:
                return None  # tied scores (before any merge): the table is the cheaper route
            table = self._merged_tables(tables)
            if 2 * table[0].numel() < rows:
                return None
            rebuilt = table_rows(table, K)
            if rebuilt is None:
                return None
            parts.append(rebuilt)
        kept = self._kept()
        if kept is not None:
            parts.append(kept)
        if not parts:
            return None
        S = parts[0][0] if len(parts) == 1 else np.concatenate([p[0] for p in parts], axis=1)
        y = parts[0][1] if len(parts) == 1 else np.concatenate([p[1] for p in parts])
        return S, y, K, wide

    def _model_names(self, K: int) -> list:
        """The score columns' names: ``models=``, else 0 .. K-1."""
        models = self.row_opts.models
        return list(models) if models is not None else list(range(K))

    def _merged_tables(self, tables):
        if isinstance(getattr(self, "key"), torch.Tensor):  # noqa: B009
            return reduce_table(tables[0])
        return merge(tables)

    def _tensor(self, values, shape) -> torch.Tensor:
        return torch.from_numpy(np.array(values, dtype=np.float64)).reshape(shape).to(self.device)

    def _accumulator(self):
        layout, curve, score, pos, neg = self._state()[:5]
        return holding(layout, curve, score, pos, neg)
