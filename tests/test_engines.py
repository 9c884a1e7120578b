"""The same numbers on every engine: one table of engines x cases.

For a seed, ``bootstrap(resampling="poisson")`` and ``compare(resampling="poisson")``
must give identical replicates (and so identical intervals and p-values) in memory, on a
real Dask ``LocalCluster``, and on every other engine listed in :data:`ENGINES` (the
CUDA row runs in tests/cuda, under Numba's CUDA simulator or on a GPU). The reference
row is the in-memory call (itself checked against naive references and scikit-learn in
tests/test_poisson_bootstrap.py).

A Spark DataFrame (a real local SparkSession, tests/conftest.py) gets each row's
position as its row-id column (``row_id=``), which keys the Poisson counts: the same
replicates.

A saved-and-loaded state (:meth:`Accumulator.save` / :meth:`Accumulator.load`) and the
state of a :mod:`prroc_numba.torch` metric hold distinct scores with their counts, not
rows, and the Poisson counts are keyed on a row's position, so they give no Poisson
replicates: their rows check the estimates (the areas of all rows), and the replicate
cases are listed as skipped with the reason (:attr:`Engine.no_replicates`). (The torch
metric's ``compute_frame(n_boot=...)`` resamples its table of counts, the multinomial
bootstrap of ``prn.bootstrap``'s default, tested in tests/test_torch.py.) A torch
metric that keeps its rows (``keep_rows=True``) compares its score columns with
``compare(resampling="poisson")``: its row runs the compare case, replicates bit for bit.

Adding an engine is one :class:`Engine` appended to ``ENGINES``: a name, a runner
``run(fn, df, kw, request)`` that calls ``fn`` (``prn.bootstrap`` or ``prn.compare``)
on that engine and returns what the in-memory call returns, and what it covers
(``"replicates"`` and/or ``"estimates"``; without replicates, why not).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

SEED = 20


@dataclass(frozen=True)
class Engine:
    name: str
    run: Callable
    covers: tuple = ("replicates", "estimates")
    #: None: every number bit for bit; else the largest absolute difference allowed
    #: (and why)
    atol: float | None = None
    #: why the engine cannot give the Poisson replicates (its replicate cases are
    #: skipped with this reason), when ``covers`` leaves them out
    no_replicates: str = ""
    #: the cases it runs (None: all); the others are skipped with ``no_replicates``
    cases: tuple | None = None


def _memory(fn, df, kw, request):
    return fn(df, **kw)


def _dask(fn, df, kw, request):
    import dask
    import dask.dataframe as dd

    request.getfixturevalue("client")  # the module's LocalCluster (tests/test_dask.py)
    ddf = dd.from_pandas(df, npartitions=5, sort=False)
    exact = "ranges" if kw.pop("_ranges", False) else "table"
    with dask.config.set({"prroc_numba.dask_exact": exact}):
        return fn(ddf, **kw)


def _saved_state(fn, df, kw, request):
    """The areas of a state built in parts, each saved and loaded (npz), then merged."""
    tmp = request.getfixturevalue("tmp_path")
    acc = prn.Accumulator()
    args = {k: kw[k] for k in ("score", "label", "by") if kw.get(k) is not None}
    for i, part in enumerate(np.array_split(np.arange(len(df)), 4)):
        path = tmp / f"part{i}.npz"
        prn.Accumulator().update(df.iloc[part], **args).save(path)
        acc.merge(prn.Accumulator.load(path))
    return acc.auc(curve=kw["curve"], method=kw.get("method"))


def _spark(fn, df, kw, request):
    """``fn`` on a Spark frame of the rows (3 partitions by row id), keyed by the row
    ids (each row's position in ``df``, as in memory)."""
    spark = request.getfixturevalue("spark")  # tests/conftest.py: a real SparkSession
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        sdf = spark.createDataFrame(df.assign(rid=np.arange(len(df), dtype=np.int64)))
    return fn(sdf.repartitionByRange(3, "rid"), **kw, row_id="rid")


def _torch(fn, df, kw, request):
    """The areas of a :mod:`prroc_numba.torch` metric fed the rows in 3 batches."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    import prroc_numba.torch as pt

    # several score columns: named as models (2-D preds with one label per row)
    models = list(kw["score"]) if isinstance(kw["score"], list) else None
    if kw["curve"] == "roc":
        metric = pt.AUROC(models=models)
    else:
        metric = pt.AUCPR(method=kw.get("method", "dg"), models=models)
    score = df[kw["score"]].to_numpy(np.float64)
    label = df[kw["label"]].to_numpy(np.int64)
    # the groups as integer codes in sorted order (the frame's rows follow them)
    by = None if kw.get("by") is None else np.unique(df[kw["by"]], return_inverse=True)[1]
    for part in np.array_split(np.arange(len(df)), 3):
        metric.update(
            torch.from_numpy(score[part]),
            torch.from_numpy(label[part]),
            by=None if by is None else torch.from_numpy(by[part]),
        )
    return metric.compute_frame()


def _torch_rows(fn, df, kw, request):
    """``compare`` of a :mod:`prroc_numba.torch` metric that keeps its rows
    (``keep_rows=True``), fed the rows in 3 batches: its paired, Poisson-resampled
    comparison of the score columns, named as in ``df`` (``models=``)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    import prroc_numba.torch as pt

    assert fn is prn.compare and kw["curve"] == "pr" and kw.get("by") is None
    metric = pt.AUCPR(method=kw["method"], keep_rows=True, models=list(kw["score"]))
    score = df[kw["score"]].to_numpy(np.float64)
    label = df[kw["label"]].to_numpy(np.int64)
    for part in np.array_split(np.arange(len(df)), 3):
        metric.update(torch.from_numpy(score[part]), torch.from_numpy(label[part]))
    out = metric.compare(
        n_boot=kw["n_boot"], seed=kw["seed"], resampling="poisson", stratified=kw["stratified"]
    )
    for col in ("model_a", "model_b"):
        out[col] = out[col].astype(str)
    return out


_NO_ROWS = (
    "holds distinct scores with their counts, not rows: the Poisson counts are keyed on "
    "a row's position, so no Poisson replicates"
)

ENGINES = [
    Engine("memory", _memory),
    Engine("dask", _dask),
    # continuous scores on Dask: each score range sums its area terms, the client adds
    # the ranges' sums, so areas agree to rounding (the counts are the same)
    Engine(
        "dask ranges",
        lambda fn, df, kw, r: _dask(fn, df, {**kw, "_ranges": True}, r),
        atol=1e-12,
    ),
    Engine("spark", _spark),
    Engine(
        "saved state",
        _saved_state,
        covers=("estimates",),
        no_replicates="a saved state " + _NO_ROWS,
    ),
    Engine(
        "torch",
        _torch,
        covers=("estimates",),
        no_replicates="a prroc_numba.torch metric's state "
        + _NO_ROWS
        + " (its compute_frame(n_boot=...) draws the multinomial bootstrap of that table)",
    ),
    Engine(
        "torch kept rows",
        _torch_rows,
        covers=("replicates",),
        cases=("compare pr",),
        no_replicates="a prroc_numba.torch metric compares its kept rows (compare()); its "
        "per-curve intervals come from its table of counts (no Poisson replicates)",
    ),
]


def _frame(n=1200, seed=SEED):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return pd.DataFrame(
        {
            "g": rng.choice(["p", "q"], n),
            "y": y,
            "m1": np.round(y + rng.normal(size=n), 2),  # ties
            "m2": 0.7 * y + rng.normal(size=n),  # continuous
        }
    )


CASES = {
    "bootstrap pr": (
        prn.bootstrap,
        {"score": ["m1", "m2"], "label": "y", "by": "g", "curve": "pr", "method": "dg"},
    ),
    "bootstrap roc": (prn.bootstrap, {"score": "m2", "label": "y", "curve": "roc"}),
    "compare pr": (
        prn.compare,
        {"score": ["m1", "m2"], "label": "y", "curve": "pr", "method": "ap"},
    ),
}


def _call(engine, case, request):
    fn, kw = CASES[case]
    kw = {**kw, "n_boot": 40, "seed": SEED, "resampling": "poisson", "stratified": False}
    if fn is prn.bootstrap:
        kw["return_replicates"] = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        return engine.run(fn, _frame(), kw, request)


_REF: dict = {}


def reference(case, request):
    if case not in _REF:
        _REF[case] = _call(ENGINES[0], case, request)
    return _REF[case]


def same_replicates(got, want, atol=None):
    """Identical replicates, intervals and p-values (every number bit for bit, or to
    ``atol``)."""
    got, want = (
        (got if isinstance(got, tuple) else (got,)),
        (want if isinstance(want, tuple) else (want,)),
    )
    for a, b in zip(got, want):
        a = a.drop(columns=[c for c in a.columns if c not in b.columns])
        # every number exactly; key columns by value (Dask's strings are Arrow-backed)
        pd.testing.assert_frame_equal(
            a.reset_index(drop=True),
            b.reset_index(drop=True),
            check_dtype=False,
            **({"check_exact": True} if atol is None else {"rtol": 0, "atol": atol}),
        )
        for c in b.select_dtypes("number").columns:
            assert a[c].dtype == b[c].dtype, c


def same_estimates(got, want):
    """The state's areas against the intervals' point estimates (to rounding: the
    state's areas are summed in another order)."""
    est = want[0] if isinstance(want, tuple) else want
    np.testing.assert_allclose(
        got["auc"].to_numpy(), est["estimate"].to_numpy(), rtol=0, atol=1e-12
    )


from tests.engine_fixtures import client as client  # noqa: E402,F401 (the LocalCluster fixture)


def _pairs():
    """Every (engine, case) the engine covers: replicates, or (bootstrap only) the
    estimates."""
    for engine in ENGINES[1:]:
        for case, (fn, _kw) in CASES.items():
            if engine.cases is not None and case not in engine.cases:
                skip = pytest.mark.skip(reason=f"{engine.name}: {engine.no_replicates}")
                yield pytest.param(engine, case, id=f"{engine.name}-{case}", marks=skip)
            elif "replicates" in engine.covers or fn is prn.bootstrap:
                yield pytest.param(engine, case, id=f"{engine.name}-{case}")
            else:
                skip = pytest.mark.skip(reason=f"{engine.name}: {engine.no_replicates}")
                yield pytest.param(engine, case, id=f"{engine.name}-{case}", marks=skip)


@pytest.mark.parametrize("engine, case", list(_pairs()))
def test_every_engine_gives_the_in_memory_numbers(engine, case, request):
    want = reference(case, request)
    if "replicates" in engine.covers:
        same_replicates(_call(engine, case, request), want, engine.atol)
    else:
        same_estimates(_call(engine, case, request), want)


def test_the_reference_row_varies_with_the_seed():
    """The table can fail: replicates differ between seeds and have spread."""
    fn, kw = CASES["bootstrap pr"]
    kw = {**kw, "n_boot": 40, "resampling": "poisson", "stratified": False}
    a = fn(_frame(), **kw, seed=1, return_replicates=True)[1]["estimate"].to_numpy()
    b = fn(_frame(), **kw, seed=2, return_replicates=True)[1]["estimate"].to_numpy()
    assert not np.array_equal(a, b) and np.ptp(a) > 0
