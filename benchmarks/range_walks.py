"""The Poisson bootstrap's score-range walks (Dask and Spark range paths), one thread.

One score range of ``--rows`` rows (``--curves`` curves, continuous scores: one row per
tie block, 5% positives, row ids scattered), ``--n-boot`` replicates, AUC-PR (DG):

* pass 1, class totals per replicate and curve
  (:func:`prroc_numba._core.partitions.replicate_class_totals`), and pass 2, area sums
  per replicate from each replicate's start
  (:func:`~prroc_numba._core.partitions.replicate_area_sums`): each row's count added
  into its tie block's masses as it is drawn;
* against the route that stores a block of replicates' tie-block masses first
  (:func:`~prroc_numba._core.partitions.replicate_masses`, 64 MiB a block) and sums each
  replicate's area terms from them (the range path's hull and curve passes still do);
* and the floor: one pass of ``np.sum`` over the row ids per replicate.

Figures in million (row, replicate) pairs per second, best of ``--repeat``; the two
routes' area sums are checked equal first.

    python benchmarks/range_walks.py [--rows 2e6] [--n-boot 100]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _best(fn, repeat):
    fn()
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=float, default=2e6)
    p.add_argument("--curves", type=int, default=10)
    p.add_argument("--n-boot", type=int, default=100)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args(argv)

    import numba

    from prroc_numba._core.partitions import (
        replicate_area_sums,
        replicate_class_totals,
        replicate_masses,
        tie_blocks,
    )
    from prroc_numba._drivers import range_areas

    numba.set_num_threads(1)  # as in a Spark task or a Dask worker thread
    n, C, B = int(a.rows), a.curves, a.n_boot
    rng = np.random.default_rng(0)
    curve = np.sort(rng.integers(0, C, n))
    score = rng.standard_normal(n)
    row = rng.permutation(5 * n)[:n].astype(np.int64)
    y = (rng.random(n) < 0.05).astype(np.float64)
    blocks = tie_blocks(C, (curve, score, row, y, 1.0 - y))
    tp, fp = replicate_class_totals(blocks, 1, B)
    tp0 = np.cumsum(tp, axis=1) - tp  # any starts will do
    fp0 = np.cumsum(fp, axis=1) - fp

    def stored():
        offsets = blocks[0]
        out = np.empty((C, B + 1))
        for b, pb, nb in replicate_masses(blocks, 1, B, 1 << 26):
            out[:, b] = range_areas(offsets, pb, nb, tp0[b], fp0[b], 2)
        return out

    walked = replicate_area_sums(blocks, tp0, fp0, 1, 2)
    np.testing.assert_allclose(walked, stored(), rtol=1e-12, atol=0)

    pairs = n * B / 1e6
    rows = {
        "pass 1: class totals, counts added as drawn": _best(
            lambda: replicate_class_totals(blocks, 1, B), a.repeat
        ),
        "pass 2: area sums, counts added as drawn": _best(
            lambda: replicate_area_sums(blocks, tp0, fp0, 1, 2), a.repeat
        ),
        "pass 2 from stored replicate masses": _best(stored, a.repeat),
        "floor: np.sum over the row ids per replicate": _best(
            lambda: [row.sum() for _ in range(B)], a.repeat
        ),
    }
    print(
        f"one range of {n:,} rows, {C} curves, B = {B}, one thread; load {os.getloadavg()[0]:.1f}"
    )
    print("| walk | seconds | million row-replicates per second |")
    print("|---|---:|---:|")
    for name, t in rows.items():
        print(f"| {name} | {t:.3f} | {pairs / t:.1f} |")


if __name__ == "__main__":
    main()
