"""Cost of reading polars / pyarrow input (issue 13): our narwhals path vs the alternatives.

Run: python benchmarks/bench_frames.py [n_rows]. Prints milliseconds per conversion of the
three needed columns (score, label, group) of a frame with 20 further unused columns, next
to one ``auc`` call on the same data, all in one run.
"""

import sys
import time

import pandas as pd
import polars as pl
import pyarrow as pa
from _cases import mixed_columns

import prroc_numba as prn
from prroc_numba._dataframes import to_pandas


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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
