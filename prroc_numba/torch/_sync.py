"""How a metric's state crosses processes and checkpoints: in a process group each
rank merges its own tables before they are gathered (so one table per rank crosses the
wire, never the rows), and with ``merge_checkpoint=True`` a checkpoint holds the merged
table of every rank, loaded by rank 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torchmetrics import Metric
from torchmetrics.utilities.distributed import gather_all_tensors

from ._reduce import empty

#: the four list states, one tensor each per merged table
STATES = ("key", "score", "pos", "neg")
#: the two list states of the kept rows (hard, unweighted labels shared by the score
#: columns, no ``by=``): scores ``(n,)`` or, for k columns, ``(k, n)`` (column by
#: column: the layout the sort reads) in their floating dtype, bool labels ``(n,)``
ROWS = ("rows", "labels")


class SyncedMetric(Metric):
    """A ``Metric`` whose ranks exchange merged tables (the states :data:`STATES` and
    :data:`ROWS`; the subclasses hold, fold and merge them).
    """

    merge_checkpoint: bool = False

    def _fold_rows(self) -> None:
        raise NotImplementedError

    def _merge_now(self) -> None:
        raise NotImplementedError

    def _set(self, table) -> None:
        raise NotImplementedError

    def _clear_rows(self) -> None:
        raise NotImplementedError

    def _table_list(self, name) -> list:
        raise NotImplementedError

    def _rows_list(self, name) -> list:
        raise NotImplementedError

    def _sync_dist(self, dist_sync_fn=gather_all_tensors, process_group=None) -> None:
        # each rank merges its own tables first, so one table per rank crosses the wire
        # (an empty one, of the right dtypes, from a rank that saw no rows)
        if isinstance(getattr(self, "key"), list):  # noqa: B009
            self._fold_rows()
            self._merge_now()
        super()._sync_dist(dist_sync_fn, process_group)

    @contextmanager
    def _synced(self) -> Iterator[None]:
        """The states of every rank while inside (as ``compute`` sees them)."""
        if self._is_synced or not self._to_sync:
            yield
            return
        with self.sync_context(
            dist_sync_fn=self.dist_sync_fn, should_sync=True, should_unsync=self._should_unsync
        ):
            yield

    # ----------------------------------------------------------- checkpoints

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """The metric's state; with ``merge_checkpoint=True`` in a process group, the
        merged table of every rank (a collective call: every rank must call it, as
        Lightning's checkpointing does), held by rank 0 when loaded.
        """
        if self.merge_checkpoint and self._world() > 1 and not self._is_synced:
            self.sync(should_sync=True, distributed_available=lambda: True)
            try:
                self._merge_now()
                return super().state_dict(destination, prefix, keep_vars)
            finally:
                self.unsync()
        return super().state_dict(destination, prefix, keep_vars)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs) -> None:
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
        for name in STATES:  # a gathered state loads as one tensor: keep the list form
            self._table_list(name)
        for name in ROWS:
            self._rows_list(name)
        if self.merge_checkpoint and self._world() > 1 and self._rank() != 0:
            self._set(empty(self.device))  # rank 0 holds the merged table of all ranks
            self._clear_rows()

    @staticmethod
    def _world() -> int:
        d = torch.distributed
        return d.get_world_size() if d.is_available() and d.is_initialized() else 1

    @staticmethod
    def _rank() -> int:
        d = torch.distributed
        return d.get_rank() if d.is_available() and d.is_initialized() else 0
