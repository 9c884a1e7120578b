"""Packing: validated input laid out as a ragged :class:`~.batch.Batch`.

:func:`pack` is the one packer of scores (input forms: :mod:`.resolve`; multiclass and
multilabel input: :mod:`.multiclass`). Everything here is numpy/pandas; nothing loops over samples
in Python.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .._schema import MODEL
from .batch import Batch, describe_row, lengths_to_offsets, row_ids
from .classes import input_kind
from .dataframes import to_pandas
from .exact_ints import column_levels
from .model_dict import models_as_long
from .multiclass import pack_multi
from .resolve import read_inputs


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

    One sequence of steps, each taking and returning plain values: ``score=`` a dict of
    models stacked as long input (:func:`.model_dict.models_as_long`), the kind of input
    (:func:`.classes.input_kind`), the input read (:func:`.resolve.read_inputs`: score
    columns, binary labels, weights, ``by`` groups), then one layout: binary here, or
    multiclass and multilabel input (``multiclass=``, or ``label=`` a list of columns;
    the classes are read there) in :func:`.multiclass.pack_multi`.
    """
    if isinstance(score, dict):  # {model: [class columns]}: the models as long input
        data, score, label, by, weight, pair_models = models_as_long(
            data, score, label, by, weight, multiclass, pair_models
        )
    data = to_pandas(data, score, label, by, weight)
    multi = input_kind(data, label, multiclass, classes, average, pos_label, soft_labels)
    read = read_inputs(data, score, label, by, weight, pos_label, soft_labels, multi)
    cols, names, y, w, gcodes, key_frame, runs = read
    if multi is None:
        batch = pack_binary(cols, names, y, w, gcodes, key_frame, runs)
    else:
        labels = (data, label, classes, multi == "multilabel")
        batch = pack_multi(
            cols, names, labels, w, gcodes, key_frame, runs, multiclass, average, pair_models
        )
    levels = column_levels(cols)
    return batch if levels is None else dataclasses.replace(batch, score_levels=levels)


def pack_binary(cols, names, y, w, codes, key_frame, runs) -> Batch:
    """The binary layout: rows of zero weight dropped, rows grouped, curves laid out
    group by group and model by model, then checked.
    """
    n_input = y.shape[0]
    cols, y, w, codes, key_frame, runs, rows = drop_zero_weight(cols, y, w, codes, key_frame, runs)
    order, group_offsets, group_keys = group_order(codes, key_frame, runs, y.shape[0])
    if order is not None:
        y = y[order]
        w = None if w is None else w[order]
        rows = order if rows is None else rows[order]
    pos = np.ascontiguousarray(y if w is None else w * y, dtype=np.float64)
    neg = np.ascontiguousarray(1.0 - y if w is None else w * (1.0 - y), dtype=np.float64)
    curve_group, keys = curve_keys(group_keys, names, len(cols), group_offsets.size - 1)
    values, offsets = lay_out(cols, order, group_offsets)
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
        keys,
        len(cols),
        None if rows is None else rows.astype(np.int64),
        n_input,
    )
    check_finite(batch)
    if w is not None:
        check_mass(batch)
    return batch


def drop_zero_weight(cols, y, w, codes, key_frame, runs):
    """Rows of zero weight removed (they change no count and, like scikit-learn, add no
    threshold either: zero weight is exactly the removal of the row); ``rows``, the
    input row numbers of the rows kept (None when all are kept).
    """
    if w is None or (w > 0).all():
        return cols, y, w, codes, key_frame, runs, None
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
    return cols, y[keep], w[keep], codes, key_frame, runs, np.flatnonzero(keep)


def group_order(codes, key_frame, runs, n):
    """``(order, group_offsets, group_keys)``: the rows sorted by group (stable: rows
    keep their order inside a group; ``order`` None when rows that come grouped in key
    order are used as they are, no sort and no copies).
    """
    if key_frame is None:
        return None, np.array([0, n], dtype=np.int64), pd.DataFrame(index=range(1))
    if runs is not None:
        return None, runs, key_frame.iloc[runs[:-1]].reset_index(drop=True)
    counts = np.bincount(codes)
    # numpy's stable sort of 8- and 16-bit integers is a radix sort: the same order,
    # several times faster than on int64 codes
    small = np.uint8 if counts.size <= 1 << 8 else np.uint16 if counts.size <= 1 << 16 else None
    order = np.argsort(codes if small is None else codes.astype(small), kind="stable")
    group_offsets = lengths_to_offsets(counts)
    return order, group_offsets, key_frame.iloc[order[group_offsets[:-1]]].reset_index(drop=True)


def curve_keys(group_keys, names, M, n_groups):
    """``(curve_group, keys)``: one key row per curve, curve c = (group c // M, model
    c % M).
    """
    curve_group = np.repeat(np.arange(n_groups, dtype=np.int64), M)
    keys = group_keys if M == 1 else group_keys.iloc[curve_group].reset_index(drop=True)
    if names is not None:
        keys[MODEL] = np.tile(np.asarray(names, dtype=object), n_groups)
    return curve_group, keys


def lay_out(cols, order, group_offsets):
    """``(values, offsets)``: the scores laid out curve by curve, group by group and
    model by model.
    """
    M = len(cols)
    n_groups = group_offsets.size - 1
    lengths = np.diff(group_offsets)
    offsets = lengths_to_offsets(np.repeat(lengths, M))
    if n_groups == 1:
        values = np.ascontiguousarray(cols[0]) if M == 1 else np.concatenate(cols)
    elif M == 1:
        values = cols[0] if order is None else cols[0][order]
    else:
        n = int(group_offsets[-1])
        g_of_row = np.repeat(np.arange(n_groups), lengths)
        dest = group_offsets[g_of_row] * M + (np.arange(n) - group_offsets[g_of_row])
        step = lengths[g_of_row]
        values = np.empty(n * M)
        for m, col in enumerate(cols):  # a loop over models, not samples
            values[dest + m * step] = col if order is None else col[order]
    return values, offsets


def check_finite(batch) -> None:
    """Scores must be finite; name the model and the group of the first bad one."""
    values, offsets = batch.values, batch.offsets
    finite = np.isfinite(values)
    if finite.all():
        return
    first = int(np.argmin(finite))
    c = int(np.searchsorted(offsets, first, side="right") - 1)
    label_row = batch.group_offsets[batch.curve_group[c]] + (first - offsets[c])
    row = int(row_ids(batch)[label_row])
    where = f", {batch.describe(c)}" if batch.keys.shape[1] else ""
    raise ValueError(
        f"score has {int((~finite).sum())} NaN or infinite values (first: "
        f"{float(values[first])} at row {row}, counting from 0{where}); drop or impute "
        "those rows before computing curves"
    )


def check_mass(batch) -> None:
    """A group with no mass at all has no curve. Without weights every row has mass
    ``y + (1 - y) > 0`` and every group a row, so only weights (products that
    underflow) can leave one empty.
    """
    tot = np.add.reduceat(batch.pos + batch.neg, batch.group_offsets[:-1])
    if (tot <= 0).any():
        g = int(np.argmax(tot <= 0))
        raise ValueError(
            f"{batch.describe(g * batch.n_models)} has total weight 0 (empty group); drop "
            "the group or give its rows positive weight"
        )
