"""The Poisson bootstrap of Dask input through score ranges (continuous scores).

Forced onto the range path (dask config ``prroc_numba.dask_exact = "ranges"``), or
chosen by ``"auto"`` when the merged replicate table would be too large, the Dask
bootstrap must equal the in-memory ``resampling="poisson"`` one (same seed, same rows;
itself checked against naive.py and the multinomial bootstrap elsewhere) in every
replicate and interval -- to the bit with unweighted 0/1 labels, else to 1e-12 --
with the same warnings: continuous scores, scores tied across partitions and range
cuts, ``by`` groups, 2-3 models paired, weights, soft labels, a group without positives
and a tiny group whose replicates lose their only positive (NaN replicates, counted and
warned about as in memory).
"""

from __future__ import annotations

import warnings

import dask
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.engine_fixtures import client as client  # noqa: F401 (the LocalCluster fixture)
from tests.test_dask import TOL, _ddf, _run
from tests.test_dask import _frame as _tied_frame


def _frame(seed):
    """``_tied_frame`` (ties: ``a`` 12 values, ``b`` 2 decimals) plus continuous
    scores ``c``, ``d`` and a group ``z`` of 4 rows with one positive."""
    df = _tied_frame(seed=seed)
    rng = np.random.default_rng(seed + 100)
    df["c"] = df["y"] + rng.normal(size=len(df))
    df["d"] = 0.5 * df["y"] + rng.normal(size=len(df))
    df.loc[df.index[[3, 500, 900, 1200]], ["g", "y", "wt", "soft"]] = ["z", 1, 1.0, 0.9]
    df.loc[df.index[[500, 900, 1200]], "y"] = 0
    return df


RANGES = {"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": 7}

CASES = [  # (arguments, bootstrap options): each estimator, hull or not, once
    ({"score": "c", "label": "y", "by": "g"}, {"curve": "pr", "method": "dg"}),
    ({"score": ["c", "d", "a"], "label": "y", "by": "g", "weight": "wt"}, {"curve": "roc"}),
    ({"score": ["c", "a"], "label": "y"}, {"curve": "pr", "method": "ap", "hull": True}),
    (
        {"score": ["d", "b"], "label": "soft", "soft_labels": True, "by": "g"},
        {"curve": "pr", "method": "integral"},
    ),
    ({"score": "a", "label": "y", "weight": "wt"}, {"curve": "roc", "hull": True}),
    ({"score": ["b", "c"], "label": "y", "by": "g"}, {"curve": "pr", "method": "trapezoid"}),
]


def _same_bootstrap(df, ddf, kw, extra, seed):
    args = {**kw, **extra, "n_boot": 30, "seed": seed, "return_replicates": True}
    want, want_warn = _run(prn.bootstrap, df, **args, resampling="poisson")
    got, got_warn = _run(prn.bootstrap, ddf, **args, resampling="poisson")
    # 0/1 labels without weights: whole-number class totals, and each range continues
    # the higher ranges' area sum in sweep order -- the in-memory sums to the bit
    unit = kw.get("weight") is None and not kw.get("soft_labels") and not extra.get("hull")
    tol = {"check_dtype": False, "rtol": 0, "atol": 0} if unit else TOL
    for a, b in zip(got, want):  # the intervals, then every replicate
        pd.testing.assert_frame_equal(a, b, **tol)
    assert got_warn == want_warn
    return want, want_warn


@pytest.mark.parametrize("i", range(len(CASES)))
def test_range_bootstrap_equals_in_memory(client, i):
    df = _frame(seed=i)
    ddf = _ddf(df)
    kw, extra = CASES[i]
    with dask.config.set(RANGES):
        want, warned = _same_bootstrap(df, ddf, kw, extra, seed=i + 3)
    reps = want[1]["estimate"]
    assert reps.notna().any() and np.ptp(reps.dropna()) > 0  # real, varying replicates
    if kw.get("by") == "g" and kw["label"] == "y":  # 'w': no positives; 'z': one
        assert any("undefined" in w for w in warned)
        assert any("bootstrap replicates had no positives" in w for w in warned)


def test_range_compare_and_curves_equal_in_memory(client):
    """compare (3 models paired) and bootstrap_curve (hull or not) through the ranges."""
    df = _frame(seed=11)
    ddf = _ddf(df)
    kw = {"score": ["c", "d", "a"], "label": "y", "by": "g", "weight": "wt", "n_boot": 30}
    with dask.config.set(RANGES), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        for curve in ("pr", "roc"):
            pd.testing.assert_frame_equal(
                prn.compare(ddf, **kw, seed=5, curve=curve, resampling="poisson"),
                prn.compare(df, **kw, seed=5, curve=curve, resampling="poisson"),
                **TOL,
            )
        for hull, args in [(False, kw), (True, {"score": "c", "label": "y", "n_boot": 30})]:
            want = prn.bootstrap_curve(df, **args, seed=6, grid=21, hull=hull, resampling="poisson")
            got = prn.bootstrap_curve(ddf, **args, seed=6, grid=21, hull=hull, resampling="poisson")
            pd.testing.assert_frame_equal(got, want, **TOL)
            assert want["ci_low"].notna().sum() > 20


def test_auto_takes_the_ranges_instead_of_raising(client):
    """Above dask_table_max entries "auto" runs the ranges; "table" says how to fix it."""
    df = _frame(seed=7)
    ddf = _ddf(df)
    kw = {"score": ["c", "d"], "label": "y", "by": "g"}
    with dask.config.set({"prroc_numba.dask_table_max": 100}):
        _same_bootstrap(df, ddf, kw, {"curve": "roc"}, seed=1)
        with (
            dask.config.set({"prroc_numba.dask_exact": "table"}),
            pytest.raises(ValueError, match="round them first.*dask_exact"),
        ):
            prn.bootstrap(ddf, **kw, n_boot=5, seed=0, resampling="poisson")
    # below it, "auto" merges the table from the same rows
    _same_bootstrap(df, ddf, {"score": "a", "label": "y", "by": "g"}, {"curve": "pr"}, seed=2)


def test_range_rows_cut_on_score_values(client):
    """Every value row lands in one range, a tied score's rows all in the same one."""
    from prroc_numba._dask import ranges_poisson as _ranges_poisson

    df = _frame(seed=8)
    ddf = _ddf(df)
    kw = {
        "score": ["a", "c"],
        "label": "y",
        "by": "g",
        "weight": None,
        "pos_label": None,
        "soft_labels": False,
    }
    with dask.config.set({**RANGES, "prroc_numba.dask_ranges": 40}):
        st = _ranges_poisson.state(ddf, kw, 0, 3)
    ranges = dask.compute(*st.ranges)
    rows = np.concatenate([r[2] for r in ranges])
    assert np.array_equal(np.sort(rows), np.repeat(np.arange(len(df)), 2))
    blocks = sum(int(r[0][-1]) for r in ranges)
    assert blocks == prn.Accumulator().update(df, score=["a", "c"], label="y", by="g").n_entries
    per_curve = np.array([np.diff(r[0]) for r in ranges])  # (range, curve) tie blocks
    assert (per_curve == 0).any() and (per_curve == 1).any()  # 'a': 12 scores, 40 ranges
    assert np.all(np.diff(st.tp0, axis=0) >= 0)  # the scan runs down the scores


def test_held_rows_count_in_dask_memory_accounting():
    """A partition's held rows report their arrays to Dask (which spills by these
    sizes): the sum of the arrays' bytes, counted here from the arrays themselves."""
    from dask.sizeof import sizeof

    from prroc_numba._core.partitions import input_kw, partition_rows

    df = _frame(3)
    kw = input_kw(["c", "d"], "y", "g", None, None, False)
    _labels, rp = partition_rows(df, kw, 0)
    held = [rp.curve, rp.score, rp.pos, rp.neg, rp.row, rp.starts]
    want = sum(x.nbytes for x in held)
    assert want >= 2 * len(df) * 40  # 2 models: 40 bytes a row and model, and more
    assert want <= sizeof(rp) <= want + 1024
    rp.starts = None  # as the ranges keep them
    assert want - held[-1].nbytes <= sizeof(rp) <= want - held[-1].nbytes + 1024


def test_auto_path_follows_what_each_costs(client):
    """ "auto" keeps the merged table for few replicate masses or few distinct scores per
    row, and takes the ranges for continuous scores with many replicates (their table
    is as large as the rows times B); both give the in-memory replicates."""
    from prroc_numba._core.partitions import input_kw
    from prroc_numba._dask import ranges_poisson as rp

    assert rp._table_pays(1000, 1000, "c", 100)  # 1e5 masses: small
    assert not rp._table_pays(40_000, 20_000, ["c", "d"], 200)  # continuous, 8e6 masses
    assert rp._table_pays(40_000, 200_000, ["c", "d"], 200)  # a tenth of the value rows
    df = _frame(seed=12)
    ddf = _ddf(df)
    kw = input_kw(["c", "a"], "y", "g", None, None, False)
    assert isinstance(rp.state(ddf, kw, 1, 3000), rp.RowRanges)  # 3000 x 1500 x 2 masses
    assert not isinstance(rp.state(ddf, {**kw, "score": "a"}, 1, 3000), rp.RowRanges)
    assert not isinstance(rp.state(ddf, kw, 1, 30), rp.RowRanges)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        args = {"score": ["c", "a"], "label": "y", "by": "g", "n_boot": 3000, "seed": 1}
        got = prn.bootstrap(ddf, **args, resampling="poisson", return_replicates=True)
        want = prn.bootstrap(df, **args, resampling="poisson", return_replicates=True)
    for a, b in zip(got, want):
        pd.testing.assert_frame_equal(a, b, check_dtype=False, rtol=0, atol=0)
