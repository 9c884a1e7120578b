"""The bootstrap engine: design -> plan -> run -> intervals.

* :mod:`.design`: what a replicate draws (rows, clusters, multiclass rows, strata);
* :mod:`.plan`: every curve sorted once and laid out for the replicate kernels;
* :mod:`.run`: the one replicate driver (areas, grids, partial areas, folds,
  operating points, the jackknife), in chunks;
* :mod:`.engine`: one in-memory run of a call (plan, estimate, replicates);
* :mod:`.intervals`: percentile, basic and BCa intervals, bands, paired differences;
* :mod:`.paired`: DeLong's covariance and Venkatraman's permutations;
* :mod:`.folds`: the tidy layout of ``fold=`` results.

What the rest of the package may use is named below; everything else stays inside.
"""

from __future__ import annotations

from .design import DOC, cluster_codes
from .engine import fold_replicates
from .intervals import (
    band_bounds,
    boot_pairs,
    boot_se,
    interval_bounds,
    normal_interval,
    normal_p,
    pair_index,
    row_quantiles,
    warn_degenerate,
)
from .paired import delong_cov, delong_parts, venkatraman_pairs
from .plan import Plan
from .run import kernel_seed, operating

__all__ = [
    "DOC",
    "Plan",
    "band_bounds",
    "boot_pairs",
    "boot_se",
    "cluster_codes",
    "delong_cov",
    "delong_parts",
    "fold_replicates",
    "interval_bounds",
    "kernel_seed",
    "normal_interval",
    "normal_p",
    "operating",
    "pair_index",
    "row_quantiles",
    "venkatraman_pairs",
    "warn_degenerate",
]
