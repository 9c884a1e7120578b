"""Reference AUPRG values and PRG points from Flach & Kull's own Python package.

``pip install --no-deps pyprg==0.1.1b7`` (the authors' reference implementation of
Precision-Recall-Gain curves). It calls ``np.alen``, removed in numpy 1.23; this script
restores it (its old definition) before importing, so it runs
on current numpy. Run from the repository root: ``python tests/data/peers/prg_pyprg.py``
writes tests/data/peers/prg_pyprg.json. The test suite reads the JSON, never pyprg.
"""

import json
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np


def _alen(a):
    """numpy < 1.23's ``np.alen``."""
    try:
        return len(a)
    except TypeError:
        return len(np.array(a, ndmin=1))


np.alen = _alen

from prg import prg  # noqa: E402


def case(labels, scores):
    labels = np.asarray(labels, dtype=int)
    scores = np.asarray(scores, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        curve = prg.create_prg_curve(labels, scores)
        auprg = prg.calc_auprg(curve)
        rg, pg = curve["recall_gain"], curve["precision_gain"]
        ok = ~np.isnan(rg) & ~np.isnan(pg)
        hull = prg.convex_hull(list(zip(rg[ok].tolist(), pg[ok].tolist())))
    points = [
        [float(r), float(p), float(t), float(f)]
        for r, p, t, f, c in zip(rg, pg, curve["TP"], curve["FP"], curve["is_crossing"])
        if not c and t > 0
    ]
    return {
        "labels": labels.tolist(),
        "scores": scores.tolist(),
        "auprg": float(auprg),
        "points": points,  # recall_gain, precision_gain, tp, fp (no crossing points)
        "hull": [[float(x), float(y)] for x, y in hull],  # upper hull, right to left
    }


def main():
    out = []
    # the example of the authors' documentation (plot_prg, prg.test)
    example = [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1]
    out.append(dict(case(example, np.arange(1, 26)[::-1]), name="authors_example"))
    rng = np.random.default_rng(2015)
    for i in range(12):
        n = int(rng.integers(8, 400))
        prev = rng.uniform(0.05, 0.6)
        y = (rng.random(n) < prev).astype(int)
        y[0], y[1] = 1, 0
        s = rng.normal(size=n) + rng.uniform(0, 2) * y
        if i % 2:  # ties
            s = np.round(s, 1 if i % 4 == 1 else 0)
        out.append(dict(case(y, s), name=f"random_{i}"))
    path = Path(__file__).with_name("prg_pyprg.json")
    path.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
