"""What every engine's partitions do, whatever the engine (Dask, Spark).

A partition of a distributed frame arrives here as a pandas frame of the columns a call
names; it is validated and packed like in-memory data (:func:`.pack.pack`) and reduced
to its table *(curve, distinct score) -> (positive, negative mass)*
(:func:`reduce_partition`), or kept as value rows with global row ids for the Poisson
bootstrap (:func:`partition_rows`, :func:`replicate_table`). Above a size the tables (or
rows) are cut into score ranges by score *value* (:func:`range_indices`), each range is
reduced (:func:`range_table`, :func:`tie_blocks`) and summed from its start
(:func:`range_area_sums`, :func:`range_hull_vertices`, :func:`range_threshold_bins`;
with replicates :func:`replicate_class_totals`, :func:`replicate_area_sums`), and the
client turns the ranges' few numbers back into results (:func:`finish_areas`,
:func:`hull_entries`, :func:`threshold_entries`).

Nothing here imports an engine: the Dask wing (:mod:`prroc_numba._dask`) and the Spark
wing (:mod:`prroc_numba._spark`) schedule these functions, each its own way.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from .._drivers import (
    finish_area_cpu,
    paired_masses,
    range_areas,
    range_hulls,
    replicate_range_areas,
    replicate_range_totals,
)
from .._drivers.resample import segments_batch, table_areas
from .accumulator import Accumulator, holding
from .batch import row_ids, warn_undefined, warn_undefined_auc
from .packing import pack
from .reading import entries_of, layout_of, replicates_of
from .resolve import read_labels
from .table import Layout, batch_entries, drop_zero_weight, entries, reduce_entries

# ------------------------------------------------------------------ input checks


def check_names(columns, score, label, by, weight, engine):
    """Distributed input takes column names only (arrays cannot follow its partitions);
    ``columns``: the frame's column names, ``engine``: its name in the messages
    ("Dask", "Spark").
    """
    cols = list(columns)

    def check(arg, x, many):
        xs = (
            [x]
            if isinstance(x, str)
            else (list(x) if many and isinstance(x, (list, tuple)) else None)
        )
        if xs is None or not all(isinstance(v, str) for v in xs):
            raise TypeError(
                f"{arg}= must name column(s) of the {engine} DataFrame, got "
                f"{type(x).__name__}; arrays cannot follow a {engine} frame's partitions, so "
                "add them as columns first"
            )
        for v in xs:
            if v not in cols:
                raise ValueError(
                    f"{arg}={v!r} is not a column of data; available columns: "
                    + ", ".join(map(repr, cols[:20]))
                )

    check("score", score, True)
    check("label", label, False)
    if by is not None and not (isinstance(by, (list, tuple)) and len(by) == 0):
        check("by", by, True)
    if weight is not None:
        check("weight", weight, False)


def input_kw(score, label, by, weight, pos_label, soft_labels):
    """The column arguments every partition task reads, as one dict."""
    return {
        "score": score,
        "label": label,
        "by": by,
        "weight": weight,
        "pos_label": pos_label,
        "soft_labels": soft_labels,
    }


def check_merged(layout, labels, pos_label):
    """The merged layout (None: no row) and label values, checked as in memory."""
    if layout is None:
        raise ValueError("empty input: score has no rows (or every row has weight 0)")
    if labels is not None and labels.size:
        read_labels(pd.unique(labels), pos_label, False)  # the same check as in memory


# ------------------------------------------------------------------ one partition


def packed_partition(part, kw):
    """A few of a partition's label values (to check the label set across partitions)
    and ``(batch, data, score, by, keep)`` of its packed rows (None: no row to pack).
    """
    soft = kw["soft_labels"]
    labels = np.asarray(pd.unique(part[kw["label"]]))[:3] if not soft and len(part) else None
    if len(part) == 0:
        return labels, None
    kept = drop_zero_weight(part, kw["score"], kw["label"], kw["by"], kw["weight"])
    if kept is None:
        return labels, None
    (data, score, label, by, weight), keep = kept
    batch = pack(data, **{**kw, "score": score, "label": label, "by": by, "weight": weight})
    return labels, (batch, data, score, by, keep)


class RowPart:
    """A partition's value rows (one per row and model), sorted by curve then score
    descending, with their global row ids (partition offset + position in the
    partition, or a row-id column), which key the Poisson counts; ``starts``: the
    first row of each distinct (curve, score); ``layout``: its curves'
    :class:`~prroc_numba._core.table.Layout`.
    """

    def __init__(self, layout, curve, score, pos, neg, row, starts):
        self.layout = layout
        self.curve, self.score, self.pos, self.neg = curve, score, pos, neg
        self.row, self.starts = row, starts

    def __sizeof__(self) -> int:
        # what Dask's memory accounting reads (sys.getsizeof): the arrays, not the
        # object's few pointers, so that held rows are counted and spilled as such
        held = (self.curve, self.score, self.pos, self.neg, self.row, self.starts)
        return object.__sizeof__(self) + sum(x.nbytes for x in held if x is not None)


def partition_rows(part, kw, offset, ids=None):
    """``(labels, RowPart or None)`` of one partition; its rows' global ids are
    ``offset`` + position, or ``ids`` (one int64 per row of ``part``) when given.
    """
    labels, packed = packed_partition(part, kw)
    if packed is None:
        return labels, None
    batch, data, score, by, keep = packed
    local = row_ids(batch) if keep is None else keep[row_ids(batch)]
    curve, s, pos, neg, label_row, starts = sorted_rows(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    row = local[label_row] + offset if ids is None else np.asarray(ids)[local[label_row]]
    return labels, RowPart(
        Layout(*entries(batch, data, score, by)[:3]),
        curve,
        s,
        pos,
        neg,
        np.ascontiguousarray(row, dtype=np.int64),
        starts,
    )


def sorted_rows(values, offsets, pos, neg, label_start):
    """Every curve's values sorted by score descending with the bootstrap plan's one
    radix sort per curve (:func:`._drivers.resample.segments_batch`): ``(curve,
    score, pos, neg, label_row, starts)``, ``label_row`` each value's label row (into
    ``pos``/``neg``), ``starts`` the first value of each distinct (curve, score).
    """
    order, ps, ns = segments_batch(values, offsets, pos, neg, label_start)[:3]
    curve = np.repeat(np.arange(offsets.size - 1, dtype=np.int64), np.diff(offsets))
    s = values[offsets[curve] + order] + 0.0  # -0.0 and 0.0 are one score
    start = np.ones(s.size, dtype=bool)
    start[1:] = (curve[1:] != curve[:-1]) | (s[1:] != s[:-1])
    return curve, s, ps, ns, label_start[curve] + order, np.flatnonzero(start)


def replicate_table(item, seed, n_boot):
    """A partition's Accumulator holding, per entry, ``n_boot`` Poisson replicate masses
    (:mod:`._kernels.paired_masses`) besides the data's own; ``item``: what
    :func:`partition_rows` returns.
    """
    labels, rp = item
    acc = Accumulator()
    if rp is None:
        return acc, labels
    starts = rp.starts
    ent, rows, pick = paired_rows(rp)
    pb, nb = paired_masses(ent, rows, rp.pos[pick], rp.neg[pick], starts.size, seed, 0, n_boot)
    # the rows are sorted: one value per entry, handed over as they are
    acc = holding(
        rp.layout,
        rp.curve[starts],
        rp.score[starts],
        np.add.reduceat(rp.pos, starts),
        np.add.reduceat(rp.neg, starts),
        (np.ascontiguousarray(pb.T), np.ascontiguousarray(nb.T)),
    )
    return acc, labels


def paired_rows(rp):
    """``(entry, rows, pick)`` of a :class:`RowPart` for :mod:`._kernels.paired_masses`:
    every row once (``rp``'s value rows ``pick``), its entry in each model (the models
    of a group share rows) and its row id.
    """
    n = rp.score.size
    starts = rp.starts
    ent = np.repeat(np.arange(starts.size, dtype=np.int64), np.diff(np.append(starts, n)))
    M = rp.layout.n_models
    by_row = np.lexsort((rp.curve % M, rp.row))
    pick = by_row[::M]
    return np.ascontiguousarray(ent[by_row].reshape(-1, M)), rp.row[pick], pick


def reduce_partition(part, kw, offset=None, seed=0, n_boot=0):
    """One partition's Accumulator (with Poisson replicate masses when ``offset`` is
    given) and a few of its label values (to check the label set across partitions).
    """
    if offset is not None:
        return replicate_table(partition_rows(part, kw, offset), seed, n_boot)
    labels, packed = packed_partition(part, kw)
    if packed is None:
        return Accumulator(), labels
    batch, data, score, by, _keep = packed
    return holding(Layout(*entries(batch, data, score, by)[:3]), *batch_entries(batch)), labels


# ------------------------------------------------------------------ score ranges


def global_curves(part, curve, layout):
    """The curves ``curve`` of a part whose :class:`~prroc_numba._core.table.Layout` is
    ``part``, numbered in the global ``layout`` (which holds every group of the part).
    """
    M = part.n_models
    if not part.by:
        return curve
    both = pd.concat([layout.groups, part.groups], ignore_index=True)
    codes = both.groupby(part.by, sort=True, dropna=False, observed=True).ngroup()
    codes = codes.to_numpy(np.int64)[len(layout.groups) :]
    return codes[curve // M] * M + curve % M


def range_indices(curve, score, splitters):
    """Per score range (range 0: the highest scores), the positions of the entries
    (sorted by curve) that fall in it. ``splitters``: ascending per curve; the range is
    a function of the score value only (the number of a curve's splitters below it),
    found per run of one curve.
    """
    K = splitters.shape[1] + 1
    rng = range_of(curve, score, splitters)
    order = np.argsort(rng, kind="stable")
    cuts = np.searchsorted(rng[order], np.arange(K + 1))
    return [order[cuts[r] : cuts[r + 1]] for r in range(K)]


def range_of(curve, score, splitters):
    """Each entry's score range (0: the highest scores); ``curve`` sorted."""
    K = splitters.shape[1] + 1
    rng = np.empty(curve.size, dtype=np.int64)
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(curve)) + 1, [curve.size]])
    for a, b in itertools.pairwise(bounds):
        rng[a:b] = K - 1 - np.searchsorted(splitters[curve[a]], score[a:b], side="left")
    return rng


def range_table(n_curves, *pieces):
    """One range's distinct-score table from its pieces ``(curve, score, pos, neg)``:
    ``(offsets, pos, neg, score)``, curve ``c``'s entries at ``offsets[c]:offsets[c+1]``.
    """
    curve = np.concatenate([p[0] for p in pieces])
    score = np.concatenate([p[1] for p in pieces])
    pos = np.concatenate([p[2] for p in pieces])
    neg = np.concatenate([p[3] for p in pieces])
    curve, score, pos, neg, _ = reduce_entries(curve, score, pos, neg)
    offsets = np.zeros(n_curves + 1, dtype=np.int64)
    np.cumsum(np.bincount(curve, minlength=n_curves), out=offsets[1:])
    return (
        offsets,
        np.ascontiguousarray(pos, dtype=np.float64),
        np.ascontiguousarray(neg, dtype=np.float64),
        np.ascontiguousarray(score, dtype=np.float64),
    )


def range_totals(table):
    """A range's class totals per curve and its entries per curve: ``(tp, fp, n)``."""
    offsets, pos, neg = table[:3]
    n = offsets.size - 1
    tp = np.zeros(n)
    fp = np.zeros(n)
    nz = np.diff(offsets) > 0
    if pos.size:
        tp[nz] = np.add.reduceat(pos, offsets[:-1][nz])
        fp[nz] = np.add.reduceat(neg, offsets[:-1][nz])
    return tp, fp, np.diff(offsets)


def range_area_sums(table, tp0, fp0, codes):
    """``(n_curves, len(codes))``: the range's segment-area sums for every estimator."""
    offsets, pos, neg = table[:3]
    return np.stack([range_areas(offsets, pos, neg, tp0, fp0, c) for c in codes], axis=1)


def range_hull_vertices(table, tp0, fp0):
    """The range's local hull vertices per curve, with their scores (thresholds)."""
    offsets, pos, neg, score = table
    htp, hfp, hidx, hoff = range_hulls(offsets, pos, neg, tp0, fp0)
    return htp, hfp, hoff, score[hidx]


def range_threshold_bins(table, thr, thr_offsets):
    """Per curve, the range's mass in each threshold bin: bin ``j`` of a curve holds
    the scores in ``[t_j, t_{j-1})`` (thresholds descending, ``t_{-1} = +inf``), one
    last bin the scores below every threshold. Laid out like ``thr`` plus one bin per
    curve (``thr_offsets + arange``).
    """
    offsets, pos, neg, score = table
    n_curves = offsets.size - 1
    out_p = np.zeros(thr.size + n_curves)
    out_n = np.zeros(thr.size + n_curves)
    for c in np.flatnonzero(np.diff(offsets)):
        a, b = offsets[c], offsets[c + 1]
        t = thr[thr_offsets[c] : thr_offsets[c + 1]]
        # thresholds above each score: its bin (>= the bin's threshold, < the one before)
        j = np.searchsorted(-t, -score[a:b], side="left")
        u = thr_offsets[c] + c
        m = t.size + 1
        out_p[u : u + m] = np.bincount(j, weights=pos[a:b], minlength=m)
        out_n[u : u + m] = np.bincount(j, weights=neg[a:b], minlength=m)
    return out_p, out_n


def finish_areas(total, P, N, codes):
    """``(n_curves, len(codes))`` areas from the ranges' summed segment terms."""
    n_curves = total.shape[0]
    return np.array(
        [
            [finish_area_cpu(code, total[c, k], P[c], N[c]) for k, code in enumerate(codes)]
            for c in range(n_curves)
        ]
    ).reshape(n_curves, len(codes))


def hull_entries(hulls, n_curves):
    """``(curve, score, tp, fp)`` entries whose hull is the data's hull, from every
    range's :func:`range_hull_vertices` (ranges in descending score order).
    """
    curve, tps, fps, scores = [], [], [], []
    for c in range(n_curves):
        tp = [np.zeros(1)] + [h[0][h[2][c] : h[2][c + 1]] for h in hulls]
        fp = [np.zeros(1)] + [h[1][h[2][c] : h[2][c + 1]] for h in hulls]
        tp, fp = np.concatenate(tp), np.concatenate(fp)
        tps.append(np.diff(tp))
        fps.append(np.diff(fp))
        # each vertex at its own score: the ranges run down the scores
        scores.append(np.concatenate([np.empty(0)] + [h[3][h[2][c] : h[2][c + 1]] for h in hulls]))
        curve.append(np.full(tp.size - 1, c, dtype=np.int64))
    return (
        np.concatenate(curve),
        np.concatenate(scores),
        np.concatenate(tps),
        np.concatenate(fps),
    )


def threshold_entries(bins, thr, off, n_curves):
    """``(curve, score, pos, neg)`` entries holding, per curve, the data's mass in each
    threshold bin (the ranges' :func:`range_threshold_bins` summed), one below the
    lowest threshold holding the rest: their counts at the thresholds are the data's.
    """
    pos = np.sum([b[0] for b in bins], axis=0)
    neg = np.sum([b[1] for b in bins], axis=0)
    lengths = np.diff(off) + 1
    curve = np.repeat(np.arange(n_curves, dtype=np.int64), lengths)
    score = np.empty(pos.size)
    last = off[1:] + np.arange(1, n_curves + 1) - 1  # each curve's bin below all
    mask = np.ones(pos.size, dtype=bool)
    mask[last] = False
    # a bin sits at its threshold (-inf: the lowest float; a +inf bin holds nothing)
    score[mask] = np.maximum(thr, -np.finfo(np.float64).max)
    score[last] = np.nextafter(thr[off[1:] - 1], -np.inf)
    keep = (pos + neg) > 0
    return curve[keep], score[keep], pos[keep], neg[keep]


def totals_entries(P, N):
    """``(curve, score, pos, neg)``: one entry per curve holding its class totals."""
    n = P.size
    return np.arange(n, dtype=np.int64), np.zeros(n), P.copy(), N.copy()


def splitters_of(samples, n_curves, K):
    """``(n_curves, K - 1)`` ascending splitters from each curve's sampled scores
    (an Accumulator of samples; they only affect balance, never exactness).
    """
    sp = np.full((n_curves, K - 1), np.inf)
    if K == 1 or layout_of(samples) is None:
        return sp
    c, s = entries_of(samples)[:2]  # sorted by curve, score descending
    starts = np.searchsorted(c, np.arange(n_curves + 1))
    q = np.linspace(0, 1, K + 1)[1:-1]
    for k in range(n_curves):
        x = s[starts[k] : starts[k + 1]][::-1]
        if x.size:
            sp[k] = x[np.minimum((q * x.size).astype(np.int64), x.size - 1)]
    return sp


def range_auc(state, curve, code, hull, method):
    """The areas frame as :func:`~prroc_numba.auc` returns it, from a range state (an
    object with ``layout``, ``P``, ``N``, ``keys()``, ``areas(codes)``, ``hull_state()``
    and ``totals_state()``, whatever engine holds its ranges).
    """
    from .._schema import AUC

    if hull:
        return state.hull_state().auc(curve=curve, method=method, hull=True)
    out = state.areas([code])[:, 0]
    bad = (state.P <= 0) | (state.N <= 0) if curve == "roc" else state.P <= 0

    keys = state.keys()
    warn_undefined(
        state.layout,
        bad,
        f"AUC-{curve.upper()} is undefined (no positives"
        + (" or no negatives)" if curve == "roc" else ")")
        + ": NaN",
        stacklevel=5,
    )
    frame = keys.copy()
    frame[AUC] = out
    return frame


def range_metrics(state, names):
    """The metrics frame as :func:`~prroc_numba.metrics` returns it: the hull areas from
    the hull of the local hulls, the counts (and warnings) from the class totals, every
    other area from one pass of segment sums over the ranges.
    """
    from .._checks import AREA_METRICS

    hulls = [nm for nm in names if nm in AREA_METRICS and AREA_METRICS[nm][2]]
    sums = [nm for nm in names if nm in AREA_METRICS and not AREA_METRICS[nm][2]]
    base = state.hull_state() if hulls else state.totals_state()
    out = base.metrics(names)
    if sums:
        areas = state.areas([AREA_METRICS[nm][1] for nm in sums])
        bad_pr = state.P <= 0
        bad_roc = bad_pr | (state.N <= 0)
        for k, nm in enumerate(sums):
            col = areas[:, k].copy()
            col[bad_roc if AREA_METRICS[nm][0] == "roc" else bad_pr] = np.nan
            out[nm] = col
    return out


# ------------------------------------------------- score ranges of rows (Poisson bootstrap)


def writable(x):
    """A C-contiguous, writable array (arrays unpickled or read from Arrow may be
    read-only: the kernels keep one specialisation).
    """
    return np.require(x, requirements=["C", "W"])


def tie_blocks(n_curves, *pieces):
    """One range's rows in tie blocks from its pieces ``(curve, score, row, pos, neg)``:
    ``(offsets, block, row, pos, neg)``, the blocks of curve ``c`` being
    ``offsets[c]:offsets[c + 1]`` (scores descending) and ``block[i]`` row ``i``'s block.
    """
    curve = np.concatenate([p[0] for p in pieces])
    by_curve = np.argsort(curve, kind="stable")  # each piece is already in curve order
    curve = curve[by_curve]
    rows = np.bincount(curve, minlength=n_curves)
    rows = np.concatenate([[0], np.cumsum(rows)]).astype(np.int64)

    def gather(k):
        x = np.concatenate([p[k] for p in pieces])[by_curve]
        return np.ascontiguousarray(x, dtype=np.int64 if k == 2 else np.float64)

    curve, _s, pos, neg, idx, starts = sorted_rows(
        gather(1), rows, gather(3), gather(4), np.ascontiguousarray(rows[:-1])
    )
    row = gather(2)[idx]
    n = curve.size
    block = np.repeat(np.arange(starts.size, dtype=np.int64), np.diff(np.append(starts, n)))
    offsets = np.zeros(n_curves + 1, dtype=np.int64)
    np.cumsum(np.bincount(curve[starts], minlength=n_curves), out=offsets[1:])
    return offsets, block, row, pos, neg


def block_curves(offsets):
    """Each tie block's curve."""
    return np.repeat(np.arange(offsets.size - 1, dtype=np.int64), np.diff(offsets))


def replicate_class_totals(rng, seed, n_boot):
    """``(tp, fp)``, ``(n_boot + 1, n_curves)``: a range's class totals per replicate
    (the last row: the data's own); ``rng``: its :func:`tie_blocks`.
    """
    offsets, block, row, pos, neg = (writable(x) for x in rng)
    C = offsets.size - 1
    curve = block_curves(offsets)[block]
    curve_rows = np.zeros(C + 1, dtype=np.int64)
    np.cumsum(np.bincount(curve, minlength=C), out=curve_rows[1:])
    tp = np.empty((n_boot + 1, C))
    fp = np.empty((n_boot + 1, C))
    replicate_range_totals(curve_rows, row, pos, neg, seed, tp[:n_boot], fp[:n_boot])
    tp[n_boot] = np.bincount(curve, weights=pos, minlength=C)
    fp[n_boot] = np.bincount(curve, weights=neg, minlength=C)
    return tp, fp


def replicate_masses(rng, seed, n_boot, block_bytes):
    """A range's tie-block masses ``(b, pos, neg)`` replicate by replicate (drawn
    ``block_bytes`` of replicate masses at a time), then the data's own (``b = n_boot``).
    """
    offsets, block, row, pos, neg = (writable(x) for x in rng)
    n_blocks = int(offsets[-1])
    step = int(max(1, min(n_boot, block_bytes // max(1, 16 * n_blocks))))
    entry = block.reshape(-1, 1)
    for b0 in range(0, n_boot, step):
        m = min(step, n_boot - b0)
        pb, nb = paired_masses(entry, row, pos, neg, n_blocks, seed, b0, m)
        for j in range(m):
            yield b0 + j, pb[j], nb[j]
        del pb, nb
    yield (
        n_boot,
        np.bincount(block, weights=pos, minlength=n_blocks).astype(np.float64),
        np.bincount(block, weights=neg, minlength=n_blocks).astype(np.float64),
    )


def replicate_area_sums(rng, tp0, fp0, seed, code, b0=0, n_boot=None, start=None):
    """``(n_curves, m)``: a range's segment-area sums for replicates ``b0 .. b0 + m - 1``
    (``m = tp0.shape[0]``), each from its start ``tp0[j]``, ``fp0[j]``; replicate
    ``n_boot`` (default ``b0 + m - 1``: the last) is the data's own. ``start``: the
    higher ranges' sums, which this range's terms continue in sweep order (then the
    last range's sums are the whole curve's left-to-right sum, as in memory); else 0.
    """
    offsets, block, row, pos, neg = (writable(x) for x in rng)
    block_rows = np.zeros(int(offsets[-1]) + 1, dtype=np.int64)
    np.cumsum(np.bincount(block, minlength=block_rows.size - 1), out=block_rows[1:])
    m = tp0.shape[0]
    out = np.zeros((offsets.size - 1, m)) if start is None else np.array(start, dtype=np.float64)
    last = b0 + m - 1 if n_boot is None else n_boot
    replicate_range_areas(
        offsets, block_rows, row, pos, neg, writable(tp0), writable(fp0), seed, code, b0, last, out
    )
    return out


def finish_replicate_areas(total, P, N, code):
    """``(n_curves, n_boot + 1)`` areas from the ranges' summed terms per replicate
    (``P``, ``N``: ``(n_boot + 1, n_curves)``).
    """
    out = np.empty_like(total)
    for c in range(total.shape[0]):
        for b in range(total.shape[1]):
            out[c, b] = finish_area_cpu(code, total[c, b], P[b, c], N[b, c])
    return out


def table_replicate_areas(acc, curve, code, hull):
    """``(layout, est, reps)`` of a merged table holding Poisson replicate masses: the
    estimate and the replicates' areas (NaN where a replicate's curve is undefined).
    """
    layout = layout_of(acc)
    c, _score, pos, neg = entries_of(acc)
    offsets = np.zeros(layout.n_curves + 1, dtype=np.int64)
    np.cumsum(np.bincount(c, minlength=offsets.size - 1), out=offsets[1:])
    est = table_areas(offsets, pos[:, None].copy(), neg[:, None].copy(), code, hull)[:, 0]
    pb, nb = replicates_of(acc)
    reps = table_areas(offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), code, hull)
    P = np.add.reduceat(pos, offsets[:-1])
    N = np.add.reduceat(neg, offsets[:-1])
    bad = warn_undefined_auc(layout, curve, stacklevel=6, totals=(P, N))
    reps[bad] = np.nan
    return layout, est, reps
