"""Shared test set-up: the hardware marker, Hypothesis profiles, gpiozero's MockFactory."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


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
