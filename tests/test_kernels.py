"""The Numba kernels called directly on plain arrays."""

from __future__ import annotations

import naive
import numpy as np
import pytest

from prroc_numba._drivers.sweep import sweep_batch
from prroc_numba._kernels.area import DG, INTEGRAL, _area, _areas_batch
from prroc_numba._kernels.hull import _hull_indices
from prroc_numba._kernels.sort import _argsort_desc, _sort_desc
from prroc_numba._kernels.sweep import _sweep_one


def _area_batch(values, offsets, pos, neg, label_start, code, hull):
    """One area per curve through the many-areas kernel (one code, one hull flag)."""
    return _areas_batch(
        values, offsets, pos, neg, label_start, np.array([code], np.int64), np.array([hull])
    )[:, 0]


F32_EXTREMES = [-3.4028235e38, -1.0, -1.4e-45, -0.0, 0.0, 1.4e-45, 1.1754944e-38, 0.5, 3.4028235e38]


@pytest.mark.parametrize("n", [0, 1, 2, 255, 256, 257, 5000])
@pytest.mark.parametrize(
    "kind", ["normal", "ties", "wide_range", "float32", "float32_extremes", "constant"]
)
def test_argsort_is_stable_descending(n, kind):
    """Both key paths (64-bit keys; 32-bit keys packed with the row when every score is
    exactly a float32: "ties", "float32*", "constant") against numpy's stable sort."""
    rng = np.random.default_rng(n)
    if kind == "normal":
        x = rng.normal(size=n)
    elif kind == "ties":
        x = rng.integers(-3, 3, size=n).astype(float)
    elif kind == "wide_range":
        x = rng.choice([-1e300, -5.0, -1e-300, 0.0, 1e-310, 2.5, 1e300], size=n)
    elif kind == "float32":
        x = np.round(rng.random(n), 3).astype(np.float32).astype(np.float64)
    elif kind == "float32_extremes":
        x = rng.choice(np.array(F32_EXTREMES, np.float32), size=n).astype(np.float64)
    else:
        x = np.full(n, 0.25)
    got = _argsort_desc(x)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.argsort(-x, kind="stable"))
    order, xs = _sort_desc(x)
    np.testing.assert_array_equal(order, got)
    np.testing.assert_array_equal(xs, x[got] + 0.0)  # the sorted scores, -0.0 as +0.0
    assert not np.signbit(xs[xs == 0]).any()


def test_argsort_negative_zero_ties_with_zero():
    x = np.array([0.0, -0.0, 1.0, -0.0, 0.0] * 100)
    got = _argsort_desc(x)
    assert np.all(np.diff(x[got]) <= 0)
    zeros = got[x[got] == 0]
    assert np.all(np.diff(zeros) > 0)  # the two zeros tie: input order kept


def test_sweep_batch_equals_one_by_one():
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 400, size=50)
    offsets = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    values = np.round(rng.normal(size=offsets[-1]), 1)
    y = (rng.random(offsets[-1]) < 0.3).astype(float)
    w = rng.random(offsets[-1])
    thr, tp, fp, out = sweep_batch(values, offsets, w * y, w * (1 - y), offsets[:-1])
    for c in range(sizes.size):
        a, b = offsets[c], offsets[c + 1]
        t1, p1, f1 = _sweep_one(values[a:b], w[a:b] * y[a:b], w[a:b] * (1 - y[a:b]))
        np.testing.assert_array_equal(thr[out[c] : out[c + 1]], t1)
        np.testing.assert_array_equal(tp[out[c] : out[c + 1]], p1)
        np.testing.assert_array_equal(fp[out[c] : out[c + 1]], f1)


def test_shared_label_rows():
    """Wide layout: two curves read the same label rows through label_start."""
    y = np.array([1.0, 0.0, 1.0, 0.0])
    values = np.array([0.9, 0.8, 0.7, 0.1, 0.1, 0.7, 0.8, 0.9])
    offsets = np.array([0, 4, 8], dtype=np.int64)
    thr, tp, fp, out = sweep_batch(values, offsets, y, 1 - y, np.array([0, 0], np.int64))
    np.testing.assert_array_equal(tp[:5], [0, 1, 1, 2, 2])
    np.testing.assert_array_equal(tp[5:], [0, 0, 1, 1, 2])
    areas = _area_batch(values, offsets, y, 1 - y, np.array([0, 0], np.int64), 4, False)
    np.testing.assert_allclose(areas, [0.75, 0.25])


def test_hull_equals_brute_force():
    rng = np.random.default_rng(8)
    for _ in range(300):
        n = int(rng.integers(1, 40))
        s = np.round(rng.normal(size=n), 1)
        y = (rng.random(n) < 0.4).astype(float)
        w = rng.choice([0.5, 1.0, 2.0], size=n)
        _, tp, fp = _sweep_one(s, w * y, w * (1 - y))
        np.testing.assert_array_equal(_hull_indices(tp, fp), naive.upper_hull(tp, fp))


def test_hull_degenerate():
    np.testing.assert_array_equal(_hull_indices(np.zeros(2), np.zeros(2)), [0, 1])
    np.testing.assert_array_equal(_hull_indices(np.array([0.0, 3.0]), np.array([0.0, 2.0])), [0, 1])
    # collinear middle point is dropped
    np.testing.assert_array_equal(
        _hull_indices(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0])), [0, 2]
    )


def test_integral_equals_numeric_integration():
    rng = np.random.default_rng(9)
    for _ in range(20):
        n = int(rng.integers(2, 60))
        s = np.round(rng.normal(size=n), 1)
        y = (rng.random(n) < 0.5).astype(float)
        y[0] = 1.0
        w = rng.random(n) + 0.1
        _, tp, fp = _sweep_one(s, w * y, w * (1 - y))
        assert _area(tp, fp, INTEGRAL) == pytest.approx(naive.pr_integral_numeric(tp, fp), abs=1e-6)


def test_dg_approaches_integral_as_counts_grow():
    """Integer-TP points become dense relative to P: DG -> integral."""
    base_tp = np.array([0.0, 1.0, 3.0, 4.0])
    base_fp = np.array([0.0, 0.0, 5.0, 9.0])
    gaps = []
    for k in [1, 10, 100, 1000]:
        tp, fp = base_tp * k, base_fp * k
        gaps.append(abs(_area(tp, fp, DG) - _area(tp, fp, INTEGRAL)))
    assert gaps[0] > 1e-3
    assert all(b < a for a, b in zip(gaps, gaps[1:]))
    assert gaps[-1] < 1e-6


def test_area_batch_codes():
    values = np.array([0.9, 0.8, 0.7, 0.1])
    y = np.array([1.0, 0.0, 1.0, 0.0])
    offsets = np.array([0, 4], np.int64)
    ls = np.array([0], np.int64)
    dg = _area_batch(values, offsets, y, 1 - y, ls, DG, False)[0]
    integral = _area_batch(values, offsets, y, 1 - y, ls, INTEGRAL, False)[0]
    # hand computation: vertices (1,0), (1,1), (2,1), (2,2); flat start at precision 1,
    # drop to 1/2 at recall 1/2, DG point (2,1) precision 2/3: 0.5 + 0.5 * (1/2 + 2/3)/2
    assert dg == pytest.approx(0.5 + 0.25 * (0.5 + 2 / 3))
    # integral: segment (1,1)->(2,1): s=0, a=1, b=1: int_1^2 t/(t+1) dt = 1 - ln(3/2)
    assert integral == pytest.approx(0.5 + 0.5 * (1 - np.log(1.5)))


def test_paired_limbs_are_the_exact_replicate_masses():
    """The exact replicate masses (int64 limbs of base 2**31 of the masses in units of
    2**-72) equal the exact rational sums of count x mass, with the Poisson counts read
    off the float kernel run on unit masses; and their doubles equal the float kernel's
    sums to rounding."""
    from fractions import Fraction

    from prroc_numba._core.mass_limbs import limb_floats, limbs, normalised
    from prroc_numba._kernels.paired_masses import _paired_limbs, _paired_masses

    rng = np.random.default_rng(3)
    n, M, E, B = 400, 2, 30, 6
    entry = np.ascontiguousarray(rng.integers(0, E, (n, M)), dtype=np.int64)
    rows = rng.permutation(n).astype(np.int64)
    w = np.exp(rng.uniform(np.log(1e-6), np.log(1e4), n))
    y = rng.random(n) < 0.4
    pos, neg = np.where(y, w, 0.0), np.where(y, 0.0, w)
    pb, nb = _paired_limbs(entry, rows, limbs(pos), limbs(neg), E, 11, 0, B)
    fp, fn = _paired_masses(entry, rows, pos, neg, E, 11, 0, B)
    for i in range(n):  # each row alone, unit mass: its Poisson count per replicate
        one = np.zeros((1, 1), dtype=np.int64)
        k = _paired_masses(one, rows[i : i + 1], np.ones(1), np.zeros(1), 1, 11, 0, B)[0][:, 0]
        if i == 0:
            want_p = [[Fraction(0)] * E for _ in range(B)]
        for b in range(B):
            for m in range(M):
                want_p[b][entry[i, m]] += int(k[b]) * Fraction(pos[i])
    got = normalised(pb)
    for b in range(B):
        for e in range(E):
            h, m, lo = (int(v) for v in got[b, e])
            assert Fraction(h * 2**62 + m * 2**31 + lo, 2**72) == want_p[b][e]
    np.testing.assert_allclose(limb_floats(pb), fp, rtol=1e-13, atol=0)
    np.testing.assert_allclose(limb_floats(nb), fn, rtol=1e-13, atol=0)
