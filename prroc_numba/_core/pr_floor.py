"""The least AUC-PR any ranking reaches, and the normalised AUC-PR built on it.

Boyd, Santos Costa, Davis & Page (2012, "Unachievable region in precision-recall space
and its effect on empirical evaluation", ICML) show that part of PR space is out of
reach of every ranking, and that its size depends only on the prevalence ``pi = P / (P
+ N)``: at recall ``r`` no ranking has a precision below ``pi r / (pi r + 1 - pi)``
(all negatives ranked first). The least area is the area under that curve; the
normalised area ``(auc - min) / (1 - min)`` is 0 for the worst ranking and 1 for a
perfect one, whatever the prevalence.

The minimum is taken here **for each estimator at the data's own counts** (the
finite-sample minimum; the worst ranking puts all ``N`` negatives first, then all
``P`` positives):

* ``"integral"`` (the exact area under the count-interpolated curve): ``1 - (N / P)
  ln(1 + P / N)``, which is Boyd et al.'s closed form ``1 + (1 - pi) ln(1 - pi) / pi``
  at every sample size;
* ``"ap"``: ``(1 / P) sum_{i=1..P} i / (N + i)``, Boyd et al.'s finite-sample minimum
  of average precision; it lies above the closed form at small counts (0.1 against
  0.0518 at P = 1, N = 9) and tends to it as the counts grow;
* ``"dg"`` (Davis & Goadrich's trapezoids over one point per integer TP): the AP
  minimum less ``1 / (2 (P + N))`` (the trapezoids from precision 0 at recall 0 to
  ``pi`` at recall 1 through ``i / (N + i)``).

``tests/test_normalize.py`` checks each against its formula and against a brute-force
minimum over every ranking (ties included) of small data sets.
"""

from __future__ import annotations

import numpy as np

#: the estimators whose minimum is known here (their ``method=`` names)
NORMALIZABLE = ("dg", "integral", "ap")


def check_normalize(curve, method, hull=False, partial=None, fold=None, interval="percentile"):
    """``normalize=True`` needs a PR area by one of :data:`NORMALIZABLE`, on the curve
    itself (not its hull), whole (not partial), without ``fold=`` and (bootstraps) a
    percentile or basic interval; else a ValueError naming the fix. Returns the
    estimator's name.
    """
    if curve != "pr":
        raise ValueError(
            f"normalize=True normalises AUC-PR by its least value at the prevalence; "
            f"curve={curve!r} has no such floor (AUC-ROC's no-skill value is 0.5 at every "
            "prevalence): pass curve='pr' or drop normalize="
        )
    name = "dg" if method is None else method
    if name not in NORMALIZABLE:
        raise ValueError(
            f"normalize=True knows the least area of method in {NORMALIZABLE}, not "
            f"method={method!r}; pass one of those"
        )
    if hull or partial is not None or fold is not None:
        raise ValueError(
            "normalize=True normalises the whole area under the curve itself, all rows "
            "as one curve; drop hull=, partial= and fold="
        )
    if interval == "bca":
        raise ValueError(
            "normalize=True is available with the percentile or basic interval (the BCa "
            "jackknife deletes rows, which moves the least area); pass interval='percentile'"
        )
    return name


def check_counts(P, N):
    """The minimum is a function of whole class counts: refuse weighted or soft labels."""
    P, N = np.asarray(P, dtype=np.float64), np.asarray(N, dtype=np.float64)
    ok = np.isfinite(P) & np.isfinite(N)
    if np.any((P[ok] != np.round(P[ok])) | (N[ok] != np.round(N[ok]))):
        raise ValueError(
            "normalize=True needs whole class counts (the least area is that of a ranking "
            "of P positives and N negatives); weights or soft labels give fractional "
            "totals: drop weight= / soft_labels= or normalize="
        )


def min_area(P, N, method="dg"):
    """The least area of estimator ``method`` over every ranking of ``P`` positives and
    ``N`` negatives (element-wise; NaN where ``P`` is 0).
    """
    P = np.asarray(P, dtype=np.float64)
    N = np.asarray(N, dtype=np.float64)
    out = np.full(np.broadcast(P, N).shape, np.nan)
    Pb, Nb = np.broadcast_to(P, out.shape), np.broadcast_to(N, out.shape)
    ok = Pb > 0
    if method == "integral":
        with np.errstate(divide="ignore", invalid="ignore"):
            v = 1.0 - (Nb / Pb) * np.log1p(Pb / Nb)
        out[ok] = np.where(Nb[ok] > 0, v[ok], 1.0)
        return out
    # AP: 1 - (N / P) * sum_{i=1..P} 1 / (N + i), one harmonic sum per distinct (P, N)
    pairs, inv = np.unique(np.stack([Pb[ok], Nb[ok]], axis=1), axis=0, return_inverse=True)
    ap = np.empty(len(pairs))
    for k, (p, n) in enumerate(pairs):
        ap[k] = 1.0 - (n / p) * np.sum(1.0 / (n + np.arange(1.0, p + 1.0))) if n > 0 else 1.0
    v = ap[inv.ravel()]
    if method == "dg":
        n_all = Pb[ok] + Nb[ok]
        v = np.where(Nb[ok] > 0, v - 0.5 / n_all, 1.0)
    out[ok] = v
    return out


def normalized(area, P, N, method="dg"):
    """Boyd et al.'s normalised area ``(area - min) / (1 - min)`` (``min``:
    :func:`min_area`); NaN where every ranking gives the same area (no negatives).
    ``area`` may carry a trailing axis of replicates (``P``, ``N`` one per row).
    """
    area = np.asarray(area, dtype=np.float64)
    m = min_area(P, N, method)
    if area.ndim > m.ndim:
        m = m[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(m < 1.0, (area - m) / (1.0 - m), np.nan)


def normalized_replicates(plan, batch, est, reps, method):
    """Estimates and replicates of a bootstrap (``plan``: its plan, None off the CPU)
    normalised at each curve's class totals, which every replicate keeps only under
    the stratified multinomial row bootstrap of unweighted 0/1 labels; else a
    ValueError saying so.
    """
    fixed = (
        plan is not None
        and plan.stratified
        and not plan.poisson
        and not plan.clustered
        and plan.hard
    )
    if not fixed:
        raise ValueError(
            "normalize=True with a bootstrap needs the class counts fixed in every "
            "replicate: the stratified row bootstrap (stratified=True or None, "
            "resampling='multinomial') of unweighted 0/1 labels in memory, without "
            "cluster= or device='cuda'"
        )
    return normalized_batch(batch, est, method), normalized_batch(batch, reps, method)


def normalized_batch(batch, areas, method):
    """:func:`normalized` of the areas (and replicates: a trailing axis) of every curve
    of ``batch`` at its own class totals.
    """
    if getattr(batch, "multi", None) is not None or not hasattr(batch, "totals"):
        raise ValueError(
            "normalize=True is for binary labels; multiclass and multilabel input are "
            "not supported (normalise each one-vs-rest curve by calling per class)"
        )
    P, N = batch.totals()
    check_counts(P, N)
    return normalized(areas, P, N, method)
