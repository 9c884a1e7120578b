"""The documentation stays true: every Python block of every page in docs/ runs.

Each page's blocks run top to bottom in one namespace, as a reader would paste them
(``py`` blocks, which need a GPU, are shown but not run), from an empty temporary
folder, and write nothing into the source tree.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))
MKDOCS = (ROOT / "mkdocs.yml").read_text()


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


#: folders of the checkout that tools write (caches, builds, environments), not sources
_NOT_SOURCE = {
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".benchmarks",
    ".ipynb_checkpoints",
    ".venv",
    "site",
    "build",
    "dist",
}


def source_tree(root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """Every file of the checkout (path -> size, modification time), tools' folders
    left out: what a page's code must leave as it found it."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _NOT_SOURCE and not d.endswith(".egg-info")]
        for name in files:
            st = os.stat(os.path.join(folder, name))
            out[os.path.relpath(os.path.join(folder, name), root)] = (st.st_size, st.st_mtime_ns)
    return out


def assert_tree_unchanged(before: dict, where: str) -> None:
    """No file added or removed, none but sources (``.py``, ``.md``: what a developer
    may be editing while the tests run) changed, e.g. no figure in docs/img."""
    after = source_tree()
    changed = sorted(
        k
        for k in before.keys() | after.keys()
        if before.get(k) != after.get(k)
        and not (k in before and k in after and k.endswith((".py", ".md")))
    )
    assert not changed, f"{where} wrote into the source tree: {changed}"


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)], ids=lambda p: p.name)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    """A reader runs a page's code from any folder: here an empty temporary one. It must
    run there as written (no folder of the repository assumed) and write nothing into
    the source tree."""
    monkeypatch.chdir(tmp_path)
    before = source_tree()
    namespace = {"__name__": f"docs.{page.stem}"}
    for block in _blocks(page):
        exec(compile(block, str(page), "exec"), namespace)
    assert_tree_unchanged(before, page.name)


def test_every_page_is_in_the_site():
    """A page left out of mkdocs.yml's nav would never be read."""
    for page in PAGES:
        assert f" {page.name}" in MKDOCS, f"{page.name} is not in mkdocs.yml's nav"


def test_no_page_speaks_of_how_the_library_was_built():
    """Users read about the library, not about its development."""
    words = re.compile(r"\bissue \d+|\bwave\b|\bthe lead\b|\bbranch `", re.I)
    for page in [*PAGES, ROOT / "README.md"]:
        hits = words.findall(page.read_text())
        assert not hits, f"{page.name}: {hits}"
