"""The estimator family: which area a call estimates (:class:`Estimator`), and the
limits of AUPRG.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _backends
from .._checks import area_code, method_label
from .._core.inputs import Inputs


@dataclass(frozen=True)
class Estimator:
    """``curve``, ``method``, ``hull`` and the partial range (``partial``,
    ``partial_focus``, ``standardize``) of an area, and whether it is normalised
    (``normalize``: Boyd et al.'s normalised AUC-PR), as the public call names them.
    """

    curve: str = "pr"
    method: str | None = None
    hull: bool = False
    partial: tuple[float, float] | None = None
    partial_focus: str = "fpr"
    standardize: bool = False
    normalize: bool = False

    @property
    def label(self) -> str:
        """The ``method`` column of the call's frame (``", normalized"`` appended with
        ``normalize=True``).
        """
        label = method_label(
            self.curve, self.method, self.hull, self.partial, self.partial_focus, self.standardize
        )
        return label + ", normalized" if self.normalize else label

    @property
    def code(self) -> int:
        """The kernels' estimator code (clear errors for unknown methods)."""
        return area_code(self.curve, self.method)


def check_prg(data, method, device, inp: Inputs, partial=None):
    """Refuse what AUPRG (the estimate and the bootstrap) does not offer, clearly."""
    area_code("prg", method)
    for name, value in (
        ("partial", partial),
        ("multiclass", inp.multiclass),
        ("average", inp.average),
    ):
        if value is not None:
            raise ValueError(f"curve='prg' takes binary input and whole areas; drop {name}=")
    if device not in (None, "cpu"):
        raise ValueError("curve='prg' runs on the CPU; pass device='cpu' or leave it None")
    if _backends.engine(data) != _backends.MEMORY:
        raise ValueError("curve='prg' needs every row in one place; compute it on pandas input")
