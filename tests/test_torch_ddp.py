"""prroc_numba.torch across real torch.distributed process groups (gloo; 2 and 3
processes spawned on this machine): the synced results equal prn.auc / prn.metrics /
prn.bootstrap on all rows, exactly, with uneven batch counts per rank, a rank that sees
no positives and a rank that sees no rows; each rank sends its reduced table, never its
rows; a rank whose metric was built with other options is refused at sync.
"""

from __future__ import annotations

import pickle
import socket

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")

import prroc_numba as prn  # noqa: E402

N = 9000


def _rows():
    """The rows every rank reads (the same seed everywhere) and each row's rank."""
    rng = np.random.default_rng(0)
    y = (rng.random(N) < 0.1).astype(np.int64)
    s = np.round(y + rng.normal(size=N), 2)
    s2 = rng.integers(0, 30, N) / 10.0
    g = rng.integers(0, 3, N)
    return y, np.c_[s, s2], g


def _split(y, world):
    """Uneven shares; with 3 ranks the last holds negatives only."""
    rng = np.random.default_rng(1)
    share = np.linspace(1, 2, world)
    rank = rng.choice(world, size=y.size, p=share / share.sum())
    if world == 3:
        rank[(rank == 2) & (y == 1)] = 0
    return rank


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(rank, world, port, out):
    import torch.distributed as dist

    import prroc_numba.torch as pt

    torch.set_num_threads(1)
    url = f"tcp://127.0.0.1:{port}"
    dist.init_process_group("gloo", init_method=url, rank=rank, world_size=world)
    try:
        y, S, g = _rows()
        mine = np.flatnonzero(_split(y, world) == rank)
        rng = np.random.default_rng(10 + rank)
        mine = rng.permutation(mine)
        batches = np.array_split(mine, 3 + 4 * rank)  # uneven batch counts per rank
        sent = []

        def counting_gather(x, group=None):
            from torchmetrics.utilities.distributed import gather_all_tensors

            sent.append(int(x.numel()))
            return gather_all_tensors(x, group=group)

        # the paired comparison of the two columns: its rows kept, exchanged by compare
        paired = pt.AveragePrecision(keep_rows=True, models=2)
        metrics = {
            "ap": pt.AveragePrecision(dist_sync_fn=counting_gather),
            "dg": pt.AUCPR(method="dg", models=2),
            "roc": pt.AUROC(),
            "multi": pt.Metrics(["ap", "auc_pr", "auc_roc", "n_pos"], models=2),
        }
        for b in batches:

            def t(a, b=b):
                return torch.from_numpy(np.ascontiguousarray(a[b]))

            metrics["ap"].update(t(S[:, 0]), t(y))
            metrics["dg"].update(t(S), t(y), by=t(g))
            metrics["roc"].update(t(S[:, 1]), t(y), by=t(g))
            metrics["multi"].update(t(S), t(y))
            paired.update(t(S), t(y))
        # a checkpoint of every rank's table (merge_checkpoint), loaded and computed with
        # no further update: rank 0 holds the merged table, the others nothing
        saved = pt.AveragePrecision(merge_checkpoint=True)
        for b in batches:
            saved.update(torch.from_numpy(S[b, 0]), torch.from_numpy(y[b]))
        state = saved.state_dict()  # collective: every rank calls it
        resumed = pt.AveragePrecision(merge_checkpoint=True)
        resumed.load_state_dict(state)
        n_resumed = sum(int(x.numel()) for x in resumed.key)
        idle = pt.AUROC()  # updated on rank 0 only: the others send an empty table
        if rank == 0:
            idle.update(torch.from_numpy(S[:, 0]), torch.from_numpy(y))
        res = {
            "ap": metrics["ap"].compute().item(),
            "dg": metrics["dg"].compute().numpy(),
            "dg_frame": metrics["dg"].compute_frame(),
            "roc": metrics["roc"].compute().numpy(),
            "roc_ci": metrics["roc"].compute_frame(n_boot=100, seed=3),
            "multi": metrics["multi"].compute_frame(),
            "idle": idle.compute().item(),
            "resumed": resumed.compute().item(),
            "n_resumed": n_resumed,
            "sent": sent,
            "paired": paired.compare(n_boot=100, seed=5),
            "paired_poisson": paired.compare(n_boot=100, seed=5, resampling="poisson"),
            "paired_ap": paired.compute().numpy(),
        }
        # built with other options on rank 1: refused when the states meet
        bad = pt.AUCPR(method="integral" if rank == 1 else "dg")
        bad.update(torch.from_numpy(S[mine, 0]), torch.from_numpy(y[mine]))
        try:
            bad.compute()
            res["refused"] = None
        except ValueError as err:
            res["refused"] = str(err)
        with open(f"{out}/rank{rank}.pkl", "wb") as f:
            pickle.dump(res, f)
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("world", [2, 3])
def test_synced_results_equal_all_rows(world, tmp_path):
    import torch.multiprocessing as mp

    mp.spawn(_worker, args=(world, _free_port(), str(tmp_path)), nprocs=world, join=True)
    y, S, g = _rows()
    ap = prn.auc(score=S[:, 0], label=y, method="ap")["auc"].iloc[0]
    dg = prn.auc(score=S, label=y, by=g)
    roc = prn.auc(score=S[:, 1], label=y, by=g, curve="roc")
    roc_ci = prn.bootstrap(score=S[:, 1], label=y, by=g, curve="roc", n_boot=100, seed=3)
    multi = prn.metrics(score=S, label=y, metrics=["ap", "auc_pr", "auc_roc", "n_pos"])
    roc0 = prn.auc(score=S[:, 0], label=y, curve="roc")["auc"].iloc[0]
    # compare: prn.compare on rank 0's rows (in update order), then rank 1's, ...
    order = np.concatenate(
        [
            np.random.default_rng(10 + r).permutation(np.flatnonzero(_split(y, world) == r))
            for r in range(world)
        ]
    )
    kw = {"score": S[order], "label": y[order], "method": "ap", "n_boot": 100, "seed": 5}
    paired = prn.compare(**kw)
    paired_poisson = prn.compare(**kw, resampling="poisson")
    ap2 = prn.auc(score=S, label=y, method="ap")["auc"].to_numpy()
    for rank in range(world):
        with open(tmp_path / f"rank{rank}.pkl", "rb") as f:
            res = pickle.load(f)
        assert res["ap"] == ap  # exact, on every rank
        assert np.array_equal(res["dg"].ravel(), dg["auc"].to_numpy())
        pd.testing.assert_frame_equal(res["dg_frame"], dg)
        assert np.array_equal(res["roc"], roc["auc"].to_numpy())
        pd.testing.assert_frame_equal(res["roc_ci"], roc_ci)
        pd.testing.assert_frame_equal(res["multi"], multi)
        assert res["idle"] == roc0
        assert res["resumed"] == ap
        assert (res["n_resumed"] > 0) == (rank == 0)
        # what crossed the wire: this rank's merged table (key, score, pos, neg: one entry
        # per distinct score), and the 4 numbers of its options; not its rows
        distinct = np.unique(S[_split(y, world) == rank, 0]).size
        # (and the two row states, empty: the rows were reduced before the gather)
        assert res["sent"] == [distinct] * 4 + [0, 0] + [4]
        pd.testing.assert_frame_equal(res["paired"], paired)
        pd.testing.assert_frame_equal(res["paired_poisson"], paired_poisson)
        assert np.array_equal(res["paired_ap"], ap2)
        assert res["refused"] is not None and "different options" in res["refused"]


def _class_worker(rank, world, port, out):
    """Multiclass and multilabel metrics on 2 ranks: tables cross the wire, not rows."""
    import torch.distributed as dist

    import prroc_numba.torch as pt

    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world
    )
    try:
        y, S, g = _rows()
        P = np.c_[S, S[:, ::-1] * 0.5]  # 4 score columns
        cls = (np.round(S[:, 1] * 10).astype(np.int64) + y) % 4
        Y = np.c_[y, g == 1, g == 2, cls == 0].astype(np.int64)
        mine = np.flatnonzero(_split(y, world) == rank)
        sent = []

        def counting_gather(x, group=None):
            from torchmetrics.utilities.distributed import gather_all_tensors

            sent.append(int(x.numel()))
            return gather_all_tensors(x, group=group)

        mc = pt.MulticlassAveragePrecision(4, average=None, dist_sync_fn=counting_gather)
        mcg = pt.MulticlassAUROC(4, average="macro")
        ml = pt.MultilabelAveragePrecision(4, average="micro")
        ci = pt.MulticlassAveragePrecision(4, average="macro", keep_rows=True)
        weighted = pt.AveragePrecision(keep_rows=True, models=["a", "b"])
        w = 0.5 + (g == 1)
        for b in np.array_split(mine, 2 + 3 * rank):

            def t(a, b=b):
                return torch.from_numpy(np.ascontiguousarray(a[b]))

            mc.update(t(P), t(cls))
            mcg.update(t(P), t(cls), by=t(g))
            ml.update(t(P), t(Y))
            ci.update(t(P), t(cls))
            weighted.update(t(S), t(y), sample_weight=t(w))
        res = {
            "w_ci": weighted.compute_frame(n_boot=50, seed=4),
            "w_cmp": weighted.compare(n_boot=50, seed=4),
            "mc": mc.compute().numpy(),
            "mcg": mcg.compute_frame(),
            "ml": ml.compute().item(),
            "ci": ci.compute_frame(n_boot=50, seed=2),
            "sent": sent,
        }
        with open(f"{out}/rank{rank}.pkl", "wb") as f:
            pickle.dump(res, f)
    finally:
        dist.destroy_process_group()


def test_class_metrics_synced_equal_all_rows(tmp_path):
    import torch.multiprocessing as mp

    world = 2
    mp.spawn(_class_worker, args=(world, _free_port(), str(tmp_path)), nprocs=world, join=True)
    y, S, g = _rows()
    P = np.c_[S, S[:, ::-1] * 0.5]
    cls = (np.round(S[:, 1] * 10).astype(np.int64) + y) % 4
    Y = np.c_[y, g == 1, g == 2, cls == 0].astype(np.int64)
    kw = {"multiclass": "ovr", "classes": [0, 1, 2, 3]}
    mc = prn.auc(score=P, label=cls, method="ap", **kw)["auc"].to_numpy()
    frame = pd.DataFrame(P, columns=["s0", "s1", "s2", "s3"]).assign(y=cls, group=g)
    cols = ["s0", "s1", "s2", "s3"]
    mcg = prn.auc(frame, score=cols, label="y", by="group", curve="roc", average="macro", **kw)
    ml = prn.auc(score=P, label=Y, method="ap", average="micro")["auc"].iloc[0]
    # intervals: prn.bootstrap on rank 0's rows (in update order), then rank 1's
    order = np.concatenate([np.flatnonzero(_split(y, world) == r) for r in range(world)])
    ci = prn.bootstrap(
        score=P[order], label=cls[order], method="ap", average="macro", n_boot=50, seed=2, **kw
    )
    # weighted kept rows: prn.bootstrap / prn.compare with weight= on the same order
    wf = pd.DataFrame(S[order], columns=["a", "b"]).assign(y=y[order], w=0.5 + (g[order] == 1))
    wkw = {"score": ["a", "b"], "label": "y", "weight": "w", "method": "ap", "seed": 4}
    w_ci = prn.bootstrap(wf, n_boot=50, **wkw)
    w_cmp = prn.compare(wf, n_boot=50, **wkw)
    for rank in range(world):
        with open(tmp_path / f"rank{rank}.pkl", "rb") as f:
            res = pickle.load(f)
        for col in ("estimate", "ci_low", "ci_high"):
            assert np.array_equal(res["w_ci"][col], w_ci[col])
        assert np.array_equal(res["w_cmp"]["p_value"], w_cmp["p_value"])
        assert np.array_equal(res["mc"], mc)
        pd.testing.assert_frame_equal(res["mcg"], mcg, check_exact=False, rtol=1e-14)
        assert abs(res["ml"] - ml) < 1e-15
        pd.testing.assert_frame_equal(res["ci"], ci)
        # what crossed the wire: this rank's merged table (an entry per class and
        # distinct score), no rows
        mine = _split(y, world) == rank
        distinct = sum(np.unique(P[mine, j]).size for j in range(4))
        assert res["sent"] == [distinct] * 4 + [0, 0] + [4] + [0, 0]


M = 1001  # rows of the uneven evaluation set: 2 ranks cannot split it evenly


def _eval_rows():
    rng = np.random.default_rng(4)
    y = (rng.random(M) < 0.3).astype(np.int64)
    return y, y + rng.normal(size=M)


def _sampler_worker(rank, world, port, out):
    """An uneven evaluation set on 2 ranks: DistributedSampler pads it by repeating
    rows; a sampler that does not pad, or drop_last=True, avoids the repeat."""
    import torch.distributed as dist
    from lightning.pytorch.overrides.distributed import UnrepeatedDistributedSampler
    from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

    import prroc_numba.torch as pt

    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world
    )
    try:
        y, s = _eval_rows()
        ds = TensorDataset(torch.from_numpy(s), torch.from_numpy(y))
        samplers = {
            "padded": DistributedSampler(ds, shuffle=False),
            "unpadded": UnrepeatedDistributedSampler(ds, shuffle=False),
            "drop_last": DistributedSampler(ds, shuffle=False, drop_last=True),
        }
        res = {}
        for name, sampler in samplers.items():
            ap = pt.AveragePrecision()
            for score, target in DataLoader(ds, batch_size=100, sampler=sampler):
                ap.update(score, target)
            res[name] = (ap.compute().item(), list(sampler))
        with open(f"{out}/rank{rank}.pkl", "wb") as f:
            pickle.dump(res, f)
    finally:
        dist.destroy_process_group()


def test_distributed_sampler_padding_and_the_ways_around_it(tmp_path):
    import torch.multiprocessing as mp

    pytest.importorskip("lightning")
    mp.spawn(_sampler_worker, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    y, s = _eval_rows()
    res = []
    for rank in range(2):
        with open(tmp_path / f"rank{rank}.pkl", "rb") as f:
            res.append(pickle.load(f))

    def ap(rows):
        return prn.auc(score=s[rows], label=y[rows], method="ap")["auc"].iloc[0]

    everything = ap(np.arange(M))
    seen = {name: np.concatenate([r[name][1] for r in res]) for name in res[0]}
    # padded: 1002 rows, one of them seen twice -- the value of those rows, not of the set
    assert seen["padded"].size == M + 1 and np.unique(seen["padded"]).size == M
    assert res[0]["padded"][0] == ap(seen["padded"]) != everything
    # a sampler that does not pad: every row once, the value of the whole set, exactly
    assert np.array_equal(np.sort(seen["unpadded"]), np.arange(M))
    assert res[0]["unpadded"][0] == res[1]["unpadded"][0] == everything
    # drop_last: every row at most once, the last one left out
    assert seen["drop_last"].size == M - 1 and np.unique(seen["drop_last"]).size == M - 1
    assert res[0]["drop_last"][0] == ap(seen["drop_last"])
