"""The prroc-numba command line, called in-process (and once as a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba.cli import main
from prroc_numba.data import DEMO_MODELS, load_demo

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def preds(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    y = (rng.random(n) < 0.2).astype(int)
    df = pd.DataFrame(
        {
            "y": y,
            "m1": y + rng.normal(size=n),
            "m2": 0.5 * y + rng.normal(size=n),
            "fold": rng.integers(0, 2, n),
        }
    )
    path = tmp_path / "preds.csv"
    df.to_csv(path, index=False)
    return df, path


def test_auc_matches_the_library(preds, capsys, tmp_path):
    df, path = preds
    out = tmp_path / "auc.csv"
    assert main(["auc", str(path), "--label", "y", "--score", "m1", "m2", "--out", str(out)]) == 0
    got = pd.read_csv(out)
    ref = prn.auc(df, score=["m1", "m2"], label="y")
    np.testing.assert_allclose(got["auc"], ref["auc"], rtol=1e-12)
    assert "m1" in capsys.readouterr().out


def test_bootstrap_and_compare_write_csv(preds, tmp_path):
    df, path = preds
    out = tmp_path / "ci.csv"
    assert (
        main(
            [
                "bootstrap",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "m2",
                "--n-boot",
                "200",
                "--seed",
                "3",
                "--no-progress",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.bootstrap(df, score=["m1", "m2"], label="y", n_boot=200, seed=3, progress=False)
    np.testing.assert_allclose(pd.read_csv(out)[["ci_low", "ci_high"]], ref[["ci_low", "ci_high"]])
    out = tmp_path / "cmp.csv"
    assert (
        main(
            [
                "compare",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "m2",
                "--curve",
                "roc",
                "--n-boot",
                "200",
                "--by",
                "fold",
                "--no-progress",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    got = pd.read_csv(out)
    assert list(got.columns[:3]) == ["fold", "model_a", "model_b"] and len(got) == 2
    assert (
        main(
            [
                "compare",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "m2",
                "--curve",
                "roc",
                "--test",
                "delong",
            ]
        )
        == 0
    )


def test_curve_and_parquet(preds, tmp_path, capsys):
    df, _ = preds
    path = tmp_path / "preds.parquet"
    df.to_parquet(path)
    out = tmp_path / "roc.csv"
    assert (
        main(
            [
                "curve",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "--curve",
                "roc",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.roc_curve(df, score="m1", label="y")
    np.testing.assert_allclose(pd.read_csv(out)["tpr"], ref["tpr"])


def test_curve_bands(preds, tmp_path):
    df, path = preds
    out = tmp_path / "bands.csv"
    assert (
        main(
            [
                "curve",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "m2",
                "--bands",
                "--grid",
                "11",
                "--n-boot",
                "100",
                "--seed",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.bootstrap_curve(
        df, score=["m1", "m2"], label="y", grid=11, n_boot=100, seed=2, progress=False
    )
    np.testing.assert_allclose(pd.read_csv(out)[["ci_low", "ci_high"]], ref[["ci_low", "ci_high"]])


@pytest.mark.parametrize(
    "argv,match",
    [
        (["auc", "missing.csv", "--label", "y", "--score", "m1"], "file not found"),
        (["auc", "{path}", "--label", "y", "--score", "nope"], "'nope' is not a column"),
        (["auc", "{path}", "--label", "zz", "--score", "m1"], "'zz' is not a column"),
        (["compare", "{path}", "--label", "y", "--score", "m1"], "at least two"),
        (["bootstrap", "{path}", "--label", "y", "--score", "m1", "--n-boot", "1"], "n_boot"),
        (["auc", "{path}", "--label", "m1", "--score", "m2"], "labels must be"),
        (
            ["auc", "{path}", "--label", "fold", "--score", "m2", "--pos-label", "x"],
            "is not a value",
        ),
        (["auc", "{bad}", "--label", "y", "--score", "m1"], "cannot read"),
        (
            ["curve", "{path}", "--label", "y", "--score", "m1", "--bands", "--interpolate", "dg"],
            "--bands",
        ),
    ],
)
def test_errors_are_one_line_and_nonzero(preds, tmp_path, capsys, argv, match):
    _, path = preds
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet")
    argv = [a.format(path=path, bad=bad) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and "Traceback" not in err


def test_usage_errors_exit_nonzero(capsys):
    assert main([]) == 2
    assert main(["auc"]) == 2  # argparse: missing arguments
    assert main(["--help"]) == 0


def test_demo_in_process(capsys):
    assert main(["demo", "--n-boot", "200", "--no-progress"]) == 0
    out = capsys.readouterr().out
    for m in DEMO_MODELS:
        assert m in out
    assert "AUC-PR" in out and "DeLong" in out


def test_demo_data_is_realistic():
    df = load_demo()
    assert len(df) == 20000 and df.y.mean() == pytest.approx(0.05)
    auc = prn.auc(df, score=DEMO_MODELS, label="y").set_index("model")["auc"]
    assert auc["gbm_tuned"] > auc["gbm"] > auc["logreg"] > auc["rules"] > auc["noise"]


def test_demo_as_a_subprocess():
    """``python -m prroc_numba demo`` as a user runs it (fresh interpreter)."""
    proc = subprocess.run(
        [sys.executable, "-m", "prroc_numba", "demo", "--n-boot", "100"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "gbm_tuned" in proc.stdout


def test_read_takes_only_the_named_columns(preds, tmp_path):
    from prroc_numba.cli._io import _read

    df, path = preds
    pq = tmp_path / "preds.parquet"
    df.to_parquet(pq)
    for p in (path, pq):
        got = _read(str(p), ["m1", "y"])
        assert list(got.columns) == ["m1", "y"]
        np.testing.assert_array_equal(got.m1.to_numpy(), df.m1.to_numpy())


def test_auc_partial_ci_and_operating_points(preds, tmp_path):
    df, path = preds
    out = tmp_path / "o.csv"
    assert (
        main(
            [
                "auc",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "--curve",
                "roc",
                "--partial",
                "0",
                "0.2",
                "--standardize",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.auc(df, score="m1", label="y", curve="roc", partial=(0, 0.2), standardize=True)
    np.testing.assert_allclose(pd.read_csv(out)["auc"], ref["auc"], rtol=1e-12)
    assert (
        main(
            [
                "auc",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "m2",
                "--ci",
                "binomial",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.auc_ci(df, score=["m1", "m2"], label="y", ci="binomial")
    np.testing.assert_allclose(pd.read_csv(out)["ci_low"], ref["ci_low"], rtol=1e-12)
    assert (
        main(
            [
                "operating-points",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "--target",
                "max_f1",
                "recall>=0.8",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = prn.operating_points(df, score="m1", label="y", targets=["max_f1", "recall>=0.8"])
    got = pd.read_csv(out)
    assert "precision_ci_low" not in got
    np.testing.assert_allclose(got["threshold"], ref["threshold"], rtol=1e-12)
    assert (
        main(
            [
                "operating-points",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "--n-boot",
                "50",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert "precision_ci_low" in pd.read_csv(out)
    assert main(["auc", str(path), "--label", "y", "--score", "m1", "--partial", "0.5", "0.2"]) == 2
    assert (
        main(
            [
                "bootstrap",
                str(path),
                "--label",
                "y",
                "--score",
                "m1",
                "--partial",
                "0",
                "0.5",
                "--n-boot",
                "20",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    ref = prn.bootstrap(df, score="m1", label="y", partial=(0, 0.5), n_boot=20, seed=0)
    np.testing.assert_allclose(pd.read_csv(out)["ci_low"], ref["ci_low"], rtol=1e-12)


# ------------------------------------------ usage errors: the command's usage, did you mean


@pytest.mark.parametrize(
    "command,typo,hint",
    [
        ("bootstrap", "--nboot", "--n-boot"),
        ("compare", "--n_boot", "--n-boot"),
        ("compare", "--basline", "--baseline"),
        ("auc", "--folds", "--fold"),
        ("curve", "--grd", "--grid"),
    ],
)
def test_unknown_option_prints_the_command_usage_and_did_you_mean(
    preds, capsys, command, typo, hint
):
    _, path = preds
    extra = ["m2"] if command == "compare" else []
    assert main([command, str(path), "--label", "y", "--score", "m1", *extra, typo, "5"]) == 2
    err = capsys.readouterr().err
    assert f"usage: prroc-numba {command} " in err  # the command's usage, not the program's
    assert f"unrecognized arguments: {typo}" in err
    assert f"{typo}: did you mean {hint}" in err


def test_unknown_option_without_a_close_one_suggests_nothing(preds, capsys):
    _, path = preds
    assert main(["auc", str(path), "--label", "y", "--score", "m1", "--zzzz"]) == 2
    err = capsys.readouterr().err
    assert "usage: prroc-numba auc " in err and "did you mean" not in err


# --------------------------------------------------------------------- --fold


def _cli_csv(argv, tmp_path):
    out = tmp_path / "out.csv"
    assert main([*argv, "--out", str(out)]) == 0
    return pd.read_csv(out)


def _same(got, ref, cols):
    ref = ref.reset_index(drop=True)
    np.testing.assert_array_equal(got["fold"].astype(str), ref["fold"].astype(str))
    np.testing.assert_allclose(got[cols].to_numpy(float), ref[cols].to_numpy(float), rtol=1e-12)


def test_fold_on_every_command_that_takes_fold(preds, tmp_path):
    df, path = preds
    base = [str(path), "--label", "y", "--score", "m1", "m2", "--fold", "fold"]
    boot = ["--n-boot", "60", "--seed", "4", "--no-progress"]
    kw = dict(score=["m1", "m2"], label="y", fold="fold")
    bkw = dict(n_boot=60, seed=4, progress=False)
    _same(_cli_csv(["auc", *base], tmp_path), prn.auc(df, **kw), ["auc"])
    # the cross-validated interval (influence function) of the ROC area
    cv = ["--curve", "roc", "--method", "influence", "--ci", "delong"]
    one = [str(path), "--label", "y", "--score", "m1", "--fold", "fold"]
    _same(
        _cli_csv(["auc", *one, *cv], tmp_path),
        prn.auc_ci(
            df, score="m1", label="y", fold="fold", curve="roc", method="influence", ci="delong"
        ),
        ["estimate", "ci_low", "ci_high"],
    )
    _same(
        _cli_csv(["bootstrap", *base, *boot], tmp_path),
        prn.bootstrap(df, **kw, **bkw),
        ["estimate", "ci_low", "ci_high"],
    )
    _same(
        _cli_csv(["compare", *base, *boot], tmp_path),
        prn.compare(df, **kw, **bkw),
        ["diff", "ci_low", "ci_high", "p_value"],
    )
    _same(_cli_csv(["curve", *base], tmp_path), prn.pr_curve(df, **kw), ["recall", "precision"])
    _same(
        _cli_csv(["curve", *base, "--curve", "roc"], tmp_path),
        prn.roc_curve(df, **kw),
        ["fpr", "tpr"],
    )
    _same(
        _cli_csv(["curve", *base, "--bands", "--grid", "11", *boot], tmp_path),
        prn.bootstrap_curve(df, grid=11, **kw, **bkw),
        ["ci_low", "ci_high"],
    )


def test_new_options_reach_the_library(preds, tmp_path):
    df, path = preds
    df = df.assign(cls=np.where(df.y == 1, "a", np.where(df.m2 > 0, "b", "c")))
    df = df.assign(pa=df.m1, pb=df.m2, pc=-df.m1 - df.m2)
    df.to_csv(path, index=False)
    mc = ["--label", "cls", "--score", "pa", "pb", "pc", "--multiclass", "ovr"]
    got = _cli_csv(["auc", str(path), *mc, "--average", "macro"], tmp_path)
    ref = prn.auc(df, score=["pa", "pb", "pc"], label="cls", multiclass="ovr", average="macro")
    assert got.auc[0] == pytest.approx(ref.auc[0], rel=1e-12)
    got = _cli_csv(["auc", str(path), *mc, "--classes", "a", "b", "c"], tmp_path)
    assert got["class"].tolist() == ["a", "b", "c"]
    # compare: baseline best, combine over groups, cluster resampling
    base = [str(path), "--label", "y", "--score", "m1", "m2", "--n-boot", "50", "--seed", "1"]
    best = _cli_csv(["compare", *base, "--baseline", "best"], tmp_path)
    assert best.model_a[0] == "m1" and "not_worse" in best.columns
    comb = _cli_csv(["compare", *base, "--by", "fold", "--combine"], tmp_path)
    assert set(comb.combined.dropna()) == {"fixed", "random"}
    df = df.assign(patient=np.arange(len(df)) // 4)
    df.to_csv(path, index=False)
    clus = _cli_csv(
        ["bootstrap", *base, "--cluster", "patient", "--no-stratified", "--no-progress"], tmp_path
    )
    ref = prn.bootstrap(
        df, score=["m1", "m2"], label="y", cluster="patient", stratified=False, n_boot=50, seed=1
    )
    np.testing.assert_allclose(clus.ci_low, ref.ci_low, rtol=1e-12)
    pois = _cli_csv(["bootstrap", *base, "--resampling", "poisson"], tmp_path)
    assert pois.resampling[0] == "poisson"
    roc = _cli_csv(["curve", *base, "--bands", "--curve", "roc", "--grid", "5"], tmp_path)
    assert "fpr" in roc.columns and len(roc) == 10


# ---------------------------- the command line against the public signatures

#: the command that reaches each public function's options
COMMANDS = {
    "auc": ["auc", "auc_ci"],
    "metrics": ["metrics"],
    "confusion": ["confusion"],
    "bootstrap": ["bootstrap"],
    "compare": ["compare"],
    "disparity": ["disparity"],
    "curve": ["roc_curve", "pr_curve", "det_curve", "prg_curve", "bootstrap_curve"],
    "operating-points": ["operating_points"],
    "rank": ["rank_models"],
}
#: arguments spelled otherwise on the command line
SPELLED = {
    "data": "file",
    "stratified": "--no-stratified",
    "progress": "--no-progress",
    "targets": "--target",
    "higher_is_better": "--lower-is-better",
}
#: arguments deliberately not on the command line, and why
NOT_FOR_A_CSV = {
    "output": "the command line prints a table and writes CSV (--out)",
    "thresholds": "thresholds per curve are an array or a frame: use the Python API",
    "return_replicates": "a second table of every replicate: use the Python API",
    "row_id": "keys the Poisson counts of a Spark frame's rows; a CSV's rows have an order",
}
#: public names without a command, and why
NO_COMMAND = {
    "auc_pr": "the scikit-learn-style one-curve form of auc (the auc command)",
    "auc_roc": "the scikit-learn-style one-curve form of auc (auc --curve roc)",
    "delong": "compare --curve roc --test delong, auc --curve roc --ci delong",
    "interpolate": "takes curve points, not predictions",
    "interpolate_matrix": "takes curve points, not predictions",
    "average_curves": "takes curve points, not predictions",
    "power": "mostly numbers (AUCs, binormal parameters, sizes), not a table",
    "scorer": "a scikit-learn scorer object",
    "Accumulator": "streaming state held in a Python process",
    "PRCurve": "curves given as points in Python",
    "ROCCurve": "curves given as points in Python",
    "UndefinedMetricWarning": "a warning class",
    "FewDataSetsWarning": "a warning class",
    "PrevalenceWarning": "a warning class",
    "StateFormatError": "an error class (a saved table that cannot be read)",
}


def _flags(command):
    import argparse

    from prroc_numba.cli._parser import _parser

    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices[command]
    return set(parser._option_string_actions) | {
        a.dest for a in parser._actions if not a.option_strings
    }


def test_every_public_option_is_on_the_command_line_or_excused():
    import inspect

    covered = {f for fs in COMMANDS.values() for f in fs}
    assert set(prn.__all__) == covered | set(NO_COMMAND), (
        "a public name needs a command or a reason"
    )
    missing = []
    for command, funcs in COMMANDS.items():
        flags = _flags(command)
        for fname in funcs:
            for arg in inspect.signature(getattr(prn, fname)).parameters:
                flag = SPELLED.get(arg, "--" + arg.replace("_", "-"))
                if flag not in flags and arg not in NOT_FOR_A_CSV:
                    missing.append(f"{command}: {fname}({arg}=) has no {flag}")
    assert not missing, "\n".join(missing)


def test_metrics_confusion_det_prg_and_rank_commands(preds, tmp_path, capsys):
    df, path = preds
    base = [str(path), "--label", "y", "--score", "m1", "m2"]
    got = _cli_csv(["metrics", *base, "--metrics", "ap", "auc_roc", "prevalence"], tmp_path)
    ref = prn.metrics(df, score=["m1", "m2"], label="y", metrics=["ap", "auc_roc", "prevalence"])
    np.testing.assert_allclose(got[["ap", "auc_roc"]], ref[["ap", "auc_roc"]], rtol=1e-12)
    got = _cli_csv(["confusion", *base], tmp_path)
    ref = prn.confusion(df, score=["m1", "m2"], label="y")
    np.testing.assert_array_equal(got[["tp", "fp", "fn", "tn"]], ref[["tp", "fp", "fn", "tn"]])
    got = _cli_csv(["curve", *base, "--curve", "det"], tmp_path)
    ref = prn.det_curve(df, score=["m1", "m2"], label="y")
    np.testing.assert_allclose(got[["fpr", "fnr"]], ref[["fpr", "fnr"]], rtol=1e-12)
    got = _cli_csv(["curve", *base, "--curve", "prg", "--hull"], tmp_path)
    ref = prn.prg_curve(df, score=["m1", "m2"], label="y", hull=True)
    np.testing.assert_allclose(got[["recall_gain"]], ref[["recall_gain"]], rtol=1e-12)
    pytest.importorskip("scipy")
    rng = np.random.default_rng(0)
    rows = [
        (m, d, 0.7 + 0.02 * i + rng.normal(0, 0.01)) for i, m in enumerate("abc") for d in range(12)
    ]
    res_path = tmp_path / "results.csv"
    pd.DataFrame(rows, columns=["m", "d", "auc"]).to_csv(res_path, index=False)
    got = _cli_csv(
        ["rank", str(res_path), "--model", "m", "--dataset", "d", "--value", "auc"], tmp_path
    )
    ref = prn.rank_models(pd.read_csv(res_path), model="m", dataset="d", value="auc").pairs
    np.testing.assert_allclose(got.p_adjusted, ref.p_adjusted, rtol=1e-12)
    assert "friedman_p" in capsys.readouterr().out


def test_disparity_matches_the_library(preds, tmp_path, capsys):
    df, path = preds
    out = tmp_path / "gaps.csv"
    argv = ["disparity", str(path), "--label", "y", "--score", "m1", "m2", "--group", "fold"]
    argv += ["--n-boot", "100", "--reference", "1", "--baseline", "m1", "--out", str(out)]
    assert main(argv) == 0
    got = pd.read_csv(out)
    ref = prn.disparity(
        df, score=["m1", "m2"], label="y", group="fold", n_boot=100, seed=0, reference=1,
        baseline="m1",
    )  # fmt: skip
    cols = ["estimate", "ci_low", "ci_high", "difference", "difference_low", "p_value"]
    np.testing.assert_allclose(got[cols], ref[cols], rtol=1e-12)
    assert "gaps to 1" in capsys.readouterr().out
    assert main(["disparity", str(path), "--label", "y", "--score", "m1", "--group", "nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_normalize_on_the_command_line(preds, tmp_path):
    df, path = preds
    base = [str(path), "--label", "y", "--score", "m1", "m2", "--normalize"]
    got = _cli_csv(["auc", *base, "--method", "ap"], tmp_path)
    ref = prn.auc(df, score=["m1", "m2"], label="y", method="ap", normalize=True)
    np.testing.assert_allclose(got.auc, ref.auc, rtol=1e-12)
    got = _cli_csv(["compare", *base, "--n-boot", "50"], tmp_path)
    assert got.method[0] == "dg, normalized"
