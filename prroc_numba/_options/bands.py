"""The band family of :func:`~prroc_numba.bootstrap_curve` (:class:`Bands`): the
grid's axis, the kind of band, the grid; checked with the resampling options once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _backends
from .. import _schema as S
from .._checks import check_grid
from .._core.inputs import Inputs
from .._kernels.resample import GRID_FPR, GRID_PR, GRID_TPR
from .choices import BANDS, check_boot, check_choice, distributed
from .draws import Resampling, resolve


@dataclass(frozen=True)
class Bands:
    """``space``, ``band`` and ``grid`` of :func:`~prroc_numba.bootstrap_curve`."""

    space: str | None = None
    band: str = "pointwise"
    grid: Any = 101


#: ``(curve, space)`` -> (what the replicate kernels write on the grid, grid column,
#: value column)
_SPACES = {
    ("pr", "recall"): (GRID_PR, S.RECALL, S.PRECISION),
    ("roc", "fpr"): (GRID_TPR, S.FPR, S.TPR),
    ("roc", "tpr"): (GRID_FPR, S.TPR, S.FPR),
}


def band_space(curve, space):
    """``(kernel code, grid column, value column)`` of a band; clear errors otherwise."""
    if curve not in ("pr", "roc"):
        raise ValueError(f"curve={curve!r} is not known; use 'pr' or 'roc'")
    if space is None:
        space = "recall" if curve == "pr" else "fpr"
    if (curve, space) not in _SPACES:
        ok = ["recall"] if curve == "pr" else ["fpr", "tpr"]
        raise ValueError(f"space={space!r} is not a grid axis of curve={curve!r}; use one of {ok}")
    return _SPACES[(curve, space)]


def check_bands(data, inp: Inputs, curve: str, boot: Resampling, bands: Bands):
    """The options of :func:`~prroc_numba.bootstrap_curve`: ``(what, grid column,
    value column, grid, stratified, poisson)``, the first three as :func:`band_space`
    gives them.
    """
    check_boot(boot.n_boot, boot.level)
    what, xname, yname = band_space(curve, bands.space)
    check_choice("band", bands.band, BANDS)
    g = check_grid(bands.grid, xname, strict=True)
    if what == GRID_PR and isinstance(bands.grid, (int, np.integer)):
        g = int(bands.grid)  # from 1/P: the data's positives say where (pr_band_grid)
    if inp.multiclass == "ovo" or inp.average in ("macro", "weighted", "samples"):
        raise ValueError(
            "bootstrap_curve gives one-vs-rest bands: use multiclass='ovr' with "
            "average=None (one band per class) or 'micro' (the pooled curve)"
        )
    outside = distributed(data)
    stratified, poisson = resolve(boot.resampling, boot.stratified, _backends.engine(data))
    if (poisson or outside) and boot.cluster is not None:
        raise ValueError(
            "cluster= uses the multinomial cluster bootstrap; drop it or pass "
            "resampling='multinomial' on in-memory data"
        )
    if outside and (curve != "pr" or boot.fold is not None):
        raise ValueError(
            f"bootstrap_curve on {_backends.input_name(data)} gives PR bands without "
            "folds only; pass "
            "curve='pr' and no fold=, or compute the frame (df.compute())"
        )
    if boot.fold is not None and (
        boot.cluster is not None or poisson or inp.multiclass is not None
    ):
        raise ValueError(
            "fold= is not available with cluster=, resampling='poisson' or "
            "multiclass input; drop one of them"
        )
    return what, xname, yname, g, stratified, poisson
