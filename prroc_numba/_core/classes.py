"""Class resolution for multiclass and multilabel input: the options, which classes the
score columns are, and each row's class (or 0/1 label matrix).

A leaf of the core: the packers (:mod:`.pack`, :mod:`.multiclass`) read it, it reads
only the input resolution (:mod:`.resolve`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .batch import plain
from .resolve import _is_names, _resolve, _show_values, frame_column, read_labels

#: the multiclass= schemes: one-vs-rest, one-vs-one (Hand & Till)
SCHEMES = ("ovr", "ovo")
#: the average= reductions of the class curves
AVERAGES = (None, "macro", "weighted", "micro", "samples")


def check_args(multiclass, classes, average, multilabel, curve=None):
    """Validate the multiclass arguments (names the fix)."""
    if multiclass is not None and multiclass not in SCHEMES:
        raise ValueError(
            f"multiclass={multiclass!r} is not known; use 'ovr' (one-vs-rest) "
            "or 'ovo' (one-vs-one, Hand & Till; auc with curve='roc' only)"
        )
    if average not in AVERAGES:
        raise ValueError(
            f"average={average!r} is not known; use None (one row per class), "
            "'macro', 'weighted', 'micro' or 'samples' (one curve per row)"
        )
    if average == "samples" and (multiclass == "ovo" or (multiclass is None and not multilabel)):
        raise ValueError(
            "average='samples' averages one curve per row over the labels: pass "
            "multilabel input (label= a list of 0/1 columns or a 2-D 0/1 array) or class "
            "labels with multiclass='ovr' (each row's class is its one positive label, as "
            "scikit-learn binarizes them); it has no one-vs-one form"
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


def input_kind(data, label, multiclass, classes, average, pos_label, soft_labels):
    """None for binary input, else ``"multiclass"`` or ``"multilabel"``; the options
    that do not fit the kind raise here.
    """
    multilabel = is_multilabel(data, label)
    if multiclass is None and not multilabel:
        check_args(multiclass, classes, average, False)
        if data is not None and not isinstance(data, pd.DataFrame):
            raise TypeError(
                f"data must be a pandas DataFrame or None, got {type(data).__name__}; "
                "wrap it with pd.DataFrame(...) or pass arrays with data=None"
            )
        return None
    if pos_label is not None or soft_labels:
        raise ValueError(
            "pos_label= / soft_labels= apply to binary labels; drop them "
            "with multiclass= or multilabel input"
        )
    check_args(multiclass, classes, average, multilabel)
    return "multilabel" if multilabel else "multiclass"


def class_labels(data, label, names, classes, shape, multilabel):
    """``(classes, Y, codes)`` of ``shape = (n rows, K score columns)``: multilabel
    input gives its 0/1 label matrix ``Y`` (codes None); multiclass input each row's
    class code (0..K-1, ``Y`` None).
    """
    n, K = shape
    if multilabel:
        cls, Y = _multilabel_matrix(data, label, n, K)
        if classes is not None:
            if len(classes) != K:
                raise ValueError(f"classes= lists {len(classes)} names but there are {K} labels")
            cls = list(classes)
        return cls, Y, None
    y = _resolve(data, label, "label", n)
    if y is None:
        raise TypeError("label is required: the class column or an array of classes")
    cls, codes = _resolve_classes(np.asarray(y), names, classes, K)
    return cls, None, codes


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
            f"{[plain(c) for c in cls]}; pass classes= listing every class in score column "
            "order"
        )
    return [plain(c) for c in cls], codes


def _key(v):
    v = plain(v)
    return v if isinstance(v, (str, bool)) else (float(v) if isinstance(v, (int, float)) else v)


def _multilabel_matrix(data, label, n, K):
    if isinstance(label, pd.DataFrame):
        names = list(label.columns)
        Y = [label[c].to_numpy() for c in names]
    elif isinstance(label, (list, tuple)) and data is not None and _is_names(list(label)):
        names = list(label)
        Y = [frame_column(data, c, "label").to_numpy() for c in names]
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
        [read_labels(y, None, False, f"label column {names[k]!r}") for k, y in enumerate(Y)]
    )
