"""prroc_numba.torch in a real Lightning Trainer (CPU, 2 processes, DDP): a tiny model
logs AveragePrecision and a bootstrap interval at epoch end; the numbers equal prn.auc /
prn.bootstrap on every row the two ranks scored, and a run resumed from a checkpoint
written mid-epoch ends with the same numbers.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
L = pytest.importorskip("lightning.pytorch")
# ModelCheckpoint resolves its folder through fsspec, which imports this module on first
# use; once, in a full-suite run on a fresh clone, that late import raised
# ModuleNotFoundError although the file was installed (the test passed alone and in other
# full runs). Importing it at collection, before any other test runs, keeps that lookup
# out of the test.
pytest.importorskip("fsspec.implementations.chained")

import prroc_numba as prn  # noqa: E402

N, BATCH, STEPS, CKPT_STEP = 640, 32, 10, 4  # rows, rows per batch, batches per rank

#: batches this process has trained on (what its loader's state says it has consumed)
_DONE = [0]


def _data():
    rng = np.random.default_rng(0)
    y = (rng.random(N) < 0.2).astype(np.float32)
    x = (rng.normal(size=(N, 3)) + y[:, None] * np.array([1.0, 0.5, 0.0])).astype(np.float32)
    return np.round(x, 1), y


class ShardLoader:
    """This rank's batches, resumable: Lightning saves and restores its position."""

    def __init__(self):
        self.start = 0

    def __len__(self):
        return STEPS

    def __iter__(self):
        import torch.distributed as dist

        rank = dist.get_rank() if dist.is_initialized() else 0
        x, y = _data()
        for i in range(self.start, STEPS):
            rows = np.arange(rank * STEPS * BATCH, (rank + 1) * STEPS * BATCH)[
                i * BATCH : (i + 1) * BATCH
            ]
            yield torch.from_numpy(x[rows]), torch.from_numpy(y[rows]), torch.from_numpy(rows)
        self.start = 0

    def state_dict(self):
        return {"done": _DONE[0]}

    def load_state_dict(self, state):
        self.start = int(state["done"])
        _DONE[0] = self.start


class Tiny(L.LightningModule):
    def __init__(self, out):
        super().__init__()
        import prroc_numba.torch as pt

        torch.manual_seed(0)
        self.lin = torch.nn.Linear(3, 1)
        self.ap = pt.AveragePrecision(merge_checkpoint=True)
        self.out = out

    def training_step(self, batch, batch_idx):
        x, y, rows = batch
        logit = self.lin(x)[:, 0]
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logit, y)
        score = torch.sigmoid(logit).detach().double()
        self.ap.update(score, y.long())
        self.log("train_ap", self.ap, on_step=False, on_epoch=True)
        _DONE[0] = batch_idx + 1
        with open(f"{self.out}/rows{self.global_rank}.txt", "a") as f:  # what was scored
            for r, s in zip(rows.tolist(), score.tolist()):
                f.write(f"{r} {s!r}\n")
        return loss

    def setup(self, stage):
        # the docs' interval logging must not draw Lightning's sync_dist advice
        warnings.filterwarnings("error", message=".*sync_dist=True.*")

    def on_train_epoch_end(self):
        frame = self.ap.compute_frame(n_boot=50, seed=0)
        low = torch.tensor(frame["ci_low"].iloc[0], dtype=torch.float64)  # equal on every rank
        self.log("train_ap_ci_low", low, sync_dist=True, reduce_fx="max")  # max: exact
        self._res = {"ap": float(self.ap.compute()), "ci_low": float(frame["ci_low"].iloc[0])}

    def on_train_end(self):
        logged = self.trainer.callback_metrics["train_ap_ci_low"]
        self._res["logged_dtype"] = str(logged.dtype)
        self._res["logged_ci_low"] = float(logged)
        if self.global_rank == 0:
            with open(f"{self.out}/final.json", "w") as f:
                json.dump(self._res, f)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.5)


def _fit(root, out, ckpt=None, callbacks=()):
    trainer = L.Trainer(
        accelerator="cpu",
        devices=2,
        strategy="ddp_spawn",
        max_epochs=1,
        logger=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=list(callbacks),
        default_root_dir=str(root),
        enable_checkpointing=bool(callbacks),
    )
    try:
        trainer.fit(Tiny(str(out)), train_dataloaders=ShardLoader(), ckpt_path=ckpt)
    except torch.multiprocessing.ProcessExitedException as err:
        # gloo's threads can abort a rank's interpreter as it exits, after the run has
        # ended ("terminate called without an active exception", now and then): the
        # run's own output is still checked in full below; any other failure is raised
        if "SIGABRT" not in str(err) or not (out / "final.json").exists():
            raise
    return json.loads((out / "final.json").read_text())


def _scored(out):
    rows = {}
    for rank in range(2):
        for line in (out / f"rows{rank}.txt").read_text().split("\n"):
            if line:
                r, s = line.split()
                rows[int(r)] = float(s)
    return rows


def test_lightning_ddp_logs_exact_ap_and_resumes_mid_epoch(tmp_path):
    from lightning.pytorch.callbacks import ModelCheckpoint

    full, resumed = tmp_path / "full", tmp_path / "resumed"
    full.mkdir()
    resumed.mkdir()
    ckpt = ModelCheckpoint(
        dirpath=tmp_path / "ckpt", every_n_train_steps=CKPT_STEP, save_top_k=-1, filename="{step}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lightning's advice on workers, logging, sizes
        a = _fit(tmp_path, full, callbacks=[ckpt])
        b = _fit(tmp_path, resumed, ckpt=str(tmp_path / "ckpt" / f"step={CKPT_STEP}.ckpt"))
    # the full run against prn on every row the two ranks scored
    rows = _scored(full)
    assert sorted(rows) == list(range(2 * STEPS * BATCH))
    _, y = _data()
    idx = np.array(sorted(rows))
    s = np.array([rows[i] for i in idx])
    assert a["ap"] == prn.auc(score=s, label=y[idx], method="ap")["auc"].iloc[0]
    ci = prn.bootstrap(score=s, label=y[idx], method="ap", n_boot=50, seed=0)
    assert a["ci_low"] == ci["ci_low"].iloc[0]
    # logged as a float64 tensor, synced by max: the exact interval bound, no warning
    assert a["logged_ci_low"] == a["ci_low"] and a["logged_dtype"] == "torch.float64"
    # the resumed run scored only the batches after the checkpoint, and ends the same
    assert len(_scored(resumed)) == 2 * (STEPS - CKPT_STEP) * BATCH
    assert b == a
