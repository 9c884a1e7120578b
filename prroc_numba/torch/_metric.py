"""The metric objects: torchmetrics ``Metric`` subclasses whose state is the reduced table.

Each ``update`` reduces its batch to the table *(curve key, distinct score) ->
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
import torch
from torchmetrics import Metric
from torchmetrics.utilities.distributed import gather_all_tensors

from .. import _frames as F
from .. import _schema as S
from .._checks import check_level, check_n_boot, method_code, method_label, metric_names
from .._core import Layout, holding
from .._options import call_label
from .._resampling import is_counts, table_areas, table_bootstrap
from ._inputs import check_rows
from ._reduce import empty, merge, reduce_rows, reduce_table

#: the four list states, one tensor each per merged table
_STATES = ("key", "score", "pos", "neg")
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

    def __init__(self, *, merge_checkpoint: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.merge_checkpoint = bool(merge_checkpoint)
        for name in _STATES:
            self.add_state(name, default=[], dist_reduce_fx="cat", persistent=True)
        spec = torch.tensor([self._options_code(), -1, -1, 0], dtype=torch.int64)
        self.add_state("spec", default=spec, dist_reduce_fx=_agree, persistent=True)

    # ---------------------------------------------------------------- options

    def _options(self) -> str:
        raise NotImplementedError

    def _options_code(self) -> int:
        return int(zlib.crc32(f"{type(self).__name__}|{self._options()}".encode()))

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
        spec = old.clone()
        cols = rows.preds.shape[1] if rows.wide else 0
        spec[_COLUMNS], spec[_BY] = cols, int(rows.by is not None)
        spec[_WEIGHTED] = int(rows.weight is not None)
        self.spec = _agree(torch.stack([old, spec.to(old.device)]))
        if rows.preds.shape[0] == 0:
            return
        table = reduce_rows(rows)
        for name, x in zip(_STATES, table):
            getattr(self, name).append(x)
        self._maybe_merge()

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
        """The one table of the state (None when empty): the list's tables merged, or a
        gathered state (several ranks' tables one after another) summed and sorted.
        """
        tables = self._tables()
        if isinstance(getattr(self, "key"), torch.Tensor):  # noqa: B009
            return reduce_table(tables[0])
        return merge(tables)

    def _merge_now(self) -> None:
        table = self._merged()
        self._set(empty(self.device) if table is None else table)

    def _sync_dist(self, dist_sync_fn=gather_all_tensors, process_group=None) -> None:
        # each rank merges its own tables first, so one table per rank crosses the wire
        # (an empty one, of the right dtypes, from a rank that saw no rows)
        if isinstance(getattr(self, "key"), list):  # noqa: B009
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
            x = getattr(self, name)
            if isinstance(x, torch.Tensor):
                setattr(self, name, [x])
        if self.merge_checkpoint and self._world() > 1 and self._rank() != 0:
            self._set(empty(self.device))  # rank 0 holds the merged table of all ranks

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
        layout = Layout(["group"] if by else [], list(range(K)) if wide else None, frame)
        shape = tuple(n for n, on in ((G, by), (K, wide)) if on)
        weighted = int(spec[_WEIGHTED]) == 1 or not is_counts(pos, neg)
        return layout, curve, score, pos, neg, offsets, shape, weighted

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
        layout, _curve, _s, pos, neg, offsets, shape = self._state()[:7]
        out = table_areas(offsets, pos, neg, self._code, self.hull)
        P = np.add.reduceat(pos, offsets[:-1])
        N = np.add.reduceat(neg, offsets[:-1])
        bad = (P <= 0) | (N <= 0) if self._curve == "roc" else P <= 0
        from .._core import warn_undefined_auc

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
        column as its own curve (not paired).
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
