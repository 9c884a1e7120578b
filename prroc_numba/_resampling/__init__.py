"""The bootstrap engine: design -> plan -> run -> intervals.

* :mod:`.design`: what a replicate draws (rows, clusters, multiclass rows, strata);
* :mod:`.plan`: every curve sorted once and laid out for the replicate kernels;
* :mod:`.run`: the one replicate driver (areas, grids, partial areas, folds,
  operating points, the jackknife), in chunks;
* :mod:`.engine`: one in-memory run of a call (plan, estimate, replicates);
* :mod:`.intervals`: percentile, basic and BCa intervals, bands, paired differences;
* :mod:`.paired`: DeLong's covariance and Venkatraman's permutations;
* :mod:`.folds`: the tidy layout of ``fold=`` results;
* :mod:`.table`: replicates and intervals drawn from a reduced table of counts.

What the rest of the package may use is imported below, from the module that defines
it; everything else stays inside.
"""

from __future__ import annotations

from .design import DOC, cluster_codes
from .gap_frame import disparity_frame
from .intervals import (
    band_bounds,
    boot_pairs,
    boot_se,
    interval_bounds,
    normal_interval,
    pair_index,
    row_quantiles,
    warn_degenerate,
)
from .paired import delong_cov, delong_pairs, delong_parts, venkatraman_pairs
from .plan import Plan
from .run import operating
from .subgroup_draws import subgroup_replicates
from .subgroup_options import SubgroupOptions, check_data
from .table import is_counts, table_areas, table_bootstrap

__all__ = [
    "check_data",
    "delong_pairs",
    "disparity_frame",
    "subgroup_replicates",
    "SubgroupOptions",
    "band_bounds",
    "boot_pairs",
    "boot_se",
    "cluster_codes",
    "delong_cov",
    "delong_parts",
    "DOC",
    "interval_bounds",
    "is_counts",
    "normal_interval",
    "operating",
    "pair_index",
    "Plan",
    "row_quantiles",
    "table_areas",
    "table_bootstrap",
    "venkatraman_pairs",
    "warn_degenerate",
]
