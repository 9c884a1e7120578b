"""The table as the wings read it: an :class:`~.accumulator.Accumulator`'s layout,
entries and replicate masses, and the table as weighted rows for a function the
Accumulator does not offer (an accumulator built from entries:
:func:`~.accumulator.holding`).

These few functions read the Accumulator's state for the Dask and Spark wings, the
PyTorch metrics and the operating points, so that none of them touches its attributes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._schema import MODEL
from .table import Layout, curve_keys, wide


def layout_of(acc):
    """The :class:`Layout` of ``acc`` (None while it has seen no rows)."""
    return Layout(acc._by, acc._models, acc._groups) if acc._started else None


def entries_of(acc):
    """``(curve, score, pos, neg)``: the table's entries, sorted by curve, then score
    descending, one per distinct (curve, score).
    """
    return acc._curve, acc._score, acc._pos, acc._neg


def replicates_of(acc):
    """The per-entry replicate masses (``(pos, neg)``, each entries x replicates), or ()."""
    return acc._extra


def thresholds_of(acc, thresholds):
    """Each curve's thresholds (``thresholds=`` of the curve functions) as the table's
    curves read them: ``(values, offsets)`` of :func:`.thresholds.ragged_thresholds`.
    """
    from .thresholds import ragged_thresholds

    return ragged_thresholds(acc._batch(), acc._thresholds(thresholds))


def weighted_rows(acc):
    """``(rows, kw)``: the table as weighted rows (one positive, one negative row per
    entry) and the input arguments naming them: an in-memory call on them gives the
    counts of the rows the table holds (for a function the Accumulator does not offer).
    """
    acc._require()
    with acc._lock:  # one consistent table, even while other threads update
        acc._flush()
        groups, curve, score = acc._m_groups, acc._m_curve, acc._m_score
        pos, neg = wide(acc._m_pos), wide(acc._m_neg)
    if curve is None:  # one curve
        curve = np.zeros(score.size, dtype=np.int64)
    keys = curve_keys(groups, acc._models)
    key_names = list(keys.columns)
    if acc._models is not None:  # keep the models' order (by sorts its keys)
        keys[MODEL] = pd.Categorical(
            keys[MODEL], categories=pd.unique(np.asarray(acc._models, dtype=object)), ordered=True
        )
    s, y, w = "__prn_score", "__prn_label", "__prn_weight"
    rows = keys.iloc[np.concatenate([curve, curve])].reset_index(drop=True)
    rows[s] = np.concatenate([score, score])
    rows[y] = np.concatenate([np.ones(score.size), np.zeros(score.size)])
    rows[w] = np.concatenate([pos, neg])
    return rows, {"score": s, "label": y, "weight": w, "by": key_names or None}


def rows_thresholds(acc, thresholds):
    """``thresholds=`` (a frame of thresholds per curve) as :func:`weighted_rows` reads it."""
    return acc._thresholds(thresholds)


def rows_result(acc, frame):
    """A frame computed on :func:`weighted_rows` as the in-memory call returns it."""
    return acc._finish(frame)


def pr_curve_of(acc, hull, interpolate, thresholds, recall_step):
    """``acc.pr_curve(...)`` with the options of :func:`~prroc_numba.pr_curve` by name:
    a wing's answer from its merged (or small) table.
    """
    return acc.pr_curve(
        hull=hull, interpolate=interpolate, thresholds=thresholds, recall_step=recall_step
    )
