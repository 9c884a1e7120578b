"""Areas of a packed batch as frames: what ``auc`` and ``metrics`` return for in-memory
rows, and what the reduced table (:mod:`.table`) returns for the rows it holds.

Each function takes a packed :class:`~prroc_numba._core.batch.Batch` (checked options,
kernel codes) and runs the area kernels on it; the public functions validate and pack
their input, then call these.
"""

from __future__ import annotations

import numpy as np

from .. import _frames as F
from .. import _schema as S
from .._checks import AREA_METRICS
from .._core.batch import warn_undefined
from .._core.multiclass import curves_frame as multi_frame
from .._drivers import areas_batch
from . import device as _device
from .batch import warn_undefined_auc
from .curve_frames import equal_error_rate
from .gain_areas import prg_areas
from .presort import split_areas, split_sorted


def batch_areas(batch, codes, hulls):
    """Every requested area of every curve: ``(n_curves, len(codes))``, one sort per curve.

    Hard, unweighted labels on large curves take the class-split keys-only sort
    (:mod:`.presort`); everything else the kernels' argsort.
    """
    codes = np.asarray(codes, dtype=np.int64)
    hulls = np.asarray(hulls, dtype=np.bool_)
    split = split_sorted(batch)
    if split is not None:
        return split_areas(batch, split[0], split[1], codes, hulls)
    return areas_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start, codes, hulls
    )


def auc_frame(batch, curve, out, method_label):
    """The ``auc`` frame of a batch's areas ``out`` (NaN and a warning where undefined)."""
    warn_undefined_auc(batch, curve, stacklevel=4)
    frame = multi_frame(batch, {S.AUC: out})
    F.describe(frame, S.AUC, curve=curve, method=method_label)
    return frame


def prg_frame(batch, hull):
    """The ``auc(..., curve="prg")`` frame of a batch: one AUPRG per curve."""
    out, bad = prg_areas(batch, hull)
    warn_undefined(batch, bad, "no positives or no negatives: AUPRG is NaN", stacklevel=4)
    return multi_frame(batch, {S.AUC: out})


def metrics_frame(batch, names, device="cpu"):
    """The ``metrics`` frame of a batch: the columns ``names`` (checked) per curve."""
    areas = [nm for nm in names if nm in AREA_METRICS]
    cols = {}
    if areas and device == "cuda":
        gpu = _device.backend()
        cols = {nm: gpu.area_batch(batch, AREA_METRICS[nm][1], AREA_METRICS[nm][2]) for nm in areas}
    elif areas:
        out = batch_areas(
            batch, [AREA_METRICS[nm][1] for nm in areas], [AREA_METRICS[nm][2] for nm in areas]
        )
        cols = {nm: out[:, k] for k, nm in enumerate(areas)}
    P, N = batch.totals()
    curves = {AREA_METRICS[nm][0] for nm in areas}
    if curves:
        what = {
            frozenset({"pr"}): "AUC-PR is undefined (no positives)",
            frozenset({"roc"}): "AUC-ROC is undefined (no positives or no negatives)",
            frozenset({"pr", "roc"}): (
                "AUC-PR is undefined without positives, AUC-ROC without positives or negatives"
            ),
        }[frozenset(curves)]
        bad = (P <= 0) | (N <= 0) if "roc" in curves else P <= 0
        warn_undefined(batch, bad, what + ": NaN", stacklevel=4)
    counts = {S.N_POS: P, S.N_NEG: N, S.PREVALENCE: P / (P + N)}
    if S.EER in names:
        if "roc" not in curves:
            warn_undefined(
                batch,
                (P <= 0) | (N <= 0),
                "EER is undefined (no positives or no negatives): NaN",
                stacklevel=4,
            )
        counts[S.EER] = equal_error_rate(batch, device)
    columns = {nm: (cols[nm] if nm in cols else counts[nm]) for nm in names}
    # multiclass averages: every column reduced alike (n_pos, prevalence: their averages)
    return multi_frame(batch, columns)
