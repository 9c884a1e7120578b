"""PyTorch and Lightning: exact, mergeable, DDP-safe metric objects (torchmetrics).

:class:`AveragePrecision`, :class:`AUCPR`, :class:`AUROC`, :class:`Metrics` and the
multiclass and multilabel classes (:class:`MulticlassAveragePrecision`,
:class:`MulticlassAUROC`, :class:`MultilabelAveragePrecision`, :class:`MultilabelAUROC`:
one table per class, torchmetrics' ``average``) are torchmetrics ``Metric`` subclasses:
``update(preds, target, sample_weight=None, by=None)`` per batch, ``compute()`` per
epoch, ``compute_frame(n_boot=...)`` for the library's tidy frame with bootstrap
intervals, ``compare(n_boot=...)`` for the paired comparison of score columns,
``plot()`` for the exact curves. Their state is the rows of hard, unweighted CPU batches
while that is the smaller form (continuous scores), else the table *(curve, distinct
score) -> (positives, negatives)* the rows reduce to (on the batch's own device), merged
as it grows; in a process group the ranks reduce their rows and exchange those tables,
never the predictions. Results equal :func:`prroc_numba.auc` /
:func:`prroc_numba.metrics` / :func:`prroc_numba.bootstrap` / :func:`prroc_numba.compare`
on all the rows, whatever the number of ranks and the order of the batches.

Needs the extra ``prroc-numba[torch]`` (torch and torchmetrics); ``import prroc_numba``
never imports torch.
"""

from __future__ import annotations

try:
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "prroc_numba.torch needs torch and torchmetrics: pip install 'prroc-numba[torch]'"
    ) from err

from ._binary import AUCPR, AUROC, AveragePrecision, Metrics
from ._multiclass import (
    MulticlassAUROC,
    MulticlassAveragePrecision,
    MultilabelAUROC,
    MultilabelAveragePrecision,
)

__all__ = [
    "AUCPR",
    "AUROC",
    "AveragePrecision",
    "Metrics",
    "MulticlassAUROC",
    "MulticlassAveragePrecision",
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
]
