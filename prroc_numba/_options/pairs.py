"""The comparison family of :func:`~prroc_numba.compare` (:class:`Comparison`): the
test, its p-value and adjustment, the baseline and the pooling over groups; checked
once with the input, estimator and resampling options.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .. import _backends
from .._checks import check_level, check_n_boot
from .._core import classes as _classes
from .._core.inputs import Inputs
from .choices import ADJUSTMENTS, P_VALUES, check_choice, distributed
from .draws import Resampling
from .estimator import Estimator


@dataclass(frozen=True)
class Comparison:
    """``test``, ``p_value``, ``adjust``, ``baseline`` and ``combine`` of
    :func:`~prroc_numba.compare`.
    """

    test: str = "bootstrap"
    p_value: str = "wald"
    adjust: str | None = "holm"
    baseline: Any = None
    combine: bool = False


def check_compare(data, inp: Inputs, est: Estimator, boot: Resampling, cmp: Comparison):
    """The options of :func:`~prroc_numba.compare` (no ``fold=``): returns ``(device,
    inputs, adjust, multi, wide)``: the inputs resolved for the device (without the
    multiclass arguments unless ``multi``: multiclass input, models = the ``by`` groups,
    paired), and whether several score columns were given (else, without ``multi``, the
    unpaired Venkatraman test of the ``by`` curves).
    """
    test = cmp.test
    check_choice("p_value", cmp.p_value, P_VALUES)
    adjust = "none" if cmp.adjust is None else cmp.adjust
    check_choice("adjust", adjust, ADJUSTMENTS)
    check_n_boot(boot.n_boot)
    if cmp.combine and (inp.by is None or test == "venkatraman"):
        raise ValueError(
            "combine=True pools each pair's difference across the by= groups (data sets): "
            "pass by= (e.g. by='dataset'), with test='bootstrap' or 'delong'"
        )
    device, inp = inp.on_device(boot.device)
    check_level(boot.level)
    multi = _multi_inputs(data, inp, test)
    if not multi:
        inp = replace(inp, multiclass=None, classes=None, average=None)
    score = inp.score
    wide = isinstance(score, (list, tuple, pd.DataFrame)) or (
        not isinstance(score, str) and np.ndim(score) == 2
    )
    if multi:
        return device, inp, adjust, multi, wide
    unpaired = not wide and test == "venkatraman" and inp.by is not None
    if not wide and not unpaired:
        raise ValueError(
            "compare needs several models scored on the same rows: pass score= as a list "
            "of columns (wide input) or a 2-D array (or, for test='venkatraman', one "
            "score column and by= naming unpaired curves)"
        )
    if test == "bootstrap":
        return device, inp, adjust, multi, wide
    check_rank_test(data, inp, est, boot, test, device)
    if est.hull or est.method not in (None, "trapezoid") or (unpaired and cmp.combine):
        if unpaired:
            raise ValueError(
                "test='venkatraman' is for the empirical ROC curve (method='trapezoid', "
                "hull=False) and has no standard error to combine"
            )
        raise ValueError(
            f"test={test!r} is for the empirical ROC curve (method='trapezoid', hull=False)"
        )
    return device, inp, adjust, multi, wide


def _multi_inputs(data, inp: Inputs, test) -> bool:
    """Whether :func:`~prroc_numba.compare` has multiclass input (``inp``: the labels as
    the device holds them); its multiclass arguments checked.
    """
    if not inp.is_multi(data):
        _classes.check_args(inp.multiclass, inp.classes, inp.average, False)
        return False
    if inp.average not in ("macro", "weighted", "micro"):
        raise ValueError(
            "compare with multiclass/multilabel input compares one number per model: pass "
            "average='macro', 'weighted' or 'micro' (for one class, compare its one-vs-rest "
            "scores as binary input)"
        )
    if test != "bootstrap":
        raise ValueError("multiclass comparisons use test='bootstrap'")
    return True


def check_rank_test(data, inp: Inputs, est: Estimator, boot: Resampling, test, device):
    """DeLong's and Venkatraman's prerequisites: every row in one place, whole ROC
    curves, independent rows, the CPU, hard 0/1 labels without weights.
    """
    if distributed(data):
        raise ValueError(
            f"test={test!r} needs every row in one place; for "
            f"{_backends.input_name(data)} "
            "use test='bootstrap' (the Poisson bootstrap)"
        )
    if est.partial is not None:
        raise ValueError(
            f"test={test!r} compares whole ROC curves; for partial areas use test='bootstrap'"
        )
    if boot.cluster is not None:
        raise ValueError(
            f"test={test!r} assumes independent rows; for clustered data "
            "use test='bootstrap' with cluster="
        )
    if device == "cuda":
        raise ValueError(
            f"test={test!r} runs on the CPU only; pass device='cpu' or test='bootstrap'"
        )
    if est.curve != "roc":
        raise ValueError(
            f"test={test!r} compares ROC curves; pass curve='roc' "
            "(for PR curves use test='bootstrap')"
        )
    if inp.weight is not None or inp.soft_labels:
        raise ValueError(
            f"test={test!r} needs hard 0/1 labels without weights, as in "
            "pROC; drop weight= / soft_labels= or use test='bootstrap'"
        )


def _pairs(names, baseline):
    M = len(names)
    if baseline is None:
        return [(i, j) for i in range(M) for j in range(i + 1, M)]
    hits = [i for i, nm in enumerate(names) if nm == baseline]
    if not hits:
        raise ValueError(
            f"baseline={baseline!r} is not one of the models {list(names)}; name one of "
            "the score columns"
        )
    b = hits[0]
    return [(i, b) for i in range(M) if i != b]


BEST = "best"


def _best_pairs(names, est):
    """``baseline="best"``: the model with the highest estimate (averaged over the
    groups when there are several) against every other, the best as ``model_a``.
    Returns ``(best index, pairs)``.
    """
    M = len(names)
    e = np.asarray(est, dtype=np.float64).reshape(-1, M)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN model
        mean = np.nanmean(e, axis=0)
    if np.all(np.isnan(mean)):
        raise ValueError("baseline='best': no model has a defined estimate")
    b = int(np.nanargmax(mean))
    return b, [(b, i) for i in range(M) if i != b]


def choose_pairs(names, baseline, est):
    """``(pairs, best name or None)`` of :func:`~prroc_numba.compare`: its ``baseline=``
    resolved against the model names (``est``: the estimates, for ``"best"``).
    """
    if baseline == BEST and BEST not in names:  # a model named "best" is that model
        b, pairs = _best_pairs(names, est)
        return pairs, names[b]
    return _pairs(names, baseline), None
