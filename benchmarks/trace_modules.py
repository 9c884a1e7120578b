"""Which modules one ``bootstrap`` call enters, in order: the trace of
docs/architecture.md ("Following one call's data").

Records every call that crosses from one module of the package into another (calls
inside a module are its own steps) during a warm ``bootstrap(df, score="s", label="y",
by="g")`` and prints them in order, indented by depth. Then the one-pass check: the
same calls as a tree (who called whom), with the leaf reads taken out (:data:`LEAVES`:
modules any layer may consult on the way, their own calls spliced into the caller's)
and consecutive calls from one caller into one module taken as one visit (an object
built, then run); every other module must be visited once::

    python benchmarks/trace_modules.py
"""

import collections
import sys

import numpy as np
import pandas as pd

#: leaf reads: the leaf modules of docs/architecture.md, the type tests of
#: ``_core.dataframes``, the ``Batch``'s own properties, the thread pool every kernel
#: call goes through and ``_core.device`` (which device runs the call; the result's tag)
LEAVES = {
    "prroc_numba._schema",
    "prroc_numba._frames",
    "prroc_numba._checks",
    "prroc_numba._docs",
    "prroc_numba._calls",
    "prroc_numba._warnings",
    "prroc_numba._optional",
    "prroc_numba._version",
    "prroc_numba._core.dataframes",
    "prroc_numba._core.batch",
    "prroc_numba._drivers.threads",
    "prroc_numba._core.device",
}


def trace(call):
    """The tree of module entries of ``call()``: nodes ``{"mod", "fn", "children"}``."""
    root = {"mod": "<call>", "fn": "", "children": []}
    stack = [(root, None)]

    def prof(frame, event, arg):
        if event == "call":
            mod = frame.f_globals.get("__name__", "")
            caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
            if mod.startswith("prroc_numba") and mod != caller:
                node = {"mod": mod, "fn": frame.f_code.co_name, "children": []}
                stack[-1][0]["children"].append(node)
                stack.append((node, frame))
        elif event == "return" and stack[-1][1] is frame:
            stack.pop()

    sys.setprofile(prof)
    try:
        call()
    finally:
        sys.setprofile(None)
    return root


def show(node, depth=0):
    for child in node["children"]:
        print(f"{'  ' * depth}{child['mod']}.{child['fn']}")
        show(child, depth + 1)


def visits(node):
    """The children of ``node`` with leaf reads spliced out and consecutive entries into
    one module merged (their children joined): ``[(mod, fns, children)]``.
    """
    flat = []
    for child in node["children"]:
        if child["mod"] in LEAVES:
            flat.extend(visits(child))
        else:
            flat.append((child["mod"], [child["fn"]], visits(child)))
    merged = []
    for mod, fns, kids in flat:
        if merged and merged[-1][0] == mod:
            merged[-1] = (mod, merged[-1][1] + fns, merged[-1][2] + kids)
        else:
            merged.append((mod, fns, kids))
    return merged


def count(tree, counter, depth=0, lines=None):
    for mod, fns, kids in tree:
        counter[mod] += 1
        if lines is not None:
            lines.append(f"{'  ' * depth}{mod}  ({', '.join(dict.fromkeys(fns))})")
        count(kids, counter, depth + 1, lines)
    return counter


def main():
    import prroc_numba as prn

    rng = np.random.default_rng(0)
    n = 400
    df = pd.DataFrame({"y": rng.random(n) < 0.3, "s": rng.random(n), "g": rng.integers(0, 3, n)})

    def call():
        return prn.bootstrap(df, score="s", label="y", by="g", n_boot=20, seed=0)

    call()  # warm: kernels loaded, imports done
    root = trace(call)
    print("every call that crosses a module border, by depth:")
    show(root)
    lines = []
    seen = count(visits(root), collections.Counter(), lines=lines)
    print("\nthe data's path, leaf reads aside (one line a visit):")
    print("\n".join(lines))
    again = {m: k for m, k in seen.items() if k > 1}
    print("\nmodules visited more than once on the data's path:", again or "none")


if __name__ == "__main__":
    main()
