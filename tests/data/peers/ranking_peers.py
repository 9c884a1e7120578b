"""Reference values of autorank 1.3.0 and baycomp 1.0.3 for tests/test_ranking.py.

Both packages install a top-level ``tests`` package into site-packages, which shadows
this project's ``tests`` (``from tests import naive``), so the suite does not install
them; this script stores what they print. Run from the repository root with the two
packages importable but not installed, e.g.::

    pip install --no-deps --target /tmp/peerpkgs autorank==1.3.0 baycomp==1.0.3
    PYTHONPATH=/tmp/peerpkgs python tests/data/peers/ranking_peers.py

It writes tests/data/peers/ranking_peers.json: each case's long table (model, dataset,
auc), autorank's critical difference and mean ranks at alpha = 0.1, and baycomp's
``SignedRankTest.probs`` for every pair (the data sets in sorted order, ropes 0, 0.01
and 0.03, nsamples = 4000, random_state = 7).
"""

import json
import warnings
from pathlib import Path

import autorank
import baycomp
import numpy as np
import pandas as pd

CASES = [(0, 12, 3, False), (1, 20, 5, True), (2, 9, 4, True), (3, 30, 7, False)]


def table(seed, n_sets, k, ties):
    """The tests' random table: AUC-like values of k models on n_sets data sets."""
    rng = np.random.default_rng(seed)
    wide = rng.normal(size=(n_sets, k)) * 0.05 + np.linspace(0.6, 0.7, k)
    if ties:
        wide = np.round(wide, 2)
    names = [f"m{j}" for j in range(k)]
    return pd.DataFrame(
        [(names[j], f"d{i}", wide[i, j]) for i in range(n_sets) for j in range(k)],
        columns=["model", "dataset", "auc"],
    )


def main():
    out = []
    for seed, n_sets, k, ties in CASES:
        long = table(seed, n_sets, k, ties)
        wide = long.pivot(index="dataset", columns="model", values="auc")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ar = autorank.autorank(wide, alpha=0.1, force_mode="nonparametric")
            bayes = []
            for a in wide.columns:
                for b in wide.columns:
                    if a == b:
                        continue
                    for rope in (0.0, 0.01, 0.03):
                        p = baycomp.SignedRankTest.probs(
                            wide[a].to_numpy(),
                            wide[b].to_numpy(),
                            rope,
                            nsamples=4000,
                            random_state=7,
                        )
                        bayes.append([a, b, rope, *map(float, p)])
        out.append(
            {
                "case": [seed, n_sets, k, ties],
                "table": long.values.tolist(),
                "autorank_cd": float(ar.cd),
                "autorank_meanrank": {m: float(r) for m, r in ar.rankdf["meanrank"].items()},
                "baycomp": bayes,  # model_x, model_y, rope, probabilities
            }
        )
    Path(__file__).with_name("ranking_peers.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
