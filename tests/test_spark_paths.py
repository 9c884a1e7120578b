"""Spark input: the path chosen before the work and said, and output="spark".

On the real local SparkSession of the ``spark`` fixture. The results are compared with
the in-memory call on the same rows (itself checked against the oracles, scikit-learn
and naive.py elsewhere); the path is read from ``attrs["spark_path"]``, the log line
from the ``prroc_numba.spark`` logger, and "before the work" is checked by making every
reduction fail (the group-by's fetch and the partition tasks): what a refused call runs
is the size estimate only.
"""

from __future__ import annotations

import logging
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from test_spark import EXACT, ROUNDED, _frame, _mode, _run, _sdf

import prroc_numba as prn
from prroc_numba._warnings import SparkPathWarning


@pytest.fixture(scope="module")
def data(spark):
    rng = np.random.default_rng(21)
    df = _frame(n=1500, seed=21)
    df = df.assign(c=df["y"] + rng.normal(size=len(df)), d=rng.random(len(df)))
    return df, _sdf(spark, df, 4)


def _no_reduction(monkeypatch):
    """Make every reduction fail: Spark's group-by fetch and every partition task."""
    import prroc_numba._spark.grouped as grouped
    import prroc_numba._spark.wire as wire

    def refuse(*args, **kwargs):
        raise AssertionError("a reduction ran")

    monkeypatch.setattr(wire, "map_in_arrow", refuse)
    monkeypatch.setattr(grouped, "fetch", refuse)


@pytest.mark.parametrize(
    "kw, path",
    [
        ({"score": "a", "by": "g"}, "table"),  # 12 tied scores, 1,500 rows: collected
        ({"score": "c", "by": "g"}, "table"),  # continuous: the columns collected
        ({"score": ["c", "d"], "by": "g"}, "table"),  # wide, continuous
        ({"score": "c", "by": "g", "weight": "wt"}, "table"),  # continuous, weighted: collected
        ({"score": "a", "by": "g", "weight": "wt"}, "table"),  # tied, weighted
    ],
    ids=["tied", "continuous", "wide-continuous", "continuous-weighted", "tied-weighted"],
)
def test_the_path_is_chosen_from_the_estimate_named_and_logged(data, kw, path, caplog):
    df, sdf = data
    with caplog.at_level(logging.INFO, logger="prroc_numba.spark"):
        got, got_warn = _run(prn.metrics, sdf, label="y", **kw)
    want, want_warn = _run(prn.metrics, df, label="y", **kw)
    pd.testing.assert_frame_equal(got, want, **EXACT)
    assert got_warn == want_warn  # no path warning below the limit
    assert got.attrs["spark_path"] == path
    lines = [r.getMessage() for r in caplog.records if r.name == "prroc_numba.spark"]
    assert len(lines) == 1 and f"metrics on Spark: the {path} path (" in lines[0]
    assert "1,500 rows" in lines[0]


def test_above_the_limit_the_ranges_are_warned_about_with_the_conf(spark, data):
    df, sdf = data
    spark.conf.set("prroc_numba.spark_table_max", "500")
    try:
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            got = prn.auc(sdf, score="c", label="y", by="g")
            want = prn.auc(df, score="c", label="y", by="g")
    finally:
        spark.conf.unset("prroc_numba.spark_table_max")
    rec = [w for w in rec if issubclass(w.category, SparkPathWarning)]
    assert len(rec) == 1 and rec[0].filename == __file__  # the caller's line
    msg = str(rec[0].message)
    assert "auc on Spark takes the score-range path" in msg
    assert "about 1,500 (curve, score) entries" in msg
    assert "prroc_numba.spark_table_max=500" in msg and "prroc_numba.spark_exact" in msg
    assert got.attrs["spark_path"] == "ranges"
    pd.testing.assert_frame_equal(got, want, **ROUNDED)


def test_a_raw_curve_above_the_limit_is_refused_before_any_reduction(spark, data, monkeypatch):
    _df, sdf = data
    _no_reduction(monkeypatch)
    spark.conf.set("prroc_numba.spark_table_max", "500")
    try:
        for call in (prn.pr_curve, prn.roc_curve, prn.confusion):
            with pytest.raises(ValueError, match=r"about 1,500 distinct \(curve, score\) entries"):
                call(sdf, score="c", label="y", by="g")
    finally:
        spark.conf.unset("prroc_numba.spark_table_max")
    with _mode(spark, "ranges"), pytest.raises(ValueError, match="spark_exact='ranges'"):
        prn.pr_curve(sdf, score="c", label="y")


def test_tied_scores_above_the_row_limit_are_counted_not_extrapolated(spark, data):
    """1,500 rows of 12 tied scores x 3 groups: the rows pass the limit, the entries
    (at most 36) do not -- the table path, no warning."""
    df, sdf = data
    spark.conf.set("prroc_numba.spark_table_max", "1000")
    try:
        got, msgs = _run(prn.auc, sdf, score="a", label="y", by="g")
    finally:
        spark.conf.unset("prroc_numba.spark_table_max")
    assert got.attrs["spark_path"] == "table"
    assert not any("score-range path" in m for m in msgs)
    pd.testing.assert_frame_equal(got, _run(prn.auc, df, score="a", label="y", by="g")[0], **EXACT)


@pytest.mark.parametrize("mode", ["table", "partitions", "ranges"])
def test_a_forced_path_is_named_and_not_warned_about(spark, data, mode):
    df, sdf = data
    with _mode(spark, mode):
        got, msgs = _run(prn.auc, sdf, score="a", label="y", by="g")
    assert got.attrs["spark_path"] == mode
    assert not any("score-range path" in m for m in msgs)
    want, _ = _run(prn.auc, df, score="a", label="y", by="g")
    pd.testing.assert_frame_equal(got, want, **ROUNDED)


def test_the_bootstrap_names_its_path(spark, data):
    df, sdf = data
    kw = {"score": "c", "label": "y", "n_boot": 20, "seed": 3, "resampling": "poisson"}
    got = prn.bootstrap(sdf, **kw, row_id="rid")
    assert got.attrs["spark_path"] == "partitions"
    spark.conf.set("prroc_numba.spark_replicate_max", "1000")
    try:
        with pytest.warns(SparkPathWarning, match="spark_replicate_max=1,000"):
            ranged = prn.bootstrap(sdf, **kw, row_id="rid")
    finally:
        spark.conf.unset("prroc_numba.spark_replicate_max")
    assert ranged.attrs["spark_path"] == "ranges"
    want = prn.bootstrap(df, **kw)
    pd.testing.assert_frame_equal(got, want, **EXACT)
    pd.testing.assert_frame_equal(ranged, want, **ROUNDED)


# ------------------------------------------------------------------ output="spark"

SPARK_CALLS = [
    (prn.auc, {"curve": "pr"}),
    (prn.metrics, {"metrics": ("auc_pr", "auc_roc", "n_pos")}),
    (prn.confusion, {"thresholds": [0.5, 1.0, 2.0]}),
    (prn.roc_curve, {}),
    (prn.pr_curve, {"hull": True}),
    (prn.operating_points, {"targets": ["max_f1"]}),
    (prn.bootstrap, {"n_boot": 10, "seed": 1, "resampling": "poisson", "row_id": "rid"}),
    (
        prn.compare,
        {"score": ["a", "b"], "n_boot": 10, "seed": 1, "resampling": "poisson", "row_id": "rid"},
    ),
]


@pytest.mark.parametrize("fn, extra", SPARK_CALLS, ids=[f.__name__ for f, _ in SPARK_CALLS])
def test_output_spark_is_a_spark_frame_of_the_same_rows(spark, data, fn, extra, tmp_path):
    from pyspark.sql import DataFrame

    df, sdf = data
    kw = {"score": "a", "label": "y", "by": "g", **extra}
    mem = {k: v for k, v in kw.items() if k != "row_id"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
        got = fn(sdf, **kw, output="spark")
        want = fn(df, **mem)
    assert isinstance(got, DataFrame)
    assert got.attrs["spark_path"] in ("table", "partitions")
    got.write.parquet(str(tmp_path / "out"))  # ready for .write
    back = pd.read_parquet(tmp_path / "out").sort_values(list(want.columns[:1]), kind="stable")
    back = back.reset_index(drop=True)
    want = want.sort_values(list(want.columns[:1]), kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(back, want, check_dtype=False, check_exact=True)


def test_output_spark_keeps_nan_and_needs_spark_input(data):
    df, sdf = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = prn.auc(sdf, score="a", label="y", by="g", output="spark").toArrow().to_pandas()
    assert got.loc[got["g"] == "w", "auc"].isna().all()  # NaN, not null: no positives
    with pytest.raises(ValueError, match="output='spark' gives a Spark DataFrame for Spark"):
        prn.auc(df, score="a", label="y", output="spark")
    polars = pytest.importorskip("polars")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        out = prn.operating_points(sdf, score="a", label="y", output="polars")
    assert isinstance(out, polars.DataFrame)


def test_help_describes_every_kind_of_data_in_every_public_function():
    """One description of ``data`` (pandas, polars, pyarrow, Dask, Spark) in the help
    of every public function taking scored rows (rank_models' data is a table of
    results, not of scored rows)."""
    import inspect

    from prroc_numba._docs import DATA

    seen = []
    for name in prn.__all__:
        f = getattr(prn, name)
        if inspect.isclass(f) or not callable(f) or name == "rank_models":
            continue
        if "data" in inspect.signature(f).parameters:
            seen.append(name)
            assert DATA.strip() in (f.__doc__ or ""), name
    assert {"auc", "metrics", "confusion", "roc_curve", "pr_curve", "operating_points"} <= set(seen)
    for kind in ("pandas", "polars", "pyarrow", "Dask", "pyspark.sql.DataFrame"):
        assert kind in DATA
    assert '"spark"' in prn.auc.__doc__  # output="spark"


def test_the_score_ranges_give_the_same_bits_on_every_run_and_partitioning(spark, data):
    """The range cuts follow from the values, not from the partitioning or the order in
    which an exchange delivers the rows; each range's rows are ordered by value before
    they are summed: reruns and repartitionings give identical numbers."""
    df, sdf = data
    frames = [sdf, sdf, sdf.repartition(3, "g"), sdf.coalesce(1), sdf.repartition(5)]
    kw = {"score": ["c", "b"], "label": "y", "by": "g"}
    mkw = {"metrics": ("auc_pr", "auc_pr_integral", "ap", "auc_roc", "auc_roc_hull")}
    bkw = {"score": "c", "label": "y", "n_boot": 20, "seed": 7, "resampling": "poisson"}
    spark.conf.set("prroc_numba.spark_ranges", "4")
    try:
        with _mode(spark, "ranges"), warnings.catch_warnings():
            warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
            got = [prn.metrics(f, **kw, **mkw) for f in frames]
            boots = [prn.bootstrap(f, **bkw, row_id="rid") for f in frames[1:4]]
            want = prn.metrics(df, **kw, **mkw)
    finally:
        spark.conf.unset("prroc_numba.spark_ranges")
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], **EXACT)
    for other in boots[1:]:
        pd.testing.assert_frame_equal(other, boots[0], **EXACT)
    assert got[0].attrs["spark_path"] == "ranges"
    pd.testing.assert_frame_equal(got[0], want, **ROUNDED)
    pd.testing.assert_frame_equal(boots[0], prn.bootstrap(df, **bkw), **ROUNDED)


def test_continuous_weights_are_summed_in_the_jvm_not_grouped_by(spark, data, monkeypatch):
    """Float weights (every row its own): the group-by's rows are one per (curve, score,
    label), the weights summed exactly as decimals -- as many grouped rows as without
    weights, the same bits on three partitionings, the in-memory result to rounding;
    a weight the decimal sum does not take (1e-9) has the rows grouped by the weight."""
    import prroc_numba._spark.grouped as G

    df, sdf = data
    rng = np.random.default_rng(2)
    df = df.assign(w=rng.random(len(df)) + 0.5, tiny=np.where(df["rid"] == 3, 1e-9, 1.0))
    sdf = _sdf(spark, df, 4)
    sizes = []
    real = G.fetch
    monkeypatch.setattr(G, "fetch", lambda *a, **k: sizes.append(real(*a, **k)) or sizes[-1])
    kw = {"score": "a", "label": "y", "by": "g"}
    mkw = {"metrics": ("auc_pr", "auc_pr_integral", "auc_roc", "n_pos", "n_neg")}
    with _mode(spark, "table"), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
        frames = (sdf, sdf.repartition(3), sdf.coalesce(1))
        got = [prn.metrics(f, **kw, **mkw, weight="w") for f in frames]
        want = prn.metrics(df, **kw, **mkw, weight="w")
        unweighted = prn.metrics(sdf, **kw, **mkw)
        tiny = prn.metrics(sdf, **kw, **mkw, weight="tiny")
        tiny_want = prn.metrics(df, **kw, **mkw, weight="tiny")
    n_groups = len(df[["g", "a", "y"]].drop_duplicates())
    assert [t.num_rows for t in sizes[:3]] == [n_groups] * 3  # never one per weight
    assert sizes[3].num_rows == n_groups
    assert sizes[4].num_rows > n_groups and "tiny" in sizes[4].column_names  # by value
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], **EXACT)
    pd.testing.assert_frame_equal(got[0], want, check_exact=False, rtol=1e-12, atol=0)
    assert not got[0].equals(unweighted)
    pd.testing.assert_frame_equal(tiny, tiny_want, check_exact=False, rtol=1e-12, atol=0)


def test_the_collected_columns_answer_every_function_and_give_their_table(data):
    """Continuous scores take the columns collected: every function equals the in-memory
    call, the curves and areas read the rows' own batch, and the operating points (which
    read the table itself) get the table built from it."""
    df, sdf = data
    kw = {"score": "c", "label": "y", "by": "g"}
    for fn, extra in [
        (prn.auc, {"curve": "roc", "hull": True}),
        (prn.metrics, {"metrics": ("auc_pr", "ap", "n_pos")}),
        (prn.pr_curve, {}),
        (prn.roc_curve, {"thresholds": [0.0, 1.0]}),
        (prn.confusion, {}),
        (prn.operating_points, {"targets": ["max_f1"]}),
    ]:
        want, want_warn = _run(fn, df, **kw, **extra)
        got, got_warn = _run(fn, sdf, **kw, **extra)
        pd.testing.assert_frame_equal(got, want, **EXACT)
        assert got_warn == want_warn and got.attrs["spark_path"] == "table"


def test_a_cached_frame_is_counted_from_its_statistics_and_probed_once(spark, data, monkeypatch):
    """A fully cached frame's rows come from the statistics Spark gathered while caching
    it (no count job), and its probe is kept for the next call on the same columns; an
    uncached frame is counted."""
    import prroc_numba._spark.path as path

    df, _sdf_shared = data
    monkeypatch.setattr(path, "COLLECT_FIRST", 0)  # every call probes
    sdf = _sdf(spark, df, 5)  # another plan than the shared frame's, cached afresh
    assert path.row_count(sdf) == (1500, False)  # cached, not yet loaded: counted
    probes = []
    real = path._probe
    monkeypatch.setattr(path, "_probe", lambda *a: probes.append(1) or real(*a))
    cls = type(sdf)
    count = cls.count
    monkeypatch.setattr(cls, "count", lambda self: pytest.fail("counted"))
    assert path.row_count(sdf) == (1500, True)
    kw = {"score": "c", "label": "y", "by": "g"}
    first, _msgs = _run(prn.auc, sdf, **kw)
    again, _msgs = _run(prn.auc, sdf, **kw)
    assert len(probes) == 1 and first.attrs["spark_path"] == "table"
    pd.testing.assert_frame_equal(again, _run(prn.auc, df, **kw)[0], **EXACT)
    monkeypatch.setattr(cls, "count", count)
    sdf.unpersist()
    assert path.row_count(sdf) == (1500, False)


def test_weighted_scores_take_the_table_up_to_a_third_of_the_limit(spark, data):
    """Weighted rows (collected and sorted, or merged as tables) cost up to three times
    the collected columns' bytes per entry: 1,500 continuous entries fit
    spark_table_max=3000 collected, but weighted they pass a third of it and take the
    score ranges, warned with the reason."""
    df, sdf = data
    kw = {"score": "c", "label": "y", "by": "g"}
    spark.conf.set("prroc_numba.spark_table_max", "3000")
    try:
        plain, msgs = _run(prn.auc, sdf, **kw)
        weighted, warned = _run(prn.auc, sdf, **kw, weight="wt")
    finally:
        spark.conf.unset("prroc_numba.spark_table_max")
    assert plain.attrs["spark_path"] == "table" and weighted.attrs["spark_path"] == "ranges"
    assert not any("score-range path" in m for m in msgs)
    assert any("a third of the spark conf prroc_numba.spark_table_max=3,000" in m for m in warned)
    pd.testing.assert_frame_equal(weighted, _run(prn.auc, df, **kw, weight="wt")[0], **ROUNDED)


@pytest.mark.parametrize("score", ["a", "c", ["c", "d"]], ids=["tied", "continuous", "wide"])
def test_up_to_collect_first_rows_the_columns_are_collected_without_a_probe(
    spark, data, score, monkeypatch, caplog
):
    """At most COLLECT_FIRST rows: no probe runs, the columns are
    collected whatever their ties, and the log line says why; above it the probe runs
    and tied scores take Spark's group-by, continuous ones the columns collected."""
    import prroc_numba._spark.grouped as G
    import prroc_numba._spark.path as path

    df, sdf = data
    kw = {"score": score, "label": "y", "by": "g"}
    want = _run(prn.auc, df, **kw)[0]
    ran = []

    def spy(module, name):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, **k: ran.append(name) or real(*a, **k))

    for module, name in [(path, "_probe"), (path, "_hll"), (G, "fetch"), (G, "collected")]:
        spy(module, name)
    frame = sdf.alias("fresh")  # a new frame object: nothing kept of it
    with caplog.at_level(logging.INFO, logger="prroc_numba.spark"):
        got = _run(prn.auc, frame, **kw)[0]
    assert ran == ["collected"]
    M = 1 if isinstance(score, str) else len(score)
    assert f"1,500 rows x {M} score column(s), at most 2,000,000 rows" in caplog.text
    pd.testing.assert_frame_equal(got, want, **EXACT)
    assert got.attrs["spark_path"] == "table"

    ran.clear()
    monkeypatch.setattr(path, "COLLECT_FIRST", 1000)  # 1,500 rows pass it: probed
    got = _run(prn.auc, sdf.alias("fresh"), **kw)[0]
    assert ran == ["_probe", "fetch" if score == "a" else "collected"]
    pd.testing.assert_frame_equal(got, want, **EXACT)


def test_a_cached_frame_keeps_its_selection_until_its_cache_is_dropped(spark, data):
    """The collected columns' selection is planned once per cached frame and reused
    while the cache stays loaded; dropped with the cache (uncached through a view of
    it, which leaves the frame's is_cached flag set), a new one is planned, which reads
    the frame's new cache once it is cached again; every call equals the in-memory
    one."""
    import prroc_numba._spark.path as path

    df, _shared = data
    sdf = _sdf(spark, df, 5)
    kw = {"score": "c", "label": "y", "by": "g"}
    want = _run(prn.auc, df, **kw)[0]
    assert path.selected(sdf, ["c"]) is not path.selected(sdf, ["c"])  # not counted yet
    for _ in range(2):  # the first call's count fills the cache; the second finds it
        pd.testing.assert_frame_equal(_run(prn.auc, sdf, **kw)[0], want, **EXACT)
    first = path.selected(sdf, ["c"])
    assert path.selected(sdf, ["c"]) is first
    assert path.selected(sdf, ["g"]) is not first
    sdf.createOrReplaceTempView("prn_kept_selection")
    spark.catalog.uncacheTable("prn_kept_selection")
    spark.catalog.dropTempView("prn_kept_selection")
    assert sdf.is_cached  # the flag does not know
    assert path.selected(sdf, ["c"]) is not first
    pd.testing.assert_frame_equal(_run(prn.auc, sdf, **kw)[0], want, **EXACT)
    assert path.selected(sdf, ["c"]) is not path.selected(sdf, ["c"])
    sdf.cache().count()  # cached anew: its new selection reads the new cache
    for _ in range(2):
        pd.testing.assert_frame_equal(_run(prn.auc, sdf, **kw)[0], want, **EXACT)
    again = path.selected(sdf, ["c"])
    assert again is not first and path.selected(sdf, ["c"]) is again
    plan = again._jdf.queryExecution().executedPlan().toString()
    assert "InMemoryTableScan" in plan
    fresh = sdf.alias("fresh")  # a new frame object of the cached rows
    cols = ["c", "y", "g"]  # the call's columns, planned once for the count and the rows
    assert path.row_count(fresh, cols) == (1500, True)
    assert path.selected(fresh, cols) is path.selected(fresh, cols)
    uncached = _sdf(spark, df.head(100), 3).unpersist()  # rows of its own: no shared cache
    assert path.row_count(uncached, cols) == (100, False)
    assert path.selected(uncached, cols) is not path.selected(uncached, cols)


def test_a_cached_frames_columns_are_read_by_as_many_tasks_as_cores(spark, data):
    """The kept selection of a loaded cached frame of more partitions than cores is
    read by one task per core (coalesced, no exchange), which returns the rows in
    another order than the frame's: the results equal the in-memory ones all the same,
    and an error's row number is the bad row's place in the order Spark returned."""
    import prroc_numba._spark.path as path
    from prroc_numba._spark.grouped import COLLECTED_ROWS

    df, _shared = data
    bad = df.assign(c=np.where(df["rid"] == 1400, np.nan, df["c"]))
    sdf = _sdf(spark, bad, 8)
    sdf.count()  # loaded: the first call keeps its selection
    cols = ["c", "y", "g"]
    assert path.row_count(sdf, cols) == (1500, True)
    kept = path.selected(sdf, cols)
    cores = spark.sparkContext.defaultParallelism
    assert sdf.rdd.getNumPartitions() > cores == kept.rdd.getNumPartitions()
    at = int(kept.toArrow()["c"].to_pandas().isna().to_numpy().argmax())
    assert at != 1400  # the bad row's place: another order than the frame's
    with pytest.raises(ValueError) as got:
        prn.auc(sdf, score="c", label="y", by="g")
    with pytest.raises(ValueError) as want:
        prn.auc(bad, score="c", label="y", by="g")
    assert "at row 1400," in str(want.value)
    line = re.sub(r"at row \d+", f"at row {at}", str(want.value))
    assert str(got.value) == f"{line} {COLLECTED_ROWS}"
    ok = _sdf(spark, df, 8)
    ok.count()
    for _ in range(2):  # counted, then the kept selection
        pd.testing.assert_frame_equal(
            _run(prn.auc, ok, score="c", label="y", by="g")[0],
            _run(prn.auc, df, score="c", label="y", by="g")[0],
            **EXACT,
        )
    sdf.unpersist()
    ok.unpersist()
