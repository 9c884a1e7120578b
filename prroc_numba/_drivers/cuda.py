"""Host side of the CUDA backend: sort, chunk layout, kernel launches, results to host.

Takes the same :class:`prroc_numba._core.batch.Batch` as the CPU kernels and returns the same
ragged results as numpy arrays (outputs are small: one value per curve or per vertex).

Sorting: with CuPy installed the rows are sorted on the device (``cupy.lexsort`` by
curve, then descending score); without it they are sorted on the host (``np.lexsort``)
and the order is copied to the device -- a documented fallback (the only host step;
every step after the sort runs on the device). Under Numba's CUDA simulator the host
sort is used.
"""

from __future__ import annotations

import numpy as np
from numba import config, cuda

from .._kernels.cuda import kernels as K

CHUNK = 1024  # rows per chunk (a chunk grows to the end of a tie block that crosses it)
SUPER = 256  # chunks per super-chunk of the two-level scan
THREADS = 128
_MAX_CELLS = 1 << 24  # (chunk, replicate) cells per launch: bounds memory to O(chunks * B)


def _launch(kernel, n, *args):
    if n > 0:
        threads = min(THREADS, n)  # small launches: no idle threads (the simulator runs each)
        kernel[(n + threads - 1) // threads, threads](*args)


def _cupy():
    """CuPy if installed and a real GPU is in use (never under the simulator), else None."""
    if config.ENABLE_CUDASIM:
        return None
    try:
        import cupy
    except ImportError:
        return None
    return cupy


def _device_sort(values, offsets):
    """``(perm, xs)`` on the device: per curve, rows by descending score (stable)."""
    lengths = np.diff(offsets)
    curve_id = np.repeat(np.arange(lengths.size, dtype=np.int64), lengths)
    cp = _cupy()
    if cp is not None:
        v = cp.asarray(values)
        if lengths.size == 1:
            perm = cp.argsort(-v)
        else:  # last key is the primary one
            perm = cp.lexsort(cp.stack([-v, cp.asarray(curve_id, dtype=cp.float64)]))
        xs = v[perm] + 0.0
        return cuda.as_cuda_array(perm.astype(cp.int64)), cuda.as_cuda_array(xs)
    perm = np.lexsort((-values, curve_id)).astype(np.int64)
    xs = values[perm] + 0.0  # -0.0 -> +0.0, as the CPU sort
    return cuda.to_device(perm), cuda.to_device(xs)


class Sorted:
    """A batch sorted and chunked on the device (see :mod:`.kernels` for the layout)."""

    def __init__(self, batch, chunk=CHUNK, row_ids=None, sup=SUPER):
        offsets = np.ascontiguousarray(batch.offsets, dtype=np.int64)
        lengths = np.diff(offsets)
        self.n_curves = lengths.size
        n_chunks = (lengths + chunk - 1) // chunk
        chunk_off = np.zeros(self.n_curves + 1, dtype=np.int64)
        np.cumsum(n_chunks, out=chunk_off[1:])
        self.n_chunks = int(chunk_off[-1])
        chunk_curve = np.repeat(np.arange(self.n_curves, dtype=np.int64), n_chunks)
        n_super = (n_chunks + sup - 1) // sup
        super_off = np.zeros(self.n_curves + 1, dtype=np.int64)
        np.cumsum(n_super, out=super_off[1:])
        self.sup = int(sup)
        self.n_super = int(super_off[-1])
        self.super_off = cuda.to_device(super_off)
        self.super_curve = cuda.to_device(
            np.repeat(np.arange(self.n_curves, dtype=np.int64), n_super)
        )
        n = int(offsets[-1])
        perm, self.xs = _device_sort(np.ascontiguousarray(batch.values, dtype=np.float64), offsets)
        self.offsets = cuda.to_device(offsets)
        self.chunk_off = cuda.to_device(chunk_off)
        self.chunk_curve = cuda.to_device(chunk_curve)
        self.starts = cuda.device_array(self.n_chunks, dtype=np.int64)
        _launch(
            K.chunk_starts,
            self.n_chunks,
            self.xs,
            self.offsets,
            self.chunk_curve,
            self.chunk_off,
            chunk,
            self.starts,
        )
        self.ends = cuda.device_array(self.n_chunks, dtype=np.int64)
        _launch(
            K.chunk_ends,
            self.n_chunks,
            self.offsets,
            self.chunk_curve,
            self.chunk_off,
            chunk,
            self.starts,
            self.ends,
        )
        if row_ids is None:
            row_ids = np.arange(batch.pos.size, dtype=np.int64)
        self.row_ids = cuda.to_device(np.ascontiguousarray(row_ids, dtype=np.int64))
        self.sp = cuda.device_array(n, dtype=np.float64)
        self.sn = cuda.device_array(n, dtype=np.float64)
        self.rid = cuda.device_array(n, dtype=np.int64)
        self.last = cuda.device_array(n, dtype=np.uint8)
        _launch(
            K.gather,
            self.n_chunks,
            perm,
            self.xs,
            self.offsets,
            self.ends,
            cuda.to_device(np.ascontiguousarray(batch.label_start, dtype=np.int64)),
            cuda.to_device(batch.pos),
            cuda.to_device(batch.neg),
            self.chunk_curve,
            self.chunk_off,
            self.starts,
            self.sp,
            self.sn,
            self.rid,
            self.last,
        )

    def _rows(self):
        return (
            self.sp,
            self.sn,
            self.rid,
            self.row_ids,
            self.last,
            self.ends,
            self.chunk_curve,
            self.chunk_off,
            self.starts,
        )

    def _super_args(self):
        return self.super_curve, self.super_off, self.chunk_off, self.sup

    def scan(self, use_counts, seed, b0, n_rep):
        """Pass 1 and the two-level scan: local per-chunk and per-super-chunk starting
        (TP, FP, blocks), per-curve totals.
        """

        def arrays(n):
            return [
                cuda.device_array((n, n_rep), dtype=dt) for dt in (np.float64, np.float64, np.int64)
            ]

        cells = arrays(self.n_chunks)
        _launch(
            K.chunk_sums,
            self.n_chunks * n_rep,
            *self._rows(),
            use_counts,
            np.uint64(seed),
            b0,
            *cells,
        )
        base, sums, sbase, tot = (
            arrays(self.n_chunks),
            arrays(self.n_super),
            arrays(self.n_super),
            arrays(self.n_curves),
        )
        _launch(K.super_scan, self.n_super * n_rep, *self._super_args(), *cells, *base, *sums)
        _launch(K.chunk_scan, self.n_curves * n_rep, self.super_off, *sums, *sbase, *tot)
        return base, sbase, tot

    def areas(self, method, use_counts=0, seed=0, b0=0, n_rep=1):
        """AUC per (curve, replicate), shape (n_curves, n_rep), on the device."""
        (btp, bfp, _), (sbtp, sbfp, _), (P, N, _) = self.scan(use_counts, seed, b0, n_rep)
        partial = cuda.device_array((self.n_chunks, n_rep), dtype=np.float64)
        _launch(
            K.chunk_area,
            self.n_chunks * n_rep,
            *self._rows(),
            use_counts,
            np.uint64(seed),
            b0,
            method,
            self.super_off,
            self.sup,
            btp,
            bfp,
            sbtp,
            sbfp,
            partial,
        )
        spart = cuda.device_array((self.n_super, n_rep), dtype=np.float64)
        _launch(K.super_sum, self.n_super * n_rep, *self._super_args(), partial, spart)
        out = cuda.device_array((self.n_curves, n_rep), dtype=np.float64)
        _launch(K.curve_area, self.n_curves * n_rep, self.super_off, spart, P, N, method, out)
        return out

    def sweep(self):
        """Device arrays ``(thr, tp, fp)`` and host ``out_offsets`` of every curve."""
        base, sbase, (_, _, NV) = self.scan(0, 0, 0, 1)
        counts = NV.copy_to_host()[:, 0] + 1
        out_off = np.zeros(self.n_curves + 1, dtype=np.int64)
        np.cumsum(counts, out=out_off[1:])
        total = int(out_off[-1])
        thr = cuda.device_array(total, dtype=np.float64)
        tp = cuda.device_array(total, dtype=np.float64)
        fp = cuda.device_array(total, dtype=np.float64)
        d_off = cuda.to_device(out_off)
        _launch(K.origins, self.n_curves, d_off, thr, tp, fp)
        _launch(
            K.sweep_vertices,
            self.n_chunks,
            self.xs,
            self.sp,
            self.sn,
            self.last,
            self.ends,
            self.chunk_curve,
            self.chunk_off,
            self.starts,
            self.super_off,
            self.sup,
            *base,
            *sbase,
            d_off,
            thr,
            tp,
            fp,
        )
        return thr, tp, fp, out_off


def _hull_scratch(tp, fp, out_off):
    n_curves = out_off.size - 1
    d_off = cuda.to_device(out_off)
    scratch = cuda.device_array(max(int(out_off[-1]), 1), dtype=np.int64)
    counts = cuda.device_array(n_curves, dtype=np.int64)
    _launch(K.hull_counts, n_curves, tp, fp, d_off, scratch, counts)
    return d_off, scratch, counts


# ----------------------------------------------------------------- entry points (host)


def area_batch(batch, method, hull, chunk=CHUNK, sup=SUPER):
    """One AUC per curve (float64, host), as :func:`prroc_numba._kernels.area._areas_batch` with
    one area.
    """
    s = Sorted(batch, chunk, sup=sup)
    if not hull:
        return s.areas(int(method)).copy_to_host()[:, 0]
    _, tp, fp, out_off = s.sweep()
    d_off, scratch, counts = _hull_scratch(tp, fp, out_off)
    out = cuda.device_array(s.n_curves, dtype=np.float64)
    _launch(K.hull_area, s.n_curves, tp, fp, d_off, scratch, counts, int(method), out)
    return out.copy_to_host()


def sweep_batch(batch, chunk=CHUNK, sup=SUPER):
    """``(thr, tp, fp, out_offsets)`` on the host, as :func:`.sweep.sweep_batch`."""
    thr, tp, fp, out_off = Sorted(batch, chunk, sup=sup).sweep()
    return thr.copy_to_host(), tp.copy_to_host(), fp.copy_to_host(), out_off


def hull_batch(tp, fp, out_off):
    """``(idx, hull_offsets)`` on the host, as :func:`prroc_numba._kernels.hull._hull_batch`
    (global indices).
    """
    d_tp, d_fp = cuda.to_device(np.ascontiguousarray(tp)), cuda.to_device(np.ascontiguousarray(fp))
    _, scratch, counts = _hull_scratch(d_tp, d_fp, out_off)
    counts = counts.copy_to_host()
    scratch = scratch.copy_to_host()
    h_off = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=h_off[1:])
    curve = np.repeat(np.arange(counts.size), counts)
    local = np.arange(h_off[-1]) - h_off[curve]
    idx = scratch[out_off[curve] + local] + out_off[curve]
    return idx.astype(np.int64), h_off


def poisson_replicates(batch, method, seed, n_boot, row_ids=None, chunk=CHUNK, sup=SUPER):
    """Poisson-bootstrap AUCs, shape (n_curves, n_boot), host float64.

    Replicate ``b`` gives label row ``r`` the count ``poisson_count(replicate_key(seed, b),
    row_ids[r])``; curves of one group (the models of wide input) share their rows, so
    they are resampled paired. Replicates run in blocks so that the per-(chunk,
    replicate) arrays stay below ``_MAX_CELLS`` cells: memory O(N + chunks * block).
    """
    s = Sorted(batch, chunk, row_ids, sup)
    out = np.empty((s.n_curves, n_boot))
    block = max(1, min(n_boot, _MAX_CELLS // max(s.n_chunks, 1)))
    for b0 in range(0, n_boot, block):  # a loop over blocks of replicates, not rows
        nb = min(block, n_boot - b0)
        out[:, b0 : b0 + nb] = s.areas(int(method), 1, seed, b0, nb).copy_to_host()
    return out
