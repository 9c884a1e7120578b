"""prroc_numba: correct and fast precision-recall and ROC analysis for many curves at once.

Public API (the contract: ``docs/design.md``; the layout of the code:
``docs/architecture.md``): :func:`confusion`, :func:`roc_curve`, :func:`pr_curve`,
:func:`det_curve`, :func:`auc`, :func:`auc_pr`, :func:`auc_roc`, :func:`metrics`;
curves given as points (:class:`PRCurve`, :class:`ROCCurve`) and many curves on shared
grids (:func:`interpolate`, :func:`interpolate_matrix`, :func:`average_curves`);
bootstrap intervals and paired comparison (:func:`bootstrap`, :func:`bootstrap_curve`,
:func:`compare`, :func:`delong`); multiclass and multilabel input (``multiclass=``,
``average=``) and a scikit-learn scorer (:func:`scorer`); polars and pyarrow frames as
``data``.
"""

from . import _fork  # noqa: F401 (registers the after-fork reset)
from ._accumulate import Accumulator
from ._ragged import UndefinedMetricWarning
from ._sklearn import scorer
from ._version import __version__  # noqa: F401 (public)
from .areas import auc, auc_pr, auc_roc, metrics
from .closed_form import auc_ci
from .comparison import compare, delong
from .curves import confusion, det_curve, pr_curve, roc_curve
from .gains import prg_curve
from .grids import average_curves, interpolate, interpolate_matrix
from .operating import operating_points
from .point_curves import PRCurve, ROCCurve
from .ranking import rank_models
from .resampling import bootstrap, bootstrap_curve
from .sample_size import power

__all__ = [
    "Accumulator",
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
    "det_curve",
    "interpolate",
    "interpolate_matrix",
    "metrics",
    "operating_points",
    "power",
    "pr_curve",
    "prg_curve",
    "rank_models",
    "roc_curve",
    "scorer",
]
