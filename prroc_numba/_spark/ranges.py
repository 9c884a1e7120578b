"""The score-range path of Spark input: exact results while the driver holds O(ranges x
curves) numbers, not O(rows).

:class:`RangeState` (areas, metrics, hulls, thresholds): the partitions' tables (the
table path's first step, :func:`.executor.reduce_batches`) are persisted in the
executors; one small aggregation gives the curves and their entry counts (and, in
``"auto"`` mode, the choice: a table of at most ``prroc_numba.spark_table_max``
entries is merged on the driver after all); every entry gets its global curve and
its score range in the order (curve, score descending) from cuts that depend on the
values alone (:func:`ranged`), and each range is exchanged into one Spark partition;
pass 1 sends each range's class totals per curve (:func:`.range_tasks.totals_task`),
the driver's exclusive scan over the ranges gives each its start, and pass 2 sends
area sums, local hull vertices or threshold bins (:mod:`.range_tasks`). The driver
finishes them with the engine-neutral functions of :mod:`prroc_numba._core.partitions`,
exactly as the Dask wing does.

:class:`RowRanges` (the Poisson bootstrap): every partition keeps its value rows (one
per row and model, with the row id) with their curve in the global layout; the rows are
range partitioned the same way, pass 1 sends each range's class totals per replicate,
pass 2 each range's area sums per replicate from its start (each row's Poisson count
added into its tie block's masses as it is drawn). Memory per range task: its rows
and replicates x curves.
"""

from __future__ import annotations

import functools

import numpy as np

from .._core import holding, thresholds_of
from .._core.partitions import (
    check_merged,
    finish_areas,
    finish_replicate_areas,
    hull_entries,
    threshold_entries,
    totals_entries,
)
from . import executor as X
from . import range_tasks as RT
from . import wire as W
from .bridge import accumulator_from_table, layout_from_keys
from .wire import arrow_schema, columns, map_in_arrow, names, split_wire

_RANGE_ROWS = 2_000_000  # entries (or value rows) per range, about


def _conf_int(data, key, default):
    v = data.sparkSession.conf.get(key, None)
    return default if v is None else int(float(v))


def n_ranges(k, n, rows):
    return int(k) if k else max(2, -(-int(n) // rows))


def _key_cols(by, models):
    return list(by) + ([X.MODEL] if models is not None else [])


#: sampled (curve, score) values per range, about, that place the cuts
_SAMPLE = 200


def ranged(df, K, n):
    """``(K', df with its score range)``: ``df`` (``CURVE``, ``SCORE``, ...; ``n``: its
    rows, or the input's rows x models -- a number that the partitioning cannot change)
    with the column ``PART`` -- its range among at most ``K`` in the order (curve,
    score descending) -- exchanged so that each range lies in one Spark partition.

    The cuts depend on the values only, never on the partitioning or the order of the
    rows (where Spark's ``repartitionByRange`` samples each partition's first rows):
    the sample is the (curve, score) values whose hash is a multiple of a step, the cuts
    its quantiles. The same rows give the same ranges, so the same sums, on every run.
    """
    from pyspark.sql import functions as F

    curve, score = F.col(RT.CURVE), F.col(X.SCORE)
    step = max(1, int(n) // (_SAMPLE * max(1, int(K))))
    pick = F.pmod(F.xxhash64(curve, score), F.lit(step)) == 0
    sample = df.where(pick).select(RT.CURVE, X.SCORE).distinct().toArrow()
    c = np.asarray(sample[RT.CURVE].to_numpy(), dtype=np.int64)
    s = np.asarray(sample[X.SCORE].to_numpy(), dtype=np.float64)
    order = np.lexsort((-s, c))
    at = sorted({c.size * i // K for i in range(1, K)} - {0}) if c.size else []
    cuts = list(dict.fromkeys((int(c[order[i]]), float(s[order[i]])) for i in at))
    # a row's range: the cuts at or before it in the order (curve, score descending)
    part = F.lit(0).cast("long")
    for cc, ss in cuts:
        part = part + F.when((curve > cc) | ((curve == cc) & (score <= ss)), 1).otherwise(0)
    k = len(cuts) + 1
    return k, df.withColumn(RT.PART, part).repartition(k, RT.PART)


def _scan(part, curve, values, K, C):
    """``(K, C)`` per-range values (missing: 0) and their exclusive scan over ranges."""
    out = np.zeros((K, C))
    np.add.at(out, (part, curve), values)
    return out, np.cumsum(out, axis=0) - out


class RangeState:
    """The persisted, range-partitioned tables of a Spark frame (see the module)."""

    def __init__(self, sdf, by, models, kw, mode, limit, k, rows):
        self._persisted = []
        try:
            self._build(sdf, by, models, kw, mode, limit, k, rows)
        except BaseException:
            self.unpersist()  # nothing left cached in the executors
            raise

    def _build(self, sdf, by, models, kw, mode, limit, k, rows):
        from pyspark.sql import functions as F

        self.by, self.models = by, models
        keys = _key_cols(by, models)
        tables = sdf.persist()
        self._persisted.append(tables)
        wire = tables.where(F.col(X.LABEL).isNotNull() | F.col(X.ERROR).isNotNull())
        _rows, labels = split_wire(wire.toArrow(), kw["pos_label"], kw["soft_labels"])
        limbs = [c for c in X.LIMBS if c in sdf.columns]  # weighted: exact sums
        ent = tables.where(F.col(X.LABEL).isNull() & F.col(X.ERROR).isNull()).select(
            *keys, X.SCORE, X.POS, X.NEG, *limbs
        )
        counts = ent.groupBy(*keys).count().toArrow().to_pandas() if keys else None
        if keys:
            n_entries = int(counts["count"].sum())
        else:
            n_entries = ent.count()
        self.n_entries = n_entries
        self.acc = None
        if mode == "auto" and n_entries <= limit:  # the merged table fits the driver
            self.acc = accumulator_from_table(ent.toArrow(), by, models)
            check_merged(None if self.acc is None else self.acc_layout(), labels, kw["pos_label"])
            self.unpersist()
            return
        if n_entries == 0:
            check_merged(None, labels, kw["pos_label"])
        if keys:
            self.layout = layout_from_keys(counts[keys], by, models)[0]
        else:
            import pandas as pd

            from .._core import Layout

            self.layout = Layout([], None, pd.DataFrame(index=pd.RangeIndex(1)))
        check_merged(self.layout, labels, kw["pos_label"])
        self.n_curves = C = self.layout.n_curves
        # the ranges follow the rows x models (values), never the partitions' entries
        # (their number changes with the partitioning): the same cuts on every run
        per = _conf_int(sdf, "prroc_numba.spark_range_rows", _RANGE_ROWS)
        rows *= 1 if models is None else len(models)
        K = n_ranges(k, rows, per)
        fn = functools.partial(RT.curves_task, layout=self.layout, key_cols=keys)
        schema = f"{RT.CURVE} long, {X.SCORE} double, {X.POS} double, {X.NEG} double"
        schema += "".join(f", {c} long" for c in limbs)
        self.K, ranges = ranged(map_in_arrow(ent, fn, schema), K, rows)
        K = self.K
        self.ranged = ranges.persist()
        self._persisted.append(self.ranged)
        self.keys_cols = keys
        fn = functools.partial(RT.totals_task, layout=self.layout, key_cols=keys)
        tot = map_in_arrow(
            self.ranged, fn, f"{RT.PART} long, {RT.CURVE} long, tp double, fp double, n long"
        ).toArrow()
        part = tot[RT.PART].to_numpy()
        curve = tot[RT.CURVE].to_numpy()
        self.tp_r, self.tp0 = _scan(part, curve, tot["tp"].to_numpy(), K, C)
        self.fp_r, self.fp0 = _scan(part, curve, tot["fp"].to_numpy(), K, C)
        self.P, self.N = self.tp_r.sum(axis=0), self.fp_r.sum(axis=0)

    def acc_layout(self):
        from .._core import layout_of

        return layout_of(self.acc)

    def unpersist(self):
        for df in self._persisted:
            df.unpersist()
        self._persisted = []

    def keys(self):
        return self.layout.keys

    def _pass(self, fn, schema, **args):
        fn = functools.partial(fn, layout=self.layout, key_cols=self.keys_cols, **args)
        return map_in_arrow(self.ranged, fn, schema).toArrow()

    def areas(self, codes):
        """``(n_curves, len(codes))``: every estimator's area, one pass over the ranges."""
        out = self._pass(
            RT.areas_task,
            f"{RT.PART} long, {RT.CURVE} long, sums array<double>",
            tp0=self.tp0,
            fp0=self.fp0,
            codes=list(codes),
        )
        total = np.zeros((self.n_curves, len(codes)))
        order = np.argsort(out[RT.PART].to_numpy(), kind="stable")  # ranges in order
        curve = out[RT.CURVE].to_numpy()[order]
        sums = np.asarray(out["sums"].to_pylist(), dtype=np.float64).reshape(-1, len(codes))
        for c, row in zip(curve, sums[order]):
            total[c] += row
        return finish_areas(total, self.P, self.N, list(codes))

    def _reduced(self, curve, score, pos, neg):
        return holding(self.layout, curve, score, pos, neg, reduced=False)

    def totals_state(self):
        return self._reduced(*totals_entries(self.P, self.N))

    def thresholds_state(self, thresholds):
        thr, off = thresholds_of(self.totals_state(), thresholds)
        out = self._pass(
            RT.bins_task,
            f"{RT.PART} long, i long, p double, n double",
            thr=thr,
            off=off,
        )
        bins = []
        part = out[RT.PART].to_numpy()
        for r in range(self.K):
            m = part == r
            p = np.zeros(thr.size + self.n_curves)
            n = np.zeros(thr.size + self.n_curves)
            p[out["i"].to_numpy()[m]] = out["p"].to_numpy()[m]
            n[out["i"].to_numpy()[m]] = out["n"].to_numpy()[m]
            bins.append((p, n))
        return self._reduced(*threshold_entries(bins, thr, off, self.n_curves))

    def hull_state(self):
        out = self._pass(
            RT.hulls_task,
            f"{RT.PART} long, {RT.CURVE} long, tp double, fp double, score double",
            tp0=self.tp0,
            fp0=self.fp0,
        )
        order = np.lexsort(
            (np.arange(out.num_rows), out[RT.CURVE].to_numpy(), out[RT.PART].to_numpy())
        )
        part = out[RT.PART].to_numpy()[order]
        curve = out[RT.CURVE].to_numpy()[order]
        tp, fp = out["tp"].to_numpy()[order], out["fp"].to_numpy()[order]
        score = out["score"].to_numpy()[order]
        hulls = []
        for r in range(self.K):
            m = part == r
            hoff = np.zeros(self.n_curves + 1, dtype=np.int64)
            np.cumsum(np.bincount(curve[m], minlength=self.n_curves), out=hoff[1:])
            hulls.append((tp[m], fp[m], hoff, score[m]))
        return holding(self.layout, *hull_entries(hulls, self.n_curves))


class RowRanges:
    """The Poisson bootstrap's value rows of a Spark frame in score ranges (pass 1
    done: each range's start per replicate).
    """

    def __init__(self, data, kw, row_id, seed, n_boot, k):
        self._persisted = []
        try:
            self._build(data, kw, row_id, seed, n_boot, k)
        except BaseException:
            self.unpersist()
            raise

    def _build(self, data, kw, row_id, seed, n_boot, k):
        from pyspark.sql import functions as F

        by, models = names(data, kw, row_id)
        kw = {**kw, "by": by or None}
        self.seed, self.n_boot = int(seed), int(n_boot)
        cols = columns(kw, row_id)
        # the curves: every group that has a row of non-zero weight (as in memory)
        src = data if kw["weight"] is None else data.where(F.col(kw["weight"]) != 0)
        if by:
            groups = src.select(*by).distinct().toArrow().to_pandas()
            keys = groups.loc[groups.index.repeat(1 if models is None else len(models))]
            if models is not None:
                keys = keys.assign(**{X.MODEL: np.tile(models, len(groups))})
            layout = layout_from_keys(keys.reset_index(drop=True), by, models)[0]
        else:
            import pandas as pd

            from .._core import Layout

            layout = Layout([], models, pd.DataFrame(index=pd.RangeIndex(1)))
        self.layout = layout
        C = self.n_curves = layout.n_curves
        from pyspark.sql import types as T

        long, double = T.LongType(), T.DoubleType()
        spark_schema = T.StructType(
            [
                T.StructField(RT.CURVE, long, True),
                T.StructField(X.SCORE, double, True),
                T.StructField(RT.ROW, long, True),
                T.StructField(X.POS, double, True),
                T.StructField(X.NEG, double, True),
                T.StructField(X.LABEL, data.schema[kw["label"]].dataType, True),
                T.StructField(X.ERROR, T.StringType(), True),
            ]
        )
        fn = functools.partial(
            X.value_rows,
            columns=cols,
            kw=kw,
            schema=arrow_schema(spark_schema),
            layout=layout,
            row_id=row_id,
            fault=W.FAULT_FIRST_ATTEMPT,
        )
        rows = map_in_arrow(data.select(*cols), fn, spark_schema).persist()
        self._persisted.append(rows)
        wire = rows.where(F.col(X.LABEL).isNotNull() | F.col(X.ERROR).isNotNull())
        _r, labels = split_wire(wire.toArrow(), kw["pos_label"], kw["soft_labels"])
        vals = rows.where(F.col(X.LABEL).isNull() & F.col(X.ERROR).isNull()).select(
            RT.CURVE, X.SCORE, RT.ROW, X.POS, X.NEG
        )
        n = vals.count()
        check_merged(layout if n else None, labels, kw["pos_label"])
        per = _conf_int(data, "prroc_numba.spark_range_rows", _RANGE_ROWS)
        self.K, ranges = ranged(vals, n_ranges(k, n, per), n)
        K = self.K
        self.ranged = ranges.persist()
        self._persisted.append(self.ranged)
        nb = self.n_boot + 1
        fn = functools.partial(
            RT.replicate_totals_task, n_curves=C, seed=self.seed, n_boot=self.n_boot
        )
        tot = map_in_arrow(
            self.ranged, fn, f"{RT.PART} long, tp array<double>, fp array<double>"
        ).toArrow()
        tp = np.zeros((K, nb, C))
        fp = np.zeros((K, nb, C))
        for r, a, b in zip(tot[RT.PART].to_numpy(), tot["tp"].to_pylist(), tot["fp"].to_pylist()):
            tp[r] = np.asarray(a).reshape(nb, C)
            fp[r] = np.asarray(b).reshape(nb, C)
        self.tp0 = np.cumsum(tp, axis=0) - tp
        self.fp0 = np.cumsum(fp, axis=0) - fp
        self.P, self.N = tp.sum(axis=0), fp.sum(axis=0)  # (n_boot + 1, n_curves)

    def unpersist(self):
        for df in self._persisted:
            df.unpersist()
        self._persisted = []

    def areas(self, code, hull):
        """``(n_curves, n_boot + 1)`` areas (the last column: the estimate)."""
        if hull:
            self.unpersist()
            raise ValueError(
                "the bootstrap of Spark input with hull=True runs on the merged table only; "
                "round the scores (fewer distinct values) or raise the spark conf "
                "prroc_numba.spark_table_max"
            )
        nb = self.n_boot + 1
        fn = functools.partial(
            RT.replicate_sums_task,
            n_curves=self.n_curves,
            seed=self.seed,
            tp0=self.tp0,
            fp0=self.fp0,
            code=int(code),
        )
        out = map_in_arrow(self.ranged, fn, f"{RT.PART} long, sums array<double>").toArrow()
        total = np.zeros((self.n_curves, nb))
        order = np.argsort(out[RT.PART].to_numpy(), kind="stable")
        sums = out["sums"].to_pylist()
        for i in order:
            total += np.asarray(sums[i]).reshape(self.n_curves, nb)
        self.unpersist()
        return finish_replicate_areas(total, self.P, self.N, code)
