"""The Poisson(1) stream shared by the CPU, Dask and GPU bootstraps (_kernels/poisson.py)."""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np

from prroc_numba._kernels import poisson

MASK = (1 << 64) - 1


def _mix64(z):
    """splitmix64 finaliser on numpy uint64 arrays (wrapping arithmetic)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _reference_counts(seed, replicate, rows):
    """Vectorised restatement of the documented recipe: SplitMix64 output, then inversion."""
    key = _mix64(np.array([seed], dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15))
    key = _mix64(key ^ (np.array([replicate], dtype=np.uint64) * np.uint64(0xF1357AEA2E62A9C5)))
    z = _mix64(key + (rows.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15))
    return np.searchsorted(poisson.POISSON1_CDF, z, side="right")


def test_cdf_table_is_the_exact_poisson1_cdf():
    # e^-1 as an exact rational partial sum (error < 1/60!), independent of Decimal
    e_inv = sum(Fraction((-1) ** j, factorial(j)) for j in range(60))
    cdf = Fraction(0)
    for k in range(poisson.POISSON_MAX):
        cdf += e_inv / factorial(k)
        assert int(poisson.POISSON1_CDF[k]) == (cdf * (1 << 64)).__floor__()
    assert poisson.POISSON1_CDF.dtype == np.uint64
    assert np.all(np.diff(poisson.POISSON1_CDF.astype(object)) > 0)


def test_cpu_compilation_equals_python_and_the_recipe():
    rows = np.arange(3000)
    for seed, b in [(0, 0), (1, 7), (2**40 + 3, 999)]:
        ref = _reference_counts(seed, b, rows)
        key = np.uint64(poisson.replicate_key_cpu(seed, b))
        got = np.array([poisson.poisson_count_cpu(key, r) for r in rows])
        np.testing.assert_array_equal(got, ref)
        with np.errstate(over="ignore"):  # numpy scalars warn on (intended) uint64 wrap
            assert key == poisson.replicate_key(seed, b)
            py = np.array([poisson.poisson_count(key, int(r)) for r in rows[:200]])
        np.testing.assert_array_equal(py, ref[:200])


def test_counts_are_poisson1():
    n = 400_000
    counts = _reference_counts(12345, 3, np.arange(n))
    assert abs(counts.mean() - 1) < 4 * np.sqrt(1 / n)
    assert abs(counts.var() - 1) < 6 * np.sqrt(3 / n)
    # chi-square over k = 0..5 and the tail
    pmf = np.array([np.exp(-1) / factorial(k) for k in range(6)])
    expected = n * np.append(pmf, 1 - pmf.sum())
    observed = np.append(np.bincount(counts, minlength=7)[:6], (counts >= 6).sum())
    chi2 = ((observed - expected) ** 2 / expected).sum()
    assert chi2 < 22.5  # 6 degrees of freedom, p = 0.001


def test_replicates_and_seeds_are_independent_streams():
    rows = np.arange(100_000)
    a = _reference_counts(5, 0, rows)
    b = _reference_counts(5, 1, rows)
    c = _reference_counts(6, 0, rows)
    for x, y in [(a, b), (a, c), (b, c)]:
        assert abs(np.corrcoef(x, y)[0, 1]) < 0.015
        assert not np.array_equal(x, y)


def test_the_rare_large_counts_past_the_branch_free_steps():
    """Counts of 6 and more leave the branch-free first steps of the inversion."""
    rows = np.arange(400_000)
    ref = _reference_counts(5, 3, rows)
    big = rows[ref >= 6]
    assert big.size > 50 and ref.max() >= 8
    key = np.uint64(poisson.replicate_key_cpu(5, 3))
    got = np.array([poisson.poisson_count_cpu(key, r) for r in big])
    np.testing.assert_array_equal(got, ref[big])


def test_range_replicate_walks_equal_the_naive_sums():
    """Pass 1 and pass 2 of a score range's Poisson replicates (the Dask and Spark range
    paths) against the recipe's counts, summed per curve and per tie block by hand."""
    from prroc_numba._core.partitions import (
        replicate_area_sums,
        replicate_class_totals,
        tie_blocks,
    )
    from prroc_numba._kernels.segments import segment_area

    rng = np.random.default_rng(4)
    n, C, B, seed = 600, 3, 6, 9
    curve = np.sort(rng.integers(0, C, n))
    score = np.round(rng.normal(size=n), 1)  # tie blocks of several rows
    row = rng.permutation(10 * n)[:n].astype(np.int64)
    y = rng.random(n) < 0.3
    w = rng.integers(1, 4, n) * 0.5
    pos, neg = np.where(y, w, 0.0), np.where(y, 0.0, w)
    blocks = tie_blocks(C, (curve, score, row, pos, neg))
    tp, fp = replicate_class_totals(blocks, seed, B)
    tp0 = rng.integers(0, 50, (B + 1, C)).astype(float)
    fp0 = rng.integers(0, 50, (B + 1, C)).astype(float)
    for code in (0, 2, 4):
        got = replicate_area_sums(blocks, tp0, fp0, seed, code)
        for b in range(B + 1):
            k = _reference_counts(seed, b, row) if b < B else np.ones(n, dtype=np.int64)
            for c in range(C):
                m = curve == c
                assert tp[b, c] == np.sum(k[m] * pos[m]) and fp[b, c] == np.sum(k[m] * neg[m])
                ta, fa, total = tp0[b, c], fp0[b, c], 0.0
                for v in np.unique(score[m])[::-1]:  # tie blocks, scores descending
                    t = m & (score == v)
                    tb, fb = ta + np.sum(k[t] * pos[t]), fa + np.sum(k[t] * neg[t])
                    total += segment_area(code, ta, fa, tb, fb)
                    ta, fa = tb, fb
                np.testing.assert_allclose(got[c, b], total, rtol=1e-13, atol=0)
