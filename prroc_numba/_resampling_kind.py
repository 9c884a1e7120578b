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

def resolve(resampling, stratified, distributed=False):
    """Return ``(stratified, poisson)`` as bools, or raise a ValueError saying why."""
    if resampling is None:
        resampling = "poisson" if distributed else "multinomial"
    if resampling not in RESAMPLINGS:
        raise ValueError(f"resampling={resampling!r} is not known; use one of {RESAMPLINGS}")
    if resampling == "poisson":
        if stratified:
            why = ("Dask input is resampled by the Poisson bootstrap (each row's count is "
                   "drawn where the row lives, without counting the classes across "
                   "partitions), which does not keep the class counts fixed"
                   if distributed else
                   "resampling='poisson' draws an independent count per row, so the "
                   "class counts vary")
            raise ValueError(f"stratified=True cannot be combined with it: {why}; pass "
                             "stratified=False (or leave it None)")
        return False, True
    if distributed:
        raise ValueError(
            "resampling='multinomial' needs all rows in one place; Dask input is "
            "resampled with resampling='poisson' (leave resampling=None)")
    return (True if stratified is None else bool(stratified)), False
