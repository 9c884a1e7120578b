"""The package's import graph, read from the source (imports inside functions and
``TYPE_CHECKING`` blocks included): imports flow one way, with no circle anywhere.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "prroc_numba"


def _modules(root: Path = PACKAGE) -> dict:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _imported(mod: str, path: Path, node: ast.ImportFrom, mods: dict) -> set:
    """The package modules a ``from ... import ...`` statement reaches: each imported
    name that is a module, else the module it is taken from."""
    if node.level:
        pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        base = pkg[: len(pkg) - node.level + 1]
        name = ".".join(base + ([node.module] if node.module else []))
    else:
        name = node.module or ""
    return {f"{name}.{a.name}" if f"{name}.{a.name}" in mods else name for a in node.names}


def import_graph(root: Path = PACKAGE) -> dict:
    """Module -> the package modules it imports (anywhere in its source)."""
    mods = _modules(root)
    graph = {}
    for mod, path in mods.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                deps |= _imported(mod, path, node, mods)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
        graph[mod] = {d for d in deps if d in mods and d != mod}
    return graph


def circles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_has_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles (each a set of modules importing each other):\n" + (
        "\n".join(", ".join(c) for c in found)
    )


def test_the_checker_finds_a_circle(tmp_path):
    """The check itself can fail: a two-module circle through a function-level import."""
    pkg = tmp_path / "prroc_numba"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import g\n")
    (pkg / "c.py").write_text("from .a import b\n")
    assert circles(import_graph(pkg)) == [["prroc_numba.a", "prroc_numba.b"]]


def test_the_graph_sees_function_level_and_relative_imports():
    """The layer checks read real edges: a driver's kernel imports (relative, ``..``)."""
    graph = import_graph()
    assert "prroc_numba._kernels.sweep" in graph["prroc_numba._drivers.sweep"]
    assert "prroc_numba._numba" in graph["prroc_numba._kernels.sweep"]
    assert _layer("prroc_numba._drivers.threads") == "_drivers"


def _layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


@pytest.mark.parametrize(
    "lower, allowed",
    [
        ("_numba", {"_numba", "_warnings", "_version", "_fork"}),
        ("_kernels", {"_kernels", "_numba"}),
        # the thread pool and dispatch: no public, core or engine module
        ("_drivers", {"_drivers", "_kernels", "_numba"}),
    ],
)
def test_lower_layers_import_nothing_above_them(lower, allowed):
    graph = import_graph()
    bad = {
        m: sorted(d for d in deps if _layer(d) not in allowed)
        for m, deps in graph.items()
        if _layer(m) == lower
    }
    bad = {m: d for m, d in bad.items() if d}
    assert not bad, f"{lower} imports from above it: {bad}"


#: the modules users call (the top of the flow)
PUBLIC = {
    "areas",
    "curves",
    "resampling",
    "comparison",
    "closed_form",
    "operating",
    "ranking",
    "sample_size",
    "gains",
    "point_curves",
    "grids",
    "cli",
    "plot",
    "_sklearn",
    "torch",  # the PyTorch metric objects: a public subpackage, above the core
}
#: the layers below the public modules, each with the layers it must not import
BELOW = {
    "_options": {"_dask"},
    "_backends": {"_options", "_dask"},
    "_core": {"_options", "_backends", "_resampling", "_dask"},
    "_resampling": {"_options", "_dask"},
    "_dask": {"_options"},
}


@pytest.mark.parametrize("layer", sorted(BELOW))
def test_imports_flow_down_from_the_public_modules(layer):
    """Nothing below the public modules imports one of them (or a layer above its own);
    the Dask wing is reached only by its module path (``_backends``), never imported."""
    graph = import_graph()
    banned = PUBLIC | BELOW[layer]
    bad = {
        m: sorted(d for d in deps if _layer(d) in banned)
        for m, deps in graph.items()
        if _layer(m) == layer
    }
    bad = {m: d for m, d in bad.items() if d}
    assert not bad, f"{layer} imports from above it: {bad}"


def test_only_the_dask_wing_imports_the_dask_wing():
    graph = import_graph()
    bad = {
        m
        for m, deps in graph.items()
        if _layer(m) != "_dask" and any(_layer(d) == "_dask" for d in deps)
    }
    assert not bad, f"these modules import the Dask wing directly: {sorted(bad)}"


def test_plots_read_frames_only():
    """``plot`` draws frames: it imports the public functions and the column names, no
    kernel, driver, core or engine module."""
    graph = import_graph()
    allowed = PUBLIC | {"plot", "_schema", "_optional", "_docs", "_calls"}
    bad = {
        m: sorted(d for d in deps if _layer(d) not in allowed)
        for m, deps in graph.items()
        if _layer(m) == "plot"
    }
    bad = {m: d for m, d in bad.items() if d}
    assert not bad, f"plot reaches below the frames: {bad}"
