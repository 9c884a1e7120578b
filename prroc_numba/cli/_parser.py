"""The command line's arguments (``argparse``): the options every command shares and
the subcommands.
"""

from __future__ import annotations

import argparse


def _choice(p: argparse.ArgumentParser, flag: str, choices, default, text: str) -> None:
    """Add ``flag``, one of ``choices`` (``default`` when not given)."""
    p.add_argument(flag, choices=choices, default=default, help=text)


def _common(p: argparse.ArgumentParser, *, boot: bool) -> None:
    p.add_argument(
        "file",
        help="CSV or Parquet file, one row per scored example (e.g. preds.csv, preds.parquet)",
    )
    p.add_argument(
        "--label", required=True, help="label column: 0/1, -1/1 or bool (e.g. --label y)"
    )
    p.add_argument(
        "--score",
        required=True,
        nargs="+",
        metavar="COL",
        help="score column(s); several columns = several models on the same rows "
        "(e.g. --score m1 m2)",
    )
    p.add_argument(
        "--by",
        nargs="+",
        metavar="COL",
        default=None,
        help="grouping column(s): one curve per group (e.g. --by fold)",
    )
    p.add_argument(
        "--weight", default=None, metavar="COL", help="sample-weight column (e.g. --weight w)"
    )
    p.add_argument(
        "--pos-label",
        default=None,
        metavar="VALUE",
        help="value of the label column that marks a positive (e.g. --pos-label yes)",
    )
    _choice(
        p, "--curve", ["pr", "roc"], "pr", "precision-recall or ROC (default pr; e.g. --curve roc)"
    )
    p.add_argument(
        "--method",
        default=None,
        help="AUC estimator: dg (default for pr), integral, ap, trapezoid (e.g. --method ap)",
    )
    p.add_argument(
        "--hull",
        action="store_true",
        help="use the ROC convex hull / achievable PR curve (e.g. --hull)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="also write the table as CSV (e.g. --out results.csv)",
    )
    if boot:
        p.add_argument(
            "--n-boot",
            type=int,
            default=2000,
            metavar="B",
            help="bootstrap replicates (default 2000; e.g. --n-boot 5000)",
        )
        p.add_argument(
            "--level",
            type=float,
            default=0.95,
            help="confidence level (default 0.95; e.g. --level 0.9)",
        )
        p.add_argument(
            "--seed", type=int, default=0, help="random seed (default 0; e.g. --seed 42)"
        )
        p.add_argument(
            "--no-stratified",
            action="store_true",
            help="resample rows regardless of class (default: stratified, as "
            "pROC; e.g. --no-stratified)",
        )
        p.add_argument(
            "--no-progress",
            action="store_true",
            help="no progress bar (e.g. --no-progress in scripts)",
        )


def _partial_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--partial",
        nargs=2,
        type=float,
        metavar=("LO", "HI"),
        default=None,
        help="only the area over this FPR (ROC) or recall (PR) range (e.g. --partial 0 0.1)",
    )
    _choice(
        p,
        "--partial-focus",
        ["fpr", "tpr"],
        "fpr",
        "ROC: the range is over FPR (default) or TPR (e.g. --partial-focus tpr)",
    )
    p.add_argument(
        "--standardize",
        action="store_true",
        help="McClish's correction (ROC) / divide by the width (PR) (e.g. --standardize)",
    )


def _parser() -> argparse.ArgumentParser:
    from .._version import __version__

    ap = argparse.ArgumentParser(
        prog="prroc-numba",
        description="Correct and fast PR / ROC analysis: AUCs, bootstrap confidence "
        "intervals and paired model comparison.",
    )
    ap.add_argument("--version", action="version", version=f"prroc-numba {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    _demo_commands(sub)
    _area_commands(sub)
    _comparison_commands(sub)
    return ap


def _demo_commands(sub) -> None:
    """``demo`` and ``warmup``."""
    d = sub.add_parser("demo", help="run on the bundled example predictions")
    d.add_argument(
        "--n-boot",
        type=int,
        default=1000,
        metavar="B",
        help="bootstrap replicates (default 1000; e.g. --n-boot 200)",
    )
    d.add_argument("--seed", type=int, default=0, help="random seed (default 0; e.g. --seed 1)")
    d.add_argument(
        "--no-progress", action="store_true", help="no progress bar (e.g. --no-progress)"
    )
    sub.add_parser(
        "warmup",
        help="compile every kernel into the cache now and say where "
        "the cache is (e.g. in a Docker build step)",
    )


def _area_commands(sub) -> None:
    """``auc``, ``operating-points`` and ``bootstrap``."""
    a = sub.add_parser("auc", help="area under the PR or ROC curve")
    _common(a, boot=False)
    _partial_args(a)
    _choice(
        a,
        "--ci",
        ["logit", "binomial", "delong"],
        None,
        "closed-form interval: Boyd et al. logit / binomial (PR), DeLong (ROC) (e.g. --ci logit)",
    )
    o = sub.add_parser("operating-points", help="thresholds meeting targets, with metrics")
    _common(o, boot=True)
    o.add_argument(
        "--target",
        nargs="+",
        default=["max_f1"],
        metavar="TARGET",
        help="max_f1, youden, closest_topleft, 'precision>=x', 'recall>=x', 'fpr<=x', "
        "'tpr>=x' (e.g. --target max_f1 'recall>=0.8')",
    )
    o.add_argument(
        "--beta", type=float, default=1.0, help="F-beta's beta (default 1; e.g. --beta 2)"
    )
    o.set_defaults(n_boot=None)
    b = sub.add_parser("bootstrap", help="bootstrap confidence intervals of the AUC")
    _common(b, boot=True)
    _choice(
        b,
        "--interval",
        ["percentile", "basic", "bca"],
        "percentile",
        "interval kind (default percentile; e.g. --interval bca)",
    )
    _partial_args(b)


def _comparison_commands(sub) -> None:
    """``compare`` and ``curve``."""
    c = sub.add_parser("compare", help="paired comparison of several models")
    _common(c, boot=True)
    c.add_argument(
        "--baseline",
        default=None,
        metavar="COL",
        help="compare every model with this one (default: all pairs; e.g. --baseline m1)",
    )
    _choice(
        c,
        "--adjust",
        ["holm", "bonferroni", "bh", "none"],
        "holm",
        "multiple-comparison adjustment (default holm; e.g. --adjust bh)",
    )
    _choice(
        c,
        "--test",
        ["bootstrap", "delong"],
        "bootstrap",
        "paired bootstrap, or DeLong (ROC only; e.g. --curve roc --test delong)",
    )
    _choice(
        c,
        "--p-value",
        ["wald", "percentile"],
        "wald",
        "bootstrap p-value: Wald (default) or percentile (floor 2/(B+1); "
        "e.g. --p-value percentile)",
    )
    _partial_args(c)
    v = sub.add_parser("curve", help="PR or ROC curve points, or PR bootstrap bands")
    _common(v, boot=True)
    _choice(
        v,
        "--interpolate",
        ["dg", "continuous"],
        None,
        "PR only: add the interpolated points between vertices (e.g. --interpolate dg)",
    )
    v.add_argument(
        "--bands",
        action="store_true",
        help="PR only: pointwise bootstrap bands on a recall grid instead (e.g. --bands --grid 51)",
    )
    v.add_argument(
        "--grid",
        type=int,
        default=101,
        metavar="K",
        help="recall grid size for --bands (default 101; e.g. --grid 51)",
    )
