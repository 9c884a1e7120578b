"""scikit-learn interop: :func:`scorer` (scikit-learn is imported only when it is called)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

METRICS = ("auc_pr", "auc_roc")
#: the names a scorer takes: (area, the AUC method it fixes or None)
NAMES = {
    "auc_pr": ("auc_pr", None),
    "average_precision": ("auc_pr", "ap"),
    "ap": ("auc_pr", "ap"),
    "auc_roc": ("auc_roc", None),
    "roc_auc": ("auc_roc", None),
}


def _score(
    y_true,
    y_pred,
    *,
    metric,
    method=None,
    hull=False,
    multiclass=None,
    classes=None,
    average="macro",
    sample_weight=None,
    pos_label=None,
    _classes=None,
):
    """The metric of one fold from the estimator's probabilities or decision values."""
    from .areas import _one, auc

    y_pred = np.asarray(y_pred)
    if y_pred.dtype.kind not in "biuf":
        raise TypeError(
            f"the scorer got class labels ({y_pred.dtype}), not scores: an area needs the "
            "estimator's probabilities or decision values. TunedThresholdClassifierCV "
            "scores hard predictions at each threshold, which no AUC can rank; tune the "
            "threshold for a metric of one operating point (e.g. F1) instead"
        )
    curve = "pr" if metric == "auc_pr" else "roc"
    if y_pred.ndim == 1:
        if multiclass is not None:
            raise ValueError(
                "scorer(multiclass=...) got one score column: the estimator is "
                "binary; drop multiclass="
            )
        y = np.asarray(y_true)
        pos = pos_label
        if pos is None and _classes is not None and len(_classes) == 2:
            pos = _classes[1]  # the column scikit-learn hands over is classes_[1]'s
        return _one(y, y_pred, sample_weight, curve, method, hull, pos, None)
    if multiclass is None:
        raise ValueError(
            f"the estimator gives {y_pred.shape[1]} score columns (a multiclass model); "
            "pass scorer(..., multiclass='ovr') (or 'ovo' with metric='auc_roc') and "
            "average='macro'|'weighted'|'micro'"
        )
    cls = classes if classes is not None else (None if _classes is None else list(_classes))
    res = auc.__wrapped__(  # type: ignore[attr-defined]
        score=y_pred,
        label=np.asarray(y_true),
        weight=sample_weight,
        curve=curve,
        method=method,
        hull=hull,
        multiclass=multiclass,
        classes=cls,
        average=average,
    )
    if len(res) != 1:
        raise ValueError("a scorer returns one number: pass average='macro', 'weighted' or 'micro'")
    return float(res["auc"].iloc[0])


def scorer(metric: str = "auc_pr", pos_label: Any = None, **kwargs: Any) -> Callable[..., float]:
    """A scikit-learn scorer of AUC-PR or AUC-ROC, for model selection.

    Use it as ``scoring=`` in ``cross_val_score``, ``GridSearchCV``,
    ``TunedThresholdClassifierCV`` and the like. It scores the estimator's
    ``predict_proba`` (or ``decision_function`` when it has no probabilities) -- never
    hard predictions, which ``make_scorer(prn.auc_pr)`` would silently use. Binary
    estimators are scored on the column of their positive class (``classes_[1]``);
    multiclass estimators need ``multiclass=`` and score one number per fold
    (``average="macro"`` by default), with the classes taken from the estimator's
    ``classes_``. An area has no threshold, so it is a poor objective for
    ``TunedThresholdClassifierCV`` (which scores hard predictions at each threshold:
    a clear error says so); use it to choose among models and hyper-parameters. Sample
    weights reach the metric through scikit-learn's metadata
    routing (``scorer(...).set_score_request(sample_weight=True)``).

    Parameters
    ----------
    metric : {"auc_pr", "average_precision", "ap", "auc_roc", "roc_auc"}, default="auc_pr"
        The area, as :func:`~prroc_numba.auc` with ``curve="pr"`` or ``"roc"``.
        ``"auc_pr"`` is the Davis-Goadrich area by default (``method=`` picks another);
        ``"average_precision"`` and ``"ap"`` are ``"auc_pr"`` with ``method="ap"``, the
        number scikit-learn's ``scoring="average_precision"`` gives (the two differ by
        how the curve is interpolated between thresholds, see :func:`~prroc_numba.auc`);
        ``"roc_auc"`` is ``"auc_roc"``, as scikit-learn's ``scoring="roc_auc"``.
    pos_label : scalar, default=None
        Binary estimators: the class scored as positive (its probability column; with
        ``decision_function``, the negated scores for ``classes_[0]``), as
        scikit-learn's ``make_scorer(..., pos_label=)``. None: ``classes_[1]``.
    **kwargs
        Passed to :func:`~prroc_numba.auc`: ``method``, ``hull``, ``multiclass``
        (``"ovr"``, ``"ovo"``), ``average`` (``"macro"``, ``"weighted"``, ``"micro"``),
        ``classes``.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y)`` -> float (higher is better); a scikit-learn scorer
        made by ``sklearn.metrics.make_scorer``.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X, y = make_classification(n_samples=300, weights=[0.8], random_state=0)
    >>> s = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=prn.scorer("auc_pr"))
    >>> s.shape
    (3,)
    >>> X, y = make_classification(n_samples=300, n_classes=3, n_informative=4,
    ...                            random_state=0)
    >>> sc = prn.scorer("auc_pr", multiclass="ovr", average="macro")
    >>> bool(cross_val_score(LogisticRegression(), X, y, cv=3, scoring=sc).mean() > 0.5)
    True
    """
    import difflib

    if metric not in NAMES:
        close = difflib.get_close_matches(str(metric), list(NAMES), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValueError(f"metric={metric!r} is not known; {hint}use one of {tuple(NAMES)}")
    metric, fixed = NAMES[metric]
    if fixed is not None:
        if kwargs.get("method", fixed) != fixed:
            raise ValueError(
                f"scorer({fixed!r}) is average precision; drop method= or use "
                f"scorer('auc_pr', method={kwargs['method']!r})"
            )
        kwargs["method"] = fixed
    allowed = {"method", "hull", "multiclass", "classes", "average"}
    extra = set(kwargs) - allowed
    if extra:
        k = sorted(extra)[0]
        close = difflib.get_close_matches(k, sorted(allowed | {"pos_label"}), n=1)
        hint = f"; did you mean {close[0]}=?" if close else ""
        raise TypeError(
            f"scorer() got unexpected arguments {sorted(extra)}{hint} (it takes "
            f"{sorted(allowed | {'pos_label'})})"
        )
    if pos_label is not None:
        if kwargs.get("multiclass") is not None:
            raise ValueError("pos_label= is for binary estimators; drop it with multiclass=")
        kwargs["pos_label"] = pos_label
    if kwargs.get("multiclass") is not None and kwargs.get("average", "macro") is None:
        raise ValueError(
            "a scorer returns one number: pass average='macro', 'weighted' or "
            "'micro' with multiclass="
        )
    try:
        from sklearn.metrics import make_scorer
    except ImportError:  # pragma: no cover - optional dependency
        raise ImportError(
            "prn.scorer needs scikit-learn (pip install 'prroc-numba[sklearn]')"
        ) from None
    base = make_scorer(
        _score, response_method=("predict_proba", "decision_function"), metric=metric, **kwargs
    )
    base.__class__ = __getattr__(
        "PRROCScorer"
    )  # scikit-learn's scorer, plus the estimator's classes_
    return base


def _scorer_class():
    from sklearn.metrics._scorer import _Scorer

    class PRROCScorer(_Scorer):
        """scikit-learn's scorer, handing the estimator's ``classes_`` to the metric."""

        def _score(self, method_caller, estimator, X, y_true, **kw):
            cls = getattr(estimator, "classes_", None)
            if cls is not None:
                kw = {**kw, "_classes": list(cls)}
            return super()._score(method_caller, estimator, X, y_true, **kw)

        def __repr__(self):
            kw = dict(self._kwargs)
            metric = kw.pop("metric")
            args = "".join(f", {k}={v!r}" for k, v in kw.items())
            return f"prroc_numba.scorer({metric!r}{args})"

    PRROCScorer.__module__ = __name__
    PRROCScorer.__qualname__ = "PRROCScorer"
    return PRROCScorer


def __getattr__(name):
    # built on first use, so that importing prroc_numba never imports scikit-learn, and
    # a pickled scorer (GridSearchCV(n_jobs=...)) finds its class in a fresh process
    if name == "PRROCScorer":
        cls = _scorer_class()
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
