"""The Examples in public docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

PUBLIC_MODULES = [
    "prroc_numba.curves",
    "prroc_numba.areas",
    "prroc_numba.resampling",
    "prroc_numba.comparison",
    "prroc_numba.data",
    "prroc_numba.grids",
    "prroc_numba.cli",
]


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
