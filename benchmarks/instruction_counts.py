"""Instructions per paired-bootstrap replicate, counted by valgrind (load-independent).

    python benchmarks/instruction_counts.py [NUMBA_CACHE_DIR]   # needs valgrind

One process under callgrind, instrumentation off during the set-up (imports, data,
the plan: 10 models x 1e5 rows, 5% positives), then switched on and dumped around
each measured step: 16 replicates (AP, one thread) by the one-replicate walk, by the
block walk, and by the presorted numpy loop of ``_cases._numpy_boot`` (its sorts made
before). The kernels are compiled for x86-64-v3 in their own cache (valgrind does not
run AVX-512 code); numpy runs its AVX2 paths under valgrind, and its SIMD instructions
do more work each than the kernels' scalar ones, so its count is not a time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
B = 16
STEPS = ("one walk per replicate", "block walk", "presorted numpy loop")

CHILD = r"""
import os, sys, time
sys.path.insert(0, {root!r}); sys.path.insert(0, {here!r})
import numba, numpy as np, pandas as pd
from _cases import binormal, _numpy_boot, _numpy_orders
from prroc_numba._core.packing import pack
from prroc_numba._resampling import plan as R
from prroc_numba._checks import kernel_seed as _seed
from prroc_numba._resampling.run import _rows, _draw
from prroc_numba._kernels import resample as K, resample_blocks as KB
numba.set_num_threads(1)
n, M, B = 100_000, 10, {b}
y, S = binormal(n, n_models=M)
cols = [np.ascontiguousarray(S[:, j]) for j in range(M)]
frame = pd.DataFrame({{f"m{{j}}": S[:, j] for j in range(M)}}); frame["y"] = y
plan = R.Plan(pack(frame, score=[f"m{{j}}" for j in range(M)], label="y"), True)
rows, draw, seed = _rows(plan), _draw(plan, 0), _seed(1)
spec = (0, False, np.empty(0))
out = np.empty((M, 1, B))
orders = _numpy_orders(cols)
K._boot_paired(rows, draw, seed, 0, 1, spec, out, 0, 1)  # loaded / compiled first
KB._boot_paired_blocks(rows, draw + (255,), seed, 0, 1, spec, out, 0, 1)
_numpy_boot(y, cols, 1, orders=orders)
def step(tag):
    print(f"@@{{tag}}@@", flush=True)  # valgrind echoes this code: marks not in its text
    while not os.path.exists(f"{{sys.argv[1]}}.{{tag}}"):
        time.sleep(0.2)
step("ready")
K._boot_paired(rows, draw, seed, 0, B, spec, out, 0, B)
step("s0")
KB._boot_paired_blocks(rows, draw + (255,), seed, 0, B, spec, out, 0, (B + 7) // 8)
step("s1")
_numpy_boot(y, cols, B, orders=orders)
step("s2")
"""


def main():
    tmp = Path(tempfile.mkdtemp())
    cache = sys.argv[1] if len(sys.argv) > 1 else str(tmp / "numba")  # reuse a warm one
    env = dict(
        os.environ,
        NUMBA_CPU_NAME="x86-64-v3",
        NUMBA_CPU_FEATURES="+avx2",
        NUMBA_CACHE_DIR=cache,
        PYTHONHASHSEED="0",
        PYTHONPATH=str(ROOT),
    )
    code = CHILD.format(root=str(ROOT), here=str(HERE), b=B)
    # compile the kernels natively first (compiling under valgrind takes hours)
    warm = code.split("def step(tag)")[0]
    subprocess.run([sys.executable, "-c", warm, "x"], env=env, check=True)
    flag, log = tmp / "go", tmp / "log"
    out = tmp / "cg.out"
    with open(log, "w") as fh:
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
            + [sys.executable, "-c", code, str(flag)],
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
        )

    def wait_for(tag):
        while f"@@{tag}@@" not in log.read_text():
            if proc.poll() is not None:
                raise RuntimeError(log.read_text()[-3000:])
            time.sleep(0.5)

    def ctl(*args):
        subprocess.run(["callgrind_control", *args, str(proc.pid)], capture_output=True)

    wait_for("ready")
    ctl("-z")
    ctl("-i", "on")
    (tmp / "go.ready").touch()
    for k in range(3):
        wait_for(f"s{k}")
        ctl("-d", f"s{k}")
        (tmp / f"go.s{k}").touch()
    proc.wait()
    counts = {}
    for f in tmp.glob("cg.out.*"):
        text = f.read_text()
        m = re.search(r"^desc: Trigger: dump (s\d)", text, re.M)
        t = re.search(r"^totals: (\d+)", text, re.M)
        if m and t:
            counts[m.group(1)] = int(t.group(1))
    print(f"instructions per replicate (10 models x 1e5 rows, AP, {B} replicates counted):")
    for k, name in enumerate(STEPS):
        print(f"  {name:24s} {counts[f's{k}'] / B / 1e6:8.1f} million")


if __name__ == "__main__":
    main()
