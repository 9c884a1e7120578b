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

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .. import _frames as F
from .._schema import CLASS, CLASS_A, CLASS_B, MODEL, ROW
from .batch import Batch, describe_row, lengths_to_offsets, plain
from .classes import _multilabel_matrix, _resolve_classes, check_args, is_multilabel
from .resolve import _group_codes, _resolve, _resolve_scores, _weights


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
    w = _weights(data, weight, n)
    w = np.ones(n) if w is None else w
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
                    plain(mk.iloc[0]) if len(mk) == 1 else ", ".join(str(plain(v)) for v in mk)
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
    group_offsets = lengths_to_offsets(lab_len)
    lengths = np.array([v.size for v in values], dtype=np.int64)
    offsets = lengths_to_offsets(lengths)
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
