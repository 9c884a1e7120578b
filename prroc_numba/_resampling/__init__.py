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

What the rest of the package may use is named below (loaded on first use);
everything else stays inside.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: where each name offered lives; imported on first use, so that importing one module
#: of the package loads only what that module needs
_WHERE = {
    "DOC": ".design",
    "Plan": ".plan",
    "band_bounds": ".intervals",
    "boot_pairs": ".intervals",
    "boot_se": ".intervals",
    "cluster_codes": ".design",
    "delong_cov": ".paired",
    "delong_parts": ".paired",
    "fold_replicates": ".engine",
    "interval_bounds": ".intervals",
    "is_counts": ".table",
    "normal_interval": ".intervals",
    "normal_p": ".intervals",
    "operating": ".run",
    "pair_index": ".intervals",
    "row_quantiles": ".intervals",
    "table_areas": ".table",
    "table_bootstrap": ".table",
    "venkatraman_pairs": ".paired",
    "warn_degenerate": ".intervals",
    "SubgroupOptions": ".subgroup_options",
    "check_data": ".subgroup_options",
    "disparity_frame": ".gap_frame",
    "subgroup_replicates": ".subgroup_draws",
}

if TYPE_CHECKING:  # for type checkers and the import graph; at run time see __getattr__
    from .design import DOC, cluster_codes
    from .engine import fold_replicates
    from .gap_frame import disparity_frame
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
    from .run import operating
    from .subgroup_draws import subgroup_replicates
    from .subgroup_options import SubgroupOptions, check_data
    from .table import is_counts, table_areas, table_bootstrap

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
    "is_counts",
    "normal_interval",
    "normal_p",
    "operating",
    "pair_index",
    "row_quantiles",
    "table_areas",
    "table_bootstrap",
    "venkatraman_pairs",
    "warn_degenerate",
    "SubgroupOptions",
    "check_data",
    "disparity_frame",
    "subgroup_replicates",
]


def __getattr__(name: str) -> Any:
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(mod, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
