"""README.md stays true: its Python blocks run, and CI runs its test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_python_blocks_run():
    """The blocks run top to bottom in one namespace, as a reader would paste them."""
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    namespace = {"__name__": "readme"}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)


def test_ci_runs_the_readme_test_command():
    bash_blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    test_cmd = [b.strip() for b in bash_blocks if "pytest" in b]
    assert len(test_cmd) == 1
    assert test_cmd[0] in (ROOT / ".ci" / "run").read_text()
