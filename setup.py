"""Build step (the metadata is in pyproject.toml): the wheel arrives with its kernels
compiled.

``pip install .``, ``pip wheel .`` and ``python -m build`` run :class:`BuildPy`, which
compiles every kernel the public API, the command line and the Dask workers reach for
a portable CPU (``NUMBA_CPU_NAME=generic``; on x86-64 also the bootstrap's kernels for
x86-64-v3) in a subprocess (which spreads the work over one process per CPU:
:mod:`prroc_numba._jit.build`), and puts the compiled code into the
wheel as package data (``prroc_numba/_compiled``). The build environment needs numpy,
Numba and pandas only (no Dask: ``[build-system] requires``). Editable installs
(``pip install -e .``) compile nothing at build time: their kernels compile on first use
into the user cache, as does any install with ``PRROC_NUMBA_PRECOMPILE=0``.

On Linux the wheel is tagged ``manylinux_2_27`` (:data:`MANYLINUX_GLIBC`): the compiled
kernels are object code that Numba links into the running process at load time, so
they need the C library that Numba's own runtime needs, and nothing newer
(docs/compiled-kernels.md says how that was established; tests/smoke_wheel.py checks it
on the machine that runs it).
"""

import os
import platform
import subprocess
import sys
import tempfile

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

#: the glibc (major, minor) a Linux wheel needs, per machine: the highest symbol version
#: that Numba's and llvmlite's extension modules (the runtime the kernels link against)
#: require; the kernels' own C library references are older (x86-64: 2.2.5, aarch64: 2.17)
MANYLINUX_GLIBC = {"x86_64": (2, 27), "aarch64": (2, 27)}


def _precompile() -> bool:
    return os.environ.get("PRROC_NUMBA_PRECOMPILE", "1") != "0"


class BuildPy(build_py):
    """``build_py`` plus the compiled kernels (see the module docstring)."""

    def run(self):
        """Copy the package, then compile its kernels into the build folder."""
        super().run()
        if _precompile() and not getattr(self, "editable_mode", False):
            self._compile_kernels()

    def _compile_kernels(self):
        target = os.path.join(os.path.abspath(self.build_lib), "prroc_numba", "_compiled")
        self._compile_set(target, "generic")
        # x86-64 CPUs since about 2015 run x86-64-v3 code (AVX2): a second set, chosen
        # at run time (prroc_numba._jit.numba.runs_v3), where it measured faster
        if platform.machine().lower() in ("x86_64", "amd64"):
            self._compile_set(os.path.join(target, "x86-64-v3"), "x86-64-v3")

    def _compile_set(self, target, cpu):
        with tempfile.TemporaryDirectory(prefix="prroc_numba_build_") as cache:
            env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
            env.update(
                NUMBA_CPU_NAME=cpu,
                NUMBA_CPU_FEATURES="",  # the CPU's own features, none of the host's
                NUMBA_CACHE_DIR=cache,
                PRROC_NUMBA_NO_SHIPPED="1",
                PRROC_NUMBA_QUIET="1",
                # the package as it goes into the wheel first; keep the build
                # environment's own path (pip's isolated builds put it there)
                PYTHONPATH=os.pathsep.join(
                    p for p in (os.path.abspath(self.build_lib), os.environ.get("PYTHONPATH")) if p
                ),
            )
            subprocess.run(
                [sys.executable, "-m", "prroc_numba._jit.build", target],
                check=True,
                env=env,
                cwd=cache,
            )


class BdistWheel(bdist_wheel):
    """``bdist_wheel`` with the manylinux tag of the glibc the kernels need (Linux)."""

    def get_tag(self):
        """The platform tag ``linux_<machine>`` becomes ``manylinux_2_27_<machine>``."""
        python, abi, plat = super().get_tag()
        machine = plat.removeprefix("linux_")
        if plat.startswith("linux_") and machine in MANYLINUX_GLIBC:
            major, minor = MANYLINUX_GLIBC[machine]
            plat = f"manylinux_{major}_{minor}_{machine}"
        return python, abi, plat


class BinaryDistribution(Distribution):
    """Compiled kernels make the wheel specific to a platform and Python version."""

    def has_ext_modules(self):
        """True when the kernels are compiled into the wheel."""
        return _precompile()


setup(cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel}, distclass=BinaryDistribution)
