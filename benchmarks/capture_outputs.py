"""Every representative call's output, captured to a pickle and compared bit for bit.

Checks that a change keeps results identical (and that they do not depend on the
thread count): capture before and after, at 1 and 2 threads, then compare::

    NUMBA_NUM_THREADS=1 python benchmarks/capture_outputs.py before1.pkl
    ... (change the code) ...
    NUMBA_NUM_THREADS=1 python benchmarks/capture_outputs.py after1.pkl
    python benchmarks/capture_outputs.py --cmp before1.pkl after1.pkl

The calls: :data:`prroc_numba._jit.warmup.CALLS` (every public path) plus a few on 20,000
rows. Frames compare exactly (values, dtypes, columns), arrays with ``array_equal``.
"""

import pickle
import sys
import warnings

import numpy as np
import pandas as pd


def grab():
    import prroc_numba as prn
    from prroc_numba._jit import warmup as _warmup

    out = _warmup.run_calls()
    rng = np.random.default_rng(5)
    n = 20000
    df = pd.DataFrame(
        {
            "y": rng.random(n) < 0.1,
            "g": rng.integers(0, 4, n),
            "s": rng.random(n),
            "t": rng.random(n),
        }
    )
    df["s"] += df["y"] * 0.3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["big boot"] = prn.bootstrap(df, score=["s", "t"], label="y", by="g", n_boot=300, seed=1)
        out["big boot bca"] = prn.bootstrap(
            df, score="s", label="y", n_boot=200, seed=2, interval="bca"
        )
        out["big boot poisson"] = prn.bootstrap(
            df, score="s", label="y", by="g", n_boot=200, seed=3, resampling="poisson"
        )
        out["big compare"] = prn.compare(df, score=["s", "t"], label="y", n_boot=200, seed=4)
        out["big delong"] = prn.compare(df, score=["s", "t"], label="y", test="delong", curve="roc")
        out["big pr"] = prn.pr_curve(df, score="s", label="y", by="g")
        out["big auc"] = prn.auc(df, score=["s", "t"], label="y", by="g", method="integral")
    return out


def same(a, b, path):
    bad = []
    if isinstance(a, pd.DataFrame) or isinstance(a, pd.Series):
        try:
            if isinstance(a, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b, check_exact=True)
            else:
                pd.testing.assert_series_equal(a, b, check_exact=True)
        except AssertionError as e:
            bad.append(f"{path}: {str(e)[:300]}")
    elif isinstance(a, np.ndarray):
        if not (
            a.shape == b.shape
            and a.dtype == b.dtype
            and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        ):
            bad.append(f"{path}: arrays differ")
    elif isinstance(a, dict):
        if set(a) != set(b):
            bad.append(f"{path}: keys {set(a) ^ set(b)}")
        for k in a:
            if k in b:
                bad += same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            bad.append(f"{path}: len")
        for i, (x, y) in enumerate(zip(a, b)):
            bad += same(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        if not (a == b or (a != a and b != b)):
            bad.append(f"{path}: {a} != {b}")
    elif hasattr(a, "__dict__") and not isinstance(a, type):
        bad += same(vars(a), vars(b), path)
    else:
        try:
            if a != b:
                bad.append(f"{path}: {a!r} != {b!r}")
        except Exception:
            pass
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "--cmp":
        a = pickle.load(open(sys.argv[2], "rb"))
        b = pickle.load(open(sys.argv[3], "rb"))
        bad = same(a, b, "")
        print("\n".join(bad) or f"identical: {len(a)} results")
        sys.exit(1 if bad else 0)
    out = grab()
    keep = {}
    for k, v in out.items():
        try:
            pickle.dumps(v)
            keep[k] = v
        except Exception:
            keep[k] = repr(v)
    pickle.dump(keep, open(sys.argv[1], "wb"))
    print(len(keep), "results")
