"""Upper convex hull of one curve's ROC points (Davis & Goadrich 2006, section 3).

Works on counts (``fp`` on x, ``tp`` on y), which is ROC space up to an axis scaling
that preserves convexity, so weights and soft labels need nothing special.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit


@jit
def _hull_indices(tp, fp):
    """Indices of the upper convex hull's vertices of the points ``(fp[i], tp[i])``.

    The points must be in sweep order (``tp`` and ``fp`` non-decreasing, origin first),
    as :func:`.sweep._sweep_one` returns them. Monotone chain, O(n): a point is popped
    while it lies on or below the chord from its predecessor to the new point, so
    collinear points are dropped. The result always starts at the first point (the
    origin) and ends at the last (``(N, P)``), i.e. runs from ROC (0,0) to (1,1).
    """
    n = tp.size
    stack = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        # skip a point identical to the previous vertex (zero-weight steps)
        if m > 0 and tp[i] == tp[stack[m - 1]] and fp[i] == fp[stack[m - 1]]:
            if i == n - 1:  # the end vertex is always the last index
                if m == 1:
                    stack[m] = i
                    m += 1
                else:
                    stack[m - 1] = i
            continue
        while m >= 2:
            o = stack[m - 2]
            a = stack[m - 1]
            # cross product of (a - o) x (i - o) in (fp, tp); >= 0 means a is not
            # strictly above the chord o -> i
            cross = (fp[a] - fp[o]) * (tp[i] - tp[o]) - (tp[a] - tp[o]) * (fp[i] - fp[o])
            if cross >= 0.0:
                m -= 1
            else:
                break
        stack[m] = i
        m += 1
    return stack[:m].copy()
