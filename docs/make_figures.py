"""Draw the figures of the docs pages on ranking models, on power, on folds and on
subgroups.

``python docs/make_figures.py`` (from any folder) writes docs/img/*.png.
"""

import os
import re
import shutil
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

import prroc_numba as prn
from prroc_numba import plot as pp

IMG = Path(__file__).resolve().parent / "img"


def critical_difference_figure(path=IMG / "critical_difference.png"):
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


def power_figure(path=IMG / "power_curve.png"):
    """Simulated power of comparing two paired models' AP against n, binormal scores."""
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(5.5, 4.0))
    sizes = [100, 200, 400, 800, 1600, 3200]
    for a1 in (1.6, 1.3):
        sim = prn.power(
            binormal={"A1": a1, "B1": 1.0, "A2": 1.0, "B2": 1.0, "rn": 0.5, "ra": 0.5},
            prevalence=0.05,
            n=sizes,
            curve="pr",
            method="ap",
            n_sim=200,
            n_boot=300,
            seed=1,
        )
        pp.plot_power(sim, ax=ax, label=f"binormal A = {a1} vs 1.0", color=None)
    ax.set_xscale("log")
    ax.set_title("Two paired models' AP, 5% positives: simulated power")
    ax.legend(loc="lower right", fontsize=8)
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    return sim


def cv_folds_figure(path=IMG / "cv_folds_bands.png"):
    """docs/uncertainty.md's figure: the page's own code, run in a temporary folder
    (where it saves the figure), copied to ``path``.
    """
    page = (Path(__file__).resolve().parent / "uncertainty.md").read_text()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            namespace = {"__name__": "uncertainty"}
            for block in re.findall(r"```python\n(.*?)```", page, flags=re.S):
                exec(compile(block, "docs/uncertainty.md", "exec"), namespace)
        finally:
            os.chdir(here)
        shutil.copy(Path(tmp) / "cv_folds_bands.png", path)
    return path


def subgroups_figure(path=IMG / "subgroups_forest.png"):
    """docs/subgroups.md's figure: the forest plot of its worked example (the page's
    first block run here).
    """
    page = (Path(__file__).resolve().parent / "subgroups.md").read_text()
    namespace = {"__name__": "subgroups"}
    exec(
        compile(re.findall(r"```python\n(.*?)```", page, flags=re.S)[0], "page", "exec"), namespace
    )
    ax = pp.plot_disparity(namespace["gaps"])
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    return path


if __name__ == "__main__":
    print(critical_difference_figure())
    print(power_figure())
    print(cv_folds_figure())
    print(subgroups_figure())
