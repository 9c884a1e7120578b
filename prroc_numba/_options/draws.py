"""The resampling family: how a bootstrap draws (:class:`Resampling`), the
``resampling=`` / ``stratified=`` pair resolved, and the ``resampling`` column.

* ``"multinomial"`` (in memory, the default): the classic bootstrap, n rows drawn with
  replacement (per class with ``stratified=True``, the default there);
* ``"poisson"``: each row gets an independent Poisson(1) count keyed by (seed,
  replicate, input row id) (:mod:`prroc_numba._kernels.poisson`). The resample size
  varies around n, the prevalence varies with it (so it is never stratified), and the
  counts need no coordination: the only bootstrap for data spread over partitions or
  workers (the default, and the only choice, for Dask input), and the same replicates
  in memory.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from .. import _backends
from .._warnings import outside_stacklevel

RESAMPLINGS = ("multinomial", "poisson")


@dataclass(frozen=True)
class Resampling:
    """The bootstrap options of a public call, as it names them: ``n_boot``,
    ``level``, ``stratified``, ``seed``, ``progress``, ``cluster``, ``resampling``,
    ``fold``, ``row_id``, ``device``, ``interval`` and ``return_replicates``.

    Built once at the public door; every step reads the fields it uses by name.
    """

    n_boot: int = 2000
    level: float = 0.95
    stratified: bool | None = None
    seed: int | None = None
    progress: bool | None = None
    cluster: Any = None
    resampling: str | None = None
    fold: Any = None
    row_id: str | None = None
    device: str | None = None
    interval: str = "percentile"
    return_replicates: bool = False


class DaskResamplingWarning(UserWarning):
    """Dask input is bootstrapped by another scheme than the in-memory default."""


class SparkResamplingWarning(DaskResamplingWarning):
    """Spark input is bootstrapped by another scheme than the in-memory default (the
    same scheme as Dask input: a subclass, so one filter silences both).
    """


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
                stacklevel=outside_stacklevel(),
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
