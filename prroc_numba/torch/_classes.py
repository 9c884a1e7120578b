"""Multiclass and multilabel metrics: one reduced table per class, areas averaged.

The state is the table of :mod:`._metric` with one curve per (group, class): every
(row, class) pair is an entry of its class's curve, positive where the row is of that
class (multiclass, one-vs-rest) or has that label (multilabel). Ranks exchange these
tables, never the predictions. ``compute`` takes each class's area from the merged
table and averages them as :func:`prroc_numba.auc` does (``average``); ``"micro"``
pools the classes' tables into one curve. With ``keep_rows=True`` the rows are also
kept, for intervals paired across classes (:func:`prroc_numba.bootstrap` on them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from .. import _frames as F
from .. import _schema as S
from .._checks import check_level, check_n_boot, method_code, method_label
from .._core import Layout, warn_undefined_auc
from .._resampling import table_areas
from ._binned import binned_areas, binned_label, binned_table, bins, check_thresholds
from ._class_inputs import check_multiclass, check_multilabel, class_onehot
from ._class_rows import CLASS_ROWS, joined, keep_batch, rows_areas
from ._metric import _RAW_VALUES, _SAMPLE, _TableMetric
from ._reduce import element_table, merge, reduce_numpy

#: the list states of the rows kept for intervals (``keep_rows=True``)
_KEPT = ("class_preds", "class_target", "class_weight", "class_by")
_AVERAGES = ("macro", "micro", "weighted", "none", None)


@dataclass(frozen=True)
class ClassOptions:
    """What a multiclass or multilabel metric computes, checked once in ``__init__``."""

    task: str  # "multiclass" or "multilabel"
    num: int  # number of classes (labels)
    curve: str  # "pr" (average precision) or "roc"
    average: str | None  # None: one area per class
    ignore_index: int | None
    thresholds: tuple[float, ...] | None  # binned mode, ascending
    keep_rows: bool

    @property
    def method(self) -> str:
        return "ap" if self.curve == "pr" else "trapezoid"

    @property
    def label(self) -> str:
        """The ``method`` column of the frames (binned mode named so)."""
        name = method_label(self.curve, self.method)
        return name if self.thresholds is None else binned_label(name, len(self.thresholds))


def class_options(task, num, curve, average, ignore_index, thresholds, keep_rows) -> ClassOptions:
    """The checked :class:`ClassOptions` (clear errors naming the argument)."""
    arg = "num_classes" if task == "multiclass" else "num_labels"
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 2:
        raise ValueError(f"{arg} must be an int >= 2, got {num!r}")
    if average not in _AVERAGES:
        raise ValueError(f"average={average!r} is not known; use one of {list(_AVERAGES)}")
    if ignore_index is not None and (
        isinstance(ignore_index, bool) or not isinstance(ignore_index, (int, np.integer))
    ):
        raise TypeError(f"ignore_index must be an int or None, got {ignore_index!r}")
    thr = check_thresholds(thresholds)
    return ClassOptions(
        task,
        int(num),
        curve,
        None if average == "none" else average,
        None if ignore_index is None else int(ignore_index),
        None if thr is None else tuple(float(x) for x in thr),
        bool(keep_rows),
    )


def _per_class(groups: pd.DataFrame, K: int) -> pd.DataFrame:
    """The keys of every (group, class) curve: each group's row repeated, ``class``."""
    keys = groups.loc[np.repeat(np.arange(len(groups)), K)].reset_index(drop=True)
    keys[S.CLASS] = np.tile(np.arange(K), len(groups))
    return keys


class _ClassMetric(_TableMetric):
    """A multiclass or multilabel metric (see the module docstring)."""

    _curve_key = S.CLASS
    _task = "multiclass"
    _curve = "pr"

    def __init__(
        self,
        num: int,
        average: str | None,
        thresholds: int | list[float] | torch.Tensor | None,
        ignore_index: int | None,
        keep_rows: bool,
        merge_checkpoint: bool,
        **kwargs: Any,
    ) -> None:
        """The public classes' arguments (``num``: ``num_classes`` or ``num_labels``),
        checked once into :class:`ClassOptions` for the class's ``_task`` and ``_curve``.
        """
        opts = class_options(
            self._task, num, self._curve, average, ignore_index, thresholds, keep_rows
        )
        self.opts = opts
        self._code = method_code(opts.curve, opts.method)
        super().__init__(merge_checkpoint=merge_checkpoint, keep_rows=opts.keep_rows, **kwargs)
        for name in CLASS_ROWS + (_KEPT if opts.keep_rows else ()):
            self.add_state(name, default=[], dist_reduce_fx="cat", persistent=True)

    def _options(self) -> str:
        return repr(self.opts)

    def _binned_mode(self) -> bool:
        return self.opts.thresholds is not None

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
        preds : Tensor of shape (n, K)
            One score column per class (label); higher: more likely. Taken as given
            (torchmetrics applies softmax / sigmoid to values outside [0, 1]; the
            per-class ranking of softmax probabilities differs from that of logits,
            so pass ``preds.softmax(-1)`` to match it on logits).
        target : Tensor
            Multiclass: ``(n,)`` integer class ids ``0 .. K-1``. Multilabel: ``(n, K)``
            0/1 labels.
        sample_weight : Tensor of shape (n,), default=None
            Non-negative row weights.
        by : Tensor of shape (n,), default=None
            Integer group id of each row: one set of curves per group.
        """
        o = self.opts
        check = check_multiclass if o.task == "multiclass" else check_multilabel
        rows = check(preds, target, sample_weight, by, o.num, o.ignore_index)
        self._note_spec(o.num, rows.by, rows.weight)
        if rows.preds.shape[0] == 0:
            return
        if o.keep_rows:
            self._keep_class_rows(rows)
        if self._keeps_class(rows):
            self._keep_class(rows, preds)
            return
        onehot = class_onehot(rows, o.num)
        if o.thresholds is None:
            table = element_table(rows.preds, onehot, rows.keep, rows.weight, rows.by)
        elif rows.by is None:  # one group: a bincount per class (fixed size)
            b = bins(rows.preds, np.asarray(o.thresholds))
            table = binned_table(b, onehot, rows.keep, rows.weight, len(o.thresholds))
        else:
            b = bins(rows.preds, np.asarray(o.thresholds))
            table = element_table(b, onehot, rows.keep, rows.weight, rows.by)
        self._add_table(table)

    # ------------------------------------------------------------- kept rows

    def _keeps_class(self, rows) -> bool:
        """Whether a batch is kept as rows (see :mod:`._class_rows`)."""
        return (
            rows.preds.device.type == "cpu"
            and self.opts.thresholds is None
            and rows.weight is None
            and rows.by is None
            and rows.keep is None
        )

    def _keep_class(self, rows, preds) -> None:
        scores, labels = keep_batch(rows, preds)
        self._table_list(CLASS_ROWS[0]).append(scores)
        self._table_list(CLASS_ROWS[1]).append(labels)
        held = sum(int(x.shape[1]) for x in self._table_list(CLASS_ROWS[0])) * self.opts.num
        if held <= max(_RAW_VALUES, self._rows_limit):
            return
        lst = self._table_list(CLASS_ROWS[0])
        step = max(1, (held // self.opts.num + _SAMPLE - 1) // _SAMPLE)
        sample = torch.cat([x[0, ::step] for x in lst])
        if 2 * torch.unique(sample).numel() > sample.numel():  # continuous: keep rows
            self._rows_limit = 4 * held
            return
        self._fold_rows()

    def _kept_class(self):
        """``(scores (K, n) float64, onehot (K, n) bool)`` of the kept rows, or None."""
        return joined(*(self._table_list(name) for name in CLASS_ROWS))

    def _kept_class_table(self):
        kept = self._kept_class()
        if kept is None:
            return None
        S, onehot = (torch.from_numpy(np.ascontiguousarray(x.T)) for x in kept)
        return element_table(S, onehot, None, None, None)

    def _fold_rows(self) -> None:
        super()._fold_rows()
        table = self._kept_class_table()
        if table is not None:
            for name in CLASS_ROWS:
                setattr(self, name, [])
            self._add_table(table)

    def _merged(self):
        table, kept = super()._merged(), self._kept_class_table()
        return table if kept is None else merge([t for t in (table, kept) if t is not None])

    def _clear_rows(self) -> None:
        super()._clear_rows()
        for name in CLASS_ROWS:
            setattr(self, name, [])

    # --------------------------------------------------------------- results

    def _class_areas(self):
        """``(areas, P, N, pooled, groups)``: each class's area ``(G, K)`` (NaN where
        undefined, warned), positive and negative masses ``(G, K)``, the pooled
        (micro) area per group ``(G,)`` when ``average="micro"``, the groups' keys
        (``G`` rows; no columns without ``by=``).
        """
        o = self.opts
        kept = self._kept_class()
        alone = not (self._to_sync and self._world() > 1)  # else the ranks' tables
        if kept is not None and alone and not any(t[0].numel() for t in self._tables()):
            return self._rows_areas(*kept)  # only rows: prn.auc's own route
        with self._synced():
            layout, curve, score, pos, neg, offsets = self._state()[:6]
        n_curves = offsets.size - 1
        G, K = n_curves // o.num, o.num
        P = np.bincount(curve, weights=pos, minlength=n_curves)
        N = np.bincount(curve, weights=neg, minlength=n_curves)
        pooled = None
        if o.average == "micro":
            pooled = self._areas(*self._pooled(curve // K, score, pos, neg, G), G)
        areas = self._areas(curve, score, pos, neg, offsets, n_curves)
        groups = layout.keys.reset_index(drop=True).iloc[::K][list(layout.by)]
        groups = groups.reset_index(drop=True)
        if o.average != "micro":
            curves = Layout([*layout.by, S.CLASS], None, _per_class(groups, K))
            bad = warn_undefined_auc(curves, o.curve, stacklevel=5, totals=(P, N))
            areas[bad] = np.nan
        return areas.reshape(G, K), P.reshape(G, K), N.reshape(G, K), pooled, groups

    def _rows_areas(self, scores, onehot):
        """:meth:`_class_areas` of kept rows only (one group)."""
        o = self.opts
        areas, P, N, pooled = rows_areas(scores, onehot, self._code, o.average == "micro")
        groups = pd.DataFrame(index=[0])
        if o.average != "micro":
            curves = Layout([S.CLASS], None, _per_class(groups, o.num))
            bad = warn_undefined_auc(curves, o.curve, stacklevel=5, totals=(P, N))
            areas[bad] = np.nan
        return areas[None, :], P[None, :], N[None, :], pooled, groups

    @staticmethod
    def _pooled(group, score, pos, neg, G):
        """One curve per group: the classes' entries pooled (``average="micro"``)."""
        key, s, p, n = reduce_numpy(group.astype(np.int64), score, pos, neg)
        return key, s, p, n, np.searchsorted(key, np.arange(G + 1)).astype(np.int64)

    def _areas(self, curve, score, pos, neg, offsets, n_curves) -> np.ndarray:
        o = self.opts
        if o.thresholds is None:
            return table_areas(offsets, pos, neg, self._code, False)
        T = len(o.thresholds)
        return binned_areas(curve, score, pos, neg, n_curves, T, o.curve == "roc")

    def _averaged(self):
        """``(values, groups)``: ``(G, K)`` per class, else ``(G,)`` averaged."""
        areas, P, _N, pooled, groups = self._class_areas()
        avg = self.opts.average
        if avg is None:
            return areas, groups
        if avg == "micro":
            return pooled, groups
        if avg == "macro":
            return areas.mean(axis=1), groups
        # weighted by each class's positive mass; a class without positives has weight 0
        with np.errstate(invalid="ignore", divide="ignore"):
            num = np.where(P > 0, np.nan_to_num(areas) * P, 0.0).sum(axis=1)
            return num / P.sum(axis=1), groups

    def compute(self) -> torch.Tensor:
        """The area per class (``average=None``: ``(K,)``, or ``(groups, K)`` with
        ``by=``) or averaged (a 0-d tensor, or ``(groups,)``), float64.
        """
        values, groups = self._averaged()
        G, by = len(groups), groups.shape[1] > 0
        if self.opts.average is None:
            shape: tuple = (G, self.opts.num) if by else (self.opts.num,)
        else:
            shape = (G,) if by else ()
        return self._tensor(np.asarray(values, dtype=np.float64).reshape(-1), shape)

    def compute_frame(
        self,
        n_boot: int | None = None,
        level: float = 0.95,
        seed: int | None = None,
        stratified: bool | None = None,
    ) -> pd.DataFrame:
        """The tidy frame of :func:`prroc_numba.auc` (``multiclass="ovr"`` or a label
        matrix, this ``average``) on every row seen: ``group`` (with ``by=``),
        ``class`` (``average=None``), ``curve``, ``method``, ``auc``. With ``n_boot``:
        the frame of :func:`prroc_numba.bootstrap` on the rows kept by
        ``keep_rows=True``, its intervals paired across classes (each replicate draws
        the rows once for every class), equal to ``prn.bootstrap``'s for the same
        ``seed``.
        """
        if n_boot is not None:
            return self._interval_frame(n_boot, level, seed, stratified)
        values, keys = self._averaged()
        if self.opts.average is None:
            keys = _per_class(keys, self.opts.num)
        out = F.curves_frame(keys, {S.AUC: np.asarray(values, dtype=np.float64).reshape(-1)})
        return F.describe(out, S.AUC, curve=self.opts.curve, method=self.opts.label)

    def plot(self, val: Any = None, ax: Any = None, **kwargs: Any) -> tuple:
        """Draw each class's exact one-vs-rest PR curve (ROC for the AUROC classes)
        with :mod:`prroc_numba.plot`, one colour per ``class`` (``kwargs`` passed on);
        returns ``(fig, ax)`` as torchmetrics' ``plot``.
        """
        from ._plotting import plot_state

        return plot_state(self, self.opts.curve, val, ax, None, kwargs)

    # ------------------------------------------------------------- intervals

    def _keep_class_rows(self, rows) -> None:
        if rows.keep is not None:
            raise ValueError(
                "keep_rows=True keeps whole rows for intervals, but this batch has "
                f"entries equal to ignore_index={self.opts.ignore_index}; drop those rows "
                "(or build the metric without keep_rows)"
            )
        # copies: the caller may reuse its tensors
        cpu = (x.detach().cpu().clone() for x in (rows.preds, rows.target))
        for name, x in zip(_KEPT[:2], cpu):
            self._table_list(name).append(x)
        if rows.weight is not None:
            self._table_list("class_weight").append(rows.weight.cpu().clone())
        if rows.by is not None:
            self._table_list("class_by").append(rows.by.cpu().clone())

    def _rows_for_intervals(self) -> dict | None:
        """The rows kept as rows (one process, unweighted, no ``by=``, nothing reduced
        yet) in :meth:`_kept_class_rows`' form, or None.
        """
        kept = self._kept_class()
        if kept is None or (self._to_sync and self._world() > 1):
            return None
        if any(t[0].numel() for t in self._tables()):
            return None
        scores, onehot = kept
        target = onehot.argmax(axis=0) if self.opts.task == "multiclass" else onehot.T
        out = {name: None for name in _KEPT}
        out.update(class_preds=scores.T, class_target=target.astype(np.int64))
        return out

    def _kept_class_rows(self) -> dict:
        out = {}
        for name in _KEPT:
            x = getattr(self, name)
            x = [x] if isinstance(x, torch.Tensor) else x
            x = [t for t in x if t.numel()]
            out[name] = torch.cat(x).cpu().numpy() if x else None
        return out

    def _interval_frame(self, n_boot, level, seed, stratified) -> pd.DataFrame:
        from ..resampling import bootstrap

        o = self.opts
        check_n_boot(n_boot)
        check_level(level)
        kept = None if o.keep_rows else self._rows_for_intervals()
        if (not o.keep_rows and kept is None) or o.thresholds is not None:
            raise ValueError(
                f"{type(self).__name__}.compute_frame(n_boot=...) resamples rows, paired "
                "across classes, but the state holds tied scores reduced to counts per "
                "class (or rows with sample_weight / by= / ignored entries, or another "
                "rank's rows): build the metric with keep_rows=True (and thresholds=None)"
            )
        if kept is None:
            with self._synced():
                kept = self._kept_class_rows()
        if kept["class_preds"] is None:
            raise ValueError(
                f"{type(self).__name__} has seen no rows yet (on any rank); call "
                "update(...) with at least one row first"
            )
        scores = [f"s{j}" for j in range(o.num)]
        frame = pd.DataFrame(kept["class_preds"], columns=scores)
        y = kept["class_target"]
        if o.task == "multiclass":
            frame["y"] = y
            label: Any = "y"
        else:
            label = [f"y{j}" for j in range(o.num)]
            frame[label] = y
        if kept["class_by"] is not None:
            frame[S.GROUP] = kept["class_by"]
        if kept["class_weight"] is not None:
            frame["w"] = kept["class_weight"]
        return bootstrap(
            frame,
            score=scores,
            label=label,
            by=S.GROUP if kept["class_by"] is not None else None,
            weight="w" if kept["class_weight"] is not None else None,
            curve=o.curve,
            method=o.method,
            multiclass="ovr" if o.task == "multiclass" else None,
            classes=list(range(o.num)),
            average=o.average,
            n_boot=n_boot,
            level=level,
            seed=seed,
            stratified=stratified,
        )
