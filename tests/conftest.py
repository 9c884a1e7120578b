"""Shared fixtures: the reference cases in tests/data (copied from shared/oracles)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

DATA = Path(__file__).parent / "data"
CASE_NAMES = sorted(p.stem for p in DATA.glob("*.json"))


class Case:
    """One reference case: ``frame`` (the CSV), ``ref`` (the JSON), score columns."""

    def __init__(self, name: str):
        self.name = name
        self.frame = pd.read_csv(DATA / f"{name}.csv")
        self.ref = json.loads((DATA / f"{name}.json").read_text())
        self.scores = [c for c in self.frame.columns if c.startswith("score")]

    def modes(self):
        """(mode name, kwargs for the public API, pos mass, neg mass) per PRROC mode."""
        df = self.frame
        y = df["label"].to_numpy(float)
        out = [("hard", {"label": "label"}, y, 1 - y)]
        if "weight" in df:
            w = df["weight"].to_numpy(float)
            out.append(("soft", {"label": "weight", "soft_labels": True}, w, 1 - w))
        if "sample_weight" in df:
            w = df["sample_weight"].to_numpy(float)
            out.append(
                ("sample_weight", {"label": "label", "weight": "sample_weight"}, w * y, w * (1 - y))
            )
        return out


_CACHE: dict = {}


def load_case(name: str) -> Case:
    if name not in _CACHE:
        _CACHE[name] = Case(name)
    return _CACHE[name]


@pytest.fixture(params=CASE_NAMES)
def case(request) -> Case:
    return load_case(request.param)


def random_batch(rng, n_curves, n_max, *, ties=True, weights=False, soft=False):
    """A long frame of ``n_curves`` random curves (column ``g``) with ties and weights."""
    sizes = rng.integers(1, n_max + 1, size=n_curves)
    g = np.repeat(np.arange(n_curves), sizes)
    n = g.size
    y = (rng.random(n) < rng.uniform(0.05, 0.7, size=n_curves)[g]).astype(float)
    s = rng.normal(size=n) + y * rng.uniform(0, 2, size=n_curves)[g]
    if ties:
        s = np.round(s, int(rng.integers(0, 2)))
    df = pd.DataFrame({"g": g, "s": s, "y": y})
    if weights:
        w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)
        w[np.r_[0, np.cumsum(sizes)[:-1]]] = 1.0  # no group is all zero weight
        df["w"] = w
    if soft:
        df["p"] = np.clip(y * 0.7 + rng.random(n) * 0.3, 0, 1)
    return df
