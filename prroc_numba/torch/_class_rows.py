"""Kept rows of the multiclass and multilabel metrics, and their areas by the
library's own route.

Batches on the CPU without weights, ``by=``, ignored entries or ``thresholds=`` are kept
as they came -- the scores ``(K, n)`` in their own floating dtype (float32 stays 4
bytes) and the target (class ids ``(n,)`` int64, or the label matrix ``(K, n)`` bool) --
until a strided sample says the scores are tied (then they are reduced to the table of
:mod:`._reduce`, as the binary metrics do). ``compute`` on kept rows builds one batch
whose curve ``c`` is class ``c`` over its own 0/1 label block and runs
:func:`prroc_numba._core.area_frames.batch_areas` (the class-split keys-only sort of
``prn.auc``): the same areas as the table, faster than reducing first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from .._core import Batch, batch_areas

#: the two list states: scores ``(K, n)``, target ``(n,)`` int64 or ``(K, n)`` bool
CLASS_ROWS = ("class_scores", "class_labels")


def keep_batch(rows, preds) -> tuple[torch.Tensor, torch.Tensor]:
    """``(scores (K, n), labels)`` copies of a checked batch to keep (scores in the
    caller's own floating dtype where numpy has it).
    """
    own = (
        preds.is_floating_point()
        and preds.dtype != torch.bfloat16
        and preds.shape[0] == rows.preds.shape[0]  # no row dropped (ignore_index)
    )
    src = (preds.detach() if own else rows.preds).numpy()
    scores = torch.from_numpy(np.ascontiguousarray(src.T))
    if rows.target.ndim == 1:  # multiclass: the class ids, in the smallest dtype
        K = rows.preds.shape[1]
        small = torch.uint8 if K <= 255 else torch.int16 if K <= 32767 else torch.int64
        labels = rows.target.to(small, copy=True)
    else:
        labels = torch.from_numpy(np.ascontiguousarray(rows.target.numpy().T == 1))
    return scores, labels


def joined(scores: list, labels: list):
    """``(scores (K, n) float64, onehot (K, n) bool)`` of the kept lists, or None."""
    parts = [x.numpy() for x in scores if x.numel()]
    if not parts:
        return None
    S = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
    ys = [x.numpy() for x in labels if x.numel()]
    K = S.shape[0]
    if ys[0].ndim == 1:
        ids = ys[0] if len(ys) == 1 else np.concatenate(ys)
        onehot = ids[None, :] == np.arange(K)[:, None]
    else:
        onehot = ys[0] if len(ys) == 1 else np.concatenate(ys, axis=1)
    return S.astype(np.float64, copy=False), onehot


def class_batch(S: np.ndarray, onehot: np.ndarray) -> Batch:
    """One curve per class: class ``c``'s scores over its own 0/1 labels."""
    K, n = S.shape
    pos = onehot.reshape(-1).astype(np.float64)
    starts = np.arange(K + 1, dtype=np.int64) * n
    return Batch(
        np.ascontiguousarray(S.reshape(-1)),
        starts,
        pos,
        1.0 - pos,
        starts.copy(),
        np.arange(K, dtype=np.int64),
        pd.DataFrame(index=range(K)),
        1,
        None,
        K * n,
    )


def pooled_batch(S: np.ndarray, onehot: np.ndarray) -> Batch:
    """The one pooled (micro) curve of every (row, class) pair."""
    pos = onehot.reshape(-1).astype(np.float64)
    m = np.array([0, pos.size], dtype=np.int64)
    return Batch(
        np.ascontiguousarray(S.reshape(-1)),
        m,
        pos,
        1.0 - pos,
        m.copy(),
        np.zeros(1, dtype=np.int64),
        pd.DataFrame(index=[0]),
        1,
        None,
        pos.size,
    )


def rows_areas(S, onehot, code: int, micro: bool):
    """``(areas (K,), P (K,), N (K,), pooled area or None)`` of kept rows."""
    areas = batch_areas(class_batch(S, onehot), [code], [False])[:, 0]
    P = onehot.sum(axis=1).astype(np.float64)
    N = S.shape[1] - P
    pooled = batch_areas(pooled_batch(S, onehot), [code], [False])[:, 0] if micro else None
    return areas, P, N, pooled
