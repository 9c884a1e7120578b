"""Per-segment area formulas, written once for every engine.

Every AUC estimator of :mod:`.area` is a sum over adjacent sweep vertices
``A = (ta, fa)`` -> ``B = (tb, fb)`` of a term that depends on A and B only, divided
at the end by ``P`` (PR) or ``P * N`` (ROC):

* :func:`segment_add` -- a running sum plus the term of one segment for estimator
  ``method`` (the codes of :mod:`.area`: AP 0, PR_TRAPEZOID 1, DG 2, INTEGRAL 3,
  ROC_TRAPEZOID 4); :func:`segment_area` -- the term alone;
* :func:`finish_area` -- the normalisation (and NaN where the area is undefined).

So a curve's area can be summed in any order over its segments -- by one thread over
the whole curve, or by many threads over chunks of it (the CUDA kernels sum each chunk
of a curve on its own). The functions are plain Python on purpose, so the CPU compilation
(:data:`segment_area_cpu`, ``prroc_numba._jit.numba.jit``) and the CUDA one
(``numba.cuda.jit(device=True)``) compile the very same code; the count interpolation
they call is :mod:`.pr_interp`'s (numba-cuda compiles those ``@jit`` functions for the
device too).

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

from .._jit.numba import jit
from .pr_interp import dg_area, integral_term, precision


@jit(inline="always")
def segment_add(method, total, ta, fa, tb, fb):
    """``total`` plus the unnormalised area term of the segment from vertex ``(ta, fa)``
    to ``(tb, fb)`` for estimator ``method``: one curve's area is this, vertex after
    vertex, in one accumulator (:func:`.area._area`), then :func:`finish_area`.
    """
    if method == 4:  # ROC trapezoid
        return total + (fb - fa) * (tb + ta)
    dt = tb - ta
    if method == 0:  # AP: step sum
        if dt == 0.0:
            return total
        return total + dt * precision(tb, fb)
    if method == 1:  # straight lines in PR space
        prev = precision(ta, fa) if ta + fa > 0.0 else 1.0
        return total + dt * (precision(tb, fb) + prev)
    if dt <= 0.0:
        return total
    if method == 2:  # Davis & Goadrich
        return dg_area(total, ta, fa, tb, fb, 0.0, math.inf)
    # method == 3: integral, exact under FP = fa + s (TP - ta)
    return total + integral_term(ta, tb, ta, fa, (fb - fa) / dt)


def segment_area(method, ta, fa, tb, fb):
    """Unnormalised area term of the segment from vertex ``(ta, fa)`` to ``(tb, fb)``."""
    return segment_add(method, 0.0, ta, fa, tb, fb)


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
