"""Multiclass areas and intervals against scikit-learn, ratios from one run (issue 13).

Run: python benchmarks/bench_multiclass.py [n_rows] [n_classes]
"""

import sys
import time

import numpy as np
import pandas as pd
from _cases import multiclass_probs
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.preprocessing import label_binarize

import prroc_numba as prn


def best(f, k=3):
    f()
    ts = []
    for _ in range(k):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts)


def main(n=100_000, K=10, B=200):
    y, P = multiclass_probs(n, K)
    Y = label_binarize(y, classes=range(K))
    cols = [f"c{k}" for k in range(K)]
    df = pd.DataFrame(P, columns=cols).assign(y=y)
    rows = [
        (
            "AUC-PR (ap) macro",
            lambda: prn.auc(score=P, label=y, multiclass="ovr", average="macro", method="ap"),
            lambda: average_precision_score(Y, P, average="macro"),
        ),
        (
            "AUC-PR (ap) micro",
            lambda: prn.auc(score=P, label=y, multiclass="ovr", average="micro", method="ap"),
            lambda: average_precision_score(Y, P, average="micro"),
        ),
        (
            "AUC-ROC ovr macro",
            lambda: prn.auc(score=P, label=y, multiclass="ovr", average="macro", curve="roc"),
            lambda: roc_auc_score(y, P, multi_class="ovr"),
        ),
        (
            "AUC-ROC ovo macro",
            lambda: prn.auc(score=P, label=y, multiclass="ovo", average="macro", curve="roc"),
            lambda: roc_auc_score(y, P, multi_class="ovo"),
        ),
    ]
    print(f"n = {n:,}, K = {K}")
    for name, ours, peer in rows:
        a, b = best(ours), best(peer)
        print(f"{name:22s} {a * 1e3:9.1f} ms  scikit-learn {b * 1e3:9.1f} ms  {b / a:6.1f}x")
    # bootstrap of the macro AUC-PR: B replicates vs a scikit-learn loop (20 replicates,
    # scaled), rows resampled by class as ours
    t0 = time.perf_counter()
    prn.bootstrap(
        df, score=cols, label="y", multiclass="ovr", average="macro", method="ap", n_boot=B, seed=0
    )
    ours = time.perf_counter() - t0
    rng = np.random.default_rng(1)  # the peer's resampling draws
    t0 = time.perf_counter()
    for _ in range(20):
        idx = np.concatenate([rng.choice(np.flatnonzero(y == k), (y == k).sum()) for k in range(K)])
        average_precision_score(Y[idx], P[idx], average="macro")
    peer = (time.perf_counter() - t0) / 20 * B
    print(
        f"bootstrap macro AUC-PR, B = {B}: {ours:.2f} s  scikit-learn loop {peer:.2f} s  "
        f"{peer / ours:.1f}x"
    )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
