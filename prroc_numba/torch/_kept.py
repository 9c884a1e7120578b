"""The kept rows of the PyTorch metrics: batches of hard, unweighted labels on the CPU,
shared by the score columns and without ``by=``, are kept as rows (two list states:
the scores in their floating dtype, the labels as bool); past 2**18 kept values a
strided sample decides whether they are tied (reduced to the table, in bulk) or
continuous (kept: a table entry costs more than a row). The labels were checked as
the :class:`~prroc_numba.Accumulator`'s kept rows are
(:func:`prroc_numba._core.kept_rows.hard_labels`).
"""

from __future__ import annotations

import numpy as np
import torch

from ._reduce import rows_table
from ._sync import ROWS, STATES, SyncedMetric

#: kept rows (times score columns) are reduced into the table once they pass this many
#: and ``_rows_limit`` (grown where a reduction shrinks nothing: continuous scores)
RAW_VALUES = 1 << 18
#: scores sampled to tell continuous scores (kept as rows) from tied ones (reduced)
SAMPLE = 4096


class KeptRows(SyncedMetric):
    """A metric that keeps rows (the list states :data:`~._sync.ROWS`) and folds them
    into its table (:data:`~._sync.STATES`, merged by the subclass).
    """

    keep_rows: bool = False
    #: kept values past which the next look for ties waits (continuous scores)
    _rows_limit: int = 0
    #: (the labels list, its length, rows in it): :meth:`_rows_held`'s cache
    _rows_memo: tuple | None = None

    def _maybe_merge(self) -> None:
        raise NotImplementedError

    @staticmethod
    def _keeps(rows) -> bool:
        """Whether a batch is kept as rows: CPU, no weights, no ``by=``, one label column
        shared by the score columns, labels all 0/1 (checked).
        """
        return (
            rows.preds.device.type == "cpu"
            and rows.weight is None
            and rows.by is None
            and rows.target.shape[1] == 1
        )

    def _keep_rows(self, rows, preds) -> None:
        """Keep a batch's scores (a copy, in their own floating dtype: float32 scores
        cost 4 bytes, read back exactly as float64) and labels (bool).
        """
        # copies made by numpy (which asks for huge pages: several times faster than
        # torch's clone of a large CPU tensor)
        own = preds.is_floating_point() and preds.dtype != torch.bfloat16  # numpy has it
        src = (preds.detach() if own else rows.preds).numpy()
        if rows.wide:
            p = torch.from_numpy(np.ascontiguousarray(src.reshape(src.shape[0], -1).T))
        elif own:
            p = torch.from_numpy(np.array(src.reshape(-1)))
        else:  # the checked float64 copy
            p = torch.from_numpy(src.reshape(-1))
        self._rows_list("rows").append(p)
        t = rows.target[:, 0]
        self._rows_list("labels").append(t if t.dtype == torch.bool else t == 1)
        held = self._rows_held() * (p.shape[0] if p.ndim == 2 else 1)
        if self.keep_rows or held <= max(RAW_VALUES, self._rows_limit):
            return
        if self._looks_continuous():
            # a table entry (32 bytes) costs more than the rows it would replace
            self._rows_limit = 4 * held
            return
        self._fold_rows()

    def _looks_continuous(self) -> bool:
        """Whether most of a strided sample of the kept scores (about 4096 of the first
        column) are distinct: then reducing would shrink little.
        """
        lst = self._rows_list("rows")
        step = max(1, (self._rows_held() + SAMPLE - 1) // SAMPLE)
        sample = torch.cat([(x if x.ndim == 1 else x[0])[::step] for x in lst])
        return 2 * torch.unique(sample).numel() > sample.numel()

    def _clear_rows(self) -> None:
        for name in ROWS:
            setattr(self, name, [])

    def _rows_list(self, name) -> list:
        x = getattr(self, name)
        if isinstance(x, torch.Tensor):  # gathered or loaded as one tensor
            x = [x] if x.numel() else []
            setattr(self, name, x)
        return x

    def _rows_held(self) -> int:
        """Rows kept (cached by the list's identity and length)."""
        lst = self._rows_list("labels")
        memo = self._rows_memo
        if memo is not None and memo[0] is lst and memo[1] <= len(lst):
            n = memo[2] + sum(int(x.shape[0]) for x in lst[memo[1] :])
        else:
            n = sum(int(x.shape[0]) for x in lst)
        self._rows_memo = (lst, len(lst), n)
        return n

    def _kept(self):
        """``(scores (k, n), labels (n,))`` of the kept rows as numpy arrays, or None."""
        rows = [x for x in self._rows_list("rows") if x.numel()]
        if not rows:
            return None
        labels = [x for x in self._rows_list("labels") if x.numel()]
        # joined by numpy (huge pages: faster than torch.cat on large CPU tensors)
        parts = [(x.reshape(1, -1) if x.ndim == 1 else x).numpy() for x in rows]
        ys = [x.numpy() for x in labels]
        scores = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
        y = ys[0] if len(ys) == 1 else np.concatenate(ys)
        return scores.astype(np.float64, copy=False), y.astype(bool, copy=False)

    def _fold_rows(self) -> None:
        """Reduce the kept rows into the table."""
        kept = self._kept()
        if kept is None:
            return
        table = rows_table(kept[0], kept[1], self.device)
        self._clear_rows()
        for name, x in zip(STATES, table):
            self._table_list(name).append(x)
        self._maybe_merge()
