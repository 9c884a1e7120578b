"""README.md stays true: its Python blocks run, and CI runs its test command."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_docs import assert_tree_unchanged, source_tree

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_python_blocks_run(tmp_path, monkeypatch):
    """The blocks run top to bottom in one namespace, as a reader would paste them, from
    an empty temporary folder, and write nothing into the source tree."""
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    before = source_tree()
    namespace = {"__name__": "readme"}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert_tree_unchanged(before, "README.md")


def test_ci_runs_the_readme_test_command():
    bash_blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    test_cmd = [b.strip() for b in bash_blocks if "pytest" in b]
    assert len(test_cmd) == 1
    assert test_cmd[0] in (ROOT / ".ci" / "run").read_text()
