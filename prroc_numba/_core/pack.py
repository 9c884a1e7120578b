"""Packing: validated input laid out as a ragged :class:`~.batch.Batch`.

:func:`pack` is the one packer of scores (input forms: :mod:`.resolve`; multiclass and
multilabel input: :mod:`.multiclass`). Everything here is numpy/pandas; nothing loops over samples
in Python.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._schema import MODEL
from .batch import Batch, describe_row, lengths_to_offsets, row_ids
from .classes import check_args, is_multilabel
from .dataframes import to_pandas
from .multiclass import pack_multi
from .resolve import _grouping, _resolve, _resolve_scores, _weights, read_labels

#: the input arguments of the public functions, handed on by name to :func:`pack` and
#: the Dask paths; :data:`MULTICLASS` where the caller takes multiclass input
INPUTS = ("score", "label", "by", "weight", "pos_label", "soft_labels")
MULTICLASS = ("multiclass", "classes", "average")


def inputs(args, *names) -> dict:
    """The input arguments (:data:`INPUTS`, then ``names``) picked from a public
    function's ``locals()``, to hand on unchanged: ``pack(data, **inputs(locals(),
    *MULTICLASS))``.
    """
    return {k: args[k] for k in INPUTS + names}


def pack(
    data=None,
    *,
    score,
    label,
    by=None,
    weight=None,
    pos_label=None,
    soft_labels=False,
    multiclass=None,
    classes=None,
    average=None,
    pair_models=False,
) -> Batch:
    """Validate the public arguments and build the :class:`Batch` (input forms:
    :mod:`.resolve`).

    ``multiclass=``, ``classes=``, ``average=`` or ``label=`` a list of columns
    (multilabel) go to :func:`.multiclass.pack_multi`.
    """
    data = to_pandas(data, score, label, by, weight)
    if multiclass is not None or is_multilabel(data, label):
        if pos_label is not None or soft_labels:
            raise ValueError(
                "pos_label= / soft_labels= apply to binary labels; drop them "
                "with multiclass= or multilabel input"
            )
        return pack_multi(
            data,
            score=score,
            label=label,
            by=by,
            weight=weight,
            multiclass=multiclass,
            classes=classes,
            average=average,
            pair_models=pair_models,
        )
    check_args(multiclass, classes, average, False)
    if data is not None and not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"data must be a pandas DataFrame or None, got {type(data).__name__}; "
            "wrap it with pd.DataFrame(...) or pass arrays with data=None"
        )
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    cols, names = _resolve_scores(data, score)
    if not cols:
        raise ValueError("score lists no model")
    n = cols[0].shape[0]
    if n == 0:
        raise ValueError("empty input: score has no rows")
    y = _resolve(data, label, "label", n)
    if y is None:
        raise TypeError("label is required: a column name or an array-like of 0/1 labels")
    y = read_labels(y, pos_label, soft_labels, scores=cols)
    w = _weights(data, weight, n)
    codes, key_frame, runs = _grouping(data, by, n)
    rows = None  # input row numbers of the label rows, when they are not arange(n)
    n_input = n
    if w is not None and not (w > 0).all():
        # zero-weight rows change no count; like scikit-learn, they add no threshold
        # either, so that zero weight is exactly the removal of the row
        keep = w > 0
        if runs is not None:
            codes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
        if codes is not None:
            alive = np.bincount(codes, weights=keep, minlength=codes.max() + 1) > 0
            if not alive.all():
                g = int(np.argmin(alive))
                name = describe_row(key_frame.iloc[int(np.argmax(codes == g))])
                raise ValueError(
                    f"{name} has total weight 0 (empty group); drop the group or give its "
                    "rows positive weight"
                )
            codes = codes[keep]
            key_frame = key_frame[keep]
            if runs is not None:  # still in runs of ascending keys, each non-empty
                runs = lengths_to_offsets(np.bincount(codes))
        elif not keep.any():
            raise ValueError("weight is 0 for every row: there is nothing to evaluate")
        cols = [col[keep] for col in cols]
        y, w = y[keep], w[keep]
        rows = np.flatnonzero(keep)
        n = y.shape[0]

    # rows sorted by group (stable: rows keep their order inside a group); rows that
    # come grouped in key order already are used as they are (no sort, no copies)
    order = None
    if key_frame is None:
        group_offsets = np.array([0, n], dtype=np.int64)
        group_keys = pd.DataFrame(index=range(1))
    elif runs is not None:
        group_offsets = runs
        group_keys = key_frame.iloc[runs[:-1]].reset_index(drop=True)
    else:
        order = np.argsort(codes, kind="stable")
        group_offsets = lengths_to_offsets(np.bincount(codes))
        group_keys = key_frame.iloc[order[group_offsets[:-1]]].reset_index(drop=True)
        y = y[order]
        w = None if w is None else w[order]
        rows = order if rows is None else rows[order]
    n_groups = group_offsets.size - 1
    M = len(cols)

    pos = y if w is None else w * y
    neg = 1.0 - y if w is None else w * (1.0 - y)
    pos = np.ascontiguousarray(pos, dtype=np.float64)
    neg = np.ascontiguousarray(neg, dtype=np.float64)

    # keys: one row per curve, curve c = (group c // M, model c % M)
    curve_group = np.repeat(np.arange(n_groups, dtype=np.int64), M)
    keys = group_keys if M == 1 else group_keys.iloc[curve_group].reset_index(drop=True)
    if names is not None:
        keys[MODEL] = np.tile(np.asarray(names, dtype=object), n_groups)
    batch_keys = keys

    # scores laid out curve by curve: group by group, model by model
    lengths = np.diff(group_offsets)
    offsets = lengths_to_offsets(np.repeat(lengths, M))
    if n_groups == 1:
        values = np.ascontiguousarray(cols[0]) if M == 1 else np.concatenate(cols)
    elif M == 1:
        values = cols[0] if order is None else cols[0][order]
    else:
        g_of_row = np.repeat(np.arange(n_groups), lengths)
        dest = group_offsets[g_of_row] * M + (np.arange(n) - group_offsets[g_of_row])
        step = lengths[g_of_row]
        values = np.empty(n * M)
        for m, col in enumerate(cols):  # a loop over models, not samples
            values[dest + m * step] = col if order is None else col[order]
    # one specialisation per kernel: Numba types read-only arrays (pandas copy-on-write
    # views) separately, so hand kernels writable ones (tests/test_specialisations.py)
    values, pos, neg = (a if a.flags.writeable else a.copy() for a in (values, pos, neg))
    batch = Batch(
        values,
        offsets,
        pos,
        neg,
        group_offsets,
        curve_group,
        batch_keys,
        M,
        None if rows is None else rows.astype(np.int64),
        n_input,
    )

    # scores must be finite; name the model and the group of the first bad one
    finite = np.isfinite(values)
    if not finite.all():
        first = int(np.argmin(finite))
        c = int(np.searchsorted(offsets, first, side="right") - 1)
        label_row = group_offsets[curve_group[c]] + (first - offsets[c])
        row = int(row_ids(batch)[label_row])
        where = f", {batch.describe(c)}" if batch.keys.shape[1] else ""
        raise ValueError(
            f"score has {int((~finite).sum())} NaN or infinite values (first: "
            f"{float(values[first])} at row {row}, counting from 0{where}); drop or impute "
            "those rows before computing curves"
        )
    # a group with no mass at all has no curve; without weights every row has mass
    # y + (1 - y) > 0 and every group a row, so only weights (products that underflow)
    # can leave one empty
    if w is not None:
        tot = np.add.reduceat(pos + neg, group_offsets[:-1])
        if (tot <= 0).any():
            g = int(np.argmax(tot <= 0))
            raise ValueError(
                f"{batch.describe(g * M)} has total weight 0 (empty group); drop the group or "
                "give its rows positive weight"
            )
    return batch
