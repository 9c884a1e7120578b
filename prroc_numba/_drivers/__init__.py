"""Plain-Python drivers of the compiled kernels: the thread pool, chunked dispatch over
curves or items, and the host side of the CUDA backend. Everything here calls
:mod:`prroc_numba._kernels` (compiled code only) and nothing above it.

* :mod:`.threads` -- runs serial ``nogil`` kernels over chunks of curves (or items) on
  a thread pool (cheaper to compile than ``prange``; results independent of the thread
  count);
* :mod:`.sweep` -- the confusion sweep of a whole ragged batch;
* :mod:`.grid` -- curves onto shared grids, and the check of curves given as points;
* :mod:`.resample` -- the bootstrap's one sort per curve and its segments; replicates
  from merged entry masses;
* :mod:`.cuda` -- the host side of the CUDA backend (sort, chunk layout, launches),
  loaded by :mod:`prroc_numba._core.device` on first use.

What the rest of the package may call is imported below; everything else stays inside.
The kernels the layers above call in one call over a batch (each needs no driver of its
own) are named here for them (a kernel's own name starts with an underscore); those
layers never import :mod:`prroc_numba._kernels` for code, only the codes the kernels
read (estimator, curve and target codes: plain constants).
"""

from __future__ import annotations

from .._kernels.area import _area as vertex_area
from .._kernels.area import _areas_batch as areas_batch
from .._kernels.area import _hull_areas_range as hull_areas_range
from .._kernels.columns import _columns_range as columns_range
from .._kernels.columns import _compact as compact_points
from .._kernels.columns import _split_sweep_range as split_sweep_range
from .._kernels.delong import _placements_batch as placements_batch
from .._kernels.densify import _densify_batch as densify_batch
from .._kernels.densify import _precision_flat_start as precision_flat_start
from .._kernels.grid import _ABOVE as ULP_ABOVE
from .._kernels.grid import _BELOW as ULP_BELOW
from .._kernels.grid import _precision_at_recall as precision_at_recall
from .._kernels.grid import _tpr_at_fpr as tpr_at_fpr
from .._kernels.hull import _hull_batch as hull_batch
from .._kernels.hull import _hull_indices as hull_indices
from .._kernels.layout import _offsets_from_counts as offsets_from_counts
from .._kernels.operating import _boot_operating as boot_operating
from .._kernels.operating import _pick_batch as pick_batch
from .._kernels.paired_masses import _paired_limbs as paired_limbs
from .._kernels.paired_masses import _paired_masses as paired_masses
from .._kernels.partial import _boot_partial as boot_partial
from .._kernels.partial import _partial_batch as partial_batch
from .._kernels.points import _with_ends_batch as with_ends_batch
from .._kernels.ranges import _range_areas as range_areas
from .._kernels.ranges import _range_hulls as range_hulls
from .._kernels.ranges import _replicate_range_areas as replicate_range_areas
from .._kernels.ranges import _replicate_range_totals as replicate_range_totals
from .._kernels.resample import _boot_grouped as boot_grouped
from .._kernels.resample import _boot_paired as boot_paired
from .._kernels.resample import _jackknife_group as jackknife_group
from .._kernels.resample_blocks import _boot_paired_blocks as boot_paired_blocks
from .._kernels.resample_folds import _boot_folds as boot_folds
from .._kernels.resample_folds import _fold_marks_range as fold_marks_range
from .._kernels.rng import _poisson_tables as poisson_tables
from .._kernels.segments import finish_area_cpu
from .._kernels.split_sort import _all_float32 as all_float32
from .._kernels.split_sort import _class_count as class_count
from .._kernels.split_sort import _class_scatter as class_scatter
from .._kernels.split_sort import _split_areas_range as split_areas_range
from .._kernels.thresholds import _counts_at_batch as counts_at_batch
from .._kernels.venkatraman import _unpaired_stat as unpaired_stat
from .._kernels.venkatraman import _venkatraman_paired as venkatraman_paired
from .._kernels.venkatraman import _venkatraman_unpaired as venkatraman_unpaired
from .grid import check_points, precision_at_recall_batch, tpr_at_fpr_batch
from .resample import segments_batch, sorted_curves, table_areas, table_curves
from .sweep import sweep_batch
from .threads import MIN_PARALLEL_ROWS, chunk_bounds, get_pool, run_curves, run_items

__all__ = [
    "all_float32",
    "areas_batch",
    "boot_folds",
    "boot_grouped",
    "boot_operating",
    "boot_paired",
    "boot_paired_blocks",
    "boot_partial",
    "check_points",
    "chunk_bounds",
    "class_count",
    "class_scatter",
    "columns_range",
    "compact_points",
    "counts_at_batch",
    "densify_batch",
    "finish_area_cpu",
    "fold_marks_range",
    "get_pool",
    "hull_areas_range",
    "hull_batch",
    "hull_indices",
    "jackknife_group",
    "MIN_PARALLEL_ROWS",
    "offsets_from_counts",
    "paired_limbs",
    "paired_masses",
    "partial_batch",
    "pick_batch",
    "placements_batch",
    "poisson_tables",
    "precision_at_recall",
    "precision_at_recall_batch",
    "precision_flat_start",
    "range_areas",
    "range_hulls",
    "replicate_range_areas",
    "replicate_range_totals",
    "run_curves",
    "run_items",
    "segments_batch",
    "sorted_curves",
    "split_areas_range",
    "split_sweep_range",
    "sweep_batch",
    "table_areas",
    "table_curves",
    "tpr_at_fpr",
    "tpr_at_fpr_batch",
    "ULP_ABOVE",
    "ULP_BELOW",
    "unpaired_stat",
    "venkatraman_paired",
    "venkatraman_unpaired",
    "vertex_area",
    "with_ends_batch",
]
