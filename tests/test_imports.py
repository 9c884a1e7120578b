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
    assert "prroc_numba._jit.numba" in graph["prroc_numba._kernels.sweep"]
    assert _layer("prroc_numba._drivers.threads") == "_drivers"


def _layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


#: the compile machinery the kernels load: the JIT options and cache, the fork hook
#: (``_jit.warmup`` and ``_jit.build`` run the public functions: they sit above them)
JIT_RUNTIME = {
    "prroc_numba._jit",
    "prroc_numba._jit.numba",
    "prroc_numba._jit.notice",
    "prroc_numba._jit.fork",
}


@pytest.mark.parametrize(
    "lower, allowed",
    [
        ("_jit", {"_warnings", "_version", "_kernels"}),
        ("_kernels", {"_kernels"}),
        # the thread pool and dispatch: no public, core or engine module
        ("_drivers", {"_drivers", "_kernels"}),
    ],
)
def test_lower_layers_import_nothing_above_them(lower, allowed):
    """The kernels, the drivers and the compile runtime below them import nothing above
    their layer (the compile runtime: its own modules only)."""
    graph = import_graph()
    mods = JIT_RUNTIME if lower == "_jit" else {m for m in graph if _layer(m) == lower}
    bad = {
        m: sorted(d for d in graph[m] if d not in JIT_RUNTIME and _layer(d) not in allowed)
        for m in mods
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
    "subgroups",
    "cli",
    "plot",
    "_sklearn",
    "torch",  # the PyTorch metric objects: a public subpackage, above the core
}
#: the layers below the public modules, each with the layers it must not import
BELOW = {
    "_options": {"_dask", "_spark"},
    "_backends": {"_options", "_dask", "_spark"},
    "_core": {"_options", "_backends", "_resampling", "_dask", "_spark"},
    "_resampling": {"_options", "_dask", "_spark"},
    "_dask": {"_options", "_spark"},
    "_spark": {"_options", "_dask"},
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


@pytest.mark.parametrize("wing", ["_dask", "_spark"])
def test_only_a_wing_imports_itself(wing):
    graph = import_graph()
    bad = {
        m for m, deps in graph.items() if _layer(m) != wing and any(_layer(d) == wing for d in deps)
    }
    assert not bad, f"these modules import the {wing} wing directly: {sorted(bad)}"


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


# ------------------------------------------------------------- package borders


def _folder(mod: str, mods: dict) -> str:
    """The package (folder) a module lies in: a package's ``__init__`` is its own."""
    return mod if mods[mod].name == "__init__.py" else mod.rsplit(".", 1)[0]


def crossings(root: Path = PACKAGE) -> list:
    """Every name a module takes from a module of another package (folder), as
    ``(importer, source module, name, how)``: ``how`` is ``"import"`` for the names of
    ``from ... import`` statements, ``"attr"`` for the names read as attributes
    (``mod.name``) of a module of another package imported as a name."""
    mods = _modules(root)
    out = []
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        aliases = {}
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
                base = pkg[: len(pkg) - node.level + 1]
                src = ".".join(base + ([node.module] if node.module else []))
            else:
                src = node.module or ""
            if src not in mods:
                continue
            for a in node.names:
                full = f"{src}.{a.name}"
                if full in mods:
                    if _folder(full, mods) != _folder(mod, mods):
                        aliases[a.asname or a.name] = full
                elif _folder(src, mods) != _folder(mod, mods):
                    out.append((mod, src, a.name, "import"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                out.append((mod, aliases[node.value.id], node.attr, "attr"))
    return sorted(set(out))


def _kernel_border(importer: str, source: str) -> bool:
    """The one border underscores cross: the drivers (and the kernels' own subpackages)
    calling the kernels, whose names start with an underscore by the house's rule."""
    return _layer(source) == "_kernels" and _layer(importer) in ("_drivers", "_kernels")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_name_crosses_a_package_border():
    """An underscore means "this package's own": no module takes one from another
    package (folder), by import or as an attribute of a module of another package."""
    bad = [
        f"{m} takes {n} from {s}"
        for m, s, n, _ in crossings()
        if _private(n) and not _kernel_border(m, s)
    ]
    assert not bad, f"{len(bad)} private names cross a package border:\n" + "\n".join(bad)


def test_the_kernels_are_reached_through_the_drivers():
    """Outside the kernels, the drivers and the compile machinery, no module imports a
    kernel: only the codes the kernels read (upper-case constants), never a function
    or a kernel module; the kernels are called by the names ``_drivers`` offers."""
    graph = import_graph()
    mods = _modules()
    outside = {m for m in graph if _layer(m) not in ("_kernels", "_drivers", "_jit")}
    bad = [
        f"{m} takes {n} from {s}"
        for m, s, n, _ in crossings()
        if m in outside and _layer(s) == "_kernels" and not n.isupper()
    ]
    bad += [
        f"{m} imports the kernel module {d}"
        for m in sorted(outside)
        for d in sorted(graph[m])
        if _layer(d) == "_kernels" and d in mods and (m, d) not in _name_only_edges(m, mods)
    ]
    assert not bad, "kernels reached around the drivers:\n" + "\n".join(bad)


def _name_only_edges(mod: str, mods: dict) -> set:
    """``(mod, kernel module)`` for the kernel modules ``mod`` takes names from (not the
    module object itself)."""
    path = mods[mod]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
            base = pkg[: len(pkg) - node.level + 1]
            src = ".".join(base + ([node.module] if node.module else []))
            if not any(f"{src}.{a.name}" in mods for a in node.names):
                out.add((mod, src))
    return out


def _offered(init: Path) -> list | None:
    """The names of a package's ``__all__`` (None when its ``__init__`` has none)."""
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [e.value for e in node.value.elts]  # type: ignore[attr-defined]
    return None


#: the internal packages, each naming in its __init__ what the rest may use (the
#: kernels offer nothing themselves: the drivers name them; the top-level modules are
#: leaves, each its own room)
PACKAGES = ["_core", "_resampling", "_drivers", "_dask", "_jit", "cli", "plot", "data"]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_names_what_it_offers(package):
    """A package's ``__init__`` lists what the rest of the package may use (``__all__``,
    no underscore name), and no other name is imported from it across its border (a
    module imported by name, ``from .._jit import warmup``, is the module's offer)."""
    init = PACKAGE / package / "__init__.py"
    offered = _offered(init)
    assert offered is not None, f"{package}/__init__.py has no __all__"
    assert not [n for n in offered if _private(n)], f"{package} offers private names"
    taken = sorted(
        f"{m} takes {n} from {s}"
        for m, s, n, how in crossings()
        if how == "import"
        and _layer(s) == package
        and _layer(m) != package
        and n not in offered
        and not _private(n)
    )
    assert not taken, f"names taken from {package} that its __init__ does not offer:\n" + (
        "\n".join(taken)
    )


def test_the_border_checks_can_fail(tmp_path):
    """The checks read real crossings: a private name, a kernel module and a name the
    package does not offer, each taken across a border."""
    pkg = tmp_path / "prroc_numba"
    for sub in ("_core", "_kernels", "_drivers"):
        (pkg / sub).mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_core" / "__init__.py").write_text('__all__ = ["pack"]\n')
    (pkg / "_core" / "pack.py").write_text("def pack(): pass\ndef _helper(): pass\n")
    (pkg / "_kernels" / "__init__.py").write_text("")
    (pkg / "_kernels" / "sweep.py").write_text("def _sweep(): pass\n")
    (pkg / "_drivers" / "__init__.py").write_text("")
    (pkg / "_drivers" / "sweep.py").write_text("from .._kernels.sweep import _sweep\n")
    (pkg / "areas.py").write_text(
        "from ._core.pack import _helper, pack, unpack\n"
        "from ._kernels import sweep\n"
        "def f():\n    return sweep._sweep\n"
    )
    found = crossings(pkg)
    assert ("prroc_numba.areas", "prroc_numba._core.pack", "_helper", "import") in found
    assert ("prroc_numba.areas", "prroc_numba._core.pack", "unpack", "import") in found
    assert ("prroc_numba.areas", "prroc_numba._kernels.sweep", "_sweep", "attr") in found
    drivers = ("prroc_numba._drivers.sweep", "prroc_numba._kernels.sweep", "_sweep", "import")
    assert drivers in found
    assert _kernel_border("prroc_numba._drivers.sweep", "prroc_numba._kernels.sweep")
    assert not _kernel_border("prroc_numba.areas", "prroc_numba._kernels.sweep")
    assert "prroc_numba._kernels.sweep" in import_graph(pkg)["prroc_numba.areas"]


#: the internal packages whose ``__init__`` imports what the others use
PLAIN = ["_core", "_resampling", "_drivers"]


@pytest.mark.parametrize("package", PLAIN)
def test_a_package_offers_what_others_use_and_no_module_name(package):
    """An internal package's ``__init__`` offers the names other packages take from it,
    no more, and none of them is also one of its modules (else, once that module is
    loaded, ``from package import name`` would depend on the import order)."""
    offered = set(_offered(PACKAGE / package / "__init__.py") or [])
    modules = {f.stem for f in (PACKAGE / package).glob("*.py")} | {
        d.name for d in (PACKAGE / package).iterdir() if (d / "__init__.py").exists()
    }
    assert not offered & modules, f"{package} offers names of its modules: {offered & modules}"
    taken = {n for m, s, n, how in crossings() if _layer(s) == package and _layer(m) != package}
    unused = sorted(offered - taken)
    assert not unused, f"{package} offers names no other package takes: {unused}"


#: the engines the wings bring (the warm-up reaches them only through the wings)
ENGINES = {"dask", "distributed", "pyspark", "pyarrow", "torch", "torchmetrics"}


def test_warmup_imports_no_engine_and_each_wing_offers_its_calls():
    """``_jit/warmup.py`` names no engine; each wing's ``warmup`` module offers its own
    calls (``CALLS``, ``available()``), all of them among the representative calls."""
    tree = ast.parse((PACKAGE / "_jit" / "warmup.py").read_text())
    named = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    named |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {m.split(".")[0] for m in named} & ENGINES
    pytest.importorskip("pyarrow")
    pytest.importorskip("torch")
    import importlib

    from prroc_numba._jit import warmup

    assert set(warmup.WINGS) == {"_dask", "_spark", "torch"}
    every = [n for n, _ in warmup.CALLS]
    for wing in warmup.WINGS:
        module = importlib.import_module(f"prroc_numba.{wing}.warmup")
        names = [n for n, _ in module.CALLS]
        assert names, f"the {wing} wing offers no warm-up calls"
        assert module.available()
        assert all(warmup.WING_OF[n] == wing and every.count(n) == 1 for n in names)
        assert all(warmup.runnable(n) for n in names)


def test_warmup_and_build_order_without_any_engine(tmp_path):
    """With every engine missing (as in the wheel build's environment) the warm-up
    imports, offers only the calls whose wing imports without its engine (Dask's),
    skips them, and loads no engine."""
    import json
    import os
    import subprocess
    import sys

    hidden = tmp_path / "hidden"
    for name in ENGINES:
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(f"raise ImportError('no {name} here')\n")
    code = (
        "import json, sys\n"
        "from prroc_numba._jit import build, warmup as w\n"
        "print(json.dumps([sorted(set(w.WING_OF.values())), [n for n in w.WING_OF "
        "if w.runnable(n)], len(build._call_names()), len(w.CALLS) - len(w.WING_OF) "
        f"+ len(w.CLI_CALLS), sorted(m for m in {sorted(ENGINES)!r} if m in sys.modules)]))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hidden), str(PACKAGE.parent)])}
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert res.returncode == 0, res.stderr[-3000:]
    wings, runnable, n_order, n_expected, loaded = json.loads(res.stdout.splitlines()[-1])
    assert wings == ["_dask"] and runnable == [] and loaded == []
    assert n_order == n_expected  # the build runs every call but the wings'
