"""Cost of frames: reading polars / pyarrow input (issue 13), and packing and building
tidy frames (issue 10, "light frames").

Run: python benchmarks/bench_frames.py [n_rows]. Prints milliseconds per conversion of the
three needed columns (score, label, group) of a frame with 20 further unused columns, next
to one ``auc`` call on the same data, all in one run.

Run: python benchmarks/bench_frames.py light. Prints, in one run, the share of packing and
frame building in three calls: ``auc`` of 10,000 curves x 100 rows (long, rows grouped by
key), ``pr_curve`` of 100 models x 1e5 rows (wide: the 1e7-row frame with its ``model``
key) and ``interpolate`` of 10,000 curves x ~1,000 points onto 1,001 recalls (pack_points,
kernel, tidy frame), next to the floor of each: one copy of what must be copied.
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
from _cases import mixed_columns

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's package

import prroc_numba as prn  # noqa: E402
from prroc_numba._core.dataframes import to_pandas


def best(f, k=5):
    f()
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return 1e3 * min(ts)


def main(n=1_000_000):
    cols = mixed_columns(n)
    pdf = pd.DataFrame(cols)
    pldf = pl.DataFrame(cols)
    lazy = pldf.lazy()
    tab = pa.table(cols)
    need = ["s", "y", "g"]
    rows = {
        "narwhals, polars DataFrame (ours)": lambda: to_pandas(pldf, *need),
        "narwhals, polars LazyFrame (ours)": lambda: to_pandas(lazy, *need),
        "narwhals, pyarrow Table (ours)": lambda: to_pandas(tab, *need),
        "Arrow PyCapsule: pa.table(polars.select).to_pandas()": lambda: pa.table(
            pldf.select(need)
        ).to_pandas(),
        "polars .to_pandas() of every column": lambda: pldf.to_pandas(),
        "pyarrow .to_pandas() of every column": lambda: tab.to_pandas(),
        "auc(pandas, by='g') itself": lambda: prn.auc(pdf, score="s", label="y", by="g"),
        "auc(polars, by='g')": lambda: prn.auc(pldf, score="s", label="y", by="g"),
    }
    print(f"n = {n:,} rows, 23 columns, 3 needed")
    for name, f in rows.items():
        print(f"{best(f):9.1f} ms  {name}")


def light():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _cases import binormal, long_frame

    from prroc_numba import _frames as F
    from prroc_numba._core.packing import pack
    from prroc_numba._core.point_frames import pack_points
    from prroc_numba._drivers.grid import precision_at_recall_batch

    def show(name, t, whole=None):
        share = f"  ({100 * t / whole:4.0f}% of the call)" if whole else ""
        print(f"{t:9.1f} ms  {name}{share}")

    df = long_frame(10_000, 100)
    kw = dict(score="s", label="y", by="g")
    whole = best(lambda: prn.auc(df, **kw), 3)
    print("auc, 10,000 curves x 100 rows (long, rows grouped by key)")
    show("auc", whole)
    show("pack", best(lambda: pack(df, **kw), 3), whole)
    cols = [df[c].to_numpy() for c in ("g", "s", "y")]
    show("floor: one copy of the three columns", best(lambda: [c.copy() for c in cols]))

    y, S = binormal(10**5, n_models=100)
    wide = pd.DataFrame({f"m{j}": S[:, j] for j in range(100)})
    wide["y"] = y
    names = [f"m{j}" for j in range(100)]
    whole = best(lambda: prn.pr_curve(wide, score=names, label="y"), 1)
    batch = pack(wide, score=names, label="y")
    n_pts = batch.values.size + batch.n_curves  # each curve's points and its origin
    off = np.arange(batch.n_curves + 1, dtype=np.int64) * (n_pts // batch.n_curves)
    out = {c: np.ones(n_pts) for c in ("threshold", "recall", "precision", "tp", "fp")}
    print("pr_curve, 100 models x 1e5 rows (wide; 1e7 output rows)")
    show("pr_curve", whole)
    show(
        "points_frame (the tidy frame)",
        best(lambda: F.points_frame(batch.keys, off, out), 3),
        whole,
    )
    show(
        "floor: np.repeat of the model codes", best(lambda: np.repeat(np.arange(100), np.diff(off)))
    )

    pts = prn.pr_curve(long_frame(10_000, 1000), score="s", label="y", by="g")
    grid = np.linspace(0, 1, 1001)
    whole = best(lambda: prn.interpolate(pts, grid=grid, by="g"), 3)
    print(f"interpolate, 10,000 curves x ~1,000 points ({len(pts):,} rows), 1,001-point grid")
    show("interpolate (tidy frame)", whole)
    show(
        "interpolate_matrix", best(lambda: prn.interpolate_matrix(pts, grid=grid, by="g"), 3), whole
    )
    packed = pack_points(pts, "g", "pr", None, None, None)
    show("pack_points", best(lambda: pack_points(pts, "g", "pr", None, None, None), 3), whole)
    tp, fp, off = packed[:3]
    show("kernel", best(lambda: precision_at_recall_batch(tp, fp, off, grid, False), 3), whole)
    tpc = pts["tp"].to_numpy()
    show("floor: one copy of the tp column", best(lambda: tpc.copy()))


if __name__ == "__main__":
    if sys.argv[1:] == ["light"]:
        light()
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
