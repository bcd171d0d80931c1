"""Shared test set-up: the hardware marker, Hypothesis profiles, gpiozero's MockFactory, a
cache folder of the tests' own, Peg Solitaire's winning set kept in pytest's cache between runs,
and the deselected tests counted under pytest-xdist (scripts/test.sh runs with ``-n auto``)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
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


# -- pytest-xdist: scripts/test.sh runs the tests on one worker per core -----------------------


def pytest_deselected(items: list[pytest.Item]) -> None:
    """On an xdist worker: the tests it deselected (``-m 'not slow'``), for the controller."""
    output = getattr(items[0].config, "workeroutput", None) if items else None
    if output is not None:
        output.setdefault("deselected", []).extend(item.nodeid for item in items)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On xdist's controller: the deselected tests into the closing line ("…, 2 deselected"),
    as a run without xdist says it. Every worker collects and deselects the same tests: the
    first to finish tells."""
    deselected = getattr(node, "workeroutput", {}).get("deselected")
    reporter = node.config.pluginmanager.get_plugin("terminalreporter")
    if deselected and reporter is not None and not reporter.stats.get("deselected"):
        # what the reporter counts: an object per test (other plugins read their __dict__)
        reporter.stats["deselected"] = [SimpleNamespace(nodeid=n) for n in deselected]


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
    """A test fails on any ERROR log, unless it is marked ``error_logs`` (it expects one); one
    marked ``broker_down`` expects paho-mqtt's own (its ``mqtt`` logger: a socket reset as the
    broker goes), and only those."""
    yield
    if request.node.get_closest_marker("error_logs") is not None:
        return
    paho = request.node.get_closest_marker("broker_down") is not None
    errors = [
        r for r in caplog.get_records("call") if r.levelno >= 40 and not (paho and r.name == "mqtt")
    ]
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


SOLITAIRE_FINISH = 17


def _winning_set_file(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Finish 17's winning-set file, built once and kept between runs in pytest's cache
    (``.pytest_cache/d/solitaire-…``), so a run opens it in milliseconds instead of building it
    (several seconds, 600 MB at the peak). The folder's name is the key: the file format's
    version (reedboard/engine/solitaire/solved.py ``FORMAT_VERSION``), the engine's key format
    and a hash of the solver's source, so a changed solver builds its set anew; folders of
    other keys are removed. The file is checked whole when opened (``solved.load``): a damaged
    or cut-short one is built again, never trusted. xdist's workers share it: the first to
    need it builds it under a file lock, the others wait and open it. Without the cache plugin
    (``-p no:cacheprovider``) it is built once a run, in the run's temporary folder."""
    from reedboard.engine.solitaire import solver
    from reedboard.engine.solitaire.solved import FORMAT_VERSION, WinningTable
    from reedboard.referee import solved

    source = hashlib.sha256(Path(solver.__file__).read_bytes()).hexdigest()[:12]
    key = f"solitaire-{FORMAT_VERSION}.{solver.KEY_FORMAT}-{source}"
    cache: pytest.Cache | None = getattr(config, "cache", None)
    if cache is not None:
        folder = cache.mkdir(key)
        for old in folder.parent.glob("solitaire-*"):
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    else:  # a run's workers share the run's temporary folder, one above their own
        base = tmp_path_factory.getbasetemp()
        folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / key
        folder.mkdir(exist_ok=True)
    table = WinningTable(SOLITAIRE_FINISH)
    path = solved.cache_path(table, folder)
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
        try:
            solved.load(path, table)
        except solved.CacheError:
            solved.build(table, folder)  # written atomically
            solved.load(path, table)  # a set just built must open
    return path


@pytest.fixture(scope="session")
def solitaire_levels(
    pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory
) -> dict[int, Any]:
    """The whole winning set for finish 17 (reedboard/engine/solitaire/solver.py), as the
    cached file holds it (mapped, as the daemon opens it): built at most once a run."""
    from reedboard.engine.solitaire.solved import WinningTable
    from reedboard.referee.solved import load

    path = _winning_set_file(pytestconfig, tmp_path_factory)
    return load(path, WinningTable(SOLITAIRE_FINISH)).levels  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def solitaire_cache(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An XDG cache folder of the session's own holding that set's file, as `reedboard hint`
    and the daemon read it (point ``XDG_CACHE_HOME`` here): a copy, so no test can touch the
    cached one."""
    from reedboard.engine.solitaire.solved import WinningTable
    from reedboard.referee.solved import cache_path

    root = tmp_path_factory.mktemp("xdg-solitaire")
    target = cache_path(WinningTable(SOLITAIRE_FINISH), root / "reedboard")
    target.parent.mkdir(parents=True)
    shutil.copyfile(_winning_set_file(pytestconfig, tmp_path_factory), target)
    return root
