"""Which path a call on a Spark frame takes: chosen before the work, and said.

:func:`choose` decides from a cheap size estimate, before any reduction runs:

* the row count times the number of score columns bounds the *(curve, distinct
  score)* entries the driver would hold: a frame whose every partition is cached gives
  it from the statistics Spark gathered while caching it (no job; classic sessions),
  any other frame by ``count()`` (one job; a Parquet source answers it from its
  footers);
* up to :data:`COLLECT_FIRST` rows (unweighted columns the group-by can read, rows x
  score columns within the limit), nothing more is asked: the columns are collected
  whatever their ties, since there collecting costs at most what Spark's group-by does
  even on tied scores (which the group-by stacks into rows x score columns), and a
  probe would cost about a collection's fixed cost (one more job);
* above it, a probe of the first :data:`PROBE` rows (``limit``: it reads the first
  partitions only) says how tied the scores are: the fraction of its (key, score) pairs that are
  distinct, extrapolated to every row, estimates the entries. A cached frame's count
  and probe are kept for the next call on the same frame object (and columns) while it
  stays cached: its rows do not change, and a stale estimate could only change the
  path, never a result. Only where that estimate
  is above ``prroc_numba.spark_table_max`` but the probe shows ties (the extrapolation
  over-counts tied scores, whose distinct values saturate) does a third job count them
  (HyperLogLog, ``approx_count_distinct``: one scan, no exchange of rows).

Then:

* **table**, Spark's group-by (:mod:`.grouped`), where the probe shows ties (the
  group-by shrinks the rows within each partition before they move) and the estimate
  fits the limit;
* **table**, the columns collected (:func:`.grouped.collected`), up to
  :data:`COLLECT_FIRST` rows, and above them where the scores are mostly distinct and
  the rows fit the limit (weighted rows: a third of it): the call's
  columns come to the driver as one Arrow table and are reduced there -- the cost of
  moving the rows (the group-by would move every row once more, k score columns stacked
  into k times the rows; the Python workers would read them all once more);
* **partitions** (each partition reduced in a Python worker, the tables merged on the
  driver) for columns the group-by cannot read, and rows above what the collection
  takes, while the entries fit the limit;
* **ranges** (:mod:`.ranges`) above the limit: logged, and warned
  (:class:`~prroc_numba._warnings.SparkPathWarning`) with the conf that changes it. A
  request that needs every distinct score on the driver (a raw curve, confusion at
  every score) is refused there, before any reduction runs.

The session conf ``prroc_numba.spark_exact`` forces a path (``"table"``,
``"partitions"``, ``"ranges"``); the estimate is then skipped. Each call's path is
recorded (:func:`record`) and given to the result as ``frame.attrs["spark_path"]``
(:mod:`.output`), and logged on the ``prroc_numba.spark`` logger at INFO.
"""

from __future__ import annotations

import contextvars
import logging
import warnings
import weakref
from dataclasses import dataclass

from .._warnings import SparkPathWarning, outside_stacklevel

LOG = logging.getLogger("prroc_numba.spark")

#: rows up to which unweighted columns are collected without a probe (measured,
#: ``benchmarks/bench_spark.py collect_first --kind tied``: the columns of 1e6 and 2e6
#: tied rows collected take 0.55x and 0.65x Spark's group-by with one score column,
#: 0.55x and 0.67x with three, which the group-by stacks into three times the rows;
#: at 4e6 rows 0.94x and 1.41x; the probe's job is about a collection's fixed cost)
COLLECT_FIRST = 2_000_000
#: rows read by the probe of ties
PROBE = 20_000
#: a probe whose distinct (key, score) pairs are at most this fraction of its rows is
#: "tied": the group-by shrinks it
TIED = 0.5
#: HyperLogLog's relative standard deviation (the count's error, about)
RSD = 0.02
#: the partitions' merged tables and weighted grouped rows cost about three times the
#: driver's bytes per entry of the collected columns (or of unweighted grouped rows):
#: those paths take at most spark_table_max / HEAVY entries
HEAVY = 3
#: the order of cost: a call that ran several reductions names the dearest
RANK = {"table": 0, "partitions": 1, "ranges": 2}

#: what is kept of cached frames: frame -> {"rows": count, (keys, scores, extra): probe}
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_PATHS: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "prroc_numba_spark_paths", default=None
)


@dataclass(frozen=True)
class Plan:
    """A call's path and why: ``rows`` and ``entries`` (estimated) when counted."""

    path: str
    reason: str
    rows: int | None = None
    entries: int | None = None
    #: on the table path: "collect" (the rows' columns) or "group-by" (Spark's)
    how: str = "group-by"
    #: the entries this path may hold on the driver (None: the conf's limit)
    most: int | None = None
    fix: str = (
        "raise that conf (spark.conf.set('prroc_numba.spark_table_max', ...); the "
        "driver's Python process peaks at about 40 bytes per entry of collected columns) "
        "or round the scores to take the table path"
    )


def record(path: str) -> None:
    """Note the path a reduction took, for the result's ``attrs["spark_path"]``."""
    paths = _PATHS.get()
    if paths is not None:
        paths.append(path)


def collecting():
    """A fresh list of the paths taken until :func:`finish` (nested calls add theirs
    to the caller's list too).
    """
    return _PATHS.set([])


def finish(token) -> str | None:
    """The dearest path recorded since :func:`collecting` (None: no reduction ran)."""
    paths = _PATHS.get() or []
    _PATHS.reset(token)
    outer = _PATHS.get()
    if outer is not None:
        outer.extend(paths)
    return max(paths, key=RANK.__getitem__) if paths else None


def _ratio(probe, cols, scores):
    n = len(probe)
    return sum(len(probe[[*cols, s]].drop_duplicates()) for s in scores) / (n * len(scores))


def _cached_rows(selection):
    """``(rows, cache)`` of a selection of columns of a frame whose every partition is
    cached: the rows from the statistics Spark counted while caching it (no job), and
    the JVM's handle on that cache (its ``CachedRDDBuilder``); else None (not cached,
    not yet fully cached, or a Spark Connect frame, whose plan the client cannot read).
    """
    try:
        plan = selection._jdf.queryExecution().optimizedPlan()  # planned once, kept
        while plan.nodeName() in ("Repartition", "Project"):  # these keep the row count
            plan = plan.child()
        if plan.nodeName() != "InMemoryRelation":
            return None
        cache = plan.cacheBuilder()
        if not cache.isCachedColumnBuffersLoaded():
            return None
        rows = plan.stats().rowCount()
        return (int(rows.get()), cache) if rows.isDefined() else None
    except Exception:  # noqa: BLE001 -- no plan to read (Spark Connect): count the rows
        return None


def _kept(data):
    """What is kept of a cached frame (its row count, its probes), None where the frame
    takes no weak reference.
    """
    try:
        return _KEPT.setdefault(data, {})
    except TypeError:
        return None


def row_count(data, cols=None):
    """``(rows, cached)``: the frame's row count, from a cached frame's statistics
    (``cached`` True; kept for the next call while the frame stays cached) or
    ``count()`` (one job). ``cols``: the columns the call collects, whose selection is
    planned here and kept for :func:`selected`.
    """
    kept = _kept(data)
    if kept is not None and "rows" in kept and data.is_cached:
        return kept["rows"], True
    selection = _spread(data.select(*cols)) if cols else data.select("*")
    cached = _cached_rows(selection)
    if cached is None:
        return int(data.count()), False
    if kept is not None:
        kept.clear()  # cached afresh: nothing of an earlier cache is kept
        kept["rows"], kept["cache"] = cached
        if cols:
            kept[("select", tuple(cols))] = selection
    return cached[0], True


def selected(data, cols):
    """``data.select(*cols)``; for a frame whose rows were counted from a cache
    (:func:`row_count`; a cached frame, or columns of one) the same DataFrame object
    on every call while that cache stays loaded, so Spark plans the selection once
    (about a tenth of collecting 1e6 rows' columns). Where the cache was dropped
    (``unpersist``, ``clearCache``) the kept selection is dropped too: its plan reads
    the old cache, and would read the rows from their source again even once the frame
    is cached anew.
    """
    kept = _kept(data)
    cache = None if kept is None else kept.get("cache")
    if cache is None:
        return data.select(*cols)
    try:
        loaded = cache.isCachedColumnBuffersLoaded()
    except Exception:  # noqa: BLE001 -- the JVM's object is gone: plan afresh
        loaded = False
    if not loaded:
        kept.clear()
        return data.select(*cols)
    key = ("select", tuple(cols))
    if key not in kept:
        kept[key] = _spread(data.select(*cols))
    return kept[key]


def _spread(selection):
    """The kept selection of a cached frame's columns read by as many tasks as the
    session has cores (``coalesce``, no exchange: each task reads several cached
    partitions), where the frame has more partitions: every task of a collection pays a
    fixed cost (its Arrow writer, its result), a fifth of collecting 1e6 rows' columns
    in 8 tasks on 2 cores. Rows then come back in the tasks' order, not the
    partitions'; only an error's row numbers read that order.
    """
    try:
        cores = selection.sparkSession.sparkContext.defaultParallelism
    except Exception:  # noqa: BLE001 -- Spark Connect: no SparkContext on the client
        return selection
    return selection.coalesce(int(cores))


def _probed(data, by, scores, extra, cached):
    """:func:`_probe`, kept for a cached frame's next call on the same columns."""
    kept = _kept(data) if cached else None
    if kept is None:
        return _probe(data, by, scores, extra)
    key = (tuple(by), tuple(scores), tuple(extra))
    if key not in kept:
        kept[key] = _probe(data, by, scores, extra)
    return kept[key]


def _probe(data, by, scores, extra):
    """``(entries, grouped, seen)``: the fraction of distinct (key, score) pairs among
    the first rows, and of distinct grouped rows (with the label and weight), per
    score column; ``seen`` rows were read.
    """
    probe = data.select(*by, *scores, *extra).limit(PROBE).toArrow().to_pandas()
    if len(probe) == 0:
        return 0.0, 0.0, 0
    return _ratio(probe, by, scores), _ratio(probe, [*by, *extra], scores), len(probe)


def _hll(data, by, scores, extra):
    """HyperLogLog's counts of the distinct (key, score) pairs and grouped rows, summed
    over the score columns (one job: a scan, no exchange of rows).
    """
    from pyspark.sql import functions as F

    cols = [F.approx_count_distinct(F.xxhash64(*by, s), RSD) for s in scores]
    cols += [F.approx_count_distinct(F.xxhash64(*by, *extra, s), RSD) for s in scores]
    row = data.agg(*cols).first()
    M = len(scores)
    return int(sum(row[:M])), int(sum(row[M:]))


def choose(data, by, scores, extra, eligible, limit, weighted=False, cols=None) -> Plan:
    """The ``"auto"`` plan for the ``scores`` columns (see the module): the row count
    (no job on a cached frame), then, above :data:`COLLECT_FIRST` rows, the probe
    (none on a cached frame probed before), and a third job only when the probe's
    estimate is unsure.
    ``extra``: the group-by's other keys (the label); ``cols``: the columns a
    collection would read (:func:`row_count`).
    """
    n, cached = row_count(data, cols)
    M = len(scores)
    light = eligible and not weighted  # the columns collected or unweighted grouped rows
    rows = f"{n:,} rows x {M} score column(s)"
    if light and n <= COLLECT_FIRST and n * M <= limit:  # no probe: tied or not, collected
        why = f"{rows}, at most {COLLECT_FIRST:,} rows: their columns reduced on the driver"
        return Plan("table", why, n, n * M, how="collect", most=limit)
    r_e, r_g, seen = _probed(data, by, scores, extra, cached)
    entries, grouped = int(round(r_e * n * M)), int(round(r_g * n * M))  # exact: seen == n
    most = limit if light else limit // HEAVY
    if seen < n and (
        (entries > most and r_e <= TIED) or (eligible and grouped > most and r_g <= TIED)
    ):  # tied scores saturate: counted, not extrapolated
        entries, grouped = _hll(data, by, scores, extra)
    bound = f"the spark conf prroc_numba.spark_table_max={limit:,}"
    heavy = (
        f"{limit // HEAVY:,}, a third of {bound} (weighted scores and columns the "
        "group-by cannot read are merged as tables, three times the bytes per entry)"
    )
    if entries > most:
        why = f"about {entries:,} (curve, score) entries from {rows}, more than "
        return Plan("ranges", why + (bound if light else heavy), n, entries, most=most)
    if eligible and r_g <= TIED and grouped <= most:
        why = f"tied scores: about {grouped:,} grouped rows from {rows}"
        return Plan("table", why, n, entries, most=most)
    if light and n * M <= limit:  # the rows cost what their table does
        why = f"mostly distinct scores: {rows}, their columns reduced on the driver"
        return Plan("table", why, n, entries, how="collect", most=limit)
    if eligible and weighted and n * M <= limit // HEAVY:  # sorted first: see collected
        why = f"mostly distinct weighted scores: {rows}, their columns reduced on the driver"
        return Plan("table", why, n, entries, how="collect", most=limit // HEAVY)
    if entries > limit // HEAVY:
        why = f"about {entries:,} (curve, score) entries from {rows}, more than {heavy}"
        return Plan("ranges", why, n, entries, most=limit // HEAVY)
    kind = "mostly distinct scores" if r_g > TIED else "columns the group-by cannot read"
    why = f"{kind}: about {entries:,} (curve, score) entries from {rows}"
    return Plan("partitions", why, n, entries, most=limit // HEAVY)


def say(plan: Plan, what: str, forced: bool = False) -> None:
    """Log the plan; warn when ``"auto"`` fell to the score ranges."""
    how = "set by the spark conf prroc_numba.spark_exact" if forced else plan.reason
    LOG.info("prroc_numba %s on Spark: the %s path (%s)", what, plan.path, how)
    if plan.path == "ranges" and not forced:
        warnings.warn(
            f"{what} on Spark takes the score-range path (several passes over the rows, "
            f"O(ranges x curves) numbers on the driver): {plan.reason}; {plan.fix}; set "
            "the spark conf prroc_numba.spark_exact='ranges' to choose this path without "
            "this warning",
            SparkPathWarning,
            stacklevel=outside_stacklevel(),
        )
