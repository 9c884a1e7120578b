"""Property-based: every device function against the CPU path on random shapes --
weights (zeros included), soft labels, ties, several models, groups, one-class and
tiny curves, and chunk / super-chunk sizes that put boundaries everywhere (the kernels
at those sizes; the public functions at their own). Kept small: the simulator is slow.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import prroc_numba as prn
from prroc_numba._core.packing import pack
from prroc_numba._drivers import cuda as gpu
from prroc_numba._drivers.sweep import sweep_batch
from prroc_numba._kernels import area
from prroc_numba._kernels.area import _areas_batch
from prroc_numba._kernels.hull import _hull_batch

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def frames(draw):
    """A long frame: groups of random sizes, 1-3 models, ties, weights / soft labels."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_groups = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, 9)) for _ in range(n_groups)]
    n = sum(sizes)
    M = draw(st.integers(1, 3))
    levels = draw(st.integers(1, 6))
    df = pd.DataFrame({"g": np.repeat(np.arange(n_groups), sizes)})
    for m in range(M):
        df[f"s{m}"] = rng.integers(0, levels, n) / levels
    kind = draw(st.sampled_from(["hard", "weights", "zero_weights", "soft"]))
    df["y"] = rng.integers(0, 2, n)
    if draw(st.booleans()):  # a one-class group
        df.loc[df.g == 0, "y"] = draw(st.integers(0, 1))
    df["w"] = 1.0
    if kind == "weights":
        df["w"] = rng.random(n) + 0.1
    elif kind == "zero_weights":
        df["w"] = rng.integers(0, 3, n).astype(float)
        first = df.groupby("g").head(1).index  # every group keeps some mass
        df.loc[first, "w"] = 1.0
    df["p"] = rng.random(n).round(2)
    kw = {"score": [f"s{m}" for m in range(M)] if M > 1 else "s0", "by": "g"}
    if kind == "soft":
        kw.update(label="p", soft_labels=True)
    else:
        kw.update(label="y", weight=None if kind == "hard" else "w")
    return df, kw


def _same(got, want):
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(case=frames(), chunk=st.sampled_from([1, 2, 3, 5]), sup=st.sampled_from([1, 2, 3]))
def test_kernels_equal_cpu_at_every_chunk_boundary(case, chunk, sup):
    df, kw = case
    b = pack(df, **kw)
    args = (b.values, b.offsets, b.pos, b.neg, b.label_start)
    for code in (area.AP, area.PR_TRAPEZOID, area.DG, area.INTEGRAL, area.ROC_TRAPEZOID):
        for hull in (False, True):
            want = _areas_batch(*args, np.array([code], np.int64), np.array([hull]))[:, 0]
            got = gpu.area_batch(b, code, hull, chunk=chunk, sup=sup)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    thr, tp, fp, off = gpu.sweep_batch(b, chunk=chunk, sup=sup)
    w_thr, w_tp, w_fp, w_off = sweep_batch(*args)
    np.testing.assert_array_equal(off, w_off)
    np.testing.assert_array_equal(thr, w_thr)
    np.testing.assert_allclose(tp, w_tp, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fp, w_fp, rtol=1e-12, atol=1e-12)
    idx, h_off = gpu.hull_batch(tp, fp, off)
    w_idx, w_h_off = _hull_batch(w_tp, w_fp, w_off)
    np.testing.assert_array_equal(h_off, w_h_off)
    np.testing.assert_array_equal(idx, w_idx)


@SETTINGS
@given(case=frames())
def test_public_functions_equal_cpu(case):
    df, kw = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        for hull in (False, True):
            _same(
                prn.pr_curve(df, **kw, hull=hull, device="cuda"),
                prn.pr_curve(df, **kw, hull=hull, device="cpu"),
            )
            _same(
                prn.roc_curve(df, **kw, hull=hull, device="cuda"),
                prn.roc_curve(df, **kw, hull=hull, device="cpu"),
            )
            for curve, method in (("pr", "dg"), ("pr", "ap"), ("roc", None)):
                args = {**kw, "curve": curve, "method": method, "hull": hull}
                _same(prn.auc(df, **args, device="cuda"), prn.auc(df, **args, device="cpu"))
        _same(prn.confusion(df, **kw, device="cuda"), prn.confusion(df, **kw, device="cpu"))
        names = ["auc_pr", "ap_hull", "auc_roc", "n_pos", "eer"]
        _same(
            prn.metrics(df, **kw, metrics=names, device="cuda"),
            prn.metrics(df, **kw, metrics=names),
        )
        boot = {**kw, "n_boot": 5, "seed": 3, "stratified": False}
        _same(
            prn.bootstrap(df, **boot, device="cuda"),
            prn.bootstrap(df, **boot, resampling="poisson"),
        )


def test_metrics_on_the_device_says_so():
    df = pd.DataFrame({"s": [0.9, 0.4, 0.3, 0.1], "y": [1, 0, 1, 0]})
    got = prn.metrics(df, score="s", label="y", device="cuda")
    assert got.attrs["device"] == "cuda"
    _same(got, prn.metrics(df, score="s", label="y").pipe(lambda f: f))
    with pytest.raises(ValueError, match="run on the CPU"):
        prn.metrics(score=np.eye(3), label=[0, 1, 2], multiclass="ovr", device="cuda")
