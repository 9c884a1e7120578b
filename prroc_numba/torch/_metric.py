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
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import torch

from .. import _frames as F
from .. import _schema as S
from .._checks import check_level, check_n_boot, method_code, method_label, metric_names
from .._core import Layout, batch_areas, holding
from .._options.draws import call_label
from .._resampling import is_counts, table_areas, table_bootstrap
from ._inputs import check_rows
from ._kept import KeptRows
from ._reduce import empty, merge, reduce_rows, reduce_table, rows_batch, rows_table, table_rows
from ._sync import ROWS, STATES

#: the four list states, one tensor each per merged table

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


class _TableMetric(KeptRows):
    """A metric whose state is the reduced table (see the module docstring)."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(
        self, *, merge_checkpoint: bool = False, keep_rows: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.merge_checkpoint = bool(merge_checkpoint)
        self.keep_rows = bool(keep_rows)
        for name in (*STATES, *ROWS):
            self.add_state(name, default=[], dist_reduce_fx="cat", persistent=True)
        spec = torch.tensor([self._options_code(), -1, -1, 0], dtype=torch.int64)
        self.add_state("spec", default=spec, dist_reduce_fx=_agree, persistent=True)

    # ---------------------------------------------------------------- options

    def _options(self) -> str:
        raise NotImplementedError

    def _options_code(self) -> int:
        what = f"{type(self).__name__}|{self._options()}|{self.keep_rows}"
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
        rows = check_rows(preds, target, sample_weight, by)
        old = self._spec()
        cols = rows.preds.shape[1] if rows.wide else 0
        now = (cols, int(rows.by is not None))
        if (int(old[_COLUMNS]), int(old[_BY])) != now or (
            rows.weight is not None and int(old[_WEIGHTED]) == 0
        ):
            spec = old.clone()
            spec[_COLUMNS], spec[_BY] = now
            spec[_WEIGHTED] = int(rows.weight is not None)
            self.spec = _agree(torch.stack([old, spec.to(old.device)]))
        if rows.preds.shape[0] == 0:
            return
        if self._keeps(rows):
            self._keep_rows(rows, preds)
            return
        table = reduce_rows(rows)
        for name, x in zip(STATES, table):
            getattr(self, name).append(x)
        self._maybe_merge()

    def reset(self) -> None:
        """Forget every row (torchmetrics' reset) and the continuous-scores guess."""
        super().reset()
        self._rows_limit = 0
        self._rows_memo = None

    def _table_list(self, name) -> list:
        x = getattr(self, name)
        if isinstance(x, torch.Tensor):
            x = [x]
            setattr(self, name, x)
        return x

    def _spec(self) -> torch.Tensor:
        return getattr(self, "spec")  # noqa: B009 (a state: typed as the Module's attribute)

    def _tables(self) -> list:
        states = [getattr(self, name) for name in STATES]
        if isinstance(states[0], torch.Tensor):  # gathered across ranks: one tensor each
            return [tuple(states)]
        return list(zip(*states))

    def _set(self, table) -> None:
        for name, x in zip(STATES, table):
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
            tables.append(rows_table(kept[0], kept[1], self.device))
        return merge(tables)

    def _merge_now(self) -> None:
        table = self._merged()
        self._set(empty(self.device) if table is None else table)
        self._clear_rows()

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
        layout = Layout(["group"] if by else [], list(range(K)) if wide else None, frame)
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

    def _merged_tables(self, tables):
        if isinstance(getattr(self, "key"), torch.Tensor):  # noqa: B009
            return reduce_table(tables[0])
        return merge(tables)

    def _tensor(self, values, shape) -> torch.Tensor:
        return torch.from_numpy(np.array(values, dtype=np.float64)).reshape(shape).to(self.device)

    def _accumulator(self):
        layout, curve, score, pos, neg = self._state()[:5]
        return holding(layout, curve, score, pos, neg)


class _AreaMetric(_TableMetric):
    """One area per curve (``curve``, ``method``, ``hull`` as in :func:`prroc_numba.auc`)."""

    _curve = "pr"

    def __init__(self, method: str | None = None, hull: bool = False, **kwargs: Any) -> None:
        self.method = method
        self.hull = bool(hull)
        self._code = method_code(self._curve, method)
        super().__init__(**kwargs)

    def _options(self) -> str:
        return f"{self._curve}|{self.method}|{self.hull}"

    def compute(self) -> torch.Tensor:
        """The area of every curve: a 0-d tensor for one curve, else ``(groups,)``,
        ``(columns,)`` or ``(groups, columns)`` (groups in ascending id order), float64.
        """
        from .._core import warn_undefined_auc

        rows = self._all_rows()
        if rows is not None:  # the plain function's own route on the same rows
            scores, labels, K, wide = rows
            out = batch_areas(rows_batch(scores, labels), [self._code], [self.hull])[:, 0]
            n_pos = int(np.count_nonzero(labels))
            P = np.full(K, float(n_pos))
            N = np.full(K, float(labels.size - n_pos))
            layout = Layout([], list(range(K)) if wide else None, pd.DataFrame(index=[0]))
            shape: tuple = (K,) if wide else ()
        else:
            layout, _curve, _s, pos, neg, offsets, shape = self._state()[:7]
            out = table_areas(offsets, pos, neg, self._code, self.hull)
            P = np.add.reduceat(pos, offsets[:-1])
            N = np.add.reduceat(neg, offsets[:-1])
        bad = (P <= 0) | (N <= 0) if self._curve == "roc" else P <= 0
        warn_undefined_auc(layout, self._curve, stacklevel=3, totals=(P, N))
        out[bad] = np.nan
        return self._tensor(out, shape)

    def compute_frame(
        self,
        n_boot: int | None = None,
        level: float = 0.95,
        seed: int | None = None,
        stratified: bool = True,
    ) -> pd.DataFrame:
        """The tidy frame of :func:`prroc_numba.auc` on every row seen (key columns
        ``group`` for ``by=`` and ``model`` for k score columns, then ``curve``,
        ``method``, ``auc``); with ``n_boot``, that of :func:`prroc_numba.bootstrap`
        (``estimate``, ``se``, ``ci_low``, ``ci_high``, ``n_degenerate``: percentile
        intervals, equal to those of ``prn.bootstrap`` on the same rows for the same
        ``seed``). Intervals need unweighted rows and, for k score columns, treat every
        column as its own curve (paired: :meth:`compare`).
        """
        if n_boot is None:
            with self._synced():
                acc = self._accumulator()
            return acc.auc(curve=self._curve, method=self.method, hull=self.hull)
        check_n_boot(n_boot)
        check_level(level)
        with self._synced():
            layout, _c, _s, pos, neg, offsets, _shape, weighted = self._state()
        if weighted:
            raise ValueError(
                "intervals from the metric's state need unweighted rows (the bootstrap "
                "draws rows, and a table of weights has lost them); drop sample_weight, or "
                "compute intervals with prroc_numba.bootstrap on the rows"
            )
        if layout.models is not None and len(layout.models) > 1:
            layout = Layout(layout.by + ["model"], None, layout.keys)
        est, se, lo, hi, n_bad = table_bootstrap(
            layout,
            offsets,
            pos,
            neg,
            curve=self._curve,
            code=self._code,
            hull=self.hull,
            n_boot=n_boot,
            level=level,
            seed=seed,
            stratified=stratified,
        )
        out = F.curves_frame(
            layout.keys,
            {S.ESTIMATE: est, S.SE: se, S.CI_LOW: lo, S.CI_HIGH: hi, S.N_DEGENERATE: n_bad},
        )
        F.describe(
            out,
            S.ESTIMATE,
            curve=self._curve,
            method=method_label(self._curve, self.method, self.hull),
            interval="percentile",
            resampling=call_label(None, "cpu", None, stratified, None),
            n_boot=int(n_boot),
        )
        return out

    def compare(
        self,
        n_boot: int = 2000,
        level: float = 0.95,
        seed: int | None = None,
        stratified: bool | None = None,
        baseline: int | str | None = None,
        adjust: str = "holm",
        p_value: str = "wald",
        resampling: str | None = None,
    ) -> pd.DataFrame:
        """Paired comparison of the score columns (models) on every row seen: the frame
        of :func:`prroc_numba.compare` on those rows, in the order they were given
        (rank 0's rows first, then rank 1's, ... in a process group), so for the same
        ``seed`` its intervals and p-values equal ``prn.compare``'s on the
        concatenated batches (with ``resampling="poisson"`` too).

        A paired comparison resamples rows, each with its score in every column, so
        it needs the rows themselves: the metric keeps them for continuous scores
        (where a table entry would cost more) and always with ``keep_rows=True``; a
        state whose tied scores were reduced to the table of counts per distinct score
        has lost which row each column's score came from, and ``compare`` refuses it.
        In a process group this is a collective call (every rank must call it): the
        ranks exchange their rows.
        """
        from ..comparison import compare as plain_compare

        check_n_boot(n_boot)
        check_level(level)
        scores, labels = self._paired_rows()
        out = plain_compare(
            score=scores.T,
            label=labels,
            curve=self._curve,
            method=self.method,
            hull=self.hull,
            n_boot=n_boot,
            level=level,
            seed=seed,
            stratified=stratified,
            baseline=baseline,
            adjust=adjust,
            p_value=p_value,
            resampling=resampling,
        )
        return out

    def _paired_rows(self):
        """``(scores (k, n), labels (n,))``: every row of every rank, or a clear error
        (raised on every rank alike: the ranks first exchange what they hold).
        """
        cols = int(self._spec().reshape(-1, 4)[0, _COLUMNS])
        reduced = any(t[0].numel() for t in self._tables())
        mine = (cols, reduced, None if reduced else self._kept())
        parts = [mine]
        if self._to_sync and self._world() > 1:
            import torch.distributed as dist

            parts = [None] * self._world()
            dist.all_gather_object(parts, mine, group=self.process_group)
        name = type(self).__name__
        if any(0 <= p[0] < 2 for p in parts):  # (-1: no rows on that rank)
            raise ValueError(
                f"{name}.compare compares score columns (models) on the same rows: update "
                "with preds of shape (n, k), k >= 2 (one column per model)"
            )
        if any(p[1] for p in parts):
            raise ValueError(
                f"{name}.compare needs the rows, but the state holds tied scores reduced "
                "to counts per distinct score (or rows with sample_weight / by=), which no "
                "longer say which row each model's score came from; build the metric with "
                "keep_rows=True (and no sample_weight / by=) to compare models on the same "
                "rows"
            )
        kept = [p[2] for p in parts if p[2] is not None]
        if not kept:
            raise ValueError(
                f"{name} has seen no rows yet (on any rank); call update(...) with at "
                "least one row before compare"
            )
        if len({p[0] for p in parts if p[0] >= 0}) > 1:
            raise ValueError(
                "the ranks' states hold different numbers of score columns; every rank "
                "must update with preds of the same shape"
            )
        scores = np.concatenate([k[0] for k in kept], axis=1)
        return scores, np.concatenate([k[1] for k in kept])


class AveragePrecision(_AreaMetric):
    """Average precision (the step sum, scikit-learn's ``average_precision_score``) of
    every curve, streamed, exact and DDP-safe.

    A torchmetrics ``Metric``: ``update(preds, target, sample_weight=None, by=None)``
    per batch, ``compute()`` (float64 tensors) and ``compute_frame(n_boot=None,
    level=0.95, seed=None)`` (the library's tidy frame, with intervals when ``n_boot``
    is given) at the end; ``reset``, ``state_dict``, ``MetricCollection``, Lightning's
    ``self.log`` and the process-group sync work as for any torchmetrics metric. The
    state is the table of distinct scores (see :mod:`prroc_numba.torch`).

    Parameters
    ----------
    merge_checkpoint : bool, default=False
        In a process group, ``state_dict`` gathers every rank's table (a collective
        call), so a checkpoint written by rank 0 resumes every rank's rows.
    keep_rows : bool, default=False
        Keep every row of hard, unweighted batches without ``by=`` (tied scores too,
        which are otherwise reduced to counts per distinct score), as :meth:`compare`
        needs for a paired comparison of score columns; 9 bytes per row and column
        (float64 scores).
    **kwargs
        torchmetrics' ``Metric`` options (``sync_on_compute``, ``process_group``,
        ``dist_sync_fn``, ...).

    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> ap = pt.AveragePrecision()
    >>> ap.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> round(float(ap.compute()), 6)
    0.833333
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(method="ap", **kwargs)


class AUCPR(_AreaMetric):
    """Area under the PR curve by ``method`` (``"dg"``: Davis & Goadrich's
    interpolation, the default; ``"integral"``, ``"ap"``, ``"trapezoid"``; ``hull=True``:
    under the achievable PR curve), as :class:`AveragePrecision` otherwise.

    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.AUCPR(method="dg")
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> round(float(m.compute()), 6)  # prn.auc_pr([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    0.791667
    """

    def __init__(self, method: str = "dg", hull: bool = False, **kwargs: Any) -> None:
        super().__init__(method=method, hull=hull, **kwargs)


class AUROC(_AreaMetric):
    """Area under the ROC curve (ties count half: the Mann--Whitney statistic;
    ``hull=True``: under the ROC convex hull), as :class:`AveragePrecision` otherwise.

    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.AUROC()
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> float(m.compute())
    0.75
    """

    _curve = "roc"

    def __init__(self, hull: bool = False, **kwargs: Any) -> None:
        super().__init__(method=None, hull=hull, **kwargs)


class Metrics(_TableMetric):
    """Several metrics of every curve from one table (as :func:`prroc_numba.metrics`):
    ``compute()`` gives a dict of float64 tensors (one per name), ``compute_frame()``
    the frame of :func:`prroc_numba.metrics` on every row seen.

    Parameters
    ----------
    metrics : str or sequence of str, default=("auc_pr", "auc_roc")
        Names as in :func:`prroc_numba.metrics` (``"auc_pr"``, ``"ap"``,
        ``"auc_roc"``, ``"auc_pr_hull"``, ``"n_pos"``, ...).

    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.Metrics(["ap", "auc_roc"])
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> {k: round(float(v), 6) for k, v in m.compute().items()}
    {'ap': 0.833333, 'auc_roc': 0.75}
    """

    def __init__(self, metrics: str | Sequence[str] = ("auc_pr", "auc_roc"), **kwargs: Any):
        self.metric_names = metric_names(metrics)
        super().__init__(**kwargs)

    def _options(self) -> str:
        return ",".join(self.metric_names)

    def compute(self) -> dict:
        """A dict name -> tensor, shaped as :meth:`AveragePrecision.compute`."""
        shape = self._state()[6]
        frame = self.compute_frame()
        return {nm: self._tensor(frame[nm].to_numpy(np.float64), shape) for nm in self.metric_names}

    def compute_frame(self) -> pd.DataFrame:
        """The frame of :func:`prroc_numba.metrics` on every row seen."""
        with self._synced():
            acc = self._accumulator()
        return acc.metrics(self.metric_names)
