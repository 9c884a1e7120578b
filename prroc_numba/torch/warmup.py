"""The torch wing's representative calls, for ``prroc-numba warmup`` and a build that
has torch (:mod:`prroc_numba._jit.warmup` gathers them by this module's path; without
torch this package cannot be imported, and its calls are left out).

Tiny metric objects updated and computed on CPU tensors built from the warm-up's
inputs: the kept rows of continuous scores, the reduced table (tied scores, weights,
groups), the intervals of :meth:`~prroc_numba.torch.AveragePrecision.compute_frame`,
the paired comparison and a multiclass metric -- the kernels the metrics reach, with
the argument types they reach them with.
"""

from __future__ import annotations


def available() -> bool:
    """Whether torch and torchmetrics can be imported (this package needs them)."""
    try:
        import torch  # noqa: F401
        import torchmetrics  # noqa: F401
    except ImportError:
        return False
    return True


def _tensors(d):
    """Scores ``(n, 2)`` (continuous, tied), 0/1 labels, weights and group ids."""
    import numpy as np
    import torch

    small = d.small  # torch.tensor copies (pandas hands out read-only arrays)
    scores = torch.tensor(small[["s", "si"]].to_numpy(dtype=np.float64))
    groups = torch.tensor(small["g"].astype("category").cat.codes.to_numpy(np.int64))
    label = torch.tensor(small["y"].to_numpy(np.int64))
    weight = torch.tensor(small["w"].to_numpy(np.float64))
    return scores, label, weight, groups


def _binary(d):
    from . import AUROC, AveragePrecision

    scores, label, weight, groups = _tensors(d)
    rows = AveragePrecision(models=["s", "si"], keep_rows=True)
    rows.update(scores, label)
    table = AUROC()
    table.update(scores[:, 1], label, sample_weight=weight, by=groups)
    return [
        float(rows.compute()[0]),
        rows.compute_frame(n_boot=20, seed=0),
        rows.compare(n_boot=20, seed=0),
        table.compute_frame(),
    ]


def _multiclass(d):
    import torch

    from . import MulticlassAUROC

    scores, label, _weight, groups = _tensors(d)
    preds = torch.softmax(torch.stack([scores[:, 0], scores[:, 1], -scores[:, 0]], 1), 1)
    metric = MulticlassAUROC(num_classes=3, average=None)
    metric.update(preds, groups)
    return [float(x) for x in metric.compute()]


#: (name, call): ``call(d)`` on the warm-up's inputs ``d`` (needs torch)
CALLS = [("torch binary metrics", _binary), ("torch multiclass metric", _multiclass)]
