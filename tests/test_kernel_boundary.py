"""The kernel boundary: ``prroc_numba/_kernels/`` holds compiled code only.

Every function defined at module level under ``_kernels/`` is a Numba dispatcher, a
CUDA kernel or device function, or the plain source of one (a function compiled for
both the CPU and CUDA is written once as plain Python and compiled by a module-level
``jit(f)`` / ``cuda.jit(device=True)(f)``: it is then the ``py_func`` of a compiled
object in ``_kernels``). Plain-Python drivers (the thread pool, chunked dispatch, the
CUDA host side) live in ``_drivers/``, above the kernels. What the kernels and the
drivers may import is checked with the rest of the layers, on the package's import
graph (``tests/test_imports.py``).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from numba.extending import is_jitted

import prroc_numba

ROOT = Path(prroc_numba.__file__).parent
KERNELS = ROOT / "_kernels"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


FILES = sorted(KERNELS.rglob("*.py"))
CPU_FILES = [f for f in FILES if "cuda" not in f.relative_to(KERNELS).parts]
CUDA_FILES = [f for f in FILES if f not in CPU_FILES]


def _is_compiled(obj) -> bool:
    """A CPU dispatcher, or a CUDA kernel / device function (real or simulated)."""
    if is_jitted(obj):
        return True
    return type(obj).__module__.startswith("numba.cuda.") and callable(
        getattr(obj, "py_func", None)
    )


def _compiled_sources(modules) -> set[int]:
    """``id`` of every function some compiled object in ``modules`` was compiled from."""
    out = set()
    for mod in modules:
        for obj in vars(mod).values():
            if _is_compiled(obj):
                out.add(id(obj.py_func))
    return out


def _top_level_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _not_compiled(files) -> list[str]:
    modules = [importlib.import_module(_module_name(f)) for f in files]
    sources = _compiled_sources(modules)
    bad = []
    for path, mod in zip(files, modules):
        for name in _top_level_functions(path):
            obj = getattr(mod, name)
            if not (_is_compiled(obj) or id(obj) in sources):
                bad.append(f"{mod.__name__}.{name}")
    return bad


def test_every_cpu_kernel_module_function_is_compiled():
    bad = _not_compiled(CPU_FILES)
    assert not bad, (
        f"plain Python functions in prroc_numba/_kernels/ (move them to _drivers/): {bad}"
    )


def test_every_cuda_kernel_module_function_is_compiled():
    pytest.importorskip("numba.cuda")
    bad = _not_compiled(CPU_FILES + CUDA_FILES)
    assert not bad, (
        f"plain Python functions in prroc_numba/_kernels/ (move them to _drivers/): {bad}"
    )


def test_the_checks_see_what_they_look_for():
    # the recognisers on known objects, so the tests above cannot pass by seeing nothing
    from prroc_numba._drivers import threads
    from prroc_numba._kernels import poisson, sweep

    assert len(CPU_FILES) > 10 and _top_level_functions(KERNELS / "sweep.py")
    assert _is_compiled(sweep._sweep_one) and not _is_compiled(threads.run_curves)
    assert id(poisson.replicate_key) in _compiled_sources([poisson])
    assert id(threads.run_curves) not in _compiled_sources([poisson, sweep, threads])
