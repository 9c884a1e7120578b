"""The wheel arrives compiled: a user's first call compiles nothing, on another CPU.

The wheel is built as ``pip wheel`` builds it (the build step compiles every kernel for
the portable CPU), installed into a fresh virtual environment whose ``site-packages`` is
read only, with an empty home and ``NUMBA_CPU_NAME`` naming a CPU other than the
build's. The representative calls (:data:`prroc_numba._jit.warmup.CALLS`: public API,
command line, Dask partition functions) then compile nothing, write nothing into
``site-packages`` and give exactly the results of the kernels compiled here
(just-in-time, for this host's CPU). The build's manifest shows that the calls reach
every kernel of the package, found here independently.

The wheel is built as a release builds it: the sdist first (``python -m build --sdist``
of the tracked files), then ``pip install`` of the sdist into a fresh environment, which
builds the wheel from it (the build step compiles the kernels once, for every test of
this module) and installs it; the tests take that wheel from pip's cache.
Both archives carry the LICENSE and metadata an index accepts (``twine check``), the
Linux wheel the manylinux tag of the glibc its kernels need, and the installed wheel
passes ``tests/smoke_wheel.py``, the smoke test cibuildwheel runs on every platform.
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import platform
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prroc_numba import cli
from prroc_numba._jit import numba as _numba
from prroc_numba._jit import warmup as _warmup

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import cold_start  # noqa: E402 (the wheel build and the fresh venv, shared)

#: a CPU other than the build's ("generic") that any x86-64 machine running these tests
#: runs (SSE4.2, no AVX): the user's process compiles for it if anything compiles
OTHER_CPU = "nehalem"

_CHILD = """
import pickle, sys
import prroc_numba
from prroc_numba._jit import numba as _numba, warmup as _warmup
from prroc_numba.cli import main
results = _warmup.run_calls(cli_main=main)
misses = {n: sum(d.stats.cache_misses.values()) for n, d in _warmup.dispatchers().items()}
with open(sys.argv[1], "wb") as f:
    pickle.dump({
        "results": results,
        "compiled": dict(_numba.NOTICE.compile_seconds),
        "misses": {n: m for n, m in misses.items() if m},
        "file": prroc_numba.__file__,
        "shipped": _numba.SHIPPED_ROOT,
        "sets": _numba.SHIPPED_SETS,
        "served": _numba.SERVED,
    }, f)
"""


def _clean_env(**extra):
    drop = ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("NUMBA_")}
    env.update(extra)
    return env


def _smoke(py: Path, cwd: Path, home: Path) -> str:
    """``tests/smoke_wheel.py`` run by ``py`` with an empty home and another CPU named:
    it passes, says nothing on stderr; what it printed."""
    res = subprocess.run(
        [str(py), str(ROOT / "tests" / "smoke_wheel.py")],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=_clean_env(HOME=str(home), NUMBA_CPU_NAME=OTHER_CPU),
        check=False,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    assert "nothing compiled" in res.stdout and res.stderr == "", res.stderr
    return res.stdout


def _listing(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


def _chmod_tree(path: Path, writable: bool):
    w = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    for p in [path, *path.rglob("*")]:
        mode = p.stat().st_mode
        p.chmod(mode | stat.S_IWUSR if writable else mode & ~w)


def _jit_in_source() -> set[str]:
    """Every ``@jit`` function and ``x = jit(f)`` of the package, read from the source
    (not imported), except helpers inlined into their callers and the CUDA kernels."""
    out = set()
    pkg = ROOT / "prroc_numba"
    for path in pkg.rglob("*.py"):
        if "cuda" in path.relative_to(pkg).parts:
            continue
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                for dec in node.decorator_list:
                    fn = dec.func if isinstance(dec, ast.Call) else dec
                    kws = dec.keywords if isinstance(dec, ast.Call) else []
                    inline = [getattr(k.value, "value", None) for k in kws if k.arg == "inline"]
                    if isinstance(fn, ast.Name) and fn.id == "jit" and inline != ["always"]:
                        out.add(f"{mod}.{node.name}")
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "jit"
            ):
                out.update(f"{mod}.{t.id}" for t in node.targets if isinstance(t, ast.Name))
    return out


def assert_same(a, b, where=""):
    """Exactly equal results (frames, arrays, numbers, text, lists of them)."""
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=where)
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b, check_exact=True, obj=where)
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, (np.ndarray, float, np.floating)):
        np.testing.assert_array_equal(a, b, err_msg=where)
    else:
        assert a == b, where


def _source_files() -> list[str]:
    """The files of the source tree: git's (tracked, and new ones not ignored), or, in a
    tree that is not a git checkout (an unpacked sdist), every file but build output."""
    res = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if res.returncode == 0:
        return [f for f in res.stdout.splitlines() if (ROOT / f).is_file()]
    skip = {".git", ".venv", "build", "dist", "site", "__pycache__", "_compiled"}
    return [
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*")
        if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and p.suffix != ".pyc"
    ]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    """The sdist, built by ``python -m build --sdist`` from a copy of the source tree."""
    out = tmp_path_factory.mktemp("sdist")
    for name in _source_files():
        (out / "tree" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, out / "tree" / name)
    res = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out)],
        cwd=out / "tree",
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-3000:]
    return next(out.glob("prroc_numba-*.tar.gz"))


@pytest.fixture(scope="module")
def sdist_venv(sdist, tmp_path_factory):
    """A fresh environment where ``pip install`` installed the sdist: pip built a wheel
    from it (the build step compiling the kernels) and installed that. Its python, its
    site-packages and pip's cache, where pip kept the wheel it built."""
    where = tmp_path_factory.mktemp("sdist_install")
    cache = where / "pip-cache"
    py, site = cold_start.fresh_venv(
        where / "venv",
        sdist,
        pip_args=("--no-build-isolation", "--cache-dir", str(cache)),
        env={"PYTHONPATH": str(cold_start.hidden_from_build(where))},
    )
    return py, site, cache


@pytest.fixture(scope="module")
def wheel(sdist_venv):
    """The wheel that ``pip install`` of the sdist built (kernels compiled) and kept."""
    wheels = sorted(sdist_venv[2].rglob("prroc_numba-*.whl"))
    assert len(wheels) == 1, f"pip kept no single wheel of the sdist: {wheels}"
    return wheels[0]


def test_sdist_is_the_source_tree_with_its_license(sdist):
    """Every source file (the tests and their data, docs, benchmarks, the build step),
    the LICENSE, and no compiled kernel or build output."""
    from prroc_numba import __version__

    top = f"prroc_numba-{__version__}/"
    with tarfile.open(sdist) as tar:
        names = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
        license_text = tar.extractfile(top + "LICENSE").read().decode()
        pkg_info = tar.extractfile(top + "PKG-INFO").read().decode()
    meta = {"PKG-INFO", "setup.cfg"}
    made = {n for n in names if n.startswith("prroc_numba.egg-info/")}
    # the repository's settings for git, pre-commit and GitHub are not the source
    source = {f for f in _source_files() if not f.startswith((".git", ".pre-commit"))}
    assert names - meta - made == source
    assert {"LICENSE", "setup.py", "MANIFEST.in", "tests/smoke_wheel.py", "docs/index.md"} <= names
    assert not [n for n in names if n.endswith((".nbc", ".nbi", ".pyc")) or "_compiled" in n]
    assert license_text == (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License\n\nCopyright (c) 2026 the prroc_numba authors\n")
    assert f"\nVersion: {__version__}\n" in pkg_info
    assert "\nLicense-Expression: MIT\n" in pkg_info and "\nLicense-File: LICENSE\n" in pkg_info


@pytest.mark.slow
def test_sdist_install_compiles_at_build_time_and_first_calls_compile_nothing(sdist_venv, tmp_path):
    """``pip install`` of the sdist compiles the kernels into the install, as ``pip
    install .`` does: the smoke test's first calls, with an empty home and another CPU
    named, compile nothing; the LICENSE is installed with the metadata."""
    from prroc_numba import __version__

    py, site, _ = sdist_venv
    manifest = json.loads((site / "prroc_numba" / "_compiled" / "manifest.json").read_text())
    assert manifest["cpu"] == "generic" and manifest["unreached"] == []
    licenses = site / f"prroc_numba-{__version__}.dist-info" / "licenses" / "LICENSE"
    assert licenses.read_text() == (ROOT / "LICENSE").read_text()
    home = tmp_path / "home"
    home.mkdir()
    _smoke(py, tmp_path, home)
    assert not [p for p in home.rglob("*") if p.is_file()]


@pytest.mark.slow
def test_wheel_tag_license_metadata_and_twine_check(wheel, sdist):
    """The wheel's name and WHEEL file carry the platform tag an index accepts (on Linux
    the manylinux tag setup.py sets; the smoke test derives the glibc independently), the
    LICENSE, the version of ``prroc_numba.__version__`` and the supported Pythons; ``twine
    check --strict`` passes both archives."""
    from prroc_numba import __version__

    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    machine = platform.machine().lower()
    plat = {"linux": f"manylinux_2_27_{machine}", "win32": "win_amd64"}.get(sys.platform)
    name = re.fullmatch(r"prroc_numba-([^-]+)-(\w+)-(\w+)-(\w+)\.whl", wheel.name)
    assert name, wheel.name
    assert name.group(1) == __version__ and name.group(2) == name.group(3) == py
    if plat:
        assert name.group(4) == plat
    info = f"prroc_numba-{__version__}.dist-info/"
    with zipfile.ZipFile(wheel) as z:
        wheel_file = z.read(info + "WHEEL").decode()
        metadata = z.read(info + "METADATA").decode()
        license_text = z.read(info + "licenses/LICENSE").decode()
    assert re.findall(r"^Tag: (\S+)$", wheel_file, flags=re.M) == [wheel.name[:-4].split("-", 2)[2]]
    assert "Root-Is-Purelib: false" in wheel_file
    assert license_text == (ROOT / "LICENSE").read_text()
    assert f"\nVersion: {__version__}\n" in metadata
    assert "\nLicense-Expression: MIT\n" in metadata
    # the classifiers name the Pythons cibuildwheel builds for, from requires-python up
    said = re.findall(r"^Classifier: Programming Language :: Python :: 3\.(\d+)$", metadata, re.M)
    assert [int(m) for m in said] == [10, 11, 12, 13]
    assert "\nRequires-Python: >=3.10\n" in metadata

    res = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count("PASSED") == 2, res.stdout


@pytest.mark.parametrize(
    ("platform_name", "platform_tags"),
    [
        ("linux", ["manylinux_x86_64", "manylinux_aarch64"]),
        ("macos", ["macosx_arm64"]),
        ("windows", ["win_amd64"]),
    ],
)
def test_cibuildwheel_builds_every_supported_python_and_platform(
    sdist, platform_name, platform_tags, tmp_path
):
    """cibuildwheel, given the sdist as the release workflow gives it (it reads
    [tool.cibuildwheel] from the sdist's pyproject.toml), builds CPython 3.10-3.13 on
    every platform the docs promise (it lists the builds without running them)."""
    res = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers"]
        + ["--platform", platform_name, str(sdist)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
    )
    assert res.returncode == 0, res.stderr
    expected = {f"cp3{minor}-{tag}" for minor in (10, 11, 12, 13) for tag in platform_tags}
    assert set(res.stdout.split()) == expected
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '\ntest-command = "python {project}/tests/smoke_wheel.py"\n' in pyproject


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_wheel_compiles_nothing_read_only_other_cpu_same_results(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as z:
        manifest = json.loads(z.read("prroc_numba/_compiled/manifest.json"))
        entries = [n for n in z.namelist() if n.endswith(".nbc")]
        typed = "prroc_numba/py.typed" in z.namelist()  # PEP 561: annotations are read
    assert manifest["cpu"] == "generic" and entries
    if platform.machine().lower() in ("x86_64", "amd64"):
        # the second set: x86-64-v3 code of the bootstrap's and the comparison's kernels
        with zipfile.ZipFile(wheel) as z:
            v3 = json.loads(z.read("prroc_numba/_compiled/x86-64-v3/manifest.json"))
        assert v3["cpu"] == "x86-64-v3" and v3["numba"] == manifest["numba"]
        assert set(v3["kernels"]) < set(manifest["kernels"])
        assert "prroc_numba._kernels.resample_blocks._boot_paired_blocks" in v3["kernels"]
    assert typed, "prroc_numba/py.typed is missing from the wheel (package data)"
    assert manifest["numba"] == _numba.platform_tag()["numba"]

    # every kernel of the package (found here, independently of the build: imported,
    # and read from the source) was reached by the representative calls in the build
    here = set(_warmup.dispatchers())
    assert here == set(manifest["kernels"])
    assert _jit_in_source() == here
    assert manifest["unreached"] == [], (
        "kernels no representative call reaches (add a call to prroc_numba._jit.warmup.CALLS): "
        f"{manifest['unreached']}"
    )

    # a fresh environment; dependencies from this one (a .pth file)
    py, site = cold_start.fresh_venv(tmp_path / "venv", wheel)
    pip = [sys.executable, "-m", "pip", "--python", str(py), "-q", "--disable-pip-version-check"]
    before = _listing(site)

    home = tmp_path / "home"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def child(**env):
        out_file = tmp_path / "child.pkl"
        _chmod_tree(site, writable=False)
        try:
            res = subprocess.run(
                [str(py), "-c", _CHILD, str(out_file)],
                cwd=elsewhere,
                capture_output=True,
                text=True,
                # matplotlib (imported by torchmetrics, which the torch wing's calls
                # import) keeps its font cache in its own folder, not in the home
                env=_clean_env(HOME=str(home), MPLCONFIGDIR=str(tmp_path / "mpl"), **env),
                check=False,
                timeout=300,
            )
        finally:
            _chmod_tree(site, writable=True)
        assert res.returncode == 0, res.stderr[-3000:]
        got = pickle.loads(out_file.read_bytes())
        assert got["file"].startswith(str(site))
        assert got["shipped"] and got["shipped"].startswith(str(site))
        assert got["compiled"] == {}, f"compiled on a fresh install: {got['compiled']}"
        assert got["misses"] == {}, f"cache misses on a fresh install: {got['misses']}"
        assert "compiling" not in res.stderr, res.stderr
        assert res.stderr == "", res.stderr
        # nothing written into site-packages (root writes through read-only modes), no
        # kernel written into the home
        assert _listing(site) == before
        assert not [p for p in home.rglob("*") if p.is_file()]
        return got

    # the same results as the kernels compiled here, for this host's CPU
    with np.errstate(all="ignore"):
        mine = _warmup.run_calls(cli_main=cli.main)

    # another CPU named: the portable set alone
    got = child(NUMBA_CPU_NAME=OTHER_CPU)
    assert [cpu for cpu, _ in got["sets"]] == ["generic"]
    assert set(got["served"].values()) == {"generic"}
    assert set(got["results"]) == set(mine)
    for name, value in mine.items():
        assert_same(value, got["results"][name], name)

    # this host, where it runs x86-64-v3 code: that set first, the same bits
    if _numba.runs_v3():
        got = child()
        assert [cpu for cpu, _ in got["sets"]] == ["x86-64-v3", "generic"]
        assert got["served"]["_boot_paired_blocks"] == "x86-64-v3"
        assert got["served"]["_hull_batch"] == "generic"  # not in the second set
        for name, value in mine.items():
            assert_same(value, got["results"][name], f"x86-64-v3 set: {name}")

    # the smoke test cibuildwheel runs on every platform's wheel, installed read only
    _chmod_tree(site, writable=False)
    try:
        said = _smoke(py, elsewhere, home)
    finally:
        _chmod_tree(site, writable=True)
    if sys.platform.startswith("linux"):
        assert f"tag {wheel.name[:-4].split('-', 2)[2]}: glibc 2.27" in said

    # uninstall leaves nothing of the package, compiled kernels included
    res = subprocess.run(
        [*pip, "uninstall", "-y", "prroc-numba"],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert not [p.name for p in site.iterdir() if p.name.lower().startswith("prroc")]


@pytest.mark.slow
def test_mismatched_shipped_kernels_fall_back_in_one_line(wheel, tmp_path):
    """Shipped kernels built for another Numba: one line on stderr, then compile."""
    pkg = tmp_path / "prroc_numba"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(tmp_path)
    manifest = pkg / "_compiled" / "manifest.json"
    m = json.loads(manifest.read_text())
    m["numba"] = "0.1.0"
    manifest.write_text(json.dumps(m))
    code = (
        "from prroc_numba._jit import numba as _numba; import prroc_numba as p;"
        "print(_numba.SHIPPED_ROOT, p.auc_roc([0, 1, 1], [0.1, 0.7, 0.4]))"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_clean_env(PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache")),
        check=False,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.split() == ["None", "1.0"]
    lines = [ln for ln in res.stderr.splitlines() if "shipped with this install" in ln]
    assert len(lines) == 1 and "numba 0.1.0" in lines[0] and "compile" in lines[0], res.stderr


@pytest.mark.slow
def test_damaged_shipped_kernels_fall_back_to_compiling(wheel, tmp_path):
    """Shipped entries that cannot be read: one warning naming the file, the kernel
    compiled into the user cache, correct answers; the next process is silent."""
    with zipfile.ZipFile(wheel) as z:
        z.extractall(tmp_path)
    damaged = sorted((tmp_path / "prroc_numba" / "_compiled").rglob("*.nbc"))
    for p in damaged:
        p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    code = "import prroc_numba as p; print(p.auc_roc([0, 1, 1, 0], [0.1, 0.7, 0.25, 0.3]))"
    env = _clean_env(PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run():
        res = subprocess.run(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            check=False,
            timeout=300,
        )
        assert res.returncode == 0, res.stderr[-3000:]
        assert res.stdout.strip() == "0.75"  # 3 of the 4 (positive, negative) pairs
        return res.stderr

    first = run()
    warned = [ln for ln in first.splitlines() if "KernelCacheWarning" in ln]
    assert len(warned) == 1, first
    assert any(str(p) in warned[0] for p in damaged) and "compiled this kernel" in warned[0]
    assert run() == ""


def test_v3_set_only_where_numba_targets_a_v3_host(monkeypatch):
    """The x86-64-v3 set serves a process only when Numba compiles for the host (no CPU
    named) and the host has every x86-64-v3 feature; the portable set otherwise."""
    import llvmlite.binding as ll

    monkeypatch.setattr(_numba.config, "CPU_NAME", None)
    monkeypatch.setattr(_numba.config, "CPU_FEATURES", None)
    monkeypatch.setattr(ll, "get_process_triple", lambda: "x86_64-unknown-linux-gnu")
    host = {f: True for f in _numba.V3_FEATURES} | {"avx512f": False}
    monkeypatch.setattr(ll, "get_host_cpu_features", lambda: host)
    assert _numba.runs_v3()
    for missing in ("avx2", "fma", "bmi2", "movbe"):
        monkeypatch.setattr(ll, "get_host_cpu_features", lambda m=missing: host | {m: False})
        assert not _numba.runs_v3(), missing
    monkeypatch.setattr(ll, "get_host_cpu_features", lambda: host)
    monkeypatch.setattr(_numba.config, "CPU_NAME", "generic")
    assert not _numba.runs_v3()
    monkeypatch.setattr(_numba.config, "CPU_NAME", None)
    monkeypatch.setattr(ll, "get_process_triple", lambda: "aarch64-unknown-linux-gnu")
    assert not _numba.runs_v3()


def test_v3_build_takes_the_bootstrap_and_comparison_calls():
    """The second set's calls are representative calls (a renamed call would leave the
    set empty without this)."""
    from prroc_numba._jit import build as _build

    names = [n for n, _ in _warmup.CALLS]
    assert set(_build.V3_CALLS) <= set(names)
    assert _build._for_cpu(names, "x86-64-v3") == [n for n in names if n in _build.V3_CALLS]
    assert _build._for_cpu(names, "generic") == names


def test_parallel_build_runs_every_call_once():
    """The build's workers take every representative call exactly once (the first call
    and the starters first), and the Dask kernels' signatures name real kernels."""
    from prroc_numba._jit import build as _build

    order = _build._call_names()
    expected = [n for n, _ in _warmup.CALLS if _warmup.runnable(n)]
    assert sorted(order) == sorted(expected + [n for n, _ in _warmup.CLI_CALLS])
    assert order[: 1 + len(_build._STARTERS)] == [_warmup.CALLS[0][0], *_build._STARTERS]
    assert set(_warmup.dask_signatures()) <= set(_warmup.dispatchers())
    assert 1 <= _build._jobs(len(order)) <= _build.MAX_JOBS
