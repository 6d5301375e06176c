"""``hand-rummy simulate --jobs 2`` stopped by a signal, as a terminal's Ctrl-C or a ``kill``
stops it: a clean stop that leaves the matches played, and no worker process left behind.

Each test runs the command in a process group of its own and reads the processes of the
group from ``/proc`` (Linux only).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hand_rummy.tournament.results_file import read_results

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads the process group from /proc"
)

TESTS = Path(__file__).parent


def _alive(group: int) -> list[int]:
    """The processes of ``group`` that still run (not the zombies nobody has reaped)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[2]) == group and fields[0] not in "ZX":
            found.append(int(stat.parent.name))
    return found


def _wait(condition: Callable[[], object], seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "waited too long"
        time.sleep(0.05)


_MAIN = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('hand_rummy', run_name='__main__', alter_sys=True)"
)
"""``python -m hand_rummy`` with Ctrl-C's usual action, as a terminal gives it: a shell that
starts the tests in the background (a CI script run with ``&``) leaves SIGINT ignored, and
Python keeps an ignored SIGINT ignored."""


@pytest.fixture
def simulate(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A long simulate run in two worker processes, writing its results file."""
    out = tmp_path / "r.jsonl"
    args = [
        *[sys.executable, "-c", _MAIN, "simulate", "--rules", "classic"],
        *["--players", "2", "--rounds", "3", "--matches", "2000", "--bots", "greedy,random"],
        *["--jobs", "2", "--out", str(out)],
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), *sys.path])}
    process = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # a group of its own, as a terminal gives a command
    )
    try:
        yield process, out
    finally:
        for pid in _alive(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.communicate()


def _matches(out: Path) -> int:
    try:
        return out.read_text(encoding="utf-8").count('"type":"match"')
    except FileNotFoundError:
        return 0


def _workers(group: int) -> list[int]:
    found = []
    for pid in _alive(group):
        try:
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def test_ctrl_c_stops_the_run_and_leaves_the_matches_played(
    simulate: tuple[subprocess.Popen[str], Path],
) -> None:
    """Ctrl-C sends SIGINT to every process of the group: the workers were interrupted
    with the parent (tracebacks, a pool broken while they started) and the parent then
    hung on them in most runs. The workers ignore it from their start (here they get it
    again and again as they start and play), and the parent stops the run."""
    process, out = simulate
    while _matches(out) < 2:
        assert process.poll() is None, process.communicate()
        for pid in _workers(process.pid):
            os.kill(pid, signal.SIGINT)
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "hand-rummy simulate: interrupted\n")
    results = read_results(out)
    assert not results.finished
    assert [m.index for m in results.matches] == list(range(len(results.matches)))
    _wait(lambda: not _alive(process.pid), 10)


def test_workers_end_with_a_parent_ended_by_sigterm(
    simulate: tuple[subprocess.Popen[str], Path],
) -> None:
    """SIGTERM ends the parent at once, without stopping the pool: its workers waited for
    work forever."""
    process, out = simulate
    _wait(lambda: _matches(out) >= 1)
    workers = [pid for pid in _alive(process.pid) if pid != process.pid]
    process.terminate()
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGTERM
    _wait(lambda: not set(workers) & set(_alive(process.pid)), 10)
    assert read_results(out).matches
