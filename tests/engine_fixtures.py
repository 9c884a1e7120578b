"""What the engines' tests share: the real Dask LocalCluster (a module-scoped fixture,
imported by the test modules that use it; the real SparkSession is
``tests/conftest.py``'s ``spark``) and the frame built to hit the partitions' edges."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """A distributed LocalCluster of 2 worker processes, and its Client."""
    from distributed import Client, LocalCluster

    # the workers' scratch space in a fresh folder of this run (not a shared /tmp one)
    scratch = str(tmp_path_factory.mktemp("dask-scratch"))
    with (
        LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",
            local_directory=scratch,
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c


def edge_frame(n, seed=0, extra="soft"):
    """Three groups (one without positives), tied scores ``a``, rounded scores ``b``,
    weights ``wt`` in halves (some zero), then ``extra``: ``"soft"`` labels in [0, 1]
    or ``"rid"``, each row's position (its row id)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    columns = {
        "g": rng.choice(["u", "v", "w"], n),
        "y": y,
        "a": rng.integers(0, 12, n) / 4.0,  # few distinct scores: ties everywhere
        "b": np.round(y + rng.normal(size=n), 2),
        "wt": rng.integers(0, 4, n) * 0.5,  # weights, some zero
    }
    if extra == "soft":
        columns["soft"] = rng.random(n)
    else:
        columns["rid"] = np.arange(n, dtype=np.int64)
    df = pd.DataFrame(columns)
    df.loc[df["g"] == "w", "y"] = 0  # a group without positives
    return df
