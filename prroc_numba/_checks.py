"""Argument checks shared by the public functions, one of each.

Curve and AUC-estimator names (mapped to kernel codes), grids, confidence levels,
replicate counts, seeds and positive scalars. Each raises a ValueError/TypeError that
names the argument and the fix.
"""

from __future__ import annotations

import numpy as np

from . import _schema as S
from ._kernels.area import AP, DG, INTEGRAL, PR_TRAPEZOID, PRG, ROC_TRAPEZOID

PR_METHODS = {
    "dg": DG,
    "integral": INTEGRAL,
    "ap": AP,
    "trapezoid": PR_TRAPEZOID,
}
ROC_METHODS = {"trapezoid": ROC_TRAPEZOID}
DEFAULT_METHOD = {"pr": "dg", "roc": "trapezoid", "prg": "trapezoid"}


def method_code(curve: str, method) -> int:
    """Kernel code of ``method`` for ``curve`` ("pr" or "roc"); clear errors otherwise."""
    if curve not in ("pr", "roc"):
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


def area_code(curve: str, method) -> int:
    """Kernel code of an area: :func:`method_code`, and for ``curve="prg"`` the
    trapezoid sum in PRG space (its only estimator).
    """
    if curve != "prg":
        return method_code(curve, method)
    if method not in (None, "trapezoid"):
        raise ValueError(
            f"method={method!r}: the PRG area is the trapezoid sum in PRG space (straight "
            "lines are the exact curve there); drop method= or pass method='trapezoid'"
        )
    return PRG


def method_label(
    curve: str, method, hull=False, partial=None, partial_focus="fpr", standardize=False
) -> str:
    """The ``method`` column's value: the AUC method's name, ``"_hull"`` appended for the
    area on the ROC convex hull / achievable PR curve (``"dg"``, ``"trapezoid_hull"``),
    and for a partial area its range (``"trapezoid, fpr 0-0.1, standardized"``,
    ``"dg, recall 0.5-1"``).
    """
    name = (DEFAULT_METHOD[curve] if method is None else method) + (S.HULL_SUFFIX if hull else "")
    if partial is not None:
        axis = "recall" if curve == "pr" else partial_focus
        name += f", {axis} {float(partial[0]):g}-{float(partial[1]):g}"
        name += ", standardized" if standardize else ""
    return name


def check_level(level):
    """A confidence level in (0, 1)."""
    if not isinstance(level, (float, int, np.floating)) or not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), e.g. 0.95, got {level!r}")


def check_n_boot(n_boot):
    """A replicate count: an int >= 2."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 2:
        raise ValueError(f"n_boot must be an int >= 2, got {n_boot!r}")


def check_seed(seed):
    """None or a non-negative int."""
    if seed is not None and (
        isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))
    ):
        raise TypeError(f"seed must be None or an int, got {type(seed).__name__}")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")


def kernel_seed(seed):
    """Map ``seed`` (None or int, checked) to a non-negative int63 for the kernels."""
    check_seed(seed)
    state = np.random.SeedSequence(None if seed is None else int(seed)).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def positive_scalar(x, arg):
    """``x`` as a finite float > 0."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{arg} must be a positive number, got {x!r}") from None
    if not np.isfinite(v) or v <= 0:
        raise ValueError(f"{arg} must be a finite number > 0, got {x!r}")
    return v


def pr_band_grid(grid, P):
    """:func:`~prroc_numba.bootstrap_curve`'s PR grid: an array ``grid`` as it is; an int
    ``grid`` means that many evenly spaced recalls from ``1 / P`` to 1, ``P`` the
    positives of the curve with the fewest (their total weight with weights or soft
    labels; curves with at most one are left out, and with none left the grid starts
    at 0).

    ``1 / P`` is the smallest recall that every curve reaches with a whole positive:
    below it a curve's precision is the interpolation from no positive, which a
    replicate with a negative on top takes to 0 and one with a positive on top to 1,
    so a band there spans [0, 1] whatever the data.
    """
    if not isinstance(grid, (int, np.integer)) or isinstance(grid, (bool, np.bool_)):
        return grid
    P = np.asarray(P, dtype=np.float64)
    P = P[np.isfinite(P) & (P > 1)]
    start = 1.0 / P.min() if P.size else 0.0
    return np.linspace(start, 1.0, int(grid))


def default_grid(num_points):
    """``linspace(0, 1, num_points)`` for an int ``num_points >= 2``."""
    if isinstance(num_points, bool) or not isinstance(num_points, (int, np.integer)):
        raise TypeError(f"num_points must be an int >= 2, got {num_points!r}")
    if num_points < 2:
        raise ValueError(f"num_points must be >= 2, got {num_points}")
    return np.linspace(0.0, 1.0, int(num_points))


def check_grid(grid, axis, *, strict=False):
    """A float64 ascending grid in [0, 1]; an int n means ``linspace(0, 1, n)``.

    ``axis`` names the values in messages ("recall", "FPR"); ``strict=True`` also
    rejects repeated values.
    """
    if isinstance(grid, (bool, np.bool_)):
        raise TypeError(f"grid must be an int or an array of {axis} values in [0, 1], got {grid!r}")
    if isinstance(grid, (int, np.integer)):
        if grid < 2:
            raise ValueError(
                f"grid={grid} points is too few; pass an int >= 2 (e.g. 101) "
                f"or an array of {axis} values"
            )
        return np.linspace(0.0, 1.0, int(grid))
    try:
        g = np.ascontiguousarray(grid, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"grid must be an int or an array of {axis} values in [0, 1]") from None
    if g.ndim != 1 or g.size == 0:
        raise ValueError(
            f"grid must be a non-empty 1-D array of {axis} values, got shape {g.shape}"
        )
    bad = ~np.isfinite(g) | (g < 0) | (g > 1)
    if bad.any():
        raise ValueError(f"grid {axis} values must be finite and in [0, 1]; got {g[bad][0]!r}")
    step = np.diff(g)
    if (step < 0).any():
        raise ValueError("grid must be ascending (increasing); sort it (np.sort(grid)) first")
    if strict and (step == 0).any():
        raise ValueError(
            "grid must be strictly increasing (no repeated values); pass np.unique(grid)"
        )
    return g


# metrics(): column name -> (curve, estimator code, hull); counts are computed from totals
AREA_METRICS = {}
for _name, _curve, _code in (
    (S.AUC_PR, "pr", DG),
    (S.AUC_PR_INTEGRAL, "pr", INTEGRAL),
    (S.AP, "pr", AP),
    (S.AUC_PR_TRAPEZOID, "pr", PR_TRAPEZOID),
    (S.AUC_ROC, "roc", ROC_TRAPEZOID),
):
    AREA_METRICS[_name] = (_curve, _code, False)
    AREA_METRICS[_name + S.HULL_SUFFIX] = (_curve, _code, True)
COUNT_METRICS = (S.N_POS, S.N_NEG, S.PREVALENCE)
OTHER_METRICS = (S.EER,)


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
    known = list(AREA_METRICS) + list(COUNT_METRICS) + list(OTHER_METRICS)
    for nm in names:
        if not isinstance(nm, str) or nm not in known:
            raise ValueError(f"metrics: {nm!r} is not a metric; use any of {known}")
    if len(set(names)) != len(names):
        raise ValueError(f"metrics lists a name twice: {names}; list each metric once")
    return names
