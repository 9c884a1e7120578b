"""The documentation stays true: every Python block of every page in docs/ runs.

Each page's blocks run top to bottom in one namespace, as a reader would paste them
(``py`` blocks, which need a GPU, are shown but not run).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))
MKDOCS = (ROOT / "mkdocs.yml").read_text()


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)], ids=lambda p: p.name)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    (tmp_path / "docs" / "img").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)  # a block that writes a figure writes it here
    namespace = {"__name__": f"docs.{page.stem}"}
    for block in _blocks(page):
        exec(compile(block, str(page), "exec"), namespace)


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
