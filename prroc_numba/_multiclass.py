"""Multiclass (one-vs-rest, one-vs-one) and multilabel input as a packing problem.

K classes scored on the same rows are K binary curves sharing those rows, exactly like
wide input, except that each curve has its **own label rows**: curve ``k`` of a group
reads the positives ``y == class_k``. :func:`pack_multi` builds an ordinary
:class:`~prroc_numba._ragged.Batch` whose "label groups" are those per-curve label
blocks, so every kernel (sweeps, areas, hulls) runs unchanged. What the resampling needs
on top -- which label rows are copies of the same **original row**, and how the rows are
grouped and stratified -- is kept in :class:`Rows` (``batch.multi``), so a bootstrap
replicate draws the original rows once and every class curve (and the pooled micro
curve, whose K*n label rows are K copies of each row) sees the same draw.

Averages are frame-level reductions: each curve contributes to exactly one output row
with a coefficient (1/K for "macro", the class prevalence share for "weighted", 1/2 for
the two directions of a one-vs-one pair, ...), applied alike to estimates and
replicates. "micro" is its own curve (the pooled one-vs-rest problem).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._ragged import (
    MODEL,
    Batch,
    _column,
    _group_codes,
    _is_names,
    _labels,
    _resolve,
    _resolve_scores,
    _show_values,
    _to_float,
    describe_row,
)

CLASS, CLASS_A, CLASS_B = "class", "class_a", "class_b"
MULTICLASS = ("ovr", "ovo")


AVERAGES = (None, "macro", "weighted", "micro", "samples")


@dataclass(frozen=True)
class Rows:
    """How the curves of a multiclass/multilabel batch map back to the original rows.

    Attributes
    ----------
    offsets : int64 (n_groups + 1,)
        Resampling groups over the original rows (rows sorted by group).
    stratum : int64 (n_rows,)
        Class code of each row (multilabel: code of its label pattern), for stratified
        resampling.
    label_row : int64 (n_label_rows,)
        The original row of each label row of the batch.
    curves_per_group : int
        Curves of resampling group ``g`` are ``g * curves_per_group + j``.
    out_index : int64 (n_curves,)
        The output row each curve contributes to (non-decreasing).
    coef : float64 (n_curves,)
        Its coefficient; 0 means "not counted" (a class absent from the group under
        ``average="weighted"``).
    out_keys : DataFrame
        One row per output.
    """

    offsets: np.ndarray
    stratum: np.ndarray
    label_row: np.ndarray
    curves_per_group: int
    out_index: np.ndarray
    coef: np.ndarray
    out_keys: pd.DataFrame

    @property
    def n_groups(self) -> int:
        return self.offsets.size - 1

    def reduce(self, values):
        """Per-curve values (n_curves, ...) -> per-output values (n_out, ...).

        NaN wherever a counted curve (coefficient != 0) is NaN.
        """
        v = np.asarray(values, dtype=np.float64)
        n_out = len(self.out_keys)
        shape = (n_out,) + v.shape[1:]
        c = self.coef.reshape((-1,) + (1,) * (v.ndim - 1))
        counted = c != 0
        term = np.where(counted, np.nan_to_num(v, nan=0.0) * c, 0.0)
        bad = (np.isnan(v) & counted).astype(np.float64)
        out = np.zeros(shape)
        nbad = np.zeros(shape)
        np.add.at(out, self.out_index, term)
        np.add.at(nbad, self.out_index, bad)
        out[nbad > 0] = np.nan
        return out


class Reduced:
    """What the bootstrap/compare code reads from a batch, after the reduction."""

    def __init__(self, keys, n_models, n_groups):
        self.keys = keys
        self.n_models = n_models
        self.group_offsets = np.arange(n_groups + 1, dtype=np.int64)
        self.n_curves = len(keys)

    def describe(self, c: int) -> str:
        return describe_row(self.keys.iloc[c]) if self.keys.shape[1] else "the curve"


def check_args(multiclass, classes, average, multilabel, curve=None):
    """Validate the multiclass arguments (names the fix)."""
    if multiclass is not None and multiclass not in MULTICLASS:
        raise ValueError(
            f"multiclass={multiclass!r} is not known; use 'ovr' (one-vs-rest) "
            "or 'ovo' (one-vs-one, Hand & Till; auc with curve='roc' only)"
        )
    if average not in AVERAGES:
        raise ValueError(
            f"average={average!r} is not known; use None (one row per class), "
            "'macro', 'weighted', 'micro' or 'samples' (multilabel)"
        )
    if average == "samples" and (multiclass is not None or not multilabel):
        raise ValueError(
            "average='samples' averages over the rows of multilabel input (label= a list "
            "of 0/1 columns or a 2-D 0/1 array, no multiclass=); for class labels use "
            "average='macro', 'weighted' or 'micro'"
        )
    if multilabel and multiclass == "ovo":
        raise ValueError(
            "multiclass='ovo' has no meaning for multilabel input (label= a list "
            "of 0/1 columns); drop multiclass="
        )
    if multiclass is None and not multilabel and (classes is not None or average is not None):
        arg = "classes=" if classes is not None else "average="
        raise ValueError(
            f"{arg} applies to multiclass input; pass multiclass='ovr' "
            "(score= one column per class, label= the class column) or "
            "label= a list of 0/1 columns (multilabel)"
        )
    if multiclass == "ovo":
        if curve is not None and curve != "roc":
            raise ValueError(
                "multiclass='ovo' is Hand & Till's one-vs-one ROC AUC; pass "
                "curve='roc', or use multiclass='ovr' for PR curves"
            )
        if average == "micro":
            raise ValueError(
                "average='micro' pools the one-vs-rest problem; use it with multiclass='ovr'"
            )


def is_multilabel(data, label) -> bool:
    """``label`` names several columns, or is a 2-D array."""
    if isinstance(label, (list, tuple)) and data is not None and _is_names(list(label)):
        return True
    if isinstance(label, pd.DataFrame):
        return True
    if isinstance(label, str) or label is None:
        return False
    return np.ndim(label) == 2


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def _resolve_classes(y, names, classes, K):
    """Class value of each score column, and each row's class code (0..K-1)."""
    vals = pd.unique(y)
    if pd.isna(vals).any():
        raise ValueError("label has missing values; drop or fill those rows first")
    if classes is not None:
        cls = list(classes)
        if len(cls) != K:
            raise ValueError(
                f"classes= lists {len(cls)} classes but score has {K} columns; "
                "give one class value per score column, in column order"
            )
        if len(set(map(_key, cls))) != K:
            raise ValueError(f"classes= lists a class twice: {cls}")
    elif names is not None and set(map(_key, vals)) <= set(map(_key, names)):
        cls = list(names)
    else:
        try:
            cls = sorted(vals.tolist())
        except TypeError:
            cls = sorted(vals.tolist(), key=str)
        if len(cls) != K:
            raise ValueError(
                f"label has {len(cls)} classes ({_show_values(vals)}) but score has {K} "
                "columns; pass classes= (one class value per score column, in column "
                "order), e.g. the estimator's classes_"
            )
    lookup = {_key(c): i for i, c in enumerate(cls)}
    # one dictionary look-up per distinct label value, not per row
    inv, uniq = pd.factorize(y)
    ucodes = np.array([lookup.get(_key(v), -1) for v in uniq], dtype=np.int64)
    codes = ucodes[inv]
    if (ucodes < 0).any():
        unknown = [v for v, c in zip(uniq, ucodes) if c < 0]
        raise ValueError(
            f"label has values {{{_show_values(unknown)}}} that are not among the classes "
            f"{[_plain(c) for c in cls]}; pass classes= listing every class in score column "
            "order"
        )
    return [_plain(c) for c in cls], codes


def _key(v):
    v = _plain(v)
    return v if isinstance(v, (str, bool)) else (float(v) if isinstance(v, (int, float)) else v)


def _multilabel_matrix(data, label, n, K):
    if isinstance(label, pd.DataFrame):
        names = list(label.columns)
        Y = [label[c].to_numpy() for c in names]
    elif isinstance(label, (list, tuple)) and data is not None and _is_names(list(label)):
        names = list(label)
        Y = [_column(data, c, "label").to_numpy() for c in names]
    else:
        arr = np.asarray(label)
        names = list(range(arr.shape[1]))
        Y = [arr[:, k] for k in range(arr.shape[1])]
    if len(Y) != K:
        raise ValueError(
            f"label= lists {len(Y)} label columns but score= has {K}; "
            "multilabel input needs one score column per label column"
        )
    for k, y in enumerate(Y):
        if y.shape[0] != n:
            raise ValueError(f"label column {names[k]!r} has {y.shape[0]} rows but score has {n}")
    return names, np.column_stack(
        [_labels(y, None, False, f"label column {names[k]!r}") for k, y in enumerate(Y)]
    )


def pack_multi(
    data, *, score, label, by, weight, multiclass, classes, average, pair_models=False
) -> Batch:
    """Pack multiclass (``multiclass=``) or multilabel (``label=`` a list) input.

    ``pair_models=True`` (:func:`~prroc_numba.compare`): the ``by`` groups are models
    scored on the same rows (same length, labels and weights, in order); they become one
    resampling group so that every replicate draws the rows once for all models.
    """
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    multilabel = is_multilabel(data, label)
    check_args(multiclass, classes, average, multilabel)
    cols, names = _resolve_scores(data, score, proba_check=False)
    K = len(cols)
    if K < 2:
        raise ValueError(
            f"multiclass input needs one score column per class (at least 2), "
            f"got {K}; pass score= a list of columns or a 2-D array"
        )
    n = cols[0].shape[0]
    if n == 0:
        raise ValueError("empty input: score has no rows")
    S = np.empty((n, K), order="F")  # columns contiguous: one gather per curve
    for k, col in enumerate(cols):  # a loop over classes, not rows
        S[:, k] = col
    finite = np.isfinite(S)
    if not finite.all():
        row = int(np.argmin(finite.all(axis=1)))
        raise ValueError(
            f"score has {int((~finite).sum())} NaN or infinite values (first at row "
            f"{row}, counting from 0); drop or impute those rows before computing curves"
        )
    Y: Any  # multilabel: the label matrix; multiclass: None (then built from codes)
    codes: Any
    if multilabel:
        cls, Y = _multilabel_matrix(data, label, n, K)
        if classes is not None:
            if len(classes) != K:
                raise ValueError(f"classes= lists {len(classes)} names but there are {K} labels")
            cls = list(classes)
        codes = None
    else:
        y = _resolve(data, label, "label", n)
        if y is None:
            raise TypeError("label is required: the class column or an array of classes")
        cls, codes = _resolve_classes(np.asarray(y), names, classes, K)
        Y = None
    w = _resolve(data, weight, "weight", n)
    w = np.ones(n) if w is None else _to_float(w, "weight")
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        raise ValueError(
            f"weight has {int(bad.sum())} negative, NaN or infinite values "
            f"(first: {w[bad][0]!r}); sample weights must be finite and >= 0"
        )
    gcodes, key_frame = _group_codes(data, by, n)
    if pair_models and gcodes is None:
        raise ValueError(
            "comparing multiclass models needs long input: stack the models' "
            "rows and name the model column with by= (e.g. by='model')"
        )
    if gcodes is None:
        gcodes = np.zeros(n, dtype=np.int64)
        key_frame = pd.DataFrame(index=range(n))
    keep = w > 0  # zero weight = removal of the row (no threshold either)
    row_id = np.arange(n, dtype=np.int64)  # input row of each row (for messages)
    if not keep.all():
        alive = np.bincount(gcodes, weights=keep, minlength=gcodes.max() + 1) > 0
        if not alive.all():
            g = int(np.argmin(alive))
            raise ValueError(
                f"{describe_row(key_frame.iloc[int(np.argmax(gcodes == g))])} "
                "has total weight 0 (empty group)"
            )
        S, w, gcodes = S[keep], w[keep], gcodes[keep]
        key_frame = key_frame[keep]
        codes = None if codes is None else codes[keep]
        Y = None if Y is None else Y[keep]
        row_id = row_id[keep]
        n = S.shape[0]
    order = np.argsort(gcodes, kind="stable")
    counts = np.bincount(gcodes)
    goff = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=goff[1:])
    gkeys = key_frame.iloc[order[goff[:-1]]].reset_index(drop=True)
    G = counts.size
    if G > 1:
        S, w, row_id = np.asfortranarray(S[order]), w[order], row_id[order]
    if Y is None:
        codes = codes[order]
        Y = np.asfortranarray((codes[:, None] == np.arange(K)[None, :]).astype(np.float64))
        stratum = codes
    else:
        Y = np.asfortranarray(Y[order]) if G > 1 else Y
        _, stratum = np.unique(Y, axis=0, return_inverse=True)
        stratum = stratum.ravel().astype(np.int64)

    if average == "samples":
        return _pack_samples(S, Y, w, goff, gkeys, row_id, stratum)

    # resampling groups and the models of each one
    if pair_models:
        n0 = int(counts[0])
        same = bool(np.all(counts == n0))
        if same:
            Yg, wg = Y.reshape(G, n0, K), w.reshape(G, n0)
            same = bool((Yg == Yg[:1]).all() and (wg == wg[:1]).all())
        if not same:
            raise ValueError(
                "compare with multiclass= pairs the by groups as models scored on the same "
                "rows: every group must hold the same rows in the same order (same number "
                "of rows, labels and weights); sort each model's rows alike"
            )
        R, M = 1, G
        roff = np.array([0, n0], dtype=np.int64)
        model_keys = gkeys
        group_keys = pd.DataFrame(index=range(1))
        Yr, wr, stratum = Y[:n0], w[:n0], stratum[:n0]
    else:
        R, M = G, 1
        roff = goff
        model_keys = None
        group_keys = gkeys
        Yr, wr = Y, w

    # the label blocks ("specs") of one resampling group, and the curves using each
    ovo = multiclass == "ovo"
    micro = average == "micro"
    if micro:
        specs: list[tuple[Any, Any]] = [("micro", None)]
    elif ovo:
        specs = [(a, b) for a in range(K) for b in range(K) if a != b]
    else:
        specs = [(k, None) for k in range(K)]

    pos: Any  # lists while the loop fills them, then arrays
    neg: Any
    lab_len: Any
    rows: Any
    values, lab_rows, pos, neg, lab_len, curve_keys, coefs, out_idx, out_keys = (
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [],
    )
    block = 0
    curve_block = []
    n_out = 0
    for r in range(R):
        a, e = int(roff[r]), int(roff[r + 1])
        rows = np.arange(a, e)
        Yg, wgt = Yr[a:e], wr[a:e]
        if ovo:  # the rows of each class (one stable sort per group, not one scan per pair)
            by_cls = np.argsort(stratum[a:e], kind="stable")
            cut = np.searchsorted(stratum[a:e][by_cls], np.arange(K + 1))
            rows_of = [rows[by_cls[cut[k] : cut[k + 1]]] for k in range(K)]
            w_of = [wgt[by_cls[cut[k] : cut[k + 1]]] for k in range(K)]
        # label rows of each spec in this group
        blocks = []
        for s, t in specs:
            if s == "micro":
                sel = np.tile(rows, K)
                p = (Yg.T * wgt).ravel()
                q = ((1.0 - Yg).T * wgt).ravel()
            elif t is None:
                sel = rows
                p, q = Yg[:, s] * wgt, (1.0 - Yg[:, s]) * wgt
            else:  # rows of class s (positives) then of class t (negatives)
                sel = np.concatenate([rows_of[s], rows_of[t]])
                p = np.concatenate([w_of[s], np.zeros(rows_of[t].size)])
                q = np.concatenate([np.zeros(rows_of[s].size), w_of[t]])
            blocks.append((sel, p, q))
            lab_rows.append(sel)
            pos.append(p)
            neg.append(q)
            lab_len.append(sel.size)
        first_block = block
        block += len(specs)
        # prevalence weights for "weighted"
        Pk = Yg.T @ wgt
        for m in range(M):
            base = (m * (roff[1] - roff[0])) if pair_models else 0  # model m's own rows
            okey = {}
            if group_keys.shape[1]:
                okey.update(group_keys.iloc[r].to_dict())
            if model_keys is not None:
                mk = model_keys.iloc[m]
                okey[MODEL] = (
                    _plain(mk.iloc[0]) if len(mk) == 1 else ", ".join(str(_plain(v)) for v in mk)
                )
            for j, (s, t) in enumerate(specs):
                sel = blocks[j][0]
                src = (base + sel) if pair_models else sel
                if s == "micro":
                    v = S[src, np.repeat(np.arange(K), e - a)]
                else:
                    v = S[src, s]
                values.append(v)
                curve_block.append(first_block + j)
                ck = dict(okey)
                if s == "micro":
                    pass
                elif t is None:
                    ck[CLASS] = cls[s]
                else:
                    ck[CLASS_A], ck[CLASS_B] = cls[s], cls[t]
                curve_keys.append(ck)
            # reduction of this (group, model)
            if average is None and not ovo or micro:
                for j in range(len(specs)):
                    out_idx.append(n_out)
                    coefs.append(1.0)
                    out_keys.append(curve_keys[-len(specs) + j])
                    n_out += 1
            elif average is None:  # ovo pairs: both directions, 1/2 each
                pair_of = {}
                for s, t in specs:
                    pr = (min(s, t), max(s, t))
                    if pr not in pair_of:
                        pair_of[pr] = n_out
                        ok = dict(okey)
                        ok[CLASS_A], ok[CLASS_B] = cls[pr[0]], cls[pr[1]]
                        out_keys.append(ok)
                        n_out += 1
                    out_idx.append(pair_of[pr])
                    coefs.append(0.5)
            else:
                if ovo:
                    # as scikit-learn: only the pairs of classes present in the group
                    # count (a pair with an absent class has weight 0, macro included)
                    prev = np.array([Pk[s] + Pk[t] for s, t in specs])
                    present = np.array([Pk[s] > 0 and Pk[t] > 0 for s, t in specs])
                    prev = np.where(present, prev, 0.0)
                    wts = present.astype(np.float64) if average == "macro" else prev
                else:
                    prev = Pk.copy()
                    wts = np.ones(len(specs)) if average == "macro" else prev
                tot = wts.sum()
                cf = wts / tot if tot > 0 else np.full(len(specs), np.nan)
                for j in range(len(specs)):
                    out_idx.append(n_out)
                    coefs.append(cf[j])
                out_keys.append(okey)
                n_out += 1

    label_row = np.ascontiguousarray(np.concatenate(lab_rows), dtype=np.int64)
    pos = np.ascontiguousarray(np.concatenate(pos), dtype=np.float64)
    neg = np.ascontiguousarray(np.concatenate(neg), dtype=np.float64)
    lab_len = np.asarray(lab_len, dtype=np.int64)
    group_offsets = np.zeros(lab_len.size + 1, dtype=np.int64)
    np.cumsum(lab_len, out=group_offsets[1:])
    lengths = np.array([v.size for v in values], dtype=np.int64)
    offsets = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    vals = np.ascontiguousarray(np.concatenate(values), dtype=np.float64)
    keys = (
        pd.DataFrame(curve_keys)
        if curve_keys and curve_keys[0]
        else pd.DataFrame(index=range(len(curve_keys)))
    )
    okeys = (
        pd.DataFrame(out_keys)
        if out_keys and out_keys[0]
        else pd.DataFrame(index=range(len(out_keys)))
    )
    for frame in (keys, okeys):
        for col in gkeys.columns:
            if col in frame.columns and col in key_frame.columns:
                frame[col] = frame[col].astype(gkeys[col].dtype)
    rows = Rows(
        roff,
        np.ascontiguousarray(stratum, dtype=np.int64),
        label_row,
        M * len(specs),
        np.asarray(out_idx, dtype=np.int64),
        np.asarray(coefs, dtype=np.float64),
        okeys,
    )
    return Batch(
        vals,
        offsets,
        pos,
        neg,
        group_offsets,
        np.asarray(curve_block, dtype=np.int64),
        keys,
        M * len(specs),
        multi=rows,
    )


def _pack_samples(S, Y, w, goff, gkeys, row_id, stratum) -> Batch:
    """``average="samples"`` (scikit-learn's): one curve per row over its ``K`` labels
    (the row's scores against its 0/1 labels), averaged over the rows of each group
    with the sample weights as weights. A row whose labels are all 0 (PR, ROC) or all 1
    (ROC) has no area: the average is then NaN, with a warning naming the row.
    """
    n, K = S.shape
    G = goff.size - 1
    offsets = np.arange(n + 1, dtype=np.int64) * K
    values = np.ascontiguousarray(S).ravel()  # row by row: row i's K scores
    pos = np.ascontiguousarray(Y, dtype=np.float64).ravel()
    neg = 1.0 - pos
    g_of_row = np.repeat(np.arange(G, dtype=np.int64), np.diff(goff))
    keys = gkeys.iloc[g_of_row].reset_index(drop=True)
    keys["row"] = row_id
    wsum = np.add.reduceat(w, goff[:-1])
    rows = Rows(
        goff,
        np.ascontiguousarray(stratum, dtype=np.int64),
        np.repeat(np.arange(n, dtype=np.int64), K),
        0,
        g_of_row,
        w / wsum[g_of_row],
        gkeys,
    )
    return Batch(
        values,
        offsets,
        pos,
        neg,
        offsets.copy(),
        np.arange(n, dtype=np.int64),
        keys,
        1,
        multi=rows,
    )


def check_device(batch, device):
    """Multiclass/multilabel batches run on the CPU (their per-curve label rows and
    row map are not wired into the GPU kernels yet).
    """
    if batch.multi is not None and device == "cuda":
        raise ValueError(
            "multiclass and multilabel input run on the CPU for now; pass "
            "device='cpu' (or leave device= unset with host arrays)"
        )


def curves_frame(batch, columns):
    """One row per output: the curve values reduced (multiclass), else one per curve."""
    from . import _frames as F

    if batch.multi is None:
        return F.curves_frame(batch.keys, columns)
    red = {k: batch.multi.reduce(v) for k, v in columns.items()}
    return F.curves_frame(batch.multi.out_keys, red)


def reduce_replicates(batch, est, reps):
    """Estimates and replicates per output row, and a :class:`Reduced` batch view."""
    m = batch.multi
    if m is None:
        return batch, est, reps
    n_models = 1
    keys = m.out_keys
    if MODEL in keys.columns and m.n_groups == 1:
        n_models = len(keys)
    return (Reduced(keys, n_models, len(keys) // n_models), m.reduce(est), m.reduce(reps))


def plan_rows(plan, batch, stratified):
    """Fill a bootstrap plan's row slots for a multiclass batch (see ``Rows``); returns
    the slot of every label row (the plan reads it at every curve's sorted rows).

    A replicate draws the **original rows** of each resampling group once (stratified by
    class, or by label pattern for multilabel input); every label row of every curve
    carries the count of its original row (``slot_order``), so all classes, the micro
    curve and all models of the group are resampled together (paired).
    """
    rows = batch.multi
    R = rows.n_groups
    n = rows.stratum.size
    g_of_row = np.repeat(np.arange(R, dtype=np.int64), np.diff(rows.offsets))
    st = rows.stratum if stratified else np.zeros(n, dtype=np.int64)
    n_strata = int(st.max(initial=0)) + 1
    key = g_of_row * n_strata + st
    idx = np.argsort(key, kind="stable")
    counts = np.bincount(key, minlength=R * n_strata)
    strata_offsets = np.zeros(R * n_strata + 1, dtype=np.int64)
    np.cumsum(counts, out=strata_offsets[1:])
    first = strata_offsets[np.arange(R) * n_strata]
    slot = np.empty(n, dtype=np.int64)
    slot[idx] = np.arange(n) - first[g_of_row[idx]]
    plan.row_slot = slot  # slot of each original row (tests map draws back to rows)
    plan.strata_offsets = strata_offsets
    plan.n_strata = n_strata
    plan.n_groups = R
    plan.grouped = False
    plan.hard = False
    plan.n_pos_slots = np.zeros(R, dtype=np.int64)
    big = counts.max(initial=0) > np.iinfo(np.uint16).max
    plan.count_type = np.empty(0, dtype=np.int32 if big else np.uint16)
    plan.work = float(batch.values.size) * 2.0 + n
    return slot[rows.label_row]
