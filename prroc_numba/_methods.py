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
