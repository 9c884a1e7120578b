"""prroc_numba.torch's multiclass and multilabel classes in one process: equal to
scikit-learn (float64, exact), to prn.auc / prn.bootstrap on the same rows, and to
torchmetrics' classes of the same names (exact mode and binned mode, within float32
rounding); ignore_index, by=, sample weights, the binned state's fixed size, errors.

References: scikit-learn's average_precision_score / roc_auc_score on the one-hot
labels, torchmetrics' own classes, and the in-memory public functions.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
tmc = pytest.importorskip("torchmetrics.classification")

from sklearn.metrics import average_precision_score, roc_auc_score  # noqa: E402

import prroc_numba as prn  # noqa: E402
import prroc_numba.torch as pt  # noqa: E402

K = 4
MULTICLASS = [
    (pt.MulticlassAveragePrecision, tmc.MulticlassAveragePrecision, "pr"),
    (pt.MulticlassAUROC, tmc.MulticlassAUROC, "roc"),
]
MULTILABEL = [
    (pt.MultilabelAveragePrecision, tmc.MultilabelAveragePrecision, "pr"),
    (pt.MultilabelAUROC, tmc.MultilabelAUROC, "roc"),
]
AVERAGES = ["macro", "weighted", "micro", None, "none"]


def _multiclass(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(K), size=n).astype(np.float32)
    P[: n // 5] = np.round(P[: n // 5], 1)  # ties
    y = rng.integers(0, K, n)
    return P, y


def _multilabel(n=3000, seed=0):
    P, _ = _multiclass(n, seed)
    Y = (np.random.default_rng(seed + 1).random((n, K)) < 0.3 + 0.4 * P).astype(np.int64)
    return P, Y


def _feed(m, P, target, parts=5, **kw):
    order = np.random.default_rng(3).permutation(len(P)) if parts > 1 else np.arange(len(P))
    for idx in np.array_split(order, parts):
        extra = {k: torch.from_numpy(v[idx]) for k, v in kw.items()}
        m.update(torch.from_numpy(P[idx]), torch.from_numpy(target[idx]), **extra)
    return m


def _sklearn(curve, Y, P, average, weight=None):
    f = average_precision_score if curve == "pr" else roc_auc_score
    avg = None if average == "none" else average
    return np.asarray(f(Y, P.astype(np.float64), average=avg, sample_weight=weight))


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("ours, theirs, curve", MULTICLASS)
def test_multiclass_equals_sklearn_prn_and_torchmetrics(ours, theirs, curve, average):
    P, y = _multiclass()
    got = _feed(ours(num_classes=K, average=average), P, y).compute().numpy()
    Y = np.eye(K, dtype=np.int64)[y]
    assert np.abs(got - _sklearn(curve, Y, P, average)).max() < 1e-14
    ref = prn.auc(
        score=P.astype(np.float64),
        label=y,
        multiclass="ovr",
        average=None if average == "none" else average,
        curve=curve,
        method="ap" if curve == "pr" else None,
    )["auc"].to_numpy()
    assert np.allclose(got.reshape(-1), ref, rtol=1e-14, atol=0)
    if average != "micro":  # torchmetrics' multiclass classes have no micro average
        tm = theirs(num_classes=K, average=average or "none", thresholds=None)
        tm.update(torch.from_numpy(P), torch.from_numpy(y))
        assert np.abs(got - tm.compute().numpy()).max() < 1e-6  # float32 rounding


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("ours, theirs, curve", MULTILABEL)
def test_multilabel_equals_sklearn_and_torchmetrics(ours, theirs, curve, average):
    P, Y = _multilabel()
    got = _feed(ours(num_labels=K, average=average), P, Y).compute().numpy()
    assert np.abs(got - _sklearn(curve, Y, P, average)).max() < 1e-14
    ref = prn.auc(
        score=P.astype(np.float64),
        label=Y,
        average=None if average == "none" else average,
        curve=curve,
        method="ap" if curve == "pr" else None,
    )["auc"].to_numpy()
    assert np.allclose(got.reshape(-1), ref, rtol=1e-14, atol=0)
    tm = theirs(num_labels=K, average=average or "none")
    tm.update(torch.from_numpy(P), torch.from_numpy(Y))
    assert np.abs(got - tm.compute().numpy()).max() < 1e-6


@pytest.mark.parametrize("thresholds", [5, 100, [0.1, 0.5, 0.9], torch.linspace(0.2, 0.8, 7)])
@pytest.mark.parametrize("ours, theirs, curve", MULTICLASS + MULTILABEL)
def test_binned_equals_torchmetrics_binned(ours, theirs, curve, thresholds):
    multi = ours in (pt.MulticlassAveragePrecision, pt.MulticlassAUROC)
    P, t = _multiclass() if multi else _multilabel()
    arg = {"num_classes": K} if multi else {"num_labels": K}
    for average in ["none", "macro"] + ([] if multi else ["micro"]):
        m = _feed(ours(**arg, average=average, thresholds=thresholds), P, t)
        tm = theirs(**arg, average=average, thresholds=thresholds)
        tm.update(torch.from_numpy(P), torch.from_numpy(t))
        assert np.abs(m.compute().numpy() - tm.compute().numpy()).max() < 1e-6
        T = thresholds if isinstance(thresholds, int) else len(thresholds)
        # fixed memory: at most T + 1 bins per class, whatever the rows
        m._merge_now()
        assert m.key[0].numel() <= K * (T + 1)
        method = m.compute_frame()["method"].iloc[0]
        assert method.endswith(f"(binned, {T} thresholds)")


def test_binned_differs_from_exact_and_is_named():
    P, y = _multiclass()
    exact = _feed(pt.MulticlassAveragePrecision(K), P, y).compute().item()
    binned = _feed(pt.MulticlassAveragePrecision(K, thresholds=10), P, y).compute().item()
    assert exact != binned
    frame = _feed(pt.MulticlassAveragePrecision(K, thresholds=10), P, y).compute_frame()
    assert frame["method"].iloc[0] == "ap (binned, 10 thresholds)"


@pytest.mark.parametrize("ours, theirs, curve", MULTICLASS)
def test_multiclass_ignore_index_drops_rows(ours, theirs, curve):
    P, y = _multiclass()
    y2 = y.copy()
    y2[::7] = -100
    got = _feed(ours(K, average=None, ignore_index=-100), P, y2).compute().numpy()
    keep = y2 != -100
    ref = _feed(ours(K, average=None), P[keep], y[keep]).compute().numpy()
    assert np.array_equal(got, ref)
    tm = theirs(num_classes=K, average="none", ignore_index=-100)
    tm.update(torch.from_numpy(P), torch.from_numpy(y2))
    assert np.abs(got - tm.compute().numpy()).max() < 1e-6


@pytest.mark.parametrize("ours, theirs, curve", MULTILABEL)
def test_multilabel_ignore_index_drops_entries(ours, theirs, curve):
    P, Y = _multilabel()
    Y2 = Y.copy()
    Y2[np.random.default_rng(5).random(Y.shape) < 0.1] = -1
    got = _feed(ours(K, average=None, ignore_index=-1), P, Y2).compute().numpy()
    f = average_precision_score if curve == "pr" else roc_auc_score
    for j in range(K):
        keep = Y2[:, j] != -1
        assert abs(got[j] - f(Y[keep, j], P[keep, j].astype(np.float64))) < 1e-14
    tm = theirs(num_labels=K, average="none", ignore_index=-1)
    tm.update(torch.from_numpy(P), torch.from_numpy(Y2))
    assert np.abs(got - tm.compute().numpy()).max() < 1e-6


def test_by_groups_and_weights_equal_prn_auc():
    P, y = _multiclass()
    g = np.random.default_rng(2).integers(0, 3, len(y))
    w = np.random.default_rng(4).random(len(y)) * 2
    for average in [None, "macro", "weighted", "micro"]:
        m = _feed(pt.MulticlassAveragePrecision(K, average=average), P, y, by=g, sample_weight=w)
        frame = pd.DataFrame(P.astype(np.float64), columns=[f"s{j}" for j in range(K)])
        frame["y"], frame["group"], frame["w"] = y, g, w
        ref = prn.auc(
            frame,
            score=[f"s{j}" for j in range(K)],
            label="y",
            by="group",
            weight="w",
            multiclass="ovr",
            classes=list(range(K)),
            average=average,
            method="ap",
        )
        got = m.compute_frame()
        pd.testing.assert_frame_equal(got, ref, check_exact=False, rtol=1e-13)
        shape = (3, K) if average is None else (3,)
        assert tuple(m.compute().shape) == shape
        assert np.allclose(m.compute().numpy().reshape(-1), ref["auc"], rtol=1e-13)
    # weighted rows against scikit-learn, group 0
    sel = g == 0
    m = _feed(pt.MulticlassAUROC(K, average=None), P[sel], y[sel], sample_weight=w[sel])
    Y = np.eye(K, dtype=np.int64)[y[sel]]
    assert np.abs(m.compute().numpy() - _sklearn("roc", Y, P[sel], None, w[sel])).max() < 1e-14


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_intervals_paired_across_classes_equal_prn_bootstrap(average):
    P, y = _multiclass(n=600)
    m = _feed(pt.MulticlassAveragePrecision(K, average=average, keep_rows=True), P, y, parts=1)
    got = m.compute_frame(n_boot=60, seed=7)
    frame = pd.DataFrame(P.astype(np.float64), columns=[f"s{j}" for j in range(K)])
    frame["y"] = y
    ref = prn.bootstrap(
        frame,
        score=[f"s{j}" for j in range(K)],
        label="y",
        multiclass="ovr",
        classes=list(range(K)),
        average=average,
        method="ap",
        n_boot=60,
        seed=7,
    )
    pd.testing.assert_frame_equal(got, ref)
    assert np.allclose(got["estimate"], m.compute().numpy().reshape(-1), rtol=0, atol=0)


def test_multilabel_intervals_equal_prn_bootstrap():
    P, Y = _multilabel(n=500)
    m = _feed(pt.MultilabelAUROC(K, average="macro", keep_rows=True), P, Y, parts=1)
    ref = prn.bootstrap(
        score=P.astype(np.float64), label=Y, average="macro", curve="roc", n_boot=50, seed=1
    )
    got = m.compute_frame(n_boot=50, seed=1)
    assert np.array_equal(got["ci_low"], ref["ci_low"])
    assert np.array_equal(got["ci_high"], ref["ci_high"])


def test_absent_class_is_undefined_with_a_warning():
    P, y = _multiclass(n=400)
    y = np.where(y == 3, 0, y)  # class 3 never occurs
    m = _feed(pt.MulticlassAveragePrecision(K, average=None), P, y)
    with pytest.warns(prn.UndefinedMetricWarning):
        per_class = m.compute().numpy()
    assert np.isnan(per_class[3]) and np.isfinite(per_class[:3]).all()
    m = _feed(pt.MulticlassAveragePrecision(K, average="weighted"), P, y)
    with pytest.warns(prn.UndefinedMetricWarning):
        weighted = m.compute().item()
    Y = np.eye(K)[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = average_precision_score(Y[:, :3], P[:, :3].astype(np.float64), average="weighted")
    assert abs(weighted - ref) < 1e-14


def test_errors_name_the_argument_and_the_fix():
    P, y = _multiclass(n=50)
    m = pt.MulticlassAveragePrecision(num_classes=K)
    with pytest.raises(ValueError, match=r"preds must have shape \(n, 4\).*num_classes=4"):
        m.update(torch.from_numpy(P[:, :3]), torch.from_numpy(y))
    with pytest.raises(ValueError, match="class id 7 at row 0.*0 .. 3"):
        m.update(torch.from_numpy(P), torch.from_numpy(np.full(50, 7)))
    with pytest.raises(ValueError, match="non-integer"):
        m.update(torch.from_numpy(P), torch.from_numpy(y + 0.5))
    with pytest.raises(ValueError, match="target must have shape"):
        m.update(torch.from_numpy(P), torch.from_numpy(np.eye(K)[y]))
    with pytest.raises(ValueError, match="average='samples' is not known"):
        pt.MultilabelAUROC(num_labels=K, average="samples")
    with pytest.raises(ValueError, match="num_classes must be an int >= 2"):
        pt.MulticlassAUROC(num_classes=1)
    with pytest.raises(ValueError, match="strictly ascending"):
        pt.MulticlassAUROC(num_classes=K, thresholds=[0.5, 0.1])
    with pytest.raises(ValueError, match="multilabel targets must be 0/1"):
        pt.MultilabelAUROC(num_labels=K).update(
            torch.from_numpy(P), torch.from_numpy(np.full((50, K), 2))
        )
    m = pt.MulticlassAveragePrecision(num_classes=K)
    m.update(torch.from_numpy(P), torch.from_numpy(y), sample_weight=torch.ones(50))
    with pytest.raises(ValueError, match="keep_rows=True"):
        m.compute_frame(n_boot=10)


@pytest.mark.parametrize("cls", [c for c, _, _ in MULTICLASS + MULTILABEL])
def test_signatures_and_docstrings_show_the_options(cls):
    params = inspect.signature(cls).parameters
    first = "num_classes" if cls.__name__.startswith("Multiclass") else "num_labels"
    assert list(params)[:5] == [first, "average", "thresholds", "ignore_index", "keep_rows"]
    for name in ("average", "thresholds", "ignore_index", "keep_rows", first):
        assert f"{name} :" in cls.__doc__


def test_state_dict_resumes_and_reset_forgets():
    P, y = _multiclass()
    half = len(y) // 2
    m = _feed(pt.MulticlassAUROC(K), P[:half], y[:half])
    again = pt.MulticlassAUROC(K)
    again.load_state_dict(m.state_dict())  # a checkpoint resumes the stream
    for x in (m, again):
        _feed(x, P[half:], y[half:])
    assert again.compute().item() == m.compute().item()
    m.reset()
    m.update(torch.zeros((0, K)), torch.zeros(0, dtype=torch.int64))
    with pytest.raises(ValueError, match="has seen no rows"):
        m.compute()


def test_plot_draws_one_curve_per_class():
    pytest.importorskip("matplotlib").use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot import plot_pr

    P, y = _multiclass(n=500)
    m = _feed(pt.MulticlassAveragePrecision(K), P, y)
    fig, ax = m.plot()
    assert ax.figure is fig
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[:K] == [str(j) for j in range(K)]
    # class 0's line: the one-vs-rest PR curve of prn.pr_curve
    ref = prn.pr_curve(score=P[:, 0].astype(np.float64), label=(y == 0).astype(int))
    ref_ax = plot_pr(ref)
    assert np.array_equal(ax.get_lines()[0].get_xdata(), ref_ax.get_lines()[0].get_xdata())
    plt.close("all")


@pytest.mark.parametrize("ties", [False, True])
def test_kept_rows_folded_or_kept_equal_prn_auc(ties, monkeypatch):
    """Unweighted CPU batches are kept as rows and computed by prn.auc's own route;
    past the kept-values limit tied scores are reduced to the table, continuous ones
    stay rows; mixed with a weighted batch (reduced at once), still exact."""
    from prroc_numba.torch import _classes

    monkeypatch.setattr(_classes, "_RAW_VALUES", 2000)
    P, y = _multiclass(n=4000, seed=3)
    if ties:
        P = np.round(P, 2)
    for average in [None, "micro"]:
        m = _feed(pt.MulticlassAveragePrecision(K, average=average), P, y, parts=8)
        ref = prn.auc(
            score=P.astype(np.float64), label=y, multiclass="ovr", average=average, method="ap"
        )["auc"].to_numpy()
        assert np.allclose(m.compute().numpy().reshape(-1), ref, rtol=1e-14, atol=0)
        held = sum(x.numel() for x in m.class_labels)
        tables = sum(x.numel() for x in m.key)
        assert (tables > 0 and held < len(y)) if ties else (tables == 0 and held == len(y))
    w = np.ones(len(y))
    w[2000:] = 1.5
    m = _feed(pt.MulticlassAUROC(K, average=None), P[:2000], y[:2000], parts=2)
    m.update(torch.from_numpy(P[2000:]), torch.from_numpy(y[2000:]), torch.from_numpy(w[2000:]))
    ref = roc_auc_score(np.eye(K)[y], P.astype(np.float64), average=None, sample_weight=w)
    assert np.abs(m.compute().numpy() - ref).max() < 1e-14


def test_binned_by_groups_and_weights():
    """The binned state per group (one table of bins per group and class) equals
    torchmetrics' binned class on each group's rows; the state stays one merged table."""
    P, y = _multiclass(n=2000)
    g = np.random.default_rng(6).integers(0, 2, len(y))
    m = _feed(pt.MulticlassAUROC(K, average=None, thresholds=20), P, y, by=g)
    assert len(m.key) == 1  # merged at every update: fixed size
    got = m.compute().numpy()
    for k in range(2):
        tm = tmc.MulticlassAUROC(num_classes=K, average="none", thresholds=20)
        tm.update(torch.from_numpy(P[g == k]), torch.from_numpy(y[g == k]))
        assert np.abs(got[k] - tm.compute().numpy()).max() < 1e-6
    # integer weights are duplicated rows
    w = np.random.default_rng(8).integers(1, 3, len(y))
    mw = _feed(pt.MulticlassAveragePrecision(K, thresholds=20), P, y, sample_weight=w * 1.0)
    rep = np.repeat(np.arange(len(y)), w)
    ref = _feed(pt.MulticlassAveragePrecision(K, thresholds=20), P[rep], y[rep])
    assert abs(mw.compute().item() - ref.compute().item()) < 1e-12


def test_weighted_intervals_with_kept_rows_equal_prn_bootstrap():
    P, y = _multiclass(n=500, seed=9)
    w = np.random.default_rng(10).random(len(y)) + 0.5
    m = _feed(
        pt.MulticlassAUROC(K, average="weighted", keep_rows=True), P, y, parts=1, sample_weight=w
    )
    got = m.compute_frame(n_boot=40, seed=2)
    ref = prn.bootstrap(
        score=P.astype(np.float64),
        label=y,
        weight=w,
        multiclass="ovr",
        classes=list(range(K)),
        average="weighted",
        curve="roc",
        n_boot=40,
        seed=2,
    )
    for col in ("estimate", "ci_low", "ci_high"):
        assert np.array_equal(got[col], ref[col])


def test_state_is_a_copy_of_the_callers_tensors():
    """A training loop reuses its buffers: the kept rows must not follow them."""
    P, y = _multiclass(n=300)
    for kw in ({}, {"keep_rows": True}):
        m = pt.MulticlassAveragePrecision(K, average=None, **kw)
        tp, ty = torch.from_numpy(P.copy()), torch.from_numpy(y.copy())
        m.update(tp, ty)
        before = m.compute().numpy().copy()
        tp.zero_()
        ty.fill_(0)
        assert np.array_equal(m.compute().numpy(), before)
        if kw:
            assert m.compute_frame(n_boot=5, seed=0)["estimate"].notna().all()


@pytest.mark.parametrize("multilabel", [False, True])
def test_intervals_from_rows_still_kept_without_keep_rows(multilabel):
    """Continuous scores are kept as rows anyway: intervals need no keep_rows=True."""
    P, t = _multilabel(n=400) if multilabel else _multiclass(n=400)
    cls = pt.MultilabelAveragePrecision if multilabel else pt.MulticlassAveragePrecision
    m = _feed(cls(K, average="macro"), P, t, parts=1)
    got = m.compute_frame(n_boot=30, seed=4)
    kw = {} if multilabel else {"multiclass": "ovr", "classes": list(range(K))}
    ref = prn.bootstrap(
        score=P.astype(np.float64), label=t, average="macro", method="ap", n_boot=30, seed=4, **kw
    )
    for col in ("estimate", "ci_low", "ci_high"):
        assert np.array_equal(got[col], ref[col])
