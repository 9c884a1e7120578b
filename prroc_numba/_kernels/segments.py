"""Per-segment area formulas, written once for every engine.

Every AUC estimator of :mod:`.area` is a sum over adjacent sweep vertices
``A = (ta, fa)`` -> ``B = (tb, fb)`` of a term that depends on A and B only, divided
at the end by ``P`` (PR) or ``P * N`` (ROC):

* :func:`segment_area` -- the term of one segment for estimator ``method`` (the codes
  of :mod:`.area`: AP 0, PR_TRAPEZOID 1, DG 2, INTEGRAL 3, ROC_TRAPEZOID 4);
* :func:`finish_area` -- the normalisation (and NaN where the area is undefined).

So a curve's area can be summed in any order over its segments -- by one thread over
the whole curve, or by many threads over chunks of it (the CUDA kernels sum each chunk
of a curve on its own). The functions are plain Python on purpose and self-contained
(no calls), so the CPU compilation (:data:`segment_area_cpu`, ``prroc_numba._numba.jit``)
and the CUDA one (``numba.cuda.jit(device=True)``) compile the very same code.

A vertex with ``ta + fa == 0`` is the origin (the public layer drops zero-weight rows,
so no later vertex has zero mass; resampling kernels skip tie groups whose resampled
mass is zero for the same reason). Per estimator:

* AP: ``(tb - ta) * precision(B)``;
* PR_TRAPEZOID: ``(tb - ta) * (precision(B) + precision(A))`` with precision 1 at the
  origin (scikit-learn's end point), halved at the end;
* DG: the Davis & Goadrich points ``ta + x`` between A and B joined by trapezoids; from
  the origin, a flat start at the first point's precision; after a top block of
  negatives only (``ta == 0 < fa``) the segment starts at precision 0;
* INTEGRAL: the closed-form area under precision ``TP / (TP + FA + s (TP - ta))``;
* ROC_TRAPEZOID: ``(fb - fa) * (tb + ta)``, halved at the end.
"""

from __future__ import annotations

import math

from .._numba import jit


def segment_area(method, ta, fa, tb, fb):
    """Unnormalised area term of the segment from vertex ``(ta, fa)`` to ``(tb, fb)``."""
    if method == 4:  # ROC trapezoid
        return (fb - fa) * (tb + ta)
    dt = tb - ta
    if method == 0:  # AP: step sum
        if dt == 0.0:
            return 0.0
        d = tb + fb
        return dt * (tb / d) if d > 0.0 else 0.0
    if method == 1:  # straight lines in PR space
        d = tb + fb
        p = tb / d if d > 0.0 else 0.0
        da = ta + fa
        prev = ta / da if da > 0.0 else 1.0
        return dt * (p + prev)
    if dt <= 0.0:
        return 0.0
    if method == 2:  # Davis & Goadrich
        area = 0.0
        started = ta + fa > 0.0
        prev_t = ta
        prev_p = ta / (ta + fa) if started else 0.0
        skew = (fb - fa) / dt
        n_unit = int(math.floor(dt))  # noqa: RUF046 -- an int on every target
        n_pts = n_unit if ta + n_unit >= tb else n_unit + 1
        for x in range(1, n_pts + 1):
            if x <= n_unit:
                t = ta + x
                f = fa + skew * x
            else:
                t = tb
                f = fb
            p = t / (t + f)
            if not started:
                area += t * p  # flat start: from recall 0 at this precision
                started = True
            else:
                area += (t - prev_t) * 0.5 * (p + prev_p)
            prev_t = t
            prev_p = p
        return area
    # method == 3: integral, exact under FP = fa + s (TP - ta)
    s = (fb - fa) / dt
    a = 1.0 + s
    b = fa - s * ta
    if b == 0.0:
        return dt / a
    return dt / a - (b / (a * a)) * math.log1p(a * dt / (ta + fa))


def finish_area(method, total, P, N):
    """The area from the sum of :func:`segment_area` terms; NaN where undefined."""
    if method == 4:
        if P <= 0.0 or N <= 0.0:
            return math.nan
        return 0.5 * total / (P * N)
    if P <= 0.0:
        return math.nan
    if method == 1:
        return 0.5 * total / P
    return total / P


segment_area_cpu = jit(segment_area)
finish_area_cpu = jit(finish_area)
