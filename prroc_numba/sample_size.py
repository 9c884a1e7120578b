"""Power and sample size of AUC tests (:func:`power`).

ROC AUC: the closed-form normal approximations of Obuchowski & McClish (1997) and
Obuchowski, Lieber & Powell (2004) that pROC's ``power.roc.test`` uses -- one curve
against AUC 0.5, two paired curves from data (DeLong's covariance), and two curves of a
binormal model (paired through the correlations ``rn``/``ra``, or unpaired with both
0), for full or partial areas. Any one of the sample size, the power and the AUC (or
difference) is solved from the others.

Every other area (PR AUC with every estimator, partial areas from data): power by
simulation. Samples of each candidate size are drawn from pilot scores (or a binormal
model with a given prevalence), all candidate sizes and simulations go through one
:func:`prroc_numba.bootstrap` (one model against a value) or
:func:`prroc_numba.compare` (two paired models) call with ``by=`` the simulation, and
the power is the share of simulations whose test rejects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
from statistics import NormalDist

import numpy as np
import pandas as pd

from . import _schema as S
from ._checks import check_n_boot
from ._core.pack import pack

__all__ = ["power"]

_NORM = NormalDist()
ALTERNATIVES = ("two-sided", "one-sided")
_BINORMAL_KEYS = ("A1", "B1", "A2", "B2", "rn", "ra")
_SIM_ARGS = frozenset(
    "data score label binormal n prevalence null n_sim n_boot seed sig_level alternative "
    "curve method hull partial pos_label".split()
)


def _qnorm(p):
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return _NORM.inv_cdf(p)


def _pnorm(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# ------------------------------------------------------------ Obuchowski formulas


def _var_theta(theta, kappa):
    """Variance function of one AUC (Obuchowski 1994, binormal with B = 1), as pROC."""
    a = _qnorm(theta) * 1.414
    return 0.0099 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _v0_one(kappa):
    """Variance function of one AUC under the null hypothesis AUC = 0.5."""
    return 0.0792 * (1.0 + 1.0 / kappa)


def _f_g(a, b, fpr):
    """Obuchowski & McClish (1997) f and g of the binormal area (full, or partial on
    ``fpr = (lo, hi)``).
    """
    e1 = math.exp(-a * a / (2.0 * (1.0 + b * b)))
    e2 = 1.0 + b * b
    if fpr is None:
        return e1 / math.sqrt(2.0 * math.pi * e2), -e1 * a * b / math.sqrt(2.0 * math.pi * e2**3)
    c = [(_qnorm(t) + a * b / e2) * math.sqrt(e2) for t in fpr]
    e3 = _pnorm(c[0]) - _pnorm(c[1])
    e4 = math.exp(-c[0] * c[0] / 2.0) - math.exp(-c[1] * c[1] / 2.0)
    f = e1 / math.sqrt(2.0 * math.pi * e2) * e3
    g = e1 / (2.0 * math.pi * e2) * (-e4) - a * b * e1 / math.sqrt(2.0 * math.pi * e2**3) * e3
    return f, g


def _binormal_v0_va(p, kappa, fpr):
    """(v0, va): variance functions of the difference of two binormal areas."""
    a1, b1, a2, b2, rn, ra = (float(p[k]) for k in _BINORMAL_KEYS)
    f1, g1 = _f_g(a1, b1, fpr)
    f2, g2 = _f_g(a2, b2, fpr)

    def var(f, g, a, b):
        return f * f * (1 + b * b / kappa + a * a / 2) + g * g * b * b * (1 + kappa) / (2 * kappa)

    v1, v2 = var(f1, g1, a1, b1), var(f2, g2, a2, b2)
    cov = (
        f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2)
        + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2 * kappa))
        + f1 * g2 * (ra * ra * a1 * b2 / 2)
        + f2 * g1 * (ra * ra * a2 * b1 / 2)
    )
    return 2 * v1 - 2 * cov, v1 + v2 - 2 * cov


def _solve_n(za, zb, v0, va, delta):
    return (za * math.sqrt(v0) + zb * math.sqrt(va)) ** 2 / delta**2


def _solve_zbeta(n, za, v0, va, delta):
    return (math.sqrt(n * delta * delta) - za * math.sqrt(v0)) / math.sqrt(va)


def _bisect(f, lo, hi):
    """The root of an increasing-then-sign-changing ``f`` on [lo, hi], to rounding."""
    flo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        fm = f(mid)
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


# ------------------------------------------------------------------- checks


def _check_prob(name, x):
    if x is not None and not (isinstance(x, (int, float, np.floating)) and 0.0 < x < 1.0):
        raise ValueError(f"{name}={x!r} must be a number in (0, 1)")


def _check_count(name, x):
    if x is not None and not (isinstance(x, (int, float, np.integer, np.floating)) and x > 0):
        raise ValueError(f"{name}={x!r} must be a positive number of rows")


def _counts(n_pos, n_neg, kappa):
    """(n_pos, n_neg, kappa) with the missing count filled from ``kappa``."""
    if n_pos is not None and n_neg is None and kappa is not None:
        n_neg = kappa * n_pos
    elif n_neg is not None and n_pos is None and kappa is not None:
        n_pos = n_neg / kappa
    return n_pos, n_neg


def _row(res, common):
    """The one-row result frame: the numbers, then the test, then what was solved."""
    res = dict(res)
    solved = res.pop(S.SOLVED)
    cols = {**res, **common, S.SOLVED: solved}
    return pd.DataFrame({k: [np.nan if v is None else v] for k, v in cols.items()})


def _roc_numeric(auc, n_pos, n_neg, kappa, power_, za):
    """One curve against AUC 0.5 from numbers: solve what is None."""
    n_pos, n_neg = _counts(n_pos, n_neg, 1.0 if kappa is None else kappa)
    given = {"auc": auc is not None, "n_pos": n_pos is not None, "power": power_ is not None}
    if sum(given.values()) != 2:
        raise ValueError(
            "power() for one ROC curve solves exactly one of auc=, the sample size "
            "(n_pos= and n_neg=, or one of them with kappa=) and power=: leave exactly "
            f"one of them None (given: {[k for k, v in given.items() if v]})"
        )
    if auc is not None and not 0.5 < auc < 1.0:
        raise ValueError(f"auc={auc!r} must be in (0.5, 1) for a test against AUC 0.5")
    if power_ is None:
        k = n_neg / n_pos
        zb = _solve_zbeta(n_pos, za, _v0_one(k), _var_theta(auc, k), auc - 0.5)
        power_ = _pnorm(zb)
        solved = S.POWER
    elif n_pos is None:
        k = 1.0 if kappa is None else kappa
        zb = _qnorm(power_)
        n_pos = _solve_n(za, zb, _v0_one(k), _var_theta(auc, k), auc - 0.5)
        n_neg = k * n_pos
        solved = S.N_POS
    else:
        k = n_neg / n_pos
        zb = _qnorm(power_)
        v0 = _v0_one(k)

        def excess(x):
            return _solve_n(za, zb, v0, _var_theta(x, k), x - 0.5) - n_pos

        auc = _bisect(lambda x: -excess(x), 0.5 + 1e-12, 1.0 - 1e-16)
        solved = S.AUC
    return {S.N_POS: n_pos, S.N_NEG: n_neg, S.AUC: auc, S.POWER: power_, S.SOLVED: solved}


def _two_from_vars(v0, va, delta, n_pos, kappa, power_, za):
    """Two curves given the variance functions: solve power, n or the difference."""
    if power_ is None:
        return {S.POWER: _pnorm(_solve_zbeta(n_pos, za, v0, va, delta)), S.SOLVED: S.POWER}
    zb = _qnorm(power_)
    if n_pos is None:
        n = _solve_n(za, zb, v0, va, delta)
        return {S.N_POS: n, S.N_NEG: kappa * n, S.SOLVED: S.N_POS}
    d = (za * math.sqrt(v0) + zb * math.sqrt(va)) / math.sqrt(n_pos)
    return {S.DIFF: d, S.SOLVED: S.DIFF}


def power(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike | None = None,
    label: str | ArrayLike | None = None,
    auc: float | None = None,
    diff: float | None = None,
    binormal: dict[str, float] | None = None,
    n_pos: float | None = None,
    n_neg: float | None = None,
    kappa: float | None = None,
    power: float | None = None,
    sig_level: float = 0.05,
    alternative: str = "two-sided",
    partial: tuple[float, float] | None = None,
    pos_label: Any = None,
    n: Sequence[int] | None = None,
    curve: str = "roc",
    method: str | None = None,
    hull: bool = False,
    null: float | None = None,
    prevalence: float | None = None,
    n_sim: int = 200,
    n_boot: int = 500,
    seed: int | None = None,
) -> pd.DataFrame:
    """Power, sample size or detectable AUC (difference) of a test of AUCs.

    The closed forms of Obuchowski & McClish (1997) that pROC's ``power.roc.test``
    uses, in three settings; in each, the one quantity left None is solved:

    * **one curve against AUC 0.5** from numbers: ``auc=``, ``n_pos=``/``n_neg=`` (or
      one of them with ``kappa = n_neg / n_pos``) and ``power=``; or from data (one
      ``score`` column): the empirical AUC and class counts, solving the power, or the
      sample size when ``power=`` is given (with ``kappa`` from the data unless given),
      or the detectable AUC when ``power=`` and ``n_pos=`` are both given;
    * **two paired curves from data** (``score=[a, b]``): the difference of their
      empirical AUCs and DeLong's (co)variances, solving the power (at the data's
      size, or ``n_pos``), the sample size (``power=``) or the detectable difference
      (``power=`` and ``n_pos=``);
    * **two binormal curves** (``binormal=`` dict with ``A1, B1, A2, B2`` -- the
      binormal intercepts and slopes -- and the correlations ``rn`` among negatives
      and ``ra`` among positives; 0 and 0 for unpaired curves), the expected
      difference ``diff=``, optionally ``partial=(fpr_lo, fpr_hi)`` for partial areas:
      solving whichever of ``diff``, the sample size and ``power`` is None.

    With ``n=`` (a list of candidate total sample sizes), the power is **simulated**
    instead, for any area the library computes (``curve="pr"`` with any ``method``,
    ``hull``, ``partial``; or ROC): each of ``n_sim`` samples of each size is drawn,
    with ``round(n * prevalence)`` positives, from the pilot ``data`` (rows resampled
    within each class) or from ``binormal=`` (negatives N(0, 1), positives
    N(A/B, 1/B^2), correlated ``rn``/``ra`` between two models), and tested with the
    library's bootstrap in one call over every sample: one model rejects when its
    percentile interval (at ``1 - sig_level``, two-sided) excludes ``null``, two
    paired models when :func:`prroc_numba.compare`'s Wald p-value is below
    ``sig_level``. The power is the share of rejections (Monte Carlo standard error
    ``se``).

    Parameters
    ----------
    data : DataFrame, default=None
    score : str, list of two str, or array-like, default=None
        One column (one curve against 0.5, or ``null`` when simulating) or two (two
        paired curves).
    label : str or array-like, default=None
        Hard 0/1 labels.
    auc : float, default=None
        The expected AUC of one curve (numbers only).
    diff : float, default=None
        The expected difference of two binormal areas (pROC's ``delta``).
    binormal : dict, default=None
        ``{"A1", "B1", "A2", "B2", "rn", "ra"}`` (pROC's parameter list).
    n_pos, n_neg : float, default=None
        Numbers of positives (pROC's cases) and negatives (controls).
    kappa : float, default=None
        ``n_neg / n_pos`` when solving the sample size (1 for numbers, the data's ratio
        for data).
    power : float, default=None
        The target power (1 - type II error).
    sig_level : float, default=0.05
        The type I error.
    alternative : {"two-sided", "one-sided"}, default="two-sided"
    partial : tuple of two floats, default=None
        FPR range of a partial area (binormal curves only).
    pos_label : scalar, default=None
    n : list of int, default=None
        Candidate total sample sizes: simulate the power at each (see above).
    curve, method, hull : default="roc", None, False
        The area simulated (as in :func:`prroc_numba.auc`).
    null : float, default=None
        One model: the value tested against (0.5 for ROC, the prevalence for PR).
    prevalence : float, default=None
        Share of positives in the simulated samples (default: the pilot data's).
    n_sim : int, default=200
        Simulated samples per candidate size.
    n_boot : int, default=500
        Bootstrap replicates per simulated sample.
    seed : int, default=None

    Returns
    -------
    DataFrame
        One row: ``n_pos``, ``n_neg``, ``auc`` (one curve) or ``estimate_a``,
        ``estimate_b``, ``diff`` (two curves), ``sig_level``, ``power``,
        ``alternative`` and ``solved`` (the column that was solved). Simulated: one
        row per candidate size, ``n``, ``n_pos``, ``n_neg``, ``power``, ``se``,
        ``n_sim``, ``sig_level``, ``alternative``.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.power(auc=0.73, n_pos=41, n_neg=72).power.round(4).tolist()
    [0.9897]
    >>> prn.power(auc=0.73, power=0.95, kappa=1.7)[["n_pos", "n_neg"]].round(2)
       n_pos  n_neg
    0  29.67  50.44
    >>> pars = {"A1": 2.6, "B1": 1, "A2": 1.9, "B2": 1, "rn": 0.6, "ra": 0.6}
    >>> round(float(prn.power(binormal=pars, diff=0.037, power=0.9, kappa=1).n_pos[0]), 1)
    250.1
    """
    _check_prob("power", power)
    _check_prob("sig_level", sig_level)
    for name, x in (("n_pos", n_pos), ("n_neg", n_neg), ("kappa", kappa)):
        _check_count(name, x)
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative={alternative!r} is not known; use one of {ALTERNATIVES}")
    if n is not None:
        return _simulated(**{k: v for k, v in locals().items() if k in _SIM_ARGS})
    za = _qnorm(1.0 - (sig_level / 2 if alternative == "two-sided" else sig_level))
    common = {S.SIG_LEVEL: sig_level, S.ALTERNATIVE: alternative}
    if binormal is not None:
        if score is not None or data is not None:
            raise ValueError("power() takes binormal= or data (score=, label=), not both")
        return _binormal(binormal, partial, diff, n_pos, n_neg, kappa, power, za, common)
    if partial is not None:
        raise ValueError(
            "partial= in the closed forms needs binormal=; for partial areas from data "
            "use power by simulation (n=)"
        )
    if score is None:
        if data is not None or label is not None:
            raise ValueError("power() from data needs score= and label=")
        res = _roc_numeric(auc, n_pos, n_neg, kappa, power, za)
        return _row(res, common)
    if label is None:
        raise ValueError("power() from data needs label= as well as score=")
    if auc is not None or diff is not None:
        raise ValueError(
            "power() from data takes its AUCs from the data; drop auc= / diff= (or pass "
            "numbers without score=)"
        )
    return _from_data(data, score, label, pos_label, n_pos, n_neg, kappa, power, za, common)


def _binormal(binormal, partial, diff, n_pos, n_neg, kappa, power, za, common):
    """Two binormal curves: the one of ``diff``, the sample size and ``power`` left
    None, solved.
    """
    missing = [k for k in _BINORMAL_KEYS if k not in binormal]
    if missing:
        raise ValueError(
            f"binormal= lacks {missing}; pass all of {list(_BINORMAL_KEYS)} "
            "(rn = ra = 0 for unpaired curves)"
        )
    if partial is not None:
        lo, hi = (float(t) for t in partial)
        if not 0.0 <= lo < hi <= 1.0:
            raise ValueError(f"partial={partial!r} must be an FPR range 0 <= lo < hi <= 1")
        partial = (lo, hi)
    n_pos, n_neg = _counts(n_pos, n_neg, kappa)
    given = [diff is not None, n_pos is not None, power is not None]
    if sum(given) != 2:
        raise ValueError(
            "power() with binormal= solves exactly one of diff=, the sample size "
            "(n_pos= and n_neg=, or one of them with kappa=) and power=: leave "
            "exactly one of them None"
        )
    k = n_neg / n_pos if n_pos is not None else (1.0 if kappa is None else kappa)
    v0, va = _binormal_v0_va(binormal, k, partial)
    res = {S.N_POS: n_pos, S.N_NEG: n_neg, S.DIFF: diff, S.POWER: power}
    res.update(_two_from_vars(v0, va, diff, n_pos, k, power, za))
    return _row(res, common)


def _from_data(data, score, label, pos_label, n_pos, n_neg, kappa, power, za, common):
    """One curve against 0.5, or two paired curves, from data: the empirical AUCs and
    DeLong's (co)variances in the closed forms.
    """
    from ._resampling.paired import delong_cov, delong_parts

    batch = pack(data, score=score, label=label, pos_label=pos_label)
    if batch.group_offsets.size != 2 or batch.n_models > 2:
        raise ValueError("power() from data takes one or two score columns and no by=")
    ((v10, v01),) = delong_parts(batch)
    m_pos, m_neg = v10.shape[0], v01.shape[0]
    theta, cov = delong_cov(v10, v01)
    if batch.n_models == 1:
        if power is not None and n_pos is None and n_neg is None:
            k = m_neg / m_pos if kappa is None else kappa
            res = _roc_numeric(float(theta[0]), None, None, k, power, za)
        elif power is not None:
            n_pos, n_neg = _counts(n_pos, n_neg, m_neg / m_pos if kappa is None else kappa)
            res = _roc_numeric(None, n_pos, n_neg, None, power, za)
        else:
            if n_pos is None and n_neg is None:
                n_pos, n_neg = m_pos, m_neg
            n_pos, n_neg = _counts(n_pos, n_neg, m_neg / m_pos if kappa is None else kappa)
            res = _roc_numeric(float(theta[0]), n_pos, n_neg, None, None, za)
        return _row(res, common)
    # two paired curves: pROC's covvar with DeLong's (co)variances, times n_pos
    v1, v2, c12 = cov[0, 0] * m_pos, cov[1, 1] * m_pos, cov[0, 1] * m_pos
    v0, va = 2 * v1 - 2 * c12, v1 + v2 - 2 * c12
    delta = float(theta[0] - theta[1])
    k = m_neg / m_pos if kappa is None else kappa
    if power is None and n_pos is None and n_neg is None:
        n_pos, n_neg = m_pos, m_neg
    else:
        n_pos, n_neg = _counts(n_pos, n_neg, k)
    res = {S.N_POS: n_pos, S.N_NEG: n_neg, S.ESTIMATE_A: theta[0], S.ESTIMATE_B: theta[1]}
    res[S.DIFF] = delta
    res[S.POWER] = power
    res.update(_two_from_vars(v0, va, delta, n_pos, k, power, za))
    return _row(res, common)


# --------------------------------------------------------------------- simulation


def _pilot(data, score, label, binormal, pos_label):
    """(draw(rng, n_pos, n_neg, n_sim) -> (pos (n_sim, n_pos, M), neg ...), M, prevalence)."""
    if binormal is not None:
        if data is not None or score is not None:
            raise ValueError("power() simulates from binormal= or from data, not both")
        two = all(k in binormal for k in ("A2", "B2"))
        need = _BINORMAL_KEYS if two else ("A1", "B1")
        missing = [k for k in need if k not in binormal]
        if missing:
            raise ValueError(
                f"binormal= lacks {missing}: one model needs A1, B1; two need "
                f"{list(_BINORMAL_KEYS)}"
            )
        M = 2 if two else 1
        a = np.array([binormal["A1"], binormal.get("A2", 0.0)][:M], dtype=float)
        b = np.array([binormal["B1"], binormal.get("B2", 1.0)][:M], dtype=float)
        rn, ra = float(binormal.get("rn", 0.0)), float(binormal.get("ra", 0.0))

        def corr(rng, size, r):
            z = rng.standard_normal(size + (M,))
            if M == 2:
                z[..., 1] = r * z[..., 0] + math.sqrt(1.0 - r * r) * z[..., 1]
            return z

        def draw(rng, n_pos, n_neg, n_sim):
            pos = a / b + corr(rng, (n_sim, n_pos), ra) / b
            return pos, corr(rng, (n_sim, n_neg), rn)

        return draw, M, None
    if score is None or label is None:
        raise ValueError("simulated power() needs pilot data (score=, label=) or binormal=")
    batch = pack(data, score=score, label=label, pos_label=pos_label)
    if batch.group_offsets.size != 2 or batch.n_models > 2:
        raise ValueError("power() from data takes one or two score columns and no by=")
    if not np.all((batch.pos == 0) | (batch.pos == 1)):
        raise ValueError("simulated power() needs hard 0/1 labels in the pilot data")
    M = batch.n_models
    N = batch.group_offsets[1]
    vals = batch.values[: batch.offsets[M]].reshape(M, N).T  # row order, one column a model
    y = batch.pos[:N] == 1
    pos_rows, neg_rows = vals[y], vals[~y]
    if pos_rows.shape[0] < 2 or neg_rows.shape[0] < 2:
        raise ValueError("the pilot data need at least two positives and two negatives")

    def draw(rng, n_pos, n_neg, n_sim):
        ip = rng.integers(0, pos_rows.shape[0], size=(n_sim, n_pos))
        ineg = rng.integers(0, neg_rows.shape[0], size=(n_sim, n_neg))
        return pos_rows[ip], neg_rows[ineg]

    return draw, M, y.mean()


def _simulated(
    *,
    data,
    score,
    label,
    binormal,
    n,
    prevalence,
    null,
    n_sim,
    n_boot,
    seed,
    sig_level,
    alternative,
    curve,
    method,
    hull,
    partial,
    pos_label,
):
    """Power by simulation at each candidate size ``n``: one bootstrap/compare call."""
    from .comparison import compare
    from .resampling import bootstrap

    check_n_boot(n_boot)
    if isinstance(n_sim, bool) or not isinstance(n_sim, (int, np.integer)) or n_sim < 1:
        raise ValueError(f"n_sim={n_sim!r} must be a positive integer")
    sizes = np.atleast_1d(np.asarray(n))
    if sizes.ndim != 1 or sizes.size == 0 or not np.all((sizes >= 4) & (sizes % 1 == 0)):
        raise ValueError(f"n={n!r} must be a list of whole candidate sample sizes >= 4")
    sizes = sizes.astype(np.int64)
    draw, M, pilot_prev = _pilot(data, score, label, binormal, pos_label)
    if prevalence is None:
        if pilot_prev is None:
            raise ValueError("simulating from binormal= needs prevalence=")
        prevalence = pilot_prev
    _check_prob("prevalence", prevalence)
    if M == 1 and null is None:
        if partial is not None:
            raise ValueError(
                "one model's partial area has no default null value: pass null= (the "
                "partial area the model must beat)"
            )
        null = 0.5 if curve == "roc" else prevalence
    rng = np.random.default_rng(seed)
    frames = []
    counts = []
    for size in sizes:
        n_pos = int(min(max(round(size * prevalence), 1), size - 1))
        n_neg = int(size - n_pos)
        counts.append((n_pos, n_neg))
        pos, neg = draw(rng, n_pos, n_neg, n_sim)
        sc = np.concatenate([pos, neg], axis=1).reshape(-1, M)
        lab = np.tile(np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)], n_sim)
        cols = {"_n": np.full(lab.size, size), "_sim": np.repeat(np.arange(n_sim), size)}
        cols.update({f"_s{m}": sc[:, m] for m in range(M)})
        cols["_y"] = lab
        frames.append(pd.DataFrame(cols))
    sim = pd.concat(frames, ignore_index=True)
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
    if M == 1:
        res = bootstrap(sim, score="_s0", level=1 - (2 if one_sided else 1) * sig_level, **args)
        above = res[S.CI_LOW].to_numpy() > null
        below = res[S.CI_HIGH].to_numpy() < null
        reject = above if one_sided else above | below
    else:
        res = compare(sim, score=["_s0", "_s1"], adjust="none", **args)
        p = res[S.P_VALUE].to_numpy()
        d = res[S.DIFF].to_numpy()
        reject = (p / 2 < sig_level) & (d > 0) if one_sided else p < sig_level
    rate = reject.reshape(sizes.size, n_sim).mean(axis=1)
    counts = np.array(counts)
    return pd.DataFrame(
        {
            S.N: sizes,
            S.N_POS: counts[:, 0],
            S.N_NEG: counts[:, 1],
            S.POWER: rate,
            S.SE: np.sqrt(rate * (1 - rate) / n_sim),
            S.N_SIM: n_sim,
            S.SIG_LEVEL: sig_level,
            S.ALTERNATIVE: alternative,
        }
    )
