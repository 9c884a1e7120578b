"""operating_points against a brute-force search over all thresholds (tests/naive.py)."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba._core.packing import pack
from tests import naive
from tests.conftest import load_case, random_batch
from tests.kernel_probes import _paired_counts_one

boot_mod = importlib.import_module("prroc_numba._resampling.plan")
run_mod = importlib.import_module("prroc_numba._resampling.run")
op_mod = importlib.import_module("prroc_numba.operating")

TARGETS = [
    "max_f1",
    "youden",
    "closest_topleft",
    "precision>=0.6",
    "recall>=0.7",
    "fpr<=0.2",
    "tpr>=0.9",
    "precision>=0.999",
    "fpr<=0.0",
    "recall>=0",
]


def _check_rows(res, score, pos, neg, targets, beta=1.0):
    P, N = pos.sum(), neg.sum()
    for k, target in enumerate(targets):
        row = res.iloc[k]
        assert row["target"] == target
        ref = naive.operating_point(score, pos, neg, target, beta)
        if ref is None:
            assert np.isnan(row["threshold"]) and np.isnan(row["tp"]), target
            continue
        t, tp, fp = ref
        assert row["threshold"] == t, target
        assert row["tp"] == pytest.approx(tp, rel=1e-12, abs=1e-12), target
        assert row["fp"] == pytest.approx(fp, rel=1e-12, abs=1e-12), target
        assert row["fn"] == pytest.approx(P - tp, abs=1e-9)
        assert row["tn"] == pytest.approx(N - fp, abs=1e-9)
        assert row["precision"] == pytest.approx(tp / (tp + fp))
        assert row["recall"] == pytest.approx(tp / P)
        if N > 0:
            assert row["fpr"] == pytest.approx(fp / N)
            assert row["specificity"] == pytest.approx(1 - fp / N)
        b2 = beta * beta
        assert row["f_beta"] == pytest.approx((1 + b2) * tp / ((1 + b2) * tp + b2 * (P - tp) + fp))


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_random_batches_with_ties_and_weights_match_brute_force(seed, weights):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 6, 40, ties=True, weights=weights)
    beta = [1.0, 2.0, 0.5, 1.0][seed]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # unmet targets
        res = prn.operating_points(
            df,
            score="s",
            label="y",
            by="g",
            weight="w" if weights else None,
            targets=TARGETS,
            beta=beta,
        )
    assert list(res.columns) == [
        "g",
        "target",
        "threshold",
        "tp",
        "fp",
        "fn",
        "tn",
        "precision",
        "recall",
        "fpr",
        "specificity",
        "f_beta",
    ]
    for g, sub in df.groupby("g"):
        w = sub.w.to_numpy() if weights else np.ones(len(sub))
        y = sub.y.to_numpy()
        _check_rows(
            res[res.g == g].reset_index(drop=True),
            sub.s.to_numpy(),
            w * y,
            w * (1 - y),
            TARGETS,
            beta,
        )


def test_oracle_case_wide_input_and_soft_labels():
    case = load_case("c13_n5000_r20_paired")
    df = case.frame.iloc[:400]
    targets = [
        "max_f1",
        "youden",
        "closest_topleft",
        "precision>=0.2",
        "recall>=0.7",
        "fpr<=0.2",
        "tpr>=0.9",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # unmet: NaN checked
        res = prn.operating_points(df, score=["score", "score2"], label="label", targets=targets)
    y = df.label.to_numpy(float)
    for _i, col in enumerate(["score", "score2"]):
        _check_rows(
            res[res.model == col].reset_index(drop=True), df[col].to_numpy(), y, 1 - y, targets
        )
    soft = load_case("c10_n200_soft").frame
    res = prn.operating_points(
        soft, score="score", label="weight", soft_labels=True, targets=TARGETS[:7]
    )
    w = soft.weight.to_numpy()
    _check_rows(res, soft.score.to_numpy(), w, 1 - w, TARGETS[:7])


def test_unmet_target_gives_nan_row_and_warning_naming_the_curve():
    df = pd.DataFrame(
        {"g": list("aaaabbbb"), "s": [4, 3, 2, 1, 4, 3, 2, 1], "y": [0, 1, 1, 0, 1, 1, 0, 0]}
    )
    with pytest.warns(prn.UndefinedMetricWarning, match=r"'precision>=0.9'.*g='a'"):
        res = prn.operating_points(
            df, score="s", label="y", by="g", targets=["precision>=0.9", "max_f1"]
        )
    assert res.threshold.isna().tolist() == [True, False, False, False]
    nob = pd.DataFrame({"s": [3, 2, 1], "y": [1, 1, 1]})
    with pytest.warns(prn.UndefinedMetricWarning, match="'youden' is undefined"):
        res = prn.operating_points(nob, score="s", label="y", targets=["youden", "max_f1"])
    assert np.isnan(res.threshold[0]) and res.threshold[1] == 1


def test_tuning_set_method_equals_confusion_at_those_thresholds():
    rng = np.random.default_rng(5)
    tune = random_batch(rng, 4, 60)
    test = random_batch(rng, 4, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        op = prn.operating_points(tune, score="s", label="y", by="g", targets=TARGETS[:7])
        res = prn.operating_points(test, score="s", label="y", by="g", thresholds=op)
    assert res.target.tolist() == op.target.tolist()
    np.testing.assert_array_equal(res.threshold, op.threshold)
    for g, sub in test.groupby("g"):
        got = res[res.g == g]
        y = sub.y.to_numpy()
        for _, row in got.iterrows():
            if np.isnan(row.threshold):
                assert np.isnan(row.tp)
                continue
            tp, fp = naive.counts_at(sub.s.to_numpy(), y, 1 - y, [row.threshold])
            assert row.tp == tp[0] and row.fp == fp[0]


def test_replicates_equal_brute_force_on_the_materialised_resample():
    """Each replicate re-picks its threshold: equal to the brute force on the rows the
    replicate's counts stand for (wide input, paired draws)."""
    rng = np.random.default_rng(7)
    n = 80
    y = (rng.random(n) < 0.3).astype(float)
    df = pd.DataFrame(
        {
            "y": y,
            "m1": np.round(y + rng.normal(size=n), 1),
            "m2": np.round(0.5 * y + rng.normal(size=n), 1),
        }
    )
    targets = TARGETS[:7]
    batch = pack(df, score=["m1", "m2"], label="y")
    _, kinds, bounds = op_mod.parse_targets(targets)
    from prroc_numba._drivers.sweep import sweep_batch

    thr_s, _, _, off = sweep_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    out, _ = op_mod._replicate_targets(batch, thr_s, off, kinds, bounds, 1.0, 5, True, 3, False)
    plan = boot_mod.Plan(batch, True)
    for b in range(5):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(3), b)[
            plan.slot
        ]
        for m, col in enumerate(["m1", "m2"]):
            s, p, q = naive.materialise(df[col].to_numpy(), y, 1 - y, cnt)
            for k, target in enumerate(targets):
                ref = naive.operating_point(s, p, q, target)
                got = out[m * len(targets) + k, b]
                if ref is None:
                    assert np.isnan(got).all()
                else:
                    np.testing.assert_allclose(got, [ref[1], ref[2], ref[0]], rtol=1e-12)


def test_fixed_threshold_replicates_equal_counts_on_the_resample():
    rng = np.random.default_rng(8)
    df = random_batch(rng, 1, 70).drop(columns="g")
    op = prn.operating_points(df, score="s", label="y", targets=["max_f1", "youden"])
    batch = pack(df, score="s", label="y")
    thr = op.threshold.to_numpy()
    order = np.argsort(-thr, kind="stable")
    sthr = np.ascontiguousarray(thr[order])
    out, _ = op_mod._replicate_fixed(batch, sthr, np.array([0, 2]), order, 4, False, 9, False)
    plan = boot_mod.Plan(batch, False)
    y = df.y.to_numpy()
    for b in range(4):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(9), b)[
            plan.slot
        ]
        tp, fp = naive.counts_at(df.s.to_numpy(), y * cnt, (1 - y) * cnt, thr)
        np.testing.assert_allclose(out[:, b, 0], tp)
        np.testing.assert_allclose(out[:, b, 1], fp)


def test_intervals_cover_the_estimate_and_are_reproducible():
    rng = np.random.default_rng(2)
    n = 1500
    y = rng.random(n) < 0.2
    df = pd.DataFrame({"y": y, "m": y + rng.normal(size=n)})
    kw = {"score": "m", "label": "y", "targets": ["max_f1", "fpr<=0.1"], "n_boot": 300, "seed": 4}
    a = prn.operating_points(df, **kw)
    b = prn.operating_points(df, **kw)
    pd.testing.assert_frame_equal(a, b)
    for m in ["precision", "recall", "fpr", "f_beta"]:
        assert (a[f"{m}_ci_low"] <= a[m] + 1e-12).all() and (a[m] <= a[f"{m}_ci_high"]).all()
    # a fixed threshold varies less than a re-picked one in recall (for max_f1)
    fixed = prn.operating_points(df, score="m", label="y", thresholds=a, n_boot=300, seed=4)
    assert (fixed.threshold_ci_low == fixed.threshold).all()
    assert fixed.threshold_ci_high.tolist() == fixed.threshold.tolist()


def test_errors():
    kw = {"score": [0.2, 0.4, 0.6, 0.1], "label": [0, 1, 1, 0]}
    with pytest.raises(ValueError, match="target 'precision>0.9' is not known"):
        prn.operating_points(**kw, targets=["precision>0.9"])
    with pytest.raises(ValueError, match="bound must be a number in"):
        prn.operating_points(**kw, targets=["recall>=1.5"])
    with pytest.raises(ValueError, match="twice"):
        prn.operating_points(**kw, targets=["max_f1", "max_f1"])
    with pytest.raises(ValueError, match="beta"):
        prn.operating_points(**kw, beta=0)
    with pytest.raises(ValueError, match="n_boot"):
        prn.operating_points(**kw, n_boot=1)
    with pytest.raises(ValueError, match="lacks the column"):
        prn.operating_points(**kw, thresholds=pd.DataFrame({"threshold": [0.5]}))
    df = pd.DataFrame({"g": list("aabb"), "s": [1, 2, 1, 2], "y": [0, 1, 1, 0]})
    op = prn.operating_points(df[df.g == "a"], score="s", label="y", by="g")
    with pytest.raises(ValueError, match="no rows for g='b'"):
        prn.operating_points(df, score="s", label="y", by="g", thresholds=op)
