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

What the rest of the package may call is imported below (the kernels named for the layers
above: :mod:`.kernels`); everything else stays inside.
"""

from __future__ import annotations

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
    boot_paired_blocks,
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
    replicate_range_areas,
    replicate_range_totals,
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
