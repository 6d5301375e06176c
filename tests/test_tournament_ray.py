"""The Ray backend on a local Ray instance: the same records as the local backend.

Needs Ray (the extra ``ray``). Without it these tests are skipped, unless
``HR_REQUIRE_EXTRAS`` is set (``.ci/run`` installs the extras and sets it): then they fail.
Starting Ray takes most of the time (about 5 s on the 2-core development machine); one
instance serves every test of the module.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hand_rummy.cli import main
from hand_rummy.tournament import Tournament, TournamentError, run


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    """A local Ray instance of 2 CPUs whose workers import from this process's path."""
    if importlib.util.find_spec("ray") is None:
        if os.environ.get("HR_REQUIRE_EXTRAS"):
            pytest.fail("HR_REQUIRE_EXTRAS is set but Ray is not installed")
        pytest.skip("Ray is not installed (pip install 'hand-rummy[ray]')")
    import ray  # noqa: PLC0415

    start = time.perf_counter()
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}},
    )
    print(f"ray.init: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    try:
        yield ray
    finally:
        ray.shutdown()


def _comparable(result: Any) -> tuple[list[Any], list[Any]]:
    return [m.without_times() for m in result.matches], [f.to_json() for f in result.failures]


def test_ray_gives_the_same_records_as_the_local_backend(ray: Any) -> None:
    t = Tournament(
        "saudi",
        players=3,
        bots="greedy,sample_bots:drawing_bot,random",
        matches=6,
        seed=12,
        duplicate=True,
        rounds=3,
    )
    local = run(t, workers=2)
    on_ray = run(t, workers=2, backend="ray")
    assert _comparable(on_ray) == _comparable(local)
    assert len(on_ray.matches) == 6 and on_ray.summary().units == 2
    # one worker too, and the order of the records is the match order
    seen: list[int] = []
    alone = run(t, backend="ray", on_record=lambda r: seen.append(r.index))  # type: ignore[union-attr]
    assert _comparable(alone) == _comparable(local) and seen == list(range(6))


def test_ray_stops_at_the_same_failure(ray: Any) -> None:
    t = Tournament(
        "classic",
        players=2,
        bots="sample_bots:SometimesRaisingBot,greedy",
        matches=8,
        seed=3,
        rounds=1,
        custom_length=True,
    )
    local, on_ray = run(t), run(t, workers=2, backend="ray")
    assert on_ray.stopped and _comparable(on_ray) == _comparable(local)


def test_simulate_on_ray(ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        *["simulate", "--rules", "classic", "--players", "2", "--matches", "2", "--rounds", "3"],
        *["--bots", "greedy,random", "--backend", "ray", "--jobs", "2"],
    ]
    assert main(args) == 0
    assert "greedy - random" in capsys.readouterr().out


def test_without_ray_the_backend_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    t = Tournament("classic", players=2, bots="greedy", matches=1, rounds=3)
    with pytest.raises(TournamentError, match=r"pip install 'hand-rummy\[ray\]'"):
        run(t, backend="ray")
    with pytest.raises(TournamentError, match="an address is for the ray backend"):
        run(t, address="auto")
