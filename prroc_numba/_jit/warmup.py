"""The representative calls: what the wheel build compiles and ``prroc-numba warmup`` runs.

:data:`CALLS` is ONE list of ``(name, call)`` pairs, each a call of the public API, the
command line or the Dask partition functions on a small synthetic input. Together they
reach every compiled kernel of the package with the argument types users reach it with
(kernels take one dtype path, so one call per kernel path is enough). The wheel build
runs them for the portable CPU and ships the compiled code; ``prroc-numba warmup``
runs them on the user's machine (source installs, unusual CPUs); the tests check that
they reach every kernel and that an installed wheel compiles nothing on them.

To cover a new feature, append ``("its name", lambda d: prn.new_function(d.small, ...))``
to :data:`CALLS` (``d`` holds the inputs built by :func:`inputs`). The engines' calls
are their wings' own: each wing of :data:`WINGS` offers them in its ``warmup`` module
(``CALLS``, and ``available()``: whether they can run here), reached by its module
path; this module imports no engine (dask, pyspark, pyarrow, torch). A wing whose
package cannot be imported here (the Spark wing without pyarrow, the torch wing
without torch) offers no calls, and a wing's calls are skipped where ``available()``
says no, so the build and ``prroc-numba warmup`` run without any engine installed.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
import warnings
from types import SimpleNamespace


def inputs() -> SimpleNamespace:
    """The inputs of the calls: a 300-row frame with 3 groups and a 1e4-row frame (one
    curve of at least 4096 rows takes the presorted path).
    """
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.2).astype(int)
    small = pd.DataFrame(
        {
            "g": np.repeat(["a", "b", "c"], n // 3),
            "y": y,
            "yb": y.astype(bool),
            "yf": y.astype(float),
            "s": rng.normal(size=n) + y,
            "s32": (rng.normal(size=n) + y).astype(np.float32),
            "t": rng.normal(size=n) + 0.5 * y,
            "si": rng.integers(0, 5, size=n),
            "w": rng.choice([0.5, 1.0, 2.0], size=n),
            "p": np.clip(y * 0.7 + rng.random(n) * 0.3, 0, 1),
        }
    )
    m = 10_000
    yl = (rng.random(m) < 0.3).astype(int)
    large = pd.DataFrame(
        {
            "y": yl,
            "s": rng.normal(size=m) + yl,
            "t": rng.normal(size=m) + 0.7 * yl,
            "r": np.round(rng.normal(size=m) + yl, 1),  # ties
        }
    )
    return SimpleNamespace(small=small, large=large)


def _prn():
    import prroc_numba

    return prroc_numba


def _points(d):
    prn = _prn()
    c = prn.PRCurve(
        pd_frame({"recall": [0.2, 0.5, 0.9], "precision": [0.9, 0.6, 0.3]}), n_pos=50, n_neg=200
    )
    return [
        c.to_roc().hull().points(),
        c.precision_at([0.1, 0.4], hull=True),
        c.resample(11).points(),
        c.auc(),
        prn.ROCCurve(fpr=[0.1, 0.4], tpr=[0.5, 0.8], pos_neg_ratio=0.25).to_pr().auc("integral"),
    ]


def pd_frame(columns):
    import pandas as pd

    return pd.DataFrame(columns)


def _cli(main, argv):
    """Run the command line's ``main`` on ``argv``; its printed output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    if code != 0:
        raise RuntimeError(f"prroc-numba {' '.join(argv)} exited with {code}")
    return out.getvalue()


def _partitions(d):
    from .._core.warm_parts import exercise

    return exercise(d.small, ["s", "si"], "y", "g", weight="w")


B = {"n_boot": 20, "seed": 0, "progress": False}
#: disparity's (it shows no progress bar)
BD = {"n_boot": 20, "seed": 0}


def dask_signatures() -> dict:
    """The Dask wing's kernel signatures (:func:`prroc_numba._dask.warmup.signatures`),
    compiled without Dask by :func:`compile_dask_kernels`.
    """
    return _wing("_dask").signatures()


def compile_dask_kernels(d=None) -> list:
    """Compile (or load) the Dask partition functions' kernels from
    :func:`dask_signatures`, without Dask; the signatures compiled.
    """
    found = dispatchers()
    out = []
    for name, sig in dask_signatures().items():
        found[name].compile(sig)
        out.append(sig)
    return out


#: (name, call) -- every call is run by the wheel build, ``prroc-numba warmup`` and the
#: tests; the wings' calls follow (:data:`WINGS`)
CALLS = [
    ("auc", lambda d: _prn().auc(d.small, score="s", label="y")),
    (
        "partitions",  # what the Dask and Spark wings run in their workers
        lambda d: _partitions(d),
    ),
    (
        "auc integral by",
        lambda d: _prn().auc(
            d.small, score=["s", "s32", "si"], label="y", by="g", method="integral"
        ),
    ),
    (
        "auc ap soft",
        lambda d: _prn().auc(d.small, score="s", label="p", soft_labels=True, method="ap"),
    ),
    ("auc trapezoid", lambda d: _prn().auc(d.small, score="s", label="y", method="trapezoid")),
    (
        "auc roc weight",
        lambda d: _prn().auc(d.small, score=["s", "t"], label="y", by="g", curve="roc", weight="w"),
    ),
    ("auc hull", lambda d: _prn().auc(d.small, score="s", label="y", hull=True)),
    (
        "auc partial",
        lambda d: _prn().auc(d.small, score=["s", "si"], label="y", by="g", partial=(0, 0.3)),
    ),
    ("auc_pr array", lambda d: _prn().auc_pr(d.small["y"].to_numpy(), d.small["s32"].to_numpy())),
    ("auc_roc series", lambda d: _prn().auc_roc(d.small["yb"], d.small["si"])),
    (
        "auc_pr list",
        lambda d: _prn().auc_pr(list(d.small["y"]), list(d.small["s"]), method="trapezoid"),
    ),
    (
        "auc_roc standardized",
        lambda d: _prn().auc_roc(d.small["y"], d.small["s"], partial=(0, 0.1), standardize=True),
    ),
    ("auc_pr 1e4", lambda d: _prn().auc_pr(d.large["y"], d.large["s"])),
    ("auc_roc 1e4", lambda d: _prn().auc_roc(d.large["y"], d.large["s"])),
    ("auc 1e4 hull", lambda d: _prn().auc(d.large, score=["s", "t"], label="y", hull=True)),
    ("metrics", lambda d: _prn().metrics(d.small, score="s", label="y", by="g")),
    ("metrics 1e4", lambda d: _prn().metrics(d.large, score="s", label="y")),
    ("auc_ci", lambda d: _prn().auc_ci(d.small, score="s", label="y", weight="w")),
    ("confusion", lambda d: _prn().confusion(d.small, score="si", label="y", by="g")),
    (
        "confusion thresholds",
        lambda d: _prn().confusion(d.small, score="s", label="y", thresholds=[0.0, 1.0]),
    ),
    ("pr_curve", lambda d: _prn().pr_curve(d.small, score="s32", label="yb", by="g")),
    ("pr_curve dg", lambda d: _prn().pr_curve(d.small, score="si", label="y", interpolate="dg")),
    (
        "pr_curve continuous hull",
        lambda d: _prn().pr_curve(
            d.small, score="s", label="y", interpolate="continuous", hull=True
        ),
    ),
    (
        "pr_curve hull by",
        lambda d: _prn().pr_curve(d.small, score="s", label="y", by="g", hull=True),
    ),
    ("roc_curve", lambda d: _prn().roc_curve(d.small, score=["s", "si"], label="yf")),
    (
        "roc_curve weight",
        lambda d: _prn().roc_curve(score=d.small["s"], label=d.small["y"], weight=d.small["w"]),
    ),
    ("roc_curve hull", lambda d: _prn().roc_curve(d.small, score="s", label="y", hull=True)),
    (
        "interpolate pr",
        lambda d: _prn().interpolate(
            _prn().pr_curve(d.small, score="s", label="y", by="g"), grid=11, by="g", hull=True
        ),
    ),
    (
        "interpolate roc",
        lambda d: _prn().interpolate(
            _prn().roc_curve(d.small, score="s", label="y", by="g"), grid=11, by="g", space="roc"
        ),
    ),
    (
        "interpolate_matrix",
        lambda d: _prn().interpolate_matrix(
            _prn().pr_curve(d.small, score="s", label="y", by="g"), grid=11, by="g"
        ),
    ),
    (
        "average_curves",
        lambda d: _prn().average_curves(
            _prn().pr_curve(d.small, score="s", label="y", by="g"), grid=11, curve="g"
        ),
    ),
    ("pr_curve 1e4", lambda d: _prn().pr_curve(d.large, score=["r", "t"], label="y")),
    ("roc_curve 1e4", lambda d: _prn().roc_curve(d.large, score="s", label="y")),
    ("points", _points),
    (
        "interpolate points",
        lambda d: _prn().interpolate(
            pd_frame({"recall": [0.2, 0.5, 0.9], "precision": [0.9, 0.6, 0.3]}),
            grid=11,
            n_pos=50,
            n_neg=200,
        ),
    ),
    ("bootstrap", lambda d: _prn().bootstrap(d.small, score=["s", "si"], label="y", **B)),
    (
        "bootstrap unstratified",
        lambda d: _prn().bootstrap(d.small, score=["s", "t"], label="y", stratified=False, **B),
    ),
    (
        "bootstrap bca roc hull",
        lambda d: _prn().bootstrap(
            d.small, score="s", label="y", by="g", hull=True, curve="roc", interval="bca", **B
        ),
    ),
    (
        "bootstrap soft",
        lambda d: _prn().bootstrap(
            d.small, score="s", label="p", soft_labels=True, stratified=False, **B
        ),
    ),
    (
        "bootstrap partial cluster",
        lambda d: _prn().bootstrap(
            d.small, score="s", label="y", partial=(0, 0.5), cluster="g", stratified=False, **B
        ),
    ),
    (
        "bootstrap poisson",
        lambda d: _prn().bootstrap(
            d.small, score=["s", "si"], label="y", weight="w", resampling="poisson", **B
        ),
    ),
    ("bootstrap 1e4", lambda d: _prn().bootstrap(d.large, score="s", label="y", **B)),
    ("compare", lambda d: _prn().compare(d.small, score=["s", "si"], label="y", **B)),
    (
        "compare delong",
        lambda d: _prn().compare(d.small, score=["s", "t"], label="y", curve="roc", test="delong"),
    ),
    ("compare 1e4", lambda d: _prn().compare(d.large, score=["s", "t"], label="y", **B)),
    ("delong", lambda d: _prn().delong(d.small, score=["s", "t"], label="y")),
    (
        "bootstrap_curve",
        lambda d: _prn().bootstrap_curve(d.small, score="s", label="y", grid=11, **B),
    ),
    (
        "bootstrap_curve poisson soft",
        lambda d: _prn().bootstrap_curve(
            d.small, score="s", label="p", soft_labels=True, grid=11, resampling="poisson", **B
        ),
    ),
    (
        "operating_points",
        lambda d: _prn().operating_points(
            d.small, score=["s", "si"], label="y", targets=["max_f1", "recall>=0.5"], **B
        ),
    ),
    (
        "operating_points thresholds",
        lambda d: _prn().operating_points(
            d.small,
            score="s",
            label="y",
            by="g",
            thresholds=_prn().operating_points(d.small, score="s", label="y", by="g"),
            **B,
        ),
    ),
    (
        "accumulator",
        lambda d: _prn().Accumulator().update(d.small, score=["s", "si"], label="y", by="g").auc(),
    ),
    ("det_curve", lambda d: _prn().det_curve(d.small, score="s", label="y", by="g")),
    ("metrics eer", lambda d: _prn().metrics(d.small, score="s", label="y", metrics=["eer"])),
    ("prg_curve hull", lambda d: _prn().prg_curve(d.small, score="s", label="y", hull=True)),
    ("auc prg", lambda d: _prn().auc(d.small, score=["s", "t"], label="y", curve="prg")),
    (
        "compare prg",
        lambda d: _prn().compare(d.small, score=["s", "t"], label="y", curve="prg", **B),
    ),
    (
        "compare venkatraman",
        lambda d: _prn().compare(
            d.small, score=["s", "t"], label="y", curve="roc", test="venkatraman", **B
        ),
    ),
    (
        "compare venkatraman unpaired",
        lambda d: _prn().compare(
            d.small, score="s", label="y", by="g", curve="roc", test="venkatraman", **B
        ),
    ),
    (
        "bootstrap_curve roc simultaneous",
        lambda d: _prn().bootstrap_curve(
            d.small, score="s", label="y", curve="roc", space="tpr", band="simultaneous", **B
        ),
    ),
    ("auc fold", lambda d: _prn().auc(d.small, score=["s", "t"], label="y", fold="g")),
    ("bootstrap fold", lambda d: _prn().bootstrap(d.small, score="s", label="y", fold="g", **B)),
    (
        "bootstrap_curve fold",
        lambda d: _prn().bootstrap_curve(
            d.small, score="s", label="y", curve="roc", fold="g", grid=11, **B
        ),
    ),
    (
        "disparity",
        lambda d: _prn().disparity(d.small, score=["s", "t"], label="y", group="g", **BD),
    ),
    (
        "disparity unstratified",
        lambda d: _prn().disparity(
            d.small, score="s", label="y", group="g", stratified=False, reference="c", **BD
        ),
    ),
    (
        "disparity poisson",
        lambda d: _prn().disparity(
            d.small, score="s", label="y", group="g", resampling="poisson", stratified=False, **BD
        ),
    ),
    (
        "auc_ci influence",
        lambda d: _prn().auc_ci(
            d.small, score="s", label="y", curve="roc", method="influence", fold="g"
        ),
    ),
    ("dask partition kernels", compile_dask_kernels),
]


#: the engines' wings, each offering its own representative calls (``warmup.CALLS``)
WINGS = ("_dask", "_spark", "torch")


def _wing(name):
    """A wing's warm-up module, by its module path (as :mod:`prroc_numba._backends`
    reaches the wings), or None where the wing's package cannot be imported here (it
    needs its engine: pyarrow for the Spark wing, torch for the torch wing).
    """
    import importlib

    try:
        return importlib.import_module(f"prroc_numba.{name}.warmup")
    except ImportError as err:
        if (err.name or "").startswith("prroc_numba"):
            raise  # a broken module of the package, not a missing engine
        return None


def _wing_calls() -> list:
    """The wings' calls, each ``(name, call, wing)``, wing by wing (:data:`WINGS`)."""
    out = []
    for wing in WINGS:
        module = _wing(wing)
        out += [(name, call, wing) for name, call in (module.CALLS if module else ())]
    return out


_OFFERED = _wing_calls()
CALLS += [(name, call) for name, call, _wing_name in _OFFERED]
#: the wing that offers each of the wings' calls
WING_OF = {name: wing for name, _call, wing in _OFFERED}


#: the command line's representative calls (argv): run with the ``main`` that the
#: caller passes (the build, ``prroc-numba warmup``, the tests), since the command line
#: sits above this module
CLI_CALLS = [("cli demo", ["demo", "--n-boot", "20", "--no-progress"])]


def runnable(name: str) -> bool:
    """Whether call ``name`` can run here: a wing's call where the wing says its engine
    is available (the Dask kernels compile from their signatures without dask).
    """
    wing = WING_OF.get(name)
    return wing is None or _wing(wing).available()


def run_one(name: str, d: SimpleNamespace):
    """Run the representative call ``name`` on the inputs ``d``; its result."""
    call = dict(CALLS)[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tiny groups: undefined-metric warnings
        return call(d)


def run_cli(cli_main, name: str) -> str:
    """Run the command line's representative call ``name``; its printed output."""
    return _cli(cli_main, dict(CLI_CALLS)[name])


def run_calls(calls=None, cli_main=None) -> dict:
    """Run the representative calls; their results by name (a wing's calls are skipped
    where its engine is not installed: :func:`runnable`). ``cli_main``:
    :func:`prroc_numba.cli.main`, to run :data:`CLI_CALLS` too.
    """
    d = inputs()
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tiny groups: undefined-metric warnings
        for name, call in CALLS if calls is None else calls:
            if runnable(name):
                out[name] = call(d)
        if cli_main is not None and calls is None:
            for name, argv in CLI_CALLS:
                out[name] = _cli(cli_main, argv)
    return out


def dispatchers() -> dict:
    """Every compiled kernel of the package (``module.name`` -> dispatcher), except the
    helpers inlined into their callers (never compiled on their own) and the CUDA ones.
    """
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    from prroc_numba import _kernels

    out = {}
    # compiled code lives in _kernels/ only (tests/test_kernel_boundary.py); walking the
    # whole package would import the optional wings (Spark, torch, plot) and their
    # dependencies, which a build environment or a user's install may not have
    for info in pkgutil.walk_packages(_kernels.__path__, "prroc_numba._kernels."):
        if ".cuda" in info.name or info.name.endswith("__main__"):
            continue
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if (
                isinstance(obj, CPUDispatcher)
                and obj.py_func.__module__ == mod.__name__
                and obj.targetoptions.get("inline", "never") != "always"
            ):
                out[f"{mod.__name__}.{name}"] = obj
    return out


def warmup(out=None, cli_main=None) -> dict:
    """Compile (or load) every kernel; print where the cache is and how long it took.
    ``cli_main``: the command line's ``main``, to run its calls too.
    """
    from . import numba as _numba

    out = out or sys.stdout
    t0 = time.perf_counter()
    ran = run_calls(cli_main=cli_main)
    secs = time.perf_counter() - t0
    compiled = len(_numba.NOTICE.compile_seconds)
    where = _numba.CACHE_ROOT or "none (no writable directory: set NUMBA_CACHE_DIR)"
    shipped = f" (compiled kernels shipped: {_numba.SHIPPED_ROOT})" if _numba.SHIPPED_ROOT else ""
    print(
        f"prroc_numba kernels ready in {secs:.1f} s ({compiled} compiled now, "
        f"{len(ran)} representative calls)\ncache: {where}{shipped}",
        file=out,
    )
    return {"seconds": secs, "compiled": compiled, "cache": _numba.CACHE_ROOT}
