"""Every option of a bootstrap call checked once, then its replicates run where the
data live (in memory: :mod:`prroc_numba._resampling.engine`; Dask and Spark input:
their wings).

The public functions build the options objects at their door (:class:`~prroc_numba.
_core.inputs.Inputs`, :class:`~.estimator.Estimator`, :class:`~.draws.Resampling`)
and hand them here; each step below reads the fields it uses by name.
"""

from __future__ import annotations

from .. import _backends
from .._checks import area_code, kernel_seed
from .._core import classes as _classes
from .._core.inputs import Inputs
from .._core.multiclass import check_device
from .._core.partial import check_partial
from .._resampling import engine as E
from .choices import INTERVALS, check_boot, check_choice, distributed
from .draws import Resampling, engine_label, resolve
from .estimator import Estimator, check_prg


def bootstrap_replicates(data, inp: Inputs, est: Estimator, boot: Resampling):
    """A :func:`~prroc_numba.bootstrap` call (no ``fold=``): every option checked once
    (:func:`check_bootstrap`), then its replicates (:func:`replicates`). Returns
    ``(device, labels, (batch, plan, code, est, reps, seed))``; ``labels``: the output's
    ``method`` and ``resampling`` columns, read from the options on the way in.
    """
    check_choice("interval", boot.interval, INTERVALS)
    device, inp = check_bootstrap(data, inp, est, boot)
    engine = _backends.engine(data)
    out = replicates(data, inp, est, boot, device, keep=bool(boot.return_replicates))
    labels = {
        "method": est.label,
        "resampling": engine_label(engine, device, boot.resampling, boot.stratified, boot.cluster),
    }
    return device, labels, out


def check_bootstrap(data, inp: Inputs, est: Estimator, boot: Resampling):
    """The options of :func:`~prroc_numba.bootstrap` (no ``fold=``); returns
    ``(device, inputs)``, the inputs resolved for the device.
    """
    interval = boot.interval
    if interval == "bca" and inp.is_multi(data):
        raise ValueError(
            "interval='bca' is not available for multiclass/multilabel input; "
            "use interval='percentile' or 'basic'"
        )
    check_boot(boot.n_boot, boot.level)
    device, inp = inp.on_device(boot.device)
    if device == "cuda" and interval == "bca":
        raise ValueError(
            "interval='bca' needs the jackknife, which runs on the CPU only; "
            "use interval='percentile' or 'basic', or device='cpu'"
        )
    if interval == "bca" and (boot.cluster is not None or est.partial is not None):
        raise ValueError(
            "interval='bca' with cluster= or partial= is not implemented (its jackknife "
            "deletes rows and takes whole areas); use interval='percentile' or 'basic'"
        )
    if interval == "bca" and distributed(data):
        raise ValueError(
            "interval='bca' needs a jackknife over the rows, which "
            f"{_backends.input_name(data)} does not offer; use interval='percentile' "
            "or 'basic'"
        )
    return device, inp


def _check_estimator(data, est: Estimator, device, multiclass, classes, average):
    """What :func:`replicates` refuses before resolving the resampling: AUPRG's limits,
    one-vs-one input and ``average='samples'``; returns the estimator code.
    """
    code = area_code(est.curve, est.method)
    if est.curve == "prg":
        named = Inputs(None, None, multiclass=multiclass, average=average)
        check_prg(data, est.method, device, named, est.partial)
    if multiclass == "ovo":
        _classes.check_args("ovo", classes, average, False, est.curve)
    if average == "samples":
        raise ValueError(
            "average='samples' has no bootstrap here (each row is its own curve); use "
            "average='macro', 'weighted' or 'micro', or auc(..., average='samples') for "
            "the estimate"
        )
    return code


def _check_draws(data, est: Estimator, boot: Resampling, device):
    """``(engine, stratified, poisson)`` of a bootstrap: the resampling resolved where
    the data live, and what that scheme refuses.
    """
    wing = _backends.wing_for(data)
    engine = _backends.engine(data) if wing is not None or device != "cuda" else "cuda"
    stratified, poisson = resolve(boot.resampling, boot.stratified, engine)
    if poisson and (boot.cluster is not None or est.partial is not None):
        raise ValueError(
            "cluster= and partial= use the multinomial (row or cluster) bootstrap; drop "
            "them or pass resampling='multinomial'"
        )
    if boot.row_id is not None and engine != _backends.SPARK:
        raise ValueError(
            "row_id= names the row-id column of Spark input (it keys the Poisson counts "
            "there); other input is keyed by each row's position: drop row_id="
        )
    return engine, stratified, poisson


def replicates(
    data,
    inp: Inputs,
    est: Estimator,
    boot: Resampling,
    device: str,
    *,
    label_bar: str = "bootstrap",
    keep: bool = False,
    pair_models: bool = False,
):
    """Check, pack, estimate and resample. Returns (batch, plan, code, est, reps, seed).

    ``device``: the device resolved (:meth:`Inputs.on_device`); ``"cuda"``: the Poisson
    bootstrap on the GPU (``plan`` is None). Dask and Spark input: the Poisson bootstrap
    on the workers (``plan`` is None, ``batch`` only names curves). With multiclass
    inputs the estimates and replicates come reduced to the output rows (per class,
    pair or average) and ``batch`` is a view of those
    (:func:`prroc_numba._resampling.engine.replicates`).
    """
    code = _check_estimator(data, est, device, inp.multiclass, inp.classes, inp.average)
    engine, stratified, poisson = _check_draws(data, est, boot, device)
    wing = _backends.wing_for(data)
    if wing is not None:
        wing.no_multiclass(inp.multiclass)
        return wing.replicates(
            data,
            curve=est.curve,
            code=code,
            hull=bool(est.hull),
            n_boot=int(boot.n_boot),
            seed=kernel_seed(boot.seed),
            **inp.binary(),
            **({"row_id": boot.row_id} if engine == _backends.SPARK else {}),
        )
    batch = inp.pack(data, pair_models=pair_models)
    check_device(batch, device)
    hull = bool(est.hull)
    spec = check_partial(est.curve, est.partial, est.partial_focus, est.standardize)
    if device == "cuda":
        if boot.cluster is not None or spec is not None:
            raise ValueError("cluster= and partial= run on the CPU only; pass device='cpu'")
        # (stratified=True on the GPU is refused by resolve(): Poisson counts only)
        if hull:
            raise ValueError("the bootstrap with hull=True runs on the CPU only; pass device='cpu'")
        return E.replicates_cuda(batch, est.curve, code, boot.n_boot, boot.seed, label_bar, keep)
    run = (est.curve, hull, boot.n_boot, stratified, poisson, boot.seed, boot.progress, label_bar)
    return E.replicates(
        data,
        batch,
        code,
        spec,
        run,
        cluster=boot.cluster,
        standardize=est.standardize,
        keep=keep,
    )


def check_fold(data, inp: Inputs, est: Estimator, boot: Resampling, test="bootstrap"):
    """The options of a ``fold=`` bootstrap (:func:`~prroc_numba.bootstrap`,
    :func:`~prroc_numba.compare`): returns ``(code, stratified, spec)``, the estimator,
    the class strata and the partial area's ``(lo, hi, focus)`` or None.
    """
    if test != "bootstrap":
        raise ValueError("fold= is available with test='bootstrap' only; drop test=")
    bad = {
        "interval='bca'": boot.interval == "bca",
        "cluster=": boot.cluster is not None,
        "device='cuda'": boot.device == "cuda",
        "resampling='poisson'": boot.resampling == "poisson",
        "return_replicates=True": bool(boot.return_replicates),
        "multiclass input": inp.is_multi(data),
        _backends.input_name(data): distributed(data),
    }
    for what, on in bad.items():
        if on:
            raise ValueError(f"fold= is not available with {what}; drop one of them")
    check_boot(boot.n_boot, boot.level)
    stratified, _ = resolve(boot.resampling, boot.stratified, "memory")
    code = _check_estimator(data, est, "cpu", None, None, None)
    spec = check_partial(est.curve, est.partial, est.partial_focus, est.standardize)
    return code, stratified, spec


def fold_runs(data, inp: Inputs, est: Estimator, boot: Resampling, test, label_bar):
    """A ``fold=`` bootstrap's options checked (:func:`check_fold`), then its runs
    (:func:`prroc_numba._resampling.engine.fold_replicates`): ``(stratified, (runs,
    fold_column, model_names, n_models))``.
    """
    opts = check_fold(data, inp, est, boot, test)
    return opts[1], E.fold_replicates(data, inp, opts, est, boot, label_bar)
