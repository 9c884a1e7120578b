"""The public API stays typed: every public function, method and property annotates its
parameters and its return, and the package ships ``py.typed`` (PEP 561) so that type
checkers read those annotations (``mypy prroc_numba`` runs in CI).
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import prroc_numba as prn
from prroc_numba import plot
from prroc_numba.ranking import RankResult

ROOT = Path(__file__).resolve().parents[1]


def _members(cls):
    """``(name, function)`` of a class's public methods, properties' getters,
    class and static methods and ``__init__``, the package's own (bases included)."""
    out, seen = [], set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("prroc_numba"):
            continue
        for name, value in vars(klass).items():
            if (name.startswith("_") and name != "__init__") or name in seen:
                continue
            seen.add(name)
            if isinstance(value, property):
                out.append((f"{cls.__name__}.{name} (property)", value.fget))
            elif isinstance(value, (classmethod, staticmethod)):
                out.append((f"{cls.__name__}.{name}", value.__func__))
            elif inspect.isfunction(value):
                out.append((f"{cls.__name__}.{name}", value))
    return out


def _public():
    items = []
    for name in prn.__all__:
        obj = getattr(prn, name)
        if inspect.isclass(obj):
            items += _members(obj)
        else:
            items.append((name, obj))
    items += _members(RankResult)  # what rank_models returns
    items += [(f"plot.{name}", getattr(plot, name)) for name in plot.__all__]
    return items


PUBLIC = _public()


def test_the_walk_finds_the_api():
    names = {n for n, _ in PUBLIC}
    assert {"auc", "bootstrap", "scorer", "plot.plot_pr", "PRCurve.auc"} <= names
    assert {"Accumulator.update", "ROCCurve.fpr (property)", "PRCurve.hull"} <= names
    assert len(PUBLIC) > 60


@pytest.mark.parametrize("name, func", PUBLIC, ids=[n for n, _ in PUBLIC])
def test_annotated(name, func):
    sig = inspect.signature(func)
    assert sig.return_annotation is not inspect.Signature.empty, f"{name} has no return annotation"
    bare = [
        p.name
        for i, p in enumerate(sig.parameters.values())
        if p.annotation is inspect.Parameter.empty and not (i == 0 and p.name in ("self", "cls"))
    ]
    assert not bare, f"{name}: parameters without annotation: {bare}"


def test_functions_returning_frames_declare_output():
    """``output=`` is in the signature type checkers read, not only added at run time."""
    for name in ("auc", "metrics", "roc_curve", "bootstrap", "compare", "interpolate"):
        func = inspect.unwrap(getattr(prn, name))
        assert "output" in inspect.signature(func).parameters, name


def test_py_typed_is_package_data():
    assert (ROOT / "prroc_numba" / "py.typed").exists()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text()
