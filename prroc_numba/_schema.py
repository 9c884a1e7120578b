"""Every output column name, defined once.

The frame builders (:mod:`prroc_numba._frames`), the public modules, the plots
(:mod:`prroc_numba.plot`) and the thresholds reader (:mod:`prroc_numba._core.thresholds`)
import these names; no other module spells a column name.
"""

from __future__ import annotations

# key columns the library adds
MODEL = "model"
GROUP = "group"
#: cross-validation folds (fold=): the fold id, or "mean" / "pooled"
FOLD = "fold"
#: multiclass input: the class of a one-vs-rest curve, the two classes of a one-vs-one
#: pair; multilabel input averaged over rows (average="samples"): each row's curve
CLASS, CLASS_A, CLASS_B = "class", "class_a", "class_b"
ROW = "row"

# curve points (confusion, roc_curve, pr_curve, interpolate)
THRESHOLD = "threshold"
TP, FP, FN, TN = "tp", "fp", "fn", "tn"
FPR, TPR = "fpr", "tpr"
FNR = "fnr"  # det_curve
RECALL, PRECISION = "recall", "precision"
RECALL_GAIN, PRECISION_GAIN = "recall_gain", "precision_gain"

# areas
AUC = "auc"

# what produced the numbers (after the key columns of auc, bootstrap, compare, delong,
# auc_ci, bootstrap_curve): the curve ("pr"/"roc"), the AUC method ("dg", "ap", ...,
# "_hull" appended on the hull), and for intervals their kind, the resampling scheme and
# the number of replicates
CURVE, METHOD = "curve", "method"
INTERVAL, RESAMPLING, N_BOOT = "interval", "resampling", "n_boot"
DESCRIPTORS = (CURVE, METHOD, INTERVAL, RESAMPLING, N_BOOT)

# resampling (bootstrap, bootstrap_curve)
ESTIMATE, SE, CI_LOW, CI_HIGH = "estimate", "se", "ci_low", "ci_high"
N_DEGENERATE = "n_degenerate"
REPLICATE = "replicate"

# comparison (compare, delong)
MODEL_A, MODEL_B = "model_a", "model_b"
ESTIMATE_A, ESTIMATE_B, DIFF = "estimate_a", "estimate_b", "diff"
P_VALUE, P_ADJUSTED, Z = "p_value", "p_adjusted", "z"
#: compare(baseline="best"): the model cannot be told apart from the best
NOT_WORSE = "not_worse"
VAR = "var"
# pooled across groups (compare(..., combine=True))
COMBINED, Q, TAU2, N_GROUPS = "combined", "q", "tau2", "n_groups"

# many models over many data sets (rank_models)
RANK, MEAN, N_DATASETS, N_MODELS = "rank", "mean", "n_datasets", "n_models"
RANK_A, RANK_B, RANK_DIFF, NEMENYI = "rank_a", "rank_b", "rank_diff", "nemenyi"
STATISTIC = "statistic"
P_LEFT, P_ROPE, P_RIGHT = "p_left", "p_rope", "p_right"
FRIEDMAN_CHI2, FRIEDMAN_P = "friedman_chi2", "friedman_p"
IMAN_DAVENPORT_F, IMAN_DAVENPORT_P = "iman_davenport_f", "iman_davenport_p"
CRITICAL_DIFFERENCE = "critical_difference"

# power and sample size (power)
POWER, SIG_LEVEL, ALTERNATIVE, SOLVED = "power", "sig_level", "alternative", "solved"
N, N_SIM = "n", "n_sim"
#: power(): the Monte Carlo standard error of a sample size solved by simulation
N_SE = "n_se"

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
#: metrics(): the equal error rate, where the ROC convex hull crosses fpr = fnr
EER = "eer"
METRIC_AREAS = tuple(
    n + h
    for n in (AUC_PR, AUC_PR_INTEGRAL, AP, AUC_PR_TRAPEZOID, AUC_ROC)
    for h in ("", HULL_SUFFIX)
)

#: columns of a curve-points frame (the thresholds frame may carry them)
CURVE_COLUMNS = frozenset(
    {THRESHOLD, TP, FP, FN, TN, FPR, TPR, FNR, RECALL, PRECISION, AUC, RECALL_GAIN, PRECISION_GAIN}
)

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
    NOT_WORSE,
    MODEL_A,
    MODEL_B,
    N_POS,
    N_NEG,
    PREVALENCE,
    SD,
    N_CURVES,
    N_DEGENERATE,
    *METRIC_AREAS,
    EER,
    *DESCRIPTORS,
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
