"""The partition functions run once as a wing runs them, for the warm-up.

:func:`exercise` splits a frame in two partitions and runs every partition function
the Dask and Spark wings run on their workers (reduce, merge, the score ranges, the
Poisson replicates), so that the build's warm-up compiles every kernel they reach
without dask, pyspark or pyarrow.
"""

from __future__ import annotations

import numpy as np

from . import partitions as P
from .accumulator import Accumulator
from .exact_tables import as_accumulator, exact_partition, merged_tables
from .reading import entries_of, layout_of


def exercise(frame, score, label, by, seed=0, n_boot=20, weight=None):
    """Run every partition function on ``frame`` split in two partitions, as a wing
    would (the warm-up's representative call: it compiles every kernel the Dask and
    Spark partitions reach, without dask, pyspark or pyarrow; ``weight``: a weight
    column, for the exact sums of weighted masses). Returns the summed
    area terms of two ranges and the replicate area sums.
    """
    kw = P.input_kw(score, label, by, None, None, False)
    half = len(frame) // 2
    parts = [frame.iloc[:half], frame.iloc[half:]]
    accs = [P.reduce_partition(p, kw)[0] for p in parts]
    acc = Accumulator()
    for a in accs:
        acc.merge(a)
    layout = layout_of(acc)
    C = layout.n_curves
    sp = P.splitters_of(acc, C, 2)
    pieces = [[], []]
    for a in accs:
        c, s, p, n = entries_of(a)
        c = P.global_curves(layout_of(a), c, layout)
        for r, i in enumerate(P.range_indices(c, s, sp)):
            pieces[r].append((c[i], s[i], p[i], n[i]))
    tables = [P.range_table(C, *ps) for ps in pieces]
    tot = [P.range_totals(t) for t in tables]
    tp0 = np.stack([np.zeros(C), tot[0][0]])
    fp0 = np.stack([np.zeros(C), tot[0][1]])
    sums = [P.range_area_sums(t, tp0[r], fp0[r], [0, 1]) for r, t in enumerate(tables)]
    hulls = [P.range_hull_vertices(t, tp0[r], fp0[r]) for r, t in enumerate(tables)]
    P.hull_entries(hulls, C)
    thr = np.zeros(C)
    P.range_threshold_bins(tables[0], thr, np.arange(C + 1, dtype=np.int64))
    rows = [P.partition_rows(p, kw, i * half) for i, p in enumerate(parts)]
    P.replicate_table(rows[0], seed, n_boot)
    if weight is not None:  # weighted: the masses (and replicate masses) summed exactly
        wkw = {**kw, "weight": weight}
        for offset in (None, 0):
            tables = [exact_partition(p, wkw, offset, seed, n_boot)[0] for p in parts]
            as_accumulator(merged_tables(tables))
    rp = rows[0][1]
    piece = (P.global_curves(rp.layout, rp.curve, layout), rp.score, rp.row, rp.pos, rp.neg)
    blocks = P.tie_blocks(C, piece)
    tpb, fpb = P.replicate_class_totals(blocks, seed, n_boot)
    zero = np.zeros_like(tpb)
    reps = P.replicate_area_sums(blocks, zero, zero, seed, 0)
    return np.sum(sums, axis=0), reps
