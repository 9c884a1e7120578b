"""Spark DataFrames as ``data``: the rows are reduced where they live.

Imported only when a ``pyspark.sql.DataFrame`` (classic or Spark Connect) reaches a
public function (the core import never imports pyspark). Only the DataFrame API is
used, so Spark Connect sessions work too: ``groupBy``/``agg``, ``unpivot``, ``limit``,
``mapInArrow``, ``repartition``, ``coalesce``, ``persist``, ``count`` and ``toArrow``
of reduced tables or of the call's columns (the collected path).

Three paths:

* **table** (:func:`_grouped`, :mod:`.grouped`; the default): Spark's own group-by
  reduces the rows to one row per (curve, distinct score, label value; weights summed exactly)
  with its count, in the JVM and partially within each partition before the exchange,
  so no row reaches a Python worker; the grouped rows come to the driver as one Arrow
  table, are validated and reduced there like an in-memory batch of weighted rows, and
  the in-memory kernels run on the table, which is O(distinct scores), not O(rows);
  unweighted scores up to :data:`.path.COLLECT_FIRST` rows, and mostly distinct
  ones above, instead come as the call's columns
  (:func:`.grouped.collected`), packed once and answered from their own batch as in
  memory;
* **partitions** (:func:`_tables`): every partition reduces its rows to its table
  *(curve, distinct score) -> (positive, negative mass)* in a Python worker
  (:func:`.executor.reduce_batches`) and sends it as Arrow batches with the columns of
  :meth:`~prroc_numba.Accumulator.table` (with a weight column, each entry's masses
  also as exact integer sums, :mod:`prroc_numba._core.mass_limbs`); the driver merges
  the tables (:func:`.bridge.accumulator_from_table`; weighted masses added exactly,
  so the result does not depend on the partitioning). It answers what the group-by cannot read
  exactly (soft labels, score columns of two types, column types other than numbers,
  booleans and strings), raises the in-memory error when the grouped rows fail a check
  (the partition holding the bad row names it), and carries the bootstrap's replicate
  masses;
* **score ranges** (:mod:`.ranges`), when the table would hold more than
  ``prroc_numba.spark_table_max`` entries (default 1.5e7; a third of it for the
  partitions' merged tables and weighted grouped rows, :data:`.path.HEAVY`): the
  partitions' tables are cut into (curve, score) ranges by their values alone (the
  same bits on every run and partitioning), each range's class totals go to the
  driver, an exclusive scan gives each range its start, and each range sends back its
  area sums (or local hull, or threshold bins): O(ranges x curves) numbers, so the
  driver never holds O(rows).

Which path runs is chosen before the work and said (:mod:`.path`): a cheap size estimate
(the row count, and above :data:`.path.COLLECT_FIRST` rows a probe of the first rows'
ties) picks it, the ``prroc_numba.spark``
logger names it at INFO, a fall to the score ranges is warned about
(:class:`~prroc_numba._warnings.SparkPathWarning`, naming the conf that changes it), a
request that needs the merged table (a raw curve) is refused there, before any
reduction, and the result's ``attrs["spark_path"]`` names the path taken. The session
conf ``prroc_numba.spark_exact`` (``"auto"``, ``"table"``, ``"partitions"`` or
``"ranges"``) forces one. The bootstrap's table carries every entry's replicate
masses: ``"auto"`` takes it while rows x models x ``n_boot`` <=
``prroc_numba.spark_replicate_max`` (default 5e7), else the rows' score ranges.

The Poisson bootstrap keys every row's counts by a row-id column (``row_id=``): the
replicates then equal the in-memory ``resampling="poisson"`` ones for the same seed
whatever the partitioning (when ``row_id`` holds each row's position in the in-memory
frame). Spark has no row order to key them by otherwise (``monotonically_increasing_id``
depends on the partitioning), so a bootstrap without ``row_id=`` is refused.
"""

from __future__ import annotations

import numpy as np

from .._checks import method_code
from .._core import Accumulator, layout_of, pr_curve_of
from .._core.partitions import (
    check_merged,
    input_kw,
    range_auc,
    range_metrics,
    table_replicate_areas,
)
from . import grouped as G
from . import path as P
from .bridge import accumulator_from_table
from .output import answer as answer  # the public functions' output= door (_calls)
from .wire import REPLICATE_MAX, columns, conf, names, reduced, settings, split_wire


def no_multiclass(multiclass):
    if multiclass is not None:
        raise ValueError(
            "multiclass= is not available for Spark input; binarise the labels "
            "into one 0/1 column per class (one call per class) first"
        )


def _merged(table, by, models, pos_label, soft):
    rows, labels = split_wire(table, pos_label, soft)
    acc = accumulator_from_table(rows, by, models)
    check_merged(None if acc is None else layout_of(acc), labels, pos_label)
    return acc


def _tables(data, kw, row_id=None, seed=None, n_boot=0):
    """The merged Accumulator of the partitions' tables, sent to the driver."""
    sdf, by, models = reduced(data, kw, row_id, seed, n_boot)
    return _merged(sdf.toArrow(), by, models, kw["pos_label"], kw["soft_labels"])


def _grouped(data, kw, mode, limit):
    """The table path's Accumulator from Spark's own grouped rows (:mod:`.grouped`);
    None where the call is not eligible or its rows fail a check (the partition path
    then answers, with the in-memory error); ``TooLarge`` above ``limit`` (``"auto"``).
    """
    by, models = names(data, kw)
    if not G.eligible(data, kw, by, models):
        return None
    table = G.fetch(data, kw, by, models, None if mode == "table" else limit)
    if isinstance(table, G.TooLarge):
        return table
    try:
        return G.accumulate(table, kw, by, models)
    except (ValueError, TypeError):
        return None


def _too_large(what, entries, forced=False):
    if forced:
        why = "which the spark conf prroc_numba.spark_exact='ranges' does not gather"
    elif entries is None:
        why = "and these scores have more distinct (curve, score) entries than the spark "
        why += "conf prroc_numba.spark_table_max"
    else:
        why = f"and these scores have about {entries:,} distinct (curve, score) entries, "
        why += "more than the spark conf prroc_numba.spark_table_max"
    return ValueError(
        f"{what} of Spark input needs every distinct score in one place, {why}; round the "
        "scores first (F.round('score', 4)), ask for hull=True or thresholds=, or raise "
        "prroc_numba.spark_table_max if the driver can hold them"
    )


def _plan(data, kw, what, need_table):
    """The call's :class:`~.path.Plan` (said before the work; refused here when the
    request needs the table and the path cannot give it) and its settings.
    """
    mode, limit, k = settings(data)
    by, models = names(data, kw)
    ok = G.eligible(data, kw, by, models)
    if mode == "auto":
        # the group-by's keys beside the curve's and the score (weights are summed)
        scores = models or [kw["score"]]
        weighted = kw["weight"] is not None
        cols = columns({**kw, "by": by or None})  # what G.collected reads
        plan = P.choose(data, by, scores, [kw["label"]], ok, limit, weighted, cols)
    else:
        path = "partitions" if mode == "table" and not ok else mode
        plan = P.Plan(path, "set by the spark conf prroc_numba.spark_exact")
    if need_table and plan.path == "ranges":  # refused before any reduction runs
        raise _too_large(what, plan.entries, forced=mode == "ranges")
    P.say(plan, what, forced=mode != "auto")
    return plan, mode, limit, k


def _state(data, kw, what="the call", need_table=False):
    """The merged Accumulator, or the range state (:mod:`.ranges`) above the size."""
    plan, mode, limit, k = _plan(data, kw, what, need_table)
    limit = limit if plan.most is None else plan.most  # this path's bound (see .path)
    if plan.path == "table" and plan.how == "collect":
        by, _models = names(data, kw)
        P.record("table")
        return G.collected(data, kw, by)
    if plan.path == "table":
        grouped = _grouped(data, kw, mode, limit)
        if isinstance(grouped, Accumulator):
            P.record("table")
            return grouped
        if isinstance(grouped, G.TooLarge):  # the estimate was short: said, then ranges
            if need_table:
                raise _too_large(what, None)
            plan = P.Plan(
                "ranges",
                f"more than {limit:,} grouped rows (the spark conf "
                "prroc_numba.spark_table_max), which the estimate did not foresee",
                plan.rows,
            )
            P.say(plan, what)
    _by, models = names(data, kw)
    M = 1 if models is None else len(models)
    if plan.path in ("table", "partitions") and (plan.rows is None or plan.rows * M <= limit):
        P.record("partitions")  # (the table path's checks failed: the partitions raise)
        return _tables(data, kw)
    from .ranges import RangeState

    sdf, by, models = reduced(data, kw)
    rows = plan.rows if plan.rows is not None else int(data.count())
    state = RangeState(sdf, by, models, kw, mode, limit, k, rows)
    P.record("ranges" if state.acc is None else "partitions")
    if state.acc is None and plan.path != "ranges":  # counted: more entries than said
        why = f"the partitions' tables hold {state.n_entries:,} entries, more than the "
        why += f"spark conf prroc_numba.spark_table_max={limit:,}"
        P.say(P.Plan("ranges", why, plan.rows), what)
    if state.acc is None and need_table:
        _done(state)
        raise _too_large(what, state.n_entries)
    return state if state.acc is None else state.acc


def _done(state):
    """Free the executors' persisted ranges of a range state."""
    if not isinstance(state, Accumulator):
        state.unpersist()


def auc(data, curve, method, hull, **kw):
    state = _state(data, kw, "auc")
    if isinstance(state, Accumulator):
        return state.auc(curve=curve, method=method, hull=hull)
    try:
        return range_auc(state, curve, method_code(curve, method), hull, method)
    finally:
        _done(state)


def metrics(data, names, **kw):
    state = _state(data, kw, "metrics")
    if isinstance(state, Accumulator):
        return state.metrics(names)
    try:
        return range_metrics(state, names)
    finally:
        _done(state)


def merged_state(data, what, **kw):
    """The merged Accumulator (table path only): for what needs every vertex
    (``what`` names it in the error, raised before any reduction where the estimate
    already says the table is too large).
    """
    return _state(data, kw, what, need_table=True)


def _small(data, hull, thresholds, what, kw):
    state = _state(data, kw, what)
    if isinstance(state, Accumulator):
        return state
    try:
        return state.hull_state() if hull else state.thresholds_state(thresholds)
    finally:
        _done(state)


def confusion(data, thresholds, **kw):
    if thresholds is None:
        return merged_state(data, "confusion(...) without thresholds=", **kw).confusion()
    return _small(data, False, thresholds, "confusion", kw).confusion(thresholds=thresholds)


def roc_curve(data, hull, thresholds, **kw):
    if not hull and thresholds is None:
        return merged_state(data, "the raw roc_curve", **kw).roc_curve()
    state = _small(data, hull, thresholds, "roc_curve", kw)
    return state.roc_curve(hull=hull, thresholds=thresholds)


def pr_curve(data, hull, interpolate, thresholds, recall_step, **kw):
    options = (hull, interpolate, thresholds, recall_step)
    if not hull and thresholds is None:
        return pr_curve_of(merged_state(data, "the raw pr_curve", **kw), *options)
    return pr_curve_of(_small(data, hull, thresholds, "pr_curve", kw), *options)


# ------------------------------------------------------------------ Poisson bootstrap


def _check_row_id(row_id):
    if row_id is None:
        raise ValueError(
            "the bootstrap of Spark input keys each row's Poisson counts by a row id, and "
            "a Spark frame has no row order to take it from (monotonically_increasing_id "
            "changes with the partitioning); pass row_id= naming a column of unique whole "
            "row numbers >= 0 (the row's position in the data set gives the in-memory "
            "resampling='poisson' replicates exactly)"
        )


def _replicate_plan(data, mode, M, n_boot, most):
    """The bootstrap's path: its table carries every entry's replicate masses."""
    if mode != "auto":
        plan = P.Plan("ranges" if mode == "ranges" else "partitions", "set by the spark conf")
        P.say(plan, "bootstrap", forced=True)
        return plan
    n = P.row_count(data)[0]
    masses = n * M * n_boot
    if masses <= most:
        why = f"{n:,} rows x {M} x n_boot={n_boot}: at most spark_replicate_max={most:,}"
        plan = P.Plan("partitions", why, n)
    else:
        why = (
            f"{masses:,} replicate masses ({n:,} rows x {M} x n_boot={n_boot}), more than "
            f"the spark conf prroc_numba.spark_replicate_max={most:,}"
        )
        fix = (
            "raise that conf (16 bytes per mass on the driver) or bootstrap fewer rows or "
            "replicates to take the partition path"
        )
        plan = P.Plan("ranges", why, n, fix=fix)
    P.say(plan, "bootstrap")
    return plan


def replicates(
    data,
    score,
    label,
    by,
    weight,
    curve,
    code,
    hull,
    n_boot,
    seed,
    pos_label,
    soft_labels,
    row_id=None,
):
    """``(curves, None, code, est, reps, seed)`` as ``bootstrap._replicates`` returns:
    from the merged table's replicate masses, or through the score ranges of the rows
    (:mod:`.ranges`) when that table would be too large.
    """
    _check_row_id(row_id)
    kw = input_kw(score, label, by, weight, pos_label, soft_labels)
    mode, limit, k = settings(data)
    _by, models = names(data, kw, row_id)
    M = 1 if models is None else len(models)
    most = int(float(conf(data, "prroc_numba.spark_replicate_max", REPLICATE_MAX)))
    plan = _replicate_plan(data, mode, M, n_boot, most)
    if plan.path == "partitions":
        P.record("partitions")
        acc = _tables(data, kw, row_id, seed, n_boot)
        curves, est, reps = table_replicate_areas(acc, curve, code, hull)
        return curves, None, code, est, reps, seed
    from .._core.batch import warn_undefined_auc
    from .ranges import RowRanges

    P.record("ranges")
    st = RowRanges(data, kw, row_id, seed, n_boot, k)
    areas = st.areas(code, hull)
    est, reps = areas[:, -1].copy(), areas[:, :-1].copy()
    bad = warn_undefined_auc(st.layout, curve, stacklevel=5, totals=(st.P[-1], st.N[-1]))
    reps[bad] = np.nan
    return st.layout, None, code, est, reps, seed


def curve_replicates(*args, **kwargs):
    raise ValueError(
        "bootstrap_curve is not available for Spark input yet; compute the bands on a "
        "sample in pandas, or use bootstrap(..., row_id=) for intervals of the areas"
    )
