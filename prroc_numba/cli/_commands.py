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
    prroc-numba compare preds.csv --label y --score m1 m2 m3 --fold fold --baseline best
    prroc-numba disparity preds.csv --label y --score m1 m2 --group sex age_band --normalize
    prroc-numba auc preds.csv --label cls --score p_a p_b p_c --multiclass ovr --average macro
    prroc-numba curve preds.csv --label y --score m1 [--curve roc] [--hull] --out points.csv
    prroc-numba curve preds.csv --label y --score m1 m2 --bands --grid 101 --out bands.csv
    prroc-numba curve preds.csv --label y --score m1 --curve det
    prroc-numba metrics preds.csv --label y --score m1 m2 --metrics ap auc_roc prevalence
    prroc-numba confusion preds.csv --label y --score m1
    prroc-numba rank results.csv --model model --dataset dataset --value auc

Input: CSV (also ``.csv.gz``, ``.tsv``) or Parquet. Output: a readable table on stdout;
``--out FILE`` also writes it as CSV (to a temporary file beside it, renamed into place, so
an interrupt never leaves half a file; ``--out`` naming the input is refused). Errors (a
missing file or column, bad labels) print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import os
import re
import sys

from ._engines import frame_of, label_kind
from ._io import CliError, _check_out, _emit, _read, _table, _title
from ._parser import _parser

__all__ = ["main"]


def _pos_label(value, frame, label):
    """--pos-label comes as text; match the label column's type when it is numeric."""
    kind = None if value is None else label_kind(frame, label)
    if kind is None:
        return value
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


def _classes(values, frame, label):
    """--classes come as text; match the label column's type (as --pos-label)."""
    if values is None:
        return None
    return [_pos_label(v, frame, label) for v in values]


def _args_to_kw(args, frame):
    """The input options every data command shares, as keywords; the options a command
    has but left unset are not passed (its function's default holds).
    """
    score = args.score[0] if len(args.score) == 1 else list(args.score)
    kw = {
        "score": score,
        "label": args.label,
        "by": args.by,
        "weight": args.weight,
        "pos_label": _pos_label(args.pos_label, frame, args.label),
    }
    optional = {
        "soft_labels": getattr(args, "soft_labels", False),
        "fold": getattr(args, "fold", None),
        "multiclass": getattr(args, "multiclass", None),
        "classes": _classes(getattr(args, "classes", None), frame, args.label),
        "average": getattr(args, "average", None),
        "device": getattr(args, "device", None),
    }
    kw.update({k: v for k, v in optional.items() if v not in (None, False)})
    return kw


def _boot_kw(args):
    """The bootstrap options (--n-boot, --level, --no-stratified, --seed,
    --no-progress, --cluster, --resampling) as keywords of the bootstrap functions.
    """
    kw = {
        "n_boot": args.n_boot,
        "level": args.level,
        "seed": args.seed,
        "progress": False if args.no_progress else None,
    }
    if args.no_stratified:
        kw["stratified"] = False
    for name in ("cluster", "resampling", "row_id"):
        if getattr(args, name, None) is not None:
            kw[name] = getattr(args, name)
    return kw


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


def _rank(args) -> None:
    """The ``rank`` command: rank_models on a table of results."""
    import prroc_numba as prn

    frame = _read(args.file, [args.model, args.dataset, args.value])
    res = prn.rank_models(
        frame,
        model=args.model,
        dataset=args.dataset,
        value=args.value,
        higher_is_better=not args.lower_is_better,
        rope=args.rope,
        level=args.level,
        n_samples=args.n_samples,
        seed=args.seed,
    )
    print(res.summary.to_string())
    print()
    print(_table(res.ranks))
    print()
    _emit(res.pairs, args, "Pairs (Wilcoxon signed-rank, Holm-adjusted; Nemenyi at --level):")


def _run(args) -> None:

    if args.command == "demo":
        _demo(args)
        return
    if args.command == "warmup":
        from .._jit import warmup as calls

        calls.warmup(cli_main=main)
        return
    _check_out(args)
    if args.command == "rank":
        _rank(args)
        return
    extra = [getattr(args, c, None) for c in ("fold", "cluster", "row_id", "group")]
    extra = [c for x in extra for c in (x if isinstance(x, list) else [x])]
    columns = [*args.score, args.label, *(args.by or []), args.weight, *extra]
    with frame_of(args, columns) as frame:
        _emit(_result(args, frame), args, _title(args))


def _result(args, frame):
    """The command's library call on ``frame`` (pandas, Spark or Dask)."""
    import prroc_numba as prn

    kw = _args_to_kw(args, frame)
    if args.command == "auc":
        res = _auc(args, frame, kw)
    elif args.command == "metrics":
        res = prn.metrics(frame, metrics=args.metrics, **kw)
    elif args.command == "confusion":
        res = prn.confusion(frame, **kw)
    elif args.command == "operating-points":
        if args.curve != "pr" or args.method or args.hull:
            raise CliError("operating-points takes no --curve / --method / --hull")
        res = prn.operating_points(
            frame, targets=args.target, beta=args.beta, **_boot_kw(args), **kw
        )
    elif args.command == "disparity":
        res = _disparity(args, frame, kw)
    elif args.command == "curve" and args.bands:
        res = _bands(args, frame, kw)
    elif args.command == "curve":
        res = _curve(args, frame, kw)
    else:
        res = _resampled(args, frame, kw)
    return res


def _auc(args, frame, kw):
    """``auc``: the area, or with ``--ci`` its closed-form interval."""
    import prroc_numba as prn

    if args.ci:
        if args.hull or args.partial or args.normalize:
            raise CliError("--ci is for the whole raw curve; drop --hull / --partial / --normalize")
        return prn.auc_ci(
            frame, curve=args.curve, method=args.method, ci=args.ci, level=args.level, **kw
        )
    return prn.auc(
        frame,
        curve=args.curve,
        method=args.method,
        hull=args.hull,
        normalize=args.normalize,
        **_partial_kw(args),
        **kw,
    )


def _bands(args, frame, kw):
    """``curve --bands``: bootstrap bands on a grid."""
    import prroc_numba as prn

    if args.interpolate or args.recall_step is not None:
        raise CliError("--bands gives bands on a grid; drop --interpolate / --recall-step")
    if "device" in kw:
        raise CliError("--bands runs on the CPU; drop --device")
    return prn.bootstrap_curve(
        frame,
        curve=args.curve,
        space=args.space,
        band=args.band,
        hull=args.hull,
        grid=args.grid,
        **_boot_kw(args),
        **kw,
    )


def _curve(args, frame, kw):
    """``curve``: the points of the PR, ROC, DET or PRG curve."""
    import prroc_numba as prn

    if args.space is not None or args.band != "pointwise":
        raise CliError("--space / --band apply to --bands")
    if args.curve != "pr" and (args.interpolate or args.recall_step is not None):
        raise CliError("--interpolate / --recall-step apply to PR curves only (--curve pr)")
    if args.curve == "det":
        if args.hull:
            raise CliError("the DET curve has no hull here; drop --hull")
        return prn.det_curve(frame, **kw)
    if args.curve == "prg":
        return prn.prg_curve(frame, hull=args.hull, **kw)
    if args.curve == "roc":
        return prn.roc_curve(frame, hull=args.hull, **kw)
    return prn.pr_curve(
        frame,
        hull=args.hull,
        interpolate=args.interpolate,
        recall_step=args.recall_step,
        **kw,
    )


def _resampled(args, frame, kw):
    """``bootstrap`` and ``compare``."""
    import prroc_numba as prn

    boot = {
        "curve": args.curve,
        "method": args.method,
        "hull": args.hull,
        "normalize": args.normalize,
        **_boot_kw(args),
        **_partial_kw(args),
    }
    if args.command == "bootstrap":
        return prn.bootstrap(frame, interval=args.interval, **boot, **kw)
    if len(args.score) < 2:
        raise CliError("compare needs at least two --score columns")
    return prn.compare(
        frame,
        baseline=args.baseline,
        adjust=args.adjust,
        test=args.test,
        p_value=args.p_value,
        combine=args.combine,
        **boot,
        **kw,
    )


def _disparity(args, frame, kw):
    """``disparity``: each group's area and gap (a reference group's value as text is
    matched to the group column's type, as --pos-label).
    """
    import prroc_numba as prn

    if args.hull or kw.pop("pos_label", None) is not None or "soft_labels" in kw:
        raise CliError("disparity takes no --hull / --pos-label / --soft-labels")
    ref = args.reference
    if ref not in ("overall", "between_groups", "to_overall") and len(args.group) == 1:
        ref = _pos_label(ref, frame, args.group[0])
    boot = {k: v for k, v in _boot_kw(args).items() if k != "progress"}
    return prn.disparity(
        frame,
        group=args.group[0] if len(args.group) == 1 else list(args.group),
        curve=args.curve,
        method=args.method,
        normalize=args.normalize,
        reference=ref,
        baseline=args.baseline,
        adjust=args.adjust,
        interval=args.interval,
        **boot,
        **kw,
    )


def _command_parser(parser, command):
    """The subparser of ``command`` (None for none)."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command)
    return None


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
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # the command's own usage and "did you mean", not the program's
            command = _command_parser(parser, args.command)
            (command or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
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
