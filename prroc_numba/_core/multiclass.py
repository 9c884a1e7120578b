"""Multiclass (one-vs-rest, one-vs-one) and multilabel input as a packing problem.

K classes scored on the same rows are K binary curves sharing those rows, exactly like
wide input, except that each curve has its **own label rows**: curve ``k`` of a group
reads the positives ``y == class_k``. :func:`pack_multi` builds an ordinary
:class:`~.batch.Batch` whose "label groups" are those per-curve label
blocks, so every kernel (sweeps, areas, hulls) runs unchanged. What the resampling needs
on top -- which label rows are copies of the same **original row**, and how the rows are
grouped and stratified -- is kept in :class:`Rows` (``batch.multi``), so a bootstrap
replicate draws the original rows once and every class curve (and the pooled micro
curve, whose K*n label rows are K copies of each row) sees the same draw.

Averages are frame-level reductions: each curve contributes to exactly one output row
with a coefficient (1/K for "macro", the class prevalence share for "weighted", 1/2 for
the two directions of a one-vs-one pair, ...), applied alike to estimates and
replicates. "micro" is its own curve (the pooled one-vs-rest problem). Which classes
the score columns are, and the options: :mod:`.classes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import _frames as F
from .._schema import CLASS, CLASS_A, CLASS_B, MODEL, ROW
from .batch import Batch, describe_row, lengths_to_offsets, plain
from .classes import class_labels


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


def score_matrix(cols):
    """The class scores as one ``(n, K)`` matrix (columns contiguous: one gather per
    curve), checked finite.
    """
    n, K = cols[0].shape[0], len(cols)
    S = np.empty((n, K), order="F")
    for k, col in enumerate(cols):  # a loop over classes, not rows
        S[:, k] = col
    finite = np.isfinite(S)
    if not finite.all():
        row = int(np.argmin(finite.all(axis=1)))
        raise ValueError(
            f"score has {int((~finite).sum())} NaN or infinite values (first at row "
            f"{row}, counting from 0); drop or impute those rows before computing curves"
        )
    return S


def pack_multi(
    cols, names, labels, w, gcodes, key_frame, runs, multiclass, average, pair_models=False
) -> Batch:
    """The multiclass (``multiclass=``) and multilabel (``label=`` a list) layout: the
    score columns as one matrix, the classes read (``labels = (data, label, classes,
    multilabel)``, :func:`.classes.class_labels`: the label matrix ``Y`` of multilabel
    input, or each row's class code), the rows of zero weight dropped, the rows grouped,
    then the curves of each resampling group and the outputs they reduce to.

    ``pair_models=True`` (:func:`~prroc_numba.compare`): the ``by`` groups are models
    scored on the same rows (same length, labels and weights, in order); they become one
    resampling group so that every replicate draws the rows once for all models.
    """
    S = score_matrix(cols)
    data, label, classes, multilabel = labels
    cls, Y, codes = class_labels(data, label, names, classes, S.shape, multilabel)
    n, K = S.shape
    w = np.ones(n) if w is None else w
    if runs is not None:
        gcodes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
    if pair_models and gcodes is None:
        raise ValueError(
            "comparing multiclass models needs long input: stack the models' "
            "rows and name the model column with by= (e.g. by='model')"
        )
    if gcodes is None:
        gcodes = np.zeros(n, dtype=np.int64)
        key_frame = pd.DataFrame(index=range(n))
    S, w, gcodes, key_frame, codes, Y, row_id = _drop_zero_weight(S, w, gcodes, key_frame, codes, Y)
    S, w, row_id, Y, stratum, goff, gkeys, counts = _by_group(
        S, w, row_id, Y, codes, gcodes, key_frame
    )
    if average == "samples":
        return _pack_samples(S, Y, w, goff, gkeys, row_id, stratum)
    groups = _resampling_groups(Y, w, stratum, counts, goff, gkeys, pair_models)
    specs = _specs(K, multiclass, average)
    lay = _Layout()
    for r in range(groups.roff.size - 1):
        _add_group(lay, r, S, cls, groups, specs, multiclass, average, pair_models)
    return _assemble(lay, groups, len(specs), gkeys, key_frame)


def _drop_zero_weight(S, w, gcodes, key_frame, codes, Y):
    """Rows of zero weight removed (zero weight = removal of the row, no threshold
    either); ``row_id``, the input row of each row kept (for messages).
    """
    keep = w > 0
    row_id = np.arange(S.shape[0], dtype=np.int64)
    if keep.all():
        return S, w, gcodes, key_frame, codes, Y, row_id
    alive = np.bincount(gcodes, weights=keep, minlength=gcodes.max() + 1) > 0
    if not alive.all():
        g = int(np.argmin(alive))
        raise ValueError(
            f"{describe_row(key_frame.iloc[int(np.argmax(gcodes == g))])} "
            "has total weight 0 (empty group)"
        )
    codes = None if codes is None else codes[keep]
    Y = None if Y is None else Y[keep]
    return S[keep], w[keep], gcodes[keep], key_frame[keep], codes, Y, row_id[keep]


def _by_group(S, w, row_id, Y, codes, gcodes, key_frame):
    """The rows sorted by ``by`` group (stable), the label matrix ``Y`` (one-hot class
    codes for multiclass input) and each row's stratum (its class, or its label
    pattern).
    """
    K = S.shape[1]
    order = np.argsort(gcodes, kind="stable")
    counts = np.bincount(gcodes)
    goff = lengths_to_offsets(counts)
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
    return S, w, row_id, Y, stratum, goff, gkeys, counts


@dataclass
class _Groups:
    """The resampling groups and the models of each: ``roff`` offsets of the groups'
    rows, ``M`` models per group (``model_keys`` their keys, paired models only),
    ``group_keys``, and the labels, weights and strata of the groups' rows.
    """

    roff: np.ndarray
    M: int
    model_keys: Any
    group_keys: pd.DataFrame
    Y: np.ndarray
    w: np.ndarray
    stratum: np.ndarray


def _resampling_groups(Y, w, stratum, counts, goff, gkeys, pair_models) -> _Groups:
    """One resampling group per ``by`` group; with ``pair_models``, one group whose
    models are the ``by`` groups (which must hold the same rows, in the same order).
    """
    if not pair_models:
        return _Groups(goff, 1, None, gkeys, Y, w, stratum)
    G, K = counts.size, Y.shape[1]
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
    roff = np.array([0, n0], dtype=np.int64)
    return _Groups(roff, G, gkeys, pd.DataFrame(index=range(1)), Y[:n0], w[:n0], stratum[:n0])


def _specs(K, multiclass, average) -> list:
    """The label blocks ("specs") of one resampling group: ``("micro", None)``, the
    ordered class pairs ``(a, b)`` (one-vs-one) or ``(k, None)`` (one-vs-rest).
    """
    if average == "micro":
        return [("micro", None)]
    if multiclass == "ovo":
        return [(a, b) for a in range(K) for b in range(K) if a != b]
    return [(k, None) for k in range(K)]


@dataclass
class _Layout:
    """The batch under construction, group by group: label blocks, curves, outputs."""

    values: list = field(default_factory=list)
    lab_rows: list = field(default_factory=list)
    pos: list = field(default_factory=list)
    neg: list = field(default_factory=list)
    lab_len: list = field(default_factory=list)
    curve_keys: list = field(default_factory=list)
    curve_block: list = field(default_factory=list)
    coefs: list = field(default_factory=list)
    out_idx: list = field(default_factory=list)
    out_keys: list = field(default_factory=list)
    n_out: int = 0


def _add_group(lay, r, S, cls, groups, specs, multiclass, average, pair_models) -> None:
    """Resampling group ``r``: its label blocks, then each model's curves and the
    output rows they reduce to.
    """
    a, e = int(groups.roff[r]), int(groups.roff[r + 1])
    Yg, wgt = groups.Y[a:e], groups.w[a:e]
    blocks = _label_blocks(np.arange(a, e), Yg, wgt, groups.stratum[a:e], specs, multiclass)
    first_block = len(lay.lab_len)
    for sel, p, q in blocks:
        lay.lab_rows.append(sel)
        lay.pos.append(p)
        lay.neg.append(q)
        lay.lab_len.append(sel.size)
    Pk = Yg.T @ wgt  # prevalence weights for "weighted"
    K = S.shape[1]
    for m in range(groups.M):
        base = (m * (groups.roff[1] - groups.roff[0])) if pair_models else 0  # model m's rows
        okey = {}
        if groups.group_keys.shape[1]:
            okey.update(groups.group_keys.iloc[r].to_dict())
        if groups.model_keys is not None:
            mk = groups.model_keys.iloc[m]
            okey[MODEL] = (
                plain(mk.iloc[0]) if len(mk) == 1 else ", ".join(str(plain(v)) for v in mk)
            )
        for j, (s, t) in enumerate(specs):
            sel = blocks[j][0]
            src = (base + sel) if pair_models else sel
            lay.values.append(S[src, np.repeat(np.arange(K), e - a)] if s == "micro" else S[src, s])
            lay.curve_block.append(first_block + j)
            ck = dict(okey)
            if s == "micro":
                pass
            elif t is None:
                ck[CLASS] = cls[s]
            else:
                ck[CLASS_A], ck[CLASS_B] = cls[s], cls[t]
            lay.curve_keys.append(ck)
        _reduce(lay, specs, okey, cls, multiclass, average, Pk)


def _label_blocks(rows, Yg, wgt, strat, specs, multiclass) -> list:
    """``(label rows, positive mass, negative mass)`` of each spec of one group."""
    K = Yg.shape[1]
    if multiclass == "ovo":  # the rows of each class (one stable sort per group)
        by_cls = np.argsort(strat, kind="stable")
        cut = np.searchsorted(strat[by_cls], np.arange(K + 1))
        rows_of = [rows[by_cls[cut[k] : cut[k + 1]]] for k in range(K)]
        w_of = [wgt[by_cls[cut[k] : cut[k + 1]]] for k in range(K)]
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
    return blocks


def _reduce(lay, specs, okey, cls, multiclass, average, Pk) -> None:
    """The output rows of one (group, model) and each curve's coefficient in them."""
    ovo = multiclass == "ovo"
    if average is None and not ovo or average == "micro":
        for j in range(len(specs)):
            lay.out_idx.append(lay.n_out)
            lay.coefs.append(1.0)
            lay.out_keys.append(lay.curve_keys[-len(specs) + j])
            lay.n_out += 1
    elif average is None:  # ovo pairs: both directions, 1/2 each
        pair_of: dict = {}
        for s, t in specs:
            pr = (min(s, t), max(s, t))
            if pr not in pair_of:
                pair_of[pr] = lay.n_out
                ok = dict(okey)
                ok[CLASS_A], ok[CLASS_B] = cls[pr[0]], cls[pr[1]]
                lay.out_keys.append(ok)
                lay.n_out += 1
            lay.out_idx.append(pair_of[pr])
            lay.coefs.append(0.5)
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
            lay.out_idx.append(lay.n_out)
            lay.coefs.append(cf[j])
        lay.out_keys.append(okey)
        lay.n_out += 1


def _assemble(lay, groups, n_specs, gkeys, key_frame) -> Batch:
    """The :class:`Batch` (and its :class:`Rows`) from the collected blocks and curves."""
    label_row = np.ascontiguousarray(np.concatenate(lay.lab_rows), dtype=np.int64)
    pos = np.ascontiguousarray(np.concatenate(lay.pos), dtype=np.float64)
    neg = np.ascontiguousarray(np.concatenate(lay.neg), dtype=np.float64)
    group_offsets = lengths_to_offsets(np.asarray(lay.lab_len, dtype=np.int64))
    offsets = lengths_to_offsets(np.array([v.size for v in lay.values], dtype=np.int64))
    vals = np.ascontiguousarray(np.concatenate(lay.values), dtype=np.float64)
    keys, okeys = (
        pd.DataFrame(k) if k and k[0] else pd.DataFrame(index=range(len(k)))
        for k in (lay.curve_keys, lay.out_keys)
    )
    for frame in (keys, okeys):
        for col in gkeys.columns:
            if col in frame.columns and col in key_frame.columns:
                frame[col] = frame[col].astype(gkeys[col].dtype)
    rows = Rows(
        groups.roff,
        np.ascontiguousarray(groups.stratum, dtype=np.int64),
        label_row,
        groups.M * n_specs,
        np.asarray(lay.out_idx, dtype=np.int64),
        np.asarray(lay.coefs, dtype=np.float64),
        okeys,
    )
    curve_block = np.asarray(lay.curve_block, dtype=np.int64)
    return Batch(
        vals, offsets, pos, neg, group_offsets, curve_block, keys, groups.M * n_specs, multi=rows
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
    keys[ROW] = row_id
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
    if batch.multi is None:
        return F.curves_frame(batch.keys, columns)
    red = {k: batch.multi.reduce(v) for k, v in columns.items()}
    return F.curves_frame(batch.multi.out_keys, red)
