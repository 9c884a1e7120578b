"""Rows held packed: an :class:`~.accumulator.Accumulator` whose results come from the
rows' own batch, as the in-memory call computes them.

A wing that brings every row of a call to one place (the Spark wing's collected
columns) has the in-memory batch already: reducing it to the table (one entry per
distinct score) and rebuilding a batch from the table, only to sweep it again, costs
two more passes and about three times the memory of the rows. :func:`packed_rows`
validates and packs the rows as the in-memory call does (the same checks, the same
errors) and holds the batch; the result methods (:meth:`~.accumulator.Accumulator.auc`,
``metrics``, the curves, ``confusion``) read it directly, and the table is built from it
only when something reads the table itself (weighted rows for the operating points,
pickling, merging).
"""

from __future__ import annotations

from .accumulator import Accumulator
from .partitions import check_merged, packed_partition
from .table import Layout, batch_entries, batch_layout


class PackedRows(Accumulator):
    """An Accumulator holding one packed batch of rows (see the module)."""

    def __init__(self, batch, layout: Layout) -> None:
        super().__init__()
        self._rows = batch
        self._by, self._models, self._m_groups = layout.by, layout.models, layout.groups
        self._started = True

    def _batch(self):
        rows = self._rows
        return super()._batch() if rows is None else rows

    def _flush(self):
        """The table, built from the rows the first time it is read."""
        with self._lock:
            rows, self._rows = self._rows, None
            if rows is not None:
                curve, score, pos, neg = batch_entries(rows, self.decimals)
                self._m_score = score
                self._m_curve, self._m_pos, self._m_neg = self._compact(curve, pos, neg)
        super()._flush()

    def __sizeof__(self) -> int:
        rows = self._rows
        held = 0 if rows is None else sum(int(a.nbytes) for a in (rows.values, rows.pos, rows.neg))
        return super().__sizeof__() + held


def packed_rows(frame, kw) -> PackedRows:
    """The rows of ``frame`` (``kw``: the input arguments, as
    :func:`~.partitions.input_kw` gives them) packed and checked as one in-memory call
    packs them, held as a :class:`PackedRows`.
    """
    _labels, packed = packed_partition(frame, kw)
    if packed is None:
        check_merged(None, None, kw["pos_label"])  # raises: no row
    batch, data, score, by, _keep = packed
    return PackedRows(batch, Layout(*batch_layout(batch, data, score, by)))
