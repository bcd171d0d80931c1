"""Shared test set-up: the hardware marker, Hypothesis profiles."""

from __future__ import annotations

import os

import pytest
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
