"""Every option of a bootstrap, comparison or operating-points call, checked once.

The public functions hand their arguments here first: the choices (``interval=``,
``band=``, ``test=``, ...), ``n_boot=`` and ``level=``, which options go together
(BCa and multiclass input, clusters and the Poisson bootstrap, DeLong's
prerequisites, ``fold=``), and the ``resampling=`` / ``stratified=`` pair:

* ``"multinomial"`` (in memory, the default): the classic bootstrap, n rows drawn with
  replacement (per class with ``stratified=True``, the default there);
* ``"poisson"``: each row gets an independent Poisson(1) count keyed by (seed,
  replicate, input row id) (:mod:`._kernels.poisson`). The resample size varies around
  n, the prevalence varies with it (so it is never stratified), and the counts need no
  coordination: the only bootstrap for data spread over partitions or workers (the
  default, and the only choice, for Dask input), and the same replicates in memory.

:func:`_replicates` then runs the bootstrap where the data live (in memory:
:mod:`._resampling.engine`).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from . import _backends
from . import _schema as S
from ._checks import area_code, check_grid, check_level, check_n_boot, kernel_seed, method_label
from ._core import classes as _classes
from ._core import device as _device
from ._core.multiclass import check_device
from ._core.pack import INPUTS, MULTICLASS, inputs, pack
from ._core.partial import check_partial
from ._kernels.resample import GRID_FPR, GRID_PR, GRID_TPR
from ._resampling import engine as E

RESAMPLINGS = ("multinomial", "poisson")


class DaskResamplingWarning(UserWarning):
    """Dask input is bootstrapped by another scheme than the in-memory default."""


class SparkResamplingWarning(DaskResamplingWarning):
    """Spark input is bootstrapped by another scheme than the in-memory default (the
    same scheme as Dask input: a subclass, so one filter silences both).
    """


def _outside_stacklevel() -> int:
    """The ``stacklevel`` of the first caller outside this package (the user's line)."""
    import os
    import sys

    here = os.path.dirname(__file__) + os.sep  # the package and its subpackages
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(here):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level


def resolve(resampling, stratified, engine="memory", warn=True):
    """Return ``(stratified, poisson)`` as bools, or raise a ValueError saying why.

    ``engine``: ``"memory"`` (CPU, all rows here), ``"dask"`` or ``"spark"`` (rows in
    partitions) or ``"cuda"`` (the GPU bootstrap); all but the first run the Poisson
    bootstrap only, and ``resampling=None`` means ``"poisson"`` there; on Dask and Spark
    that default is warned about (:class:`DaskResamplingWarning`,
    :class:`SparkResamplingWarning`, unless ``warn=False``): it differs from the
    in-memory default.
    """
    distributed = engine != "memory"
    explicit = resampling is not None or not warn
    if engine == "cuda" and stratified is None:
        stratified = True  # the GPU asks for stratified=False explicitly (as before)
    if resampling is None:
        resampling = "poisson" if distributed else "multinomial"
    if resampling not in RESAMPLINGS:
        raise ValueError(f"resampling={resampling!r} is not known; use one of {RESAMPLINGS}")
    if resampling == "poisson":
        if stratified:
            why = {
                "dask": "Dask input is resampled by the Poisson bootstrap (each row's count "
                "is drawn where the row lives, without counting the classes across "
                "partitions), which does not keep the class counts fixed",
                "spark": "Spark input is resampled by the Poisson bootstrap (each row's "
                "count is drawn where the row lives, without counting the classes across "
                "partitions), which does not keep the class counts fixed",
                "cuda": "device='cuda' runs the Poisson bootstrap (each row counts "
                "Poisson(1) times), which does not keep the class counts fixed",
                "memory": "resampling='poisson' draws an independent count per row, so "
                "the class counts vary",
            }[engine]
            hint = "" if engine == "cuda" else " (or leave it None)"
            raise ValueError(
                f"stratified=True cannot be combined with it: {why}; pass stratified=False{hint}"
            )
        if engine in ("dask", "spark") and not explicit:
            warnings.warn(
                f"{engine.capitalize()} input is resampled by the unstratified Poisson "
                "bootstrap (each row counts Poisson(1) times, the class counts vary), not by "
                "the stratified bootstrap in-memory data gets by default, so its intervals "
                "differ from the same call on a pandas frame. That call with "
                "resampling='poisson' gives identical numbers (same seed); pass "
                "resampling='poisson' here too to say so and silence this warning",
                SparkResamplingWarning if engine == "spark" else DaskResamplingWarning,
                stacklevel=_outside_stacklevel(),
            )
        return False, True
    if distributed:
        where = f"{engine.capitalize()} input" if engine != "cuda" else "device='cuda'"
        raise ValueError(
            f"resampling='multinomial' needs all rows in one place on the CPU; {where} is "
            "resampled with resampling='poisson' (leave resampling=None)"
        )
    return (True if stratified is None else bool(stratified)), False


def label(stratified: bool, poisson: bool, cluster=None) -> str:
    """The ``resampling`` column's value: ``"stratified"`` or ``"unstratified"`` (the
    multinomial row bootstrap, per class or not), ``"stratified cluster"`` or
    ``"unstratified cluster"`` (whole clusters drawn, ``cluster=``), or ``"poisson"``
    (independent Poisson(1) counts per row).
    """
    if poisson:
        return "poisson"
    kind = "stratified" if stratified else "unstratified"
    return kind if cluster is None else f"{kind} cluster"


def call_label(data, device, resampling, stratified, cluster) -> str:
    """The ``resampling`` column of a bootstrap call's frame, from its arguments."""
    return engine_label(_backends.engine(data), device, resampling, stratified, cluster)


def engine_label(engine, device, resampling, stratified, cluster) -> str:
    """:func:`call_label` for input of the engine ``engine`` (:func:`_backends.engine`)."""
    if engine == _backends.MEMORY and device == "cuda":
        engine = "cuda"
    strat, poisson = resolve(resampling, stratified, engine, warn=False)
    return label(strat, poisson, cluster)


# ------------------------------------------------------------------------ choices

INTERVALS = ("percentile", "basic", "bca")
BANDS = ("pointwise", "simultaneous")
ADJUSTMENTS = ("holm", "bonferroni", "bh", "none")
TESTS = ("bootstrap", "delong", "venkatraman")
P_VALUES = ("wald", "percentile")

#: the arguments that the bootstrap functions hand on to :func:`_replicates` by name
#: (with the input arguments, :data:`~._core.pack.INPUTS`)
REPLICATE_ARGS = (
    "curve",
    "method",
    "hull",
    "n_boot",
    "stratified",
    "seed",
    "progress",
    "resampling",
    "device",
    "cluster",
    "partial",
    "partial_focus",
    "standardize",
    "row_id",
)


#: every argument :func:`bootstrap_replicates` hands on to :func:`_replicates`
_REPLICATE_INPUTS = (*INPUTS, *REPLICATE_ARGS, *MULTICLASS)

#: what names the estimator in the ``method`` column (:func:`method_of`)
METHOD_ARGS = ("curve", "method", "hull", "partial", "partial_focus", "standardize")


def check_choice(name, value, choices):
    """``value`` is one of ``choices``, or a ValueError naming the argument."""
    if value not in choices:
        raise ValueError(f"{name}={value!r} is not known; use one of {choices}")


def check_boot(n_boot, level):
    """``n_boot`` (an int >= 2) and ``level`` (in (0, 1)) of a bootstrap call."""
    check_n_boot(n_boot)
    check_level(level)


def method_of(args):
    """The ``method`` column of a bootstrap call's frame, from its arguments."""
    return method_label(*(args[k] for k in METHOD_ARGS))


def _distributed(data):
    """``data`` lives outside memory (a Dask or Spark frame): its wing answers."""
    return _backends.engine(data) != _backends.MEMORY


def _is_multi(args):
    """Multiclass or multilabel input (``multiclass=`` or a label matrix)."""
    return args.get("multiclass") is not None or _classes.is_multilabel(args["data"], args["label"])


# ------------------------------------------------------------------ bootstrap


def bootstrap_replicates(a):
    """A :func:`~prroc_numba.bootstrap` call (its ``locals()``, no ``fold=``): every
    option checked once (:func:`check_bootstrap`), then its replicates
    (:func:`_replicates`). Returns ``(device, labels, (batch, plan, code, est, reps,
    seed))``; ``labels``: the output's ``method`` and ``resampling`` columns, read from
    the arguments on the way in.
    """
    check_choice("interval", a["interval"], INTERVALS)
    device, score, label, weight, by = check_bootstrap(a)
    args = {**a, "device": device, "score": score, "label": label, "weight": weight, "by": by}
    keep = bool(a["return_replicates"])
    engine = _backends.engine(a["data"])
    out = _replicates(a["data"], keep_replicates=keep, **{k: args[k] for k in _REPLICATE_INPUTS})
    labels = {
        "method": method_of(a),
        "resampling": engine_label(engine, device, a["resampling"], a["stratified"], a["cluster"]),
    }
    return device, labels, out


def check_bootstrap(a):
    """The options of :func:`~prroc_numba.bootstrap` (its ``locals()``, no ``fold=``);
    returns ``(device, score, label, weight, by)`` resolved for the device.
    """
    interval = a["interval"]
    if interval == "bca" and _is_multi(a):
        raise ValueError(
            "interval='bca' is not available for multiclass/multilabel input; "
            "use interval='percentile' or 'basic'"
        )
    check_boot(a["n_boot"], a["level"])
    prepared = _device.prepare(a["device"], a["score"], a["label"], a["weight"], a["by"])
    if prepared[0] == "cuda" and interval == "bca":
        raise ValueError(
            "interval='bca' needs the jackknife, which runs on the CPU only; "
            "use interval='percentile' or 'basic', or device='cpu'"
        )
    if interval == "bca" and (a["cluster"] is not None or a["partial"] is not None):
        raise ValueError(
            "interval='bca' with cluster= or partial= is not implemented (its jackknife "
            "deletes rows and takes whole areas); use interval='percentile' or 'basic'"
        )
    if interval == "bca" and _distributed(a["data"]):
        raise ValueError(
            "interval='bca' needs a jackknife over the rows, which "
            f"{_backends.input_name(a['data'])} does not offer; use interval='percentile' "
            "or 'basic'"
        )
    return prepared


def _check_replicate_args(data, curve, method, device, partial, args):
    """What :func:`_replicates` refuses before resolving the resampling: AUPRG's limits,
    one-vs-one input and ``average='samples'``; returns the estimator code.
    """
    code = area_code(curve, method)
    if curve == "prg":
        check_prg(data, method, device, {**args, "partial": partial})
    if args.get("multiclass") == "ovo":
        _classes.check_args("ovo", args.get("classes"), args.get("average"), False, curve)
    if args.get("average") == "samples":
        raise ValueError(
            "average='samples' has no bootstrap here (each row is its own curve); use "
            "average='macro', 'weighted' or 'micro', or auc(..., average='samples') for "
            "the estimate"
        )
    return code


def _replicates(
    data,
    *,
    curve,
    method,
    hull,
    n_boot,
    stratified,
    seed,
    progress,
    label_bar="bootstrap",
    keep_replicates=False,
    resampling=None,
    device="cpu",
    cluster=None,
    partial=None,
    partial_focus="fpr",
    standardize=False,
    row_id=None,
    **args,
):
    """Check, pack, estimate and resample. Returns (batch, plan, code, est, reps, seed).

    ``device="cuda"``: the Poisson bootstrap on the GPU (``plan`` is None). Dask input:
    the Poisson bootstrap on the workers (``plan`` is None, ``batch`` only names curves).
    ``args``: the input arguments (:data:`~._core.pack.INPUTS`) and any multiclass ones;
    with these the estimates and replicates come reduced to the output rows (per
    class, pair or average) and ``batch`` is a view of those
    (:func:`._resampling.engine.replicates`).
    """
    code = _check_replicate_args(data, curve, method, device, partial, args)
    wing = _backends.wing_for(data)
    engine = _backends.engine(data) if wing is not None or device != "cuda" else "cuda"
    stratified, poisson = resolve(resampling, stratified, engine)
    if poisson and (cluster is not None or partial is not None):
        raise ValueError(
            "cluster= and partial= use the multinomial (row or cluster) bootstrap; drop "
            "them or pass resampling='multinomial'"
        )
    if row_id is not None and engine != _backends.SPARK:
        raise ValueError(
            "row_id= names the row-id column of Spark input (it keys the Poisson counts "
            "there); other input is keyed by each row's position: drop row_id="
        )
    if wing is not None:
        wing.no_multiclass(args.get("multiclass"))
        return wing.replicates(
            data,
            curve=curve,
            code=code,
            hull=bool(hull),
            n_boot=int(n_boot),
            seed=kernel_seed(seed),
            **inputs(args),
            **({"row_id": row_id} if engine == _backends.SPARK else {}),
        )
    batch = pack(data, **args)
    check_device(batch, device)
    hull = bool(hull)
    spec = check_partial(curve, partial, partial_focus, standardize)
    if device == "cuda":
        if cluster is not None or spec is not None:
            raise ValueError("cluster= and partial= run on the CPU only; pass device='cpu'")
        # (stratified=True on the GPU is refused by resolve(): Poisson counts only)
        if hull:
            raise ValueError("the bootstrap with hull=True runs on the CPU only; pass device='cpu'")
        return E.replicates_cuda(batch, curve, code, n_boot, seed, label_bar, keep_replicates)
    boot = (curve, hull, n_boot, stratified, poisson, seed, progress, label_bar)
    return E.replicates(
        data,
        batch,
        code,
        spec,
        boot,
        cluster=cluster,
        standardize=standardize,
        keep=keep_replicates,
    )


def check_fold(args):
    """The options of a ``fold=`` bootstrap (:func:`~prroc_numba.bootstrap`,
    :func:`~prroc_numba.compare`): returns ``(code, stratified, spec)``, the estimator,
    the class strata and the partial area's ``(lo, hi, focus)`` or None.
    """
    if args.get("test", "bootstrap") != "bootstrap":
        raise ValueError("fold= is available with test='bootstrap' only; drop test=")
    bad = {
        "interval='bca'": args.get("interval") == "bca",
        "cluster=": args["cluster"] is not None,
        "device='cuda'": args["device"] == "cuda",
        "resampling='poisson'": args["resampling"] == "poisson",
        "return_replicates=True": bool(args.get("return_replicates")),
        "multiclass input": _is_multi(args),
        _backends.input_name(args["data"]): _distributed(args["data"]),
    }
    for what, on in bad.items():
        if on:
            raise ValueError(f"fold= is not available with {what}; drop one of them")
    check_boot(args["n_boot"], args["level"])
    stratified, _ = resolve(args["resampling"], args["stratified"], "memory")
    partial = args["partial"]
    code = _check_replicate_args(args["data"], args["curve"], args["method"], "cpu", partial, {})
    spec = check_partial(args["curve"], partial, args["partial_focus"], args["standardize"])
    return code, stratified, spec


# ---------------------------------------------------------------- bootstrap_curve


#: ``(curve, space)`` -> (what the replicate kernels write on the grid, grid column,
#: value column)
_SPACES = {
    ("pr", "recall"): (GRID_PR, S.RECALL, S.PRECISION),
    ("roc", "fpr"): (GRID_TPR, S.FPR, S.TPR),
    ("roc", "tpr"): (GRID_FPR, S.TPR, S.FPR),
}


def band_space(curve, space):
    """``(kernel code, grid column, value column)`` of a band; clear errors otherwise."""
    if curve not in ("pr", "roc"):
        raise ValueError(f"curve={curve!r} is not known; use 'pr' or 'roc'")
    if space is None:
        space = "recall" if curve == "pr" else "fpr"
    if (curve, space) not in _SPACES:
        ok = ["recall"] if curve == "pr" else ["fpr", "tpr"]
        raise ValueError(f"space={space!r} is not a grid axis of curve={curve!r}; use one of {ok}")
    return _SPACES[(curve, space)]


def check_bands(a):
    """The options of :func:`~prroc_numba.bootstrap_curve` (its ``locals()``):
    ``(what, grid column, value column, grid, stratified, poisson)``, the first three
    as :func:`band_space` gives them.
    """
    check_boot(a["n_boot"], a["level"])
    what, xname, yname = band_space(a["curve"], a["space"])
    check_choice("band", a["band"], BANDS)
    g = check_grid(a["grid"], xname, strict=True)
    if what == GRID_PR and isinstance(a["grid"], (int, np.integer)):
        g = int(a["grid"])  # from 1/P: the data's positives say where (pr_band_grid)
    if a["multiclass"] == "ovo" or a["average"] in ("macro", "weighted", "samples"):
        raise ValueError(
            "bootstrap_curve gives one-vs-rest bands: use multiclass='ovr' with "
            "average=None (one band per class) or 'micro' (the pooled curve)"
        )
    distributed = _distributed(a["data"])
    stratified, poisson = resolve(a["resampling"], a["stratified"], _backends.engine(a["data"]))
    if (poisson or distributed) and a["cluster"] is not None:
        raise ValueError(
            "cluster= uses the multinomial cluster bootstrap; drop it or pass "
            "resampling='multinomial' on in-memory data"
        )
    if distributed and (a["curve"] != "pr" or a["fold"] is not None):
        raise ValueError(
            f"bootstrap_curve on {_backends.input_name(a['data'])} gives PR bands without "
            "folds only; pass "
            "curve='pr' and no fold=, or compute the frame (df.compute())"
        )
    if a["fold"] is not None and (
        a["cluster"] is not None or poisson or a["multiclass"] is not None
    ):
        raise ValueError(
            "fold= is not available with cluster=, resampling='poisson' or "
            "multiclass input; drop one of them"
        )
    return what, xname, yname, g, stratified, poisson


# -------------------------------------------------------------------- compare


def check_compare(a):
    """The options of :func:`~prroc_numba.compare` (its ``locals()``, no ``fold=``):
    returns ``(device, score, label, weight, by, adjust, multi, wide)``, ``multi`` the
    multiclass arguments for pack (models = the ``by`` groups, paired) or {}, ``wide``
    whether several score columns were given (else, without ``multi``, the unpaired
    Venkatraman test of the ``by`` curves).
    """
    test = a["test"]
    check_choice("p_value", a["p_value"], P_VALUES)
    adjust = "none" if a["adjust"] is None else a["adjust"]
    check_choice("adjust", adjust, ADJUSTMENTS)
    check_n_boot(a["n_boot"])
    if a["combine"] and (a["by"] is None or test == "venkatraman"):
        raise ValueError(
            "combine=True pools each pair's difference across the by= groups (data sets): "
            "pass by= (e.g. by='dataset'), with test='bootstrap' or 'delong'"
        )
    prepared = _device.prepare(a["device"], a["score"], a["label"], a["weight"], a["by"])
    check_level(a["level"])
    multi = _multi_args(a, prepared[2])
    score = prepared[1]
    wide = isinstance(score, (list, tuple, pd.DataFrame)) or (
        not isinstance(score, str) and np.ndim(score) == 2
    )
    if multi:
        return (*prepared, adjust, multi, wide)
    unpaired = not wide and test == "venkatraman" and prepared[4] is not None
    if not wide and not unpaired:
        raise ValueError(
            "compare needs several models scored on the same rows: pass score= as a list "
            "of columns (wide input) or a 2-D array (or, for test='venkatraman', one "
            "score column and by= naming unpaired curves)"
        )
    if test == "bootstrap":
        return (*prepared, adjust, multi, wide)
    check_rank_test(a, prepared[0])
    if a["hull"] or a["method"] not in (None, "trapezoid") or (unpaired and a["combine"]):
        if unpaired:
            raise ValueError(
                "test='venkatraman' is for the empirical ROC curve (method='trapezoid', "
                "hull=False) and has no standard error to combine"
            )
        raise ValueError(
            f"test={test!r} is for the empirical ROC curve (method='trapezoid', hull=False)"
        )
    return (*prepared, adjust, multi, wide)


def _multi_args(a, label):
    """The multiclass arguments of :func:`~prroc_numba.compare` for pack, or {}
    (``label``: the labels as the device holds them).
    """
    if not _is_multi({**a, "label": label}):
        _classes.check_args(a["multiclass"], a["classes"], a["average"], False)
        return {}
    if a["average"] not in ("macro", "weighted", "micro"):
        raise ValueError(
            "compare with multiclass/multilabel input compares one number per model: pass "
            "average='macro', 'weighted' or 'micro' (for one class, compare its one-vs-rest "
            "scores as binary input)"
        )
    if a["test"] != "bootstrap":
        raise ValueError("multiclass comparisons use test='bootstrap'")
    return {
        "multiclass": a["multiclass"],
        "classes": a["classes"],
        "average": a["average"],
        "pair_models": True,
    }


def check_rank_test(a, device):
    """DeLong's and Venkatraman's prerequisites: every row in one place, whole ROC
    curves, independent rows, the CPU, hard 0/1 labels without weights.
    """
    test = a["test"]
    if _distributed(a["data"]):
        raise ValueError(
            f"test={test!r} needs every row in one place; for "
            f"{_backends.input_name(a['data'])} "
            "use test='bootstrap' (the Poisson bootstrap)"
        )
    if a["partial"] is not None:
        raise ValueError(
            f"test={test!r} compares whole ROC curves; for partial areas use test='bootstrap'"
        )
    if a["cluster"] is not None:
        raise ValueError(
            f"test={test!r} assumes independent rows; for clustered data "
            "use test='bootstrap' with cluster="
        )
    if device == "cuda":
        raise ValueError(
            f"test={test!r} runs on the CPU only; pass device='cpu' or test='bootstrap'"
        )
    if a["curve"] != "roc":
        raise ValueError(
            f"test={test!r} compares ROC curves; pass curve='roc' "
            "(for PR curves use test='bootstrap')"
        )
    if a["weight"] is not None or a["soft_labels"]:
        raise ValueError(
            f"test={test!r} needs hard 0/1 labels without weights, as in "
            "pROC; drop weight= / soft_labels= or use test='bootstrap'"
        )


# ----------------------------------------------------------- operating points


def check_operating(beta, n_boot, level, cluster):
    """The options of :func:`~prroc_numba.operating_points`: returns ``beta`` as a
    float (F-beta's weight, positive); ``n_boot`` and ``level`` when intervals are asked
    for; ``cluster=`` only with them.
    """
    if (
        isinstance(beta, bool)
        or not isinstance(beta, (int, float, np.integer, np.floating))
        or not np.isfinite(beta)
        or beta <= 0
    ):
        raise ValueError(f"beta must be a positive number (1 gives F1), got {beta!r}")
    if n_boot is not None:
        check_boot(n_boot, level)
    elif cluster is not None:
        raise ValueError("cluster= only changes the bootstrap intervals; pass n_boot= too")
    return float(beta)


def check_prg(data, method, device, args):
    """Refuse what AUPRG (the estimate and the bootstrap) does not offer, clearly."""
    area_code("prg", method)
    for name in ("partial", "multiclass", "average"):
        if args.get(name) is not None:
            raise ValueError(f"curve='prg' takes binary input and whole areas; drop {name}=")
    if device not in (None, "cpu"):
        raise ValueError("curve='prg' runs on the CPU; pass device='cpu' or leave it None")
    if _backends.engine(data) != _backends.MEMORY:
        raise ValueError("curve='prg' needs every row in one place; compute it on pandas input")
