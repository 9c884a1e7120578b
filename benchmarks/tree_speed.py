"""Per-call speed of two checkouts of the library, same run: the rows of ``compare.py``
(ours only), each checkout in its own fresh processes, alternating.

For a change that should not change speed (a refactor): the ratio after / before per
row, CPU time of all threads per call (best of ``--repeats`` calls, best over
``--passes`` alternating passes), the inputs built by this checkout's ``_cases.py`` for
both sides. Each side runs with its own Numba cache directory, filled first::

    python benchmarks/tree_speed.py /path/to/before/checkout          # after: this one
    python benchmarks/tree_speed.py BEFORE --after AFTER --all        # every row
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cold_start import _SPEED, SPEED_ROWS, _timed  # noqa: E402 (the same timing snippet)


def _rows(everything):
    if not everything:
        return SPEED_ROWS
    import _cases

    return [(cap, "") for cap in _cases.CAPABILITIES]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("before", help="the other checkout's root")
    p.add_argument("--after", default=str(HERE.parent), help="default: this checkout")
    p.add_argument("--all", action="store_true", help="every row of compare.py's cases")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--passes", type=int, default=3)
    a = p.parse_args(argv)
    rows = json.dumps(_rows(a.all))
    tmp = Path(tempfile.mkdtemp(prefix="tree_speed_"))
    sides = {}
    for name, root in (("before", a.before), ("after", a.after)):
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env.update(PYTHONPATH=str(Path(root).resolve()), NUMBA_CACHE_DIR=str(tmp / name))
        sides[name] = env
        _timed([sys.executable, "-c", _SPEED, str(HERE), rows, "1"], env, tmp)  # compile
    best: dict = {}
    load = [os.getloadavg()[0]]
    for _ in range(a.passes):
        for name, env in sides.items():
            _, res, _ = _timed(
                [sys.executable, "-c", _SPEED, str(HERE), rows, str(a.repeats)], env, tmp
            )
            for cap, case, t in res["rows"]:
                d = best.setdefault(f"{cap}: {case}", {})
                d[name] = min(d.get(name, float("inf")), t)
            load.append(os.getloadavg()[0])
    print(f"before: {a.before}; after: {a.after}; load average {min(load):.1f}-{max(load):.1f}")
    print("| compare.py row (CPU per call) | before | after | after / before |")
    print("|---|---:|---:|---:|")
    for row, d in best.items():
        print(
            f"| {row} | {d['before'] * 1e3:,.1f} ms | {d['after'] * 1e3:,.1f} ms "
            f"| {d['after'] / d['before']:.3f} |"
        )


if __name__ == "__main__":
    main()
