"""Plots of PR and ROC curves from the library's tidy frames (matplotlib, optional).

Every function takes a tidy frame as the library returns it (key columns first, then
fixed column names), draws one line per curve -- the key columns (``by`` columns and
``model``) pick the colour, or ``hue=`` names them -- and returns the matplotlib
``Axes``, so plots compose: pass ``ax=`` to overlay a hull, bands or another frame.

PR curves are drawn the way Davis & Goadrich (2006, section 4) say they must be read:
between two points, true and false positives grow together linearly, so precision is
*not* a straight line in recall. When the frame has ``tp`` and ``fp`` columns (as
:func:`prroc_numba.pr_curve` returns), :func:`plot_pr` draws that exact curve between
the points (``connect="curve"``, the default); ``connect="line"`` draws the straight,
over-optimistic segments and ``connect="step"`` the average-precision steps, to compare.

matplotlib is imported only when a function here is called (``import prroc_numba`` does
not import it); install it with ``pip install prroc-numba[plot]``.
"""

# _common: what every plot shares (matplotlib on first use, the curves of a frame,
# colours, legends, bands); _overlays: iso-F1 lines, the no-skill baseline, operating
# points, partial ranges; _curves: PR and ROC curves, with folds; _summaries: bands,
# forest plots, critical-difference diagrams, power; _gaps: subgroup gaps. The plots
# read the library's frames and call its public functions only.
from ._curves import plot_pr, plot_roc
from ._gaps import plot_disparity
from ._overlays import add_iso_f1, add_no_skill, add_operating_points, add_partial_range
from ._summaries import critical_difference, plot_bands, plot_intervals, plot_power

__all__ = [
    "add_iso_f1",
    "add_no_skill",
    "add_operating_points",
    "add_partial_range",
    "critical_difference",
    "plot_bands",
    "plot_disparity",
    "plot_intervals",
    "plot_power",
    "plot_pr",
    "plot_roc",
]
