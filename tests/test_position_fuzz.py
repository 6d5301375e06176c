"""A bounded run of ``benchmarks/fuzz_positions.py``: positions, views and rounds of random
play, mutated one or two facts at a time, are either refused with the library's error or
load into rounds that keep every invariant (a legal move while not over, listings that
``check()`` accepts, cards conserved, reloads equal). The script runs longer by hand; its
figures are in benchmarks/README.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchmark_scripts import BENCHMARKS


def test_mutated_positions_are_refused_or_play_on(tmp_path: Path) -> None:
    script = str(BENCHMARKS / "fuzz_positions.py")
    # bounded by the count alone: the script's limits on time (a slow listing, a slow input,
    # the whole run) are findings of speed, which a test does not judge
    args = ["--count", "400", "--seed", "5", "--out", str(tmp_path)]
    args += ["--seconds", "1e9", "--slow", "1e9", "--timeout", "1e9"]
    done = subprocess.run(
        [sys.executable, script, *args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    summary = re.search(r"accepted ([\d,]+), refused ([\d,]+), findings (\d+)", done.stdout)
    assert summary is not None, done.stdout[-2000:]
    accepted, refused, findings = (int(n.replace(",", "")) for n in summary.groups())
    assert findings == 0 and accepted > 50 and refused > 50
    assert accepted + refused == 400
    assert not any(tmp_path.iterdir())  # no finding was written
