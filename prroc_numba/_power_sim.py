"""Power and sample size by simulation (:func:`prroc_numba.power` for any area).

Samples are drawn from pilot scores (rows resampled within each class) or from a
binormal model, as **common random numbers**: simulation ``s`` of every candidate size
takes the first ``n_pos`` positives and the first ``n_neg`` negatives of one stream of
draws, so a larger sample extends a smaller one and the simulated power rises with the
size as the true power does, instead of jittering by independent noise at each size.

Every candidate size and simulation goes through one :func:`prroc_numba.bootstrap`
(one model against a value) or :func:`prroc_numba.compare` (two paired models) call with
``by=`` the size and the simulation; the power is the share of simulations whose test
rejects. :func:`solve_size` brackets the smallest size whose simulated power reaches the
target (doubling, then narrowing the bracket a few sizes per call).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from . import _schema as S
from ._checks import PR_METHODS, ROC_METHODS, check_n_boot
from ._core.packing import pack

_BINORMAL_KEYS = ("A1", "B1", "A2", "B2", "rn", "ra")
#: the most simulated rows one bootstrap call of the search may hold
MAX_ROWS = 40_000_000
#: sizes evaluated per call while the bracket narrows
PER_CALL = 4


def _binormal_sampler(binormal):
    two = all(k in binormal for k in ("A2", "B2"))
    need = _BINORMAL_KEYS if two else ("A1", "B1")
    missing = [k for k in need if k not in binormal]
    if missing:
        raise ValueError(
            f"binormal= lacks {missing}: one model needs A1, B1; two need {list(_BINORMAL_KEYS)}"
        )
    m = 2 if two else 1
    a = np.array([binormal["A1"], binormal.get("A2", 0.0)][:m], dtype=float)
    b = np.array([binormal["B1"], binormal.get("B2", 1.0)][:m], dtype=float)
    rn, ra = float(binormal.get("rn", 0.0)), float(binormal.get("ra", 0.0))

    def corr(rng, n_sim, k, r):
        z = rng.standard_normal((n_sim, k, m))
        if m == 2:
            z[..., 1] = r * z[..., 0] + math.sqrt(1.0 - r * r) * z[..., 1]
        return z

    def draw_pos(rng, n_sim, k):
        return a / b + corr(rng, n_sim, k, ra) / b

    def draw_neg(rng, n_sim, k):
        return corr(rng, n_sim, k, rn)

    return draw_pos, draw_neg, m, None


def _data_sampler(data, score, label, pos_label):
    if score is None or label is None:
        raise ValueError(
            "simulated power() needs pilot data (data=, score=, label=) or binormal= "
            "(with prevalence=)"
        )
    batch = pack(data, score=score, label=label, pos_label=pos_label)
    if batch.group_offsets.size != 2 or batch.n_models > 2:
        raise ValueError("power() from data takes one or two score columns and no by=")
    if not np.all((batch.pos == 0) | (batch.pos == 1)):
        raise ValueError("simulated power() needs hard 0/1 labels in the pilot data")
    m = batch.n_models
    n = batch.group_offsets[1]
    vals = batch.values[: batch.offsets[m]].reshape(m, n).T  # row order, one column a model
    y = batch.pos[:n] == 1
    pos_rows, neg_rows = vals[y], vals[~y]
    if pos_rows.shape[0] < 2 or neg_rows.shape[0] < 2:
        raise ValueError("the pilot data need at least two positives and two negatives")

    def draw_pos(rng, n_sim, k):
        return pos_rows[rng.integers(0, pos_rows.shape[0], size=(n_sim, k))]

    def draw_neg(rng, n_sim, k):
        return neg_rows[rng.integers(0, neg_rows.shape[0], size=(n_sim, k))]

    return draw_pos, draw_neg, m, float(y.mean())


class Draws:
    """Common random numbers: simulation ``s`` of size ``(n_pos, n_neg)`` is the first
    ``n_pos`` positives and ``n_neg`` negatives of its stream, extended on demand (never
    redrawn), so every size sees a prefix of the same samples, whatever the order in
    which sizes are asked for.
    """

    def __init__(self, draw_pos, draw_neg, m, n_sim, seed):
        pos_seed, neg_seed = np.random.SeedSequence(seed).spawn(2)
        self._rng = (np.random.default_rng(pos_seed), np.random.default_rng(neg_seed))
        self._draw = (draw_pos, draw_neg)
        self._cache = [np.empty((n_sim, 0, m)), np.empty((n_sim, 0, m))]
        self.n_sim, self.m = n_sim, m

    def _take(self, side, k):
        have = self._cache[side]
        while have.shape[1] < k:
            # blocks of fixed sizes (16, 16, 32, 64, ...) in a fixed order: the stream
            # is the same whatever sizes were asked for first
            more = self._draw[side](self._rng[side], self.n_sim, max(16, have.shape[1]))
            self._cache[side] = have = np.concatenate([have, more], axis=1)
        return have[:, :k]

    def sample(self, n_pos, n_neg):
        """Scores of shape (n_sim, n_pos + n_neg, M), positives first."""
        return np.concatenate([self._take(0, n_pos), self._take(1, n_neg)], axis=1)


def class_counts(size, prevalence):
    """(n_pos, n_neg) of a sample of ``size`` rows: ``round(size * prevalence)``
    positives, at least one of each class.
    """
    n_pos = int(min(max(round(size * prevalence), 1), size - 1))
    return n_pos, int(size - n_pos)


class Simulation:
    """The simulated power of one design at any list of candidate sizes."""

    def __init__(self, *, draws, prevalence, test):
        self.draws, self.prevalence, self.test = draws, prevalence, test
        self.seen: dict[int, float] = {}

    def power(self, sizes):
        """Simulated power at each size (one bootstrap/compare call for them all)."""
        sizes = [int(s) for s in sizes]
        n_sim, m = self.draws.n_sim, self.draws.m
        rows = n_sim * sum(sizes)
        if rows > MAX_ROWS:
            raise ValueError(
                f"simulating sizes up to {max(sizes)} with n_sim={n_sim} needs {rows:,} "
                f"rows at once (at most {MAX_ROWS:,}); lower n_sim=, or the target power=, "
                "or check that the effect is large enough to detect"
            )
        frames = []
        for size in sizes:
            n_pos, n_neg = class_counts(size, self.prevalence)
            sc = self.draws.sample(n_pos, n_neg).reshape(-1, m)
            cols = {"_n": np.full(sc.shape[0], size), "_sim": np.repeat(np.arange(n_sim), size)}
            cols.update({f"_s{j}": sc[:, j] for j in range(m)})
            cols["_y"] = np.tile(np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)], n_sim)
            frames.append(pd.DataFrame(cols))
        reject = self.test(pd.concat(frames, ignore_index=True), m)
        rate = reject.groupby(level=0).mean().reindex(sizes).to_numpy()
        self.seen.update(zip(sizes, rate.tolist()))
        return rate


def make_test(*, curve, method, hull, partial, n_boot, seed, sig_level, alternative, null):
    """The test of the simulated samples: -> a rejection per sample, indexed by size."""
    from .comparison import compare
    from .resampling import bootstrap

    args = dict(
        label="_y",
        by=["_n", "_sim"],
        curve=curve,
        method=method,
        hull=hull,
        partial=partial,
        n_boot=n_boot,
        stratified=True,
        seed=seed,
    )
    one_sided = alternative == "one-sided"

    def test(sim, m):
        if m == 1:
            res = bootstrap(sim, score="_s0", level=1 - (2 if one_sided else 1) * sig_level, **args)
            above = res[S.CI_LOW].to_numpy() > null
            below = res[S.CI_HIGH].to_numpy() < null
            reject = above if one_sided else above | below
        else:
            res = compare(sim, score=["_s0", "_s1"], adjust="none", **args)
            p = res[S.P_VALUE].to_numpy()
            d = res[S.DIFF].to_numpy()
            reject = (p / 2 < sig_level) & (d > 0) if one_sided else p < sig_level
        return pd.Series(reject, index=res["_n"].to_numpy())

    return test


@dataclass(frozen=True)
class Design:
    """The simulation options of :func:`~prroc_numba.power`, as it names them: where the
    rows come from (``data``, ``score``, ``label``, ``pos_label`` or ``binormal``), the
    ``prevalence``, the ``null`` value, ``n_sim``, the test (``n_boot``, ``seed``,
    ``sig_level``, ``alternative``) and the area (``curve``, ``method``, ``hull``,
    ``partial``).
    """

    data: Any
    score: Any
    label: Any
    binormal: Any
    prevalence: float | None
    null: float | None
    n_sim: int
    n_boot: int
    seed: int | None
    sig_level: float
    alternative: str
    curve: str
    method: str | None
    hull: bool
    partial: tuple[float, float] | None
    pos_label: Any


def simulation(opts: Design):
    """The :class:`Simulation` of a call's design, its arguments checked."""
    n_sim, n_boot, binormal, prevalence = opts.n_sim, opts.n_boot, opts.binormal, opts.prevalence
    null, curve, partial = opts.null, opts.curve, opts.partial
    check_n_boot(n_boot)
    if isinstance(n_sim, bool) or not isinstance(n_sim, (int, np.integer)) or n_sim < 1:
        raise ValueError(f"n_sim={n_sim!r} must be a positive integer")
    if binormal is not None:
        if opts.data is not None or opts.score is not None:
            raise ValueError("power() simulates from binormal= or from data, not both")
        draw_pos, draw_neg, m, pilot_prev = _binormal_sampler(binormal)
    else:
        draw_pos, draw_neg, m, pilot_prev = _data_sampler(
            opts.data, opts.score, opts.label, opts.pos_label
        )
    if prevalence is None:
        if pilot_prev is None:
            raise ValueError(
                "simulating from binormal= needs prevalence= (the share of positives), "
                "or kappa= (negatives per positive)"
            )
        prevalence = pilot_prev
    if not (isinstance(prevalence, (int, float, np.floating)) and 0.0 < prevalence < 1.0):
        raise ValueError(f"prevalence={prevalence!r} must be a number in (0, 1)")
    if m == 1 and null is None:
        if partial is not None:
            raise ValueError(
                "one model's partial area has no default null value: pass null= (the "
                "partial area the model must beat)"
            )
        null = 0.5 if curve == "roc" else prevalence
    test = make_test(
        curve=curve,
        method=opts.method,
        hull=opts.hull,
        partial=partial,
        n_boot=n_boot,
        seed=opts.seed,
        sig_level=opts.sig_level,
        alternative=opts.alternative,
        null=null,
    )
    draws = Draws(draw_pos, draw_neg, m, n_sim, opts.seed)
    return Simulation(draws=draws, prevalence=float(prevalence), test=test)


def smallest_size(prevalence):
    """The smallest total size with at least two positives and two negatives."""
    return max(4, math.ceil(2.0 / prevalence), math.ceil(2.0 / (1.0 - prevalence)))


def _bracket(sim, target, start):
    """(lo, hi): sizes whose simulated power is below / at least ``target``, by
    doubling from ``start`` (``lo`` is None when ``start`` reaches it already).
    """
    lo, size = None, start
    while True:
        sizes = [size * 2**k for k in range(PER_CALL)]
        for s, p in zip(sizes, sim.power(sizes)):
            if p >= target:
                return lo, s
            lo = s
        size = sizes[-1] * 2


def _narrow(sim, target, lo, hi, history):
    """Narrow ``lo < hi`` (power(lo) < target <= power(hi)) to adjacent sizes,
    ``PER_CALL`` interior sizes per call; records each bracket in ``history``.
    """
    while hi - lo > 1:
        inner = np.unique(np.round(np.linspace(lo, hi, PER_CALL + 2)[1:-1]).astype(np.int64))
        inner = [int(s) for s in inner if lo < s < hi]
        sim.power(inner)
        hi = min(s for s in [*inner, hi] if sim.seen[s] >= target)
        lo = max(s for s in [lo, *inner] if s < hi)
        history.append((lo, hi))
    return lo, hi


def solve_size(sim, target):
    """The smallest total size whose simulated power reaches ``target``.

    Returns (n, n_below, n_se): the size, the size one below it (None when ``n`` is the
    smallest size that can be drawn), and the Monte Carlo standard error of ``n``: the
    standard error of a simulated power at the target, ``sqrt(t (1 - t) / n_sim)``,
    divided by the power curve's slope there (measured over the narrowest bracket at
    least a tenth of ``n`` wide, so that the slope is above the simulation noise).
    """
    start = smallest_size(sim.prevalence)
    lo, hi = _bracket(sim, target, start)
    if lo is None:
        return hi, None, math.nan
    history = [(lo, hi)]
    lo, hi = _narrow(sim, target, lo, hi, history)
    wide = [(a, b) for a, b in history if b - a >= max(hi / 10.0, 1.0)]
    a, b = wide[-1] if wide else history[0]
    slope = (sim.seen[b] - sim.seen[a]) / (b - a)
    se_p = math.sqrt(target * (1.0 - target) / sim.draws.n_sim)
    n_se = se_p / slope if slope > 0 else math.inf
    return hi, lo, n_se


def check_method(curve, method):
    """``method`` names an area of ``curve``; a PR method with the ROC curve says to
    pass ``curve="pr"`` rather than being ignored.
    """
    if method is None:
        return
    table = PR_METHODS if curve == "pr" else ROC_METHODS
    if method in table:
        return
    if curve == "roc" and method in PR_METHODS:
        raise ValueError(
            f"method={method!r} is an area under the PR curve, but curve='roc' (the "
            "default) was asked for: pass curve='pr' as well (the PR area's power is "
            "simulated from pilot data or binormal= with prevalence=)"
        )
    raise ValueError(
        f"method={method!r} is not an AUC method for curve={curve!r}; use one of {sorted(table)}"
    )


def check_sizes(n):
    sizes = np.atleast_1d(np.asarray(n))
    if sizes.ndim != 1 or sizes.size == 0 or not np.all((sizes >= 4) & (sizes % 1 == 0)):
        raise ValueError(f"n={n!r} must be a list of whole candidate sample sizes >= 4")
    return sizes.astype(np.int64)


def simulation_prevalence(*, n, auc, diff, n_pos, n_neg, kappa, target, what, prevalence):
    """The simulated call's arguments: what the closed forms take and simulation cannot
    use gets an error that says what to pass instead. Returns ``prevalence``.
    """
    if auc is not None or diff is not None:
        raise ValueError(
            f"auc= / diff= do not determine {what}'s sampling distribution, so its power is "
            "simulated: pass pilot data (data=, score=, label=) or binormal= (with "
            "prevalence=) instead of auc= / diff="
        )
    if kappa is not None:
        if prevalence is not None:
            raise ValueError("pass prevalence= or kappa= (n_neg / n_pos), not both")
        prevalence = 1.0 / (1.0 + float(kappa))
    if n is not None:
        if n_pos is not None or n_neg is not None or target is not None:
            raise ValueError(
                "n= lists the total sample sizes to simulate the power at: drop "
                "n_pos= / n_neg= (prevalence= or kappa= sets the classes' shares) and "
                "power= (without n=, power= solves the sample size)"
            )
        return prevalence
    if target is None:
        raise ValueError(
            f"the power of {what} is simulated: pass n=[...] (candidate total sample "
            "sizes) for the power at each, or power= (a target) for the smallest sample "
            "size that reaches it"
        )
    if n_pos is not None or n_neg is not None:
        raise ValueError(
            f"power= with {what} solves the sample size by simulation; the detectable "
            "difference at given n_pos= / n_neg= has a closed form for the full ROC "
            "area only: drop n_pos= / n_neg=, or pass n=[n_pos + n_neg] for the power at "
            "that size"
        )
    return prevalence
