"""The shape of the code, read from the source: no long function bodies outside the
kernels, and few loose private modules at the package's top (each job in its room)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "prroc_numba"

#: the longest function body allowed outside ``_kernels/`` (lines, docstring not counted)
MAX_BODY = 80
#: the private modules allowed at the package's top level
MAX_LOOSE = 12


def body_lines(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of a function's body from its first statement after the docstring to its
    last line (comments and blank lines inside included)."""
    body = fn.body
    first = body[0]
    doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if doc and isinstance(first.value.value, str):  # type: ignore[attr-defined]
        if len(body) == 1:
            return 0
        first = body[1]
    return fn.end_lineno - first.lineno + 1  # type: ignore[operator]


def long_functions(root: Path = PACKAGE, limit: int = MAX_BODY) -> list:
    """``(lines, "path:line:name")`` of every function outside ``_kernels/`` whose body
    is longer than ``limit``."""
    out = []
    for f in sorted(root.rglob("*.py")):
        if "_kernels" in f.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = body_lines(node)
                if n > limit:
                    out.append((n, f"{f.relative_to(root.parent)}:{node.lineno}:{node.name}"))
    return sorted(out, reverse=True)


def test_no_long_function_outside_the_kernels():
    """Input resolution and the rest read as small named steps: no body over a screen."""
    found = long_functions()
    assert not found, f"function bodies over {MAX_BODY} lines:\n" + "\n".join(
        f"{n:4d} {w}" for n, w in found
    )


def test_the_length_check_can_fail(tmp_path):
    pkg = tmp_path / "prroc_numba"
    (pkg / "_kernels").mkdir(parents=True)
    long_body = "\n".join(f"    x{i} = {i}" for i in range(81))
    (pkg / "a.py").write_text(f'def f():\n    """Doc."""\n{long_body}\n\n\ndef g():\n    pass\n')
    (pkg / "_kernels" / "k.py").write_text(f"def k():\n{long_body}\n")
    assert long_functions(pkg) == [(81, "prroc_numba/a.py:1:f")]
    assert long_functions(pkg, limit=81) == []


def test_few_loose_private_modules_at_the_top():
    """Helpers live in the package of their job (``_core``, ``_resampling``, ``_jit``,
    ``cli``, ...); the top level holds the public modules and at most a few leaves."""
    loose = sorted(
        f.name for f in PACKAGE.glob("_*.py") if f.name not in ("__init__.py", "__main__.py")
    )
    assert len(loose) <= MAX_LOOSE, f"{len(loose)} private modules at the top: {loose}"
