"""The example notebooks run top to bottom, cleanly, with the current interpreter.

Each notebook in ``notebooks/`` is executed with nbclient (kernel "python3", working
directory ``notebooks/``), in a kernel that imports this checkout's package. A cell that
raises fails the test, and so does anything written to stderr (warnings included): the
notebooks are documentation and must run clean. Their own ``assert`` cells check the
figures they reproduce (the paper's Table 1, Figures 6 and 7, ...).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def test_notebooks_are_present():
    assert NAMES, "no notebooks found in notebooks/"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_clean(name, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    t0 = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - t0
    stderr = [
        (i, out.get("text", ""))
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stderr"
    ]
    assert not stderr, f"{name} wrote to stderr: {stderr[:3]}"
    assert elapsed < 60, f"{name} took {elapsed:.0f} s; keep the notebooks' data small"
