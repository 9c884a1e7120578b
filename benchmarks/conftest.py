"""pytest-benchmark setup: collect ``bench_*.py`` here and import the shared cases.

Run e.g. ``python -m pytest benchmarks/bench_curves.py`` (benchmarks are outside the
default test paths). Each benchmark puts ours, the peer and the floor in one group, so
pytest-benchmark's table shows them side by side; ``benchmarks/compare.py`` prints the
ratios directly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_collect_file(file_path, parent):
    if parent.session.isinitpath(file_path):
        return None  # named on the command line: pytest collects it already
    if file_path.suffix == ".py" and file_path.name.startswith("bench_"):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def run(benchmark, fn, *, rounds):
    """Time ``fn`` with one warm-up call first (Numba compilation excluded)."""
    return benchmark.pedantic(fn, rounds=rounds, warmup_rounds=1, iterations=1)
