"""metrics(): every column against independent references, and the class-split sort path.

References: the published tools' values in tests/data (PRROC, scikit-learn), scikit-learn
on random input, and tests/naive.py (sweep by definition, Mann-Whitney pairs, step sum,
the paper's points + trapezoids, brute-force hull). The class-split keys-only sort
(hard, unweighted labels) must give exactly the argsort path's sweep.
"""

from __future__ import annotations

import warnings

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import CASE_NAMES, load_case, random_batch
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn
from prroc_numba._core import presort as _presort
from prroc_numba._core import sweep as _sweep
from prroc_numba._core.packing import pack
from prroc_numba._drivers.sweep import sweep_batch

AREAS = ["auc_pr", "auc_pr_integral", "ap", "auc_pr_trapezoid", "auc_roc"]
ALL = AREAS + [a + "_hull" for a in AREAS] + ["n_pos", "n_neg", "prevalence"]


@pytest.fixture(params=["split", "parts", "argsort"])
def path(request, monkeypatch):
    """Run a test through the class-split sort (every batch; "parts": every curve cut
    into 3 value parts, as one large curve is on several threads) or the argsort."""
    monkeypatch.setattr(
        _presort, "MIN_MEAN_CURVE_VALUES", 10**18 if request.param == "argsort" else 0
    )
    if request.param == "parts":
        _force_parts(monkeypatch, 3)
    return request.param


def _force_parts(monkeypatch, n_parts):
    monkeypatch.setattr(_presort, "PART_MIN_ROWS", 0)
    monkeypatch.setattr(_presort, "_n_parts", lambda n_curves, threads: n_parts)


def test_public_name_is_the_function():
    assert callable(prn.metrics) and "metrics" in prn.__all__
    assert prn.metrics.__module__ == "prroc_numba.areas"


@pytest.mark.parametrize("name", CASE_NAMES)
def test_published_values(name, path):
    """PRROC's DG / integral / ROC AUC (every label mode) and scikit-learn's AP / ROC AUC."""
    case = load_case(name)
    fields = {
        "pr_auc_integral": "auc_pr_integral",
        "pr_auc_davis_goadrich": "auc_pr",
        "roc_auc": "auc_roc",
    }
    for mode, kwargs, _, _ in case.modes():
        got = prn.metrics(case.frame, score=case.scores, metrics=ALL, **kwargs)
        got = got.set_index("model")
        refs = case.ref["prroc"][mode]
        for col in case.scores:
            for field, metric in fields.items():
                want = refs[col][field]
                if want is not None:
                    assert got.loc[col, metric] == pytest.approx(want, abs=1e-9), (mode, col)
        if mode == "hard":
            for col in case.scores:
                ref = case.ref["sklearn"][col]
                assert got.loc[col, "ap"] == pytest.approx(ref["average_precision"], abs=1e-12)
                assert got.loc[col, "auc_roc"] == pytest.approx(ref["roc_auc"], abs=1e-12)


def _naive_row(s, p, q):
    _, tp, fp = naive.sweep(s, p, q)
    h = naive.upper_hull(tp, fp)
    P, N = tp[-1], fp[-1]

    def roc(t, f):
        return float(np.sum((f[1:] - f[:-1]) * (t[1:] + t[:-1])) / (2 * P * N))

    def dg(t, f):
        return naive.trapezoid_pr(*naive.dg_points(t, f))

    def trap(t, f):  # scikit-learn's (0, 1) start, straight lines through the vertices
        prec = np.r_[1.0, t[1:] / (t[1:] + f[1:])]
        return float(np.sum((t[1:] - t[:-1]) * (prec[1:] + prec[:-1])) / (2 * P))

    row = {}
    for suffix, (t, f) in {"": (tp, fp), "_hull": (tp[h], fp[h])}.items():
        row["auc_pr" + suffix] = dg(t, f)
        row["auc_pr_integral" + suffix] = naive.pr_integral_numeric(t, f)
        row["ap" + suffix] = naive.average_precision(t, f)
        row["auc_pr_trapezoid" + suffix] = trap(t, f)
        row["auc_roc" + suffix] = roc(t, f)
    row["auc_roc"] = naive.roc_auc_pairs(s, p, q)
    row.update(n_pos=P, n_neg=N, prevalence=P / (P + N))
    return row


@pytest.mark.parametrize("seed", range(3))
def test_random_groups_against_naive(seed, path):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 6, 60, ties=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = prn.metrics(df, score="s", label="y", by="g", metrics=ALL)
    assert list(got.columns) == ["g"] + ALL
    for g, sub in df.groupby("g"):
        y = sub["y"].to_numpy()
        if y.min() == y.max():
            continue
        want = _naive_row(sub["s"].to_numpy(), y, 1 - y)
        row = got.set_index("g").loc[g]
        for k, v in want.items():
            tol = 2e-5 if "integral" in k else 1e-12  # midpoint rule in naive
            assert row[k] == pytest.approx(v, abs=tol), (g, k)


def test_weights_and_soft_labels_against_naive():
    rng = np.random.default_rng(7)
    df = random_batch(rng, 4, 40, weights=True, soft=True)
    for kwargs, pos_neg in (
        ({"label": "y", "weight": "w"}, lambda d: (d.w * d.y, d.w * (1 - d.y))),
        ({"label": "p", "soft_labels": True}, lambda d: (d.p, 1 - d.p)),
    ):
        got = prn.metrics(
            df,
            score="s",
            by="g",
            metrics=["ap", "auc_roc", "auc_roc_hull", "auc_pr_integral", "n_pos"],
            **kwargs,
        )
        for g, sub in df.groupby("g"):
            p, q = (np.asarray(a, float) for a in pos_neg(sub))
            want = _naive_row(sub["s"].to_numpy(), p, q)
            row = got.set_index("g").loc[g]
            for k in ("ap", "auc_roc", "auc_roc_hull", "n_pos"):
                assert row[k] == pytest.approx(want[k], abs=1e-12), (g, k)
            assert row["auc_pr_integral"] == pytest.approx(want["auc_pr_integral"], abs=2e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_wide_against_sklearn(dtype, path):
    rng = np.random.default_rng(3)
    n = 20_000
    y = (rng.random(n) < 0.05).astype(int)
    S = pd.DataFrame(
        {f"m{k}": (rng.normal(size=n) + k * 0.3 * y).round(k).astype(dtype) for k in range(4)}
    )
    got = prn.metrics(score=S, label=y, metrics=("ap", "auc_roc", "n_pos", "n_neg"))
    assert list(got["model"]) == list(S.columns)
    for k, col in enumerate(S.columns):
        assert got["ap"][k] == pytest.approx(average_precision_score(y, S[col]), abs=1e-12)
        assert got["auc_roc"][k] == pytest.approx(roc_auc_score(y, S[col]), abs=1e-12)
    assert (got["n_pos"] == y.sum()).all() and (got["n_neg"] == n - y.sum()).all()


def test_auc_functions_share_the_path(path):
    rng = np.random.default_rng(5)
    df = random_batch(rng, 5, 300)
    got = prn.metrics(df, score="s", label="y", by="g", metrics=ALL[:10])
    for name in ALL[:10]:
        curve = "roc" if name.startswith("auc_roc") else "pr"
        method = {
            "auc_pr": "dg",
            "auc_pr_integral": "integral",
            "ap": "ap",
            "auc_pr_trapezoid": "trapezoid",
        }.get(name.removesuffix("_hull"))
        one = prn.auc(
            df,
            score="s",
            label="y",
            by="g",
            curve=curve,
            method=method,
            hull=name.endswith("_hull"),
        )
        np.testing.assert_array_equal(one["auc"].to_numpy(), got[name].to_numpy())


def _sweeps(batch):
    split = _presort.split_sorted(batch)
    assert split is not None
    a = _sweep._split_sweep(batch, *split)
    b = sweep_batch(batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start)
    return a, b


@pytest.mark.parametrize("n_parts", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_split_sweep_equals_argsort_sweep(seed, n_parts, monkeypatch):
    """Bit-identical thresholds and counts, with ties, -0.0/+0.0, float32-exact scores,
    wide input with groups, a class absent from a group, one-row curves; whole curves or
    cut into value parts (ties across a part's edge: the rounded scores)."""
    monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
    _force_parts(monkeypatch, n_parts)
    rng = np.random.default_rng(seed)
    n = 3000
    g = rng.integers(0, 5, size=n)
    y = (rng.random(n) < 0.3).astype(int)
    y[g == 4] = 0  # a group without positives
    s0 = np.round(rng.normal(size=n) + y, 1)
    s0[rng.random(n) < 0.1] = -0.0
    s0[rng.random(n) < 0.1] = 0.0
    s1 = (rng.normal(size=n) + y).astype(np.float32).astype(np.float64)
    df = pd.DataFrame({"g": g, "s0": s0, "s1": s1, "y": y})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        batch = pack(df, score=["s0", "s1"], label="y", by="g")
    (t1, p1, f1, o1), (t2, p2, f2, o2) = _sweeps(batch)
    np.testing.assert_array_equal(o1, o2)
    np.testing.assert_array_equal(t1, t2)
    assert not np.signbit(t1[t1 == 0]).any()  # zero thresholds come out +0.0
    np.testing.assert_array_equal(p1, p2)
    np.testing.assert_array_equal(f1, f2)
    # and one curve by definition
    sub = df[df.g == 0]
    thr, tp, fp = naive.sweep(sub.s0.to_numpy(), sub.y.to_numpy(), 1 - sub.y.to_numpy())
    np.testing.assert_array_equal(t1[o1[0] : o1[1]], thr)
    np.testing.assert_array_equal(p1[o1[0] : o1[1]], tp)
    np.testing.assert_array_equal(f1[o1[0] : o1[1]], fp)


def _class_sorted_reference(batch):
    """Each curve's positives' scores, then its negatives', each sorted (numpy)."""
    out = []
    for c in range(batch.n_curves):
        a, b = batch.offsets[c], batch.offsets[c + 1]
        ls = batch.label_start[c]
        x = batch.values[a:b]
        p = batch.pos[ls : ls + b - a] > 0
        out.append(np.concatenate([np.sort(x[p]), np.sort(x[~p])]))
    return np.concatenate(out)


@pytest.mark.parametrize("n_parts", [1, 2, 3, 5])
@pytest.mark.parametrize(
    "kind", ["normal", "constant", "two_values", "float32", "zeros", "one_class"]
)
def test_value_parts_give_the_sorted_class_runs(kind, n_parts, monkeypatch):
    """However a curve is cut into parts (pivots on heavy ties, every score equal, only
    one class), the runs are numpy's sorted runs, and npos counts the positives."""
    monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
    _force_parts(monkeypatch, n_parts)
    rng = np.random.default_rng(n_parts)
    n = 5000
    y = (rng.random(n) < 0.3).astype(int)
    s = {
        "normal": rng.normal(size=n) + y,
        "constant": np.full(n, 0.5),
        "two_values": rng.choice([0.25, 0.75], size=n, p=[0.9, 0.1]),
        "float32": (rng.random(n) + 0.2 * y).astype(np.float32).astype(np.float64),
        "zeros": rng.choice([-0.0, 0.0, 1.0], size=n),
        "one_class": rng.normal(size=n),
    }[kind]
    if kind == "one_class":
        y[:] = 0
    g = rng.integers(0, 3, size=n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        batch = pack(score=np.column_stack([s, s[::-1], 2 * s]), label=y, by=g)
    svals, npos = _presort.split_sorted(batch)
    np.testing.assert_array_equal(svals, _class_sorted_reference(batch))
    assert not np.signbit(svals[svals == 0]).any() or kind == "zeros"
    P, _ = batch.totals()
    np.testing.assert_array_equal(npos, P.astype(np.int64))


@pytest.mark.parametrize("seed", range(4))
def test_collapsed_areas_equal_the_whole_sweeps(seed, monkeypatch):
    """The areas from the collapsed merge equal, bit for bit, the same areas asked
    alongside a hull area, and the argsort path's (over the whole sweep); with ties
    between the classes, long runs of negatives (galloping), -0.0/+0.0, a class absent,
    one-row curves."""
    rng = np.random.default_rng(seed)
    n = 6000
    g = rng.integers(0, 6, size=n)
    y = (rng.random(n) < np.array([0.002, 0.01, 0.3, 0.9, 0.0, 0.5])[g]).astype(int)
    s = rng.normal(size=n) + y
    s = np.where(rng.random(n) < 0.5, np.round(s, 1), s)
    s[rng.random(n) < 0.05] = -0.0
    s[rng.random(n) < 0.05] = 0.0
    g = np.r_[g, 9]  # a one-row curve
    y = np.r_[y, 1]
    s = np.r_[s, 0.5]
    df = pd.DataFrame({"g": g, "s": s, "y": y})
    names = AREAS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
        collapsed = prn.metrics(df, score="s", label="y", by="g", metrics=names)
        whole = prn.metrics(df, score="s", label="y", by="g", metrics=names + ["ap_hull"])
        monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 10**18)
        argsort = prn.metrics(df, score="s", label="y", by="g", metrics=names)
    for name in names:
        np.testing.assert_array_equal(collapsed[name], whole[name], err_msg=name)
        np.testing.assert_array_equal(collapsed[name], argsort[name], err_msg=name)


@pytest.mark.parametrize("seed", range(3))
def test_hull_areas_of_the_collapsed_sweep_equal_the_whole_sweeps(seed, monkeypatch):
    """The class-split path takes the hull of the collapsed sweep (the inner vertices of
    negatives-only runs dropped): every hull area equals, bit for bit, the argsort
    path's over the whole sweep; ties between the classes, long negative runs, a top
    block of negatives, a class absent, one-row curves."""
    rng = np.random.default_rng(10 + seed)
    n = 8000
    g = rng.integers(0, 7, size=n)
    y = (rng.random(n) < np.array([0.002, 0.01, 0.3, 0.9, 0.0, 0.5, 1.0])[g]).astype(int)
    s = rng.normal(size=n) + y
    s = np.where(rng.random(n) < 0.5, np.round(s, 1), s)
    s[(g == 2) & (y == 0)] += 3.0 * (rng.random(((g == 2) & (y == 0)).sum()) < 0.05)
    g = np.r_[g, 9, 10]  # one-row curves
    y = np.r_[y, 1, 0]
    s = np.r_[s, 0.5, 0.1]
    df = pd.DataFrame({"g": g, "s": s, "y": y})
    names = [a + "_hull" for a in AREAS] + AREAS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
        split = prn.metrics(df, score="s", label="y", by="g", metrics=names)
        monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 10**18)
        argsort = prn.metrics(df, score="s", label="y", by="g", metrics=names)
    for name in names:
        np.testing.assert_array_equal(split[name], argsort[name], err_msg=name)


def test_collapsed_merge_keeps_the_last_vertex_of_negative_runs():
    """The collapsed merge's vertices are the whole sweep's vertices minus the inner
    ones of every negatives-only run (by definition, tests/naive.py's sweep)."""
    from prroc_numba._kernels.split_sort import _merge_collapsed

    rng = np.random.default_rng(1)
    for n, prev in [(2000, 0.01), (2000, 0.5), (300, 0.0), (300, 1.0), (1, 1.0)]:
        y = (rng.random(n) < prev).astype(int)
        s = np.round(rng.normal(size=n) + y, 1)
        thr, tp, fp = naive.sweep(s, y, 1 - y)
        drop = np.zeros(tp.size, bool)
        drop[1:-1] = (tp[1:-1] == tp[:-2]) & (tp[2:] == tp[1:-1])
        out = [np.empty(n + 1) for _ in range(3)]
        k = _merge_collapsed(np.sort(s[y == 1]), np.sort(s[y == 0]), *out)
        np.testing.assert_array_equal(out[0][:k], thr[~drop])
        np.testing.assert_array_equal(out[1][:k], tp[~drop])
        np.testing.assert_array_equal(out[2][:k], fp[~drop])
        assert k <= 2 * y.sum() + 2


def test_split_path_only_for_hard_unweighted_labels(monkeypatch):
    monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
    s = np.array([0.3, 0.2, 0.9, 0.5])
    assert _presort.split_sorted(pack(score=s, label=[1, 0, 1, 0])) is not None
    assert (
        _presort.split_sorted(pack(score=s, label=[1, 0, 1, 0], weight=[1, 1, 1, 1])) is not None
    )  # unit weights are no weights
    assert _presort.split_sorted(pack(score=s, label=[1, 0, 1, 0], weight=[1, 2, 1, 1])) is None
    assert _presort.split_sorted(pack(score=s, label=[1, 0, 0.5, 0], soft_labels=True)) is None


def test_curves_through_split_path_match_sklearn(monkeypatch):
    from sklearn.metrics import roc_curve as sk_roc

    monkeypatch.setattr(_presort, "MIN_MEAN_CURVE_VALUES", 0)
    rng = np.random.default_rng(11)
    y = (rng.random(5000) < 0.2).astype(int)
    s = np.round(rng.normal(size=5000) + y, 2)
    ours = prn.roc_curve(score=s, label=y)
    fpr, tpr, thr = sk_roc(y, s, drop_intermediate=False)
    np.testing.assert_allclose(ours["fpr"], fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(ours["tpr"], tpr, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(ours["threshold"].to_numpy()[1:], thr[1:])


def test_undefined_metrics_warn_and_give_nan():
    df = pd.DataFrame({"s": [0.9, 0.1, 0.5, 0.4], "y": [1, 0, 0, 0], "g": list("aabb")})
    with pytest.warns(prn.UndefinedMetricWarning, match="g='b'"):
        got = prn.metrics(
            df, score="s", label="y", by="g", metrics=["auc_pr", "auc_roc", "prevalence"]
        )
    assert got["auc_pr"][0] == 1.0 and np.isnan(got["auc_pr"][1])
    assert np.isnan(got["auc_roc"][1]) and got["prevalence"].tolist() == [0.5, 0.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counts = prn.metrics(df, score="s", label="y", by="g", metrics="n_pos")
    assert counts["n_pos"].tolist() == [1.0, 0.0]


@pytest.mark.parametrize(
    "bad, match",
    [
        (["auc_pr", "auc"], "'auc' is not a metric"),
        (["ap", "ap"], "twice"),
        ([], "no metric"),
        ([3], "3 is not a metric"),
        (3, "sequence of names"),
    ],
)
def test_metric_name_errors(bad, match):
    err = TypeError if bad == 3 else ValueError
    with pytest.raises(err, match=match):
        prn.metrics(score=[0.1, 0.2], label=[0, 1], metrics=bad)
