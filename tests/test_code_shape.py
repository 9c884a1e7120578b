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


# ------------------------------------------------------------ the house's rules

#: the longest module allowed (lines)
MAX_LINES = 600
#: the engines and the one package of the library that may import each
ENGINES = {
    "dask": "_dask",
    "distributed": "_dask",
    "pyspark": "_spark",
    "torch": "torch",
    "torchmetrics": "torch",
    "lightning": "torch",
    "pytorch_lightning": "torch",
}


def _sources(root: Path):
    for f in sorted(root.rglob("*.py")):
        yield f, ast.parse(f.read_text(), str(f))


def locals_calls(root: Path = PACKAGE) -> list:
    """``"path:line"`` of every ``locals()`` call (a function's namespace handed on as
    a dict) in the package."""
    out = []
    for f, tree in _sources(root):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "locals"
            ):
                out.append(f"{f.relative_to(root.parent)}:{node.lineno}")
    return out


def lazy_tables(root: Path = PACKAGE) -> list:
    """The packages whose ``__init__`` defines a module-level ``__getattr__`` (a lazy
    name table; a module may still build one name on first use, as ``_sklearn`` its
    scorer class)."""
    out = []
    for f, tree in _sources(root):
        if f.name == "__init__.py" and any(
            isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body
        ):
            out.append(str(f.relative_to(root.parent)))
    return out


def long_modules(root: Path = PACKAGE, limit: int = MAX_LINES) -> list:
    """``(lines, path)`` of every module longer than ``limit`` lines."""
    out = []
    for f in sorted(root.rglob("*.py")):
        n = len(f.read_text().splitlines())
        if n > limit:
            out.append((n, str(f.relative_to(root.parent))))
    return out


def engine_imports(root: Path = PACKAGE) -> list:
    """``"path:line imports engine"`` for every import of an engine (anywhere in a
    module: at its top, in a function, under ``TYPE_CHECKING``) outside its wing."""
    out = []
    for f, tree in _sources(root):
        parts = f.relative_to(root).parts
        home = parts[0] if len(parts) > 1 else ""
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                wing = ENGINES.get(name.split(".")[0])
                if wing is not None and wing != home:
                    out.append(f"{f.relative_to(root.parent)}:{node.lineno} imports {name}")
    return out


def test_no_locals_passed_anywhere():
    """Arguments keep their names from the public door to the kernel: options travel
    as typed objects (``_options``, ``_core.inputs.Inputs``), never as a ``locals()``
    dict."""
    found = locals_calls()
    assert not found, "locals() in the package:\n" + "\n".join(found)


def test_one_lazy_name_table_at_the_top():
    """Only the package root loads its names lazily (``import prroc_numba`` stays
    cheap); the internal packages import plainly."""
    assert lazy_tables() == ["prroc_numba/__init__.py"]


def test_no_module_over_the_limit():
    """Each room holds one job: no module over :data:`MAX_LINES` lines."""
    found = long_modules()
    assert not found, f"modules over {MAX_LINES} lines:\n" + "\n".join(
        f"{n:5d} {w}" for n, w in found
    )


def test_engines_are_imported_inside_their_wings():
    """Dask, Spark and PyTorch are imported only inside their wings (``_dask``,
    ``_spark``, ``torch``), warm-up calls included."""
    found = engine_imports()
    assert not found, "engines imported outside their wings:\n" + "\n".join(found)


def test_the_house_rules_can_fail(tmp_path):
    pkg = tmp_path / "prroc_numba"
    (pkg / "_dask").mkdir(parents=True)
    (pkg / "_core").mkdir()
    (pkg / "__init__.py").write_text("def __getattr__(name):\n    raise AttributeError\n")
    (pkg / "_core" / "__init__.py").write_text(
        "def __getattr__(name):\n    pass\n\n\ndef f(a):\n    return g(**locals())\n"
    )
    (pkg / "_sklearn.py").write_text("def __getattr__(name):\n    pass\n")
    (pkg / "_jit.py").write_text("def w():\n    import dask.dataframe\n")
    (pkg / "_dask" / "warmup.py").write_text("import dask\n" + "x = 1\n" * 600)
    assert locals_calls(pkg) == ["prroc_numba/_core/__init__.py:6"]
    assert lazy_tables(pkg) == ["prroc_numba/__init__.py", "prroc_numba/_core/__init__.py"]
    assert long_modules(pkg) == [(601, "prroc_numba/_dask/warmup.py")]
    assert engine_imports(pkg) == ["prroc_numba/_jit.py:2 imports dask.dataframe"]
