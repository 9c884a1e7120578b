"""Accumulator: batches, merges and pickles give the in-memory results on all rows seen.

The reference is the in-memory public function on the concatenated rows (itself checked
against the oracles and scikit-learn elsewhere); areas are also checked against
scikit-learn directly.
"""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn

TOL = {"check_exact": False, "rtol": 0, "atol": 1e-12}


def _frame(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "g": rng.choice(["x", "y", "z"], n),
            "y": rng.integers(0, 2, n),
            "a": rng.integers(0, 40, n) / 8,  # many ties
            "b": rng.normal(size=n),
            "w": rng.random(n) * (rng.random(n) > 0.1),  # some zero weights
            "soft": rng.random(n),
        }
    )


ARGS = [
    {"score": "a", "label": "y"},
    {"score": ["a", "b"], "label": "y", "by": "g"},
    {"score": ["b", "a"], "label": "y", "by": "g", "weight": "w"},
    {"score": "a", "label": "soft", "by": "g", "soft_labels": True},
]


@pytest.mark.parametrize("kw, n_batches", list(zip(ARGS, [1000, 100, 100, 30])))
def test_batches_equal_one_call(kw, n_batches):
    df = _frame()
    acc = prn.Accumulator()
    for part in np.array_split(np.arange(len(df)), n_batches):
        acc.update(df.iloc[part], **kw)  # batches whose rows all weigh 0 add nothing
    for curve, method in [
        ("pr", "dg"),
        ("pr", "integral"),
        ("pr", "ap"),
        ("pr", "trapezoid"),
        ("roc", None),
    ]:
        for hull in (False, True):
            pd.testing.assert_frame_equal(
                acc.auc(curve=curve, method=method, hull=hull),
                prn.auc(df, **kw, curve=curve, method=method, hull=hull),
                **TOL,
            )
    for fn in ("roc_curve", "pr_curve", "confusion"):
        pd.testing.assert_frame_equal(getattr(acc, fn)(), getattr(prn, fn)(df, **kw), **TOL)
    pd.testing.assert_frame_equal(
        acc.roc_curve(hull=True), prn.roc_curve(df, **kw, hull=True), **TOL
    )
    pd.testing.assert_frame_equal(
        acc.pr_curve(hull=True, interpolate="dg"),
        prn.pr_curve(df, **kw, hull=True, interpolate="dg"),
        **TOL,
    )
    thr = prn.roc_curve(df.sample(frac=0.5, random_state=1), **kw, hull=True)
    pd.testing.assert_frame_equal(
        acc.confusion(thresholds=thr), prn.confusion(df, **kw, thresholds=thr), **TOL
    )
    pd.testing.assert_frame_equal(
        acc.pr_curve(thresholds=[0.5, 2.0]), prn.pr_curve(df, **kw, thresholds=[0.5, 2.0]), **TOL
    )


def _stream(kind, n_batches=40, rows=8000, seed=11):
    """Batches of one curve as arrays: 320,000 rows in all, more than the rows an
    Accumulator keeps before it reduces them, so the stream is reduced mid-way and again
    at the end (continuous: the table rejoins the sort; tied: a second table is merged).
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_batches):
        y = rng.random(rows) < 0.05
        s = rng.normal(size=rows) + 1.5 * y
        if kind == "tied":
            s = np.round(s, 2)
        elif kind == "float32":
            s = s.astype(np.float32)
        out.append((s, y))
    return out


@pytest.mark.parametrize("kind", ["continuous", "tied", "float32"])
def test_array_stream_equals_one_call(kind):
    batches = _stream(kind)
    acc = prn.Accumulator()
    for i, (s, y) in enumerate(batches):
        # labels as bool, 0/1 integers and 0.0/1.0 floats; every fourth batch as a frame
        label = [y, y.astype(np.int8), y.astype(float)][i % 3]
        if i % 4 == 3:
            acc.update(pd.DataFrame({"s": s, "y": label}), score="s", label="y")
        else:
            acc.update(score=s, label=label)
    s = np.concatenate([b[0] for b in batches])
    y = np.concatenate([b[1] for b in batches])
    df = pd.DataFrame({"s": s.astype(np.float64), "y": y.astype(int)})
    kw = {"score": "s", "label": "y"}
    for curve, method in [("pr", "dg"), ("pr", "ap"), ("pr", "trapezoid"), ("roc", None)]:
        for hull in (False, True):
            pd.testing.assert_frame_equal(
                acc.auc(curve=curve, method=method, hull=hull),
                prn.auc(df, **kw, curve=curve, method=method, hull=hull),
                **TOL,
            )
    assert acc.auc(method="ap")["auc"].iloc[0] == pytest.approx(
        average_precision_score(y, s), abs=1e-12
    )
    assert acc.auc(curve="roc")["auc"].iloc[0] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    for fn in ("roc_curve", "pr_curve"):
        pd.testing.assert_frame_equal(getattr(acc, fn)(), getattr(prn, fn)(df, **kw), **TOL)
    pd.testing.assert_frame_equal(acc.pr_curve(hull=True), prn.pr_curve(df, **kw, hull=True), **TOL)
    assert acc.n_entries == np.unique(s).size
    counts = acc.table()
    assert counts["pos"].sum() == y.sum() and counts["neg"].sum() == (~y).sum()


def test_array_stream_edge_batches():
    """One-class batches, signed zeros (one score), decimals=, and labels the array path
    leaves to the full one (-1/1) give the in-memory result."""
    rng = np.random.default_rng(2)
    s = np.r_[rng.normal(size=600), [0.0, -0.0, 0.0, -0.0]]
    y = np.r_[rng.integers(0, 2, 600), [1, 0, 0, 1]]
    y[:100], y[100:200] = 1, 0  # a batch of positives only, one of negatives only
    for decimals in (None, 1):
        acc = prn.Accumulator(decimals=decimals)
        for part in np.array_split(np.arange(s.size), [100, 200, 300, 450]):
            lab = np.where(y[part] == 1, 1, -1) if part[0] == 300 else y[part]
            acc.update(score=s[part], label=lab)
        ref = s if decimals is None else np.round(s, decimals)
        for curve in ("pr", "roc"):
            pd.testing.assert_frame_equal(
                acc.auc(curve=curve), prn.auc(score=ref, label=y, curve=curve), **TOL
            )
        pd.testing.assert_frame_equal(acc.roc_curve(), prn.roc_curve(score=ref, label=y), **TOL)
        assert acc.n_entries == np.unique(ref + 0.0).size
    with pytest.raises(ValueError, match="NaN or infinite"):
        prn.Accumulator().update(score=np.array([0.1, np.nan]), label=np.array([0, 1]))
    with pytest.raises(ValueError, match="label"):
        prn.Accumulator().update(score=np.array([0.1, 0.2]), label=np.array([0, 2]))


def test_merge_equals_one_fed_with_both_and_sklearn():
    df = _frame(seed=3)
    a, b, both = prn.Accumulator(), prn.Accumulator(), prn.Accumulator()
    kw = {"score": ["a", "b"], "label": "y", "by": "g"}
    a.update(df.iloc[:1000], **kw)
    b.update(df.iloc[1000:], **kw)
    both.update(df.iloc[:1000], **kw).update(df.iloc[1000:], **kw)
    merged = a.merge(b)
    pd.testing.assert_frame_equal(merged.table(), both.table(), **TOL)
    res = merged.metrics(("ap", "auc_roc", "auc_pr"))
    for _, row in res.iterrows():
        sub = df[df["g"] == row["g"]]
        assert row["ap"] == pytest.approx(
            average_precision_score(sub["y"], sub[row["model"]]), abs=1e-12
        )
        assert row["auc_roc"] == pytest.approx(
            roc_auc_score(sub["y"], sub[row["model"]]), abs=1e-12
        )
    pd.testing.assert_frame_equal(
        res[["g", "model", "auc_pr"]].rename(columns={"auc_pr": "auc"}),
        prn.auc(df, **kw).drop(columns=["curve", "method"]),
        **TOL,
    )


def test_groups_appear_late_and_arrays():
    rng = np.random.default_rng(5)
    n = 500
    s, y, g = rng.normal(size=n), rng.integers(0, 2, n), rng.integers(0, 4, n)
    acc = prn.Accumulator()
    for part in np.array_split(np.argsort(g, kind="stable"), 7):  # groups arrive in order
        acc.update(score=s[part], label=y[part], by=g[part])
    pd.testing.assert_frame_equal(acc.auc(), prn.auc(score=s, label=y, by=g), **TOL)
    acc2 = prn.Accumulator().update(score=np.c_[s, -s], label=y)
    pd.testing.assert_frame_equal(
        acc2.auc(curve="roc"), prn.auc(score=np.c_[s, -s], label=y, curve="roc"), **TOL
    )


def test_pickle_round_trip_and_memory():
    df = _frame()
    acc = prn.Accumulator().update(df, score=["a", "b"], label="y", by="g")
    back = pickle.loads(pickle.dumps(acc))
    pd.testing.assert_frame_equal(back.auc(), acc.auc(), check_exact=True)
    # "a" has 40 distinct values: 3 groups x 40 entries at most
    assert prn.Accumulator().update(df, score="a", label="y", by="g").n_entries <= 120


def test_decimals_rounds_scores_on_entry():
    df = _frame()
    acc = prn.Accumulator(decimals=1).update(df, score="b", label="y")
    assert acc.n_entries <= 100
    pd.testing.assert_frame_equal(
        acc.auc(), prn.auc(df.assign(b=df["b"].round(1)), score="b", label="y"), **TOL
    )


def test_errors():
    df = _frame()
    with pytest.raises(ValueError, match="seen no rows"):
        prn.Accumulator().auc()
    acc = prn.Accumulator().update(df, score=["a", "b"], label="y", by="g")
    with pytest.raises(ValueError, match="same by="):
        acc.update(df, score=["a", "b"], label="y")
    with pytest.raises(ValueError, match="same score columns"):
        acc.update(df, score=["b", "a"], label="y", by="g")
    with pytest.raises(ValueError, match="same score columns"):
        acc.merge(prn.Accumulator().update(df, score="a", label="y", by="g"))
    with pytest.raises(ValueError, match="decimals"):
        acc.merge(prn.Accumulator(decimals=2))
    with pytest.raises(TypeError, match="Accumulator"):
        acc.merge(df)
    with pytest.raises(TypeError, match="decimals"):
        prn.Accumulator(decimals=1.5)
    with pytest.raises(ValueError, match="not a metric"):
        acc.metrics(("auc_xyz",))
    with pytest.raises(ValueError, match="not a column"):
        acc.update(df, score=["a", "b"], label="y", by="g", weight="nope")
    with pytest.raises(ValueError, match="soft_labels=True"):  # validation is pack's
        acc.update(df, score=["a", "b"], label="soft", by="g")


@pytest.mark.parametrize("kind", ["continuous", "ties", "float32", "signed_zero"])
def test_the_class_split_table_equals_the_swept_one(kind):
    """A batch of hard, unweighted labels is reduced by the class-split keys-only sort
    (batch_entries); it must give exactly the table of the general sort (swept_entries),
    for one curve and for many (groups x models), with ties and -0.0 / 0.0."""
    from prroc_numba._core.packing import pack
    from prroc_numba._core.presort import split_sorted
    from prroc_numba._core.table import batch_entries, swept_entries

    rng = np.random.default_rng(7)
    n = 30_000
    y = (rng.random(n) < 0.2).astype(int)
    a, b = rng.normal(size=n) + y, rng.normal(size=n)
    if kind == "ties":
        a, b = np.round(a, 1), np.round(b, 2)
    elif kind == "float32":
        a, b = a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64)
    elif kind == "signed_zero":
        a, b = np.round(a, 0) * 0.0 - (y * 0.0), np.where(y == 1, -0.0, 0.0) + np.round(b)
    df = pd.DataFrame({"a": a, "b": b, "y": y, "g": rng.integers(0, 3, n)})
    for score, by in (("a", None), (["a", "b"], "g")):
        batch = pack(df, score=score, label="y", by=by)
        assert split_sorted(batch) is not None  # the class-split path is the one taken
        split = batch_entries(batch)
        swept = swept_entries(batch)
        for x, z in zip(split, swept):
            np.testing.assert_array_equal(x, z)
            assert not ((x == 0) & np.signbit(x)).any()  # -0.0 and 0.0: one score, 0.0
