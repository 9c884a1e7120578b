"""A damaged kernel cache heals: one warning naming the file, correct answers, then clean.

A full disk, an interrupted copy of a home directory or a bad sector leaves index
(``.nbi``) or data (``.nbc``) files empty, cut short or full of garbage. Each kind of
damage is done to a copy of a warm cache; then, in a fresh process with a deadline,
the calls answer correctly (scikit-learn's values), one ``KernelCacheWarning`` names a
damaged file and says what was done, and the next process answers correctly without
any warning or compiling (the entries were rewritten).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

ROOT = Path(__file__).resolve().parents[1]

_CALL = """
import numpy as np, prroc_numba as prn
rng = np.random.default_rng(7)
y = (rng.random(500) < 0.3).astype(int)
s = np.round(rng.normal(size=500) + y, 1)
print(repr(prn.auc_roc(y, s)), repr(prn.auc_pr(y, s, method="ap")))
"""


def _expected():
    rng = np.random.default_rng(7)
    y = (rng.random(500) < 0.3).astype(int)
    s = np.round(rng.normal(size=500) + y, 1)
    return roc_auc_score(y, s), average_precision_score(y, s)


def _run(cache: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache), PRROC_NUMBA_NO_SHIPPED="1")
    out = subprocess.run(
        [sys.executable, "-c", _CALL],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(cache.parent),
        check=False,
        timeout=240,  # a hang fails the test instead of the CI run
    )
    assert out.returncode == 0, out.stderr[-3000:]
    roc, ap = (float(v) for v in out.stdout.split())
    want_roc, want_ap = _expected()
    assert roc == pytest.approx(want_roc, abs=1e-12)
    assert ap == pytest.approx(want_ap, abs=1e-12)
    return out.stderr


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    cache = tmp_path_factory.mktemp("warm") / "cache"
    _run(cache)
    assert _run(cache) == ""  # warm: silent
    assert list(cache.rglob("*.nbi")) and list(cache.rglob("*.nbc"))
    return cache


def _empty(p: Path):
    p.write_bytes(b"")


def _cut(p: Path):
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _garbage(p: Path):
    p.write_bytes(np.random.default_rng(1).bytes(max(p.stat().st_size, 64)))


@pytest.mark.slow
@pytest.mark.parametrize(
    "pattern,damage",
    [
        ("*.nbi", _empty),
        ("*.nbi", _cut),
        ("*.nbi", _garbage),
        ("*.nbc", _empty),
        ("*.nbc", _cut),
        ("*.nbc", _garbage),
    ],
    ids=["index-empty", "index-cut", "index-garbage", "data-empty", "data-cut", "data-garbage"],
)
def test_damaged_cache_heals(warm, tmp_path, pattern, damage):
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    damaged = sorted(cache.rglob(pattern))
    for p in damaged:
        damage(p)

    first = _run(cache)
    warned = [ln for ln in first.splitlines() if "KernelCacheWarning" in ln]
    assert len(warned) == 1, first  # once, however many files were damaged
    assert any(str(p) in warned[0] for p in damaged), warned[0]
    assert "compiled again" in warned[0]

    # the entries were rewritten: the next process loads them, silently
    assert _run(cache) == ""


_CALLEE = "from ..._jit.numba import jit\n\n\n@jit\ndef bump(x):\n    return x + {k}\n"
_CALLER = (
    "from ..._jit.numba import jit\nfrom .callee import bump\n\n\n@jit\ndef twice(x):\n"
    "    return bump(x) * 2\n"
)


def test_a_changed_callee_in_another_file_retires_its_callers_entries(tmp_path):
    """A cached kernel holds the machine code of the kernels it calls, while Numba checks
    an entry against its own source file only: after an edit of a callee in another
    kernel module, the caller must not answer from its stale entry."""
    pkg = tmp_path / "src" / "prroc_numba"
    shutil.copytree(
        ROOT / "prroc_numba", pkg, ignore=shutil.ignore_patterns("__pycache__", "_compiled")
    )
    probe = pkg / "_kernels" / "zz_probe"
    probe.mkdir()
    (probe / "__init__.py").write_text("")
    (probe / "caller.py").write_text(_CALLER)
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(pkg.parent), NUMBA_CACHE_DIR=str(cache), PRROC_NUMBA_QUIET="1")
    code = "from prroc_numba._kernels.zz_probe.caller import twice; print(twice(1))"

    def run():
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            cwd=str(tmp_path),
            timeout=120,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        return int(out.stdout)

    (probe / "callee.py").write_text(_CALLEE.format(k=1))
    assert run() == 4
    assert run() == 4  # from the cache
    (probe / "callee.py").write_text(_CALLEE.format(k=2))
    assert run() == 6
