"""The arguments of the multiclass and multilabel metrics' ``update``, checked.

A batch becomes one score and one 0/1 label per (row, class): ``preds`` ``(n, K)``
(float32 or float64 CPU scores as given, else float64), ``onehot`` ``(n, K)`` bool
(multiclass: the row's class, built on first use by :func:`class_onehot`; multilabel:
the label matrix), and ``keep`` ``(n, K)`` bool or None (multilabel entries equal to
``ignore_index``, left out one by one, as torchmetrics does); multiclass rows whose
class equals ``ignore_index`` are dropped whole.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch

from ._inputs import check_by, check_preds, check_weight, detached, first_true


class ClassRows(NamedTuple):
    """A checked multiclass or multilabel batch (see the module docstring);
    ``target`` is the checked target as given (class ids ``(n,)`` int64 or the 0/1
    label matrix ``(n, K)`` int64), for the rows kept for intervals.
    """

    preds: torch.Tensor
    onehot: torch.Tensor | None
    keep: torch.Tensor | None
    weight: torch.Tensor | None
    by: torch.Tensor | None
    target: torch.Tensor


def _integers(t: torch.Tensor, what: str) -> torch.Tensor:
    if t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"target must hold integer {what}, got dtype {t.dtype}")
    if t.is_floating_point():
        if not bool((t == torch.round(t)).all()):
            raise ValueError(
                f"target holds non-integer values; it must hold integer {what} "
                "(scores belong in preds)"
            )
    return t.to(torch.int64)


def _preds(preds, num: int, arg: str) -> torch.Tensor:
    x = detached(preds, "preds")
    if x.ndim == 2 and x.shape[1] == num and _finite_cpu_floats(x):
        return x  # float32 / float64 CPU scores, all finite: taken as they are
    p, wide = check_preds(x)
    if not wide or p.shape[1] != num:
        raise ValueError(
            f"preds must have shape (n, {num}) (one score column per class, {arg}={num}), "
            f"got {tuple(preds.shape)}"
        )
    return p


def check_multiclass(preds, target, sample_weight, by, num_classes, ignore_index) -> ClassRows:
    """Class ids ``(n,)`` in ``0 .. num_classes - 1`` (or ``ignore_index``)."""
    p = _preds(preds, num_classes, "num_classes")
    n = p.shape[0]
    t = detached(target, "target")
    if t.ndim != 1 or t.shape[0] != n:
        raise ValueError(
            f"target must have shape ({n},) (one class id per row, as preds has {n} rows), "
            f"got {tuple(t.shape)}"
        )
    t = _integers(t, "class ids")
    w = check_weight(sample_weight, n)
    b = check_by(by, n, num_classes)
    if ignore_index is not None:
        kept = t != ignore_index
        if not bool(kept.all()):
            p, t = p[kept], t[kept]
            w = None if w is None else w[kept]
            b = None if b is None else b[kept]
    bad = (t < 0) | (t >= num_classes)
    if bool(bad.any()):
        r = first_true(bad)
        raise ValueError(
            f"target has class id {int(t[r])} at row {r} (kept rows, counting from 0); "
            f"class ids must be 0 .. {num_classes - 1} (num_classes={num_classes})"
            + ("" if ignore_index is None else f" or ignore_index={ignore_index}")
        )
    return _dropped_weight(ClassRows(p, None, None, w, b, t))


def check_multilabel(preds, target, sample_weight, by, num_labels, ignore_index) -> ClassRows:
    """A 0/1 label matrix ``(n, num_labels)`` (entries equal to ``ignore_index`` left
    out).
    """
    p = _preds(preds, num_labels, "num_labels")
    n = p.shape[0]
    t = detached(target, "target")
    if t.shape != p.shape:
        raise ValueError(
            f"target must have shape ({n}, {num_labels}) (one 0/1 label per row and "
            f"label, as preds), got {tuple(t.shape)}"
        )
    t = t.to(torch.int64) if t.dtype == torch.bool else _integers(t, "0/1 labels")
    keep = None if ignore_index is None else t != ignore_index
    if keep is not None and bool(keep.all()):
        keep = None
    bad = (t != 0) & (t != 1) if keep is None else keep & (t != 0) & (t != 1)
    if bool(bad.any()):
        r = first_true(bad.any(dim=1))
        raise ValueError(
            f"target has values {torch.unique(t[bad])[:6].tolist()} (first at row {r}); "
            "multilabel targets must be 0/1"
            + ("" if ignore_index is None else f" or ignore_index={ignore_index}")
        )
    w = check_weight(sample_weight, n)
    b = check_by(by, n, num_labels)
    return _dropped_weight(ClassRows(p, t == 1, keep, w, b, t))


def _finite_cpu_floats(x: torch.Tensor) -> bool:
    if x.device.type != "cpu" or x.dtype not in (torch.float32, torch.float64):
        return False
    return bool(np.isfinite(x.numpy()).all())


def class_onehot(rows: ClassRows, K: int) -> torch.Tensor:
    """The ``(n, K)`` bool labels of a checked batch (multiclass: built here)."""
    if rows.onehot is not None:
        return rows.onehot
    return rows.target[:, None] == torch.arange(K, device=rows.target.device)


def _dropped_weight(rows: ClassRows) -> ClassRows:
    """Rows of zero weight removed (zero weight is removal)."""
    w = rows.weight
    if w is None or not bool((w == 0).any()):
        return rows
    m = w > 0
    return ClassRows(
        rows.preds[m],
        None if rows.onehot is None else rows.onehot[m],
        None if rows.keep is None else rows.keep[m],
        w[m],
        None if rows.by is None else rows.by[m],
        rows.target[m],
    )
