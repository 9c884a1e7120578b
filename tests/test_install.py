"""A real, non-editable install: read-only package, no writable home, clean uninstall.

The kernel cache must never go inside the installed package: installed read-only
(system Python, Docker image, shared cluster environment) with no writable home (a
service user, ``HOME=/nonexistent``) the library still works (kernels compile in memory,
one line on stderr says how to make it fast); with a home, compiled code goes to the
per-user cache directory; after ``pip uninstall`` nothing of the package is left.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parents[1]

_CALL = """
import numpy as np, prroc_numba as prn
rng = np.random.default_rng(7)
y = (rng.random(500) < 0.3).astype(int)
s = np.round(rng.normal(size=500) + y, 1)
print(repr(prn.auc_roc(y, s)), prn.__file__)
"""


def _expected():
    rng = np.random.default_rng(7)
    y = (rng.random(500) < 0.3).astype(int)
    s = np.round(rng.normal(size=500) + y, 1)
    return roc_auc_score(y, s)


def _clean_env(**extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "VIRTUAL_ENV")
    }
    env.update(extra)
    return env


def _chmod_tree(path: Path, writable: bool):
    for p in [path, *path.rglob("*")]:
        mode = p.stat().st_mode
        w = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        p.chmod(mode | stat.S_IWUSR if writable else mode & ~w)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_non_editable_install_read_only_no_home_and_clean_uninstall(tmp_path):
    # the sources only (fast to build), as a user's pip would see them
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "prroc_numba",
        src / "prroc_numba",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"),
    )

    # a fresh environment; dependencies come from this one (a .pth file, since this
    # interpreter may itself be a virtual environment)
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
        check=True,
    )
    py = venv / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(
        subprocess.run(
            [str(py), "-c", code], check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_deps_from_parent.pth").write_text("\n".join(sorted(deps)) + "\n")

    def pip(*args):
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                str(py),
                "-q",
                "--disable-pip-version-check",
                *args,
            ],
            capture_output=True,
            text=True,
            env=_clean_env(),
            check=False,
        )
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-3000:]

    pip("install", "--no-deps", "--no-build-isolation", str(src))
    pkg = site / "prroc_numba"
    assert (pkg / "__init__.py").exists()
    before = sorted(
        str(p.relative_to(site)) for p in pkg.rglob("*") if "__pycache__" not in p.parts
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    expected = _expected()

    # 1. a writable home: compiled code goes to ~/.cache/prroc_numba/<version>
    home = tmp_path / "home"
    home.mkdir()
    out = subprocess.run(
        [str(py), "-c", _CALL],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=_clean_env(HOME=str(home)),
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    value, where = out.stdout.split()
    assert float(value) == pytest.approx(expected, abs=1e-12)
    assert where.startswith(str(pkg))
    cached = list((home / ".cache" / "prroc_numba").rglob("*.nbi"))
    assert cached, "no index files in the per-user cache"
    assert "compiling kernels once" in out.stderr

    # 2. read-only package, no home: works, compiles in memory, says so in one line.
    # (root may write anywhere, even to /nonexistent or a read-only folder: there the
    # home is a path below a plain file, and the listing below shows that nothing was
    # written into the package)
    no_home = "/nonexistent"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        (tmp_path / "a_file").write_text("")
        no_home = str(tmp_path / "a_file" / "home")
    _chmod_tree(pkg, writable=False)
    try:
        out = subprocess.run(
            [str(py), "-c", _CALL],
            cwd=elsewhere,
            capture_output=True,
            text=True,
            env=_clean_env(HOME=no_home),
            check=False,
        )
    finally:
        _chmod_tree(pkg, writable=True)
    assert out.returncode == 0, out.stderr[-3000:]
    assert float(out.stdout.split()[0]) == pytest.approx(expected, abs=1e-12)
    notes = [ln for ln in out.stderr.splitlines() if "no writable cache directory" in ln]
    assert len(notes) == 1 and "NUMBA_CACHE_DIR" in notes[0], out.stderr

    # nothing was written into the installed package
    after = sorted(str(p.relative_to(site)) for p in pkg.rglob("*") if "__pycache__" not in p.parts)
    assert after == before

    # 3. reinstall, import from another folder: the full package, not an empty namespace
    pip("install", "--no-deps", "--no-build-isolation", "--force-reinstall", str(src))
    code = "import prroc_numba as p; print(p.pr_curve.__name__, p.__version__)"
    out = subprocess.run(
        [str(py), "-c", code],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=_clean_env(HOME=str(home)),
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split()[0] == "pr_curve"

    # 4. uninstall: nothing of the package is left in site-packages
    pip("uninstall", "-y", "prroc-numba")
    left = [p.name for p in site.iterdir() if p.name.lower().startswith("prroc")]
    assert not left, f"left behind after pip uninstall: {left}"
