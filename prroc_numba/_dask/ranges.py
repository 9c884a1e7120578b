"""The range-partitioned Dask path: exact areas when the merged table does not fit.

:mod:`.partitions` merges every partition's table *(curve, distinct score) -> (pos, neg)*
into one, in the client. With continuous scores on 1e8+ rows that table is as large
as the data, so here it never leaves the workers:

1. every partition reduces to its :class:`~prroc_numba._core.accumulator.Accumulator` (kept on the
   workers) and sends a sample of its distinct scores per curve (and its groups);
2. the client merges the samples (the global curve layout) and picks, per curve,
   ``K - 1`` splitters (sampled quantiles: they only affect balance, never exactness);
3. every partition cuts its table into ``K`` score ranges -- by score *value*, so a run
   of tied scores always falls in one range -- and each range merges its pieces from
   all partitions (an all-to-all shuffle) into its distinct-score table;
4. the ranges' class totals per curve give, by an exclusive scan in descending score,
   each range's starting ``(TP, FP)``, which is also the previous range's last vertex;
5. each range sums the per-segment area terms from there
   (:func:`~prroc_numba._core.partitions.range_area_sums`), or returns its local hull
   (:func:`~prroc_numba._core.partitions.range_hull_vertices`), or its mass between
   given thresholds (:func:`~prroc_numba._core.partitions.range_threshold_bins`); the
   client adds the sums, or takes the hull of the local hulls (the
   in-memory function on those few vertices, at their scores), or runs the in-memory
   function on one entry per threshold. So ``auc``, ``metrics``, the hull curves,
   ``thresholds=`` and the raw curves (one lazy partition per range and curve) never
   gather the table.

Which path runs: ``dask.config`` key ``"prroc_numba.dask_exact"``: ``"table"``,
``"ranges"`` or ``"auto"`` (default: ranges when the partitions hold more than
``"prroc_numba.dask_table_max"`` distinct (curve, score) entries in all, default 5e6);
``"prroc_numba.dask_ranges"`` sets ``K``; by default ``K`` follows the data's size,
``ceil(entries / dask_range_rows)`` (``"prroc_numba.dask_range_rows"``, default 2e6),
and at least the number of partitions. The Poisson bootstrap takes the same ranges,
holding rows instead of entries (each row has its own count): :mod:`.ranges_poisson`.

Memory. With continuous scores the partitions' tables, the split pieces and the range
tables are each as large as the data (32 bytes an entry: curve, score, pos, neg), so no
schedule keeps them in the workers' memory at 1e8+ rows: the shuffle needs every piece
of a range before the range can be merged. What this module bounds is everything
*else*, so that Dask's spilling (``distributed.worker.memory``: managed data written to
the worker's local directory past 60-70 % of its limit) keeps the workers under their
limit:

* at most one copy of the data is alive at a time -- the sample graph is dropped once
  sampled (it referenced every partition's table until the end of ``__init__``: the
  tables, the pieces and the ranges were all alive at once, 3x the data; at 2e7 rows in
  10 partitions the workers peaked at 2.02 GiB of their 2 GiB), each partition's table
  is freed once split, each piece once merged into its range;
* a task's working set is bounded by the chunk sizes, not by N: a partition's
  reduction by its rows, a range's merge (concatenation, sort, reduce: about 100 bytes
  an entry) by ``dask_range_rows`` -- with ``K`` = the number of partitions a range
  held ``N / partitions`` entries;
* the ranges' class totals are taken by a task right after each range is built (not
  by a second pass that reads every spilled range back), and every per-range result
  sent to the client is ``O(curves)`` (sums, hull vertices, threshold bins).

Measured (``benchmarks/bench_dask.py outofcore --decimals -1``, 2 workers of 2 GiB, see
the README's Dask table for the loads): at 2e7 rows (10 files) the workers peaked at
2.02 GiB before these changes, 1.93 GiB after (peak RSS; sampled every 10 s it never
passed 1.07 GiB: a short spike remains, not yet isolated); at 2e8
rows (100 files) at most 1.57 GiB while Dask held 6.7 GB, 5.3 GB of it spilled.
"""

from __future__ import annotations

import numpy as np

from .._core import Accumulator, entries_of, holding, layout_of, thresholds_of
from .._core.batch import warn_undefined
from .._core.partitions import (
    finish_areas,
    global_curves,
    hull_entries,
    range_area_sums,
    range_hull_vertices,
    range_indices,
    range_table,
    range_threshold_bins,
    range_totals,
    splitters_of,
    threshold_entries,
    totals_entries,
)
from .partitions import _RANGE_ROWS, range_rows

_SAMPLE = 256  # distinct scores sampled per curve and partition (balance only)


def n_ranges(k, n_partitions, n_entries):
    """``K``: the given number, else enough ranges that each holds about
    :func:`range_rows` entries, and at least one per partition (and 2).
    """
    if k:
        return int(k)
    return max(2, int(n_partitions), -(-int(n_entries) // range_rows()))


def _sample(item, rows=_RANGE_ROWS):
    """A small Accumulator of a partition's layout and sampled distinct scores (per
    curve, about ``_SAMPLE`` plus 32 per ``rows`` entries of the partition: enough for
    the ranges of about ``rows`` entries to come out balanced).
    """
    acc, labels = item
    layout = layout_of(acc)
    if layout is None:
        return Accumulator(), labels, 0
    curve, score, pos, neg = entries_of(acc)
    n = score.size
    per = _SAMPLE + 32 * (-(-n // rows))
    step = max(1, n // max(1, per * layout.n_curves))
    idx = np.arange(0, n, step)
    return holding(layout, curve[idx], score[idx], pos[idx], neg[idx]), labels, n


def _merge_samples(*items):
    acc = Accumulator()
    labels, n = [], 0
    for a, lab, k in items:
        acc.merge(a)
        n += k
        if lab is not None:
            labels.append(lab)
    return acc, (np.concatenate(labels) if labels else None), n


def _split(item, layout, splitters):
    """A partition's table cut into ``K`` score ranges (range 0: the highest scores)."""
    part = layout_of(item[0])
    K = splitters.shape[1] + 1
    if part is None:
        e = (np.empty(0, np.int64), np.empty(0), np.empty(0), np.empty(0))
        return [e] * K
    curve, score, pos, neg = entries_of(item[0])
    curve = global_curves(part, curve, layout)
    return [(curve[i], score[i], pos[i], neg[i]) for i in range_indices(curve, score, splitters)]


def _pick(pieces, r):
    return pieces[r]


def _shuffle(items, layout, splitters, n_curves, n_entries):
    """The all-to-all shuffle of the partitions' tables: per partition a split into
    ``K`` pieces, per range the merge of its pieces
    (:func:`~prroc_numba._core.partitions.range_table`) and its class totals
    (:func:`~prroc_numba._core.partitions.range_totals`, taken while the table is in
    memory). Returns the ``K`` tables and the ``K`` totals as Delayed objects.
    """
    from dask.base import tokenize

    token = tokenize(*[it.key for it in items], splitters, n_curves, n_entries)
    splits = [(_split, it.key, layout, splitters) for it in items]
    return shuffle_graph(
        token, splits, items, splitters.shape[1] + 1, (range_table, n_curves), (range_totals,)
    )


def shuffle_graph(token, splits, dependencies, K, merge, totals):
    """An all-to-all shuffle as one task graph: ``splits[p]`` (a task) cuts partition
    ``p`` into ``K`` pieces, range ``r``'s table is ``merge[0](*merge[1:], *pieces)``
    and its totals ``totals[0](table, *totals[1:])``, taken right after it is built
    (not by a later pass that reads every range back, spilled or not). Returns the
    ``K`` tables and the ``K`` totals as Delayed objects.

    Written as one graph (keys built here) rather than ``K x partitions`` Delayed
    ``getitem`` objects, whose graphs Dask merges one by one (44 s for 100 partitions
    and 200 ranges on a loaded machine, before the first task ran).
    """
    import operator

    from dask.delayed import Delayed
    from dask.highlevelgraph import HighLevelGraph

    split, piece = f"prn-split-{token}", f"prn-piece-{token}"
    table, total = f"prn-range-{token}", f"prn-totals-{token}"
    dsk = {}
    for p, task in enumerate(splits):
        dsk[(split, p)] = task
        for r in range(K):
            dsk[(piece, p, r)] = (operator.getitem, (split, p), r)
    for r in range(K):
        dsk[(table, r)] = (*merge, *[(piece, p, r) for p in range(len(splits))])
        dsk[(total, r)] = (totals[0], (table, r), *totals[1:])
    name = f"prn-shuffle-{token}"
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=dependencies)
    return (
        [Delayed((table, r), graph, layer=name) for r in range(K)],
        [Delayed((total, r), graph, layer=name) for r in range(K)],
    )


class RangeState:
    """The persisted range tables of a Dask frame and the curve layout."""

    def __init__(self, items, data_npartitions, k=None):
        import dask

        FAN = 8
        samples = [dask.delayed(_sample)(it, range_rows()) for it in items]
        while len(samples) > 1:
            samples = [
                dask.delayed(_merge_samples)(*samples[i : i + FAN])
                for i in range(0, len(samples), FAN)
            ]
        sample, labels, n_entries = dask.compute(samples[0])[0]
        # the sample graph holds the partitions' tables: drop it, so that each table
        # is freed as soon as it is split (below), not at the end of this function
        del samples
        if not isinstance(sample, Accumulator):  # a single partition: not merged
            sample, labels, n_entries = _merge_samples((sample, labels, n_entries))
        # the merged samples: the global layout (every group), the splitters' scores
        self.sample, self.labels = sample, labels
        self.layout = layout = layout_of(sample)
        if layout is None:
            return
        self.n_curves = layout.n_curves
        # ranges of a bounded size (not one per partition): a range task's table, its
        # sort and its result are bounded by dask_range_rows, whatever N
        K = n_ranges(k, data_npartitions, n_entries)
        self.K = K
        sp = splitters_of(sample, self.n_curves, K)
        tables, tot = _shuffle(items, layout, sp, self.n_curves, sample.n_entries)
        done = dask.persist(*tables, *tot)
        self.tables = done[:K]
        # the partitions' tables are needed only by the splits now running: drop the
        # references (the caller's too) so the workers free each one once it is split
        # -- at no time do they hold the data three times (partitions, pieces, ranges)
        del tables, tot
        if isinstance(items, list):
            items.clear()
        tot = dask.compute(*done[K:])
        del done
        tp = np.array([t[0] for t in tot])  # (K, n_curves)
        fp = np.array([t[1] for t in tot])
        self.tp0 = np.cumsum(tp, axis=0) - tp  # exclusive scan, descending score
        self.fp0 = np.cumsum(fp, axis=0) - fp
        self.P, self.N = tp.sum(axis=0), fp.sum(axis=0)
        self.tp_r, self.fp_r = tp, fp
        self.n_r = np.array([t[2] for t in tot])  # entries per (range, curve)

    def keys(self):
        return self.layout.keys

    def areas(self, codes):
        """``(n_curves, len(codes))``: every estimator's area, one pass over the ranges."""
        import dask

        sums = dask.compute(
            *[
                dask.delayed(range_area_sums)(t, self.tp0[r], self.fp0[r], codes)
                for r, t in enumerate(self.tables)
            ]
        )
        return finish_areas(np.sum(sums, axis=0), self.P, self.N, codes)

    def _reduced(self, curve, score, pos, neg):
        """An Accumulator of this layout holding the given (few) entries."""
        return holding(self.layout, curve, score, pos, neg, reduced=False)

    def totals_state(self):
        """An Accumulator of one entry per curve holding its class totals: the counts,
        prevalence and warnings of :func:`~prroc_numba.metrics` are those of the data.
        """
        return self._reduced(*totals_entries(self.P, self.N))

    def thresholds_state(self, thresholds):
        """An Accumulator whose curves have the data's counts at every given threshold:
        one entry per curve and threshold holding its bin's mass (summed over the
        ranges), one below the lowest threshold holding the rest.
        """
        import dask

        thr, off = thresholds_of(self.totals_state(), thresholds)
        bins = dask.compute(*[dask.delayed(range_threshold_bins)(t, thr, off) for t in self.tables])
        return self._reduced(*threshold_entries(bins, thr, off, self.n_curves))

    def hull_state(self):
        """An Accumulator whose entries are every curve's local hull vertices (at their
        scores): its hull is the data's hull, thresholds included.
        """
        import dask

        hulls = dask.compute(
            *[
                dask.delayed(range_hull_vertices)(t, self.tp0[r], self.fp0[r])
                for r, t in enumerate(self.tables)
            ]
        )
        return holding(self.layout, *hull_entries(hulls, self.n_curves))


# ------------------------------------------------------------------ raw curves


def _range_frame(table, layout, tp0, fp0, P, N, first, kind, meta):
    """One range's rows of the raw curves, as the in-memory function returns them.

    The range's table gets, per curve, a pseudo entry above its scores holding the
    higher ranges' mass (``tp0``, ``fp0``) and one below holding the rest, so the
    in-memory sweep sees the true cumulative counts and class totals; their rows (and
    the origin row, except in a curve's first non-empty range) are dropped.
    """
    import warnings

    offsets, pos, neg, score = table
    n = np.diff(offsets)
    cs = np.flatnonzero(n > 0)
    curve, sc, ps, ns, keep = [], [], [], [], []
    for c in cs:
        a, b = offsets[c], offsets[c + 1]
        s = score[a:b]
        top = tp0[c] + fp0[c] > 0
        rest_p = P[c] - tp0[c] - pos[a:b].sum()
        rest_n = N[c] - fp0[c] - neg[a:b].sum()
        bot = rest_p + rest_n > 0
        if top:
            curve.append(c)
            sc.append(np.nextafter(s[0], np.inf))
            ps.append(tp0[c])
            ns.append(fp0[c])
        curve.extend([c] * (b - a))
        sc.extend(s)
        ps.extend(pos[a:b])
        ns.extend(neg[a:b])
        if bot:
            curve.append(c)
            sc.append(np.nextafter(s[-1], -np.inf))
            ps.append(max(rest_p, 0.0))
            ns.append(max(rest_n, 0.0))
        keep.extend([bool(first[c])] + [False] * int(top) + [True] * (b - a) + [False] * int(bot))
    if not curve:
        return meta
    acc = holding(
        layout,
        np.asarray(curve, dtype=np.int64),
        np.asarray(sc, dtype=np.float64),
        np.asarray(ps, dtype=np.float64),
        np.asarray(ns, dtype=np.float64),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = getattr(acc, kind)()
    return frame[np.asarray(keep, dtype=bool)]


def _rows(frame, a, b):
    return frame.iloc[a:b]


def raw_curves(state, kind):
    """``kind`` ("roc_curve", "pr_curve", "confusion") as a Dask frame of the ranges."""
    import warnings

    import dask
    import dask.dataframe as dd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        meta = getattr(state.sample, kind)().iloc[:0]
    nonempty = (state.tp_r + state.fp_r) > 0  # (K, n_curves)
    first_r = np.argmax(nonempty, axis=0)
    frames = [
        dask.delayed(_range_frame)(
            t, state.layout, state.tp0[r], state.fp0[r], state.P, state.N, first_r == r, kind, meta
        )
        for r, t in enumerate(state.tables)
    ]
    # rows per (range, curve) in each range's frame; the result runs curve by curve
    # (as in memory), each curve's ranges in descending score
    rows = state.n_r + (first_r[None, :] == np.arange(state.K)[:, None])
    starts = np.cumsum(rows, axis=1) - rows
    parts = [
        dask.delayed(_rows)(frames[r], int(starts[r, c]), int(starts[r, c] + rows[r, c]))
        for c in range(state.n_curves)
        for r in range(state.K)
        if rows[r, c] > 0
    ]
    if kind == "roc_curve":
        bad, what = (
            (state.P <= 0) | (state.N <= 0),
            "no positives or no negatives: tpr or fpr is NaN",
        )
    elif kind == "pr_curve":
        bad, what = state.P <= 0, "no positives: recall is NaN"
    else:
        bad, what = np.zeros(state.n_curves, dtype=bool), ""
    warn_undefined(state.layout, bad, what, stacklevel=5)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_delayed(parts, meta=meta, verify_meta=False)
