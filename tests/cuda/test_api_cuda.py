"""The public functions with ``device="cuda"`` (here: Numba's CUDA simulator) give the
frames of ``device="cpu"``; GPU arrays select the GPU; attrs record the device."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import random_batch
from numba import cuda

import prroc_numba as prn


def _df():
    rng = np.random.default_rng(21)
    df = random_batch(rng, 3, 30, weights=True)
    df["s2"] = np.round(df["s"] * 0.5 + rng.normal(size=len(df)), 0)
    return df


def _same(a, b):
    pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "curve,method,hull",
    [("pr", "dg", False), ("pr", "integral", True), ("pr", "ap", False), ("roc", None, True)],
)
def test_auc(curve, method, hull):
    df = _df()
    kw = {
        "score": ["s", "s2"],
        "label": "y",
        "by": "g",
        "weight": "w",
        "curve": curve,
        "method": method,
        "hull": hull,
    }
    got = prn.auc(df, device="cuda", **kw)
    assert got.attrs["device"] == "cuda"
    want = prn.auc(df, device="cpu", **kw)
    assert want.attrs["device"] == "cpu"
    _same(got, want)


@pytest.mark.parametrize("hull", [False, True])
def test_curves(hull):
    df = _df()
    kw = {"score": ["s", "s2"], "label": "y", "by": "g", "weight": "w"}
    _same(
        prn.roc_curve(df, hull=hull, device="cuda", **kw),
        prn.roc_curve(df, hull=hull, device="cpu", **kw),
    )
    _same(
        prn.pr_curve(df, hull=hull, device="cuda", **kw),
        prn.pr_curve(df, hull=hull, device="cpu", **kw),
    )
    _same(
        prn.pr_curve(df, interpolate="dg", device="cuda", **kw),
        prn.pr_curve(df, interpolate="dg", device="cpu", **kw),
    )
    got = prn.confusion(df, device="cuda", **kw)
    assert got.attrs["device"] == "cuda"
    _same(got, prn.confusion(df, **kw))


def test_one_class_group_warns_and_is_nan_on_both():
    df = pd.DataFrame(
        {"g": list("aaabbb"), "s": [0.9, 0.5, 0.1, 0.8, 0.4, 0.2], "y": [1, 0, 1, 0, 0, 0]}
    )
    with pytest.warns(prn.UndefinedMetricWarning, match="g='b'"):
        got = prn.auc(df, score="s", label="y", by="g", device="cuda")
    with pytest.warns(prn.UndefinedMetricWarning):
        want = prn.auc(df, score="s", label="y", by="g")
    _same(got, want)
    assert np.isnan(got.auc.iloc[1])


def test_gpu_arrays_select_the_gpu():
    rng = np.random.default_rng(2)
    y = (rng.random(50) < 0.4).astype(float)
    x = np.round(y + rng.normal(size=50), 1)
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    got = prn.auc(score=d_x, label=d_y)
    assert got.attrs["device"] == "cuda"
    assert got.auc.iloc[0] == pytest.approx(prn.auc(score=x, label=y).auc.iloc[0], abs=1e-12)
    assert prn.auc(score=d_x, label=d_y, device="cpu").attrs["device"] == "cpu"
    g = np.repeat([0, 1], 25)
    by_gpu = prn.auc(score=d_x, label=d_y, by=cuda.to_device(g))
    pd.testing.assert_frame_equal(
        by_gpu, prn.auc(score=x, label=y, by=g), check_exact=False, rtol=1e-12, atol=1e-12
    )
    assert prn.auc_pr(d_y, d_x, method="ap") == pytest.approx(
        prn.auc_pr(y, x, method="ap"), abs=1e-12
    )
    assert prn.auc_roc(d_y, d_x) == pytest.approx(prn.auc_roc(y, x), abs=1e-12)


def test_cuda_array_interface_object_is_read():
    """Anything with __cuda_array_interface__ (here a Numba device array in a wrapper)."""
    from prroc_numba._core import device as _device

    class Wrapped:
        def __init__(self, arr):
            self._arr = cuda.to_device(arr)
            self.__cuda_array_interface__ = {"shape": arr.shape}

        def copy_to_host(self):
            return self._arr.copy_to_host()

    x = np.array([0.3, 0.1, 0.2])
    assert _device.is_gpu_array(Wrapped(x))
    assert not _device.is_gpu_array(x)
    np.testing.assert_array_equal(_device.to_host(Wrapped(x)), x)


def test_cuda_errors():
    df = _df()
    with pytest.raises(ValueError, match="stratified=False"):
        prn.bootstrap(df, score="s", label="y", n_boot=2, device="cuda")
    with pytest.raises(ValueError, match="CPU only"):
        prn.bootstrap(
            df, score="s", label="y", n_boot=2, stratified=False, hull=True, device="cuda"
        )
    with pytest.raises(ValueError, match="bca"):
        prn.bootstrap(
            df, score="s", label="y", n_boot=2, stratified=False, interval="bca", device="cuda"
        )
    with pytest.raises(ValueError, match="thresholds"):
        prn.roc_curve(df, score="s", label="y", thresholds=[0.5], device="cuda")
    with pytest.raises(ValueError, match="delong"):
        prn.compare(df, score=["s", "s2"], label="y", curve="roc", test="delong", device="cuda")


@pytest.mark.parametrize("hull", [False, True])
def test_chunks_of_more_than_255_tie_blocks(hull):
    """A chunk holds up to ~1,024 rows: its count of tie blocks must not wrap at 255 (the
    blocks' end flags are uint8; under numpy's rules a count summed from them stayed
    uint8 and the sweep wrote past the end of its output)."""
    rng = np.random.default_rng(0)
    n = 300  # continuous scores: every row its own block, one chunk per curve
    y = (rng.random(n) < 0.3).astype(int)
    df = pd.DataFrame({"y": y, "w": rng.random(n) * 2, "m0": rng.random(n) + 0.3 * y})
    df["m1"] = rng.random(n) + 0.2 * y
    for fn in (prn.pr_curve, prn.roc_curve):
        kw = dict(score=["m0", "m1"], label="y", weight="w", hull=hull)
        _same(fn(df, device="cuda", **kw), fn(df, device="cpu", **kw))
