"""docs/uncertainty.md stays true: its Python blocks run from an empty folder (the
figure goes there) and the numbers it quotes are those its code gives."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "uncertainty.md").read_text()


def test_uncertainty_page_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty folder: the page's figure goes to the current one
    ns = {}
    for block in re.findall(r"```python\n(.*?)```", PAGE, re.S):
        exec(compile(block, "docs/uncertainty.md", "exec"), ns)
    assert (tmp_path / "cv_folds_bands.png").stat().st_size > 10_000
    areas = ns["areas"]
    assert len(areas) == 14
    assert list(areas.fold[:7]) == [0, 1, 2, 3, 4, "mean", "pooled"]
    mean = areas[areas.fold == "mean"].auc.to_numpy()
    np.testing.assert_allclose(ns["cvauc"].estimate, mean, rtol=1e-12)
    import matplotlib.pyplot as plt

    plt.close("all")
