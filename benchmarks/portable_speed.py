"""One call's speed compiled for three targets: this host's CPU, generic x86-64 (what
the wheel ships) and x86-64-v3, each in fresh processes with its own kernel cache,
alternating; CPU time, best of 5 calls per process.

    python benchmarks/portable_speed.py [passes] [row]

The call: the 1-model bootstrap row of ``compare.py`` (N=1e5, B=1000), or the first
bootstrap row whose name contains ``row`` (e.g. ``"10 models paired"``).
"""

import json
import os
import subprocess
import sys
import tempfile

SNIP = r"""
import gc, json, sys, time
sys.path.insert(0, 'benchmarks')
import _cases
out = []
for case in _cases.CAPABILITIES['bootstrap'](1.0):
    if ROW not in case.name: continue
    case.ours()
    ts = []
    for _ in range(5):
        t0 = time.process_time(); case.ours(); ts.append(time.process_time() - t0)
    out.append(min(ts))
    break
print(json.dumps(out))
"""
ROW = sys.argv[2] if len(sys.argv) > 2 else "1 model"
SNIP = SNIP.replace("ROW", repr(ROW))
tmp = tempfile.mkdtemp()
res = {"host": [], "generic": [], "v3": []}
for _pass in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
    for side in ("host", "generic", "v3"):
        env = dict(os.environ, NUMBA_CACHE_DIR=f"{tmp}/{side}", PYTHONPATH=os.getcwd())
        if side != "host":
            env["NUMBA_CPU_NAME"] = "generic" if side == "generic" else "x86-64-v3"
        r = subprocess.run([sys.executable, "-c", SNIP], env=env, capture_output=True, text=True)
        if r.returncode:
            print(r.stderr[-2000:])
            sys.exit(1)
        res[side].append(json.loads(r.stdout.strip().splitlines()[-1])[0])
h, g, v = min(res["host"]), min(res["generic"]), min(res["v3"])
print(res)
print(f"host {h:.3f}s generic {g:.3f}s ({g / h:.3f}) v3 {v:.3f}s ({v / h:.3f})")
