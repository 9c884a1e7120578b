"""Names of curves and AUC estimators, checked once and mapped to kernel codes."""

from __future__ import annotations

from ._kernels import area

PR_METHODS = {
    "dg": area.DG,
    "integral": area.INTEGRAL,
    "ap": area.AP,
    "trapezoid": area.PR_TRAPEZOID,
}
ROC_METHODS = {"trapezoid": area.ROC_TRAPEZOID}
DEFAULT_METHOD = {"pr": "dg", "roc": "trapezoid"}


def method_code(curve: str, method) -> int:
    """Kernel code of ``method`` for ``curve`` ("pr" or "roc"); clear errors otherwise."""
    if curve not in DEFAULT_METHOD:
        raise ValueError(f"curve={curve!r} is not known; use 'pr' or 'roc'")
    if method is None:
        method = DEFAULT_METHOD[curve]
    table = PR_METHODS if curve == "pr" else ROC_METHODS
    if method not in table:
        raise ValueError(
            f"method={method!r} is not an AUC method for curve={curve!r}; "
            f"use one of {sorted(table)}"
        )
    return table[method]


# metrics(): column name -> (curve, estimator code, hull); counts are computed from totals
AREA_METRICS = {}
for _name, _curve, _code in (("auc_pr", "pr", area.DG), ("auc_pr_integral", "pr", area.INTEGRAL),
                             ("ap", "pr", area.AP), ("auc_pr_trapezoid", "pr", area.PR_TRAPEZOID),
                             ("auc_roc", "roc", area.ROC_TRAPEZOID)):
    AREA_METRICS[_name] = (_curve, _code, False)
    AREA_METRICS[_name + "_hull"] = (_curve, _code, True)
COUNT_METRICS = ("n_pos", "n_neg", "prevalence")


def metric_names(metrics) -> list:
    """The requested metric names, checked (a list, in the order given)."""
    if isinstance(metrics, str):
        metrics = (metrics,)
    try:
        names = list(metrics)
    except TypeError:
        raise TypeError(
            f"metrics must be a name or a sequence of names, got {type(metrics).__name__}"
        ) from None
    if not names:
        raise ValueError("metrics lists no metric; name at least one, e.g. metrics=('auc_pr',)")
    known = list(AREA_METRICS) + list(COUNT_METRICS)
    for nm in names:
        if not isinstance(nm, str) or nm not in known:
            raise ValueError(f"metrics: {nm!r} is not a metric; use any of {known}")
    if len(set(names)) != len(names):
        raise ValueError(f"metrics lists a name twice: {names}; list each metric once")
    return names
