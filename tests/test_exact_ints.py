"""Integer scores beyond 2**53 (hashes, timestamps) are ranked exactly: areas, curves
(thresholds reported as the original integers), intervals and comparisons equal
scikit-learn and the same calls on exact ranks; the paths that cannot keep them exact
(streams, chosen thresholds, the torch metrics' float64 state) refuse them clearly.

References: scikit-learn (which keeps integer scores as integers) and scipy's rankdata.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

import prroc_numba as prn

BIG = 2**53


def _case(n=400, seed=0, dtype=np.int64):
    """Integers just above 2**53, many of which float64 rounds onto each other."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = (BIG + rng.integers(0, 40, n) + 3 * y).astype(dtype)
    return y, s


def test_the_issue_case():
    s = np.array([BIG, BIG + 1, BIG + 2, 5, BIG + 1], dtype=np.int64)
    y = np.array([0, 1, 0, 1, 0])
    assert average_precision_score(y, s) == pytest.approx(0.36666666666666664, abs=1e-15)
    assert prn.auc_pr(y, s, method="ap") == pytest.approx(average_precision_score(y, s), abs=1e-15)
    assert prn.auc(score=s, label=y, method="ap")["auc"].iloc[0] == pytest.approx(
        average_precision_score(y, s), abs=1e-15
    )
    assert prn.auc_roc(y, s) == roc_auc_score(y, s)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_areas_equal_sklearn_and_ranks(dtype):
    y, s = _case(dtype=dtype)
    assert np.unique(s.astype(np.float64)).size < np.unique(s).size  # float64 would tie
    ranks = rankdata(s, method="dense").astype(np.float64)
    assert abs(prn.auc_pr(y, s, method="ap") - average_precision_score(y, s)) < 1e-15
    assert abs(prn.auc_roc(y, s) - roc_auc_score(y, s)) < 1e-15
    for method in ("dg", "integral", "ap"):
        got = prn.auc(score=s, label=y, method=method)["auc"].iloc[0]
        assert got == prn.auc(score=ranks, label=y, method=method)["auc"].iloc[0]
    frame = prn.metrics(score=s, label=y, metrics=["ap", "auc_roc"])
    assert abs(frame["ap"].iloc[0] - average_precision_score(y, s)) < 1e-15


def test_curves_report_the_original_integers():
    y, s = _case()
    pr = prn.pr_curve(score=s, label=y)
    p, r, t = precision_recall_curve(y, s)
    pts = pr.iloc[1:]  # the curve's start has no score
    assert pts["threshold"].tolist()[::-1] == t.tolist()  # exact integers
    assert np.allclose(pts["precision"].to_numpy()[::-1], p[:-1], rtol=0, atol=1e-15)
    assert np.allclose(pts["recall"].to_numpy()[::-1], r[:-1], rtol=0, atol=1e-15)
    roc = prn.roc_curve(score=s, label=y)
    fpr, tpr, t2 = roc_curve(y, s, drop_intermediate=False)
    assert roc["threshold"].iloc[1:].tolist() == [int(v) for v in np.unique(s)[::-1]]
    assert np.allclose(roc["fpr"], fpr, atol=1e-15) and np.allclose(roc["tpr"], tpr, atol=1e-15)
    assert len(t2) == len(roc)
    # every threshold is one of the scores, as an integer (no rounding)
    assert set(pts["threshold"]) <= set(s.tolist())


def test_intervals_and_comparisons_equal_the_ranked_calls():
    y, s = _case(n=300, seed=1)
    ranks = rankdata(s, method="dense").astype(np.float64)
    kw = {"label": y, "method": "ap", "n_boot": 60, "seed": 3}
    pd.testing.assert_frame_equal(prn.bootstrap(score=s, **kw), prn.bootstrap(score=ranks, **kw))
    S = np.c_[s, (2 * BIG - s.astype(np.int64))]
    R = np.c_[ranks, rankdata(S[:, 1], method="dense")]
    pd.testing.assert_frame_equal(prn.compare(score=S, **kw), prn.compare(score=R, **kw))


def test_paths_that_cannot_keep_them_exact_refuse():
    y, s = _case(n=100)
    acc = prn.Accumulator()
    with pytest.raises(ValueError, match="beyond 2\\*\\*53.*one call"):
        acc.update(score=s, label=y)
    with pytest.raises(ValueError, match="thresholds="):
        prn.pr_curve(score=s, label=y, thresholds=[float(BIG)])
    with pytest.raises(ValueError, match="interpolate="):
        prn.pr_curve(score=s, label=y, interpolate="dg")


def test_torch_metrics_refuse_them():
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    import prroc_numba.torch as pt

    y, s = _case(n=50)
    with pytest.raises(ValueError, match="beyond 2\\*\\*53.*rank them"):
        pt.AveragePrecision().update(torch.from_numpy(s), torch.from_numpy(y))
    # integers float64 holds exactly are taken as they are
    m = pt.AveragePrecision()
    m.update(torch.from_numpy(s - BIG), torch.from_numpy(y))
    assert abs(float(m.compute()) - average_precision_score(y, s)) < 1e-15


def test_operating_points_report_the_original_integers():
    y, s = _case(n=300, seed=2)
    op = prn.operating_points(score=s, label=y, targets=["max_f1", "tpr>=0.5", "fpr<=0.2"])
    assert op["threshold"].dtype == np.int64
    for _, row in op.iterrows():
        hit = s >= int(row["threshold"])  # compared as integers
        assert row["tp"] == (hit & (y == 1)).sum() and row["fp"] == (hit & (y == 0)).sum()
    with pytest.raises(ValueError, match="thresholds="):
        prn.operating_points(score=s, label=y, thresholds=op)
