"""The long fuzzing campaign of the state loader (the CI test runs 2,000 mutations).

Runs :func:`tests.test_state_fuzz.campaign` (flipped bytes, truncation, spliced bytes,
huge claimed sizes in the ``.npy`` headers and the zip directory, edited metadata and
columns, with and without a recomputed checksum; ``.npz`` and Arrow IPC) in this
process and prints the outcomes per format and mutation; any failure (another exception,
a wrong number, a slow load, a memory jump) is listed and the exit status is 1::

    nice -n 10 python benchmarks/fuzz_state.py --n 50000 --seed 1
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_state_fuzz import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
