"""prroc_numba.torch in one process: the metric objects equal the in-memory functions on
all rows (exactly, unweighted), whatever the batches; intervals equal prn.bootstrap's for
the same seed; bad input gets the library's errors; torchmetrics' machinery (reset,
state_dict, MetricCollection, forward) works; torchmetrics and torcheval agree on their
own cases (float64 input).

References: the in-memory public functions on the concatenated rows (checked against
the oracles and scikit-learn elsewhere) and scikit-learn directly.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")

from sklearn.metrics import average_precision_score, roc_auc_score  # noqa: E402

import prroc_numba as prn  # noqa: E402
import prroc_numba.torch as pt  # noqa: E402
from prroc_numba.torch import _metric, _reduce  # noqa: E402
from prroc_numba.torch._inputs import check_rows  # noqa: E402

KINDS = [(pt.AveragePrecision, "pr", "ap"), (pt.AUCPR, "pr", "dg"), (pt.AUROC, "roc", None)]


def _data(n=6000, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.15).astype(np.int64)
    s1 = y + rng.normal(size=n)
    s2 = 0.5 * y + rng.normal(size=n)
    if ties:
        s1, s2 = np.round(s1, 1), np.round(s2, 2)
    g = rng.integers(0, 4, n)
    return y, np.c_[s1, s2], g


def _feed(metric, parts, *arrays, by=None, weight=None):
    for part in parts:
        metric.update(
            *(torch.from_numpy(a[part]) for a in arrays),
            sample_weight=None if weight is None else torch.from_numpy(weight[part]),
            by=None if by is None else torch.from_numpy(by[part]),
        )
    return metric


@pytest.mark.parametrize("cls, curve, method", KINDS)
@pytest.mark.parametrize("ties", [True, False])
def test_equals_auc_on_all_rows(cls, curve, method, ties):
    y, S, g = _data(ties=ties)
    rng = np.random.default_rng(1)
    parts = np.array_split(rng.permutation(y.size), 13)  # shuffled, uneven batches
    one = _feed(cls(), parts, S[:, 0], y).compute()
    ref = prn.auc(score=S[:, 0], label=y, curve=curve, method=method)["auc"].iloc[0]
    assert one.dtype == torch.float64 and one.shape == ()
    assert float(one) == ref  # exact
    sk = average_precision_score if method == "ap" else roc_auc_score
    if method != "dg":
        assert float(one) == pytest.approx(sk(y, S[:, 0]), abs=1e-12)
    # several columns and groups: one curve per (group, column), groups ascending
    m = _feed(cls(models=2), parts, S, y, by=g)
    full = prn.auc(score=S, label=y, by=g, curve=curve, method=method)
    assert m.compute().shape == (4, 2)
    assert np.array_equal(m.compute().numpy().ravel(), full["auc"].to_numpy())
    pd.testing.assert_frame_equal(m.compute_frame(), full)


def test_target_per_column_is_one_curve_per_column():
    y, S, g = _data()
    rng = np.random.default_rng(2)
    Y = np.c_[y, rng.integers(0, 2, y.size)]
    m = _feed(pt.AUROC(), np.array_split(np.arange(y.size), 5), S, Y, by=g)
    out = m.compute().numpy()
    for j in range(2):
        ref = prn.auc(score=S[:, j], label=Y[:, j], by=g, curve="roc")["auc"].to_numpy()
        assert np.array_equal(out[:, j], ref)


def test_weights_match_the_weighted_call():
    y, S, g = _data()
    w = np.random.default_rng(3).random(y.size) * (np.arange(y.size) % 7 != 0)  # zeros too
    parts = np.array_split(np.arange(y.size), 7)
    m = _feed(pt.AveragePrecision(), parts, S[:, 0], y, weight=w)
    ref = average_precision_score(y, S[:, 0], sample_weight=w)
    assert float(m.compute()) == pytest.approx(ref, rel=0, abs=1e-12)
    with pytest.raises(ValueError, match="weighted rows need the rows.*keep_rows=True"):
        m.compute_frame(n_boot=10)


@pytest.mark.parametrize("stratified", [True, False])
def test_intervals_equal_prn_bootstrap(stratified):
    y, S, g = _data(n=3000)
    parts = np.array_split(np.random.default_rng(4).permutation(y.size), 6)
    for cls, curve, method in KINDS:
        m = _feed(cls(), parts, S[:, 0], y, by=g)
        got = m.compute_frame(n_boot=200, seed=11, stratified=stratified)
        ref = prn.bootstrap(
            score=S[:, 0],
            label=y,
            by=g,
            curve=curve,
            method=method,
            n_boot=200,
            seed=11,
            stratified=stratified,
        )
        pd.testing.assert_frame_equal(got, ref)  # exact: the same replicates


def test_several_metrics_from_one_table():
    y, S, g = _data()
    names = ["auc_pr", "ap", "auc_roc", "auc_pr_hull", "n_pos"]
    m = _feed(pt.Metrics(names, models=2), np.array_split(np.arange(y.size), 4), S, y, by=g)
    ref = prn.metrics(score=S, label=y, by=g, metrics=names)
    pd.testing.assert_frame_equal(m.compute_frame(), ref)
    out = m.compute()
    assert list(out) == names
    for nm in names:
        assert np.array_equal(out[nm].numpy().ravel(), ref[nm].to_numpy(np.float64))


def test_torch_reduction_equals_the_library_reduction():
    """The device path (torch sort and segment sums) builds the same table as the CPU
    path (the library's packing); run here on CPU tensors."""
    y, S, g = _data()
    w = np.random.default_rng(5).random(y.size)
    for args in [(S[:, :1], y, None, None), (S, y, None, g), (S, y, w, g)]:
        rows = check_rows(
            *(None if a is None else torch.from_numpy(a) for a in args[:2]),
            None if args[2] is None else torch.from_numpy(args[2]),
            None if args[3] is None else torch.from_numpy(args[3]),
        )
        a = _reduce.reduce_rows_numpy(rows)
        b = _reduce.rows_torch(rows)
        for x, z in zip(a, b):
            assert x.dtype == z.dtype
            assert torch.allclose(x.double(), z.double(), rtol=0, atol=1e-9)
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_large_batches_take_the_class_split_sort():
    """Curves of >= 4096 rows are reduced from the library's class-split sort: the same
    table as the row-by-row reduction, and the same areas as prn.auc."""
    y, S, g = _data(n=40_000, seed=9)
    S[:100] = -0.0  # signed zeros are one score
    S[100:200] = 0.0
    rows = check_rows(torch.from_numpy(S), torch.from_numpy(y), None, torch.from_numpy(g % 2))
    from prroc_numba._core.packing import pack
    from prroc_numba._core.presort import split_sorted

    assert split_sorted(pack(None, score=S[:, 0], label=y, by=g % 2)) is not None
    one = check_rows(torch.from_numpy(S[:, 0]), torch.from_numpy(y), None, None)  # 1 curve
    for r in (rows, one):
        a, b = _reduce.reduce_rows_numpy(r), _reduce.rows_torch(r)
        for x, z in zip(a, b):
            assert torch.equal(x, z)
    m = pt.AUCPR(models=2)
    m.update(torch.from_numpy(S), torch.from_numpy(y), by=torch.from_numpy(g % 2))
    pd.testing.assert_frame_equal(m.compute_frame(), prn.auc(score=S, label=y, by=g % 2))


def test_the_device_path_end_to_end(monkeypatch):
    """Everything a CUDA tensor takes (torch reduction per batch, torch merges), run on
    CPU tensors: the results still equal prn.auc on all rows exactly."""
    monkeypatch.setattr(_metric, "reduce_rows", _reduce.rows_torch)
    monkeypatch.setattr(_metric, "_MERGE_MIN", 500)
    monkeypatch.setattr(
        _reduce, "reduce_table", lambda t: _reduce.reduce_torch(*t)
    )  # what merge() runs for tensors off the CPU
    y, S, g = _data()
    m = _feed(pt.AUCPR(models=2), np.array_split(np.arange(y.size), 9), S, y, by=g)
    assert len(m.key) < 9  # merged on the way
    pd.testing.assert_frame_equal(m.compute_frame(), prn.auc(score=S, label=y, by=g))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("ties", [True, False])
def test_cuda_tensors_equal_auc_on_all_rows(ties):
    """CUDA tensors, as a training loop on a GPU hands them over (reduced on the device,
    the table copied at compute): the results equal prn.auc on all rows exactly, with
    groups, and with weights."""
    y, S, g = _data(ties=ties)
    w = np.random.default_rng(3).random(y.size)
    cuda = torch.device("cuda")
    for weighted in (False, True):
        m = pt.AUCPR(models=2)
        for part in np.array_split(np.arange(y.size), 7):
            m.update(
                torch.from_numpy(S[part]).to(cuda),
                torch.from_numpy(y[part]).to(cuda),
                by=torch.from_numpy(g[part]).to(cuda),
                sample_weight=torch.from_numpy(w[part]).to(cuda) if weighted else None,
            )
        ref = prn.auc(score=S, label=y, by=g, weight=w if weighted else None)
        tol = {"check_exact": False, "rtol": 0, "atol": 1e-12} if weighted else {}
        pd.testing.assert_frame_equal(m.compute_frame(), ref, **tol)


def test_merge_orders_and_sums_as_the_library():
    from prroc_numba._core.table import reduce_entries

    rng = np.random.default_rng(8)
    key = rng.integers(0, 3, 5000)
    score = np.where(rng.random(5000) < 0.5, rng.integers(0, 40, 5000) / 4, -0.0)
    pos, neg = rng.random(5000), rng.random(5000)
    for args in [(key, score, pos, neg), (key * 0, score, pos, neg)]:
        ours = _reduce.reduce_numpy(*args)
        ref = reduce_entries(*args)[:4]
        for a, b in zip(ours, ref):
            assert np.array_equal(a, b)  # bit for bit, weighted sums too
    distinct = _reduce.reduce_numpy(key, rng.random(5000), pos, neg)
    assert distinct[0].size == 5000


def _rows_kept(m):
    return sum(int(x.shape[-1]) for x in m.labels)


def test_state_stays_at_distinct_scores_and_merges(monkeypatch):
    monkeypatch.setattr(_metric, "_MERGE_MIN", 100)
    monkeypatch.setattr(_metric, "_RAW_VALUES", 2000)  # rows reduced past 2000
    rng = np.random.default_rng(6)
    m = pt.AveragePrecision()
    ys, ss = [], []
    for _ in range(60):
        y = rng.integers(0, 2, 500)
        s = rng.integers(0, 50, 500) / 10.0  # 50 distinct scores
        m.update(torch.from_numpy(s), torch.from_numpy(y))
        ys.append(y)
        ss.append(s)
        assert _rows_kept(m) <= 2500  # tied scores: the kept rows are reduced ...
        assert sum(x.numel() for x in m.key) <= 4 * 50 + 500  # ... and merged as it goes
    assert sum(x.numel() for x in m.key) > 0
    y, s = np.concatenate(ys), np.concatenate(ss)
    assert float(m.compute()) == prn.auc(score=s, label=y, method="ap")["auc"].iloc[0]


def test_state_dict_reset_and_collection():
    from torchmetrics import MetricCollection

    y, S, _ = _data()
    parts = np.array_split(np.arange(y.size), 3)
    m = _feed(pt.AUCPR(), parts[:2], S[:, 0], y)
    other = pt.AUCPR()
    other.load_state_dict(m.state_dict())  # a checkpoint resumes the stream
    for x in (m, other):
        _feed(x, parts[2:], S[:, 0], y)
    assert float(other.compute()) == float(m.compute())
    m._rows_limit = 1 << 20  # as a stream of continuous scores leaves it
    m.reset()
    assert m.rows == [] and m.labels == [] and m._rows_limit == 0
    with pytest.warns(UserWarning, match="before the ``update``"):  # torchmetrics' note
        with pytest.raises(ValueError, match="seen no rows"):
            m.compute()
    coll = MetricCollection({"ap": pt.AveragePrecision(), "roc": pt.AUROC()})
    coll.update(torch.from_numpy(S[:, 0]), torch.from_numpy(y))
    out = coll.compute()
    assert float(out["ap"]) == pytest.approx(average_precision_score(y, S[:, 0]), abs=1e-12)
    assert float(out["roc"]) == pytest.approx(roc_auc_score(y, S[:, 0]), abs=1e-12)


def test_forward_gives_the_batch_and_keeps_the_stream():
    y, S, _ = _data()
    m = pt.AveragePrecision()
    a, b = np.arange(3000), np.arange(3000, y.size)
    batch = m(torch.from_numpy(S[a, 0]), torch.from_numpy(y[a]))

    def ap(rows):
        return prn.auc(score=S[rows, 0], label=y[rows], method="ap")["auc"].iloc[0]

    assert float(batch) == ap(a)
    m(torch.from_numpy(S[b, 0]), torch.from_numpy(y[b]))
    assert float(m.compute()) == ap(np.arange(y.size))


def test_a_curve_without_positives_is_nan_and_warned():
    m = pt.AveragePrecision()
    s, y = torch.tensor([0.3, 0.2, 0.9, 0.1]), torch.tensor([0, 0, 1, 0])
    m.update(s, y, by=torch.tensor([0, 0, 1, 1]))
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        out = m.compute()
    assert np.isnan(float(out[0])) and float(out[1]) == 1.0


def test_bad_input_errors():
    m = pt.AveragePrecision()
    s, y = torch.tensor([0.1, 0.5, float("nan"), 0.3]), torch.tensor([0, 1, 1, 0])
    with pytest.raises(ValueError, match="preds has 1 rows with NaN .* at row 2"):
        m.update(s, y)
    with pytest.raises(ValueError, match="target has 3 rows but preds has 4"):
        m.update(torch.rand(4), y[:3])
    with pytest.raises(ValueError, match=r"target has values \[0, 1, 2\]"):
        m.update(torch.rand(4), torch.tensor([0, 1, 2, 1]))
    with pytest.raises(ValueError, match="sample_weight has 1 negative"):
        m.update(torch.rand(4), y, sample_weight=torch.tensor([1.0, -1.0, 1.0, 1.0]))
    with pytest.raises(TypeError, match="by must hold integer group ids"):
        m.update(torch.rand(4), y, by=torch.rand(4))
    with pytest.raises(ValueError, match=r"preds must have shape \(n,\) or \(n, k\)"):
        m.update(torch.rand(4, 2, 2), y)
    with pytest.raises(TypeError, match="preds must be a torch.Tensor"):
        m.update(np.zeros(4), y)
    m.update(torch.rand(4), y)
    with pytest.raises(ValueError, match="score columns"):
        m.update(torch.rand(4, 1), y)  # the layout is fixed by the first update
    with pytest.raises(ValueError, match="by= use"):
        m.update(torch.rand(4), y, by=torch.zeros(4, dtype=torch.int64))
    with pytest.raises(ValueError, match="'dg'|method"):
        pt.AUCPR(method="nope")


def test_import_prroc_numba_does_not_import_torch():
    code = "import sys, prroc_numba as prn; prn.auc; assert 'torch' not in sys.modules; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
    assert prn.torch is pt  # the subpackage, on first use


# ----------------------------------------------------------- the peers' own cases

TM_CASES = [
    # torchmetrics' documented examples, torcheval's, then ties and random rows
    ([0.0, 0.5, 0.7, 0.8], [0, 1, 1, 0]),
    ([0.1, 0.5, 0.7, 0.8], [1, 0, 1, 1]),
    ([0.5, 0.5, 0.5, 0.2, 0.2], [1, 0, 1, 0, 1]),
]


def _random_case(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 400)
    return list(np.round(y * 0.3 + rng.random(400), 2)), list(y)


@pytest.mark.parametrize("case", TM_CASES + [_random_case(0), _random_case(1)])
def test_agrees_with_torchmetrics_and_torcheval(case):
    from torchmetrics.classification import BinaryAUROC, BinaryAveragePrecision

    s = torch.tensor(case[0], dtype=torch.float64)
    y = torch.tensor(case[1])
    ours = {}
    for name, cls in [("ap", pt.AveragePrecision), ("roc", pt.AUROC)]:
        m = cls()
        m.update(s, y)
        ours[name] = float(m.compute())
    tm_ap = BinaryAveragePrecision(thresholds=None)
    tm_ap.update(s, y)
    tm_roc = BinaryAUROC(thresholds=None)
    tm_roc.update(s, y)
    assert ours["ap"] == pytest.approx(float(tm_ap.compute()), abs=1e-6)  # theirs: float32
    assert ours["roc"] == pytest.approx(float(tm_roc.compute()), abs=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torcheval's own deprecation notes
        from torcheval.metrics import BinaryAUPRC
        from torcheval.metrics import BinaryAUROC as TeAUROC

        te_ap, te_roc = BinaryAUPRC(), TeAUROC()
        te_ap.update(s, y)
        te_roc.update(s, y)
        assert ours["ap"] == pytest.approx(float(te_ap.compute()), abs=1e-6)
        assert ours["roc"] == pytest.approx(float(te_roc.compute()), abs=1e-6)


def test_agrees_with_torchmetrics_multilabel():
    from torchmetrics.classification import MultilabelAveragePrecision

    rng = np.random.default_rng(7)
    Y = rng.integers(0, 2, (500, 3))
    S = np.round(Y * 0.4 + rng.random((500, 3)), 2)
    tm = MultilabelAveragePrecision(num_labels=3, average=None, thresholds=None)
    tm.update(torch.from_numpy(S), torch.from_numpy(Y))
    m = pt.AveragePrecision()
    m.update(torch.from_numpy(S), torch.from_numpy(Y))
    assert np.allclose(m.compute().numpy(), tm.compute().numpy(), rtol=0, atol=1e-6)


@pytest.mark.parametrize("cls, curve, method", KINDS)
def test_kept_rows_equal_auc_on_all_rows(cls, curve, method, monkeypatch):
    """Batches of hard, unweighted labels are kept as rows (continuous scores) or reduced
    in bulk (tied), and computed by prn.auc's own route: exact, whatever the mix of
    kept rows, reduced tables, float32 scores and weighted batches."""
    monkeypatch.setattr(_metric, "_RAW_VALUES", 3000)
    for ties in (False, True):
        y, S, _ = _data(n=20_000, seed=3, ties=ties)
        parts = np.array_split(np.random.default_rng(2).permutation(y.size), 11)
        m = _feed(cls(models=2), parts, S, y)
        ref = prn.auc(score=S, label=y, curve=curve, method=method)
        assert np.array_equal(m.compute().numpy(), ref["auc"].to_numpy())
        pd.testing.assert_frame_equal(m.compute_frame(), ref)
        if ties:  # reduced to the table as it went (50 + 400 distinct scores)
            assert sum(x.numel() for x in m.key) > 0 and _rows_kept(m) <= 3000
        else:  # continuous: kept as rows, no table
            assert sum(x.numel() for x in m.key) == 0 and _rows_kept(m) == y.size
        one = _feed(cls(), parts, S[:, 0], y)
        assert float(one.compute()) == ref["auc"].iloc[0]
        # the rows folded into one table (as a sync does), then computed
        one._merge_now()
        assert _rows_kept(one) == 0
        assert float(one.compute()) == ref["auc"].iloc[0]
    # float32 scores are kept as float32 and read back exactly
    y, S, _ = _data(n=9000, seed=4, ties=False)
    s32 = S[:, 0].astype(np.float32)
    m = _feed(cls(), np.array_split(np.arange(y.size), 4), s32, y)
    assert m.rows[0].dtype == torch.float32
    ref32 = prn.auc(score=s32.astype(np.float64), label=y, curve=curve, method=method)
    assert float(m.compute()) == ref32["auc"].iloc[0]
    # a weighted batch (reduced to the table) beside kept rows
    w = np.ones(y.size)
    w[3000:3010] = 2.0
    m = cls()
    m.update(torch.from_numpy(S[:3000, 0]), torch.from_numpy(y[:3000]))
    m.update(
        torch.from_numpy(S[3000:, 0]),
        torch.from_numpy(y[3000:]),
        sample_weight=torch.from_numpy(w[3000:]),
    )
    ref = prn.auc(score=S[:, 0], label=y, weight=w, curve=curve, method=method)
    assert float(m.compute()) == ref["auc"].iloc[0]


def test_kept_rows_memory_below_the_rows_themselves():
    """Continuous scores: the state is the rows (9 bytes a row, below torchmetrics' 16 for
    float64 scores and int64 labels); tied scores: a table of distinct scores."""
    rng = np.random.default_rng(5)
    n = 400_000
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = y + rng.normal(size=n)

    def state_bytes(m):
        names = ("key", "score", "pos", "neg", "rows", "labels")
        return sum(x.nbytes for nm in names for x in getattr(m, nm))

    for scores, most in ((s, 9 * n), (np.round(s, 2), 2**18 * 9 + 32 * 2000)):
        m = pt.AveragePrecision()
        for part in np.array_split(np.arange(n), 40):
            m.update(torch.from_numpy(scores[part]), torch.from_numpy(y[part]))
        assert state_bytes(m) <= most
        ref = prn.auc(score=scores, label=y, method="ap")["auc"].iloc[0]
        assert float(m.compute()) == ref


def test_kept_rows_checkpoint_and_forward():
    y, S, _ = _data(n=8000, ties=False)
    parts = np.array_split(np.arange(y.size), 4)
    m = _feed(pt.AveragePrecision(models=2), parts[:2], S, y)
    other = pt.AveragePrecision(models=2)
    other.load_state_dict(m.state_dict())  # the kept rows travel in the checkpoint
    assert _rows_kept(other) == _rows_kept(m) > 0
    for x in (m, other):
        _feed(x, parts[2:], S, y)
    ref = prn.auc(score=S, label=y, method="ap")["auc"].to_numpy()
    assert np.array_equal(other.compute().numpy(), ref)
    f = pt.AUROC(models=2)
    for part in parts:
        f(torch.from_numpy(S[part]), torch.from_numpy(y[part]))
    roc = prn.auc(score=S, label=y, curve="roc")["auc"].to_numpy()
    assert np.array_equal(f.compute().numpy(), roc)


@pytest.mark.parametrize("cls, curve, method", KINDS)
def test_compare_equals_prn_compare_on_all_rows(cls, curve, method):
    """The paired comparison of the score columns equals prn.compare on the batches
    concatenated in update order, for the same seed (bootstrap and Poisson)."""
    rng = np.random.default_rng(11)
    n = 5000
    y = rng.random(n) < 0.2
    S = rng.normal(size=(n, 3)) + np.outer(y, [1.0, 0.8, 0.3])
    parts = np.array_split(np.arange(n), 7)
    for ties, keep in ((False, False), (True, True)):
        X = np.round(S, 1) if ties else S
        m = _feed(cls(keep_rows=keep, models=3), parts, X, y)
        kw = {"curve": curve, "method": method, "n_boot": 200, "seed": 4}
        got = m.compare(n_boot=200, seed=4)
        pd.testing.assert_frame_equal(got, prn.compare(score=X, label=y, **kw))
        got = m.compare(n_boot=200, seed=4, resampling="poisson", baseline=2)
        ref = prn.compare(score=X, label=y, **kw, resampling="poisson", baseline=2)
        pd.testing.assert_frame_equal(got, ref)
    # a state whose tied scores were reduced has lost the pairing: refused, with the fix
    big = np.round(rng.normal(size=(300_000, 2)), 1)
    yb = rng.random(300_000) < 0.2
    m = cls(models=2)
    m.update(torch.from_numpy(big), torch.from_numpy(yb))
    assert sum(x.numel() for x in m.key) > 0
    with pytest.raises(ValueError, match="keep_rows=True"):
        m.compare(n_boot=10)
    m = _feed(cls(), parts, S[:, 0], y)
    with pytest.raises(ValueError, match=r"preds of shape \(n, k\)"):
        m.compare(n_boot=10)
    with pytest.raises(ValueError, match="seen no rows"):
        pt.AveragePrecision(keep_rows=True).compare(n_boot=10)


@pytest.mark.parametrize("dtype", [torch.int8, torch.int64, torch.uint8, torch.float32, torch.bool])
def test_kept_labels_of_every_dtype(dtype):
    """Labels of any integer, float or bool dtype are kept as bool; values other than
    0/1 are refused (a negative integer too, which the unsigned check reads as large)."""
    s = torch.tensor([0.9, 0.8, 0.3, 0.1, 0.5, 0.2], dtype=torch.float64)
    y = torch.tensor([1, 0, 1, 0, 0, 1]).to(dtype)
    m = pt.AveragePrecision()
    m.update(s, y)
    assert m.labels[0].dtype == torch.bool
    ref = average_precision_score(y.numpy().astype(int), s.numpy())
    assert float(m.compute()) == pytest.approx(ref, abs=1e-15)
    if dtype != torch.bool:
        bad = y.clone()
        bad[2] = 2 if dtype == torch.uint8 else -1
        with pytest.raises(ValueError, match="first outside 0/1 at row 2"):
            pt.AveragePrecision().update(s, bad)
