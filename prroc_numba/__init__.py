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

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__  # noqa: F401 (public)

#: where each public name lives; imported on first use (``import prroc_numba`` loads no
#: kernel module, Numba, pandas, Dask or matplotlib)
_WHERE = {
    "Accumulator": "._core.accumulator",
    "auc": ".areas",
    "auc_ci": ".closed_form",
    "auc_pr": ".areas",
    "auc_roc": ".areas",
    "average_curves": ".grids",
    "bootstrap": ".resampling",
    "bootstrap_curve": ".resampling",
    "compare": ".comparison",
    "confusion": ".curves",
    "delong": ".comparison",
    "det_curve": ".curves",
    "disparity": ".subgroups",
    "interpolate": ".grids",
    "interpolate_matrix": ".grids",
    "metrics": ".areas",
    "operating_points": ".operating",
    "power": ".sample_size",
    "pr_curve": ".curves",
    "prg_curve": ".gains",
    "rank_models": ".ranking",
    "PRCurve": ".point_curves",
    "roc_curve": ".curves",
    "ROCCurve": ".point_curves",
    "scorer": "._sklearn",
    "StateFormatError": "._core.state",
    "UndefinedMetricWarning": "._warnings",
    "FewDataSetsWarning": "._warnings",
    "PrevalenceWarning": "._warnings",
}

if TYPE_CHECKING:  # for type checkers and IDEs; at run time see __getattr__
    from ._core.accumulator import Accumulator
    from ._core.state import StateFormatError
    from ._sklearn import scorer
    from ._warnings import FewDataSetsWarning, PrevalenceWarning, UndefinedMetricWarning
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
    from .subgroups import disparity

__all__ = [
    "Accumulator",
    "FewDataSetsWarning",
    "PRCurve",
    "PrevalenceWarning",
    "ROCCurve",
    "StateFormatError",
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
    "disparity",
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


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    if name == "torch":  # the PyTorch subpackage (needs torch): prn.torch.AveragePrecision
        return import_module(".torch", __name__)
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(mod, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
