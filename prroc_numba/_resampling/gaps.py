"""Subgroup gaps from paired replicates: differences, ratios, summaries, p-values.

Everything here reads the estimates and replicates of :mod:`.subgroup_draws` (group
and overall areas of one draw per replicate, every model on the same draw) and
reduces them replicate by replicate: a gap's interval is the interval of the
replicates' own gaps, a summary's (largest minus smallest group, largest distance to
the overall area) the interval of each replicate's own summary, as fairlearn's
``difference_ci`` takes it, and a model's change against the ``baseline`` model the
interval of the replicates' paired changes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .. import _schema as S
from .._core.pr_floor import normalized
from .._warnings import PrevalenceWarning
from .intervals import interval_bounds
from .subgroup_draws import SubgroupRuns
from .subgroup_options import OVERALL, SubgroupOptions

#: columns added by ``baseline=``
VS_BASELINE = (
    "difference_vs_baseline",
    "difference_vs_baseline_low",
    "difference_vs_baseline_high",
    "p_value_vs_baseline",
)
#: summary rows: the group at the other end of the gap
VERSUS = "versus"


def boot_p(d, est):
    """Two-sided bootstrap p-value of ``est = 0`` per row of replicates ``d``: twice the
    smaller share of finite replicates on either side of 0, ``min(1, 2 min(1 + #(d <=
    0), 1 + #(d >= 0)) / (B + 1))`` -- the smallest level at which the percentile
    interval leaves out 0. NaN where ``est`` is NaN or no replicate is finite.
    """
    valid = np.isfinite(d)
    B = valid.sum(axis=1)
    below = ((d <= 0) & valid).sum(axis=1)
    above = ((d >= 0) & valid).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.minimum(1.0, 2.0 * np.minimum(below + 1, above + 1) / (B + 1))
    return np.where(np.isfinite(est) & (B > 0), p, np.nan)


def _bounds(reps, est, o):
    """``(lo, hi)`` of each row (trailing axis: replicates) at ``o.level``."""
    shape = est.shape
    B = reps.shape[-1]
    _, lo, hi = interval_bounds(reps.reshape(-1, B), est.reshape(-1), o.level, o.interval)
    return lo.reshape(shape), hi.reshape(shape)


def areas(runs: SubgroupRuns, o: SubgroupOptions, bad):
    """``(est, reps)`` of every (stratum, curve, model), normalised if asked, with the
    undefined groups (``bad``, ``(G, V)``) NaN.
    """
    est, reps = runs.est.copy(), runs.reps.copy()
    if o.normalize:
        est = normalized(est, runs.P[:, :, None], runs.N[:, :, None], o.method)
        reps = normalized(reps, runs.P[:, :, None, None], runs.N[:, :, None, None], o.method)
    est[:, 1:][bad] = np.nan
    reps[:, 1:][bad] = np.nan
    return est, reps


def warn_prevalence(runs: SubgroupRuns, o: SubgroupOptions, stacklevel=4):
    """Warn when the groups' prevalences differ more than twofold (within a stratum)
    and the gap is of raw AUC-PR.
    """
    if o.normalize or o.curve == "roc":
        return
    with np.errstate(invalid="ignore", divide="ignore"):
        prev = runs.P[:, 1:] / (runs.P[:, 1:] + runs.N[:, 1:])
    prev = np.where(prev > 0, prev, np.nan)
    if not np.isfinite(prev).any():
        return
    spread = np.nanmax(prev, axis=1) / np.nanmin(prev, axis=1)
    if np.nanmax(spread) > 2.0:
        warnings.warn(
            f"the groups' prevalences differ {np.nanmax(spread):.1f}-fold: a raw AUC-PR gap "
            "mixes the difference in prevalence with the difference in ranking quality "
            "(no-skill AUC-PR is the prevalence). Pass normalize=True (Boyd et al.'s "
            "normalised AUC-PR) or curve='roc' (prevalence-free) to compare ranking alone",
            PrevalenceWarning,
            stacklevel=stacklevel,
        )


def group_gaps(est, reps, runs: SubgroupRuns, o: SubgroupOptions, adjust):
    """Per (stratum, group, model): the columns from ``estimate`` to ``p_adjusted``
    (arrays ``(G, V, M)``) against the overall area or the reference group, and the
    replicate differences (for ``baseline=``); ``adjust(p, method)`` adjusts a family
    of p-values (:func:`prroc_numba.comparison.adjust_pvalues`).
    """
    if o.reference == OVERALL:
        r = 0
    else:
        r = 1 + _reference_index(runs.groups, o.reference)
    a, ar = est[:, 1:], reps[:, 1:]
    ref, refr = est[:, r : r + 1], reps[:, r : r + 1]
    diff, diff_r = a - ref, ar - refr
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio, ratio_r = a / ref, ar / refr
    lo, hi = _bounds(ar, a, o)
    dlo, dhi = _bounds(diff_r, diff, o)
    rlo, rhi = _bounds(ratio_r, ratio, o)
    G, V, M, B = ar.shape
    p = boot_p(diff_r.reshape(-1, B), diff.reshape(-1)).reshape(G, V, M)
    if r > 0:
        p[:, r - 1, :] = np.nan  # the reference group itself: no test
    cols = {
        S.ESTIMATE: a,
        S.CI_LOW: lo,
        S.CI_HIGH: hi,
        "difference": diff,
        "difference_low": dlo,
        "difference_high": dhi,
        "ratio": ratio,
        "ratio_low": rlo,
        "ratio_high": rhi,
        S.P_VALUE: p,
        S.P_ADJUSTED: _adjusted(p, o.adjust, adjust),
        S.N_DEGENERATE: np.where(np.isfinite(diff), np.isnan(diff_r).sum(axis=-1), 0),
    }
    return cols, diff_r


def summary_gaps(est, reps, runs: SubgroupRuns, o: SubgroupOptions):
    """Per (stratum, model) the summary ``o.reference`` names: ``between_groups`` (the
    largest minus the smallest group area; ratio smallest over largest) or
    ``to_overall`` (the largest absolute difference between a group and the overall
    area; ratio the smallest of group/overall and overall/group), each replicate's own
    summary giving the interval. Returns the columns (arrays ``(G, M)``), the index of
    the group each row shows, the other end (group index, or -1 for overall) and the
    replicate summaries.
    """
    a, ar = est[:, 1:], reps[:, 1:]  # (G, V, M), (G, V, M, B)
    defined = np.isfinite(a)
    if o.reference == "between_groups":
        d, show, other = _spread(a, defined)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = _take(a, show) / _take(a, other)
            mx_r = np.where(defined[..., None], ar, -np.inf).max(axis=1)
            mn_r = np.where(defined[..., None], ar, np.inf).min(axis=1)
            ratio_r = mn_r / mx_r
            dead = (np.isnan(ar) & defined[..., None]).any(axis=1)
        d_r = np.where(dead, np.nan, mx_r - mn_r)
        ratio_r = np.where(dead, np.nan, ratio_r)
    else:  # to_overall
        ov, ov_r = est[:, :1], reps[:, :1]
        dist = np.where(defined, np.abs(a - ov), -np.inf)
        show = dist.argmax(axis=1)
        d = np.where(defined.any(axis=1), dist.max(axis=1), np.nan)
        other = np.full_like(show, -1)
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.minimum(a / ov, ov / a)
            rel_r = np.minimum(ar / ov_r, ov_r / ar)
            ratio = np.where(defined, rel, np.inf).min(axis=1)
            dist_r = np.where(defined[..., None], np.abs(ar - ov_r), -np.inf)
            dead = (np.isnan(ar) & defined[..., None]).any(axis=1)
            d_r = np.where(dead, np.nan, dist_r.max(axis=1))
            rel_r = np.where(defined[..., None], rel_r, np.inf).min(axis=1)
            ratio_r = np.where(dead, np.nan, rel_r)
    ratio = np.where(np.isfinite(d), ratio, np.nan)
    lo, hi = _bounds(_take(ar, show), _take(a, show), o)
    dlo, dhi = _bounds(d_r, d, o)
    rlo, rhi = _bounds(ratio_r, ratio, o)
    nan = np.full(d.shape, np.nan)
    cols = {
        S.ESTIMATE: _take(a, show),
        S.CI_LOW: lo,
        S.CI_HIGH: hi,
        "difference": d,
        "difference_low": dlo,
        "difference_high": dhi,
        "ratio": ratio,
        "ratio_low": rlo,
        "ratio_high": rhi,
        S.P_VALUE: nan,
        S.P_ADJUSTED: nan,
        S.N_DEGENERATE: np.where(np.isfinite(d), np.isnan(d_r).sum(axis=-1), 0),
    }
    return cols, show, other, d_r


def _spread(a, defined):
    """Largest minus smallest defined group area per (stratum, model) (NaN with fewer
    than two defined groups), the smallest's group and the largest's.
    """
    hi_i = np.where(defined, a, -np.inf).argmax(axis=1)
    lo_i = np.where(defined, a, np.inf).argmin(axis=1)
    d = np.where(defined.sum(axis=1) >= 2, _take(a, hi_i) - _take(a, lo_i), np.nan)
    return d, lo_i, hi_i


def _take(x, idx):
    """``x[g, idx[g, m], m, ...]`` for every (g, m)."""
    G, _, M = x.shape[:3]
    return x[np.arange(G)[:, None], idx, np.arange(M)[None, :]]


def vs_baseline(diff, diff_r, models, o: SubgroupOptions):
    """Each model's gap less the baseline model's gap (paired replicates): the
    columns of :data:`VS_BASELINE`, the model axis last but one of ``diff_r``.
    """
    if o.baseline not in models:
        raise ValueError(
            f"baseline={o.baseline!r} is not one of the models {models}; pass one of them"
        )
    b = models.index(o.baseline)
    ch = diff - diff[..., b : b + 1]
    ch_r = diff_r - diff_r[..., b : b + 1, :]
    lo, hi = _bounds(ch_r, ch, o)
    B = ch_r.shape[-1]
    p = boot_p(ch_r.reshape(-1, B), ch.reshape(-1)).reshape(ch.shape)
    for x in (ch, lo, hi, p):
        x[..., b] = np.nan
    return dict(zip(VS_BASELINE, (ch, lo, hi, p)))


def _adjusted(p, method, adjust):
    """``p`` ``(G, V, M)`` adjusted across the groups of each (stratum, model)."""
    out = np.empty_like(p)
    G, _, M = p.shape
    for g in range(G):
        for m in range(M):
            out[g, :, m] = adjust(p[g, :, m], method)
    return out


def _reference_index(groups: pd.DataFrame, reference) -> int:
    """The row of ``groups`` that ``reference`` names (a value, or a tuple of values
    for several group columns).
    """
    want = reference if isinstance(reference, tuple) else (reference,)
    if len(want) == groups.shape[1]:
        for i, row in enumerate(groups.itertuples(index=False, name=None)):
            if tuple(row) == want:
                return i
    shown = [r[0] if len(r) == 1 else r for r in groups.itertuples(index=False, name=None)]
    raise ValueError(
        f"reference={reference!r} is neither 'overall', 'between_groups', 'to_overall' "
        f"nor one of the groups {shown[:10]}{' ...' if len(shown) > 10 else ''}"
    )
