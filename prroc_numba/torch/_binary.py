"""The binary metric classes: one area per curve (:class:`AveragePrecision`,
:class:`AUCPR`, :class:`AUROC`) and several metrics from one table (:class:`Metrics`),
on the state of :class:`~prroc_numba.torch._metric._TableMetric`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import torch

from .. import _frames as F
from .. import _schema as S
from .._checks import check_level, check_n_boot, method_code, method_label, metric_names
from .._core import Layout, batch_areas
from .._options.draws import call_label
from .._resampling import table_areas, table_bootstrap
from ._binned import binned_areas, binned_label
from ._inputs import row_options
from ._metric import _COLUMNS, _TableMetric
from ._reduce import rows_batch


class _AreaMetric(_TableMetric):
    """One area per curve (``curve``, ``method``, ``hull`` as in :func:`prroc_numba.auc`)."""

    _curve = "pr"

    def __init__(
        self,
        method: str | None,
        hull: bool,
        thresholds: int | list[float] | torch.Tensor | None,
        ignore_index: int | None,
        models: Sequence[str] | int | None,
        keep_rows: bool,
        merge_checkpoint: bool,
        **kwargs: Any,
    ) -> None:
        """The public classes' arguments, checked once (:func:`row_options`)."""
        rows = row_options(ignore_index, models, thresholds)
        self.method = method
        self.hull = bool(hull)
        self._code = method_code(self._curve, method)
        if rows.thresholds is not None and self.hull:
            raise ValueError("thresholds= (binned mode) has no hull: drop hull=True")
        super().__init__(
            rows=rows, keep_rows=keep_rows, merge_checkpoint=merge_checkpoint, **kwargs
        )

    def _options(self) -> str:
        return f"{self._curve}|{self.method}|{self.hull}"

    def plot(self, val: Any = None, ax: Any = None, **kwargs: Any) -> tuple:
        """Draw every curve's exact PR curve (ROC for :class:`AUROC`) with
        :mod:`prroc_numba.plot` (``plot_pr`` / ``plot_roc``; ``kwargs`` passed on), its
        area in the legend; returns ``(fig, ax)`` as torchmetrics' ``plot``. In binned
        mode, the curve through the thresholds' points.
        """
        from ._plotting import plot_state

        auc = None if self.row_opts.thresholds is not None else self.compute_frame()
        return plot_state(self, self._curve, val, ax, auc, kwargs)

    def _binned(self):
        """``(areas tensor, curve keys)`` of the binned mode (``thresholds=``)."""
        with self._synced():
            layout, curve, score, _pos, _neg, offsets, shape = self._state()[:7]
        T = len(self.row_opts.thresholds or ())
        roc = self._curve == "roc"
        out = binned_areas(curve, score, _pos, _neg, offsets.size - 1, T, roc)
        return self._tensor(out, shape), layout.keys

    def compute(self) -> torch.Tensor:
        """The area of every curve: a 0-d tensor for one curve, else ``(groups,)``,
        ``(columns,)`` or ``(groups, columns)`` (groups in ascending id order), float64.
        """
        from .._core import warn_undefined_auc

        if self.row_opts.thresholds is not None:
            return self._binned()[0]
        rows = self._all_rows()
        if rows is not None:  # the plain function's own route on the same rows
            scores, labels, K, wide = rows
            out = batch_areas(rows_batch(scores, labels), [self._code], [self.hull])[:, 0]
            n_pos = int(np.count_nonzero(labels))
            P = np.full(K, float(n_pos))
            N = np.full(K, float(labels.size - n_pos))
            models = self._model_names(K) if wide else None
            layout = Layout([], models, pd.DataFrame(index=[0]))
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
        if n_boot is None and self.row_opts.thresholds is not None:
            values, keys = self._binned()
            out = F.curves_frame(keys, {S.AUC: values.numpy().reshape(-1)})
            T = len(self.row_opts.thresholds)
            label = binned_label(method_label(self._curve, self.method), T)
            return F.describe(out, S.AUC, curve=self._curve, method=label)
        if n_boot is None:
            with self._synced():
                acc = self._accumulator()
            return acc.auc(curve=self._curve, method=self.method, hull=self.hull)
        self._check_draws(
            n_boot,
            level,
            "intervals need the exact state: build the metric without thresholds= "
            "(the binned mode keeps counts per threshold only)",
        )
        with self._synced():
            layout, _c, _s, pos, neg, offsets, _shape, weighted = self._state()
        if weighted:
            return self._weighted_intervals(n_boot, level, seed, stratified)
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

        self._check_draws(
            n_boot,
            level,
            "compare needs the rows: build the metric without thresholds= and with keep_rows=True",
        )
        return self._on_rows(
            plain_compare,
            True,
            n_boot=n_boot,
            level=level,
            seed=seed,
            stratified=stratified,
            baseline=baseline,
            adjust=adjust,
            p_value=p_value,
            resampling=resampling,
        )

    def _check_draws(self, n_boot, level, refusal: str) -> None:
        """Check ``n_boot`` and ``level``; refuse the binned mode (``thresholds=``),
        whose counts per threshold cannot be resampled, with ``refusal``.
        """
        check_n_boot(n_boot)
        check_level(level)
        if self.row_opts.thresholds is not None:
            raise ValueError(refusal)

    def _weighted_intervals(self, n_boot, level, seed, stratified) -> pd.DataFrame:
        """``prn.bootstrap(weight=...)`` on the kept rows (``keep_rows=True``)."""
        from ..resampling import bootstrap

        if not self.keep_rows:
            raise ValueError(
                "intervals of weighted rows need the rows and their weights (the bootstrap "
                "draws rows, and a table of summed weights has lost them): build the "
                "metric with keep_rows=True (and no by=), or drop sample_weight"
            )
        return self._on_rows(
            bootstrap, False, n_boot=n_boot, level=level, seed=seed, stratified=stratified
        )

    def _on_rows(self, fn, columns: bool, **kwargs) -> pd.DataFrame:
        """``fn`` (``prn.compare`` / ``prn.bootstrap``) with this metric's ``curve``,
        ``method`` and ``hull`` on every row seen (:meth:`_paired_rows`; ``columns``:
        for :meth:`compare`), the columns named by ``models=`` where it gives names.
        """
        scores, labels, weights = self._paired_rows(columns=columns)
        wide = int(self._spec().reshape(-1, 4)[0, _COLUMNS]) > 0
        data: Any = None
        score: Any = scores.T if wide else scores[0]
        label: Any = labels
        weight: Any = weights
        names = self.row_opts.models
        if names is not None and isinstance(names[0], str):  # the columns by name
            data = pd.DataFrame({name: scores[j] for j, name in enumerate(names)})
            label = "label" if "label" not in names else "__label"
            data[label], score = labels, list(names)
            if weights is not None:
                weight = "weight" if "weight" not in names else "__weight"
                data[weight] = weights
        return fn(
            data,
            score=score,
            label=label,
            weight=weight,
            curve=self._curve,
            method=self.method,
            hull=self.hull,
            **kwargs,
        )

    def _paired_rows(self, columns: bool = True):
        """``(scores (k, n), labels (n,), weights (n,) or None)``: every row of every
        rank, or a clear error (raised on every rank alike: the ranks first exchange
        what they hold). ``columns``: for :meth:`compare` (k >= 2 score columns).
        """
        cols = int(self._spec().reshape(-1, 4)[0, _COLUMNS])
        reduced = any(t[0].numel() for t in self._tables())
        own = None if reduced else self._kept()
        mine = (cols, reduced, None if own is None else (*own, self._kept_weights()))
        parts: list[Any] = [mine]
        if self._to_sync and self._world() > 1:
            import torch.distributed as dist

            parts = [None] * self._world()
            dist.all_gather_object(parts, mine, group=self.process_group)
        name = type(self).__name__
        if columns and any(0 <= p[0] < 2 for p in parts):  # (-1: no rows on that rank)
            raise ValueError(
                f"{name}.compare compares score columns (models) on the same rows: update "
                "with preds of shape (n, k), k >= 2 (one column per model)"
            )
        if any(p[1] for p in parts):
            raise ValueError(
                f"{name} needs the rows, but the state holds tied scores reduced "
                "to counts per distinct score (or rows with sample_weight / by=), which no "
                "longer say which row each model's score came from; build the metric with "
                "keep_rows=True (and no by=) to resample the rows themselves"
            )
        kept = [p[2] for p in parts if p[2] is not None]
        if not kept:
            raise ValueError(
                f"{name} has seen no rows yet (on any rank); call update(...) with at "
                "least one row first"
            )
        if len({p[0] for p in parts if p[0] >= 0}) > 1:
            raise ValueError(
                "the ranks' states hold different numbers of score columns; every rank "
                "must update with preds of the same shape"
            )
        scores = np.concatenate([k[0] for k in kept], axis=1)
        weights = None
        if any(k[2] is not None for k in kept):
            weights = np.concatenate([np.ones(k[1].size) if k[2] is None else k[2] for k in kept])
        return scores, np.concatenate([k[1] for k in kept]), weights


_ROWS_DOC = """
    ignore_index : int, default=None
        Target value of rows left out (before the state), as torchmetrics'; with a
        target of one label column per score column, of the single entries.
    models : list of str or int, default=None
        Names of the score columns of 2-D ``preds`` (one model each, sharing the 1-D
        target): they name the ``model`` column of every frame, :meth:`compare`'s
        included; an int ``k``: ``k`` models named 0 .. k-1. 2-D ``preds`` with a
        1-D target and no ``models`` is an error (a two-class model's logits or
        probabilities belong in ``preds[:, 1]``).
    keep_rows : bool, default=False
        Keep every row of hard, unweighted batches without ``by=`` (tied scores too,
        which are otherwise reduced to counts per distinct score), as :meth:`compare`
        needs for a paired comparison of score columns; 9 bytes per row and column
        (float64 scores).
    merge_checkpoint : bool, default=False
        In a process group, ``state_dict`` gathers every rank's table (a collective
        call), so a checkpoint written by rank 0 resumes every rank's rows.
    **kwargs
        torchmetrics' ``Metric`` options (``sync_on_compute``, ``process_group``,
        ``dist_sync_fn``, ...).
"""

_THRESHOLDS_DOC = """
    thresholds : int, list of float or 1-D Tensor, default=None
        None: the exact area. Otherwise torchmetrics' binned mode: a score counts as
        positive at each threshold it reaches (an int ``T``: ``T`` thresholds evenly
        spaced in [0, 1]); the state holds ``T + 1`` bins per curve whatever the rows
        (fixed memory) and the area is torchmetrics' binned value, an approximation
        named so in ``compute_frame``'s ``method``."""


def _doc(head: str, params: str, example: str) -> str:
    return head + params + _ROWS_DOC + example


class AveragePrecision(_AreaMetric):
    def __init__(
        self,
        thresholds: int | list[float] | torch.Tensor | None = None,
        ignore_index: int | None = None,
        models: Sequence[str] | int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            "ap", False, thresholds, ignore_index, models, keep_rows, merge_checkpoint, **kwargs
        )


class AUCPR(_AreaMetric):
    def __init__(
        self,
        method: str = "dg",
        hull: bool = False,
        ignore_index: int | None = None,
        models: Sequence[str] | int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            method, hull, None, ignore_index, models, keep_rows, merge_checkpoint, **kwargs
        )


class AUROC(_AreaMetric):
    _curve = "roc"

    def __init__(
        self,
        hull: bool = False,
        thresholds: int | list[float] | torch.Tensor | None = None,
        ignore_index: int | None = None,
        models: Sequence[str] | int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            None, hull, thresholds, ignore_index, models, keep_rows, merge_checkpoint, **kwargs
        )


class Metrics(_TableMetric):
    def __init__(
        self,
        metrics: str | Sequence[str] = ("auc_pr", "auc_roc"),
        ignore_index: int | None = None,
        models: Sequence[str] | int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        self.metric_names = metric_names(metrics)
        rows = row_options(ignore_index, models, None)
        super().__init__(
            rows=rows, keep_rows=keep_rows, merge_checkpoint=merge_checkpoint, **kwargs
        )

    def _options(self) -> str:
        return ",".join(self.metric_names)

    def compute(self) -> dict:
        """A dict name -> tensor, shaped as :meth:`AveragePrecision.compute`."""
        shape = self._state()[6]
        frame = self.compute_frame()
        return {nm: self._tensor(frame[nm].to_numpy(np.float64), shape) for nm in self.metric_names}

    def plot(self, val: Any = None, ax: Any = None, **kwargs: Any) -> tuple:
        """Draw every curve's exact PR curve with :func:`prroc_numba.plot.plot_pr`
        (``kwargs`` passed on); returns ``(fig, ax)`` as torchmetrics' ``plot``.
        """
        from ._plotting import plot_state

        return plot_state(self, "pr", val, ax, None, kwargs)

    def compute_frame(self) -> pd.DataFrame:
        """The frame of :func:`prroc_numba.metrics` on every row seen."""
        with self._synced():
            acc = self._accumulator()
        return acc.metrics(self.metric_names)


AveragePrecision.__doc__ = _doc(
    """Average precision (the step sum, scikit-learn's ``average_precision_score``) of
    every curve, streamed, exact and DDP-safe (torchmetrics' ``AveragePrecision``,
    exact where its ``thresholds=None`` mode is).

    A torchmetrics ``Metric``: ``update(preds, target, sample_weight=None, by=None)``
    per batch, ``compute()`` (float64 tensors) and ``compute_frame(n_boot=None,
    level=0.95, seed=None)`` (the library's tidy frame, with intervals when ``n_boot``
    is given) at the end; ``compare()`` for score columns; ``plot()``; ``reset``,
    ``state_dict``, ``MetricCollection``, Lightning's ``self.log`` and the
    process-group sync work as for any torchmetrics metric. The state is the table of
    distinct scores (see :mod:`prroc_numba.torch`).

    Parameters
    ----------""",
    _THRESHOLDS_DOC,
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> ap = pt.AveragePrecision()
    >>> ap.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> round(float(ap.compute()), 6)
    0.833333
    """,
)

AUCPR.__doc__ = _doc(
    """Area under the PR curve by ``method``, streamed, exact and DDP-safe; as
    :class:`AveragePrecision` otherwise.

    Parameters
    ----------
    method : {"dg", "integral", "ap", "trapezoid"}, default="dg"
        As in :func:`prroc_numba.auc`: ``"dg"``, Davis & Goadrich's interpolation.
    hull : bool, default=False
        The area under the achievable PR curve.""",
    "",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.AUCPR(method="dg")
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> round(float(m.compute()), 6)  # prn.auc_pr([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    0.791667
    """,
)

AUROC.__doc__ = _doc(
    """Area under the ROC curve (ties count half: the Mann--Whitney statistic),
    streamed, exact and DDP-safe (torchmetrics' ``AUROC``, exact where its
    ``thresholds=None`` mode is); as :class:`AveragePrecision` otherwise.

    Parameters
    ----------
    hull : bool, default=False
        The area under the ROC convex hull.""",
    _THRESHOLDS_DOC,
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.AUROC()
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> float(m.compute())
    0.75
    """,
)

Metrics.__doc__ = _doc(
    """Several metrics of every curve from one table (as :func:`prroc_numba.metrics`):
    ``compute()`` gives a dict of float64 tensors (one per name), ``compute_frame()``
    the frame of :func:`prroc_numba.metrics` on every row seen.

    Parameters
    ----------
    metrics : str or sequence of str, default=("auc_pr", "auc_roc")
        Names as in :func:`prroc_numba.metrics` (``"auc_pr"``, ``"ap"``,
        ``"auc_roc"``, ``"auc_pr_hull"``, ``"n_pos"``, ...).""",
    "",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.Metrics(["ap", "auc_roc"])
    >>> m.update(torch.tensor([0.9, 0.8, 0.3, 0.1]), torch.tensor([1, 0, 1, 0]))
    >>> {k: round(float(v), 6) for k, v in m.compute().items()}
    {'ap': 0.833333, 'auc_roc': 0.75}
    """,
)
