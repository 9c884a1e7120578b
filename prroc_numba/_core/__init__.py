"""The in-memory core: the batch and its curve keys, input resolution, packing, curves
given as points, and the reduced table.

What the rest of the package may use is named below (loaded on first use);
everything else stays inside.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: where each name offered lives; imported on first use, so that importing one module
#: of the package loads only what that module needs
_WHERE = {
    "INPUTS": ".pack",
    "MULTICLASS": ".pack",
    "Accumulator": ".table",
    "Batch": ".batch",
    "CurveKeys": ".batch",
    "Layout": ".table",
    "Output": ".dataframes",
    "PointCurve": ".points",
    "State": ".points",
    "StateFormatError": ".state",
    "as_1d": ".resolve",
    "auc_frame": ".area_frames",
    "batch_areas": ".area_frames",
    "check": ".memory",
    "check_args": ".classes",
    "check_curve_options": ".curve_frames",
    "check_device": ".multiclass",
    "check_not_proba": ".resolve",
    "check_partial": ".partial",
    "confusion_frame": ".curve_frames",
    "curve_area": ".points",
    "derived": ".curve_frames",
    "describe_row": ".batch",
    "drop_tp0": ".gain_areas",
    "drop_zero_weight": ".table",
    "entries": ".table",
    "entries_of": ".table",
    "frame_column": ".resolve",
    "framed": ".points",
    "holding": ".table",
    "inputs": ".pack",
    "is_dask": ".dataframes",
    "layout_of": ".table",
    "lengths_to_offsets": ".batch",
    "metrics_frame": ".area_frames",
    "pack": ".pack",
    "pack_points": ".point_frames",
    "partial_areas": ".partial",
    "points": ".sweep",
    "pr_frame": ".curve_frames",
    "pr_state": ".points",
    "prg_frame": ".area_frames",
    "prg_gains": ".gain_areas",
    "prg_points": ".gain_areas",
    "rates": ".points",
    "read_labels": ".resolve",
    "reduce_entries": ".table",
    "replicates_of": ".table",
    "roc_frame": ".curve_frames",
    "roc_state": ".points",
    "row_ids": ".batch",
    "split_sorted": ".presort",
    "standardized": ".partial",
    "state_from_counts": ".points",
    "swept_entries": ".table",
    "thresholds_of": ".table",
    "to_pandas": ".dataframes",
    "warn_undefined": ".batch",
    "warn_undefined_auc": ".batch",
    "with_ends": ".points",
    "with_output": ".dataframes",
}

if TYPE_CHECKING:  # for type checkers and the import graph; at run time see __getattr__
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
    from .dataframes import Output, is_dask, to_pandas, with_output
    from .gain_areas import drop_tp0, prg_gains, prg_points
    from .memory import check
    from .multiclass import check_device
    from .pack import INPUTS, MULTICLASS, inputs, pack
    from .partial import check_partial, partial_areas, standardized
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
    from .presort import split_sorted
    from .resolve import as_1d, check_not_proba, frame_column, read_labels
    from .state import StateFormatError
    from .sweep import points
    from .table import (
        Accumulator,
        Layout,
        drop_zero_weight,
        entries,
        entries_of,
        holding,
        layout_of,
        reduce_entries,
        replicates_of,
        swept_entries,
        thresholds_of,
    )

__all__ = [
    "INPUTS",
    "MULTICLASS",
    "Accumulator",
    "Batch",
    "CurveKeys",
    "Layout",
    "Output",
    "PointCurve",
    "State",
    "StateFormatError",
    "as_1d",
    "auc_frame",
    "batch_areas",
    "check",
    "check_args",
    "check_curve_options",
    "check_device",
    "check_not_proba",
    "check_partial",
    "confusion_frame",
    "curve_area",
    "derived",
    "describe_row",
    "drop_tp0",
    "drop_zero_weight",
    "entries",
    "entries_of",
    "frame_column",
    "framed",
    "holding",
    "inputs",
    "is_dask",
    "layout_of",
    "lengths_to_offsets",
    "metrics_frame",
    "pack",
    "pack_points",
    "partial_areas",
    "points",
    "pr_frame",
    "pr_state",
    "prg_frame",
    "prg_gains",
    "prg_points",
    "rates",
    "read_labels",
    "reduce_entries",
    "replicates_of",
    "roc_frame",
    "roc_state",
    "row_ids",
    "split_sorted",
    "standardized",
    "state_from_counts",
    "swept_entries",
    "thresholds_of",
    "to_pandas",
    "warn_undefined",
    "warn_undefined_auc",
    "with_ends",
    "with_output",
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
