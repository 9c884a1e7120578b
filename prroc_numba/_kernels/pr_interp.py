"""Count interpolation between PR points and its flat start at recall 0, written once.

Davis & Goadrich 2006, section 4: between two vertices A = ``(ta, fa)`` and
B = ``(tb, fb)`` of a curve (consecutive sweep points, or hull vertices) the counts are
interpolated, never the precisions: FP grows linearly with TP at the local skew
``s = (fb - fa) / (tb - ta)``. Every kernel that reads the PR curve between its
vertices -- the areas (:mod:`.area`, :mod:`.partial`, the per-segment terms of
:mod:`.segments` that the CUDA engine compiles too), the extra points
(:mod:`.densify`), the grids (:mod:`.grid`) -- takes these functions:

* :func:`precision` -- ``t / (t + f)``, 0 at 0/0;
* :func:`lerp` -- a count at fraction ``u`` of a segment (grids, evenly spaced points);
* :func:`dg_count` / :func:`dg_point` -- the paper's points ``ta + x`` (``x = 1, 2, ...``
  integer TP steps, FP ``fa + s x``); for a non-integer TP step (weights, soft labels)
  unit steps from A, then B itself;
* :func:`dg_area` -- those points of one segment joined by trapezoids (with the flat
  start from the origin), over the whole segment or the part of it inside a TP range:
  the Davis & Goadrich area of every engine and of the partial areas;
* :func:`integral_term` -- the exact area under the interpolated precision over a TP
  range inside one segment (PRROC's ``auc.integral``);
* :func:`flat_start` -- precision at recall 0: the curve starts flat at the precision of
  its first point with ``tp + fp > 0``; after a top block of negatives only that is 0.

They are tiny ``@jit`` functions (inlined by LLVM, so each caller's arithmetic is what
it was when it wrote them out itself); the CUDA device functions of
:mod:`.cuda.kernels` call them too (numba-cuda compiles a CPU dispatcher's Python
source again for the device).
"""

from __future__ import annotations

import math

import numpy as np

from .._jit.numba import jit


@jit
def precision(t, f):
    """``t / (t + f)``; 0 where ``t + f`` is 0 (the origin)."""
    d = t + f
    return t / d if d > 0.0 else 0.0


@jit
def lerp(a, b, u):
    """``a + (b - a) u``: a count at fraction ``u`` of the way from one vertex to the next."""
    return a + u * (b - a)


@jit
def dg_count(ta, tb):
    """``(n_unit, n_pts)`` of the segment from TP ``ta`` to ``tb > ta``: ``n_unit`` unit TP
    steps, and the number of Davis & Goadrich points after A (B included; ``n_unit + 1``
    when the unit steps do not reach B).
    """
    n_unit = int(math.floor(tb - ta))  # noqa: RUF046 -- an int on every target
    n_pts = n_unit if ta + n_unit >= tb else n_unit + 1
    return n_unit, n_pts


@jit
def dg_point(x, n_unit, ta, fa, tb, fb, skew):
    """Point ``x`` (1-based) of :func:`dg_count`'s points: ``(ta + x, fa + skew x)``, or B."""
    if x <= n_unit:
        return ta + x, fa + skew * x
    return tb, fb


@jit
def clipped_trapezoid(t0, p0, t1, p1, lo, hi, ta, fa, skew):
    """Trapezoid from ``(t0, p0)`` to ``(t1, p1)`` (TP, precision) over its part inside the
    TP range ``[lo, hi]``; an end cut by the range is valued exactly in counts on the
    segment from ``(ta, fa)`` at skew ``skew`` (never on a straight PR line). Uncut, it
    is ``0.5 (t1 - t0) (p0 + p1)``.
    """
    c0 = max(t0, lo)
    c1 = min(t1, hi)
    if c1 <= c0:
        return 0.0
    v0 = p0 if c0 == t0 else precision(c0, fa + skew * (c0 - ta))
    v1 = p1 if c1 == t1 else precision(c1, fa + skew * (c1 - ta))
    return 0.5 * (c1 - c0) * (v0 + v1)


@jit
def dg_area(area, ta, fa, tb, fb, lo, hi):
    """``area`` plus the Davis & Goadrich area of the segment A = ``(ta, fa)`` -> B =
    ``(tb, fb)`` (``tb > ta``) over TP ``[lo, hi]`` (``0, inf``: all of it), not yet
    divided by ``P``.

    The points :func:`dg_point` joined by trapezoids that start at A itself. At the
    origin (``ta + fa == 0``) precision is undefined, so the curve starts flat at
    recall 0 with the first point's precision; after a top block of negatives only
    (``ta == 0 < fa``) it starts at precision 0 (PRROC; the AUCCalculator jar drops
    such points). Each trapezoid is added to ``area`` as it comes (a curve's sum runs
    over its segments in one accumulator, point by point).
    """
    skew = (fb - fa) / (tb - ta)
    started = ta + fa > 0.0
    prev_t = ta
    prev_p = ta / (ta + fa) if started else 0.0
    n_unit, n_pts = dg_count(ta, tb)
    for x in range(1, n_pts + 1):
        t, f = dg_point(x, n_unit, ta, fa, tb, fb, skew)
        p = t / (t + f)
        if not started:  # flat start: from recall 0 at this precision
            prev_t = 0.0
            prev_p = p
            started = True
        area += clipped_trapezoid(prev_t, prev_p, t, p, lo, hi, ta, fa, skew)
        prev_t = t
        prev_p = p
    return area


@jit
def integral_term(t0, t1, ta, fa, s):
    """Area under precision ``t / (t + fa + s (t - ta))`` over TP ``[t0, t1]`` (not yet
    divided by ``P``), in closed form: ``t / (a t + b)`` with ``a = 1 + s``,
    ``b = fa - s ta``. Needs ``t0 + FP(t0) > 0`` unless ``b == 0``.
    """
    a = 1.0 + s
    b = fa - s * ta
    dt = t1 - t0
    if b == 0.0:
        return dt / a
    return dt / a - (b / (a * a)) * math.log1p(a * dt / (t0 + (fa + s * (t0 - ta))))


@jit
def flat_start(tp, fp):
    """Precision at recall 0 of the points ``tp``, ``fp`` (sweep order): that of the first
    point with ``tp + fp > 0`` (0 after a top block of negatives only); NaN if none.
    """
    for i in range(tp.size):
        d = tp[i] + fp[i]
        if d > 0.0:
            return tp[i] / d
    return np.nan
