"""Subgroup replicates: every group's curve and the overall curve from one draw.

The groups of a :func:`~prroc_numba.disparity` call are laid out as the folds of a
fold plan (:func:`.plan.fold_plan`): per ``by`` stratum and model, the overall curve
(all the stratum's rows) and one curve per group, each sorted once. A replicate draws
the stratum's rows once -- within (group, class) strata by default, over all rows
with ``stratified=False``, Poisson counts keyed by input row, or whole clusters -- and
walks each overall curve once, which gives every group's curve too
(:mod:`prroc_numba._kernels.resample_folds`). Every model reads the same counts
(paired), and the group areas and the overall area of a replicate come from the same
resampled rows. With unweighted 0/1 labels every curve -- overall and per group -- is
walked on its own instead, eight replicates per walk over the same drawn counts
(:mod:`prroc_numba._kernels.resample_blocks`): twice the rows, a third of the time.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .. import _backends
from .. import _schema as S
from .._checks import kernel_seed
from .._core.batch import row_ids
from .._core.dataframes import to_pandas
from .._core.packing import pack
from .._core.resolve import frame_column
from .._warnings import UndefinedMetricWarning
from .design import ClusterArg
from .engine import check_replicates_fit
from .plan import fold_plan
from .subgroup_options import SubgroupOptions


@dataclass(frozen=True)
class SubgroupRuns:
    """The estimates and replicates of every (stratum, curve, model).

    ``curve`` 0 is the overall curve, ``1 + v`` group ``v``; ``est`` is ``(G, 1 + V,
    M)``, ``reps`` ``(G, 1 + V, M, B)``; ``P``, ``N``, ``size``: the class totals and
    rows of every (stratum, curve), ``(G, 1 + V)``.
    """

    strata: pd.DataFrame
    models: list
    groups: pd.DataFrame
    est: np.ndarray
    reps: np.ndarray
    P: np.ndarray
    N: np.ndarray
    size: np.ndarray


def group_codes(d: pd.DataFrame, cols) -> tuple[np.ndarray, pd.DataFrame]:
    """int64 group code of every row (the combinations of ``cols``, sorted) and the
    groups' values (one row per code); a column with missing values is an error.
    """
    for c in cols:
        col = frame_column(d, c, "group")
        n_na = int(col.isna().sum())
        if n_na:
            raise ValueError(
                f"group column {c!r} has {n_na} missing values; every row needs a group. "
                f"Give them one (e.g. df[{c!r}].fillna('missing')) or drop those rows"
            )
    grouped = d.groupby(list(cols), sort=True, observed=True)
    codes = grouped.ngroup().to_numpy().astype(np.int64)
    values = grouped.size().index.to_frame(index=False)
    if len(values) < 2:
        raise ValueError(
            f"group={list(cols)!r} has one group only ({values.iloc[0].to_dict()}); a gap "
            "needs at least two groups"
        )
    return codes, values


def subgroup_replicates(data, o: SubgroupOptions) -> SubgroupRuns:
    """Estimates and replicates of every group's and the overall curve (module doc)."""
    if _backends.wing_for(data) is not None:
        return wing_replicates(data, o)
    names = [*o.group] + ([o.cluster] if isinstance(o.cluster, str) else [])
    d = to_pandas(data, o.score, o.label, o.by, o.weight, *names)
    codes, values = group_codes(d, o.group)
    order = np.argsort(codes, kind="stable")
    batch = pack(
        d.iloc[order].reset_index(drop=True),
        score=o.score,
        label=o.label,
        by=o.by,
        weight=o.weight,
    )
    if batch.multi is not None:
        raise ValueError("disparity takes binary labels; multiclass input is not supported")
    local = row_ids(batch)
    rows = codes[order][local]
    G = batch.group_offsets.size - 1
    stratum = np.repeat(np.arange(G), np.diff(batch.group_offsets))
    if rows.size and ((np.diff(rows) < 0) & (stratum[1:] == stratum[:-1])).any():
        raise RuntimeError("rows lost their group order while packing")  # pragma: no cover
    # label rows keyed by their input row (the Poisson counts and cluster= read it)
    batch = replace(batch, rows=order[local])
    V, M = len(values), batch.n_models
    cluster = None if o.cluster is None else ClusterArg(d, o.cluster)
    plan, size = fold_plan(
        batch,
        rows,
        V,
        o.stratified,
        estimate=(o.code, False),
        within=o.within,
        poisson=o.poisson,
        cluster=cluster,
        # unweighted 0/1 labels: every curve walked on its own, eight replicates a walk
        walk_pooled=o.cluster is not None or o.weight is not None,
    )
    check_replicates_fit(plan.batch, o.n_boot, "disparity")
    reps = plan.run(kernel_seed(o.seed), o.n_boot, False, o.progress, "disparity", code=o.code)
    fb = plan.batch
    cs = np.r_[0.0, np.cumsum(batch.pos)]
    cn = np.r_[0.0, np.cumsum(batch.neg)]
    P = (cs[fb.starts + size] - cs[fb.starts]).reshape(G, 1 + V, M)[:, :, 0]
    N = (cn[fb.starts + size] - cn[fb.starts]).reshape(G, 1 + V, M)[:, :, 0]
    keys = batch.keys
    models = list(keys[S.MODEL].iloc[:M]) if S.MODEL in keys.columns else [None]
    strata = keys.iloc[np.arange(G) * M].drop(columns=[S.MODEL], errors="ignore")
    return SubgroupRuns(
        strata=strata.reset_index(drop=True),
        models=models,
        groups=values,
        est=plan.estimate.reshape(G, 1 + V, M),
        reps=reps.reshape(G, 1 + V, M, o.n_boot),
        P=P,
        N=N,
        size=size.reshape(G, 1 + V, M)[:, :, 0],
    )


def wing_replicates(data, o: SubgroupOptions) -> SubgroupRuns:
    """Dask and Spark input: the Poisson bootstrap on the workers, two runs with one
    seed -- the groups' curves (``by`` and group columns) and the overall curves (``by``
    alone). Each row's count is keyed by (seed, replicate, input row) whatever the
    grouping, so both runs read the same draw, and equal the in-memory replicates.
    """
    wing = _backends.wing_for(data)
    assert wing is not None
    strata = [] if o.by is None else [o.by] if isinstance(o.by, str) else list(o.by)
    inp = {"score": o.score, "label": o.label, "weight": o.weight}
    inp |= {"pos_label": None, "soft_labels": False}
    run = {"curve": o.curve, "code": o.code, "hull": False, "n_boot": o.n_boot}
    run["seed"] = kernel_seed(o.seed)
    if _backends.engine(data) == _backends.SPARK:
        run["row_id"] = o.row_id
    by_g = [*strata, *o.group]
    cg, _, _, est_g, reps_g, _ = wing.replicates(data, by=by_g, **inp, **run)
    co, _, _, est_o, reps_o, _ = wing.replicates(data, by=strata or None, **inp, **run)
    counts = wing.metrics(data, [S.N_POS, S.N_NEG], by=by_g, **inp)
    whole = wing.metrics(data, [S.N_POS, S.N_NEG], by=strata or None, **inp)
    keys_g, keys_o = cg.keys.reset_index(drop=True), co.keys.reset_index(drop=True)
    M = int(keys_o[S.MODEL].nunique()) if S.MODEL in keys_o.columns else 1
    G = len(keys_o) // M
    n_rows = float((whole[S.N_POS] + whole[S.N_NEG]).sum()) / M
    if float((counts[S.N_POS] + counts[S.N_NEG]).sum()) / M < n_rows:
        raise ValueError(
            f"a group column of {list(o.group)!r} has missing values; every row needs a "
            "group. Give them one (e.g. fillna('missing')) or drop those rows"
        )
    values = keys_g[list(o.group)].drop_duplicates().sort_values(list(o.group))
    values = values.reset_index(drop=True)
    if len(values) < 2:
        raise ValueError(f"group={list(o.group)!r} has one group only; a gap needs two")
    stratum = keys_o.iloc[np.arange(G) * M].drop(columns=[S.MODEL], errors="ignore")
    stratum = stratum.reset_index(drop=True)
    # each group curve's (stratum, group) place
    where = keys_g.iloc[np.arange(len(keys_g) // M) * M].reset_index(drop=True)
    g_of = _row_index(where, stratum, strata)
    v_of = _row_index(where, values, list(o.group))
    V, B = len(values), o.n_boot
    est = np.full((G, 1 + V, M), np.nan)
    reps = np.full((G, 1 + V, M, B), np.nan)
    est[:, 0] = est_o.reshape(G, M)
    reps[:, 0] = reps_o.reshape(G, M, B)
    est[g_of, 1 + v_of] = est_g.reshape(-1, M)
    reps[g_of, 1 + v_of] = reps_g.reshape(-1, M, B)
    P, N = np.zeros((G, 1 + V)), np.zeros((G, 1 + V))
    P[:, 0] = whole[S.N_POS].to_numpy()[::M]
    N[:, 0] = whole[S.N_NEG].to_numpy()[::M]
    P[g_of, 1 + v_of] = counts[S.N_POS].to_numpy()[::M]
    N[g_of, 1 + v_of] = counts[S.N_NEG].to_numpy()[::M]
    models = list(keys_o[S.MODEL].iloc[:M]) if S.MODEL in keys_o.columns else [None]
    return SubgroupRuns(
        strata=stratum, models=models, groups=values, est=est, reps=reps, P=P, N=N,
        size=(P + N).astype(np.int64),
    )  # fmt: skip


def _row_index(rows: pd.DataFrame, table: pd.DataFrame, cols) -> np.ndarray:
    """The row of ``table`` holding each row of ``rows`` (on ``cols``; 0 when none)."""
    if not cols:
        return np.zeros(len(rows), dtype=np.int64)
    look = {tuple(r): i for i, r in enumerate(table[cols].itertuples(index=False, name=None))}
    return np.array(
        [look[tuple(r)] for r in rows[cols].itertuples(index=False, name=None)], dtype=np.int64
    )


def warn_undefined_groups(runs: SubgroupRuns, curve: str, stacklevel: int = 4) -> np.ndarray:
    """Mask ``(G, V)`` of the groups without positives (ROC: or without negatives) that
    have rows; warned once, naming them (:class:`~prroc_numba.UndefinedMetricWarning`).
    """
    P, N, size = runs.P[:, 1:], runs.N[:, 1:], runs.size[:, 1:]
    bad = (P <= 0) if curve == "pr" else (P <= 0) | (N <= 0)
    bad &= size > 0
    if bad.any():
        g, v = np.nonzero(bad)
        shown = []
        for gi, vi in zip(g[:5], v[:5]):
            parts = {**runs.groups.iloc[vi].to_dict(), **runs.strata.iloc[gi].to_dict()}
            shown.append(", ".join(f"{k}={_plain(x)!r}" for k, x in parts.items()))
        more = f" and {bad.sum() - 5} more" if bad.sum() > 5 else ""
        what = "no positives" if curve == "pr" else "no positives or no negatives"
        warnings.warn(
            f"AUC-{curve.upper()} is undefined for a group with {what}: its area and gaps "
            f"are NaN for group {'; '.join(shown)}{more}",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    return bad


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v
