"""``score={"model": [class columns], ...}``: several multiclass models in one wide frame.

Each model's class columns are stacked under the first model's column names, with a
``model`` column naming the model; the models then go on as long input, ``by="model"``
(after the caller's own ``by`` columns), which every multiclass function already takes:
one curve set per model, and :func:`prroc_numba.compare` pairs the models row by row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _schema as S
from .classes import is_multilabel
from .dataframes import to_pandas


def _column(data, x, name, n):
    """A column of ``data`` (by name) or an array, as a 1-D array of length ``n``."""
    if isinstance(x, str):
        if data is None or x not in data.columns:
            raise ValueError(f"{name}={x!r} is not a column of data")
        return data[x].to_numpy()
    arr = np.asarray(x)
    if arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} rows, score has {n}")
    return arr


def _lists(score):
    if not score:
        raise ValueError("score= is an empty dict; map each model's name to its class columns")
    lists = {}
    for name, cols in score.items():
        if isinstance(cols, str) or not isinstance(cols, (list, tuple)) or not cols:
            raise TypeError(
                f"score={{{name!r}: {cols!r}}}: each model maps to a list of its class "
                "columns, in the same class order for every model"
            )
        lists[name] = list(cols)
    widths = {len(c) for c in lists.values()}
    if len(widths) != 1:
        raise ValueError(
            "score= dict: every model needs one column per class, the same number for "
            f"each; got { ({k: len(v) for k, v in lists.items()}) }"
        )
    return lists


def models_as_long(data, score, label, by, weight, multiclass, pair_models):
    """The first step of :func:`.pack.pack` for ``score=`` a dict: returns
    ``(data, score, label, by, weight, pair_models)``, the models stacked as long input.
    The models are scored on the same rows, so they are resampled paired (as wide input)
    when no other ``by=`` is given.
    """
    if pair_models and by is not None:
        raise ValueError(
            "compare with score= a dict of models pairs the models on the same rows; "
            "with by= as well it cannot tell groups from models: drop by= and call "
            "compare once per group (e.g. on data[data.site == 'a'])"
        )
    pair_models = pair_models or by is None
    data, score, label, by, weight = stack_models(
        to_pandas(data, *score.values(), label, by, weight),
        score=score,
        label=label,
        by=by,
        weight=weight,
        multiclass=multiclass,
        multilabel=is_multilabel(data, label),
    )
    return data, score, label, by, weight, pair_models


def stack_models(data, *, score, label, by, weight, multiclass, multilabel):
    """Long input for a ``{model: [class columns]}`` score: returns
    ``(data, score, label, by, weight)`` for the multiclass packer.
    """
    if multiclass is None and not multilabel:
        raise ValueError(
            "score= a dict of {model: [class columns]} is for multiclass input: pass "
            "multiclass='ovr' (or 'ovo') with label= the class column, or label= a "
            "list of 0/1 columns (multilabel); binary models are score= a list of columns"
        )
    if not isinstance(data, pd.DataFrame):
        raise TypeError("score= a dict of column lists needs data= a DataFrame holding them")
    if S.MODEL in data.columns or (by is not None and S.MODEL in np.atleast_1d(by)):
        raise ValueError(
            f"score= a dict adds a {S.MODEL!r} key column, but data already has one; rename it"
        )
    lists = _lists(score)
    names = next(iter(lists.values()))
    n = len(data)
    extra = {}
    if isinstance(label, (list, tuple)):
        extra.update({c: _column(data, c, "label", n) for c in label})
    else:
        lab_name = label if isinstance(label, str) else "_label"
        extra[lab_name] = _column(data, label, "label", n)
        label = lab_name
    by_list = [] if by is None else ([by] if isinstance(by, str) else list(by))
    for b in by_list:
        extra[b] = _column(data, b, "by", n)
    if weight is not None:
        w_name = weight if isinstance(weight, str) else "_weight"
        extra[w_name] = _column(data, weight, "weight", n)
        weight = w_name
    parts = []
    for model, cols in lists.items():
        part = {nm: _column(data, c, "score", n) for nm, c in zip(names, cols)}
        part.update(extra)
        part[S.MODEL] = np.full(n, model, dtype=object)
        parts.append(pd.DataFrame(part))
    stacked = pd.concat(parts, ignore_index=True)
    # the models keep the dict's order (groups come out in the order of their keys)
    stacked[S.MODEL] = pd.Categorical(stacked[S.MODEL], categories=list(lists))
    return stacked, names, label, [*by_list, S.MODEL], weight
