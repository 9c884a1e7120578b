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
            ["curve", "{path}", "--label", "y", "--score", "m1", "--bands", "--curve", "roc"],
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
