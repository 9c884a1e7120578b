"""Dask frames as data, on a real distributed LocalCluster (2 worker processes).

Every result is compared with the in-memory call on the same rows (itself checked
against the oracles, scikit-learn and naive.py elsewhere) to 1e-12, on frames built to
hit the edges: many partitions, partitions holding one row or none, scores tied across
partition boundaries, groups spread over every partition, weights, soft labels and a
group without positives.
"""

from __future__ import annotations

import itertools
import warnings

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.engine_fixtures import client as client  # noqa: F401 (the LocalCluster)
from tests.engine_fixtures import edge_frame

TOL = {"check_exact": False, "rtol": 0, "atol": 1e-12}


def _frame(n=1500, seed=0):
    return edge_frame(n, seed, "soft")


def _ddf(df):
    """Uneven partitions: many, one of one row, two empty, a tie across boundaries."""
    cuts = [0, 1, 1, 40, 41, 300, 300, 700, 701, 1100, 1499, len(df)]
    parts = [df.iloc[a:b] for a, b in itertools.pairwise(cuts)]
    return dd.from_delayed([dask.delayed(p) for p in parts], meta=df.iloc[:0], verify_meta=False)


LONG = {"score": "a", "label": "y", "by": "g"}
WIDE = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "wt"}
SOFT = {"score": ["b", "a"], "label": "soft", "soft_labels": True}


def _run(fn, data, **kw):
    """Result and the warnings' messages."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        out = fn(data, **kw)
        if hasattr(out, "compute"):
            out = out.compute().reset_index(drop=True)
    return out, sorted(str(w.message) for w in rec)


def _same(fn, df, ddf, tol=TOL, **kw):
    """The Dask result equals the in-memory one, with the same warnings."""
    want, want_warn = _run(fn, df, **kw)
    got, got_warn = _run(fn, ddf, **kw)
    pd.testing.assert_frame_equal(got, want, **tol)
    assert got_warn == want_warn
    return want_warn


CALLS = [  # (function, extra arguments): every option once over the three inputs
    (prn.auc, {"curve": "pr", "method": "dg"}),
    (prn.auc, {"curve": "roc", "hull": True}),
    (prn.auc, {"curve": "pr", "method": "integral", "hull": True}),
    (prn.auc, {"curve": "pr", "method": "ap"}),
    (prn.metrics, {"metrics": ("auc_pr", "auc_roc_hull", "ap", "n_pos", "prevalence")}),
    (prn.roc_curve, {}),
    (prn.pr_curve, {}),
    (prn.confusion, {}),
    (prn.roc_curve, {"hull": True}),
    (prn.pr_curve, {"hull": True, "interpolate": "dg"}),
    (prn.confusion, {"thresholds": [0.5, 1.0, 2.0]}),
]


@pytest.mark.parametrize(
    "i, kw", list(enumerate([LONG, WIDE, SOFT])), ids=["long", "wide-weights", "soft"]
)
def test_areas_and_curves_equal_in_memory(client, i, kw):
    df = _frame()
    ddf = _ddf(df)
    assert ddf.npartitions == 11
    for k, (fn, extra) in enumerate(CALLS):
        if (k + i) % 3:  # each call on two of the three inputs
            w = _same(fn, df, ddf, **kw, **extra)
            if fn in (prn.auc, prn.metrics):
                assert bool(w) == (kw["label"] == "y")  # group 'w' has no positives
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        assert isinstance(prn.roc_curve(ddf, **kw), dd.DataFrame)  # raw curves stay lazy


def test_poisson_bootstrap_equals_in_memory(client):
    df = _frame(seed=1)
    ddf = _ddf(df)
    kw = {**WIDE, "n_boot": 25, "seed": 4}
    mem, w_mem = _run(prn.bootstrap, df, **kw, resampling="poisson", return_replicates=True)
    dsk, w_dsk = _run(prn.bootstrap, ddf, **kw, resampling="poisson", return_replicates=True)
    assert w_mem == w_dsk and w_mem
    for a, b in zip(mem, dsk):
        pd.testing.assert_frame_equal(b, a, **TOL)
    kw = {"score": ["a", "b"], "label": "soft", "soft_labels": True, "n_boot": 25, "seed": 2}
    pd.testing.assert_frame_equal(
        prn.compare(ddf, **kw, resampling="poisson"),
        prn.compare(df, **kw, resampling="poisson"),
        **TOL,
    )
    pd.testing.assert_frame_equal(
        prn.bootstrap_curve(ddf, **kw, grid=11, resampling="poisson"),
        prn.bootstrap_curve(df, **kw, grid=11, resampling="poisson"),
        **TOL,
    )


def test_the_dask_default_resampling_is_warned_about(client):
    """Dask's default (unstratified Poisson) differs from the in-memory default
    (stratified multinomial): a warning says so and how to get identical numbers, which
    resampling='poisson' in memory gives."""
    from prroc_numba._options.draws import DaskResamplingWarning

    df = _frame(seed=2)
    ddf = _ddf(df)
    kw = {"score": "a", "label": "y", "n_boot": 20, "seed": 1}
    with pytest.warns(DaskResamplingWarning, match=r"resampling='poisson' gives identical") as rec:
        got = prn.bootstrap(ddf, **kw)
    assert rec[0].filename == __file__  # points at the caller's line
    pd.testing.assert_frame_equal(got, prn.bootstrap(df, **kw, resampling="poisson"), **TOL)
    assert not got.equals(prn.bootstrap(df, **kw))  # the in-memory default differs
    assert (got["resampling"] == "poisson").all()
    for f, extra in [(prn.compare, {"score": ["a", "b"]}), (prn.bootstrap_curve, {"grid": 5})]:
        with pytest.warns(DaskResamplingWarning):
            f(ddf, **{**kw, **extra})


def test_errors_name_the_fix(client):
    df = _frame()
    ddf = _ddf(df)
    with pytest.raises(ValueError, match="does not keep the class counts fixed"):
        prn.bootstrap(ddf, score="a", label="y", stratified=True)
    with pytest.raises(ValueError, match="needs all rows in one place"):
        prn.bootstrap(ddf, score="a", label="y", resampling="multinomial")
    with pytest.raises(ValueError, match="jackknife"):
        prn.bootstrap(ddf, score="a", label="y", interval="bca")
    with pytest.raises(ValueError, match="test='bootstrap'"):
        prn.compare(ddf, score=["a", "b"], label="y", curve="roc", test="delong")
    with pytest.raises(TypeError, match="add them as columns"):
        prn.auc(ddf, score=df["a"].to_numpy(), label="y")
    with pytest.raises(ValueError, match="not a column"):
        prn.auc(ddf, score="nope", label="y")
    with (
        dask.config.set({"prroc_numba.dask_table_max": 100, "prroc_numba.dask_exact": "table"}),
        pytest.raises(ValueError, match="round them first"),
    ):  # the Poisson replicate state would outgrow the workers ("auto": the ranges)
        prn.bootstrap(ddf, score="b", label="y", n_boot=5, seed=0, resampling="poisson")
    bad = _ddf(df.assign(y=np.where(np.arange(len(df)) < 700, df["y"], df["y"] * 2 - 1)))
    with pytest.raises(ValueError, match="labels must be"):  # {0, 1} + {-1, 1} partitions
        prn.auc(bad, score="a", label="y")


def test_core_import_does_not_import_dask():
    import subprocess
    import sys

    code = "import prroc_numba, sys; assert 'dask' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------ the range-partitioned path

RANGE_CALLS = [
    (curve, method, hull)
    for curve, method in [
        ("pr", "dg"),
        ("pr", "ap"),
        ("pr", "integral"),
        ("pr", "trapezoid"),
        ("roc", "trapezoid"),
    ]
    for hull in (False, True)
]


@pytest.mark.parametrize(
    "kw, k",
    [(LONG, 60), (WIDE, 3), (SOFT, 60), ({"score": "b", "label": "y"}, 1)],
    ids=["long-60", "wide-3", "soft-60", "one-1"],
)
def test_range_path_equals_in_memory(client, kw, k):
    """Forced ranges: few ranges, and many (empty ranges, ranges of one score, the
    12 distinct values of 'a' tied across partitions and range cuts)."""
    df = _frame(seed=3)
    ddf = _ddf(df)
    with dask.config.set({"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": k}):
        for curve, method, hull in RANGE_CALLS:
            _same(prn.auc, df, ddf, **kw, curve=curve, method=method, hull=hull)


def test_ranges_cut_on_score_values(client):
    """Every distinct (curve, score) lands in exactly one range, whatever the cuts."""
    from prroc_numba._dask import partitions as _dask
    from prroc_numba._dask import ranges as _ranges

    df = _frame(seed=5)
    ddf = _ddf(df)
    for args, k in [(WIDE, 40), ({"score": "a", "label": "y"}, 40)]:
        kw = _dask._kw(
            {"by": None, "weight": None, **args, "pos_label": None, "soft_labels": False}
        )
        items = dask.persist(
            *[dask.delayed(_dask.reduce_partition)(p, kw) for p in ddf.to_delayed()]
        )
        state = _ranges.RangeState(items, ddf.npartitions, k)
        sizes = [int(t[0][-1]) for t in dask.compute(*state.tables)]
        assert sum(sizes) == prn.Accumulator().update(df, **args).n_entries
    assert 0 in sizes and 1 in sizes  # 12 distinct scores in 40 ranges: empty and single
    assert np.all(np.diff(state.tp0, axis=0) >= 0)  # the scan runs down the scores


def test_auto_choice_and_bad_setting(client):
    df = _frame(seed=6)
    ddf = _ddf(df)
    kw = {"score": "b", "label": "y", "by": "g"}
    with dask.config.set({"prroc_numba.dask_table_max": 10}):  # above it: ranges
        _same(prn.auc, df, ddf, **kw, hull=True)
    with (
        dask.config.set({"prroc_numba.dask_exact": "sometimes"}),
        pytest.raises(ValueError, match="'auto', 'table' or 'ranges'"),
    ):
        prn.auc(ddf, **kw)


@pytest.mark.parametrize(
    "kw, k",
    [(LONG, 60), (WIDE, 3), (SOFT, 60), ({"score": "b", "label": "y"}, 1)],
    ids=["long-60", "wide-3", "soft-60", "one-1"],
)
def test_range_path_raw_curves_equal_in_memory(client, kw, k):
    """Raw curves through the ranges: a lazy frame (one partition per curve and
    non-empty range), curve by curve as in memory, equal to the in-memory rows (to
    1e-12 relative; fn = P - tp near 0 to 1e-12 of the total weight, 1500)."""
    df = _frame(seed=3)
    ddf = _ddf(df)
    tol = {"check_exact": False, "rtol": 1e-12, "atol": 1e-12 * len(df)}
    with dask.config.set({"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": k}):
        for fn in (prn.roc_curve, prn.pr_curve, prn.confusion):
            want, want_warn = _run(fn, df, **kw)
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                lazy = fn(ddf, **kw)
            assert isinstance(lazy, dd.DataFrame)
            assert sorted(str(w.message) for w in rec) == want_warn
            got = lazy.compute().reset_index(drop=True)
            pd.testing.assert_frame_equal(got, want, **tol)


RANGE_RESULTS = [  # everything else that the ranges answer without the merged table
    (prn.metrics, {"metrics": ("auc_pr", "auc_roc_hull", "ap", "n_pos", "prevalence")}),
    (
        prn.metrics,
        {
            "metrics": (
                "auc_pr_integral_hull",
                "auc_pr_trapezoid",
                "auc_roc",
                "n_neg",
                "auc_pr_hull",
                "ap_hull",
            )
        },
    ),
    (prn.metrics, {"metrics": ("n_pos", "auc_pr_integral")}),
    (prn.roc_curve, {"hull": True}),
    (prn.pr_curve, {"hull": True}),
    (prn.pr_curve, {"hull": True, "interpolate": "dg"}),
    (prn.confusion, {"thresholds": [0.5, 1.0, 2.0]}),
    (prn.confusion, {"thresholds": [np.inf, 2.0, 0.75, 0.75, -np.inf]}),
    (prn.roc_curve, {"thresholds": [1.3, 0.25, -1.0]}),
    (prn.pr_curve, {"thresholds": [3.0, 0.5, 0.0]}),
]


@pytest.mark.parametrize(
    "kw, k",
    [(LONG, 60), (WIDE, 3), (SOFT, 60), ({"score": "b", "label": "y"}, 1)],
    ids=["long-60", "wide-3", "soft-60", "one-1"],
)
def test_range_path_metrics_hulls_thresholds_equal_in_memory(client, kw, k):
    """metrics (every estimator, hull or not, and the counts), the hull curves (their
    thresholds too) and counts at given thresholds (ties at the thresholds, +-inf, a
    threshold given twice), forced through the ranges. Counts are sums of soft masses
    added in another order: equal to 1e-12 relative, ratios to 1e-12; confusion's fn =
    P - tp near 0 to 1e-12 of the total weight (1500), as for the raw curves."""
    df = _frame(seed=3)
    ddf = _ddf(df)
    tol = {"check_exact": False, "rtol": 1e-12, "atol": 1e-12}
    counts = {**tol, "atol": 1e-12 * len(df)}
    with dask.config.set({"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": k}):
        for fn, extra in RANGE_RESULTS:
            _same(fn, df, ddf, tol=counts if fn is prn.confusion else tol, **kw, **extra)


def test_range_path_per_curve_thresholds(client):
    """thresholds= as a frame (the tuning-set method): a hull taken on other data."""
    df, tune = _frame(seed=3), _frame(seed=8)
    ddf = _ddf(df)
    kw = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "wt"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        hull = prn.roc_curve(tune, **kw, hull=True)
    with dask.config.set({"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": 7}):
        for fn in (prn.confusion, prn.roc_curve, prn.pr_curve):
            _same(fn, df, ddf, tol={**TOL, "rtol": 1e-12}, **kw, thresholds=hull)


def test_ranges_sized_by_entries(client):
    """Without dask_ranges, K follows the data's size (about dask_range_rows entries a
    range): here many more ranges than partitions, and the results stay exact; a bad
    setting is an error naming it."""
    from dask.sizeof import sizeof

    from prroc_numba._dask import partitions as _dask
    from prroc_numba._dask import ranges as _ranges

    df = _frame(seed=4)
    ddf = _ddf(df)
    config = {"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_range_rows": 20}
    with dask.config.set(config):
        kw = _dask._kw(
            {"by": None, "weight": None, **WIDE, "pos_label": None, "soft_labels": False}
        )
        items = dask.persist(
            *[dask.delayed(_dask.reduce_partition)(p, kw) for p in ddf.to_delayed()]
        )
        state = _ranges.RangeState(items, ddf.npartitions)
        acc = prn.Accumulator().update(df, **WIDE)
        n = acc.n_entries
        # Dask's memory accounting (what a worker spills) sees the arrays
        assert sizeof((acc, None)) >= 32 * n
        # the entries counted per partition (a score tied across partitions counts in
        # each): an upper bound of the merged table's, known before any merge
        per_part = sum(dask.compute(*[dask.delayed(_dask._n_entries)(it) for it in items]))
        assert per_part >= n
        assert state.K == -(-per_part // 20) > 3 * ddf.npartitions
        sizes = [int(t[0][-1]) for t in dask.compute(*state.tables)]
        assert sum(sizes) == n
        for fn, extra in [
            (prn.auc, {"curve": "pr", "method": "dg"}),
            (prn.auc, {"curve": "roc", "hull": True}),
            (prn.metrics, {"metrics": ("auc_pr", "auc_roc", "auc_roc_hull", "ap")}),
            (prn.roc_curve, {"hull": True}),
        ]:
            _same(fn, df, ddf, tol={**TOL, "rtol": 1e-12}, **WIDE, **extra)
    with (
        dask.config.set({**config, "prroc_numba.dask_range_rows": 0}),
        pytest.raises(ValueError, match="dask_range_rows"),
    ):
        prn.auc(ddf, **LONG)
