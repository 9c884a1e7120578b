"""The command line's input and output: reading the table, printing results, writing
``--out`` atomically, the titles above the tables, and :class:`CliError`.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
from pathlib import Path

import pandas as pd


class CliError(Exception):
    """An error to report in one line (exit status 2)."""


_READ_ERRORS = (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError)


def _polars_errors(pl):
    return (pl.exceptions.PolarsError,) if pl is not None else ()


def _read(path: str, columns=None) -> pd.DataFrame:
    """The file (a CSV or Parquet file, a Parquet dataset directory, or a glob) as a
    pandas frame of ``columns`` (all if None).

    With polars installed, Parquet and CSV are scanned lazily and go through the same
    conversion as polars ``data`` (:func:`prroc_numba._core.dataframes.to_pandas`): only the
    named columns are read. Without polars, pandas reads them.
    """
    import glob

    p = Path(path)
    pattern = glob.has_magic(path)
    if pattern and not glob.glob(path):
        raise CliError(f"no file matches {path}")
    if not pattern and not p.exists():
        raise CliError(f"file not found: {path}")
    name = p.name.lower()
    sep = "\t" if name.endswith((".tsv", ".tsv.gz", ".tab")) else ","
    # a directory is a Parquet dataset (its key=value folders read as columns)
    parquet = name.endswith((".parquet", ".pq")) or (p.is_dir() and not pattern)
    try:
        import polars as pl
    except ImportError:
        pl = None  # type: ignore[assignment]
    try:
        if pl is not None and not name.endswith(".gz"):
            from .._core.dataframes import to_pandas

            src = path if pattern else p
            lazy = (
                pl.scan_parquet(src, hive_partitioning=True)
                if parquet
                else pl.scan_csv(src, separator=sep)
            )
            names = lazy.collect_schema().names()
            want = [c for c in dict.fromkeys(columns or names) if c is not None]
            missing = [c for c in want if c not in names]
            if missing:
                raise CliError(
                    f"{missing[0]!r} is not a column of {path}; available "
                    f"columns: {', '.join(names[:20])}"
                )
            return to_pandas(lazy, want)
        if pattern:
            raise CliError(f"reading the glob {path} needs polars (pip install polars)")
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
    from .._schema import DESCRIPTORS

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
    """Write ``frame`` as CSV (Parquet when ``out`` ends in ``.parquet`` or ``.pq``) to
    a temporary file beside ``out``, then rename it into place: an interrupt or a full
    disk leaves the old ``out`` (if any) whole.
    """
    path = Path(out)
    if path.is_dir():
        raise CliError(f"cannot write {out}: it is a directory; pass a file name")
    fd, tmp = None, None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        if path.suffix.lower() in (".parquet", ".pq"):
            if "fold" in frame.columns and frame["fold"].dtype == object:
                frame = frame.assign(fold=frame["fold"].astype(str))  # ids beside "mean"
            with os.fdopen(fd, "wb") as fb:
                fd = None
                frame.to_parquet(fb, index=False)
                fb.flush()
                os.fsync(fb.fileno())
        else:
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
    from .._checks import DEFAULT_METHOD

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
    if args.command == "metrics":
        return f"Metrics ({', '.join(args.metrics)}):"
    if args.command == "confusion":
        return (
            "Confusion counts at every distinct score (a row is positive when score >= threshold):"
        )
    what = _area_name(args)
    if args.command == "curve":
        what = f"{args.curve.upper()} curve points" + (" (hull)" if args.hull else "")
        if not args.bands:
            return what + ":"
        axis = "recall" if args.curve == "pr" else "FPR"
        what = f"{args.curve.upper()} curve, {args.band} bands on a {axis} grid"
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
    if args.command == "disparity":
        norm = ", normalized" if args.normalize else ""
        return f"{what}{norm} per group, gaps to {args.reference}, {args.level:.0%} CIs, {boot}:"
    if args.command == "compare":
        test = "DeLong's paired test" if args.test == "delong" else f"paired {boot}"
        return f"{what}, differences a - b, {test}, p-values adjusted: {args.adjust}:"
    return what + ":"
