"""The input family: which rows, scores and labels a call reads (:class:`Inputs`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from . import device as _device
from .batch import Batch
from .classes import is_multilabel
from .packing import pack


@dataclass(frozen=True)
class Inputs:
    """The input arguments of a public call, as named there: ``score``, ``label``,
    ``by``, ``weight``, ``pos_label``, ``soft_labels`` and, where the call takes
    multiclass input, ``multiclass``, ``classes`` and ``average``.

    Built once at the public door; every step reads the fields it needs by name.
    """

    score: Any
    label: Any
    by: Any = None
    weight: Any = None
    pos_label: Any = None
    soft_labels: bool = False
    multiclass: str | None = None
    classes: Any = None
    average: str | None = None

    def binary(self) -> dict[str, Any]:
        """The binary input arguments by name, as the wings' functions take them."""
        return {
            "score": self.score,
            "label": self.label,
            "by": self.by,
            "weight": self.weight,
            "pos_label": self.pos_label,
            "soft_labels": self.soft_labels,
        }

    def classes_kw(self) -> dict[str, Any]:
        """The multiclass arguments by name, as :func:`~.packing.pack` takes them."""
        return {"multiclass": self.multiclass, "classes": self.classes, "average": self.average}

    def without_classes(self) -> Inputs:
        """These inputs read as binary input (no multiclass arguments)."""
        return replace(self, multiclass=None, classes=None, average=None)

    def on_device(self, device) -> tuple[str, Inputs]:
        """``(device, inputs)``: the device resolved and GPU arrays brought to the host
        (:func:`prroc_numba._core.device.prepare`).
        """
        device, score, label, weight, by = _device.prepare(
            device, self.score, self.label, self.weight, self.by
        )
        same = score is self.score and label is self.label and weight is self.weight
        if same and by is self.by:  # nothing was on a GPU (the usual case)
            return device, self
        return device, replace(self, score=score, label=label, weight=weight, by=by)

    def pack(self, data, pair_models: bool = False) -> Batch:
        """The :class:`~prroc_numba._core.batch.Batch` of these inputs over ``data``."""
        return pack(data, **self.binary(), **self.classes_kw(), pair_models=pair_models)

    def is_multi(self, data) -> bool:
        """Multiclass or multilabel input (``multiclass=`` or a label matrix)."""
        return self.multiclass is not None or is_multilabel(data, self.label)
