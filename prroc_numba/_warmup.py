"""``prroc-numba warmup``: compile every kernel into the cache once, and say where it is.

Calls each public function once on a small synthetic input (every estimator, the hull,
interpolation, grids, points, bootstrap, comparison), so that each kernel compiles (or
loads from the cache). Useful in a Docker build step or a cluster job before the real
work starts.
"""

from __future__ import annotations

import sys
import time


def session() -> None:
    """One call of every public feature on a small input (compiles every kernel)."""
    import numpy as np
    import pandas as pd

    import prroc_numba as prn

    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.2).astype(int)
    df = pd.DataFrame(
        {
            "g": np.repeat(["a", "b", "c"], n // 3),
            "y": y,
            "s": rng.normal(size=n) + y,
            "t": rng.normal(size=n) + 0.5 * y,
            "w": rng.choice([0.5, 1.0, 2.0], size=n),
            "p": np.clip(y * 0.7 + rng.random(n) * 0.3, 0, 1),
        }
    )
    for method in ("dg", "integral", "ap", "trapezoid"):
        prn.auc(df, score="s", label="y", method=method)
    prn.auc(df, score=["s", "t"], label="y", by="g", curve="roc", weight="w")
    prn.auc(df, score="s", label="y", hull=True)
    prn.auc(df, score="s", label="p", soft_labels=True)
    prn.confusion(df, score="s", label="y", thresholds=[0.0, 1.0])
    prn.roc_curve(df, score="s", label="y", hull=True)
    pr = prn.pr_curve(df, score="s", label="y", by="g")
    prn.pr_curve(df, score="s", label="y", interpolate="dg")
    prn.pr_curve(df, score="s", label="y", interpolate="continuous", hull=True)
    prn.interpolate(pr, grid=11, by="g", hull=True)
    prn.interpolate(prn.roc_curve(df, score="s", label="y", by="g"), grid=11, by="g", space="roc")
    prn.average_curves(pr, grid=11, curve="g")
    c = prn.PRCurve(
        pd.DataFrame({"recall": [0.2, 0.5, 0.9], "precision": [0.9, 0.6, 0.3]}), n_pos=50, n_neg=200
    )
    c.to_roc().hull()
    c.precision_at([0.1, 0.4], hull=True)
    c.resample(11)
    c.auc()
    prn.ROCCurve(fpr=[0.1, 0.4], tpr=[0.5, 0.8], pos_neg_ratio=0.25).to_pr().auc("integral")
    for stratified in (True, False):
        prn.bootstrap(
            df,
            score=["s", "t"],
            label="y",
            n_boot=20,
            seed=0,
            stratified=stratified,
            progress=False,
        )
    prn.bootstrap(
        df,
        score="s",
        label="y",
        by="g",
        n_boot=20,
        seed=0,
        hull=True,
        curve="roc",
        interval="bca",
        progress=False,
    )
    prn.bootstrap(
        df,
        score="s",
        label="p",
        soft_labels=True,
        stratified=False,
        n_boot=20,
        seed=0,
        progress=False,
    )
    prn.compare(df, score=["s", "t"], label="y", n_boot=20, seed=0, progress=False)
    prn.compare(df, score=["s", "t"], label="y", curve="roc", test="delong")
    prn.bootstrap_curve(df, score="s", label="y", n_boot=20, seed=0, grid=11, progress=False)


def warmup(out=None) -> dict:
    """Compile (or load) every kernel; print where the cache is and how long it took."""
    from . import _numba

    out = out or sys.stdout
    t0 = time.perf_counter()
    session()
    secs = time.perf_counter() - t0
    compiled = len(_numba.NOTICE.compile_seconds)
    where = _numba.CACHE_ROOT or "none (no writable directory: set NUMBA_CACHE_DIR)"
    print(
        f"prroc_numba kernels ready in {secs:.1f} s ({compiled} compiled now, the rest "
        f"loaded from the cache)\ncache: {where}",
        file=out,
    )
    return {"seconds": secs, "compiled": compiled, "cache": _numba.CACHE_ROOT}
