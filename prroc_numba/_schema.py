"""Every output column name, defined once.

The frame builders (:mod:`prroc_numba._frames`), the public modules, the plots
(:mod:`prroc_numba.plot`) and the thresholds reader (:mod:`prroc_numba._thresholds`)
import these names; no other module spells a column name.
"""

from __future__ import annotations

# key columns the library adds
MODEL = "model"
GROUP = "group"
#: cross-validation folds (fold=): the fold id, or "mean" / "pooled"
FOLD = "fold"

# curve points (confusion, roc_curve, pr_curve, interpolate)
THRESHOLD = "threshold"
TP, FP, FN, TN = "tp", "fp", "fn", "tn"
FPR, TPR = "fpr", "tpr"
RECALL, PRECISION = "recall", "precision"

# areas
AUC = "auc"

# resampling (bootstrap, bootstrap_curve)
ESTIMATE, SE, CI_LOW, CI_HIGH = "estimate", "se", "ci_low", "ci_high"
N_DEGENERATE = "n_degenerate"
REPLICATE = "replicate"

# comparison (compare, delong)
MODEL_A, MODEL_B = "model_a", "model_b"
ESTIMATE_A, ESTIMATE_B, DIFF = "estimate_a", "estimate_b", "diff"
P_VALUE, P_ADJUSTED, Z = "p_value", "p_adjusted", "z"
VAR = "var"

# operating points (operating_points); intervals add <metric>_ci_low / _ci_high
TARGET = "target"
SPECIFICITY, F_BETA = "specificity", "f_beta"
OPERATING_METRICS = (THRESHOLD, PRECISION, RECALL, FPR, SPECIFICITY, F_BETA)


def ci_names(metric: str) -> tuple:
    """The interval columns of ``metric`` in :func:`prroc_numba.operating_points`."""
    return f"{metric}_{CI_LOW}", f"{metric}_{CI_HIGH}"


# curve averaging (average_curves); quantile columns are quantile_name(q)
SD = "sd"
N_CURVES = "n_curves"

# columns users often add next to ours (read by the plots)
N_POS, N_NEG, PREVALENCE = "n_pos", "n_neg", "prevalence"

#: area columns of metrics() (each also with ``_hull`` appended, see METRIC_AREAS)
AUC_PR, AUC_PR_INTEGRAL, AP, AUC_PR_TRAPEZOID, AUC_ROC = (
    "auc_pr",
    "auc_pr_integral",
    "ap",
    "auc_pr_trapezoid",
    "auc_roc",
)
HULL_SUFFIX = "_hull"
METRIC_AREAS = tuple(
    n + h
    for n in (AUC_PR, AUC_PR_INTEGRAL, AP, AUC_PR_TRAPEZOID, AUC_ROC)
    for h in ("", HULL_SUFFIX)
)

#: columns of a curve-points frame (the thresholds frame may carry them)
CURVE_COLUMNS = frozenset({THRESHOLD, TP, FP, FN, TN, FPR, TPR, RECALL, PRECISION, AUC})

#: every column that holds values, never keys (plots treat the rest as keys)
VALUE_COLUMNS = CURVE_COLUMNS | {
    CI_LOW,
    CI_HIGH,
    ESTIMATE,
    SE,
    ESTIMATE_A,
    ESTIMATE_B,
    DIFF,
    P_VALUE,
    P_ADJUSTED,
    MODEL_A,
    MODEL_B,
    N_POS,
    N_NEG,
    PREVALENCE,
    SD,
    N_CURVES,
    N_DEGENERATE,
    *METRIC_AREAS,
    SPECIFICITY,
    F_BETA,
    TARGET,
    *(c for m in OPERATING_METRICS for c in ci_names(m)),
}

#: quantile columns of average_curves, e.g. ``q0.025``
QUANTILE_PATTERN = r"^q[0-9.e-]+$"


def quantile_name(q: float) -> str:
    """Column name of the ``q`` quantile in :func:`prroc_numba.average_curves`."""
    return f"q{q:g}"
