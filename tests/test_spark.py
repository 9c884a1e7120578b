"""Spark DataFrames as data, on a real local SparkSession (the ``spark`` fixture).

Every result is compared with the in-memory call on the same rows (itself checked
against the oracles, scikit-learn and naive.py elsewhere), exactly: the frames are
built so that every sum is exact (integer counts, weights in halves), to hit the edges
(partitions holding no row, scores tied across partitions, groups spread over every
partition, a group without positives, weights with zeros).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.engine_fixtures import edge_frame

EXACT = {"check_exact": True}
#: the score ranges add area sums range by range: equal to rounding
ROUNDED = {"check_exact": False, "rtol": 0, "atol": 1e-12}


def _frame(n=1200, seed=0):
    return edge_frame(n, seed, "rid")


def _sdf(spark, df, partitions=6):
    """A Spark frame of ``df``'s rows, range partitioned by row id (some partitions
    left empty), cached."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        sdf = spark.createDataFrame(df)
    # 6 ranges of the row ids plus 2 empty partitions
    return sdf.repartitionByRange(partitions, "rid").union(sdf.limit(0)).cache()


@pytest.fixture(scope="module")
def data(spark):
    df = _frame()
    return df, _sdf(spark, df)


def _run(fn, data, **kw):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        out = fn(data, **kw)
    msgs = [str(w.message) for w in rec if "PySpark does not yet" not in str(w.message)]
    return out, sorted(msgs)


def _same(fn, df, sdf, tol=EXACT, **kw):
    want, want_warn = _run(fn, df, **kw)
    got, got_warn = _run(fn, sdf, **kw)
    pd.testing.assert_frame_equal(got, want, **tol)
    assert got_warn == want_warn
    return want_warn


LONG = {"score": "a", "label": "y", "by": "g"}
WIDE = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "wt"}

CALLS = [
    (prn.auc, {"curve": "pr", "method": "dg"}),
    (prn.auc, {"curve": "roc", "hull": True}),
    (prn.auc, {"curve": "pr", "method": "integral", "hull": True}),
    (prn.metrics, {"metrics": ("auc_pr", "auc_roc_hull", "ap", "n_pos", "prevalence")}),
    (prn.roc_curve, {}),
    (prn.pr_curve, {}),
    (prn.confusion, {}),
    (prn.pr_curve, {"hull": True, "interpolate": "dg"}),
    (prn.confusion, {"thresholds": [0.5, 1.0, 2.0]}),
    (prn.operating_points, {"targets": ["max_f1", "recall>=0.5"]}),
]


@pytest.mark.parametrize("kw", [LONG, WIDE], ids=["long-ties", "wide-weights"])
def test_every_function_equals_in_memory(data, kw):
    df, sdf = data
    for fn, extra in CALLS:
        w = _same(fn, df, sdf, **kw, **extra)
        if fn in (prn.auc, prn.metrics):
            assert w  # group 'w' has no positives: warned, as in memory
    # thresholds chosen on one set (here: in memory), applied to the Spark rows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        tune = prn.roc_curve(df, **kw, hull=True)
        tune_op = prn.operating_points(df.iloc[::2], **kw)
    _same(prn.roc_curve, df, sdf, **kw, thresholds=tune)
    _same(prn.operating_points, df, sdf, **kw, thresholds=tune_op)


def test_range_path_equals_in_memory(spark, data):
    """Above the size (forced here: 'ranges', 3 score ranges) the driver gets per-range
    totals and sums only; the results are the same."""
    df, sdf = data
    spark.conf.set("prroc_numba.spark_exact", "ranges")
    spark.conf.set("prroc_numba.spark_ranges", "3")
    try:
        _same(prn.auc, df, sdf, ROUNDED, **WIDE, curve="pr")
        _same(prn.metrics, df, sdf, ROUNDED, **LONG, metrics=("auc_pr", "auc_roc", "auc_pr_hull"))
        _same(prn.confusion, df, sdf, **WIDE, thresholds=[0.5, 1.0, 2.0])
        _same(prn.pr_curve, df, sdf, **LONG, hull=True)
        with pytest.raises(ValueError, match="needs every distinct score in one place"):
            prn.roc_curve(sdf, **LONG)
    finally:
        spark.conf.unset("prroc_numba.spark_exact")
        spark.conf.unset("prroc_numba.spark_ranges")
    spark.conf.set("prroc_numba.spark_exact", "nope")
    try:
        with pytest.raises(ValueError, match="must be 'auto', 'table', 'partitions' or 'ranges'"):
            prn.auc(sdf, **LONG)
    finally:
        spark.conf.unset("prroc_numba.spark_exact")


def test_poisson_bootstrap_equals_in_memory_whatever_the_partitioning(spark, data):
    """Keyed by the row-id column, the replicates are the in-memory resampling='poisson'
    ones for the same seed, on 6 range partitions, on 3 hash partitions, and through
    the score ranges."""
    df, sdf = data
    kw = {**WIDE, "n_boot": 30, "seed": 4, "resampling": "poisson"}
    want, _ = _run(prn.bootstrap, df, **kw, return_replicates=True)
    shuffled = sdf.repartition(3, "g")
    for frame in (sdf, shuffled):
        got, _ = _run(prn.bootstrap, frame, **kw, row_id="rid", return_replicates=True)
        for a, b in zip(got, want):
            pd.testing.assert_frame_equal(a, b, **EXACT)
    spark.conf.set("prroc_numba.spark_exact", "ranges")
    spark.conf.set("prroc_numba.spark_ranges", "4")
    try:
        got, _ = _run(prn.bootstrap, shuffled, **kw, row_id="rid", return_replicates=True)
    finally:
        spark.conf.unset("prroc_numba.spark_exact")
        spark.conf.unset("prroc_numba.spark_ranges")
    for a, b in zip(got, want):  # area sums added range by range: to rounding
        pd.testing.assert_frame_equal(a, b, **ROUNDED)
    ckw = {"score": ["a", "b"], "label": "y", "n_boot": 30, "seed": 2, "resampling": "poisson"}
    pd.testing.assert_frame_equal(
        prn.compare(sdf, **ckw, row_id="rid"), prn.compare(df, **ckw), **EXACT
    )


def test_the_spark_default_resampling_is_warned_about(data):
    from prroc_numba._options.draws import DaskResamplingWarning, SparkResamplingWarning

    df, sdf = data
    kw = {"score": "a", "label": "y", "n_boot": 20, "seed": 1}
    with pytest.warns(SparkResamplingWarning, match=r"resampling='poisson' gives identical") as r:
        got = prn.bootstrap(sdf, **kw, row_id="rid")
    assert r[0].filename == __file__  # points at the caller's line
    assert issubclass(SparkResamplingWarning, DaskResamplingWarning)
    pd.testing.assert_frame_equal(got, prn.bootstrap(df, **kw, resampling="poisson"), **EXACT)
    assert not got.equals(prn.bootstrap(df, **kw))  # the in-memory default differs


def test_errors_name_the_fix(spark, data):
    df, sdf = data
    with pytest.raises(ValueError, match="pass row_id="):
        prn.bootstrap(sdf, score="a", label="y", resampling="poisson")
    with pytest.raises(ValueError, match="row_id='nope' is not a column"):
        prn.bootstrap(sdf, score="a", label="y", resampling="poisson", row_id="nope")
    with pytest.raises(ValueError, match="row_id= names the row-id column of Spark input"):
        prn.bootstrap(df, score="a", label="y", resampling="poisson", row_id="rid")
    with pytest.raises(ValueError, match="whole non-negative row numbers"):
        prn.bootstrap(sdf, score="a", label="y", resampling="poisson", row_id="b")
    with pytest.raises(ValueError, match="does not keep the class counts fixed"):
        prn.bootstrap(sdf, score="a", label="y", stratified=True, row_id="rid")
    with pytest.raises(ValueError, match="needs all rows in one place"):
        prn.bootstrap(sdf, score="a", label="y", resampling="multinomial", row_id="rid")
    with pytest.raises(ValueError, match="jackknife over the rows, which Spark input"):
        prn.bootstrap(sdf, score="a", label="y", interval="bca", row_id="rid")
    with pytest.raises(ValueError, match="for Spark input use test='bootstrap'"):
        prn.compare(sdf, score=["a", "b"], label="y", curve="roc", test="delong")
    with pytest.raises(ValueError, match="operating_points with n_boot="):
        prn.operating_points(sdf, score="a", label="y", n_boot=10)
    with pytest.raises(ValueError, match="multiclass= is not available for Spark input"):
        prn.auc(sdf, score="a", label="y", multiclass="ovr")
    with pytest.raises(TypeError, match="add them as columns"):
        prn.auc(sdf, score=df["a"].to_numpy(), label="y")
    with pytest.raises(ValueError, match="'nope' is not a column of data"):
        prn.auc(sdf, score="nope", label="y")


def test_bad_rows_raise_the_in_memory_errors(spark, monkeypatch):
    """NaN scores, a string label and labels that differ between partitions: collected,
    the rows raise the in-memory call's own error (row numbers: the order Spark returned
    them in, here the frame's, and said); grouped by Spark (above COLLECT_FIRST), the executors'
    validation errors come back as that error, numbered within the partition."""
    import prroc_numba._spark.path as path
    from prroc_numba._spark.grouped import COLLECTED_ROWS

    df = _frame(n=300, seed=3)
    for bad, kw in [
        (df.assign(a=np.where(np.arange(300) == 250, np.nan, df["a"])), {}),
        (df.assign(y=np.where(df["y"] == 1, "yes", "no")), {}),
        (df.assign(y=np.where(np.arange(300) < 150, df["y"], df["y"] * 2 - 1)), {}),
    ]:
        with pytest.raises((ValueError, TypeError)) as want:
            prn.auc(bad, score="a", label="y", **kw)
        sdf = _sdf(spark, bad, 3)
        with pytest.raises(type(want.value)) as got:
            prn.auc(sdf, score="a", label="y", **kw)
        assert str(got.value) == f"{want.value} {COLLECTED_ROWS}"
        with monkeypatch.context() as m, pytest.raises(type(want.value)) as got:
            m.setattr(path, "COLLECT_FIRST", 0)
            prn.auc(sdf.alias("probed"), score="a", label="y", **kw)
        # the in-memory message, its row numbers counted within the Spark partition
        assert re.sub(r"\d+", "#", str(got.value)).startswith(re.sub(r"\d+", "#", str(want.value)))
        assert "in a partition of the Spark frame" in str(got.value)


def test_a_killed_python_worker_is_retried_and_the_result_is_exact(data, monkeypatch):
    """The first attempt of partition 0's task ends its Python worker (os._exit);
    Spark retries it (local[2,3]: up to 3 attempts) and the result is unchanged."""
    import prroc_numba._spark.wire as wing

    df, sdf = data
    monkeypatch.setattr(wing, "FAULT_FIRST_ATTEMPT", True)
    _same(prn.auc, df, sdf, **WIDE)
    kw = {**WIDE, "n_boot": 10, "seed": 1, "resampling": "poisson"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
        got, want = prn.bootstrap(sdf, **kw, row_id="rid"), prn.bootstrap(df, **kw)
    pd.testing.assert_frame_equal(got, want, **EXACT)


def test_core_import_does_not_import_pyspark():
    code = (
        "import prroc_numba, pandas, sys\n"
        "prroc_numba.auc(pandas.DataFrame({'s': [0.1, 0.9], 'y': [0, 1]}), score='s', "
        "label='y')\n"
        "assert 'pyspark' not in sys.modules and 'prroc_numba._spark' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_spark_frames_are_detected_without_importing_pyspark():
    from prroc_numba._backends import engine
    from prroc_numba._core.dataframes import is_native

    fake = type("DataFrame", (), {"__module__": "pyspark.sql.connect.dataframe"})()
    assert engine(fake) == "spark"
    sub = type("Mine", (type(fake),), {"__module__": "mine"})()
    assert engine(sub) == "spark"
    assert not is_native(fake)  # never collected by the generic frame conversion
    assert engine(pd.DataFrame()) == "memory"


def test_the_docs_page_runs(spark):
    """docs/spark.md's ``py`` blocks, in order, with this session as the reader's."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "spark.md"
    blocks = re.findall(r"```py\n(.*?)```", page.read_text(), flags=re.S)
    assert blocks
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        for block in blocks:
            exec(compile(block, str(page), "exec"), namespace)
    assert namespace["spark"] is spark  # getOrCreate() found the running session


def _no_partition_tasks(monkeypatch):
    """Make every partition task (mapInArrow) fail: what still runs is Spark's group-by."""
    import prroc_numba._spark.wire as wire

    def refuse(*args, **kwargs):
        raise AssertionError("a partition task ran: the rows reached Python workers")

    monkeypatch.setattr(wire, "map_in_arrow", refuse)


@contextlib.contextmanager
def _mode(spark, mode):
    spark.conf.set("prroc_numba.spark_exact", mode)
    try:
        yield
    finally:
        spark.conf.unset("prroc_numba.spark_exact")


@pytest.mark.parametrize(
    "kw, mode", [(LONG, "auto"), (WIDE, "table")], ids=["long-ties-auto", "wide-weights-table"]
)
def test_the_table_path_is_reduced_by_spark_and_exact(spark, data, kw, mode, monkeypatch):
    """Ties, weights (with zeros), groups, a group without positives, empty partitions:
    Spark's own group-by gives every result, equal to the in-memory one, no row ever
    reaching a Python worker ('auto' chooses it wherever it applies)."""
    import prroc_numba._spark.grouped as G
    import prroc_numba._spark.path as path

    df, sdf = data
    _no_partition_tasks(monkeypatch)
    monkeypatch.setattr(path, "COLLECT_FIRST", 0)  # small as they are, the rows are probed
    fetched = []
    real = G.fetch
    monkeypatch.setattr(G, "fetch", lambda *a, **k: fetched.append(1) or real(*a, **k))
    with _mode(spark, mode):
        for fn, extra in CALLS:
            _same(fn, df, sdf, **kw, **extra)
    assert len(fetched) >= len(CALLS)  # every call read Spark's grouped rows


@pytest.mark.parametrize("kw", [LONG, WIDE], ids=["long-ties", "wide-weights"])
def test_the_partition_path_equals_in_memory(spark, data, kw):
    """spark_exact='partitions': each partition reduced in a Python worker, the tables
    merged on the driver; the same results."""
    df, sdf = data
    with _mode(spark, "partitions"):
        for fn, extra in CALLS:
            _same(fn, df, sdf, **kw, **extra)


def test_float_weights_do_not_depend_on_the_partitioning(spark, monkeypatch):
    """Weights whose sums round: the grouped rows' masses are added in one sorted order
    on the driver, so three partitionings give the same bits; the in-memory call adds
    them in another order, equal to rounding."""
    df = _frame(n=900, seed=5).assign(wt=lambda d: np.random.default_rng(1).random(len(d)))
    sdf = _sdf(spark, df, 5)
    _no_partition_tasks(monkeypatch)
    kw = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "wt"}
    mkw = {"metrics": ("auc_pr", "auc_roc", "ap", "n_pos", "n_neg")}
    with _mode(spark, "table"), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
        got = [prn.metrics(f, **kw, **mkw) for f in (sdf, sdf.repartition(3), sdf.coalesce(1))]
        want = prn.metrics(df, **kw, **mkw)
        for other in got[1:]:
            pd.testing.assert_frame_equal(other, got[0], **EXACT)
        pd.testing.assert_frame_equal(got[0], want, check_exact=False, rtol=1e-12, atol=0)
        _same(prn.confusion, df, sdf, {"check_exact": False, "rtol": 1e-12, "atol": 1e-12}, **kw)


def test_checks_the_grouping_would_hide_still_raise(spark):
    """A negative weight that its group's other rows would outweigh, a NaN weight: each
    is a grouped row of its own, so the in-memory error is raised (from the partition
    holding the row)."""
    df = _frame(n=200, seed=6)
    neg = df.assign(wt=np.where(np.arange(200) == 7, -0.5, df["wt"] + 1.0))
    nan = df.assign(wt=np.where(np.arange(200) == 9, np.nan, df["wt"]))
    for bad in (neg, nan):
        with pytest.raises(ValueError) as want:
            prn.auc(bad, score="a", label="y", by="g", weight="wt")
        with _mode(spark, "table"), pytest.raises(ValueError) as got:
            prn.auc(_sdf(spark, bad, 3), score="a", label="y", by="g", weight="wt")
        assert re.sub(r"\d+", "#", str(got.value)).startswith(re.sub(r"\d+", "#", str(want.value)))
        assert "in a partition of the Spark frame" in str(got.value)


def test_what_the_group_by_cannot_read_takes_the_partition_path(spark, data, monkeypatch):
    """Soft labels and score columns of two types are reduced in the partitions;
    continuous scores (in 'auto') come to the driver as their columns (the group-by
    would move every row once more); above spark_table_max entries, 'auto' takes the
    score ranges, and says so."""
    import prroc_numba._spark.wire as wire
    from prroc_numba._warnings import SparkPathWarning

    df, sdf = data
    rng = np.random.default_rng(8)
    df = df.assign(
        p=np.where(df["y"] == 1, 0.75, 0.25),
        ai=(df["a"] * 4).astype(np.int32),
        c=df["y"] + rng.normal(size=len(df)),
    )
    sdf = _sdf(spark, df)
    calls = []
    real = wire.map_in_arrow
    monkeypatch.setattr(wire, "map_in_arrow", lambda *a: calls.append(1) or real(*a))
    _same(prn.auc, df, sdf, score="a", label="p", soft_labels=True)
    _same(prn.auc, df, sdf, score=["ai", "b"], label="y", by="g")
    assert len(calls) == 2
    _same(prn.metrics, df, sdf, score="c", label="y")  # continuous: the columns collected
    assert len(calls) == 2
    spark.conf.set("prroc_numba.spark_table_max", "20")
    try:
        with pytest.warns(SparkPathWarning, match="spark_table_max=20"):
            got = prn.auc(sdf, score="a", label="y")
    finally:
        spark.conf.unset("prroc_numba.spark_table_max")
    pd.testing.assert_frame_equal(got, prn.auc(df, score="a", label="y"), **ROUNDED)
    assert len(calls) > 2


@pytest.mark.parametrize("kind", ["distinct", "some_ties", "tied"])
def test_grouped_rows_reduce_to_the_table_of_their_rows(kind):
    """The driver's side of the group-by path on grouped rows built by pandas (no Spark):
    distinct scores (every count 1) and mostly distinct ones (a few counts of 2 or 3) are
    expanded back to unit rows, tied ones read as weighted rows; each gives exactly the
    Accumulator of the rows themselves, whatever order the grouped rows come in."""
    pa = pytest.importorskip("pyarrow")
    from prroc_numba._core.partitions import input_kw
    from prroc_numba._spark import grouped as G

    rng = np.random.default_rng(11)
    n = 20_000
    y = (rng.random(n) < 0.25).astype(int)
    s = rng.normal(size=n) + y
    if kind == "some_ties":
        s[::40] = s[1::40]
        s[2::97] = s[3::97]
    elif kind == "tied":
        s = np.round(s, 1)
    df = pd.DataFrame({"g": rng.choice(["u", "v"], n), "s": s, "y": y})
    grouped = df.groupby(["g", "s", "y"]).size().rename(G.N).reset_index()
    grouped = grouped.sample(frac=1, random_state=1)  # Spark's order is no order
    if kind == "distinct":
        assert grouped[G.N].max() == 1
    elif kind == "some_ties":
        assert 1 < grouped[G.N].max() and grouped[G.N].sum() <= 2 * len(grouped)
    else:
        assert grouped[G.N].sum() > 2 * len(grouped)
    table = pa.Table.from_pandas(grouped, preserve_index=False)
    acc = G.accumulate(table, input_kw("s", "y", "g", None, None, False), ["g"], None)
    ref = prn.Accumulator().update(df, score="s", label="y", by="g")
    pd.testing.assert_frame_equal(acc.table(), ref.table(), **EXACT)
    pd.testing.assert_frame_equal(
        acc.metrics(("auc_pr", "auc_roc")), ref.metrics(("auc_pr", "auc_roc")), **EXACT
    )
