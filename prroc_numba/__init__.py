"""prroc_numba: correct and fast precision-recall and ROC analysis for many curves at once.

Public API (see ``DESIGN.md``): :func:`confusion`, :func:`roc_curve`, :func:`pr_curve`,
:func:`auc`, :func:`auc_pr`, :func:`auc_roc`, :func:`metrics`;
curves given as points (:class:`PRCurve`, :class:`ROCCurve`) and many curves on shared
grids (:func:`interpolate`, :func:`interpolate_matrix`, :func:`average_curves`);
bootstrap intervals and paired comparison (:func:`bootstrap`, :func:`bootstrap_curve`,
:func:`compare`, :func:`delong`).
"""

from ._ragged import UndefinedMetricWarning
from .areas import auc, auc_pr, auc_roc, metrics
from .closed_form import auc_ci
from .comparison import compare, delong
from .curves import confusion, pr_curve, roc_curve
from .grids import average_curves, interpolate, interpolate_matrix
from .operating import operating_points
from .point_curves import PRCurve, ROCCurve
from .resampling import bootstrap, bootstrap_curve

__version__ = "0.1.0"

__all__ = [
    "PRCurve",
    "ROCCurve",
    "UndefinedMetricWarning",
    "auc",
    "auc_ci",
    "auc_pr",
    "auc_roc",
    "average_curves",
    "bootstrap",
    "bootstrap_curve",
    "compare",
    "confusion",
    "delong",
    "interpolate",
    "interpolate_matrix",
    "metrics",
    "operating_points",
    "pr_curve",
    "roc_curve",
]
