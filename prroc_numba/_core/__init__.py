"""The in-memory core: the batch and its curve keys, input resolution, packing, curves
given as points, the reduced table, and the partition functions that the Dask and
Spark wings run on their workers.

What the rest of the package may use is imported below, from the module that defines
it; everything else stays inside.
"""

from __future__ import annotations

from .accumulator import Accumulator, holding
from .area_frames import auc_frame, batch_areas, metrics_frame, prg_frame
from .batch import (
    Batch,
    CurveKeys,
    describe_row,
    lengths_to_offsets,
    row_ids,
    warn_undefined,
    warn_undefined_auc,
)
from .classes import check_args
from .curve_frames import check_curve_options, confusion_frame, derived, pr_frame, roc_frame
from .dataframes import (
    OUTPUTS,
    OUTPUTS_HINT,
    Output,
    check_read_columns,
    is_dask,
    is_spark,
    to_output,
    to_pandas,
)
from .exact_ints import refuse, thresholds_of_curves
from .exact_tables import (
    ExactTable,
    as_accumulator,
    exact_partition,
    layout_from_keys,
    merged_tables,
)
from .gain_areas import drop_tp0, prg_gains, prg_points
from .held_rows import packed_rows
from .inputs import Inputs
from .kept_rows import hard_labels
from .mass_limbs import from_wire, limb_floats, merged_exact, wire_pair
from .memory import check
from .multiclass import check_device
from .packing import pack
from .partial import check_partial, partial_areas, standardized
from .partitions import (
    check_merged,
    check_names,
    finish_areas,
    finish_replicate_areas,
    global_curves,
    hull_entries,
    input_kw,
    partition_rows,
    range_area_sums,
    range_auc,
    range_hull_vertices,
    range_indices,
    range_metrics,
    range_table,
    range_threshold_bins,
    range_totals,
    reduce_partition,
    replicate_area_sums,
    replicate_class_totals,
    replicate_masses,
    replicate_table,
    splitters_of,
    table_replicate_areas,
    threshold_entries,
    tie_blocks,
    totals_entries,
    writable,
)
from .point_frames import pack_points
from .points import (
    PointCurve,
    State,
    curve_area,
    framed,
    pr_state,
    rates,
    roc_state,
    state_from_counts,
    with_ends,
)
from .pr_floor import check_normalize, normalized, normalized_batch, normalized_replicates
from .reading import (
    entries_of,
    layout_of,
    pr_curve_of,
    replicates_of,
    rows_result,
    rows_thresholds,
    thresholds_of,
    weighted_rows,
)
from .resolve import as_1d, check_not_proba, frame_column
from .state import StateFormatError
from .sweep import sweep_points
from .table import Layout, batch_entries
from .thresholds import check_thresholds_columns
from .warm_parts import exercise

__all__ = [
    "ExactTable",
    "as_accumulator",
    "exact_partition",
    "layout_from_keys",
    "merged_tables",
    "from_wire",
    "limb_floats",
    "merged_exact",
    "wire_pair",
    "OUTPUTS",
    "check_read_columns",
    "check_thresholds_columns",
    "OUTPUTS_HINT",
    "to_output",
    "refuse",
    "thresholds_of_curves",
    "check_normalize",
    "normalized",
    "normalized_batch",
    "normalized_replicates",
    "Accumulator",
    "as_1d",
    "auc_frame",
    "Batch",
    "batch_areas",
    "batch_entries",
    "check",
    "check_args",
    "check_curve_options",
    "check_device",
    "check_merged",
    "check_names",
    "check_not_proba",
    "check_partial",
    "confusion_frame",
    "curve_area",
    "CurveKeys",
    "derived",
    "describe_row",
    "drop_tp0",
    "entries_of",
    "exercise",
    "finish_areas",
    "finish_replicate_areas",
    "frame_column",
    "framed",
    "hard_labels",
    "global_curves",
    "holding",
    "hull_entries",
    "input_kw",
    "Inputs",
    "is_dask",
    "is_spark",
    "Layout",
    "layout_of",
    "lengths_to_offsets",
    "metrics_frame",
    "Output",
    "pack",
    "packed_rows",
    "pack_points",
    "partial_areas",
    "partition_rows",
    "PointCurve",
    "pr_curve_of",
    "pr_frame",
    "pr_state",
    "prg_frame",
    "prg_gains",
    "prg_points",
    "range_area_sums",
    "range_auc",
    "range_hull_vertices",
    "range_indices",
    "range_metrics",
    "range_table",
    "range_threshold_bins",
    "range_totals",
    "rates",
    "reduce_partition",
    "replicate_area_sums",
    "replicate_class_totals",
    "replicate_masses",
    "replicate_table",
    "replicates_of",
    "roc_frame",
    "roc_state",
    "row_ids",
    "rows_result",
    "rows_thresholds",
    "splitters_of",
    "standardized",
    "State",
    "state_from_counts",
    "StateFormatError",
    "sweep_points",
    "table_replicate_areas",
    "threshold_entries",
    "thresholds_of",
    "tie_blocks",
    "to_pandas",
    "totals_entries",
    "warn_undefined",
    "warn_undefined_auc",
    "weighted_rows",
    "with_ends",
    "writable",
]
