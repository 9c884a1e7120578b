"""The binary classes' options as a torchmetrics user passes them: ignore_index,
thresholds (torchmetrics' binned mode), models= (names in every frame; 2-D preds with a
1-D target refused without it), explicit signatures and docstrings.

References: torchmetrics' BinaryAveragePrecision / BinaryAUROC (exact and binned),
scikit-learn, and the in-memory public functions on the same rows.
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
tmc = pytest.importorskip("torchmetrics.classification")

from sklearn.metrics import average_precision_score, roc_auc_score  # noqa: E402

import prroc_numba as prn  # noqa: E402
import prroc_numba.torch as pt  # noqa: E402


def _data(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int64)
    p = 1 / (1 + np.exp(-(1.5 * y + rng.normal(size=n))))
    S = np.c_[p, np.round(p, 2)].astype(np.float32)
    return y, S, rng.integers(0, 3, n)


def _feed(m, parts, *arrays, **kw):
    for idx in np.array_split(np.arange(len(arrays[0])), parts):
        extra = {k: torch.from_numpy(v[idx]) for k, v in kw.items()}
        m.update(*(torch.from_numpy(a[idx]) for a in arrays), **extra)
    return m


def test_two_columns_and_a_1d_target_name_the_fixes():
    y, S, _ = _data(50)
    m = pt.AveragePrecision()
    with pytest.raises(ValueError, match=r"preds\[:, 1\].*models="):
        m.update(torch.from_numpy(S), torch.from_numpy(y))
    with pytest.raises(ValueError, match=r"MulticlassAveragePrecision\(num_classes=3\)"):
        m.update(torch.from_numpy(np.c_[S, S[:, :1]]), torch.from_numpy(y))
    with pytest.raises(ValueError, match="models= names 3 score column"):
        pt.AUROC(models=["a", "b", "c"]).update(torch.from_numpy(S), torch.from_numpy(y))
    with pytest.raises(TypeError, match="models must be a list of names"):
        pt.AUROC(models="ab")
    with pytest.raises(ValueError, match="each score column once"):
        pt.AUROC(models=["a", "a"])
    # the fix for two-class probabilities: the positive column, equal to sklearn
    m.update(torch.from_numpy(S[:, 1]), torch.from_numpy(y))
    assert abs(float(m.compute()) - average_precision_score(y, S[:, 1])) < 1e-14


def test_models_name_every_frame_and_compare():
    y, S, g = _data()
    names = ["net", "rounded"]
    m = _feed(pt.AUCPR(models=names, keep_rows=True), 3, S, y)
    frame = pd.DataFrame(S.astype(np.float64), columns=names).assign(y=y)
    pd.testing.assert_frame_equal(m.compute_frame(), prn.auc(frame, score=names, label="y"))
    got = m.compute_frame(n_boot=40, seed=1)  # each column's interval on its own
    assert list(got["model"].astype(str)) == names
    got = m.compare(n_boot=50, seed=2, baseline="net")
    ref = prn.compare(frame, score=names, label="y", n_boot=50, seed=2, baseline="net")
    pd.testing.assert_frame_equal(got, ref)
    assert set(got["model_a"]) | set(got["model_b"]) == set(names)
    mm = _feed(pt.Metrics(["ap", "auc_roc"], models=names), 2, S, y, by=g)
    frame["g"] = g
    ref = prn.metrics(frame, score=names, label="y", by="g", metrics=["ap", "auc_roc"])
    got = mm.compute_frame()
    assert list(got["model"].astype(str)) == list(ref["model"].astype(str))
    assert np.array_equal(got["ap"], ref["ap"])


@pytest.mark.parametrize(
    "ours, theirs, sk",
    [
        (pt.AveragePrecision, tmc.BinaryAveragePrecision, average_precision_score),
        (pt.AUROC, tmc.BinaryAUROC, roc_auc_score),
    ],
)
def test_ignore_index_drops_rows(ours, theirs, sk):
    y, S, g = _data()
    t = y.copy()
    t[::9] = -1
    keep = t != -1
    m = _feed(ours(ignore_index=-1), 4, S[:, 0], t)
    assert abs(float(m.compute()) - sk(y[keep], S[keep, 0].astype(np.float64))) < 1e-14
    tm = theirs(ignore_index=-1)
    tm.update(torch.from_numpy(S[:, 0]), torch.from_numpy(t))
    assert abs(float(m.compute()) - float(tm.compute())) < 1e-6
    # with weights and groups: the kept rows' own
    w = np.random.default_rng(1).random(len(y))
    m = _feed(ours(ignore_index=-1), 3, S[:, 0], t, sample_weight=w, by=g)
    ref = _feed(ours(), 3, S[keep, 0], y[keep], sample_weight=w[keep], by=g[keep])
    assert torch.equal(m.compute(), ref.compute())


def test_ignore_index_on_a_per_column_target_leaves_out_single_entries():
    y, S, g = _data(600)
    Y = np.c_[y, 1 - y]
    Y2 = Y.copy()
    Y2[np.random.default_rng(3).random(Y.shape) < 0.1] = -1
    w = np.random.default_rng(4).random(len(y)) * (np.arange(len(y)) % 9 != 0)  # zeros too
    m = _feed(pt.AUROC(ignore_index=-1), 3, S, Y2, sample_weight=w, by=g)
    got = m.compute().numpy()
    for k in range(3):
        for j in range(2):
            sel = (g == k) & (Y2[:, j] != -1)
            ref = roc_auc_score(Y[sel, j], S[sel, j].astype(np.float64), sample_weight=w[sel])
            assert abs(got[k, j] - ref) < 1e-12


@pytest.mark.parametrize("thresholds", [5, 100, [0.2, 0.4, 0.6, 0.8], torch.linspace(0, 1, 11)])
@pytest.mark.parametrize(
    "ours, theirs",
    [(pt.AveragePrecision, tmc.BinaryAveragePrecision), (pt.AUROC, tmc.BinaryAUROC)],
)
def test_thresholds_equal_torchmetrics_binned(ours, theirs, thresholds):
    y, S, g = _data()
    m = _feed(ours(thresholds=thresholds), 7, S[:, 0], y)
    tm = theirs(thresholds=thresholds)
    tm.update(torch.from_numpy(S[:, 0]), torch.from_numpy(y))
    assert abs(float(m.compute()) - float(tm.compute())) < 1e-6
    T = thresholds if isinstance(thresholds, int) else len(thresholds)
    assert sum(x.numel() for x in m.key) <= 7 * (T + 1)  # fixed: bins, not rows
    assert m.rows == []
    frame = m.compute_frame()
    assert frame["method"].iloc[0].endswith(f"(binned, {T} thresholds)")
    # per group: torchmetrics on each group's rows
    mg = _feed(ours(thresholds=thresholds), 3, S[:, 0], y, by=g)
    for k, v in enumerate(mg.compute().numpy()):
        tk = theirs(thresholds=thresholds)
        tk.update(torch.from_numpy(S[g == k, 0]), torch.from_numpy(y[g == k]))
        assert abs(v - float(tk.compute())) < 1e-6
    with pytest.raises(ValueError, match="without thresholds="):
        m.compute_frame(n_boot=10)


def test_thresholds_errors():
    with pytest.raises(ValueError, match="no hull"):
        pt.AUROC(hull=True, thresholds=10)
    with pytest.raises(ValueError, match="int >= 2"):
        pt.AveragePrecision(thresholds=1)
    with pytest.raises(TypeError, match="thresholds must be"):
        pt.AveragePrecision(thresholds="10")
    with pytest.raises(TypeError, match="ignore_index must be an int"):
        pt.AveragePrecision(ignore_index=0.5)


@pytest.mark.parametrize(
    "cls, first",
    [
        (pt.AveragePrecision, ["thresholds", "ignore_index", "models", "keep_rows"]),
        (pt.AUCPR, ["method", "hull", "ignore_index", "models", "keep_rows"]),
        (pt.AUROC, ["hull", "thresholds", "ignore_index", "models", "keep_rows"]),
        (pt.Metrics, ["metrics", "ignore_index", "models", "keep_rows"]),
    ],
)
def test_signatures_and_docstrings_show_the_options(cls, first):
    params = list(inspect.signature(cls).parameters)
    assert params[: len(first)] == first
    assert "merge_checkpoint" in params
    for name in [*first, "merge_checkpoint"]:
        assert f"{name} :" in cls.__doc__


def test_plot_draws_the_exact_curves_as_prn_plot():
    """plot() returns (fig, ax) as torchmetrics' and draws what prroc_numba.plot draws
    for prn.pr_curve / prn.roc_curve on the same rows (the interpolated PR curve)."""
    pytest.importorskip("matplotlib").use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot import plot_pr, plot_roc

    y, S, _ = _data(800)
    names = ["net", "rounded"]
    frame = pd.DataFrame(S.astype(np.float64), columns=names).assign(y=y)
    for cls, curve, draw, fn in (
        (pt.AveragePrecision, "pr", plot_pr, prn.pr_curve),
        (pt.AUROC, "roc", plot_roc, prn.roc_curve),
    ):
        m = _feed(cls(models=names), 3, S, y)
        fig, ax = m.plot()
        assert ax.figure is fig
        ref = draw(fn(frame, score=names, label="y"))
        for ours, theirs in zip(ax.get_lines(), ref.get_lines()):
            assert np.array_equal(ours.get_xdata(), theirs.get_xdata())
            assert np.array_equal(ours.get_ydata(), theirs.get_ydata())
        if curve == "pr":  # many points per curve: the interpolation, not straight lines
            assert len(ax.get_lines()[0].get_xdata()) > len(np.unique(S[:, 0]))
        with pytest.raises(ValueError, match="without val"):
            m.plot(m.compute())
        plt.close("all")
    mm = _feed(pt.Metrics(["ap"], models=names), 2, S, y)
    fig, ax = mm.plot()
    ref = plot_pr(prn.pr_curve(frame, score=names, label="y"))
    assert np.array_equal(ax.get_lines()[1].get_ydata(), ref.get_lines()[1].get_ydata())
    plt.close("all")


def test_weighted_intervals_with_kept_rows_equal_prn_bootstrap_and_compare():
    """keep_rows=True keeps each row's weight (ones before the first weighted batch), so
    compute_frame(n_boot=) and compare() equal prn.bootstrap / prn.compare with weight=
    for the same seed; without keep_rows a weighted state is refused, naming it."""
    y, S, _ = _data(3000)
    w = np.random.default_rng(7).random(len(y)) * 2
    w[:600] = 1.0  # the first batch comes unweighted
    names = ["net", "rounded"]
    m = pt.AveragePrecision(keep_rows=True, models=names)
    m.update(torch.from_numpy(S[:600]), torch.from_numpy(y[:600]))
    for idx in np.array_split(np.arange(600, len(y)), 3):
        m.update(
            torch.from_numpy(S[idx]),
            torch.from_numpy(y[idx]),
            sample_weight=torch.from_numpy(w[idx]),
        )
    frame = pd.DataFrame(S.astype(np.float64), columns=names).assign(y=y, w=w)
    kw = {"score": names, "label": "y", "weight": "w", "method": "ap", "seed": 5}
    ref = prn.bootstrap(frame, n_boot=80, **kw)
    got = m.compute_frame(n_boot=80, seed=5)
    for col in ("estimate", "se", "ci_low", "ci_high"):
        assert np.array_equal(got[col], ref[col])
    assert list(got["model"].astype(str)) == names
    ref = prn.compare(frame, n_boot=80, **kw)
    got = m.compare(n_boot=80, seed=5)
    pd.testing.assert_frame_equal(
        got.drop(columns=["model_a", "model_b"]), ref.drop(columns=["model_a", "model_b"])
    )
    assert abs(float(m.compute()[0]) - average_precision_score(y, S[:, 0], sample_weight=w)) < 1e-12
    plain = pt.AveragePrecision()
    plain.update(torch.from_numpy(S[:, 0]), torch.from_numpy(y), torch.from_numpy(w))
    with pytest.raises(ValueError, match="keep_rows=True"):
        plain.compute_frame(n_boot=10)
