"""The ``resampling=`` / ``stratified=`` arguments of the bootstrap functions, checked once.

* ``"multinomial"`` (in memory, the default): the classic bootstrap, n rows drawn with
  replacement (per class with ``stratified=True``, the default there);
* ``"poisson"``: each row gets an independent Poisson(1) count keyed by (seed,
  replicate, input row id) (:mod:`._kernels.poisson`). The resample size varies around
  n, the prevalence varies with it (so it is never stratified), and the counts need no
  coordination: the only bootstrap for data spread over partitions or workers (the
  default, and the only choice, for Dask input), and the same replicates in memory.
"""

from __future__ import annotations

RESAMPLINGS = ("multinomial", "poisson")


def resolve(resampling, stratified, engine="memory"):
    """Return ``(stratified, poisson)`` as bools, or raise a ValueError saying why.

    ``engine``: ``"memory"`` (CPU, all rows here), ``"dask"`` (rows in partitions) or
    ``"cuda"`` (the GPU bootstrap); the last two run the Poisson bootstrap only, and
    ``resampling=None`` means ``"poisson"`` there.
    """
    distributed = engine != "memory"
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
                "cuda": "device='cuda' runs the Poisson bootstrap (each row counts "
                "Poisson(1) times), which does not keep the class counts fixed",
                "memory": "resampling='poisson' draws an independent count per row, so "
                "the class counts vary",
            }[engine]
            hint = "" if engine == "cuda" else " (or leave it None)"
            raise ValueError(
                f"stratified=True cannot be combined with it: {why}; pass stratified=False{hint}"
            )
        return False, True
    if distributed:
        where = "Dask input" if engine == "dask" else "device='cuda'"
        raise ValueError(
            f"resampling='multinomial' needs all rows in one place on the CPU; {where} is "
            "resampled with resampling='poisson' (leave resampling=None)"
        )
    return (True if stratified is None else bool(stratified)), False
