"""Serial ``nogil`` kernels run over chunks of curves by a thread pool.

``parallel=True`` (``prange``) costs seconds of compile time per kernel on every cold
start (the parfor passes and the gufunc it builds), and a single-curve call gains
nothing from it. A serial kernel ``kernel(*args, c0, c1)`` that handles curves
``c0 .. c1 - 1`` compiles several times faster; :func:`run_curves` calls it on chunks
of curves from a thread pool (the kernels release the GIL), chunks balanced by rows.
Each curve is computed by one thread alone, so results do not depend on the thread
count. The number of threads is Numba's (``NUMBA_NUM_THREADS``,
``numba.set_num_threads``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

#: below this many rows in all, one thread does the whole batch (no pool overhead)
MIN_PARALLEL_ROWS = 20_000
#: chunks per thread (balances curves of unequal length)
CHUNKS_PER_THREAD = 4

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def get_pool(n: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size != n:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="prroc_numba")
            _pool_size = n
        return _pool


def _reset_after_fork() -> None:
    """In a forked child: forget the parent's pool and lock.

    The child inherits the pool object but none of its threads (``fork`` copies only
    the calling thread), so work submitted to it would wait forever; a lock held by
    another parent thread at the fork would never be released. The child's first
    parallel call starts its own pool.
    """
    global _lock, _pool, _pool_size
    _lock = threading.Lock()
    _pool = None
    _pool_size = 0


if hasattr(os, "register_at_fork"):  # not on Windows (no fork there)
    os.register_at_fork(after_in_child=_reset_after_fork)


def chunk_bounds(offsets: np.ndarray, n_chunks: int) -> np.ndarray:
    """Curve indices ``0 = b_0 < b_1 < ... = n_curves`` splitting the rows evenly."""
    n = offsets.size - 1
    if n_chunks <= 1 or n <= 1:
        return np.array([0, n], dtype=np.int64)
    targets = np.linspace(0, offsets[-1], n_chunks + 1)[1:-1]
    cuts = np.searchsorted(offsets, targets, side="left")
    return np.unique(np.concatenate([[0], np.clip(cuts, 1, n - 1), [n]])).astype(np.int64)


def run_curves(kernel: Callable[..., None], offsets: np.ndarray, *args) -> None:
    """Call ``kernel(*args, c0, c1)`` over all curves of ``offsets``, in parallel chunks."""
    n = offsets.size - 1
    threads = numba.get_num_threads()
    if threads <= 1 or n <= 1 or offsets[-1] < MIN_PARALLEL_ROWS:
        kernel(*args, 0, n)
        return
    bounds = chunk_bounds(offsets, min(n, CHUNKS_PER_THREAD * threads))
    pool = get_pool(threads)
    futures = [
        pool.submit(kernel, *args, int(bounds[i]), int(bounds[i + 1]))
        for i in range(bounds.size - 1)
    ]
    for f in futures:
        f.result()


def run_items(kernel: Callable[..., None], n_items: int, *args) -> None:
    """Call ``kernel(*args, t0, t1)`` over items ``0 .. n_items - 1`` (e.g. the (curve,
    replicate) pairs of a bootstrap chunk) in equal parallel chunks; each item is
    computed by one thread alone, so results do not depend on the thread count.
    """
    threads = numba.get_num_threads()
    if threads <= 1 or n_items <= 1:
        kernel(*args, 0, n_items)
        return
    bounds = np.linspace(0, n_items, min(n_items, CHUNKS_PER_THREAD * threads) + 1)
    bounds = bounds.astype(np.int64)
    pool = get_pool(threads)
    futures = [
        pool.submit(kernel, *args, int(bounds[i]), int(bounds[i + 1]))
        for i in range(bounds.size - 1)
        if bounds[i + 1] > bounds[i]
    ]
    for f in futures:
        f.result()
