"""Weighted masses summed exactly, so that their sum does not depend on the order.

A partition of a distributed frame adds its rows' weights; the partitions' sums are
then added again. In floating point the result depends on how the rows were split and
in which order the pieces arrived, in the last bit. Here every mass ``x`` with
``2**-20 <= x < 2**20`` (or 0) is an exact integer multiple of ``2**-72`` (a double of
that size has no bit below ``2**-72``), so ``x * 2**72 < 2**92`` is carried as three
int64 limbs of base ``2**31`` (:func:`limbs`). Limbs add in integer arithmetic, exactly
and in any order (:func:`limb_sums`; up to ``2**32`` masses before an int64 limb could
overflow), and the double is formed once, at the end, from the normalised exact sum
(:func:`limb_floats`): the same bits whatever the partitioning.

On the wire a normalised sum travels as two int64 columns (:func:`wire_pair`,
:func:`from_wire`): ``hi`` (the units of ``2**-10``) and ``lo`` (the rest, below
``2**62``).

Every weight the engines accept as plain (``[1e-6, 1e4]``, as the group-by path's
decimal sum) lies in the range; a mass outside it (a soft label times a weight, a tiny
or huge weight) makes :func:`limbs` return None and the caller keeps the float sums.
"""

from __future__ import annotations

import numpy as np

LOW, HIGH = 2.0**-20, 2.0**20
_BASE = 2**31
_MASK = _BASE - 1


def limbs(x):
    """``(n, 3)`` int64 limbs of the masses ``x`` (most significant first), or None
    when a mass is neither 0 nor in ``[LOW, HIGH)`` (or is not finite).
    """
    x = np.asarray(x, dtype=np.float64)
    ok = (x == 0) | ((x >= LOW) & (x < HIGH))
    if not bool(np.all(ok)):
        return None
    # every step is exact: scaling by powers of 2 and taking a fraction's integer part
    a = x * 2.0**10
    c2 = np.floor(a)
    b = (a - c2) * 2.0**31
    c1 = np.floor(b)
    c0 = (b - c1) * 2.0**31
    out = np.empty((*x.shape, 3), dtype=np.int64)
    out[..., 0], out[..., 1], out[..., 2] = c2, c1, c0
    return out


def limb_sums(lm, starts):
    """The limbs summed over the runs that start at ``starts`` (not normalised)."""
    if lm.shape[0] == 0:
        return lm[:0]
    return np.add.reduceat(lm, starts, axis=0)


def normalised(lm):
    """The same exact sums with the two lower limbs in ``[0, 2**31)``."""
    lm = np.array(lm, dtype=np.int64, copy=True)
    carry = lm[..., 2] >> 31
    lm[..., 2] &= _MASK
    lm[..., 1] += carry
    carry = lm[..., 1] >> 31
    lm[..., 1] &= _MASK
    lm[..., 0] += carry
    return lm


def limb_floats(lm):
    """One double per exact sum: a function of the normalised sum alone."""
    hi, lo = wire_pair(lm)
    return hi.astype(np.float64) * 2.0**-10 + lo.astype(np.float64) * 2.0**-72


def wire_pair(lm):
    """``(hi, lo)``: the normalised sums as two int64 columns."""
    lm = normalised(lm)
    return lm[..., 0].copy(), (lm[..., 1] << 31) | lm[..., 2]


def from_wire(hi, lo):
    """The ``(n, 3)`` limbs of two int64 columns from :func:`wire_pair`."""
    hi = np.asarray(hi, dtype=np.int64)
    lo = np.asarray(lo, dtype=np.int64)
    out = np.empty((*hi.shape, 3), dtype=np.int64)
    out[..., 0], out[..., 1], out[..., 2] = hi, lo >> 31, lo & _MASK
    return out


def exact_entries(batch):
    """``(curve, score, pos limbs, neg limbs)``: a packed batch's masses summed exactly
    over equal (curve, score), sorted by curve then score descending (the entries of
    :func:`.table.batch_entries`); None when a mass is outside what the limbs take.
    """
    from .partitions import sorted_rows

    curve, s, ps, ns, _row, starts = sorted_rows(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    lp, ln = limbs(ps), limbs(ns)
    if lp is None or ln is None:
        return None
    return curve[starts], s[starts], limb_sums(lp, starts), limb_sums(ln, starts)


def merged_exact(curve, score, lp, ln, extra=()):
    """``(curve, score, pos, neg, extra)``: entries (from several partitions) summed
    exactly over equal (curve, score), sorted by curve then score descending, each mass
    the double of its exact sum; ``extra``: more limbs per entry (the replicate masses,
    ``(n, n_boot, 3)``), summed and formed the same way.
    """
    from .table import reduce_entries

    curve, score, _p, _n, red = reduce_entries(curve, score, lp[:, 0], ln[:, 0], (lp, ln, *extra))
    pos, neg, *more = (limb_floats(x) for x in red)
    return curve, score, pos, neg, tuple(more)


def exact_replicates(rp, seed, n_boot):
    """``(curve, score, pos, neg, pos_b, neg_b)`` limbs of a partition's value rows
    (:class:`.partitions.RowPart`): each entry's masses and its ``n_boot`` Poisson
    replicate masses ``(n_entries, n_boot, 3)``, summed exactly
    (:func:`prroc_numba._kernels.paired_masses._paired_limbs`); None when a mass is
    outside what the limbs take.
    """
    from .._drivers import paired_limbs
    from .partitions import paired_rows

    lp, ln = limbs(rp.pos), limbs(rp.neg)
    if lp is None or ln is None:
        return None
    s = rp.starts
    ent, rows, pick = paired_rows(rp)
    pb, nb = paired_limbs(ent, rows, lp[pick], ln[pick], s.size, seed, 0, n_boot)
    return (
        rp.curve[s],
        rp.score[s],
        limb_sums(lp, s),
        limb_sums(ln, s),
        np.ascontiguousarray(pb.transpose(1, 0, 2)),
        np.ascontiguousarray(nb.transpose(1, 0, 2)),
    )
