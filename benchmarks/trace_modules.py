"""Which modules one ``bootstrap`` call enters, in order: the trace of
docs/architecture.md ("Following one call's data").

Records every call that crosses from one module of the package into another (calls
inside a module are its own steps) during a warm ``bootstrap(df, score="s", label="y",
by="g")``, prints them in order and the modules entered more than once::

    python benchmarks/trace_modules.py
"""

import collections
import sys

import numpy as np
import pandas as pd


def trace(call):
    """``[(module entered, function, calling module)]`` of ``call()``, in order."""
    entries = []

    def prof(frame, event, arg):
        if event != "call":
            return
        mod = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        if mod.startswith("prroc_numba") and mod != caller:
            entries.append((mod, frame.f_code.co_name, caller))

    sys.setprofile(prof)
    try:
        call()
    finally:
        sys.setprofile(None)
    return entries


def main():
    import prroc_numba as prn

    rng = np.random.default_rng(0)
    n = 400
    df = pd.DataFrame({"y": rng.random(n) < 0.3, "s": rng.random(n), "g": rng.integers(0, 3, n)})

    def call():
        return prn.bootstrap(df, score="s", label="y", by="g", n_boot=20, seed=0)

    call()  # warm: kernels loaded, imports done
    entries = trace(call)
    for mod, fn, caller in entries:
        print(f"{mod:36s} {fn:24s} <- {caller}")
    again = collections.Counter(m for m, _, _ in entries)
    print("entered more than once:", {m: k for m, k in again.items() if k > 1})


if __name__ == "__main__":
    main()
