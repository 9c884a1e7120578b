"""The Poisson bootstrap of Dask input through score ranges (continuous scores).

The table path (:mod:`.partitions`) keeps, per distinct (curve, score) entry, ``B`` replicate
masses: entries x ``B`` numbers, as many entries as rows with continuous scores. Here
the rows never meet in one place and nothing is ever rows x ``B``:

1. a first read of every partition sends its length (the global row ids are partition
   offset + position), a sample of its distinct scores and their number
   (:func:`_survey`);
2. if the partitions hold no more than ``"prroc_numba.dask_table_max"`` entries in all,
   and few replicate masses or few entries per row (:func:`_table_pays`: rounded
   scores), and the dask config ``"prroc_numba.dask_exact"`` is ``"auto"``, the table
   path runs (:mod:`.partitions`); otherwise the client picks each curve's splitters
   (:func:`~prroc_numba._core.partitions.splitters_of`) and one task per partition
   reads it again, builds its value rows (one per row and model: curve, score, global
   row id, positive / negative mass, sorted by curve and score:
   :func:`~prroc_numba._core.partitions.partition_rows`) and cuts them into ``K``
   score ranges by score *value* (a run of tied scores never straddles two ranges), so
   a partition's rows are never held whole beside their pieces; each range gathers its
   rows from every partition (an all-to-all shuffle) and sorts them once into tie
   blocks (:func:`~prroc_numba._core.partitions.tie_blocks`);
3. pass 1, as each range is built: its per-replicate class totals per curve (``B x curves`` numbers,
   each row's count drawn from :mod:`._kernels.poisson`'s stream keyed by
   ``(seed, replicate, global row id)`` and summed per curve as it is drawn,
   :func:`._kernels.ranges._replicate_range_totals`);
   the client's exclusive scan over the ranges gives each range, per replicate, its
   starting ``(TP, FP)``;
4. pass 2: each range draws the counts again and adds its segments' area terms per
   replicate, from its start, to the higher ranges' sum (a chain over the ranges per
   block of replicates, the blocks side by side: the in-memory left-to-right sum to the
   bit), each tie block's masses summed as its rows' counts are drawn
   (:func:`._kernels.ranges._replicate_range_areas`); or, a block of replicates
   at a time (the tie blocks' replicate masses, bounded to ``_BLOCK_BYTES``), takes its
   local hull (:func:`._kernels.ranges._range_hulls`), or keeps the few
   vertices that the recall grid of ``bootstrap_curve`` reads (:func:`_grid_vertices`);
5. the client normalises the last range's sums
   (:func:`._kernels.segments.finish_area`), or runs the table kernels
   (:func:`._drivers.resample.table_areas` / ``table_curves``) on each
   replicate's few gathered vertices (the hull of the local hulls is the hull).

The data's own estimate is one more "replicate" whose counts are all 1. Each row's
count is the one the in-memory ``resampling="poisson"`` bootstrap gives it, in every
model (paired), so replicates and intervals equal the in-memory ones for the same
seed and data (the areas to the bit with unweighted labels, whose class totals are
whole numbers; weighted sums to rounding). Memory per range: O(its rows + B x curves);
the hull and the curves add its tie blocks x a block of replicates.
"""

from __future__ import annotations

import numpy as np

from .._core import layout_of
from .._core.partitions import (
    check_merged,
    finish_replicate_areas,
    global_curves,
    partition_rows,
    range_indices,
    reduce_partition,
    replicate_area_sums,
    replicate_class_totals,
    replicate_masses,
    splitters_of,
    tie_blocks,
    writable,
)
from .._drivers import ULP_ABOVE, ULP_BELOW, range_hulls
from .._drivers.resample import table_areas, table_curves
from .partitions import _merge_tree, _names, accumulate, settings
from .ranges import _merge_samples, _sample, shuffle_graph

_BLOCK_BYTES = 1 << 26  # replicate masses a range holds at once (per pass-2 block)
_SUM_BLOCKS = 4  # the fewest blocks of replicates whose pass-2 chains run side by side
_FAN = 8
_SMALL_TABLE = 1 << 22  # replicate masses (64 MiB) that the table path always takes
_TABLE_SHARE = 0.1  # the table path's most entries per value row (:func:`_table_pays`)


def _split(item, layout, splitters):
    """A partition's rows cut into ``K`` score ranges (range 0: the highest scores):
    per range ``(curve, score, row, pos, neg)``, curves in the global layout.
    """
    rp = item[1]
    K = splitters.shape[1] + 1
    if rp is None:
        e = (np.empty(0, np.int64), np.empty(0), np.empty(0, np.int64), np.empty(0), np.empty(0))
        return [e] * K
    curve = global_curves(rp.layout, rp.curve, layout)
    return [
        (curve[i], rp.score[i], rp.row[i], rp.pos[i], rp.neg[i])
        for i in range_indices(curve, rp.score, splitters)
    ]


def _vertices(chunks, n_curves, nb):
    """Per replicate, the range's kept vertices as ``(tp, fp, counts)``: ``counts[b,
    c]`` vertices of curve ``c`` in replicate ``b``, replicate-major then curve-major.
    """
    counts = np.zeros((nb, n_curves), dtype=np.int64)
    tps, fps = [], []
    for b, tp, fp, cnt in chunks:
        counts[b] = cnt
        tps.append(tp)
        fps.append(fp)
    return np.concatenate(tps), np.concatenate(fps), counts


def _hulls(rng, tp0, fp0, seed):
    """Pass 2 of the hull: the range's local hull vertices per replicate and curve."""
    offsets, tp0, fp0 = writable(rng[0]), writable(tp0), writable(fp0)
    C = offsets.size - 1
    nb = tp0.shape[0]

    def chunks():
        for b, p, n in replicate_masses(rng, seed, nb - 1, _BLOCK_BYTES):
            htp, hfp, _idx, hoff = range_hulls(offsets, p, n, tp0[b], fp0[b])
            yield b, htp, hfp, np.diff(hoff)

    return _vertices(chunks(), C, nb)


def _grid_vertices(tp, fp, tp0, fp0, P, grid):
    """The indices of a curve's vertices ``tp``/``fp`` (one range of it, starting after
    ``(tp0, fp0)``) that :func:`._kernels.grid._precision_at_recall` reads for ``grid``
    on the whole curve (class total ``P``): the first vertex past the start (the flat
    start at recall 0), the last one, and for each recall ``r`` the first vertex at or
    above ``r P`` and the one before it. Near ``r P`` (within the few ulps that decide
    whether ``tp / P`` reaches ``r``) the first and last vertex of each distinct ``tp``
    are kept, and the vertices on either side of that window.
    """
    n = tp.size
    keep = [np.searchsorted(tp + fp, tp0 + fp0, side="right"), n - 1]
    t = grid[grid > 0] * P
    lo = np.searchsorted(tp, t * ULP_BELOW, side="left")
    hi = np.searchsorted(tp, t * ULP_ABOVE, side="right")
    keep += [lo - 1, lo, hi - 1, hi]
    for a, b in zip(lo[hi > lo + 1], hi[hi > lo + 1]):
        w = np.flatnonzero(np.diff(tp[a:b])) + a + 1  # new distinct tp within the window
        keep += [w - 1, w]
    idx = np.unique(np.concatenate([np.atleast_1d(np.asarray(k)) for k in keep]))
    return idx[(idx >= 0) & (idx < n)]


def _grid_chunks(rng, tp0, fp0, seed, P, grid):
    """Pass 2 of the curve: the vertices the recall grid reads, per replicate."""
    offsets = writable(rng[0])
    C = offsets.size - 1
    nb = tp0.shape[0]

    def chunks():
        for b, p, n in replicate_masses(rng, seed, nb - 1, _BLOCK_BYTES):
            tps, fps, cnt = [], [], np.zeros(C, dtype=np.int64)
            for c in np.flatnonzero(np.diff(offsets)):
                a, e = offsets[c], offsets[c + 1]
                tp = tp0[b, c] + np.cumsum(p[a:e])
                fp = fp0[b, c] + np.cumsum(n[a:e])
                if P[b, c] <= 0:
                    continue
                idx = _grid_vertices(tp, fp, tp0[b, c], fp0[b, c], P[b, c], grid)
                tps.append(tp[idx])
                fps.append(fp[idx])
                cnt[c] = idx.size
            yield b, np.concatenate(tps or [np.empty(0)]), np.concatenate(fps or [np.empty(0)]), cnt

    return _vertices(chunks(), C, nb)


def _table_of_vertices(parts, n_curves, nb):
    """Per (curve, replicate), the ranges' kept vertices in sweep order, as the entry
    masses of one-column tables: ``(offsets, dtp, dfp)`` over ``curve * nb + b``.
    """
    tps, fps, pid, rid = [], [], [], []
    ids = (np.arange(n_curves)[None, :] * nb + np.arange(nb)[:, None]).ravel()
    for r, (tp, fp, counts) in enumerate(parts):
        tps.append(tp)
        fps.append(fp)
        pid.append(np.repeat(ids, counts.ravel()))
        rid.append(np.full(tp.size, r, dtype=np.int64))
    tp, fp = np.concatenate(tps), np.concatenate(fps)
    pid, rid = np.concatenate(pid), np.concatenate(rid)
    order = np.lexsort((rid, pid))  # stable: each range's vertices keep their order
    tp, fp, pid = tp[order], fp[order], pid[order]
    first = np.ones(pid.size, dtype=bool)
    first[1:] = pid[1:] != pid[:-1]
    dtp = np.where(first, tp, tp - np.roll(tp, 1))
    dfp = np.where(first, fp, fp - np.roll(fp, 1))
    offsets = np.zeros(n_curves * nb + 1, dtype=np.int64)
    np.cumsum(np.bincount(pid, minlength=n_curves * nb), out=offsets[1:])
    return offsets, np.ascontiguousarray(dtp[:, None]), np.ascontiguousarray(dfp[:, None])


class RowRanges:
    """The persisted score ranges of a Dask frame's rows and each range's
    per-replicate start (pass 1 done).
    """

    def __init__(self, parts, kw, offsets, sample, labels, k, seed, n_boot):
        import dask
        from dask.base import tokenize

        # ``sample``: the partitions' sampled tables merged (every group, and the
        # scores the splitters are picked from)
        self.layout, self.labels = layout_of(sample), labels
        layout = self.layout
        self.seed, self.n_boot = int(seed), int(n_boot)
        self.n_curves = layout.n_curves
        K = int(k) if k else max(2, len(parts))
        self.K = K
        sp = splitters_of(sample, self.n_curves, K)
        # each partition is read, packed and cut in one task: its rows are never kept
        # whole beside their pieces; each range's class totals per replicate are drawn
        # as soon as its tie blocks are built (not by a second pass over the ranges)
        token = tokenize(*[p.key for p in parts], kw, offsets, sp, self.seed, self.n_boot)
        splits = [
            (_split_rows, p.key, kw, int(offsets[i]), layout, sp) for i, p in enumerate(parts)
        ]
        tables, tot = shuffle_graph(
            token,
            splits,
            parts,
            K,
            (tie_blocks, self.n_curves),
            (replicate_class_totals, self.seed, self.n_boot),
        )
        done = dask.persist(*tables, *tot)
        self.ranges = done[:K]
        del tables, tot
        tot = dask.compute(*done[K:])
        del done
        tp = np.array([t[0] for t in tot])  # (K, n_boot + 1, n_curves)
        fp = np.array([t[1] for t in tot])
        self.tp0 = np.cumsum(tp, axis=0) - tp  # exclusive scan, descending score
        self.fp0 = np.cumsum(fp, axis=0) - fp
        self.P, self.N = tp.sum(axis=0), fp.sum(axis=0)  # (n_boot + 1, n_curves)

    def _each(self, fn, *args):
        import dask

        return dask.compute(
            *[
                dask.delayed(fn)(t, self.tp0[r], self.fp0[r], self.seed, *args)
                for r, t in enumerate(self.ranges)
            ]
        )

    def areas(self, code, hull):
        """``(n_curves, n_boot + 1)`` areas (the last column: the estimate)."""
        nb = self.n_boot + 1
        if hull:
            parts = self._each(_hulls)
            offsets, dtp, dfp = _table_of_vertices(parts, self.n_curves, nb)
            return table_areas(offsets, dtp, dfp, code, True)[:, 0].reshape(self.n_curves, nb)
        return finish_replicate_areas(self._chained_sums(int(code)), self.P, self.N, code)

    def _chained_sums(self, code):
        """``(n_curves, n_boot + 1)``: the area sums, each range's terms added to the
        higher ranges' sums in sweep order (the in-memory left-to-right sum, to the
        bit). Range ``r``'s task for a block of replicates waits for range ``r - 1``'s
        task for that block only: a wavefront, with twice as many blocks as ranges (at
        least :data:`_SUM_BLOCKS`), so up to one task per range runs at once.
        """
        import dask

        nb = self.n_boot + 1
        blocks = min(nb, max(_SUM_BLOCKS, 2 * self.K))
        cuts = np.linspace(0, nb, blocks + 1).astype(np.int64)
        sums = [None] * (cuts.size - 1)
        for r, t in enumerate(self.ranges):
            for j, (a, e) in enumerate(zip(cuts[:-1], cuts[1:])):
                sums[j] = dask.delayed(replicate_area_sums)(
                    t, self.tp0[r, a:e], self.fp0[r, a:e], self.seed, code, int(a),
                    self.n_boot, sums[j],
                )  # fmt: skip
        return np.concatenate(dask.compute(*sums), axis=1)

    def curves(self, grid, hull):
        """``(n_curves, n_boot + 1, grid.size)`` precisions on the recall grid."""
        nb = self.n_boot + 1
        if hull:
            parts = self._each(_hulls)
        else:
            parts = self._each(_grid_chunks, self.P, grid)
        offsets, dtp, dfp = _table_of_vertices(parts, self.n_curves, nb)
        out = table_curves(offsets, dtp, dfp, grid, hull)  # (curves * nb, 1, grid)
        return out.reshape(self.n_curves, nb, grid.size)


def _survey(part, kw):
    """A partition's length and ``(sampled layout, labels, distinct entries)`` of its
    table (the exact path's reduction and sample; the rows are not kept).
    """
    return len(part), _sample(reduce_partition(part, kw))


def _kept_rows(part, kw, offset):
    """A partition's rows as the ranges keep them until the shuffle (without the
    distinct entries' starts, which only the survey and the table path read).
    """
    labels, rp = partition_rows(part, kw, offset)
    if rp is not None:
        rp.starts = None
    return labels, rp


def _split_rows(part, kw, offset, layout, splitters):
    """A partition read, packed (:func:`_kept_rows`) and cut into ``K`` score ranges
    (:func:`_split`) in one task.
    """
    return _split(_kept_rows(part, kw, offset), layout, splitters)


def _length(survey):
    return survey[0]


def _sampled(survey):
    return survey[1]


def _table_pays(n_entries, n_rows, score, n_boot):
    """Whether the merged table is the cheaper path for ``n_entries`` distinct entries
    (summed over the partitions) of ``n_rows`` rows: its replicate masses (``n_entries
    x (n_boot + 1)``) are few (:data:`_SMALL_TABLE`), or the entries are at most
    :data:`_TABLE_SHARE` of the value rows (rows x models) that the ranges would draw
    twice. Per replicate, a table entry costs about ten times a drawn count (its
    masses are written, pickled, merged in a tree and swept), so continuous scores --
    one entry per value row -- take the ranges; rounded scores the table.
    """
    models = 1 if isinstance(score, str) else len(score)
    small = n_entries * (n_boot + 1) <= _SMALL_TABLE
    return small or n_entries <= _TABLE_SHARE * n_rows * models


def state(data, kw, seed, n_boot):
    """The Poisson bootstrap's state of a Dask frame: the merged table with ``n_boot``
    replicate masses per entry (an :class:`Accumulator`), or the rows' score ranges
    (:class:`RowRanges`) when the table would hold more entries than the dask config
    ``"prroc_numba.dask_table_max"`` or cost more than the ranges (:func:`_table_pays`;
    or ``"prroc_numba.dask_exact"`` says which).

    One first read of every partition gives its length (the global row ids), its number
    of distinct entries (the choice) and a sample of its scores (the splitters); the
    second read builds the table, or the rows that the ranges gather. Neither path
    keeps more than a partition's rows per task before the ranges.
    """
    import dask

    mode, k, limit = settings()
    if mode == "table":
        return accumulate(data, **kw, seed=seed, n_boot=n_boot)
    _names(data, kw["score"], kw["label"], kw["by"], kw["weight"])
    if isinstance(kw["by"], (list, tuple)) and len(kw["by"]) == 0:
        kw = {**kw, "by": None}
    parts = data.to_delayed()
    surveys = [dask.delayed(_survey)(p, kw) for p in parts]
    samples = [dask.delayed(_sampled)(s) for s in surveys]
    while len(samples) > 1:
        samples = [
            dask.delayed(_merge_samples)(*samples[i : i + _FAN])
            for i in range(0, len(samples), _FAN)
        ]
    lengths, (sample, labels, n) = dask.compute(
        [dask.delayed(_length)(s) for s in surveys], samples[0]
    )
    del surveys, samples
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    check_merged(layout_of(sample), labels, kw["pos_label"])
    if mode == "auto" and n <= limit and _table_pays(n, int(offsets[-1]), kw["score"], n_boot):
        acc, labels = _merge_tree(
            [
                dask.delayed(reduce_partition)(p, kw, int(offsets[i]), seed, n_boot)
                for i, p in enumerate(parts)
            ],
            limit,
        )
        return acc
    return RowRanges(parts, kw, offsets, sample, labels, k, seed, n_boot)
