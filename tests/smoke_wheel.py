"""Smoke test of an installed wheel: ``python tests/smoke_wheel.py``.

cibuildwheel runs it on every platform's wheel (``[tool.cibuildwheel] test-command``), and
``tests/test_wheel.py`` runs it in a fresh environment holding the wheel built here. It
checks, in a process that imports the installed package (not the sources):

* the installed version is ``prroc_numba.__version__`` (one place, read into the metadata);
* the first calls (an AUC-ROC, an AUC-PR, a bootstrap) give the values of independent
  formulas and compile nothing: the kernels come from the wheel;
* on Linux, the wheel's platform tag names the glibc the kernels need on this machine
  (:func:`glibc_needed`, read with pyelftools): the highest symbol version that Numba's
  and llvmlite's extension modules require, and for the kernels' own references to the C
  library (the shipped object code that Numba links at load time) the oldest version of
  this machine's libc or libm that defines each symbol.
"""

from __future__ import annotations

import importlib.metadata
import io
import pickle
import platform
import re
import sys
from pathlib import Path

Version = tuple[int, ...]


def _version(name: str) -> Version:
    return tuple(int(x) for x in name.removeprefix("GLIBC_").split("."))


def _elf_objects(obj, out: list[bytes]) -> None:
    """The ELF object files inside an unpickled Numba cache entry."""
    if isinstance(obj, (bytes, bytearray)) and obj[:4] == b"\x7fELF":
        out.append(bytes(obj))
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _elf_objects(x, out)
    elif isinstance(obj, dict):
        for x in obj.values():
            _elf_objects(x, out)


def kernel_symbols(compiled: Path) -> set[str]:
    """The symbols the shipped kernels' object code leaves for the loader to resolve."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    names: set[str] = set()
    entries = sorted(compiled.rglob("*.nbc"))
    assert entries, f"no compiled kernels in {compiled}"
    for path in entries:
        objects: list[bytes] = []
        _elf_objects(pickle.loads(path.read_bytes()), objects)
        assert objects, f"no object code in {path}"
        for blob in objects:
            elf = ELFFile(io.BytesIO(blob))
            assert not elf.get_section_by_name(".gnu.version_r"), "versioned references"
            for section in elf.iter_sections():
                if isinstance(section, SymbolTableSection):
                    names.update(
                        s.name
                        for s in section.iter_symbols()
                        if s.name and s["st_shndx"] == "SHN_UNDEF"
                    )
    return names


def _oldest_definitions(library: str) -> dict[str, Version]:
    """Each symbol a glibc library exports, with the oldest version that defines it."""
    from elftools.elf.elffile import ELFFile

    with open(library, "rb") as f:
        elf = ELFFile(f)
        verdef = elf.get_section_by_name(".gnu.version_d")
        names = {d.entry["vd_ndx"]: next(iter(aux)).name for d, aux in verdef.iter_versions()}
        versym = elf.get_section_by_name(".gnu.version")
        out: dict[str, Version] = {}
        for i, sym in enumerate(elf.get_section_by_name(".dynsym").iter_symbols()):
            ndx = versym.get_symbol(i).entry["ndx"]
            if sym["st_shndx"] == "SHN_UNDEF" or not isinstance(ndx, int):
                continue
            version = names.get(ndx & 0x7FFF, "")
            if version.startswith("GLIBC_2"):
                v = _version(version)
                out[sym.name] = min(out.get(sym.name, v), v)
        return out


def _runtime_needs(package_dirs: list[Path]) -> dict[str, Version]:
    """The highest glibc symbol version each extension module of the packages requires."""
    from elftools.elf.elffile import ELFFile

    out: dict[str, Version] = {}
    for folder in package_dirs:
        for lib in sorted(folder.rglob("*.so*")):
            with open(lib, "rb") as f:
                needs = ELFFile(f).get_section_by_name(".gnu.version_r")
                names = [a.name for _, aux in needs.iter_versions() for a in aux] if needs else []
            versions = [_version(n) for n in names if n.startswith("GLIBC_2")]
            if versions:
                out[str(lib.relative_to(folder.parent))] = max(versions)
    return out


def _loaded_glibc() -> list[str]:
    """The paths of the libc and libm this process loaded."""
    found = {}
    for line in Path("/proc/self/maps").read_text().splitlines():
        path = line.split()[-1]
        name = Path(path).name
        if re.fullmatch(r"lib[cm](-[0-9.]+)?\.so(\.6)?", name):
            found[name] = path
    return sorted(set(found.values()))


def glibc_needed(compiled: Path) -> tuple[Version, dict]:
    """(major, minor) of the glibc the installed wheel needs on this machine, and why."""
    import llvmlite
    import numba

    runtime = _runtime_needs([Path(numba.__file__).parent, Path(llvmlite.__file__).parent])
    defined: dict[str, Version] = {}
    libraries = _loaded_glibc()
    assert libraries, "libc and libm not found in /proc/self/maps"
    for library in libraries:
        for name, v in _oldest_definitions(library).items():
            defined[name] = min(defined.get(name, v), v)
    kernels = {n: defined[n] for n in kernel_symbols(compiled) if n in defined}
    need = max([*runtime.values(), *kernels.values()])[:2]
    return need, {"runtime": runtime, "kernels": kernels, "libraries": libraries}


def _check_values(prn) -> None:
    """First calls, against independent formulas."""
    import numpy as np

    # four rows: 3 of the 4 (positive, negative) pairs are ordered; precision at the two
    # positives (ranked 1st and 3rd) is 1 and 2/3, so average precision is 5/6
    y, s = [0, 1, 1, 0], [0.1, 0.7, 0.25, 0.3]
    assert prn.auc_roc(y, s) == 0.75
    assert abs(prn.auc_pr(y, s, method="ap") - 5 / 6) < 1e-15

    rng = np.random.default_rng(0)
    y2 = (rng.random(200) < 0.3).astype(np.int64)
    s2 = rng.normal(size=200) + y2
    pos, neg = s2[y2 == 1], s2[y2 == 0]
    mann_whitney = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    assert abs(prn.auc_roc(y2, s2) - mann_whitney) < 1e-12

    import pandas as pd

    frame = pd.DataFrame({"y": y2, "s": s2})
    ci = prn.bootstrap(frame, score="s", label="y", n_boot=200, seed=0)
    row = ci.iloc[0]
    assert abs(row["estimate"] - prn.auc_pr(y2, s2)) < 1e-12
    assert row["ci_low"] <= row["estimate"] <= row["ci_high"], row


def main() -> None:
    """Run the checks; exit non-zero (an AssertionError) on the first that fails."""
    import prroc_numba as prn
    from prroc_numba._jit import numba as _numba

    where = Path(prn.__file__).parent
    assert importlib.metadata.version("prroc-numba") == prn.__version__
    assert _numba.SHIPPED_ROOT, "the wheel's compiled kernels are not in use"
    _check_values(prn)
    compiled = dict(_numba.NOTICE.compile_seconds)
    assert not compiled, f"compiled on first use (the wheel should ship them): {compiled}"
    print(f"prroc_numba {prn.__version__} from {where}: first calls right, nothing compiled")

    if sys.platform.startswith("linux"):
        wheel = importlib.metadata.distribution("prroc-numba").read_text("WHEEL") or ""
        tags = re.findall(r"^Tag: (\S+)$", wheel, flags=re.M)
        need, why = glibc_needed(where / "_compiled")
        expected = f"manylinux_{need[0]}_{need[1]}_{platform.machine()}"
        assert [t.split("-")[-1] for t in tags] == [expected], (tags, expected, why)
        print(f"tag {tags[0]}: glibc {need[0]}.{need[1]}, as {why['libraries']} say")


if __name__ == "__main__":
    main()
