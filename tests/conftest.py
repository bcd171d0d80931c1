"""Shared test set-up: the hardware marker, Hypothesis profiles, gpiozero's MockFactory, a
cache folder of the tests' own and Peg Solitaire's winning set built once a run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _check_referee_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every session a test drives through reedboard/sim/runner.py checks its state after each
    step (reedboard/referee/session.py ``Session.check``)."""
    from reedboard.sim.runner import Runner

    monkeypatch.setattr(Runner, "check_states", True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hardware", action="store_true", help="run the tests that need a real Pi or Pico"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--hardware"):
        return
    skip = pytest.mark.skip(reason="needs real hardware (run with --hardware on a Pi)")
    for item in items:
        if item.get_closest_marker("hardware") is not None:
            item.add_marker(skip)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's MockFactory as the pin layer, swapped in and out as gpiozero's own tests do."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture(autouse=True)
def _no_error_logs(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    """A test fails on any ERROR log, unless it is marked ``error_logs`` (it expects one)."""
    yield
    if request.node.get_closest_marker("error_logs") is not None:
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= 40]
    if errors:
        pytest.fail("ERROR logged: " + "; ".join(r.getMessage() for r in errors), pytrace=False)


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test reads or writes the user's cache folder, and no daemon opens or builds a
    Solitaire winning set (reedboard/referee/solved.py) or serves the web view unless its test
    asks."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    patch.setenv("REEDBOARD_SOLITAIRE_SOLVER", "off")
    patch.setenv("REEDBOARD_WEB", "off")  # a daemon a test starts serves no page unless asked
    yield
    patch.undo()


@pytest.fixture(scope="session")
def solitaire_levels() -> dict[int, Any]:
    """The whole winning set for finish 17 (reedboard/engine/solitaire/solver.py), built once a run:
    about 10-20 s and 600 MB at its peak."""
    from reedboard.engine.solitaire.solver import finish_levels

    return finish_levels(17)


@pytest.fixture(scope="session")
def solitaire_cache(
    tmp_path_factory: pytest.TempPathFactory, solitaire_levels: dict[int, Any]
) -> Path:
    """An XDG cache folder holding that set's file, as `reedboard hint` and the daemon read it
    (point ``XDG_CACHE_HOME`` here)."""
    from reedboard.referee.solved import cache_path, write

    root = tmp_path_factory.mktemp("xdg-solitaire")
    write(cache_path(17, root / "reedboard"), 17, solitaire_levels)
    return root
