"""The tidy frame of a :func:`~prroc_numba.disparity` call.

One row per (``by`` stratum, model, group) -- or per (stratum, model) for a summary
``reference`` -- in that order: the ``by`` columns, ``model`` (wide input), the group
columns, what produced the numbers, then the counts, the area and the gap columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _frames as F
from .. import _schema as S
from . import gaps
from .subgroup_draws import SubgroupRuns, warn_undefined_groups
from .subgroup_options import SubgroupOptions


def disparity_frame(runs: SubgroupRuns, o: SubgroupOptions, adjust) -> pd.DataFrame:
    """Gaps of every group (or the summary) with intervals, as the tidy frame;
    ``adjust(p, method)`` adjusts each family of p-values.
    """
    bad = warn_undefined_groups(runs, o.curve, stacklevel=5)
    gaps.warn_prevalence(runs, o, stacklevel=5)
    est, reps = gaps.areas(runs, o, bad)
    G, S1, M = est.shape
    V = S1 - 1
    if o.summary:
        cols, show, other, diff_r = gaps.summary_gaps(est, reps, runs, o)
        if o.baseline is not None:
            cols |= gaps.vs_baseline(cols["difference"], diff_r, runs.models, o)
        g_idx = np.repeat(np.arange(G), M)
        m_idx = np.tile(np.arange(M), G)
        v_idx = show.ravel()
        keep = np.ones(G * M, dtype=bool)
        flat = {k: np.asarray(x).ravel() for k, x in cols.items()}
        labels = _group_labels(runs.groups)
        versus = np.where(other.ravel() >= 0, labels[np.maximum(other.ravel(), 0)], "overall")
        extra = {gaps.VERSUS: versus}
    else:
        cols, diff_r = gaps.group_gaps(est, reps, runs, o, adjust)
        if o.baseline is not None:
            cols |= gaps.vs_baseline(cols["difference"], diff_r, runs.models, o)
        # (G, V, M) -> rows in (stratum, model, group) order
        flat = {k: np.asarray(x).transpose(0, 2, 1).ravel() for k, x in cols.items()}
        g_idx = np.repeat(np.arange(G), M * V)
        m_idx = np.tile(np.repeat(np.arange(M), V), G)
        v_idx = np.tile(np.arange(V), G * M)
        keep = runs.size[g_idx, 1 + v_idx] > 0  # a group without rows in a stratum
        extra = {}
    P, N = runs.P[g_idx, 1 + v_idx], runs.N[g_idx, 1 + v_idx]
    if o.weight is None:  # whole counts
        P, N = P.astype(np.int64), N.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        prevalence = P / (P + N)
    keys = runs.strata.iloc[g_idx].reset_index(drop=True)
    if runs.models != [None]:
        keys[S.MODEL] = np.asarray(runs.models, dtype=object)[m_idx]
    for c in runs.groups.columns:
        keys[c] = runs.groups[c].to_numpy()[v_idx]
    values = {
        S.N_POS: P,
        S.N_NEG: N,
        S.PREVALENCE: prevalence,
        S.ESTIMATE: flat.pop(S.ESTIMATE),
        S.CI_LOW: flat.pop(S.CI_LOW),
        S.CI_HIGH: flat.pop(S.CI_HIGH),
        "reference": np.full(len(keys), _reference_label(o.reference), dtype=object),
        **extra,
    }
    n_bad = flat.pop(S.N_DEGENERATE)
    values |= {k: flat[k] for k in flat if k not in gaps.VS_BASELINE}
    values[S.N_DEGENERATE] = n_bad.astype(np.int64)
    values |= {k: flat[k] for k in gaps.VS_BASELINE if k in flat}
    out = F.curves_frame(keys, values)[keep].reset_index(drop=True)
    return F.describe(
        out,
        S.N_POS,
        curve=o.curve,
        method=o.method_label,
        interval=o.interval,
        resampling=o.resampling,
        n_boot=o.n_boot,
    )


def _group_labels(groups: pd.DataFrame) -> np.ndarray:
    """Each group as one value: the value of a single group column, else a tuple."""
    if groups.shape[1] == 1:
        return groups.iloc[:, 0].to_numpy(dtype=object)
    out = np.empty(len(groups), dtype=object)
    out[:] = list(groups.itertuples(index=False, name=None))
    return out


def _reference_label(reference):
    return ", ".join(map(str, reference)) if isinstance(reference, tuple) else reference
