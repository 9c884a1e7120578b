"""Rows to the reduced table, and tables merged: the metric's whole state.

A table is four 1-D tensors of one length, one entry per distinct (curve key, score):
``key`` int64 (``group * k + column``), ``score`` float64, ``pos`` and ``neg`` float64
(the positive and negative mass of the rows with that score), sorted by key, then score
descending. Tables of any batches concatenate and merge by summing equal entries
(:func:`merge`), so the state is O(distinct scores), whatever the number of rows.

CPU tensors are reduced by the library's own packing and sort
(:func:`prroc_numba._core.packing.pack`, :func:`prroc_numba._core.table.batch_entries`,
:func:`reduce_numpy`, which orders and sums as
:func:`prroc_numba._core.table.reduce_entries`); tensors on another device (CUDA) by
torch's sort and segment sums on that device (:func:`reduce_torch`), so only the
table leaves it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from .._core import Batch, batch_entries, pack
from ._inputs import Rows

Table = tuple  # (key, score, pos, neg)


def empty(device) -> Table:
    """A table with no entries."""
    f = torch.empty(0, dtype=torch.float64, device=device)
    return torch.empty(0, dtype=torch.int64, device=device), f, f.clone(), f.clone()


def _numpy_table(key, score, pos, neg, device=None) -> Table:
    return tuple(
        torch.from_numpy(np.ascontiguousarray(x)).to(device) for x in (key, score, pos, neg)
    )


def reduce_rows_numpy(rows: Rows) -> Table:
    """The table of CPU rows, by the library's packing and one sort per curve."""
    p = rows.preds.numpy()
    t = rows.target.numpy()
    w = None if rows.weight is None else rows.weight.numpy()
    by = None if rows.by is None else rows.by.numpy()
    k = p.shape[1]
    parts: list = []
    if t.shape[1] == 1:  # one label column shared by the k score columns
        if k == 1:
            batch = pack(None, score=p[:, 0], label=t[:, 0], by=by, weight=w)
        else:
            names = [f"s{j}" for j in range(k)]
            frame = pd.DataFrame(p, columns=names)
            frame["__y"] = t[:, 0]
            batch = pack(frame, score=names, label="__y", by=by, weight=w)
        parts.append((batch, None))
    else:
        for j in range(k):
            parts.append((pack(None, score=p[:, j], label=t[:, j], by=by, weight=w), j))
    out = []
    for batch, j in parts:
        c, s, ps, ns = batch_entries(batch)
        if by is None and j is None:  # one group: curve c is column c (no new arrays)
            out.append((c, s, ps, ns))
            continue
        M = batch.n_models
        g = batch.keys["group"].to_numpy(np.int64)[c] if by is not None else np.zeros_like(c)
        col = c % M if j is None else np.full_like(c, j)
        out.append((g * k + col, s, ps, ns))
    if len(out) == 1:
        return _numpy_table(*out[0], rows.preds.device)
    key, s, ps, ns = (np.concatenate(x) for x in zip(*out))
    if len(out) > 1:  # the columns' tables one after another: order them by key
        o = np.argsort(key, kind="stable")
        key, s, ps, ns = key[o], s[o], ps[o], ns[o]
    return _numpy_table(key, s, ps, ns, rows.preds.device)


def reduce_torch(key, score, pos, neg) -> Table:
    """Sum ``pos``/``neg`` over equal ``(key, score)`` with torch ops on the tensors'
    device; sorted by key, then score descending (``-0.0`` and ``0.0`` one score).
    """
    if key.numel() == 0:
        return key, score, pos, neg
    score = score + 0.0
    order = torch.sort(score, descending=True, stable=True).indices
    if bool((key != key[0]).any()):
        order = order[torch.sort(key[order], stable=True).indices]
    k, s = key[order], score[order]
    start = torch.ones(k.numel(), dtype=torch.bool, device=k.device)
    start[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1])
    seg = torch.cumsum(start, 0) - 1
    m = int(seg[-1].item()) + 1
    sp = torch.zeros(m, dtype=torch.float64, device=k.device).index_add_(0, seg, pos[order])
    sn = torch.zeros(m, dtype=torch.float64, device=k.device).index_add_(0, seg, neg[order])
    idx = torch.nonzero(start).reshape(-1)
    return k[idx], s[idx], sp, sn


def rows_torch(rows: Rows) -> Table:
    """The table of rows on any device, by torch ops there (no copy to the host)."""
    p, t = rows.preds, rows.target.to(torch.float64)
    n, k = p.shape
    cols = torch.arange(k, dtype=torch.int64, device=p.device)
    g = rows.by if rows.by is not None else torch.zeros(n, dtype=torch.int64, device=p.device)
    key = (g[:, None] * k + cols).reshape(-1)
    lab = t.expand(n, k).reshape(-1)
    w = (
        torch.ones_like(lab)
        if rows.weight is None
        else rows.weight[:, None].expand(n, k).reshape(-1)
    )
    return reduce_torch(key, p.reshape(-1), w * lab, w * (1.0 - lab))


def element_table(preds, onehot, keep, weight, by) -> Table:
    """The table of a multiclass or multilabel batch: one curve per (group, class),
    each (row, class) one entry of its class's curve (``preds`` ``(n, K)``, ``onehot``
    ``(n, K)`` bool, ``keep`` ``(n, K)`` bool or None: the entries to count), reduced
    by numpy on the CPU and by torch elsewhere.
    """
    n, K = preds.shape
    dev = preds.device
    cols = torch.arange(K, dtype=torch.int64, device=dev)
    g = by if by is not None else torch.zeros(n, dtype=torch.int64, device=dev)
    key = (g[:, None] * K + cols).reshape(-1)
    lab = onehot.to(torch.float64).reshape(-1)
    w = torch.ones_like(lab) if weight is None else weight[:, None].expand(n, K).reshape(-1)
    score = preds.to(torch.float64).reshape(-1)
    if keep is not None:
        m = keep.reshape(-1)
        key, lab, w, score = key[m], lab[m], w[m], score[m]
    pos, neg = w * lab, w * (1.0 - lab)
    if dev.type != "cpu":
        return reduce_torch(key, score, pos, neg)
    k, s, p, q = reduce_numpy(key.numpy(), score.numpy(), pos.numpy(), neg.numpy())
    return _numpy_table(k, s, p, q, dev)


def reduce_rows(rows: Rows) -> Table:
    """The table of a checked batch: numpy by the library on the CPU, torch elsewhere."""
    if rows.preds.device.type == "cpu":
        return reduce_rows_numpy(rows)
    return rows_torch(rows)


def reduce_numpy(key, score, pos, neg):
    """:func:`prroc_numba._core.table.reduce_entries` (the same order, the same sums) for
    tables that arrive as sorted runs: two stable sorts (score descending, then key)
    that merge the runs rather than sort from scratch, and no sums where no entry
    repeats (continuous scores).
    """
    score = score + 0.0
    order = np.argsort(-score, kind="stable")
    one_key = key.size == 0 or bool((key == key[0]).all())
    if not one_key:
        order = order[np.argsort(key[order], kind="stable")]
    k = key.copy() if one_key else key[order]
    s, p, n = score[order], pos[order], neg[order]
    start = np.ones(k.size, dtype=bool)
    start[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1])
    if start.all():
        return k, s, p, n
    idx = np.flatnonzero(start)
    return k[idx], s[idx], np.add.reduceat(p, idx), np.add.reduceat(n, idx)


def reduce_table(table) -> Table:
    """A table whose entries may repeat or come unsorted, summed and sorted."""
    key, score, pos, neg = table
    if key.device.type != "cpu":
        return reduce_torch(key, score, pos, neg)
    k, s, p, n = reduce_numpy(key.numpy(), score.numpy(), pos.numpy(), neg.numpy())
    return _numpy_table(k, s, p, n, key.device)


def merge(tables) -> Table | None:
    """One table of several (each sorted and reduced), equal entries summed."""
    tables = [t for t in tables if t[0].numel()]
    if not tables:
        return None
    if len(tables) == 1:
        return tables[0]
    return reduce_table(tuple(torch.cat(x) for x in zip(*tables)))


# ---------------------------------------------------------------- kept rows
#
# Batches of hard, unweighted labels shared by their score columns (no ``by=``) are
# kept as they came (float64 scores ``(n,)`` or ``(n, k)``, bool labels ``(n,)``: 9
# bytes a row and column, less than a table entry) and reduced in bulk: the batch of
# all kept rows goes through the library's class-split keys-only sort, the one
# ``prn.auc`` runs on the same rows.


def rows_batch(scores: np.ndarray, labels: np.ndarray, weights=None) -> Batch:
    """The batch of kept rows: one curve per score column (``scores`` ``(k, n)``, column
    by column), every row of unit mass (or its weight), the labels (``(n,)``) shared by
    the columns.
    """
    k, n = scores.shape
    values = scores.reshape(-1)
    pos = labels.astype(np.float64)
    neg = 1.0 - pos
    if weights is not None:
        pos, neg = pos * weights, neg * weights
    offsets = np.arange(k + 1, dtype=np.int64) * n
    keys = pd.DataFrame(index=range(k)) if k > 1 else pd.DataFrame(index=range(1))
    return Batch(
        np.ascontiguousarray(values, dtype=np.float64).reshape(-1),
        offsets,
        pos,
        neg,
        np.array([0, n], dtype=np.int64),
        np.zeros(k, dtype=np.int64),
        keys,
        k,
        None,
        n,
    )


def rows_table(scores: np.ndarray, labels: np.ndarray, device=None, weights=None) -> Table:
    """The table of kept rows (keys: the score column; masses: their weights)."""
    key, score, pos, neg = batch_entries(rows_batch(scores, labels, weights))
    return _numpy_table(key, score, pos, neg, device)


def table_rows(table: Table, k: int):
    """``(scores (k, n), labels (n,))`` of a table of counts of one group's ``k``
    columns rebuilt row by row (each distinct score repeated by its counts; each
    column's positives, then its negatives), or None where it is no such table
    (weights, several groups, columns of different class counts).
    """
    key, score, pos, neg = (x.detach().cpu().numpy() for x in table)
    if key.size == 0:
        return None
    if not (np.array_equal(pos, np.round(pos)) and np.array_equal(neg, np.round(neg))):
        return None
    if key.min() < 0 or key.max() >= k:
        return None
    cp, cn = pos.astype(np.int64), neg.astype(np.int64)
    sp, sn = np.repeat(score, cp), np.repeat(score, cn)
    kp, kn = np.repeat(key, cp), np.repeat(key, cn)
    n_pos, n_neg = np.bincount(kp, minlength=k), np.bincount(kn, minlength=k)
    if (n_pos != n_pos[0]).any() or (n_neg != n_neg[0]).any():
        return None
    # the table's order is by column: column j's scores are one block of each class
    scores = np.concatenate([sp.reshape(k, -1), sn.reshape(k, -1)], axis=1)
    labels = np.zeros(int(n_pos[0] + n_neg[0]), dtype=bool)
    labels[: n_pos[0]] = True
    return scores, labels
