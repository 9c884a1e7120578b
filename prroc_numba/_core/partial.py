"""The ``partial=`` argument of the area functions: checked once, computed from the
vertex sweep by :mod:`prroc_numba._kernels.partial`, standardized here.
"""

from __future__ import annotations

import numpy as np

from .._drivers import hull_batch, partial_batch
from .._drivers.sweep import sweep_batch
from .._kernels.partial import FOCUS_FPR, FOCUS_TPR

FOCUS = {"fpr": FOCUS_FPR, "tpr": FOCUS_TPR}

# the parameters' documentation: prroc_numba._docs.PARTIAL


def check_partial(curve, partial, partial_focus, standardize):
    """``(lo, hi, focus code)`` or None, with clear errors."""
    if partial_focus not in FOCUS:
        raise ValueError(f"partial_focus={partial_focus!r} is not known; use 'fpr' or 'tpr'")
    if not isinstance(standardize, (bool, np.bool_)):
        raise TypeError(f"standardize must be True or False, got {standardize!r}")
    if partial is None:
        if standardize:
            raise ValueError("standardize=True needs a range: pass partial=(lo, hi)")
        return None
    try:
        lo, hi = (float(v) for v in partial)
    except (TypeError, ValueError):
        raise TypeError(
            f"partial must be a pair of numbers (lo, hi), e.g. (0, 0.1), got {partial!r}"
        ) from None
    if not (0.0 <= lo < hi <= 1.0):
        raise ValueError(f"partial=({lo}, {hi}) must satisfy 0 <= lo < hi <= 1")
    return lo, hi, FOCUS[partial_focus] if curve == "roc" else FOCUS_FPR


def standardized(area, curve, lo, hi, focus):
    """McClish's correction (ROC) or the mean height over the range (PR)."""
    width = hi - lo
    if curve == "pr":
        return area / width
    diag = 0.5 * (hi * hi - lo * lo)
    lo_area = diag if focus == FOCUS_FPR else width - diag
    return 0.5 * (1.0 + (area - lo_area) / (width - lo_area))


def partial_areas(batch, code, hull, curve, spec, standardize):
    """Partial area of every curve of ``batch`` (spec from :func:`check_partial`)."""
    lo, hi, focus = spec
    _, tp, fp, off = sweep_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    if hull:
        idx, off = hull_batch(tp, fp, off)
        tp, fp = np.ascontiguousarray(tp[idx]), np.ascontiguousarray(fp[idx])
    out = partial_batch(tp, fp, off, code, lo, hi, focus)
    return standardized(out, curve, lo, hi, focus) if standardize else out
