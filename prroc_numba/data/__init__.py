"""Example data shipped with the package."""

from __future__ import annotations

from importlib import resources

import pandas as pd

__all__ = ["DEMO_FILE", "DEMO_MODELS", "load_demo"]

DEMO_FILE = "demo_predictions.csv.gz"
DEMO_MODELS = ["gbm", "gbm_tuned", "logreg", "rules", "noise"]


def load_demo() -> pd.DataFrame:
    """The bundled demo predictions: 20,000 rows, 5% positives, five models.

    Columns: ``id``, ``y`` (0/1 label) and one score column per model
    (``gbm``, ``gbm_tuned``, ``logreg``, ``rules``, ``noise``); see
    :mod:`prroc_numba.data.make_demo` for how they were generated.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> from prroc_numba.data import load_demo
    >>> df = load_demo()
    >>> df.shape, int(df.y.sum())
    ((20000, 7), 1000)
    """
    with resources.as_file(resources.files(__package__) / DEMO_FILE) as path:
        return pd.read_csv(path)
