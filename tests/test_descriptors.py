"""Every result frame names what produced its numbers: ``curve`` and ``method`` (and
``interval``, ``resampling``, ``n_boot`` for intervals), right after the key columns."""

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

BOOT = ["curve", "method", "interval", "resampling", "n_boot"]


@pytest.fixture(scope="module")
def df():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    return pd.DataFrame(
        {
            "y": y,
            "m1": rng.random(300) + 0.5 * y,
            "m2": rng.random(300) + 0.2 * y,
            "g": np.repeat(["a", "b"], 150),
        }
    )


def test_auc_names_curve_and_method(df):
    kw = {"score": ["m1", "m2"], "label": "y", "by": "g"}
    got = prn.auc(df, **kw)
    assert list(got.columns) == ["g", "model", "curve", "method", "auc"]
    assert set(got.curve) == {"pr"} and set(got.method) == {"dg"}
    for method in ("ap", "integral", "trapezoid"):
        assert set(prn.auc(df, **kw, method=method).method) == {method}
    assert set(prn.auc(df, **kw, curve="roc", hull=True).method) == {"trapezoid_hull"}
    part = prn.auc(df, **kw, curve="roc", partial=(0, 0.1), standardize=True)
    assert set(part.method) == {"trapezoid, fpr 0-0.1, standardized"}
    part = prn.auc(df, **kw, method="ap", partial=(0.5, 1))
    assert set(part.method) == {"ap, recall 0.5-1"}


def test_bootstrap_and_compare_name_the_interval_and_resampling(df):
    kw = {"score": ["m1", "m2"], "label": "y", "n_boot": 20, "seed": 0}
    got = prn.bootstrap(df, **kw)
    assert list(got.columns)[:6] == ["model", *BOOT]
    row = got.iloc[0]
    assert (row.curve, row.method, row.interval, row.resampling, row.n_boot) == (
        "pr",
        "dg",
        "percentile",
        "stratified",
        20,
    )
    assert set(prn.bootstrap(df, **kw, stratified=False).resampling) == {"unstratified"}
    assert set(prn.bootstrap(df, **kw, resampling="poisson").resampling) == {"poisson"}
    clus = prn.bootstrap(df, **kw, cluster=np.arange(len(df)) // 3, stratified=False)
    assert set(clus.resampling) == {"unstratified cluster"}
    assert set(prn.bootstrap(df, **kw, interval="basic").interval) == {"basic"}
    cmp = prn.compare(df, **kw, curve="roc")
    assert list(cmp.columns)[:7] == ["model_a", "model_b", *BOOT]
    dl = prn.compare(df, score=["m1", "m2"], label="y", curve="roc", test="delong")
    assert list(dl.columns)[:5] == ["model_a", "model_b", "curve", "method", "interval"]
    assert dl.interval.iloc[0] == "delong" and "n_boot" not in dl.columns


def test_closed_form_and_bands(df):
    ci = prn.auc_ci(df, score="m1", label="y", by="g", ci="binomial")
    assert list(ci.columns) == [
        "g",
        "curve",
        "method",
        "interval",
        "estimate",
        "ci_low",
        "ci_high",
    ]
    assert ci.interval.iloc[0] == "binomial"
    dl = prn.auc_ci(df, score="m1", label="y", curve="roc", ci="delong")
    assert list(dl.columns[:3]) == ["curve", "method", "interval"]
    assert prn.delong(df, score="m1", label="y").interval.iloc[0] == "delong"
    bands = prn.bootstrap_curve(df, score="m1", label="y", n_boot=20, seed=0, grid=5)
    assert list(bands.columns[:4]) == ["curve", "interval", "resampling", "n_boot"]


def test_a_key_column_of_the_same_name_is_kept(df):
    """A ``by`` column called ``method`` stays the user's key (ours is left out)."""
    long = df.melt(id_vars=["y"], value_vars=["m1", "m2"], var_name="method", value_name="s")
    got = prn.auc(long, score="s", label="y", by="method")
    assert list(got.columns) == ["method", "curve", "auc"]
    assert got.method.tolist() == ["m1", "m2"]


def test_plots_treat_the_descriptors_as_values(df):
    """The plots take the columns before the first value column as keys: the descriptors
    must not become part of a curve's name."""
    from prroc_numba.plot._common import _key_columns

    boot = prn.bootstrap(df, score=["m1", "m2"], label="y", n_boot=20, seed=0)
    assert _key_columns(boot, None) == ["model"]
    bands = prn.bootstrap_curve(df, score="m1", label="y", by="g", n_boot=20, seed=0, grid=5)
    assert _key_columns(bands, None) == ["g"]


def test_operating_point_intervals_name_their_bootstrap(df):
    op = prn.operating_points(df, score="m1", label="y", n_boot=20, seed=0)
    assert list(op.columns[:4]) == ["interval", "resampling", "n_boot", "target"]
    assert (op.interval.iloc[0], op.resampling.iloc[0], op.n_boot.iloc[0]) == (
        "percentile",
        "stratified",
        20,
    )
    assert "interval" not in prn.operating_points(df, score="m1", label="y").columns
    # such a frame still serves as thresholds= for other data
    again = prn.operating_points(df, score="m1", label="y", thresholds=op)
    assert again["threshold"].tolist() == op["threshold"].tolist()
