"""One convention for precision at recall 0 (where TP = FP = 0): the curve's flat start,
the precision of its first point with TP + FP > 0 (0 after a top block of negatives),
in pr_curve (raw, hull, interpolated), interpolate, bootstrap_curve, PRCurve and the
plots -- and the areas, unchanged, integrate the same start."""

import matplotlib

matplotlib.use("Agg")

import naive  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import prroc_numba as prn  # noqa: E402
from prroc_numba.plot import plot_bands, plot_pr  # noqa: E402

CASES = {
    "top negative": ([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [0, 1, 0, 1, 1, 0]),
    "mixed top block": ([0.9, 0.9, 0.7, 0.6, 0.5, 0.4], [0, 1, 0, 1, 1, 0]),
    "top positive": ([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [1, 0, 0, 1, 1, 0]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_curve_starts_at_the_flat_start(name):
    s, y = CASES[name]
    y = np.asarray(y)
    _, tp, fp = naive.sweep(s, y.astype(float), 1.0 - y)
    want = naive.flat_start_precision(tp, fp)[0]
    raw = prn.pr_curve(score=s, label=y)
    assert raw["precision"].iloc[0] == want
    for kw in ({"interpolate": "dg"}, {"interpolate": "continuous"}):
        assert prn.pr_curve(score=s, label=y, **kw)["precision"].iloc[0] == pytest.approx(want)
    hull = prn.pr_curve(score=s, label=y, hull=True)  # its own vertices: its own start
    assert hull["precision"].iloc[0] == hull["precision"].iloc[1]
    assert prn.interpolate(raw, grid=[0.0, 0.5])["precision"].iloc[0] == pytest.approx(want)
    bands = prn.bootstrap_curve(score=s, label=y, grid=[0.0, 0.5], n_boot=20, seed=0)
    assert bands["precision"].iloc[0] == pytest.approx(want)
    if name != "top negative":  # PR points at recall 0 carry no FP count (PRCurve)
        pts = prn.PRCurve(
            recall=raw["recall"].iloc[1:],
            precision=raw["precision"].iloc[1:],
            n_pos=int(y.sum()),
            n_neg=int((1 - y).sum()),
        )
        assert pts.precision[0] == pytest.approx(want)
    ax = plot_pr(raw)
    assert ax.lines[0].get_ydata()[0] == pytest.approx(want)
    ax = plot_bands(bands)
    assert ax.lines[0].get_ydata()[0] == pytest.approx(want)
    # the areas do not change: the DG area integrates this start (naive.dg_area)
    assert prn.auc_pr(y, s) == pytest.approx(naive.dg_area(tp, fp), abs=1e-12)
