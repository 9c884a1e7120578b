"""Operating points: the best sweep vertex of each curve for each target, and the
bootstrap replicates of the counts at chosen (or re-chosen) thresholds.

Targets are integer codes with one number ``x`` each (the constraint's bound; unused
for the optimisation targets). Every target compares vertices by a key, larger is
better, and a tie keeps the earlier vertex (the higher threshold):

==================  ========================================  ===========================
code                candidates (``P > 0`` always)             key (then tie-break)
==================  ========================================  ===========================
``MAX_FBETA``       every vertex                              F-beta
``YOUDEN``          every vertex (``N > 0``)                  TPR - FPR
``TOPLEFT``         every vertex (``N > 0``)                  -(FPR^2 + (1 - TPR)^2)
``PRECISION_GE``    precision >= x                            recall, then precision
``RECALL_GE``       recall >= x                               precision, then recall
``FPR_LE``          FPR <= x (``N > 0``)                      TPR, then -FPR
``TPR_GE``          TPR >= x (``N > 0``)                      -FPR, then TPR
==================  ========================================  ===========================

The origin (vertex 0, threshold ``+inf``: nothing predicted positive) is never a
candidate: an operating point is a score.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .resample import _item_counts

MAX_FBETA = 0
YOUDEN = 1
TOPLEFT = 2
PRECISION_GE = 3
RECALL_GE = 4
FPR_LE = 5
TPR_GE = 6


@jit
def _f_beta(t, f, P, b2):
    """F-beta from counts: ``(1 + b2) t / ((1 + b2) t + b2 (P - t) + f)``."""
    d = (1.0 + b2) * t + b2 * (P - t) + f
    return (1.0 + b2) * t / d if d > 0.0 else np.nan


@jit
def _pick_one(tp, fp, kinds, xs, beta, out):
    """Write into ``out[k]`` the index of the best vertex of one curve for target ``k``
    (-1: no vertex qualifies, or the target is undefined for this curve).
    """
    n = tp.size
    P = tp[n - 1]
    N = fp[n - 1]
    b2 = beta * beta
    for k in range(kinds.size):
        kind = kinds[k]
        x = xs[k]
        best = -1
        k1 = 0.0
        k2 = 0.0
        if P > 0.0 and (N > 0.0 or kind == MAX_FBETA or kind == PRECISION_GE or kind == RECALL_GE):
            for i in range(1, n):
                t = tp[i]
                f = fp[i]
                rec = t / P
                prec = t / (t + f)
                fpr = f / N if N > 0.0 else np.nan
                if kind == MAX_FBETA:
                    ok = True
                    a1 = _f_beta(t, f, P, b2)
                    a2 = 0.0
                elif kind == YOUDEN:
                    ok = True
                    a1 = rec - fpr
                    a2 = 0.0
                elif kind == TOPLEFT:
                    ok = True
                    a1 = -(fpr * fpr + (1.0 - rec) * (1.0 - rec))
                    a2 = 0.0
                elif kind == PRECISION_GE:
                    ok = prec >= x
                    a1 = rec
                    a2 = prec
                elif kind == RECALL_GE:
                    ok = rec >= x
                    a1 = prec
                    a2 = rec
                elif kind == FPR_LE:
                    ok = fpr <= x
                    a1 = rec
                    a2 = -fpr
                else:  # TPR_GE
                    ok = rec >= x
                    a1 = -fpr
                    a2 = rec
                if ok and (best < 0 or a1 > k1 or (a1 == k1 and a2 > k2)):
                    best = i
                    k1 = a1
                    k2 = a2
        out[k] = best


@jit(parallel=True)
def _pick_batch(tp, fp, offsets, kinds, xs, beta):
    """Best vertex of every curve of a ragged sweep for every target.

    ``tp``/``fp`` are laid out by ``offsets`` (origin first, as
    :func:`prroc_numba._drivers.sweep.sweep_batch` returns them). Returns int64 ``(n_curves,
    n_targets)``
    of global vertex indices, -1 where no vertex qualifies.
    """
    n_curves = offsets.size - 1
    out = np.full((n_curves, kinds.size), -1, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        _pick_one(tp[a:b], fp[a:b], kinds, xs, beta, out[c])
        for k in range(kinds.size):
            if out[c, k] >= 0:
                out[c, k] += a
    return out


@jit
def _walk_cuts(xs, slots, ps, ns, cnt, thr, tp, fp):
    """Resampled counts at descending thresholds ``thr`` of one curve.

    Sorted row ``i`` (score ``xs[i]``, descending; masses ``ps[i]``, ``ns[i]``) carries
    multiplicity ``cnt[slots[i]]``. Writes the TP / FP mass of rows with
    ``score >= thr[j]`` into ``tp[j]``, ``fp[j]``; returns the totals ``(P, N)``.
    """
    n = xs.size
    t = 0.0
    f = 0.0
    i = 0
    for j in range(thr.size):
        while i < n and xs[i] >= thr[j]:
            w = cnt[slots[i]]
            t += w * ps[i]
            f += w * ns[i]
            i += 1
        tp[j] = t
        fp[j] = f
    while i < n:
        w = cnt[slots[i]]
        t += w * ps[i]
        f += w * ns[i]
        i += 1
    return t, f


@jit
def _boot_operating(
    xs,
    slot_order,
    ps,
    ns,
    offsets,
    thr,
    thr_offsets,
    draw,
    n_models,
    seed,
    b0,
    b1,
    kinds,
    xv,
    beta,
    pick,
    out,
    totals,
    t0,
    t1,
):
    """Replicates ``b0 .. b1-1`` of the counts at operating points, every curve: items
    ``t0 .. t1-1`` of the (group, replicate) pairs (run in chunks by
    :func:`prroc_numba._drivers.threads.run_items`, as :func:`.resample._boot_paired`).

    Per group and replicate one slot-count vector is drawn (the same streams and draws
    as :func:`.resample._boot_paired`; with clusters a slot is a cluster) and reused for
    every model of the group. For curve ``c`` the counts are walked at its thresholds
    ``thr[thr_offsets[c]:thr_offsets[c + 1]]`` (descending):

    * with ``pick`` they are the curve's distinct scores; the replicate's vertices are
      those where the counts move (a score none of whose rows was drawn is absent), and
      the best vertex for each target is re-picked (:func:`_pick_one`): row
      ``c * n_targets + k`` of ``out``;
    * without ``pick`` they are fixed thresholds: row ``thr_offsets[c] + q`` of ``out``.

    ``draw`` is the plan's multinomial draw with its own count type, which never
    overflows (see :func:`.resample._boot_paired`).
    Writes ``out[row, b - b0, :] = (tp, fp, threshold)`` (NaN when no vertex
    qualifies) and ``totals[c, b - b0, :] = (P, N)``.
    """
    nk = kinds.size
    for t in range(t0, t1):
        g, b, cnt = _item_counts(draw, seed, t, b0, b1)
        j = b - b0
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            h0 = thr_offsets[c]
            h1 = thr_offsets[c + 1]
            ctp = np.empty(h1 - h0)
            cfp = np.empty(h1 - h0)
            P, N = _walk_cuts(xs[u:v], slot_order[u:v], ps[u:v], ns[u:v], cnt, thr[h0:h1], ctp, cfp)
            totals[c, j, 0] = P
            totals[c, j, 1] = N
            if not pick:
                for q in range(h1 - h0):
                    out[h0 + q, j, 0] = ctp[q]
                    out[h0 + q, j, 1] = cfp[q]
                    out[h0 + q, j, 2] = thr[h0 + q]
                continue
            vt = np.empty(h1 - h0 + 1)
            vf = np.empty(h1 - h0 + 1)
            vthr = np.empty(h1 - h0 + 1)
            vt[0] = 0.0
            vf[0] = 0.0
            vthr[0] = np.inf
            m = 1
            for q in range(h1 - h0):
                if ctp[q] != vt[m - 1] or cfp[q] != vf[m - 1]:
                    vt[m] = ctp[q]
                    vf[m] = cfp[q]
                    vthr[m] = thr[h0 + q]
                    m += 1
            idx = np.empty(nk, dtype=np.int64)
            _pick_one(vt[:m], vf[:m], kinds, xv, beta, idx)
            for k in range(nk):
                r = c * nk + k
                if idx[k] < 0:
                    out[r, j, 0] = np.nan
                    out[r, j, 1] = np.nan
                    out[r, j, 2] = np.nan
                else:
                    out[r, j, 0] = vt[idx[k]]
                    out[r, j, 1] = vf[idx[k]]
                    out[r, j, 2] = vthr[idx[k]]
