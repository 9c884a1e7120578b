"""Generate the bundled demo predictions (``demo_predictions.csv.gz``).

Run ``python -m prroc_numba.data.make_demo`` to rebuild the file; the output is fully
determined by the seed. The data imitate a skewed classification task: 20,000 rows,
1,000 positives (5%), and five models of different quality scored on the same rows:

* ``gbm`` and ``gbm_tuned`` -- two strong, highly correlated models (the tuned one is
  slightly better): the hard comparison;
* ``logreg`` -- a good but weaker model;
* ``rules`` -- a points-based score with only 11 distinct values (heavy ties);
* ``noise`` -- unrelated to the label (AUC-ROC about 0.5, AUC-PR about the prevalence).

Scores are probabilities rounded to 4 decimals, as models usually export them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

N_ROWS = 20_000
N_POS = 1_000
SEED = 20061


def make(seed: int = SEED) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.zeros(N_ROWS, dtype=np.int64)
    y[rng.choice(N_ROWS, N_POS, replace=False)] = 1
    shared = rng.normal(size=N_ROWS)  # what the two boosted models both learned

    def proba(latent):
        return np.round(1.0 / (1.0 + np.exp(-latent)), 4)

    gbm = -4.2 + 2.0 * y + 0.8 * shared + 0.6 * rng.normal(size=N_ROWS)
    tuned = -4.2 + 2.03 * y + 0.8 * shared + 0.6 * rng.normal(size=N_ROWS)
    logreg = -3.8 + 1.5 * y + rng.normal(size=N_ROWS)
    points = np.clip(np.floor(2.5 + 1.2 * y + 1.6 * rng.normal(size=N_ROWS)), 0, 10)
    noise = -3.0 + rng.normal(size=N_ROWS)
    return pd.DataFrame(
        {
            "id": np.arange(N_ROWS),
            "y": y,
            "gbm": proba(gbm),
            "gbm_tuned": proba(tuned),
            "logreg": proba(logreg),
            "rules": points.astype(np.int64),
            "noise": proba(noise),
        }
    )


def main() -> None:
    out = Path(__file__).with_name("demo_predictions.csv.gz")
    make().to_csv(out, index=False, compression={"method": "gzip", "mtime": 0})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
