"""The arguments of ``update``, checked on the tensors' own device.

Every check runs as a few tensor reductions (no Python loop over rows, no copy of the
batch to the host) and raises the library's errors, named by the metric's arguments:
lengths, NaN or infinite scores with the first row, labels other than 0/1, negative
weights, group ids that are not integers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch


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
    if t.device.type == "cpu" and not t.is_floating_point() and not t.is_complex():
        a = t.numpy()
        u = a.view(f"u{a.itemsize}") if a.dtype.kind == "i" else a  # 0 / 1 <=> unsigned <= 1
        if bool((u <= 1).all()):
            return torch.from_numpy(a.astype(bool))  # bool: what the kept rows store
    if t.device.type == "cpu" and t.is_floating_point():
        a = t.numpy()
        one = a == 1
        if bool((one | (a == 0)).all()):
            return torch.from_numpy(one)
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
