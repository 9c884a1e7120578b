"""prroc_numba: correct and fast precision-recall and ROC analysis for many curves at once.

Public API (see ``DESIGN.md``): :func:`confusion`, :func:`roc_curve`, :func:`pr_curve`,
:func:`auc`, :func:`auc_pr`, :func:`auc_roc`.
"""

from ._ragged import UndefinedMetricWarning
from .curves import confusion, pr_curve, roc_curve
from .metrics import auc, auc_pr, auc_roc
from .bootstrap import bootstrap, bootstrap_curve  # noqa: E402  (issue 5)
from .compare import compare, delong  # noqa: E402  (issue 5)

__version__ = "0.1.0"

__all__ = [
    "UndefinedMetricWarning",
    "auc",
    "auc_pr",
    "auc_roc",
    "bootstrap",
    "bootstrap_curve",
    "compare",
    "delong",
    "confusion",
    "pr_curve",
    "roc_curve",
]
