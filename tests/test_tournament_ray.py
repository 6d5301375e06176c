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
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hand_rummy.cli import main
from hand_rummy.tournament import BackendError, Tournament, TournamentError, run


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


def test_a_bot_that_exits_on_ray_is_a_failure(ray: Any) -> None:
    """SystemExit from a bot crashed the Ray worker, and Ray ran the task again."""
    t = Tournament("classic", players=2, bots="greedy,sample_bots:ExitingBot", matches=2,
                   seed=3, rounds=1, custom_length=True)  # fmt: skip
    (failure,) = run(t, workers=2, backend="ray").failures
    assert (failure.match, failure.kind, failure.message) == (0, "error", "SystemExit: 3")


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


class _RayError(Exception):
    pass


def _fake_ray(init: Any = None, get: Any = None) -> types.SimpleNamespace:
    """A stand-in for Ray that fails as the real one does, without a cluster to lose."""
    return types.SimpleNamespace(
        is_initialized=lambda: False,
        init=init or (lambda **kwargs: None),
        shutdown=lambda: None,
        remote=lambda **options: lambda f: types.SimpleNamespace(remote=lambda *a: object()),
        put=lambda value: value,
        wait=lambda refs, num_returns: (refs[:num_returns], refs[num_returns:]),
        get=get,
        cancel=lambda ref: None,
        exceptions=types.SimpleNamespace(RayError=_RayError),
    )


def _no_cluster(**kwargs: Any) -> None:
    raise ConnectionError("Could not find any running Ray instance.\nPlease specify ...")


def _crashed(ref: object) -> None:
    raise _RayError("The worker died unexpectedly while executing this task.\nCheck the logs")


def test_ray_out_of_reach_exits_3_and_leaves_the_results_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--address auto without a cluster gave a ConnectionError traceback and exit 1 (the
    status of a bot failure), after the results file had been emptied."""
    precious = tmp_path / "precious.jsonl"
    precious.write_text("kept\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(init=_no_cluster))
    args = [
        *["simulate", "--rules", "classic", "--players", "2", "--matches", "2", "--rounds", "3"],
        *["--backend", "ray", "--address", "auto", "--out", str(precious)],
    ]
    assert main(args) == 3
    err = capsys.readouterr().err
    assert err == (
        "hand-rummy simulate: error: cannot reach Ray at auto: ConnectionError: Could not find any "
        "running Ray instance.\n"
    )
    assert precious.read_text(encoding="utf-8") == "kept\n"


def test_a_task_that_ray_loses_is_a_backend_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(get=_crashed))
    t = Tournament("classic", players=2, bots="greedy", matches=1, rounds=3)
    with pytest.raises(BackendError, match=r"^a Ray task failed: _RayError: The worker died "):
        run(t, backend="ray")
