"""scripts/install-pi.sh, run with ``sh`` into a folder of its own (``--root``): stubs of
useradd, usermod, groupadd, systemctl and udevadm on the PATH log their arguments (useradd and
groupadd also write the root's passwd and group, as the real ones would), and the venv is made by
a stub Python whose venv holds a stub pip and a ``reedboard`` that runs the real command, only
not ``firmware install`` itself. So the script's every step runs, fast and without root, and
nothing outside the test's folder is touched."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"
DEPLOY = ROOT / "deploy"
REAL_REEDBOARD = Path(sys.executable).parent / "reedboard"

LOG = 'printf "%s\\n" "$(basename "$0") $*" >>"$STUB_LOG"\n'
LAST = "for last; do :; done\n"  # the last argument: the user's or group's name
FAIL = '[ "${STUB_FAIL:-}" != "$(basename "$0")" ] || exit 1\n'
STUBS = {
    # the shadow tools get --prefix ROOT first: write the user or group there, as they would
    "useradd": LOG + FAIL + LAST + 'echo "$last:x:999:999::/var/lib/reedboard:/usr/sbin/nologin"'
    ' >>"$2/etc/passwd"\n',
    "groupadd": LOG + FAIL + LAST + 'echo "$last:x:990:" >>"$2/etc/group"\n',
    "usermod": LOG + FAIL,
    "systemctl": LOG + FAIL,
    "udevadm": LOG + FAIL,
    # the Python that makes the venv: a venv of stubs; anything else is the real Python
    "venv-maker": LOG + 'if [ "$1" = -m ] && [ "$2" = venv ]; then\n'
    '  mkdir -p "$3/bin"\n'
    '  cp "$STUB_DIR/venv-python" "$3/bin/python"\n'
    '  cp "$STUB_DIR/venv-reedboard" "$3/bin/reedboard"\n'
    "  exit 0\n"
    "fi\n"
    f'exec "{sys.executable}" "$@"\n',
    "venv-python": LOG + FAIL,
    # the real command, but firmware install only with --dry-run (there is no Pico here)
    "venv-reedboard": LOG + 'case " $* " in\n'
    '  *" firmware install "*" --dry-run "*) ;;\n'
    '  *" firmware install "*) exit 0 ;;\n'
    "esac\n"
    f'exec "{REAL_REEDBOARD}" "$@"\n',
}

BOOT_CONFIG = (
    "# For more options and information see http://rptl.io/configtxt\n"
    "#dtparam=i2c_arm=on\n"
    "#dtparam=i2s=on\n"
    "#dtparam=spi=on\n"
    "dtparam=audio=on\n"
    "\n"
    "[cm4]\n"
    "otg_mode=1\n"
)


@dataclass
class Setup:
    root: Path
    stubs: Path
    log: Path

    def run(self, *args: str, fail: str = "") -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        env["PATH"] = f"{self.stubs}{os.pathsep}{env['PATH']}"
        env["STUB_LOG"] = str(self.log)
        env["STUB_DIR"] = str(self.stubs)
        env["STUB_FAIL"] = fail
        command = ["sh", str(SCRIPT), "--root", str(self.root)]
        command += ["--venv-python", str(self.stubs / "venv-maker"), *args]
        return subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=120, check=False
        )

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def tree(self) -> dict[str, tuple[int, bytes]]:
        """Every file and folder under the root: its mode and contents."""
        out = {}
        for path in sorted(self.root.rglob("*")):
            data = path.read_bytes() if path.is_file() else b""
            out[str(path.relative_to(self.root))] = (path.stat().st_mode, data)
        return out


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[Setup]:
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for name, body in STUBS.items():
        stub = stubs / name
        stub.write_text("#!/bin/sh\n" + body)
        stub.chmod(stub.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:\ngpio:x:997:\n")
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    (root / "dev").mkdir()
    yield Setup(root, stubs, tmp_path / "calls.log")


def ok(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("install-pi: ") for line in lines), done.stdout
    return lines


def test_two_runs_install_everything_once(setup: Setup) -> None:
    (setup.root / "dev" / "ttyACM0").write_text("")  # a Pico, before the udev rule names it
    first = ok(setup.run("--build", "pico-cross33"))
    after_first = setup.tree()
    second = ok(setup.run("--build", "pico-cross33"))
    root, venv = setup.root, setup.root / "opt" / "reedboard" / ".venv"

    boot = (root / "boot" / "firmware" / "config.txt").read_text()
    assert boot.startswith(BOOT_CONFIG)
    assert boot.splitlines().count("dtparam=spi=on") == 1
    assert boot.splitlines()[-2:] == ["[all]", "dtparam=spi=on"]  # not under [cm4]

    for installed, shipped in [
        (root / "etc" / "systemd" / "system" / "reedboard.service", "reedboard.service"),
        (root / "etc" / "udev" / "rules.d" / "99-reedboard-pico.rules", "99-reedboard-pico.rules"),
    ]:
        assert installed.read_bytes() == (DEPLOY / shipped).read_bytes()
        assert stat.S_IMODE(installed.stat().st_mode) == 0o644
    config = (root / "etc" / "reedboard" / "reedboard.toml").read_text()
    shipped = (DEPLOY / "reedboard.toml").read_text()
    assert config == shipped.replace('build = "pi-cross33"', 'build = "pico-cross33"')
    assert config != shipped
    # the venv is where the shipped unit runs reedboard from
    unit = (DEPLOY / "reedboard.service").read_text()
    assert f"ExecStart=/{venv.relative_to(root).as_posix()}/bin/reedboard " in unit
    assert (venv / "bin" / "python").is_file()

    prefix = f"--prefix {root}"
    calls = setup.calls()
    once = [
        f"groupadd {prefix} --system spi",
        f"useradd {prefix} --system --user-group --home-dir /var/lib/reedboard"
        " --no-create-home --shell /usr/sbin/nologin reedboard",
        f"venv-maker -m venv {venv}",
    ]
    twice = [
        f"usermod {prefix} --append --groups gpio,spi,dialout reedboard",
        "udevadm control --reload",
        "udevadm trigger --subsystem-match=tty --action=add",
        "udevadm settle --timeout=10",
        f"systemctl --root={root} enable reedboard.service",
        f"reedboard firmware install pico-cross33 --port {root}/dev/ttyACM0",
    ]
    # pip installs from a copy of the checkout (it builds where it installs from), made afresh
    pips = [c for c in calls if c.startswith("python -m pip install --quiet --upgrade ")]
    assert len(pips) == 2 and all(c.endswith("[pi]") for c in pips), pips
    assert not any(c.endswith(f" {ROOT}[pi]") for c in pips)
    for call in once:
        assert calls.count(call) == 1, (call, calls)
    for call in twice:
        assert calls.count(call) == 2, (call, calls)
    # gpio and dialout were there
    assert not [c for c in calls if c.startswith("groupadd") and c not in once]
    # under --root nothing talks to this machine's systemd
    enable = next(c for c in twice if c.startswith("systemctl"))
    assert [c for c in calls if c.startswith("systemctl")] == [enable] * 2

    assert "install-pi: groups: added spi" in first
    assert "install-pi: groups: gpio spi dialout there" in second
    assert any(line.startswith("install-pi: spi: dtparam=spi=on added") for line in first)
    assert any(line.startswith("install-pi: spi: already on") for line in second)
    assert any(line.startswith("install-pi: config: ") and "kept" in line for line in second)
    assert f"install-pi: pico: firmware for pico-cross33 installed on {root}/dev/ttyACM0" in second
    # the second run changed nothing (the venv's stubs log, nothing else moved)
    assert setup.tree() == after_first


def test_a_dry_run_changes_nothing(setup: Setup) -> None:
    (setup.root / "dev" / "reedboard-pico").write_text("")
    before = setup.tree()
    lines = ok(setup.run("--dry-run", "--build", "pico-brier9"))
    assert setup.tree() == before
    assert probes_only(setup.calls())
    said = "\n".join(lines)
    assert f"would run: useradd --prefix {setup.root} --system" in said
    assert f"would run: groupadd --prefix {setup.root} --system spi" in said
    assert "would run: udevadm control --reload" in said
    assert f"would run: systemctl --root={setup.root} enable reedboard.service" in said
    assert "would add dtparam=spi=on to" in said
    assert "would write " in said and 'build = "pico-brier9"' in said
    assert "firmware install pico-brier9 --port" in said

    ok(setup.run())  # installed; a dry run then still changes nothing, and runs only the probe
    installed = setup.tree()
    setup.log.unlink()
    ok(setup.run("--dry-run"))
    assert setup.tree() == installed
    assert probes_only(setup.calls())


def probes_only(calls: list[str]) -> bool:
    """Only what reads: Python's version, reedboard's own --dry-run."""
    return all(
        c.startswith("venv-maker -c ") or (c.startswith("reedboard ") and c.endswith(" --dry-run"))
        for c in calls
    )


@pytest.mark.parametrize(
    ("where", "text", "added"),
    [
        ("boot/config.txt", BOOT_CONFIG, True),  # an older Raspberry Pi OS
        ("boot/firmware/config.txt", "dtparam=i2c_arm=on,spi=on\n", False),
        ("boot/firmware/config.txt", "dtparam=spi\n", False),
        ("boot/firmware/config.txt", "  dtparam=spi=on  # the LEDs\n", False),
        ("boot/firmware/config.txt", "dtparam=spi=off\n#dtparam=spi=on\n", True),
    ],
)
def test_spi_is_turned_on_only_where_it_is_not(
    setup: Setup, where: str, text: str, added: bool
) -> None:
    (setup.root / "boot" / "firmware" / "config.txt").unlink()
    path = setup.root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    ok(setup.run())
    ok(setup.run())
    now = path.read_text()
    if added:
        assert now.startswith(text)
        assert now.splitlines().count("dtparam=spi=on") == 1
        assert now.endswith("[all]\ndtparam=spi=on\n")
    else:
        assert now == text


def test_a_failing_step_ends_it_with_one_line_naming_the_step(setup: Setup) -> None:
    done = setup.run("--build", "no-such-build")
    assert done.returncode == 1
    said = done.stderr.splitlines()
    assert len(said) == 1, said
    assert said[0].startswith("install-pi: failed at step config: --build no-such-build: ")
    assert not (setup.root / "etc" / "reedboard" / "reedboard.toml").exists()

    done = setup.run(fail="systemctl")
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["install-pi: failed at step systemd (exit 1)"]
    assert "install-pi: udev: " in done.stdout
    assert "install-pi: pico: " not in done.stdout  # nothing after the step that failed

    done = setup.run("--extras", "pi;rm")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "install-pi: failed at step options: --extras pi;rm: extras' names, separated by commas"
    ]


def test_a_pico_is_given_its_firmware_only_for_a_pico_build(setup: Setup) -> None:
    (setup.root / "dev" / "ttyACM0").write_text("")
    lines = ok(setup.run())  # the shipped config's build, pi-cross33
    installs = [c for c in setup.calls() if c.startswith("reedboard firmware install")]
    port = setup.root / "dev" / "ttyACM0"
    assert installs == [f"reedboard firmware install pi-cross33 --port {port} --dry-run"]
    pico = [line for line in lines if line.startswith("install-pi: pico: ")]
    assert len(pico) == 1 and "not a Pico build" in pico[0] and "not installed" in pico[0]

    (setup.root / "dev" / "ttyACM1").write_text("")  # two ports, neither named: which is it?
    setup.log.unlink()
    lines = ok(setup.run())
    assert not [c for c in setup.calls() if c.startswith("reedboard firmware")]
    assert [line for line in lines if "several serial ports" in line]


def test_no_pico_no_firmware(setup: Setup) -> None:
    lines = ok(setup.run("--build", "pico-skip8"))
    assert not [c for c in setup.calls() if c.startswith("reedboard firmware")]
    said = "install-pi: pico: no Pico attached (/dev/reedboard-pico, /dev/ttyACM*): "
    assert said + "firmware not installed" in lines


def test_a_build_given_again_is_set_in_the_kept_config(setup: Setup) -> None:
    config = setup.root / "etc" / "reedboard" / "reedboard.toml"
    shipped = (DEPLOY / "reedboard.toml").read_text()
    ok(setup.run())
    assert config.read_text() == shipped
    config.write_text(config.read_text().replace('game = "fox-and-geese"', 'game = "skip"'))
    edited = config.read_text()
    lines = ok(setup.run("--build", "pico-skip8"))
    assert config.read_text() == edited.replace('build = "pi-cross33"', 'build = "pico-skip8"')
    assert any("its build set to pico-skip8 (it was pi-cross33)" in line for line in lines)
    lines = ok(setup.run("--build", "pico-skip8"))
    assert config.read_text() == edited.replace('build = "pi-cross33"', 'build = "pico-skip8"')
    assert f"install-pi: config: {config} kept" in lines


def test_a_build_whose_board_does_not_play_the_configs_game_gets_one_it_plays(
    setup: Setup,
) -> None:
    # the shipped config plays fox-and-geese; the 81-circle board plays only Fox and Rabbit:
    # a service started so would stop at once, again and again
    config = setup.root / "etc" / "reedboard" / "reedboard.toml"
    lines = ok(setup.run("--build", "pico-brier9"))
    text = config.read_text()
    assert 'game = "fox-and-rabbit"' in text and 'build = "pico-brier9"' in text
    assert 'game = "fox-and-geese"' not in text
    assert any("game set to fox-and-rabbit" in line for line in lines)
    lines = ok(setup.run("--build", "pico-brier9"))
    assert config.read_text() == text
    assert "install-pi: game: fox-and-rabbit plays on pico-brier9" in lines
