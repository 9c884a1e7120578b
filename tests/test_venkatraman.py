"""compare(test="venkatraman"): the statistic equals pROC's, the permutation
distribution and p-value agree with pROC 1.18's in distribution (stored figures,
tests/data/peers/venkatraman_pROC.*), and each permutation equals the slow definition."""

import json
from pathlib import Path

import naive
import numba
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba._kernels.rng import _stream, _uniform
from prroc_numba._kernels.venkatraman import (
    _unpaired_stat,
    _venkatraman_paired,
    _venkatraman_unpaired,
)

DATA = Path(__file__).parent / "data" / "peers"
REF = json.loads((DATA / "venkatraman_pROC.json").read_text())
ROWS = pd.read_csv(DATA / "venkatraman_pROC_data.csv")


def _inputs(x, y, label):
    sign = np.where(np.asarray(label) == 1, 1.0, -1.0)
    return np.argsort(x, kind="stable"), np.argsort(y, kind="stable"), sign


@pytest.mark.parametrize("case", REF, ids=lambda c: f"n{c['n']}")
def test_statistic_and_p_value_agree_with_pROC(case):
    sub = ROWS[ROWS.dataset == case["dataset"]]
    ref = case["paired"]
    res = prn.compare(
        sub, score=["a", "b"], label="y", curve="roc", test="venkatraman", n_boot=4000, seed=3
    )
    assert res.statistic[0] == ref["E"]  # deterministic: exactly pROC's
    # both p-values estimate the same permutation p from 4000 draws each
    p = ref["p_value"]
    sd = np.sqrt(max(p * (1 - p), 1e-3) * 2 / 4000)
    assert abs(res.p_value[0] - p) < 4.5 * sd
    assert np.isnan(res.ci_low[0]) and np.isnan(res.ci_high[0])


@pytest.mark.parametrize("case", REF, ids=lambda c: f"n{c['n']}")
def test_permutation_distribution_agrees_with_pROC(case):
    sub = ROWS[ROWS.dataset == case["dataset"]]
    ref = case["paired"]
    r, s, sign = _inputs(sub.a.to_numpy(), sub.b.to_numpy(), sub.y.to_numpy())
    perm = _venkatraman_paired(r, s, sign, 11, 0, 8000)
    se = ref["perm_sd"] * np.sqrt(1 / 4000 + 1 / 8000)
    assert abs(perm.mean() - ref["perm_mean"]) < 4.5 * se
    assert perm.std(ddof=1) == pytest.approx(ref["perm_sd"], rel=0.06)
    q = np.quantile(perm, [0.05, 0.25, 0.5, 0.75, 0.95])
    np.testing.assert_allclose(q, ref["perm_quantiles"], rtol=0.08, atol=2.0)


@pytest.mark.parametrize("seed", range(4))
def test_statistic_and_each_permutation_equal_the_definition(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 40))
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [1, 0]
    a = np.round(rng.normal(size=n) + y, 1 if seed % 2 else 3)  # ties when seed is odd
    b = np.round(rng.normal(size=n) + 0.5 * y, 1)
    res = prn.compare(
        score=np.column_stack([a, b]),
        label=y,
        curve="roc",
        test="venkatraman",
        n_boot=50,
        seed=seed,
    )
    assert res.statistic[0] == naive.venkatraman_paired_stat(a, b, y)
    r, s, sign = _inputs(a, b, y)
    perm = _venkatraman_paired(r, s, sign, 99, 4, 6)
    for k in range(6):
        st = _stream(99, 4, k)
        jr, js, keep = np.empty(n), np.empty(n), np.empty(n, bool)
        for i in range(n):
            jr[i] = _uniform(st) - 0.5
            js[i] = _uniform(st) - 0.5
            keep[i] = _uniform(st) >= 0.5
        assert perm[k] == naive.venkatraman_permuted(a, b, y, keep, jr, js)


def test_bit_identical_whatever_the_thread_count():
    sub = ROWS[ROWS.dataset == 5]
    r, s, sign = _inputs(sub.a.to_numpy(), sub.b.to_numpy(), sub.y.to_numpy())
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _venkatraman_paired(r, s, sign, 5, 2, 300)
    finally:
        numba.set_num_threads(old)
    many = _venkatraman_paired(r, s, sign, 5, 2, 300)
    np.testing.assert_array_equal(one, many)


def test_many_models_groups_and_seeds():
    df = ROWS.assign(c=ROWS.a + ROWS.b)
    kw = dict(score=["a", "b", "c"], label="y", by="dataset", curve="roc", n_boot=200, seed=0)
    res = prn.compare(df, test="venkatraman", **kw)
    assert len(res) == 5 * 3 and "statistic" in res.columns
    pd.testing.assert_frame_equal(res, prn.compare(df, test="venkatraman", **kw))
    one = res[(res.dataset == 2) & (res.model_a == "a") & (res.model_b == "b")]
    ref = next(c for c in REF if c["dataset"] == 2)
    assert one.statistic.iloc[0] == ref["paired"]["E"]
    # AUCs are DeLong's (the empirical ROC AUC)
    dl = prn.compare(df, test="delong", **{k: v for k, v in kw.items() if k != "seed"})
    np.testing.assert_allclose(res.estimate_a, dl.estimate_a, rtol=1e-12)
    # identical models: E = 0 and every permutation gives 0, so p = 1
    same = prn.compare(
        df.assign(a2=df.a),
        score=["a", "a2"],
        label="y",
        curve="roc",
        test="venkatraman",
        n_boot=100,
        seed=0,
    )
    assert same.statistic[0] == 0 and same.p_value[0] == 1.0


def test_venkatraman_errors():
    with pytest.raises(ValueError, match="curve='roc'"):
        prn.compare(ROWS, score=["a", "b"], label="y", test="venkatraman")
    with pytest.raises(ValueError, match="weight"):
        prn.compare(
            ROWS, score=["a", "b"], label="y", curve="roc", test="venkatraman", weight="dataset"
        )
    with pytest.raises(ValueError, match="partial"):
        prn.compare(
            ROWS, score=["a", "b"], label="y", curve="roc", test="venkatraman", partial=(0, 0.2)
        )
    with pytest.raises(ValueError, match="hull=False"):
        prn.compare(ROWS, score=["a", "b"], label="y", curve="roc", test="venkatraman", hull=True)


# ------------------------------------------------------------------------- unpaired


def _unpaired_frame(case):
    sub = ROWS[ROWS.dataset == case["dataset"]]
    h = case["split"]
    return pd.concat(
        [
            pd.DataFrame({"curve": "first", "s": sub.a.iloc[:h], "y": sub.y.iloc[:h]}),
            pd.DataFrame({"curve": "second", "s": sub.b.iloc[h:], "y": sub.y.iloc[h:]}),
        ],
        ignore_index=True,
    )


def _seqs(long):
    out = []
    for _, g in long.groupby("curve", sort=True):
        out.append(g.y.to_numpy()[np.argsort(g.s.to_numpy(), kind="stable")].astype(np.int64))
    r, s = out
    return r, s, (r.sum() + s.sum()) / (2.0 * r.size)


@pytest.mark.parametrize("case", REF, ids=lambda c: f"n{c['n']}")
def test_unpaired_statistic_p_value_and_distribution_agree_with_pROC(case):
    long = _unpaired_frame(case)
    ref = case["unpaired"]
    res = prn.compare(
        long,
        score="s",
        label="y",
        by="curve",
        curve="roc",
        test="venkatraman",
        n_boot=4000,
        seed=2,
    )
    assert res.model_a[0] == "first" and res.model_b[0] == "second"
    assert res.statistic[0] == pytest.approx(ref["E"], rel=1e-12)
    p = ref["p_value"]
    assert abs(res.p_value[0] - p) < 4.5 * np.sqrt(max(p * (1 - p), 1e-3) * 2 / 4000)
    r, s, mp = _seqs(long)
    perm = _venkatraman_unpaired(r, s, mp, 11, 0, 8000)
    se = ref["perm_sd"] * np.sqrt(1 / 4000 + 1 / 8000)
    assert abs(perm.mean() - ref["perm_mean"]) < 4.5 * se
    assert perm.std(ddof=1) == pytest.approx(ref["perm_sd"], rel=0.06)
    q = np.quantile(perm, [0.05, 0.25, 0.5, 0.75, 0.95])
    np.testing.assert_allclose(q, ref["perm_quantiles"], rtol=0.08)


def _replay_choose(st, pool, n_take):
    need, out = n_take, []
    for t in range(pool):
        take = _uniform(st) * (pool - t) < need
        out.append(take)
        need -= take
    return out


@pytest.mark.parametrize("seed", range(4))
def test_unpaired_statistic_and_each_permutation_equal_the_definition(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(6, 30)), int(rng.integers(6, 30))
    r = (rng.random(n) < 0.4).astype(np.int64)
    s = (rng.random(m) < 0.5).astype(np.int64)
    r[:2], s[:2] = [1, 0], [0, 1]
    mp = (r.sum() + s.sum()) / (2.0 * n)
    assert _unpaired_stat(r, s, mp) == pytest.approx(
        naive.venkatraman_unpaired_stat(r, s, mp), rel=1e-12, abs=1e-15
    )
    perm = _venkatraman_unpaired(r, s, mp, 42, 3, 5)
    for k in range(5):
        st = _stream(42, 3, k)
        jr = [_uniform(st) - 0.5 for _ in range(n)]
        js = [_uniform(st) - 0.5 for _ in range(m)]
        neg = _replay_choose(st, (n - r.sum()) + (m - s.sum()), n - r.sum())
        pos = _replay_choose(st, r.sum() + s.sum(), r.sum())
        ref = naive.venkatraman_unpaired_permuted(r, s, mp, jr, js, neg, pos)
        assert perm[k] == pytest.approx(ref, rel=1e-12, abs=1e-15)


def test_unpaired_bit_identical_whatever_the_thread_count_and_errors():
    r, s, mp = _seqs(_unpaired_frame(REF[4]))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _venkatraman_unpaired(r, s, mp, 5, 2, 300)
    finally:
        numba.set_num_threads(old)
    np.testing.assert_array_equal(one, _venkatraman_unpaired(r, s, mp, 5, 2, 300))
    long = _unpaired_frame(REF[0])
    with pytest.raises(ValueError, match="at least two by= groups"):
        prn.compare(
            long[long.curve == "first"],
            score="s",
            label="y",
            by="curve",
            curve="roc",
            test="venkatraman",
        )
    with pytest.raises(ValueError, match="several models"):
        prn.compare(long, score="s", label="y", curve="roc", test="venkatraman")
