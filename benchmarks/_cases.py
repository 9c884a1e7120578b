"""Benchmark data and cases shared by ``compare.py`` and the pytest-benchmark files.

Every case pairs one prroc_numba call with its peer -- what users run today
(a scikit-learn loop; for interpolation a per-curve numpy loop) -- on the same input,
so every figure is a ratio measured in one run. ``CAPABILITIES`` maps a capability to
``build(scale)``, which returns the list of :class:`Case` for the compact grid. The
data builders (``binormal``, ``long_frame``, ...) are the inputs of every benchmark:
``compare.py`` and the pytest-benchmark ``bench_*.py`` files draw from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import prroc_numba as prn

SEED = 20060625  # ICML 2006


# ----------------------------------------------------------------------------- data


def _rows(df, n_curves):
    """The score column of a long frame of equal-size curves as (n_curves, rows)."""
    return np.ascontiguousarray(df["s"].to_numpy().reshape(n_curves, -1))


def binormal(n, *, prevalence=0.05, shift=1.0, n_models=1, decimals=None, seed=SEED):
    """``(y, S)``: labels (int8, ``prevalence`` positives) and ``(n, n_models)`` scores,
    each model binormal with its own separation (``shift`` to ``shift/2``)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(np.int8)
    shifts = np.linspace(shift, shift / 2, n_models)
    S = rng.standard_normal((n, n_models)) + y[:, None] * shifts[None, :]
    if decimals is not None:
        S = np.round(S, decimals)
    return y, S


def wide_frame(n_rows, n_models, *, prevalence=0.1, seed=0):
    """``(frame, models)``: label ``y`` and ``n_models`` score columns ``m000 ...``, each
    normal with its own separation (uniform in [0.2, 2])."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n_rows) < prevalence).astype(np.int8)
    signal = rng.uniform(0.2, 2.0, size=n_models)
    scores = rng.normal(size=(n_rows, n_models)) + y[:, None] * signal[None, :]
    models = [f"m{i:03d}" for i in range(n_models)]
    frame = pd.DataFrame(scores, columns=models)
    frame["y"] = y
    return frame, models


def models_frame(n, n_models, *, prevalence=0.05, seed=0):
    """Label ``y`` and score columns ``m0 ...`` rounded to 6 decimals (ties), each model
    with its own separation (the bootstrap benchmark's data)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(np.int64)
    cols = {
        f"m{i}": np.round(y * rng.uniform(0.5, 2.0) + rng.normal(size=n), 6)
        for i in range(n_models)
    }
    return pd.DataFrame({"y": y, **cols})


def ragged_counts(n_curves, n_points, *, seed=0):
    """``(tp, fp, offsets, frame)``: ragged count curves (origin first, about
    ``n_points`` vertices with strictly increasing TP and FP), and the same as a long
    frame with ``recall`` and ``fpr`` as pr_curve/roc_curve give them."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(n_points - 100, n_points + 101, size=n_curves)
    offsets = np.zeros(n_curves + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    n = int(offsets[-1])
    dtp = rng.integers(1, 4, size=n).astype(float)
    dfp = rng.integers(1, 20, size=n).astype(float)
    starts = offsets[:-1]
    dtp[starts] = 0.0  # each curve starts at the origin
    dfp[starts] = 0.0
    tp = np.cumsum(dtp)
    fp = np.cumsum(dfp)
    # restart the cumulative sums at every curve
    seg = np.repeat(np.arange(n_curves), lengths)
    tp -= tp[starts][seg]
    fp -= fp[starts][seg]
    ends = offsets[1:] - 1  # each curve ends at its (P, N): rates as pr_curve/roc_curve give
    frame = pd.DataFrame(
        {"curve": seg, "tp": tp, "fp": fp, "recall": tp / tp[ends][seg], "fpr": fp / fp[ends][seg]}
    )
    return tp, fp, offsets, frame


def multiclass_probs(n, n_classes, *, seed=0):
    """``(y, P)``: class labels and row-normalised class probabilities (the true class
    boosted)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    P = rng.random((n, n_classes)) + 0.5 * (y[:, None] == np.arange(n_classes))
    P /= P.sum(axis=1, keepdims=True)
    return y, P


def mixed_columns(n, *, n_extra=20, seed=0):
    """Columns of a table with a score ``s``, label ``y``, string group ``g`` and
    ``n_extra`` unused float columns (the dataframe-library benchmark)."""
    rng = np.random.default_rng(seed)
    cols = {
        "s": rng.random(n),
        "y": rng.integers(0, 2, n),
        "g": rng.choice(["a", "b", "c", "d"], n),
    }
    cols.update({f"x{i}": rng.random(n) for i in range(n_extra)})
    return cols


def logistic_frame(n, models, decimals, seed, start=0):
    """Label ``y`` (10% positives) and ``models`` probability columns ``m0 ...``
    (logistic of a binormal score, rounded to ``decimals`` when given); ``start`` picks
    an independent stream for one part of a large table (the Dask benchmark)."""
    rng = np.random.default_rng([seed, start])
    y = (rng.random(n) < 0.1).astype(np.int8)
    cols = {"y": y}
    for m in range(models):
        s = (0.6 + 0.2 * m) * y + rng.normal(size=n)
        p = 1.0 / (1.0 + np.exp(-s))
        cols[f"m{m}"] = p if decimals is None else np.round(p, decimals)
    return pd.DataFrame(cols)


def float_scores(n, n_models=1, prev=0.05, seed=0):
    """``(S, y)``: ``(n, n_models)`` binormal scores rounded to 4 decimals (ties) and
    float64 labels (the GPU benchmark)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prev).astype(np.float64)
    s = np.empty((n, n_models))
    for m in range(n_models):
        s[:, m] = np.round(rng.standard_normal(n) + (1 + 0.1 * m) * y, 4)  # some ties
    return s, y


def long_frame(n_curves, rows_per_curve, *, prevalence=0.05, seed=SEED):
    """A long frame: ``n_curves`` groups ``g`` of ``rows_per_curve`` rows (score ``s``,
    label ``y``), each group with at least one positive and one negative."""
    n = n_curves * rows_per_curve
    y, S = binormal(n, prevalence=prevalence, seed=seed)
    g = np.repeat(np.arange(n_curves, dtype=np.int64), rows_per_curve)
    starts = np.arange(n_curves) * rows_per_curve
    y[starts] = 1
    y[starts + 1] = 0
    return pd.DataFrame({"g": g, "s": S[:, 0], "y": y})


def split_groups(df):
    """Per-curve (y, s) arrays of a long frame (prepared before timing the peer loop)."""
    bounds = np.flatnonzero(np.diff(df["g"].to_numpy())) + 1
    ys = np.split(df["y"].to_numpy(), bounds)
    ss = np.split(df["s"].to_numpy(), bounds)
    return list(zip(ys, ss))


PEER_MAX_CURVES = 1000


def _peer_subset(parts):
    """Per-curve peer loops over more than ``PEER_MAX_CURVES`` curves are timed on the
    first ``PEER_MAX_CURVES`` (same sizes) and scaled up: (parts, scale, note)."""
    if len(parts) <= PEER_MAX_CURVES:
        return parts, 1.0, ""
    scale = len(parts) / PEER_MAX_CURVES
    return (
        parts[:PEER_MAX_CURVES],
        scale,
        (f"; peer loop timed on {PEER_MAX_CURVES:,} of the {len(parts):,} curves x {scale:g}"),
    )


# ---------------------------------------------------------------------------- cases


@dataclass
class Case:
    """One row of the ratio table.

    ``peer_scale``: the peer is timed on a subset (e.g. 20 of B replicates) and its time
    multiplied by this factor -- used only where the peer is a loop of identical,
    independent iterations, and said in ``note``.
    """

    capability: str
    name: str
    ours: Callable
    peer: Callable
    peer_name: str
    floor: Callable | None = None
    repeats: int = 5
    peer_repeats: int | None = None
    peer_warmup: Callable | None = None
    peer_scale: float = 1.0
    peer_fixed: Callable | None = None  # timed too and added unscaled (a one-off step)
    note: str = ""
    extra: dict = field(default_factory=dict)
    check: Callable | None = None  # asserts ours and the peer agree (run once, untimed)
    target: float | None = None  # DESIGN.md's speed-up target for this case, if any
    # the scores our call reads, one row per curve (or 1-D for one curve): compare.py
    # times the floor on them -- np.sort of each row (keys only) and one pass (np.sum)
    scores: np.ndarray | None = None
    sort_target: float | None = None  # our time <= this x the np.sort floor
    sort_floor: bool = True  # False where sorting is not part of the job (interpolation)


def _fmt_n(n):
    e = round(float(np.log10(n)))
    return f"1e{e}" if 10**e == n else f"{n:,}"


# curves: pr_curve + roc_curve vs precision_recall_curve + roc_curve -----------------


def _build_curves(scale=1.0):
    from sklearn.metrics import precision_recall_curve, roc_curve

    cases = []
    for n in [10**3, 10**4, 10**5, 10**6]:
        n = max(int(n * scale), 100)
        y, S = binormal(n)
        s = S[:, 0].copy()

        def ours(s=s, y=y):
            prn.pr_curve(score=s, label=y)
            prn.roc_curve(score=s, label=y)

        def peer(s=s, y=y):
            precision_recall_curve(y, s)
            roc_curve(y, s, drop_intermediate=False)

        cases.append(
            Case(
                "curves",
                f"1 curve, N={_fmt_n(n)}",
                ours,
                peer,
                "sklearn precision_recall_curve + roc_curve",
                floor=lambda s=s: np.argsort(s),
                repeats=25 if n <= 10**4 else (7 if n <= 10**5 else 3),
                note="floor: np.argsort of the same scores (per call; ours makes 2 calls)",
                extra={
                    "single_call": lambda s=s, y=y: prn.pr_curve(score=s, label=y),
                    "floor_target": 1.5 if n == 10**6 else None,
                },
                target=5.0 if n == 10**6 else None,
                scores=s,
            )
        )
    return cases


# auc: wide and long batches vs a loop of average_precision_score + roc_auc_score -----


def _build_auc(scale=1.0):
    from sklearn.metrics import average_precision_score, roc_auc_score

    cases = []
    n = max(int(10**5 * scale), 1000)
    y, S = binormal(n, n_models=100)
    S = np.ascontiguousarray(S)
    cols = [np.ascontiguousarray(S[:, j]) for j in range(S.shape[1])]

    def ours_wide():
        prn.auc(score=S, label=y, curve="pr", method="dg")
        prn.auc(score=S, label=y, curve="roc")

    def peer_wide():
        for c in cols:
            average_precision_score(y, c)
            roc_auc_score(y, c)

    def warm():
        average_precision_score(y[:1000], cols[0][:1000])
        roc_auc_score(y[:1000], cols[0][:1000])

    def check_wide():
        got = prn.auc(score=S[:, :5], label=y, curve="roc")["auc"].to_numpy()
        np.testing.assert_allclose(got, [roc_auc_score(y, c) for c in cols[:5]], rtol=1e-12)
        got = prn.auc(score=S[:, :5], label=y, method="ap")["auc"].to_numpy()
        np.testing.assert_allclose(
            got, [average_precision_score(y, c) for c in cols[:5]], rtol=1e-12
        )

    cases.append(
        Case(
            "auc",
            f"100 models x N={_fmt_n(n)} (wide)",
            ours_wide,
            peer_wide,
            "loop of average_precision_score + roc_auc_score",
            repeats=3,
            peer_repeats=2,
            peer_warmup=warm,
            check=check_wide,
            target=20.0 if n == 10**5 else None,
            scores=np.ascontiguousarray(S.T),
            note="ours: PR by dg + ROC",
        )
    )
    for n_curves, rows in [(1, 10**4), (100, 10**3), (10_000, 100)]:
        df = long_frame(n_curves, max(int(rows * scale), 20))
        parts, peer_scale, note = _peer_subset(split_groups(df))

        def ours_long(df=df):
            prn.auc(df, score="s", label="y", by="g", curve="pr", method="dg")
            prn.auc(df, score="s", label="y", by="g", curve="roc")

        def peer_long(parts=parts):
            for yy, ss in parts:
                average_precision_score(yy, ss)
                roc_auc_score(yy, ss)

        plural = "curve" if n_curves == 1 else "curves"
        cases.append(
            Case(
                "auc",
                f"{n_curves:,} {plural} x {len(df) // n_curves:,} rows (long)",
                ours_long,
                peer_long,
                "loop of average_precision_score + roc_auc_score",
                repeats=3,
                peer_repeats=1 if n_curves >= 1000 else 3,
                peer_warmup=warm,
                peer_scale=peer_scale,
                scores=_rows(df, n_curves),
                note="ours: PR by dg + ROC" + note,
            )
        )
    return cases


# metrics: one metrics() call vs scikit-learn computing the same metrics -------------

METRICS3 = ("auc_pr", "ap", "auc_roc")


def _build_metrics(scale=1.0):
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve, roc_auc_score

    def sk_three(y, s):
        """AUC-PR (the usual trapezoids over precision_recall_curve), AP, ROC AUC."""
        p, r, _ = precision_recall_curve(y, s)
        return auc(r, p), average_precision_score(y, s), roc_auc_score(y, s)

    cases = []
    n = max(int(10**6 * scale), 1000)
    y, S = binormal(n)
    s = S[:, 0].copy()

    def check_one(s=s, y=y):
        got = prn.metrics(score=s, label=y, metrics=METRICS3)
        _, ap, roc = sk_three(y, s)
        np.testing.assert_allclose([got["ap"][0], got["auc_roc"][0]], [ap, roc], rtol=1e-12)

    cases.append(
        Case(
            "metrics",
            f"1 curve, N={_fmt_n(n)}: auc_pr, ap, auc_roc",
            lambda s=s, y=y: prn.metrics(score=s, label=y, metrics=METRICS3),
            lambda s=s, y=y: sk_three(y, s),
            "sklearn precision_recall_curve + auc, average_precision_score, roc_auc_score",
            repeats=5,
            check=check_one,
            scores=s,
            target=10.0 if n == 10**6 else None,
            sort_target=2.5 if n == 10**6 else None,
            note="ours: one call (DG, AP, ROC) from one sort",
        )
    )

    # model probabilities are often float32: the 32-bit sort keys (exact back to float64)
    s32 = s.astype(np.float32)

    def check_f32(s32=s32, y=y):
        got = prn.metrics(score=s32, label=y, metrics=METRICS3)
        _, ap, roc = sk_three(y, s32)
        np.testing.assert_allclose([got["ap"][0], got["auc_roc"][0]], [ap, roc], rtol=1e-12)

    cases.append(
        Case(
            "metrics",
            f"1 curve, N={_fmt_n(n)}, float32 scores: auc_pr, ap, auc_roc",
            lambda s32=s32, y=y: prn.metrics(score=s32, label=y, metrics=METRICS3),
            lambda s32=s32, y=y: sk_three(y, s32),
            "sklearn precision_recall_curve + auc, average_precision_score, roc_auc_score",
            repeats=5,
            check=check_f32,
            scores=s32,
            note="ours: one call (DG, AP, ROC) from one sort; float32 row: floor is np.sort "
            "of the float32 scores",
        )
    )

    n = max(int(10**5 * scale), 1000)
    y, S = binormal(n, n_models=100)
    S = np.ascontiguousarray(S)
    cols = [np.ascontiguousarray(S[:, j]) for j in range(S.shape[1])]

    def peer_wide():
        for c in cols:
            average_precision_score(y, c)
            roc_auc_score(y, c)

    def check_wide():
        got = prn.metrics(score=S[:, :5], label=y, metrics=METRICS3)
        np.testing.assert_allclose(
            got["ap"], [average_precision_score(y, c) for c in cols[:5]], rtol=1e-12
        )
        np.testing.assert_allclose(
            got["auc_roc"], [roc_auc_score(y, c) for c in cols[:5]], rtol=1e-12
        )

    cases.append(
        Case(
            "metrics",
            f"100 models x N={_fmt_n(n)} (wide): auc_pr, ap, auc_roc",
            lambda: prn.metrics(score=S, label=y, metrics=METRICS3),
            peer_wide,
            "loop of average_precision_score + roc_auc_score",
            repeats=3,
            peer_repeats=2,
            peer_warmup=lambda: (
                average_precision_score(y[:1000], cols[0][:1000]),
                roc_auc_score(y[:1000], cols[0][:1000]),
            ),
            check=check_wide,
            scores=np.ascontiguousarray(S.T),
            target=20.0 if n == 10**5 else None,
            note="ours: one call (DG, AP, ROC) from one sort",
        )
    )
    return cases


# hull: roc_curve(hull=True) vs sklearn roc_curve + scipy ConvexHull per curve --------


def _scipy_hull(y, s):
    from scipy.spatial import ConvexHull
    from sklearn.metrics import roc_curve

    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    pts = np.column_stack([np.r_[fpr, 1.0], np.r_[tpr, 0.0]])  # close with (1, 0)
    try:
        return ConvexHull(pts).vertices
    except Exception:  # noqa: BLE001 -- qhull errors on degenerate (collinear) curves
        return np.array([0, len(fpr) - 1])


def _build_hull(scale=1.0):
    cases = []
    for n_curves, rows in [(1, 10**6), (100, 10**4), (10_000, 100)]:
        rows = max(int(rows * scale), 20)
        df = long_frame(n_curves, rows)
        parts, peer_scale, note = _peer_subset(split_groups(df))
        by = "g" if n_curves > 1 else None

        def ours(df=df, by=by):
            prn.roc_curve(df, score="s", label="y", by=by, hull=True)

        def peer(parts=parts):
            for yy, ss in parts:
                _scipy_hull(yy, ss)

        plural = "curve" if n_curves == 1 else "curves"
        cases.append(
            Case(
                "hull",
                f"{n_curves:,} {plural} x {_fmt_n(rows)} rows",
                ours,
                peer,
                "per curve: sklearn roc_curve + scipy ConvexHull",
                repeats=3,
                peer_repeats=1 if n_curves >= 1000 else 3,
                peer_warmup=lambda parts=parts: _scipy_hull(*parts[0]),
                peer_scale=peer_scale,
                note=note.lstrip("; "),
                scores=_rows(df, n_curves),
            )
        )
    return cases


# interpolation: interpolate(points, grid=) vs a per-curve numpy loop -----------------


def _numpy_pr_interp(tp, fp, P, grid):
    """The correct PR interpolation of one curve at recall ``grid`` (the per-curve peer):
    FP linear in TP between the vertices around each recall; at a recall reached by
    several vertices the best (lowest FP); at recall 0 the flat start."""
    rec = tp / P
    i = np.clip(np.searchsorted(rec, grid, side="left"), 1, tp.size - 1)  # first rec >= r
    t = grid * P
    t0, t1, f0, f1 = tp[i - 1], tp[i], fp[i - 1], fp[i]
    exact = rec[i] == grid
    with np.errstate(invalid="ignore", divide="ignore"):
        f = f0 + (f1 - f0) * (t - t0) / (t1 - t0)
        prec = np.where(exact, t1 / (t1 + f1), t / (t + f))
    j = np.argmax(tp > 0)
    prec[grid == 0] = 0.0 if fp[j - 1] > 0 else tp[j] / (tp[j] + fp[j])
    return prec


def _build_interpolate(scale=1.0):
    grid = np.linspace(0, 1, 101)
    cases = []
    for n_curves, rows in [(1, 10**5), (1000, 1000), (10_000, 100)]:
        rows = max(int(rows * scale), 20)
        df = long_frame(n_curves, rows)
        pts = prn.pr_curve(df, score="s", label="y", by="g")

        def ours(pts=pts):
            prn.interpolate(pts, grid=grid, by="g")

        def peer(pts=pts):
            # what one writes today: loop over the frame's curves, numpy inside
            out = []
            for _, sub in pts.groupby("g", sort=False):
                tp, fp = sub["tp"].to_numpy(), sub["fp"].to_numpy()
                out.append(_numpy_pr_interp(tp, fp, tp[-1], grid))
            return np.concatenate(out)

        def check(pts=pts, peer=peer):
            ours = prn.interpolate(pts, grid=grid, by="g")["precision"].to_numpy()
            np.testing.assert_allclose(ours, peer(), rtol=1e-12, atol=1e-12)

        plural = "curve" if n_curves == 1 else "curves"
        cases.append(
            Case(
                "interpolation",
                f"{n_curves:,} {plural} x {_fmt_n(rows)} rows, 101-point grid",
                ours,
                peer,
                "per-curve numpy loop over the frame's groups (np.interp of FP at TP = recall*P)",
                repeats=3,
                scores=pts["tp"].to_numpy(),
                sort_floor=False,
                note="both start from the same pr_curve frame; results checked equal",
                check=check,
            )
        )
    return cases + _build_interpolate_large(scale)


def _np_interp_pr(tp, fp, grid):
    """One curve's precision at recall ``grid`` by ``np.interp`` (the per-curve peer of
    the large interpolation rows): FP linear in TP (so in recall) between vertices,
    compared in recall as the count interpolation does; interpolating on the reversed
    points makes a recall reached by several vertices give its lowest FP; at recall 0
    the flat start."""
    P = tp[-1]
    t = grid * P
    f = np.interp(-grid, -(tp / P)[::-1], fp[::-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = t / (t + f)
    j = np.argmax(tp > 0)
    prec[grid == 0] = 0.0 if fp[j - 1] > 0 else tp[j] / (tp[j] + fp[j])
    return prec


def _build_interpolate_large(scale=1.0):
    """Issue 10: 10,000 curves x ~1,000 points onto 1,001 recalls, both the tidy frame
    (``interpolate``) and the matrix (``interpolate_matrix``), against a per-curve
    ``np.interp`` loop over the same pr_curve frame (curves split where the key changes,
    with numpy; the tidy row's peer builds the same frame with ``np.repeat``/``np.tile``)."""
    n_curves, rows = 10_000, max(int(1000 * scale), 20)
    grid = np.linspace(0, 1, 1001)
    pts = prn.pr_curve(long_frame(n_curves, rows), score="s", label="y", by="g")

    def loop(pts=pts):
        g = pts["g"].to_numpy()
        tp, fp = pts["tp"].to_numpy(), pts["fp"].to_numpy()
        cut = np.concatenate(([0], np.flatnonzero(g[1:] != g[:-1]) + 1, [g.size]))
        mat = np.empty((cut.size - 1, grid.size))
        for c in range(cut.size - 1):
            lo, hi = cut[c], cut[c + 1]
            mat[c] = _np_interp_pr(tp[lo:hi], fp[lo:hi], grid)
        return g[cut[:-1]], mat

    def loop_frame():
        keys, mat = loop()
        return pd.DataFrame(
            {
                "g": np.repeat(keys, grid.size),
                "recall": np.tile(grid, keys.size),
                "precision": mat.ravel(),
            },
            copy=False,
        )

    def check():
        want = loop_frame()
        got = prn.interpolate(pts, grid=grid, by="g")
        pd.testing.assert_frame_equal(got, want, rtol=1e-12, atol=1e-12)
        keys, mat = prn.interpolate_matrix(pts, grid=grid, by="g")
        np.testing.assert_array_equal(keys["g"].to_numpy(), want["g"].to_numpy()[:: grid.size])
        np.testing.assert_array_equal(mat.ravel(), got["precision"].to_numpy())

    name = f"{n_curves:,} curves x {_fmt_n(rows)} points, 1,001-point grid"
    peer = "per-curve np.interp loop over the frame's curves"
    common = dict(repeats=3, scores=pts["tp"].to_numpy(), sort_floor=False)
    return [
        Case(
            "interpolation",
            f"{name}: interpolate (tidy frame)",
            lambda: prn.interpolate(pts, grid=grid, by="g"),
            loop_frame,
            peer + " + the same tidy frame (np.repeat/np.tile)",
            note=(
                "large rows: ours and the peer start from the same pr_curve "
                "frame; results checked equal"
            ),
            check=check,
            target=2.0,
            **common,
        ),
        Case(
            "interpolation",
            f"{name}: interpolate_matrix",
            lambda: prn.interpolate_matrix(pts, grid=grid, by="g"),
            loop,
            peer + " into a matrix",
            note=(
                "large rows: ours and the peer start from the same pr_curve "
                "frame; results checked equal"
            ),
            target=4.0,
            **common,
        ),
    ]


# bootstrap: bootstrap(n_boot=1000) vs a scikit-learn loop over resamples -------------


def _stratified_indices(rng, pos_idx, neg_idx):
    return np.concatenate([rng.choice(pos_idx, pos_idx.size), rng.choice(neg_idx, neg_idx.size)])


def _sklearn_boot(y, cols, n_rep, seed=0):
    """The peer: ``n_rep`` stratified resamples, AUC-PR (AP) of every model on each
    (paired: all models see the same rows)."""
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(seed)
    pos_idx, neg_idx = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    out = np.empty((n_rep, len(cols)))
    for b in range(n_rep):
        idx = _stratified_indices(rng, pos_idx, neg_idx)
        yb = y[idx]
        for j, c in enumerate(cols):
            out[b, j] = average_precision_score(yb, c[idx])
    return out


def _numpy_boot(y, cols, n_rep, seed=0, orders=None):
    """The floor: a presorted numpy loop. Each model sorted once (``orders``: those
    sorts, made by the caller, who times them once); per replicate one stratified
    draw, ``np.bincount`` row counts, then per model the counts in sorted order,
    cumulative TP/FP sums and AP from them (no ties handling: the benchmark's scores
    are continuous)."""
    rng = np.random.default_rng(seed)
    pos_idx, neg_idx = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    if orders is None:
        orders = _numpy_orders(cols)
    ys = [y[o].astype(np.float64) for o in orders]
    out = np.empty((n_rep, len(cols)))
    for b in range(n_rep):
        cnt = np.bincount(_stratified_indices(rng, pos_idx, neg_idx), minlength=y.size)
        for j, o in enumerate(orders):
            c = cnt[o]
            tpc = c * ys[j]
            tp = np.cumsum(tpc)
            fp = np.cumsum(c - tpc)
            prec = tp / np.maximum(tp + fp, 1)
            out[b, j] = np.dot(tpc, prec) / tp[-1]
    return out


def _numpy_orders(cols):
    """Each model's descending order (the presorted loop's one sort per model)."""
    return [np.argsort(-c, kind="stable") for c in cols]


def _build_bootstrap(scale=1.0, capability="bootstrap"):
    n = max(int(10**5 * scale), 1000)
    n_boot, n_peer = 1000, 10
    cases = []
    for n_models in [1, 10]:
        y, S = binormal(n, n_models=n_models)
        cols = [np.ascontiguousarray(S[:, j]) for j in range(n_models)]
        frame = pd.DataFrame({f"m{j}": c for j, c in enumerate(cols)})
        frame["y"] = y
        score = [f"m{j}" for j in range(n_models)] if n_models > 1 else "m0"
        if capability == "bootstrap":
            # paired: the peers' estimator (AP); one model: the default (dg), the row the
            # compiled-kernel table and portable_speed.py time
            method = "ap" if n_models > 1 else "dg"

            def ours(frame=frame, score=score, method=method):
                prn.bootstrap(frame, score=score, label="y", n_boot=n_boot, seed=1, method=method)

            what = "paired " if n_models > 1 else ""
            name = (
                f"{n_models} model{'s' if n_models > 1 else ''} {what}x N={_fmt_n(n)}, B={n_boot}"
            )
        else:
            if n_models < 2:
                continue

            def ours(frame=frame, score=score):
                prn.compare(frame, score=score, label="y", n_boot=n_boot, seed=1)

            name = f"{n_models} models, all pairs, N={_fmt_n(n)}, B={n_boot}"

        def peer(y=y, cols=cols):
            _sklearn_boot(y, cols, n_peer)

        cases.append(
            Case(
                capability,
                name,
                ours,
                peer,
                "loop: stratified resample + average_precision_score per model",
                repeats=2,
                peer_repeats=2,
                peer_scale=n_boot / n_peer,
                target=150.0 if (capability == "bootstrap" and n == 10**5) else None,
                peer_warmup=lambda y=y, cols=cols: _sklearn_boot(
                    y[:2000], [c[:2000] for c in cols[:1]], 1
                ),
                scores=np.ascontiguousarray(S.T),
                note=f"peer timed on {n_peer} resamples x {n_boot // n_peer} "
                "(a loop of identical iterations); ours: "
                + (
                    "ap (the peer's estimator)"
                    if capability == "bootstrap" and n_models > 1
                    else "dg"
                ),
            )
        )
        if capability == "bootstrap" and n_models > 1:
            orders = _numpy_orders(cols)

            def floor_peer(y=y, cols=cols, orders=orders):
                _numpy_boot(y, cols, n_peer, orders=orders)

            def floor_sorts(cols=cols):
                _numpy_orders(cols)

            cases.append(
                Case(
                    capability,
                    name + " vs numpy",
                    ours,
                    floor_peer,
                    "presorted numpy loop: sort once, np.bincount counts per replicate, "
                    "cumulative sums (AP)",
                    repeats=2,
                    peer_repeats=2,
                    peer_scale=n_boot / n_peer,
                    peer_fixed=floor_sorts,
                    target=10.0 if n == 10**5 else None,
                    scores=np.ascontiguousarray(S.T),
                    note=f"numpy floor: its sorts once + {n_peer} resamples x "
                    f"{n_boot // n_peer}; ours: ap",
                )
            )
    return cases


def _build_bands(scale=1.0):
    """ROC, simultaneous and cross-validation bands against today's PR band
    (``bootstrap_curve`` with its defaults) on the same input: ``speed-up`` is the PR
    band's time over the new call's (>= 1 / 1.5 is the target: at most 1.5x slower).
    """
    n = max(int(10**5 * scale), 1000)
    n_models, n_boot = 5, 200
    y, S = binormal(n, n_models=n_models)
    frame = pd.DataFrame({f"m{j}": S[:, j] for j in range(n_models)})
    frame["y"] = y
    frame["fold"] = np.random.default_rng(SEED).integers(0, 5, n)
    score = [f"m{j}" for j in range(n_models)]
    kw = dict(score=score, label="y", n_boot=n_boot, seed=1, progress=False)

    def today():
        prn.bootstrap_curve(frame, **kw)

    cases = []
    for name, extra in [
        ("ROC band (TPR at FPR)", dict(curve="roc")),
        ("PR simultaneous band", dict(band="simultaneous")),
        ("ROC simultaneous band", dict(curve="roc", band="simultaneous")),
        ("PR bands, 5 folds + mean + pooled", dict(fold="fold")),
    ]:

        def ours(extra=extra):
            prn.bootstrap_curve(frame, **kw, **extra)

        cases.append(
            Case(
                "bands",
                f"{name}, {n_models} models, N={_fmt_n(n)}, B={n_boot}",
                ours,
                today,
                "bootstrap_curve: today's pointwise PR band, same input and B",
                repeats=2,
                target=1 / 1.5,
                scores=np.ascontiguousarray(S.T),
                note="fold=: one draw per replicate; one walk per pooled curve gives its "
                "folds' curves too"
                if "fold" in extra
                else "",
            )
        )
    return cases


CAPABILITIES = {
    "curves": _build_curves,
    "auc": _build_auc,
    "metrics": _build_metrics,
    "hull": _build_hull,
    "interpolation": _build_interpolate,
    "bootstrap": _build_bootstrap,
    "compare": lambda scale=1.0: _build_bootstrap(scale, "compare"),
    "bands": _build_bands,
}
