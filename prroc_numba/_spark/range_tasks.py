"""The score ranges' tasks in Spark's Python workers (pyarrow and numpy only).

Every entry (or value row) carries its curve and its score range ``__prn_part``
(:func:`prroc_numba._spark.ranges.ranged`: the range follows from the values alone,
a run of tied scores always in one range) and the rows are exchanged so that each
range lies in one Spark partition (a partition may hold several). Each task splits its
batches into ranges, orders each range's rows by their values, sums equal (curve, score)
entries (:func:`prroc_numba._core.partitions.range_table`) or builds its tie blocks
(:func:`~prroc_numba._core.partitions.tie_blocks`) and sends back a few numbers per
curve: class totals (pass 1), then, given its start from the driver's exclusive scan,
area sums, local hull vertices or threshold bins (pass 2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from .._core import Layout
from .._core.mass_limbs import merged_exact
from .._core.partitions import (
    global_curves,
    range_area_sums,
    range_hull_vertices,
    range_table,
    range_threshold_bins,
    range_totals,
    replicate_area_sums,
    replicate_class_totals,
    tie_blocks,
)
from .bridge import exact_limbs
from .executor import LIMBS, MODEL, NEG, POS, SCORE, set_threads

PART, CURVE, ROW = "__prn_part", "__prn_curve", "__prn_row"


def _table(batches):
    batches = [b for b in batches if b.num_rows]
    return pa.Table.from_batches(batches) if batches else None


def _f64(table, name):
    return np.ascontiguousarray(table[name].to_numpy(), dtype=np.float64)


def curve_codes(keys, layout):
    """Each key row's curve in the global ``layout`` (groups sorted as in memory)."""
    M = layout.n_models
    n = len(keys)
    if layout.by:
        local = Layout(layout.by, None, keys[layout.by].reset_index(drop=True))
        g = global_curves(local, np.arange(n, dtype=np.int64), layout)
    else:
        g = np.zeros(n, dtype=np.int64)
    if layout.models is not None:
        index = {m: i for i, m in enumerate(layout.models)}
        return g * M + keys[MODEL].map(index).to_numpy(np.int64)
    return g


def _parts(batches):
    """``(part, table)`` for each score range in a task's batches (a Spark partition
    may hold several ranges), its rows in one order that depends on their values only
    (curve, score descending, then the masses or the row id), never on the order in
    which the exchange delivered them: the sums taken over them are then the same bits
    on every run and partitioning.
    """
    t = _table(batches)
    if t is None:
        return
    part = np.ascontiguousarray(t[PART].to_numpy(), dtype=np.int64)
    curve = np.ascontiguousarray(t[CURVE].to_numpy(), dtype=np.int64)
    tail = [t[c].to_numpy() for c in (ROW, POS, NEG) if c in t.column_names]
    order = np.lexsort((*tail[::-1], -_f64(t, SCORE), curve, part))
    t, part = t.take(order), part[order]
    cuts = np.flatnonzero(np.diff(part)) + 1
    for lo, hi in zip([0, *cuts], [*cuts, part.size]):
        yield int(part[lo]), t.slice(lo, hi - lo)


def _curves(t):
    return np.ascontiguousarray(t[CURVE].to_numpy(), dtype=np.int64)


def _entries(batches, layout, key_cols=None):
    """``(part, table)`` per range: the range table over the global curves."""
    for part, t in _parts(batches):
        pieces = (_curves(t), _f64(t, SCORE), _f64(t, POS), _f64(t, NEG))
        limbs = exact_limbs(t)
        if limbs is not None:  # weighted: the partitions' exact sums added exactly
            pieces = merged_exact(pieces[0], pieces[1], *limbs)[:4]
        yield part, range_table(layout.n_curves, pieces)


def curves_task(batches, layout, key_cols):
    """The entries of the partitions' tables with their curve in the global ``layout``
    (``CURVE``, score, pos, neg) in place of their key columns.
    """
    set_threads()
    for b in batches:
        if not b.num_rows:
            continue
        keys = b.select(key_cols).to_pandas() if key_cols else pd.DataFrame(index=range(b.num_rows))
        cols = {CURVE: curve_codes(keys, layout)}
        carried = (SCORE, POS, NEG) + tuple(c for c in LIMBS if c in b.schema.names)
        yield from _batch({**cols, **{c: b.column(c) for c in carried}})


def _batch(cols):
    return [pa.RecordBatch.from_pydict(cols)]


def totals_task(batches, layout, key_cols):
    """Pass 1: the range's class totals and entries per curve."""
    set_threads()
    for part, table in _entries(batches, layout, key_cols):
        tp, fp, n = range_totals(table)
        c = np.flatnonzero(n)
        yield from _batch(
            {PART: np.full(c.size, part, np.int64), CURVE: c, "tp": tp[c], "fp": fp[c], "n": n[c]}
        )


def areas_task(batches, layout, key_cols, tp0, fp0, codes):
    """Pass 2: the range's segment-area sums per curve and estimator."""
    set_threads()
    for part, table in _entries(batches, layout, key_cols):
        sums = range_area_sums(table, tp0[part], fp0[part], codes)  # (n_curves, len(codes))
        c = np.flatnonzero(np.diff(table[0]))
        yield from _batch({PART: np.full(c.size, part, np.int64), CURVE: c, "sums": list(sums[c])})


def hulls_task(batches, layout, key_cols, tp0, fp0):
    """Pass 2: the range's local hull vertices (tp, fp, score) per curve."""
    set_threads()
    for part, table in _entries(batches, layout, key_cols):
        htp, hfp, hoff, hscore = range_hull_vertices(table, tp0[part], fp0[part])
        curve = np.repeat(np.arange(hoff.size - 1, dtype=np.int64), np.diff(hoff))
        yield from _batch(
            {
                PART: np.full(curve.size, part, np.int64),
                CURVE: curve,
                "tp": htp,
                "fp": hfp,
                "score": hscore,
            }
        )


def bins_task(batches, layout, key_cols, thr, off):
    """Pass 2: the range's mass in every threshold bin (the non-empty bins)."""
    set_threads()
    for part, table in _entries(batches, layout, key_cols):
        p, n = range_threshold_bins(table, thr, off)
        i = np.flatnonzero((p != 0) | (n != 0))
        yield from _batch({PART: np.full(i.size, part, np.int64), "i": i, "p": p[i], "n": n[i]})


# ------------------------------------------------------------ rows (Poisson bootstrap)


def _blocks(batches, n_curves):
    """``(part, tie blocks)`` per range of the bootstrap's value rows."""
    for part, t in _parts(batches):
        piece = (
            _curves(t),
            _f64(t, SCORE),
            np.ascontiguousarray(t[ROW].to_numpy(), dtype=np.int64),
            _f64(t, POS),
            _f64(t, NEG),
        )
        yield part, tie_blocks(n_curves, piece)


def replicate_totals_task(batches, n_curves, seed, n_boot):
    """Pass 1 of the bootstrap: the range's class totals per replicate and curve."""
    set_threads()
    for part, rng in _blocks(batches, n_curves):
        tp, fp = replicate_class_totals(rng, seed, n_boot)
        yield from _batch({PART: [part], "tp": [tp.ravel()], "fp": [fp.ravel()]})


def replicate_sums_task(batches, n_curves, seed, tp0, fp0, code):
    """Pass 2 of the bootstrap: the range's area sums per curve and replicate."""
    set_threads()
    for part, rng in _blocks(batches, n_curves):
        sums = replicate_area_sums(rng, tp0[part], fp0[part], seed, code)
        yield from _batch({PART: [part], "sums": [sums.ravel()]})
