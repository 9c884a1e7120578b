"""torchmetrics' binned mode (``thresholds=``): fixed memory, approximate areas.

Each score is replaced by its bin, the number of thresholds at or below it (0 below
them all, ``T`` at or above the last), before the batch is reduced, so the table holds
at most ``T + 1`` entries per curve whatever the rows. The areas are then torchmetrics'
own formulas on the multi-threshold confusion matrix (a row is predicted positive at
threshold ``t`` when its score is ``>= t``):

* average precision: ``-sum((R[i+1] - R[i]) * P[i])`` over the thresholds in
  ascending order, with the point ``(R, P) = (0, 1)`` appended (undefined precision
  counts 0); rows below the first threshold are never predicted positive, so the
  curve need not reach recall 1;
* AUROC: the trapezoids through the ``(FPR, TPR)`` points of the thresholds, from the
  last threshold to the first (no ``(0, 0)`` point is added).
"""

from __future__ import annotations

import numpy as np
import torch


def check_thresholds(thresholds) -> np.ndarray | None:
    """The thresholds as float64 (ascending), as torchmetrics builds them: an int
    ``T`` is ``torch.linspace(0, 1, T)`` (float32), a list ``torch.tensor(list)``
    (float32), a tensor itself; None: the exact mode.
    """
    if thresholds is None:
        return None
    if isinstance(thresholds, bool):
        raise TypeError("thresholds must be an int, a list of floats or a 1-D tensor, got bool")
    if isinstance(thresholds, int):
        if thresholds < 2:
            raise ValueError(f"thresholds={thresholds}: pass an int >= 2 (evenly spaced in [0, 1])")
        t = torch.linspace(0, 1, thresholds)
    elif isinstance(thresholds, (list, tuple)):
        t = torch.tensor(list(thresholds))
    elif isinstance(thresholds, torch.Tensor):
        t = thresholds.detach().cpu()
    else:
        raise TypeError(
            "thresholds must be an int, a list of floats or a 1-D tensor, got "
            f"{type(thresholds).__name__}"
        )
    if t.ndim != 1 or t.numel() < 1 or t.is_complex() or t.dtype == torch.bool:
        raise ValueError(f"thresholds must be a non-empty 1-D list of reals, got {t.tolist()}")
    out = t.to(torch.float64).numpy().copy()
    if not np.isfinite(out).all() or (np.diff(out) <= 0).any():
        raise ValueError(
            f"thresholds must be finite and strictly ascending, got {out.tolist()[:8]}"
        )
    return out


def bins(scores: torch.Tensor, thresholds: np.ndarray) -> torch.Tensor:
    """Each score's bin (float64): how many thresholds are ``<=`` it."""
    t = torch.from_numpy(thresholds).to(scores.device)
    s = scores.to(torch.float64).contiguous()
    return torch.searchsorted(t, s, right=True).to(torch.float64)


def binned_table(b: torch.Tensor, onehot, keep, weight, T: int):
    """The table of a batch of bins ``b`` ``(n, K)`` (one group): each class's mass per
    bin by one ``bincount`` (no sort), entries in the table's order (class, then bin
    descending), empty bins left out.
    """
    n, K = b.shape
    idx = (b.to(torch.int64) + torch.arange(K, device=b.device) * (T + 1)).reshape(-1)
    lab = onehot.to(torch.float64).reshape(-1)
    w = torch.ones_like(lab) if weight is None else weight[:, None].expand(n, K).reshape(-1)
    if keep is not None:
        m = keep.reshape(-1)
        idx, lab, w = idx[m], lab[m], w[m]
    size = K * (T + 1)
    pos = torch.bincount(idx, weights=w * lab, minlength=size).reshape(K, T + 1).flip(1)
    neg = torch.bincount(idx, weights=w * (1.0 - lab), minlength=size).reshape(K, T + 1).flip(1)
    nz = (pos > 0) | (neg > 0)
    key = torch.arange(K, device=b.device)[:, None].expand(K, T + 1)[nz]
    score = torch.arange(T, -1, -1, device=b.device, dtype=torch.float64).expand(K, T + 1)[nz]
    return key.contiguous(), score.contiguous(), pos[nz], neg[nz]


def _confusion(curve, score, pos, neg, n_curves: int, T: int):
    """``(tp, fp, P, N)``: each curve's positive and negative mass at or above each
    threshold (``(n_curves, T)``) and in all.
    """
    b = score.astype(np.int64)
    cp = np.zeros((n_curves, T + 1))
    cn = np.zeros((n_curves, T + 1))
    np.add.at(cp, (curve, b), pos)
    np.add.at(cn, (curve, b), neg)
    above_p = np.cumsum(cp[:, ::-1], axis=1)[:, ::-1]  # mass in bins >= b
    above_n = np.cumsum(cn[:, ::-1], axis=1)[:, ::-1]
    return above_p[:, 1:], above_n[:, 1:], above_p[:, 0], above_n[:, 0]


def binned_areas(curve, score, pos, neg, n_curves: int, T: int, roc: bool) -> np.ndarray:
    """Each curve's binned area (torchmetrics' formulas, module docstring) from table
    entries whose scores are bins.
    """
    tp, fp, P, N = _confusion(curve, score, pos, neg, n_curves, T)
    with np.errstate(invalid="ignore", divide="ignore"):
        if roc:
            tpr = np.where(P[:, None] > 0, tp / P[:, None], 0.0)[:, ::-1]
            fpr = np.where(N[:, None] > 0, fp / N[:, None], 0.0)[:, ::-1]
            return np.sum(np.diff(fpr, axis=1) * (tpr[:, 1:] + tpr[:, :-1]) / 2, axis=1)
        prec = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        rec = np.where(P[:, None] > 0, tp / P[:, None], 0.0)
    rec = np.concatenate([rec, np.zeros((n_curves, 1))], axis=1)
    return -np.sum((rec[:, 1:] - rec[:, :-1]) * prec, axis=1)


def binned_label(method_label: str, T: int) -> str:
    """``method`` of a binned area: says it is not the exact one."""
    return f"{method_label} (binned, {T} thresholds)"
