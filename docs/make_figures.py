"""Draw the figures of the docs pages on ranking models and on power.

Run from the repository root: ``python docs/make_figures.py`` (writes docs/img/*.png).
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

import prroc_numba as prn
from prroc_numba import plot as pp


def critical_difference_figure(path="docs/img/critical_difference.png"):
    """Seven models' AUCs on 20 data sets: the critical-difference diagram."""
    rng = np.random.default_rng(0)
    names = ["logreg", "tree", "forest", "boost", "svm", "knn", "nb"]
    skill = [0.02, -0.03, 0.03, 0.035, 0.015, -0.01, -0.02]
    base = rng.uniform(0.65, 0.9, size=20)
    rows = [
        (m, f"d{d:02d}", base[d] + s + rng.normal(0, 0.02))
        for m, s in zip(names, skill)
        for d in range(20)
    ]
    df = pd.DataFrame(rows, columns=["model", "dataset", "auc"])
    res = prn.rank_models(df, model="model", dataset="dataset", value="auc")
    ax = pp.critical_difference(res)
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    return res


if __name__ == "__main__":
    print(critical_difference_figure())
