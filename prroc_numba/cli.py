"""The ``prroc-numba`` command line.

::

    prroc-numba demo                                  # bundled example: AUC-PR CIs + comparisons
    prroc-numba warmup                                # compile every kernel once, show the cache
    prroc-numba --version
    prroc-numba auc preds.csv --label y --score m1 m2 [--curve roc] [--by fold]
    prroc-numba auc preds.csv --label y --score m1 --curve roc --partial 0 0.1 --standardize
    prroc-numba auc preds.csv --label y --score m1 m2 --ci logit      # closed-form CIs
    prroc-numba operating-points preds.csv --label y --score m1 --target max_f1 "recall>=0.9"
    prroc-numba bootstrap preds.csv --label y --score m1 m2 --n-boot 2000 --out ci.csv
    prroc-numba compare preds.csv --label y --score m1 m2 m3 --curve pr --out results.csv
    prroc-numba curve preds.csv --label y --score m1 [--curve roc] [--hull] --out points.csv
    prroc-numba curve preds.csv --label y --score m1 m2 --bands --grid 101 --out bands.csv

Input: CSV (also ``.csv.gz``, ``.tsv``) or Parquet. Output: a readable table on stdout;
``--out FILE`` also writes it as CSV (to a temporary file beside it, renamed into place, so
an interrupt never leaves half a file; ``--out`` naming the input is refused). Errors (a
missing file or column, bad labels) print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
import tempfile
from pathlib import Path

import pandas as pd

__all__ = ["main"]


class CliError(Exception):
    """An error to report in one line (exit status 2)."""


_READ_ERRORS = (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError)


def _polars_errors(pl):
    return (pl.exceptions.PolarsError,) if pl is not None else ()


def _read(path: str, columns=None) -> pd.DataFrame:
    """The file as a pandas frame of ``columns`` (all if None).

    With polars installed, Parquet and CSV are scanned lazily and go through the same
    conversion as polars ``data`` (:func:`prroc_numba._dataframes.to_pandas`): only the
    named columns are read. Without polars, pandas reads them.
    """
    p = Path(path)
    if not p.exists():
        raise CliError(f"file not found: {path}")
    if p.is_dir():
        raise CliError(f"{path} is a directory; pass a CSV or Parquet file")
    name = p.name.lower()
    sep = "\t" if name.endswith((".tsv", ".tsv.gz", ".tab")) else ","
    parquet = name.endswith((".parquet", ".pq"))
    try:
        import polars as pl
    except ImportError:
        pl = None  # type: ignore[assignment]
    try:
        if pl is not None and not name.endswith(".gz"):
            from ._dataframes import to_pandas

            lazy = pl.scan_parquet(p) if parquet else pl.scan_csv(p, separator=sep)
            names = lazy.collect_schema().names()
            want = [c for c in dict.fromkeys(columns or names) if c is not None]
            missing = [c for c in want if c not in names]
            if missing:
                raise CliError(
                    f"{missing[0]!r} is not a column of {path}; available "
                    f"columns: {', '.join(names[:20])}"
                )
            return to_pandas(lazy, want)
        if parquet:
            return pd.read_parquet(p)
        return pd.read_csv(p, sep=sep)
    except ImportError as exc:
        raise CliError(f"cannot read {path}: {exc} (install pyarrow for Parquet)") from None
    except CliError:
        raise
    except _READ_ERRORS + _polars_errors(pl) as exc:
        raise CliError(f"cannot read {path} as a table: {exc}") from None


def _pvalue(v) -> str:
    """One format for every p-value: three decimals, ``<0.001`` below."""
    if math.isnan(v):
        return ""
    return "<0.001" if v < 0.001 else f"{v:.3f}"


#: count columns: printed as whole numbers when every value is one (weighted counts
#: with fractions keep four decimals)
_COUNTS = ("tp", "fp", "fn", "tn", "n_pos", "n_neg", "n_degenerate", "n_curves", "n_boot")


def _table(frame: pd.DataFrame) -> str:
    """Four decimals, counts as integers; p-values in one format (see :func:`_pvalue`).

    The columns saying what produced the numbers (``curve``, ``method``, ...) are left
    out: the title above the table says it (the CSV of ``--out`` keeps them).
    """
    from ._schema import DESCRIPTORS

    frame = frame.drop(columns=[c for c in DESCRIPTORS if c in frame.columns])
    fmt = {c: _pvalue for c in frame.columns if str(c).startswith("p_")}
    for c in _COUNTS:
        if c in frame.columns and pd.api.types.is_numeric_dtype(frame[c]):
            v = frame[c].to_numpy(dtype=float)
            fin = v[~pd.isna(v)]
            if (fin == fin.round()).all():
                fmt[c] = lambda x: "" if pd.isna(x) else f"{x:.0f}"  # type: ignore[assignment]
    return frame.to_string(index=False, float_format=lambda v: f"{v:.4f}", formatters=fmt)


def _emit(frame: pd.DataFrame, args, title: str | None = None) -> None:
    if title:
        print(title)
    print(_table(frame))
    if getattr(args, "out", None):
        _write_atomic(frame, args.out)
        print(f"\nwrote {len(frame)} rows to {args.out}", file=sys.stderr)


def _same_file(a: str, b: str) -> bool:
    """True when paths ``a`` and ``b`` name one file (links and ``..`` included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return Path(a).resolve() == Path(b).resolve()


def _check_out(args) -> None:
    """Refuse ``--out`` naming the input file, before anything is read or computed."""
    out, src = getattr(args, "out", None), getattr(args, "file", None)
    if out and src and _same_file(out, src):
        raise CliError(
            f"--out {out} is the input file; writing there would replace your data "
            "with the result table. Pass another path (e.g. --out results.csv)"
        )


def _write_atomic(frame: pd.DataFrame, out: str) -> None:
    """Write ``frame`` as CSV to a temporary file beside ``out``, then rename it into
    place: an interrupt or a full disk leaves the old ``out`` (if any) whole.
    """
    path = Path(out)
    if path.is_dir():
        raise CliError(f"cannot write {out}: it is a directory; pass a file name")
    fd, tmp = None, None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", newline="") as fh:
            fd = None
            frame.to_csv(fh, index=False)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():  # keep the permissions of the file being replaced
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:  # mkstemp makes it 0600: give it the user's usual mode
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc}") from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_ESTIMATOR = {
    "dg": "Davis-Goadrich",
    "integral": "exact integral",
    "ap": "average precision",
    "trapezoid": "trapezoid",
}


def _area_name(args) -> str:
    """``AUC-PR (Davis-Goadrich)``, ``AUC-ROC``, ``partial AUC-ROC over FPR 0-0.1
    (McClish-standardized)``, with the hull when asked.
    """
    from ._checks import DEFAULT_METHOD

    curve = getattr(args, "curve", "pr")
    method = getattr(args, "method", None) or DEFAULT_METHOD.get(curve, "dg")
    parts = [f"{method}: {_ESTIMATOR.get(method, method)}"] if curve == "pr" else []
    if getattr(args, "hull", False):
        parts.append("hull")
    name = f"AUC-{curve.upper()}" + (f" ({', '.join(parts)})" if parts else "")
    partial = getattr(args, "partial", None)
    if partial:
        axis = "recall" if curve == "pr" else getattr(args, "partial_focus", "fpr").upper()
        name = f"partial {name} over {axis} {partial[0]:g}-{partial[1]:g}"
        if getattr(args, "standardize", False):
            name += " (McClish-standardized)" if curve == "roc" else " (divided by the width)"
    return name


def _title(args) -> str:
    """What the table holds: curve, estimator, and for resampling its kind, B and seed."""
    what = _area_name(args)
    if args.command == "curve":
        what = f"{args.curve.upper()} curve points" + (" (hull)" if args.hull else "")
        if not args.bands:
            return what + ":"
        what = "PR curve, pointwise bands on a recall grid"
    if args.command == "auc":
        if getattr(args, "ci", None):
            kind = {"logit": "Boyd et al. logit", "binomial": "Boyd et al. binomial"}
            ci = kind.get(args.ci, "DeLong")
            return f"{what}, 95% {ci} confidence intervals (closed form):"
        return what + ":"
    boot = (
        f"{'stratified' if not args.no_stratified else 'unstratified'} bootstrap, "
        f"B = {args.n_boot}, seed {args.seed}"
    )
    if args.command == "operating-points":
        ci = "" if args.n_boot is None else f", {args.level:.0%} percentile CIs, {boot}"
        return f"Operating points ({', '.join(args.target)}; F-beta with beta = {args.beta:g}){ci}:"
    if args.command == "bootstrap":
        return f"{what}, {args.level:.0%} {args.interval} CIs, {boot}:"
    if args.command == "curve":
        return f"{what}, {args.level:.0%} {boot}:"
    if args.command == "compare":
        test = "DeLong's paired test" if args.test == "delong" else f"paired {boot}"
        return f"{what}, differences a - b, {test}, p-values adjusted: {args.adjust}:"
    return what + ":"


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
    p.add_argument(
        "--curve",
        choices=["pr", "roc"],
        default="pr",
        help="precision-recall or ROC (default pr; e.g. --curve roc)",
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
    p.add_argument(
        "--partial-focus",
        choices=["fpr", "tpr"],
        default="fpr",
        help="ROC: the range is over FPR (default) or TPR (e.g. --partial-focus tpr)",
    )
    p.add_argument(
        "--standardize",
        action="store_true",
        help="McClish's correction (ROC) / divide by the width (PR) (e.g. --standardize)",
    )


def _parser() -> argparse.ArgumentParser:
    from ._version import __version__

    ap = argparse.ArgumentParser(
        prog="prroc-numba",
        description="Correct and fast PR / ROC analysis: AUCs, bootstrap confidence "
        "intervals and paired model comparison.",
    )
    ap.add_argument("--version", action="version", version=f"prroc-numba {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
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
    a = sub.add_parser("auc", help="area under the PR or ROC curve")
    _common(a, boot=False)
    _partial_args(a)
    a.add_argument(
        "--ci",
        choices=["logit", "binomial", "delong"],
        default=None,
        help="closed-form interval: Boyd et al. logit / binomial (PR), DeLong (ROC) "
        "(e.g. --ci logit)",
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
    b.add_argument(
        "--interval",
        choices=["percentile", "basic", "bca"],
        default="percentile",
        help="interval kind (default percentile; e.g. --interval bca)",
    )
    _partial_args(b)
    c = sub.add_parser("compare", help="paired comparison of several models")
    _common(c, boot=True)
    c.add_argument(
        "--baseline",
        default=None,
        metavar="COL",
        help="compare every model with this one (default: all pairs; e.g. --baseline m1)",
    )
    c.add_argument(
        "--adjust",
        choices=["holm", "bonferroni", "bh", "none"],
        default="holm",
        help="multiple-comparison adjustment (default holm; e.g. --adjust bh)",
    )
    c.add_argument(
        "--test",
        choices=["bootstrap", "delong"],
        default="bootstrap",
        help="paired bootstrap, or DeLong (ROC only; e.g. --curve roc --test delong)",
    )
    c.add_argument(
        "--p-value",
        choices=["wald", "percentile"],
        default="wald",
        help="bootstrap p-value: Wald (default) or percentile (floor 2/(B+1); "
        "e.g. --p-value percentile)",
    )
    _partial_args(c)
    v = sub.add_parser("curve", help="PR or ROC curve points, or PR bootstrap bands")
    _common(v, boot=True)
    v.add_argument(
        "--interpolate",
        choices=["dg", "continuous"],
        default=None,
        help="PR only: add the interpolated points between vertices (e.g. --interpolate dg)",
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
    return ap


def _pos_label(value, frame, label):
    """--pos-label comes as text; match the label column's type when it is numeric."""
    if value is None or label not in frame:
        return value
    kind = frame[label].dtype.kind
    try:
        if kind in "iu":
            return int(value)
        if kind == "f":
            return float(value)
        if kind == "b":
            return value.lower() in ("1", "true", "yes")
    except ValueError:
        raise CliError(
            f"--pos-label {value!r} is not a value of the numeric column {label!r}"
        ) from None
    return value


def _args_to_kw(args, frame):
    score = args.score[0] if len(args.score) == 1 else list(args.score)
    return {
        "score": score,
        "label": args.label,
        "by": args.by,
        "weight": args.weight,
        "pos_label": _pos_label(args.pos_label, frame, args.label),
    }


def _boot_kw(args):
    """The bootstrap options (--n-boot, --level, --no-stratified, --seed,
    --no-progress) as keywords of the bootstrap functions.
    """
    return {
        "n_boot": args.n_boot,
        "level": args.level,
        "stratified": not args.no_stratified,
        "seed": args.seed,
        "progress": False if args.no_progress else None,
    }


def _partial_kw(args):
    """--partial, --partial-focus, --standardize as keywords."""
    return {
        "partial": args.partial,
        "partial_focus": args.partial_focus,
        "standardize": args.standardize,
    }


def _demo(args) -> None:
    import prroc_numba as prn
    from prroc_numba._schema import DESCRIPTORS
    from prroc_numba.data import DEMO_MODELS, load_demo

    df = load_demo()
    progress = False if args.no_progress else None
    print(
        f"Demo predictions: {len(df):,} rows, {int(df.y.sum()):,} positives "
        f"({df.y.mean():.1%}), models {', '.join(DEMO_MODELS)}\n"
    )
    ci = prn.bootstrap(
        df,
        score=DEMO_MODELS,
        label="y",
        curve="pr",
        method="dg",
        n_boot=args.n_boot,
        seed=args.seed,
        progress=progress,
    )
    roc = prn.auc(df, score=DEMO_MODELS, label="y", curve="roc").rename(columns={"auc": "auc_roc"})
    ci = ci.drop(columns=[c for c in DESCRIPTORS if c in ci.columns])
    roc = roc.drop(columns=[c for c in DESCRIPTORS if c in roc.columns])
    table = (
        ci.drop(columns=["n_degenerate"])
        .rename(columns={"estimate": "auc_pr"})
        .merge(roc, on="model")
    )
    table = table.sort_values("auc_pr", ascending=False)
    print(f"AUC-PR (Davis-Goadrich) with 95% stratified bootstrap CIs, B = {args.n_boot}, paired:")
    print(_table(table))
    cmp = prn.compare(
        df,
        score=DEMO_MODELS,
        label="y",
        curve="pr",
        n_boot=args.n_boot,
        seed=args.seed,
        progress=progress,
    )
    print(
        f"\nPairwise differences in AUC-PR (dg), diff = a - b, paired stratified "
        f"bootstrap, B = {args.n_boot}, seed {args.seed}, Holm-adjusted p-values:"
    )
    print(_table(cmp))
    dl = prn.compare(df, score=DEMO_MODELS, label="y", curve="roc", test="delong")
    print(
        "\nAUC-ROC (trapezoid), DeLong's paired test (as pROC's roc.test), Holm-adjusted p-values:"
    )
    print(_table(dl))


def _run(args) -> None:
    import prroc_numba as prn

    if args.command == "demo":
        _demo(args)
        return
    if args.command == "warmup":
        from ._warmup import warmup

        warmup(cli_main=main)
        return
    _check_out(args)
    frame = _read(args.file, [*args.score, args.label, *(args.by or []), args.weight])
    kw = _args_to_kw(args, frame)
    if args.command == "auc" and args.ci:
        if args.hull or args.partial:
            raise CliError("--ci is for the whole empirical curve; drop --hull / --partial")
        res = prn.auc_ci(frame, curve=args.curve, method=args.method, ci=args.ci, **kw)
    elif args.command == "auc":
        res = prn.auc(
            frame, curve=args.curve, method=args.method, hull=args.hull, **_partial_kw(args), **kw
        )
    elif args.command == "operating-points":
        if args.curve != "pr" or args.method or args.hull:
            raise CliError("operating-points takes no --curve / --method / --hull")
        res = prn.operating_points(
            frame, targets=args.target, beta=args.beta, **_boot_kw(args), **kw
        )
    elif args.command == "curve" and args.bands:
        if args.curve != "pr" or args.interpolate:
            raise CliError("--bands gives PR curve bands; drop --curve roc / --interpolate")
        res = prn.bootstrap_curve(frame, hull=args.hull, grid=args.grid, **_boot_kw(args), **kw)
    elif args.command == "curve":
        if args.curve == "roc":
            if args.interpolate:
                raise CliError("--interpolate applies to PR curves only (--curve pr)")
            res = prn.roc_curve(frame, hull=args.hull, **kw)
        else:
            res = prn.pr_curve(frame, hull=args.hull, interpolate=args.interpolate, **kw)
    else:
        boot = {
            "curve": args.curve,
            "method": args.method,
            "hull": args.hull,
            **_boot_kw(args),
            **_partial_kw(args),
        }
        if args.command == "bootstrap":
            res = prn.bootstrap(frame, interval=args.interval, **boot, **kw)
        else:
            if len(args.score) < 2:
                raise CliError("compare needs at least two --score columns")
            res = prn.compare(
                frame,
                baseline=args.baseline,
                adjust=args.adjust,
                test=args.test,
                p_value=args.p_value,
                **boot,
                **kw,
            )
    _emit(res, args, _title(args))


def main(argv=None) -> int:
    """Entry point of ``prroc-numba``; returns the exit status (0 ok, 2 error).

    Parameters
    ----------
    argv : list of str, default=None
        The arguments after the program name; None reads ``sys.argv``.

    Returns
    -------
    int
        0 on success, 2 for bad input (one line on stderr), 130 when interrupted.

    Examples
    --------
    >>> from prroc_numba.cli import main
    >>> main(["auc", "no_such_file.csv", "--label", "y", "--score", "m1"])
    2
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        _run(args)
    except (CliError, ValueError, TypeError) as exc:
        # name the option, with the value the message suggests (or a placeholder)
        msg = re.sub(
            r"\bpos_label=([^\s,;)]*)",
            lambda m: "--pos-label " + (m.group(1) or "VALUE"),
            str(exc),
        )
        print(f"prroc-numba {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("prroc-numba: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `prroc-numba demo | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
