"""The arguments of ``update``, checked on the tensors' own device.

Every check runs as a few tensor reductions (no Python loop over rows, no copy of the
batch to the host) and raises the library's errors, named by the metric's arguments:
lengths, NaN or infinite scores with the first row, labels other than 0/1, negative
weights, group ids that are not integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from .._core import hard_labels


class Rows(NamedTuple):
    """A checked batch: ``preds`` float64 ``(n, k)``; ``target`` float64 or, on the CPU,
    bool ``(n, 1)`` (labels shared by the k columns) or ``(n, k)``; ``weight`` float64
    ``(n,)`` or None; ``by`` int64 ``(n,)`` or None; ``wide``: the scores came as a 2-D
    tensor.
    """

    preds: torch.Tensor
    target: torch.Tensor
    weight: torch.Tensor | None
    by: torch.Tensor | None
    wide: bool


def detached(x, arg):
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{arg} must be a torch.Tensor, got {type(x).__name__}")
    return x.detach()


def first_true(mask):
    """Index of the first True of a 1-D mask (one small copy to the host)."""
    return int(torch.nonzero(mask)[0, 0].item())


def check_preds(preds):
    if preds.ndim not in (1, 2):
        raise ValueError(
            f"preds must have shape (n,) or (n, k) (k score columns), got {tuple(preds.shape)}"
        )
    if preds.is_complex() or preds.dtype == torch.bool:
        raise TypeError(f"preds must hold real scores, got dtype {preds.dtype}")
    if not preds.is_floating_point() and preds.numel():
        big = int(preds.abs().max()) if preds.dtype != torch.uint64 else int(preds.max())
        if big > 2**53:
            raise ValueError(
                f"preds holds integers up to {big:,}, beyond 2**53: the float64 state would "
                "round them (rows would tie or swap); rank them into float64 over the whole "
                "set first, or call prroc_numba.auc / bootstrap on all the rows at once "
                "(which rank them exactly)"
            )
    p = preds.to(torch.float64)
    p2 = p if p.ndim == 2 else p[:, None]
    if p2.device.type == "cpu" and bool(np.isfinite(p2.numpy()).all()):
        return p2, p.ndim == 2  # the common case, checked in one numpy pass
    bad = ~torch.isfinite(p2).all(dim=1)
    if bool(bad.any()):
        r = first_true(bad)
        raise ValueError(
            f"preds has {int(bad.sum())} rows with NaN or infinite values (first: "
            f"{p2[r].tolist()} at row {r}, counting from 0 in this batch); drop or impute "
            "those rows before update"
        )
    return p2, p.ndim == 2


def _check_target(target, n, k):
    if target.ndim == 2 and target.shape[1] == 1 and k != 1:
        target = target[:, 0]
    if target.ndim == 1:
        t = target[:, None]
    elif target.ndim == 2 and target.shape[1] == k:
        t = target
    else:
        raise ValueError(
            f"target must have shape (n,) or (n, {k}) for preds with {k} score column(s), "
            f"got {tuple(target.shape)}"
        )
    if t.shape[0] != n:
        raise ValueError(f"target has {t.shape[0]} rows but preds has {n}; pass equal lengths")
    if t.device.type == "cpu" and t.dtype == torch.bool:
        return t.clone()
    if t.device.type == "cpu" and not t.is_complex():
        pos = hard_labels(t.numpy())  # the Accumulator's check of kept rows' labels
        if pos is not None:
            return torch.from_numpy(pos)  # bool: what the kept rows store
    if t.is_floating_point() or t.is_complex():
        t = t.to(torch.float64)
        bad = ~((t == 0) | (t == 1))
    else:
        bad = ~((t == 0) | (t == 1)) if t.dtype != torch.bool else torch.zeros_like(t)
    if bool(bad.any()):
        vals = torch.unique(t.reshape(-1))[:6].tolist()
        r = first_true(bad.any(dim=1))
        raise ValueError(
            f"target has values {vals} (first outside 0/1 at row {r}); binary labels must "
            "be 0/1 or bool: map them (e.g. target == positive_class) before update"
        )
    return t.to(torch.float64)


def check_weight(weight, n):
    if weight is None:
        return None
    w = detached(weight, "sample_weight")
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            f"sample_weight must have shape ({n},) (one weight per row), got {tuple(w.shape)}"
        )
    w = w.to(torch.float64)
    bad = ~torch.isfinite(w) | (w < 0)
    if bool(bad.any()):
        r = first_true(bad)
        raise ValueError(
            f"sample_weight has {int(bad.sum())} negative, NaN or infinite values (first: "
            f"{w[r].item()} at row {r}); sample weights must be finite and >= 0"
        )
    return w


def check_by(by, n, k):
    if by is None:
        return None
    b = detached(by, "by")
    if b.ndim != 1 or b.shape[0] != n:
        raise ValueError(f"by must have shape ({n},) (one group id per row), got {tuple(b.shape)}")
    if b.is_floating_point() or b.is_complex() or b.dtype == torch.bool:
        raise TypeError(
            f"by must hold integer group ids, got dtype {b.dtype}; map groups to integers "
            "(e.g. torch.unique(x, return_inverse=True)[1])"
        )
    b = b.to(torch.int64)
    limit = (2**62) // k
    if b.numel() and bool((b.abs() >= limit).any()):
        raise ValueError(
            f"by holds group ids beyond +-{limit:,}; number the groups 0, 1, 2, ... instead"
        )
    return b


def check_rows(preds, target, sample_weight, by) -> Rows:
    """The checked :class:`Rows` of one ``update`` call (zero-weight rows dropped: zero
    weight is removal).
    """
    p, wide = check_preds(detached(preds, "preds"))
    n, k = p.shape
    t = _check_target(detached(target, "target"), n, k)
    w = check_weight(sample_weight, n)
    b = check_by(by, n, k)
    if w is not None and bool((w == 0).any()):
        keep = w > 0
        p, t, w = p[keep], t[keep], w[keep]
        b = None if b is None else b[keep]
    return Rows(p, t, w, b, wide)


@dataclass(frozen=True)
class RowOptions:
    """How the binary metrics read a batch: ``ignore_index`` (target value of rows
    left out), ``models`` (names of the score columns of 2-D preds), ``thresholds``
    (torchmetrics' binned mode, ascending; None: exact).
    """

    ignore_index: int | None = None
    models: tuple | None = None  # str names, or 0 .. k-1
    thresholds: tuple[float, ...] | None = None


def row_options(ignore_index, models, thresholds) -> RowOptions:
    """The checked :class:`RowOptions`."""
    from ._binned import check_thresholds

    if ignore_index is not None and (
        isinstance(ignore_index, bool) or not isinstance(ignore_index, (int, np.integer))
    ):
        raise TypeError(f"ignore_index must be an int or None, got {ignore_index!r}")
    names: tuple | None = None
    if isinstance(models, (int, np.integer)) and not isinstance(models, bool):
        if models < 1:
            raise ValueError(f"models={models}: pass the number of score columns (>= 1)")
        names = tuple(range(int(models)))  # unnamed: 0 .. k-1, as prn.auc names columns
    elif models is not None:
        if isinstance(models, str) or not all(isinstance(m, str) for m in models):
            raise TypeError(
                f"models must be a list of names (str) or the number of models, got {models!r}"
            )
        names = tuple(models)
        if len(set(names)) != len(names) or len(names) < 1:
            raise ValueError(f"models must name each score column once, got {list(names)}")
    thr = check_thresholds(thresholds)
    return RowOptions(
        None if ignore_index is None else int(ignore_index),
        names,
        None if thr is None else tuple(float(x) for x in thr),
    )


def drop_ignored(preds, target, weight, by, ignore_index):
    """``(preds, target, weight, by, keep)``: a 1-D target's rows equal to
    ``ignore_index`` dropped; a per-column target's such entries set to 0 and left out
    by ``keep`` (``(n, k)`` bool, None when nothing is left out).
    """
    if ignore_index is None:
        return preds, target, weight, by, None
    t = detached(target, "target")
    p = detached(preds, "preds")
    if t.ndim == 2 and t.shape[1] > 1:
        mask = t != ignore_index
        if bool(mask.all()):
            return preds, target, weight, by, None
        return preds, torch.where(mask, t, torch.zeros_like(t)), weight, by, mask
    keep = t.reshape(-1) != ignore_index
    if t.ndim > 2 or t.shape[0] != p.shape[0] or bool(keep.all()):
        return preds, target, weight, by, None  # shape errors are check_rows' to raise
    w = None if weight is None else detached(weight, "sample_weight")
    b = None if by is None else detached(by, "by")
    sel = keep.to(p.device)
    return (
        p[sel],
        t[keep],
        None if w is None or w.shape[:1] != keep.shape else w[keep.to(w.device)],
        None if b is None or b.shape[:1] != keep.shape else b[keep.to(b.device)],
        None,
    )


def check_models(rows: Rows, models, name: str) -> None:
    """2-D preds with one label column: the columns are models, named by ``models``
    (without it, an error naming both fixes); ``models`` needs that many columns.
    """
    k = rows.preds.shape[1]
    if models is not None:
        if not rows.wide or len(models) != k:
            raise ValueError(
                f"models= names {len(models)} score column(s) but preds has "
                f"{k if rows.wide else 'no'} column(s) (shape (n,) is one model: drop "
                "models=); pass one name per column of preds"
            )
        return
    if rows.wide and k >= 2 and rows.target.shape[1] == 1:
        extra = (
            f"; for {k}-class scores use MulticlassAveragePrecision(num_classes={k})"
            if k > 2
            else ""
        )
        raise ValueError(
            f"preds has {k} columns and target one label per row: for a two-class "
            "model's logits or probabilities pass preds[:, 1] (the positive class's "
            f"column); to score {k} models on the same rows name them, "
            f"{name}(models=[...{k} names]) or {name}(models={k}){extra}"
        )
