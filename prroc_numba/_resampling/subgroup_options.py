"""The options of a subgroup-gap call, checked once at the public door.

:class:`SubgroupOptions` is built by :meth:`SubgroupOptions.check` from the arguments of
:func:`prroc_numba.disparity` (each by name; the resampling design already resolved
there, as for every bootstrap) and handed on, frozen, to the engine (:mod:`.subgroup_draws`)
and the gap statistics (:mod:`.gaps`, :mod:`.gap_frame`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import _backends
from .._checks import check_level, check_n_boot, method_code
from .._core.pr_floor import check_normalize

#: the summaries of ``reference=`` (fairlearn's names); anything else names a group
SUMMARIES = ("between_groups", "to_overall")
OVERALL = "overall"
#: the intervals a gap may take (BCa's jackknife deletes rows of one curve)
GAP_INTERVALS = ("percentile", "basic")


@dataclass(frozen=True)
class SubgroupOptions:
    """Every option of a :func:`~prroc_numba.disparity` call, checked."""

    score: Any
    label: Any
    group: tuple[str, ...]
    by: Any
    weight: Any
    curve: str
    method: str
    code: int
    normalize: bool
    reference: Any
    n_boot: int
    level: float
    interval: str
    stratified: bool
    poisson: bool
    cluster: Any
    seed: int | None
    adjust: str
    baseline: Any
    #: the ``resampling`` column of the draw over all rows (``"unstratified"``, ...)
    design: str
    #: Spark input: the column keying each row's Poisson counts
    row_id: str | None = None
    progress: bool | None = None

    @property
    def within(self) -> bool:
        """Rows drawn within each (group, class) stratum: group sizes and prevalences
        stay fixed in every replicate.
        """
        return self.stratified and not self.poisson and self.cluster is None

    @property
    def resampling(self) -> str:
        """The ``resampling`` column."""
        return "stratified by group and class" if self.within else self.design

    @property
    def summary(self) -> bool:
        return isinstance(self.reference, str) and self.reference in SUMMARIES

    @property
    def method_label(self) -> str:
        return self.method + (", normalized" if self.normalize else "")

    @classmethod
    def check(
        cls,
        data: Any,
        *,
        score: Any,
        label: Any,
        group: str | Sequence[str],
        by: Any,
        weight: Any,
        curve: str,
        method: str | None,
        normalize: bool,
        reference: Any,
        n_boot: int,
        level: float,
        interval: str,
        stratified: bool,
        poisson: bool,
        design: str,
        seed: int | None,
        adjust: str,
        baseline: Any,
        cluster: Any,
        row_id: str | None = None,
    ) -> SubgroupOptions:
        """Check every argument once; a ValueError names the argument and the fix.
        ``stratified``, ``poisson``: the resampling design, resolved; ``design`` its
        label; ``adjust`` checked by the caller.
        """
        groups = _group_columns(group)
        if curve not in ("pr", "roc"):
            raise ValueError(f"curve={curve!r} is not known; use 'pr' or 'roc'")
        code = method_code(curve, method)
        name = method if method is not None else ("dg" if curve == "pr" else "trapezoid")
        if normalize:
            name = check_normalize(curve, method)
        check_n_boot(n_boot)
        check_level(level)
        if interval not in GAP_INTERVALS:
            raise ValueError(f"interval={interval!r} is not known; use one of {GAP_INTERVALS}")
        strat = stratified
        if poisson and cluster is not None:
            raise ValueError(
                "cluster= draws whole clusters (multinomial); drop cluster= or pass "
                "resampling='multinomial'"
            )
        if normalize and (not strat or poisson or cluster is not None or weight is not None):
            raise ValueError(
                "normalize=True subtracts the least area at each replicate's prevalence, "
                "which needs the class counts fixed in every replicate: the default "
                "stratified bootstrap (stratified=True, no cluster=, no weight=, "
                "resampling='multinomial')"
            )
        if isinstance(score, str) and baseline is not None:
            raise ValueError("baseline= names one of several score columns; pass score=[...]")
        return cls(
            score=score,
            label=label,
            group=groups,
            by=by,
            weight=weight,
            curve=curve,
            method=name,
            code=code,
            normalize=bool(normalize),
            reference=reference,
            n_boot=int(n_boot),
            level=float(level),
            interval=interval,
            stratified=strat,
            poisson=poisson,
            cluster=cluster,
            seed=seed,
            adjust="none" if adjust is None else adjust,
            baseline=baseline,
            design=design,
            row_id=row_id,
        )


def check_data(data, row_id) -> None:
    """``data`` is a frame; ``row_id=`` only with Spark input (it keys the Poisson
    counts of its rows there; other input is keyed by each row's position).
    """
    if data is None:
        raise TypeError("disparity needs data= (a frame of the score, label and group columns)")
    if row_id is not None and _backends.engine(data) != _backends.SPARK:
        raise ValueError(
            "row_id= names the row-id column of Spark input; other input is keyed by each "
            "row's position: drop row_id="
        )


def _group_columns(group) -> tuple[str, ...]:
    """``group=`` as a tuple of column names (one or more)."""
    if isinstance(group, str):
        cols: tuple = (group,)
    elif isinstance(group, (list, tuple)):
        cols = tuple(group)
    else:
        cols = ()
    if not cols or not all(isinstance(c, str) for c in cols):
        raise ValueError(
            f"group={group!r}: pass the name of the column holding each row's group, or a "
            "list of names (their combinations are the groups)"
        )
    if len(set(cols)) != len(cols):
        raise ValueError(f"group={group!r} names a column twice")
    return cols
