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
* :mod:`.kernels` -- the kernels the layers above call in one call over a batch,
  named for them (the rest of the package imports no kernel itself);
* :mod:`.cuda` -- the host side of the CUDA backend (sort, chunk layout, launches),
  loaded by :mod:`prroc_numba._core.device` on first use.

What the rest of the package may call is named below; everything else stays inside.
"""

from .grid import check_points, precision_at_recall_batch, tpr_at_fpr_batch
from .kernels import (
    ULP_ABOVE,
    ULP_BELOW,
    all_float32,
    areas_batch,
    boot_folds,
    boot_grouped,
    boot_operating,
    boot_paired,
    boot_partial,
    class_count,
    class_scatter,
    columns_range,
    compact_points,
    counts_at_batch,
    densify_batch,
    finish_area_cpu,
    fold_marks_range,
    hull_areas_range,
    hull_batch,
    hull_indices,
    jackknife_group,
    offsets_from_counts,
    paired_masses,
    partial_batch,
    pick_batch,
    placements_batch,
    poisson_tables,
    precision_at_recall,
    precision_flat_start,
    range_areas,
    range_hulls,
    split_areas_range,
    split_sweep_range,
    tpr_at_fpr,
    unpaired_stat,
    venkatraman_paired,
    venkatraman_unpaired,
    vertex_area,
    with_ends_batch,
)
from .resample import segments_batch, sorted_curves, table_areas, table_curves
from .sweep import sweep_batch
from .threads import MIN_PARALLEL_ROWS, chunk_bounds, get_pool, run_curves, run_items

__all__ = [
    "MIN_PARALLEL_ROWS",
    "check_points",
    "chunk_bounds",
    "get_pool",
    "precision_at_recall_batch",
    "run_curves",
    "run_items",
    "segments_batch",
    "sorted_curves",
    "sweep_batch",
    "table_areas",
    "table_curves",
    "tpr_at_fpr_batch",
    "ULP_ABOVE",
    "ULP_BELOW",
    "all_float32",
    "areas_batch",
    "boot_folds",
    "boot_grouped",
    "boot_operating",
    "boot_paired",
    "boot_partial",
    "class_count",
    "class_scatter",
    "columns_range",
    "compact_points",
    "counts_at_batch",
    "densify_batch",
    "finish_area_cpu",
    "fold_marks_range",
    "hull_areas_range",
    "hull_batch",
    "hull_indices",
    "jackknife_group",
    "offsets_from_counts",
    "paired_masses",
    "partial_batch",
    "pick_batch",
    "placements_batch",
    "poisson_tables",
    "precision_at_recall",
    "precision_flat_start",
    "range_areas",
    "range_hulls",
    "split_areas_range",
    "split_sweep_range",
    "tpr_at_fpr",
    "unpaired_stat",
    "venkatraman_paired",
    "venkatraman_unpaired",
    "vertex_area",
    "with_ends_batch",
]
