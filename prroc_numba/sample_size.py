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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
from statistics import NormalDist

import numpy as np
import pandas as pd

from . import _frames as F
from . import _power_sim as sim
from . import _schema as S
from ._checks import method_label
from ._core.packing import pack
from ._docs import fill_doc

__all__ = ["power"]

_NORM = NormalDist()
ALTERNATIVES = ("two-sided", "one-sided")
_BINORMAL_KEYS = ("A1", "B1", "A2", "B2", "rn", "ra")


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
    """The one-row result frame: what was computed (``curve``, ``method``), the numbers,
    then the test, then what was solved. Counts are whole numbers of rows, rounded up.
    """
    res, common = dict(res), dict(common)
    label = {S.CURVE: "roc", S.METHOD: common.pop("_method")}
    solved = res.pop(S.SOLVED)
    for name in (S.N_POS, S.N_NEG):
        if res.get(name) is not None:
            res[name] = _whole(res[name])
    cols = {**res, **common, S.SOLVED: solved}
    frame = pd.DataFrame({k: [np.nan if v is None else v] for k, v in cols.items()})
    return F.describe(frame, frame.columns[0], **label)


def _whole(x):
    """A count of rows rounded up (a solved size is the smallest that reaches the power);
    an exact whole number (to rounding) stays itself.
    """
    r = round(float(x))
    return r if abs(float(x) - r) <= 1e-9 * max(1.0, abs(r)) else math.ceil(float(x))


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


@fill_doc
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
    ``se``). Every size draws its samples as common random numbers (a larger sample
    extends a smaller one), so the simulated power rises with the size as the true
    power does.

    **Areas without a closed form** (``curve="pr"``, any PR ``method``, ``hull=True``,
    a partial area from data) are always simulated: with ``n=``, the power at each
    size; with ``power=`` and no ``n=``, the **sample size**: the smallest total size
    whose simulated power reaches ``power`` (sizes doubled until one does, then the
    bracket narrowed to adjacent sizes), with ``n_se``, its Monte Carlo standard error
    (``sqrt(power (1 - power) / n_sim)`` over the power curve's slope there). Where a
    simulation cannot apply -- ``auc=``/``diff=`` alone, which do not fix a PR curve;
    neither ``n=`` nor ``power=``; a PR ``method`` with ``curve="roc"`` -- an error
    says what to pass.

    Parameters
    ----------
    {data}
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
        for data); when simulating, ``prevalence = 1 / (1 + kappa)``.
    power : float, default=None
        The target power (1 - type II error); simulated areas: solve the sample size
        that reaches it.
    sig_level : float, default=0.05
        The type I error.
    alternative : {"two-sided", "one-sided"}, default="two-sided"
    partial : tuple of two floats, default=None
        FPR range of a partial area (closed forms: binormal curves; from data: simulated).
    pos_label : scalar, default=None
    n : list of int, default=None
        Candidate total sample sizes: simulate the power at each (see above).
    curve, method, hull : default="roc", None, False
        The area (as in :func:`prroc_numba.auc`). The closed forms are for the ROC
        area (``method=None`` or ``"trapezoid"``, no hull); any other is simulated.
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
        First what was computed: ``curve`` and ``method`` (and ``n_boot`` when
        simulated). Closed forms, one row: ``n_pos``, ``n_neg``, ``auc`` (one curve) or
        ``estimate_a``, ``estimate_b``, ``diff`` (two curves), ``power``,
        ``sig_level``, ``alternative`` and ``solved`` (the column that was solved).
        Simulated: one row per candidate size, ``n``, ``n_pos``, ``n_neg``, ``power``,
        ``se``, ``n_sim``, ``sig_level``, ``alternative``; a solved size adds ``n_se``
        and ``solved="n"``, and its ``attrs["evaluated"]`` holds every size the search
        simulated (``n``, ``power``, ``se`` lists: ``pd.DataFrame(...)`` of it is what
        :func:`prroc_numba.plot.plot_power` draws). Counts are whole numbers
        of rows (integers), rounded up: a solved size is the smallest that reaches the
        power.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.power(auc=0.73, n_pos=41, n_neg=72).power.round(4).tolist()
    [0.9897]
    >>> prn.power(auc=0.73, power=0.95, kappa=1.7)[["curve", "n_pos", "n_neg"]]
      curve  n_pos  n_neg
    0   roc     30     51
    >>> pars = {"A1": 2.6, "B1": 1, "A2": 1.9, "B2": 1, "rn": 0.6, "ra": 0.6}
    >>> int(prn.power(binormal=pars, diff=0.037, power=0.9, kappa=1).n_pos[0])
    251

    The sample size for average precision, simulated (few samples here, to be quick):

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> pilot = pd.DataFrame({"y": y, "new": y + rng.normal(0, 0.8, 300),
    ...                       "old": y + rng.normal(0, 1.6, 300)})
    >>> res = prn.power(pilot, score=["new", "old"], label="y", curve="pr", method="ap",
    ...                 power=0.8, n_sim=40, n_boot=100, seed=0)
    >>> res[["curve", "method", "solved"]].iloc[0].tolist()
    ['pr', 'ap', 'n']
    >>> bool(res.power[0] >= 0.8)
    True
    """
    _check_prob("power", power)
    _check_prob("sig_level", sig_level)
    for name, x in (("n_pos", n_pos), ("n_neg", n_neg), ("kappa", kappa)):
        _check_count(name, x)
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative={alternative!r} is not known; use one of {ALTERNATIVES}")
    if curve not in ("pr", "roc"):
        raise ValueError(f"curve={curve!r} is not known; use 'roc' or 'pr'")
    sim.check_method(curve, method)
    closed = curve == "roc" and method in (None, "trapezoid") and not hull
    if n is not None or not closed or (partial is not None and binormal is None):
        # only the full or binormal ROC area has closed forms: everything else is
        # simulated, or an error says what the simulation needs
        design = sim.Design(
            *(data, score, label, binormal, prevalence, null, n_sim, n_boot, seed),
            *(sig_level, alternative, curve, method, hull, partial, pos_label),
        )
        sizes = (n, auc, diff, n_pos, n_neg, kappa)
        return _by_simulation(*sizes, target=power, opts=design)
    za = _qnorm(1.0 - (sig_level / 2 if alternative == "two-sided" else sig_level))
    common = {
        S.SIG_LEVEL: sig_level,
        S.ALTERNATIVE: alternative,
        "_method": method_label("roc", None, partial=partial),
    }
    if binormal is not None:
        if score is not None or data is not None:
            raise ValueError("power() takes binormal= or data (score=, label=), not both")
        return _binormal(binormal, partial, diff, n_pos, n_neg, kappa, power, za, common)
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


def _by_simulation(n, auc, diff, n_pos, n_neg, kappa, *, target, opts: sim.Design):
    """Power at candidate sizes ``n``, or the sample size that reaches ``target``."""
    label = method_label(opts.curve, opts.method, opts.hull, opts.partial)
    prevalence = sim.simulation_prevalence(
        n=n,
        auc=auc,
        diff=diff,
        n_pos=n_pos,
        n_neg=n_neg,
        kappa=kappa,
        target=target,
        what=f"the {opts.curve.upper()} area ({label})",
        prevalence=opts.prevalence,
    )
    opts = replace(opts, prevalence=prevalence)
    sizes = None if n is None else sim.check_sizes(n)
    design = sim.simulation(opts)
    what = {
        S.CURVE: opts.curve,
        S.METHOD: label,
        S.N_BOOT: opts.n_boot,
    }
    if sizes is not None:
        return _power_frame(design, sizes, design.power(sizes), opts, what)
    size, below, n_se = sim.solve_size(design, target)
    frame = _power_frame(design, [size], [design.seen[size]], opts, what)
    frame.insert(frame.columns.get_loc(S.POWER), S.N_SE, n_se)
    frame[S.SOLVED] = S.N
    sizes = sorted(design.seen)
    rates = [design.seen[k] for k in sizes]
    # plain lists (not a frame): attrs are compared when frames are concatenated
    frame.attrs["evaluated"] = {
        S.N: sizes,
        S.POWER: rates,
        S.SE: [math.sqrt(r * (1 - r) / opts.n_sim) for r in rates],
    }
    frame.attrs["n_below"] = below
    return frame


def _power_frame(design, sizes, rate, opts: sim.Design, what):
    sizes = np.asarray(sizes, dtype=np.int64)
    rate = np.asarray(rate, dtype=float)
    counts = np.array([sim.class_counts(s, design.prevalence) for s in sizes], dtype=np.int64)
    frame = pd.DataFrame(
        {
            S.N: sizes,
            S.N_POS: counts[:, 0],
            S.N_NEG: counts[:, 1],
            S.POWER: rate,
            S.SE: np.sqrt(rate * (1 - rate) / opts.n_sim),
            S.N_SIM: opts.n_sim,
            S.SIG_LEVEL: opts.sig_level,
            S.ALTERNATIVE: opts.alternative,
        }
    )
    return F.describe(frame, S.N, **what)
