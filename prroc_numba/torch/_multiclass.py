"""The public multiclass and multilabel classes, with torchmetrics' argument names."""

from __future__ import annotations

from typing import Any

import torch

from ._classes import _ClassMetric

_COMMON = """
    average : {{"macro", "micro", "weighted", "none", None}}, default="macro"
        ``"none"`` / None: one area per {unit} (``compute()`` of shape ({num},));
        ``"macro"``: their mean (NaN, with a warning, when a {unit} has no positive row:
        its area is undefined, as scikit-learn -- torchmetrics leaves it out);
        ``"weighted"``: weighted by each {unit}'s positive rows (weight); ``"micro"``:
        the area of all the (row, {unit}) pairs pooled into one curve.
    thresholds : int, list of float or 1-D Tensor, default=None
        None: the exact area. Otherwise torchmetrics' binned mode: a score counts
        as positive at each threshold it reaches (an int ``T``: ``T`` thresholds
        evenly spaced in [0, 1]), the state holds ``T + 1`` bins per {unit} whatever
        the rows (fixed memory), and the area is torchmetrics' binned value (an
        approximation, named so in ``compute_frame``'s ``method``).
    ignore_index : int, default=None
        Target value of entries left out (before the state).
    keep_rows : bool, default=False
        Also keep every row (scores, target, weight, group), so that
        ``compute_frame(n_boot=...)`` gives intervals paired across {unit}s.
    merge_checkpoint : bool, default=False
        In a process group, ``state_dict`` gathers every rank's table (a collective
        call), so a checkpoint written by rank 0 resumes every rank's rows.
    **kwargs
        torchmetrics' ``Metric`` options (``sync_on_compute``, ``process_group``, ...).
"""


def _doc(head: str, unit: str, num: str, example: str) -> str:
    return head + _COMMON.format(unit=unit, num=num) + example


class _Multiclass(_ClassMetric):
    """The multiclass classes' arguments (``_curve``: "pr" or "roc")."""

    def __init__(
        self,
        num_classes: int,
        average: str | None = "macro",
        thresholds: int | list[float] | torch.Tensor | None = None,
        ignore_index: int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            num_classes, average, thresholds, ignore_index, keep_rows, merge_checkpoint, **kwargs
        )


class _Multilabel(_ClassMetric):
    """The multilabel classes' arguments (``_curve``: "pr" or "roc")."""

    _task = "multilabel"

    def __init__(
        self,
        num_labels: int,
        average: str | None = "macro",
        thresholds: int | list[float] | torch.Tensor | None = None,
        ignore_index: int | None = None,
        keep_rows: bool = False,
        merge_checkpoint: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            num_labels, average, thresholds, ignore_index, keep_rows, merge_checkpoint, **kwargs
        )


class MulticlassAveragePrecision(_Multiclass):
    _curve = "pr"


class MulticlassAUROC(_Multiclass):
    _curve = "roc"


class MultilabelAveragePrecision(_Multilabel):
    _curve = "pr"


class MultilabelAUROC(_Multilabel):
    _curve = "roc"


MulticlassAveragePrecision.__doc__ = _doc(
    """Average precision (scikit-learn's step sum) of each class against the rest,
    averaged, streamed, exact and DDP-safe (torchmetrics'
    ``MulticlassAveragePrecision``, exact where its ``thresholds=None`` mode is).

    ``update(preds (n, K), target (n,) class ids, sample_weight=None, by=None)`` per
    batch; ``compute()``; ``compute_frame(n_boot=None)`` (the frame of
    :func:`prroc_numba.auc` with ``multiclass="ovr"``). The state is one reduced table
    per class (counts per distinct score), exchanged between ranks as tables.

    Parameters
    ----------
    num_classes : int
        Number of classes K (score columns).""",
    "class",
    "num_classes",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.MulticlassAveragePrecision(num_classes=3, average=None)
    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
    ...                       [0.4, 0.4, 0.2]])
    >>> m.update(preds, torch.tensor([0, 1, 2, 1]))
    >>> [round(float(x), 4) for x in m.compute()]
    [1.0, 1.0, 1.0]
    """,
)

MulticlassAUROC.__doc__ = _doc(
    """Area under the ROC curve of each class against the rest (ties count half),
    averaged, streamed, exact and DDP-safe (torchmetrics' ``MulticlassAUROC``, exact
    where its ``thresholds=None`` mode is); otherwise as
    :class:`MulticlassAveragePrecision`.

    Parameters
    ----------
    num_classes : int
        Number of classes K (score columns).""",
    "class",
    "num_classes",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.MulticlassAUROC(num_classes=3)
    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
    ...                       [0.4, 0.4, 0.2]])
    >>> m.update(preds, torch.tensor([0, 1, 2, 1]))
    >>> float(m.compute())
    1.0
    """,
)

MultilabelAveragePrecision.__doc__ = _doc(
    """Average precision of each label, averaged, streamed, exact and DDP-safe
    (torchmetrics' ``MultilabelAveragePrecision``, exact where its
    ``thresholds=None`` mode is).

    ``update(preds (n, L), target (n, L) 0/1, sample_weight=None, by=None)`` per
    batch; ``compute()``; ``compute_frame(n_boot=None)`` (the frame of
    :func:`prroc_numba.auc` with a label matrix). The state is one reduced table per
    label.

    Parameters
    ----------
    num_labels : int
        Number of labels L (score columns).""",
    "label",
    "num_labels",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.MultilabelAveragePrecision(num_labels=2, average=None)
    >>> preds = torch.tensor([[0.9, 0.1], [0.8, 0.7], [0.3, 0.6], [0.1, 0.2]])
    >>> m.update(preds, torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]]))
    >>> [round(float(x), 6) for x in m.compute()]
    [0.833333, 1.0]
    """,
)

MultilabelAUROC.__doc__ = _doc(
    """Area under the ROC curve of each label (ties count half), averaged, streamed,
    exact and DDP-safe (torchmetrics' ``MultilabelAUROC``, exact where its
    ``thresholds=None`` mode is); otherwise as :class:`MultilabelAveragePrecision`.

    Parameters
    ----------
    num_labels : int
        Number of labels L (score columns).""",
    "label",
    "num_labels",
    """
    Examples
    --------
    >>> import torch, prroc_numba.torch as pt
    >>> m = pt.MultilabelAUROC(num_labels=2, average=None)
    >>> preds = torch.tensor([[0.9, 0.1], [0.8, 0.7], [0.3, 0.6], [0.1, 0.2]])
    >>> m.update(preds, torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]]))
    >>> [float(x) for x in m.compute()]
    [0.75, 1.0]
    """,
)
