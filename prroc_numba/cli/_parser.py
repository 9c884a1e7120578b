"""The command line's arguments (``argparse``): the options every command shares and
the subcommands.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import NoReturn


def suggest(token: str, options) -> list[str]:
    """The options closest to a mistyped ``token`` (``--nboot`` -> ``--n-boot``;
    ``--n_boot`` -> ``--n-boot``), best first.
    """
    word = token.split("=", 1)[0]
    if not word.startswith("-"):
        return []
    longs = sorted(o for o in options if o.startswith("--"))
    fixed = "--" + word.lstrip("-").replace("_", "-").lower()
    if fixed in longs:
        return [fixed]
    return difflib.get_close_matches(fixed, longs, n=2, cutoff=0.75)


class CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: a usage error prints this command's usage (not the
    program's) and, for an unknown option, the closest options ("did you mean").
    """

    def error(self, message: str) -> NoReturn:
        hints = []
        if message.startswith("unrecognized arguments:"):
            for token in message.split(":", 1)[1].split():
                close = suggest(token, self._option_string_actions)
                if close:
                    hints.append(f"{token}: did you mean {' or '.join(close)}?")
        self.print_usage(sys.stderr)
        text = message + "".join(f"\n  {h}" for h in hints)
        self.exit(2, f"{self.prog}: error: {text}\n")


ENGINES = ("memory", "spark", "dask")


def _choice(p: argparse.ArgumentParser, flag: str, choices, default, text: str) -> None:
    """Add ``flag``, one of ``choices`` (``default`` when not given)."""
    p.add_argument(flag, choices=choices, default=default, help=text)


def engine_args(p: argparse.ArgumentParser) -> None:
    """``--engine`` and ``--master``."""
    text = (
        "where the rows are reduced: memory (default), spark (a local session, or "
        "--master), dask (a local cluster, or --master) (e.g. --engine spark)"
    )
    _choice(p, "--engine", ENGINES, "memory", text)
    p.add_argument(
        "--master",
        default=None,
        metavar="URL",
        help="--engine spark: the Spark master (default local[*]; e.g. --master "
        "spark://host:7077); --engine dask: the scheduler address (default: a "
        "LocalCluster for this command)",
    )


def _common(p: argparse.ArgumentParser, *, boot: bool, curves=("pr", "roc"), area=True) -> None:
    p.add_argument(
        "file",
        help="CSV or Parquet file, one row per scored example, a Parquet dataset "
        "directory (key=value folders read as columns) or a glob (e.g. preds.csv, "
        "preds.parquet, lake/preds/, 'parts/*.parquet')",
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
    p.add_argument(
        "--soft-labels",
        action="store_true",
        help="read the label column as P(positive) in [0, 1], PRROC's soft labels "
        "(e.g. --soft-labels --no-stratified)",
    )
    _area_args(p, curves, area)
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="also write the table as CSV, or Parquet for a .parquet name (e.g. --out "
        "results.csv, --out results.parquet)",
    )
    engine_args(p)
    if boot:
        _boot_args(p)


def _area_args(p: argparse.ArgumentParser, curves, area: bool) -> None:
    """``--curve`` (one of ``curves``), ``--method`` (with ``area``) and ``--hull``."""
    if curves:
        _choice(
            p,
            "--curve",
            list(curves),
            "pr",
            f"which curve: {', '.join(curves)} (default pr; e.g. --curve roc)",
        )
    if area:
        p.add_argument(
            "--method",
            default=None,
            help="AUC estimator: dg (default for pr), integral, ap, trapezoid (e.g. --method ap)",
        )
    if curves:
        p.add_argument(
            "--hull",
            action="store_true",
            help="use the ROC convex hull / achievable PR curve (e.g. --hull)",
        )


def _boot_args(p: argparse.ArgumentParser) -> None:
    """The bootstrap's options: replicates, level, seed, stratification, progress."""
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
        "--row-id",
        default=None,
        metavar="COL",
        help="--engine spark: the column of unique row numbers keying each row's "
        "Poisson counts (e.g. --row-id rid)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0; e.g. --seed 42)")
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


def _fold_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--fold",
        default=None,
        metavar="COL",
        help="cross-validation fold column: rows per fold, the fold mean and the pooled "
        "curve (e.g. --fold fold)",
    )


def _multiclass_args(p: argparse.ArgumentParser) -> None:
    _choice(
        p,
        "--multiclass",
        ["ovr", "ovo"],
        None,
        "multiclass labels: --score lists one column per class (e.g. --multiclass ovr)",
    )
    p.add_argument(
        "--classes",
        nargs="+",
        default=None,
        metavar="CLASS",
        help="the class of each --score column, in order (e.g. --classes cat dog eel)",
    )
    _choice(
        p,
        "--average",
        ["macro", "weighted", "micro", "samples"],
        None,
        "average the class curves (default: one row per class; e.g. --average macro)",
    )


def _resampling_args(p: argparse.ArgumentParser, *, device: bool = True) -> None:
    p.add_argument(
        "--cluster",
        default=None,
        metavar="COL",
        help="resample whole clusters (e.g. patients) instead of rows (e.g. --cluster patient)",
    )
    _choice(
        p,
        "--resampling",
        ["multinomial", "poisson"],
        None,
        "bootstrap scheme (default multinomial; e.g. --resampling poisson)",
    )
    if device:
        _device_arg(p)


def _device_arg(p: argparse.ArgumentParser) -> None:
    _choice(
        p, "--device", ["cpu", "cuda"], None, "run on the CPU or a CUDA GPU (e.g. --device cuda)"
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
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    _demo_commands(sub)
    _area_commands(sub)
    _comparison_commands(sub)
    _subgroup_command(sub)
    _count_commands(sub)
    _rank_command(sub)
    _curve_command(sub)
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
    a = sub.add_parser("auc", help="area under the PR, ROC or PRG curve")
    _common(a, boot=False, curves=("pr", "roc", "prg"))
    _partial_args(a)
    _fold_arg(a)
    _multiclass_args(a)
    _device_arg(a)
    _normalize_arg(a)
    _choice(
        a,
        "--ci",
        ["logit", "binomial", "delong"],
        None,
        "closed-form interval: Boyd et al. logit / binomial (PR), DeLong (ROC) (e.g. --ci logit)",
    )
    a.add_argument(
        "--level",
        type=float,
        default=0.95,
        help="confidence level of --ci (default 0.95; e.g. --level 0.9)",
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
    o.add_argument(
        "--cluster",
        default=None,
        metavar="COL",
        help="resample whole clusters (e.g. patients) instead of rows (e.g. --cluster patient)",
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
    _fold_arg(b)
    _multiclass_args(b)
    _resampling_args(b)
    _normalize_arg(b)


def _comparison_commands(sub) -> None:
    """``compare``."""
    c = sub.add_parser("compare", help="paired comparison of several models")
    _common(c, boot=True)
    c.add_argument(
        "--baseline",
        default=None,
        metavar="COL",
        help="compare every model with this one, or 'best': the best model with every "
        "other, marking those not significantly worse (default: all pairs; e.g. "
        "--baseline m1, --baseline best)",
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
        ["bootstrap", "delong", "venkatraman"],
        "bootstrap",
        "paired bootstrap, or DeLong / Venkatraman's curve test (ROC only; e.g. --curve roc "
        "--test delong)",
    )
    _choice(
        c,
        "--p-value",
        ["wald", "percentile"],
        "wald",
        "bootstrap p-value: Wald (default) or percentile (floor 2/(B+1); "
        "e.g. --p-value percentile)",
    )
    c.add_argument(
        "--combine",
        action="store_true",
        help="with --by (e.g. data sets): also pool each pair's difference across the "
        "groups, fixed and random effects (e.g. --by dataset --combine)",
    )
    _partial_args(c)
    _fold_arg(c)
    _multiclass_args(c)
    _resampling_args(c)
    _normalize_arg(c)


def _normalize_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--normalize",
        action="store_true",
        help="Boyd et al.'s normalised AUC-PR, (auc - min) / (1 - min): curves of different "
        "prevalence compared on ranking alone (e.g. --normalize)",
    )


def _subgroup_command(sub) -> None:
    """``disparity``."""
    d = sub.add_parser(
        "disparity", help="each group's AUC and its gap to the overall area, paired intervals"
    )
    _common(d, boot=True)
    d.add_argument(
        "--group",
        required=True,
        nargs="+",
        metavar="COL",
        help="group column(s); several columns: their combinations (e.g. --group sex age_band)",
    )
    d.add_argument(
        "--reference",
        default="overall",
        metavar="REF",
        help="overall (default), a group value, between_groups or to_overall "
        "(e.g. --reference between_groups)",
    )
    _normalize_arg(d)
    d.add_argument(
        "--baseline",
        default=None,
        metavar="COL",
        help="also each model's gap less this model's (e.g. --baseline m1)",
    )
    _choice(
        d,
        "--adjust",
        ["holm", "bonferroni", "bh", "none"],
        "holm",
        "adjustment across the groups (default holm; e.g. --adjust bh)",
    )
    _choice(
        d,
        "--interval",
        ["percentile", "basic"],
        "percentile",
        "interval kind (default percentile; e.g. --interval basic)",
    )
    _resampling_args(d, device=False)


def _count_commands(sub) -> None:
    """``metrics`` and ``confusion``."""
    m = sub.add_parser("metrics", help="several areas and counts from one sort per curve")
    _common(m, boot=False, curves=(), area=False)
    m.add_argument(
        "--metrics",
        nargs="+",
        default=["auc_pr", "auc_roc"],
        metavar="NAME",
        help="auc_pr, auc_pr_integral, ap, auc_pr_trapezoid, auc_roc (each also with "
        "_hull), n_pos, n_neg, prevalence, eer (default auc_pr auc_roc; e.g. --metrics "
        "ap auc_roc prevalence)",
    )
    _fold_arg(m)
    _multiclass_args(m)
    _device_arg(m)
    n = sub.add_parser("confusion", help="confusion counts at every distinct score")
    _common(n, boot=False, curves=(), area=False)
    _multiclass_args(n)
    _device_arg(n)


def _rank_command(sub) -> None:
    """``rank``."""
    r = sub.add_parser(
        "rank",
        help="many models over many data sets: average ranks, Friedman, Nemenyi, Wilcoxon",
    )
    r.add_argument(
        "file",
        help="CSV or Parquet of results, one row per (model, data set) (e.g. results.csv)",
    )
    r.add_argument(
        "--model", required=True, metavar="COL", help="model column (e.g. --model model)"
    )
    r.add_argument(
        "--dataset", required=True, metavar="COL", help="data set column (e.g. --dataset dataset)"
    )
    r.add_argument(
        "--value", required=True, metavar="COL", help="the number compared (e.g. --value auc)"
    )
    r.add_argument(
        "--lower-is-better",
        action="store_true",
        help="rank low values first (losses; e.g. --lower-is-better)",
    )
    r.add_argument(
        "--rope",
        type=float,
        default=None,
        help="Bayesian signed-rank test with this region of practical equivalence "
        "(e.g. --rope 0.01)",
    )
    r.add_argument(
        "--level",
        type=float,
        default=0.95,
        help="confidence level (default 0.95; e.g. --level 0.9)",
    )
    r.add_argument(
        "--n-samples",
        type=int,
        default=50000,
        metavar="S",
        help="posterior samples of the Bayesian test (default 50000; e.g. --n-samples 10000)",
    )
    r.add_argument("--seed", type=int, default=0, help="random seed (default 0; e.g. --seed 42)")
    r.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="also write the pairs table as CSV (e.g. --out pairs.csv)",
    )


def _curve_command(sub) -> None:
    """``curve``."""
    v = sub.add_parser("curve", help="PR, ROC, DET or PRG curve points, or bootstrap bands")
    _common(v, boot=True, curves=("pr", "roc", "det", "prg"))
    _choice(
        v,
        "--interpolate",
        ["dg", "continuous"],
        None,
        "PR only: add the interpolated points between vertices (e.g. --interpolate dg)",
    )
    v.add_argument(
        "--recall-step",
        type=float,
        default=None,
        metavar="STEP",
        help="PR with --interpolate continuous: the recall step of the points "
        "(e.g. --recall-step 0.01)",
    )
    v.add_argument(
        "--bands",
        action="store_true",
        help="bootstrap bands on a grid instead of the points (e.g. --bands --grid 51)",
    )
    v.add_argument(
        "--grid",
        type=int,
        default=101,
        metavar="K",
        help="grid size for --bands (default 101; e.g. --grid 51)",
    )
    _choice(
        v,
        "--band",
        ["pointwise", "simultaneous"],
        "pointwise",
        "--bands: pointwise or simultaneous (default pointwise; e.g. --band simultaneous)",
    )
    _choice(
        v,
        "--space",
        ["pr", "roc"],
        None,
        "--bands of PR curves: interpolate in PR or ROC space (e.g. --space roc)",
    )
    _fold_arg(v)
    _multiclass_args(v)
    _resampling_args(v, device=False)
    _device_arg(v)
