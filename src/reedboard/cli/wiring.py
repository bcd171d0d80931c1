"""`reedboard wiring` (diagram, pin table, parts list, check, templates) and `reedboard
firmware` (a Pico's config, installing it)."""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
from pathlib import Path

from reedboard.errors import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at every start
if TYPE_CHECKING:
    from reedboard.wiring.build import Build

PICO_ANSWER_SECONDS = 3.0
"""How long `wiring check` waits for a Pico's firmware to answer."""


def cmd_wiring_diagram(args: argparse.Namespace) -> int:
    from reedboard.wiring.build import load_build
    from reedboard.wiring.diagram import diagram
    from reedboard.wiring.layout import load_layout

    if args.layout:
        svg = diagram(load_layout(args.target))
    else:
        build = load_build(args.target)
        svg = diagram(build.layout, build)
    if args.output is None or str(args.output) == "-":
        print(svg, end="")
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(svg)
        print(f"wrote {args.output}")
    return 0


def cmd_wiring_check(args: argparse.Namespace) -> int:
    import asyncio
    from dataclasses import replace

    from reedboard.daemon.core import board_for
    from reedboard.wiring.build import load_build
    from reedboard.wiring.check import check_wiring, points_on
    from reedboard.wiring.crosstalk import check_crosstalk

    if args.leds_only and (args.crosstalk or args.rows is not None or args.cols is not None):
        raise CommandError(
            "wiring check: --leds-only tests no switch (no --crosstalk, --rows, --cols)"
        )
    build = load_build(args.target)
    layout = build.layout
    for flag, numbers, count in (
        ("--rows", args.rows, layout.matrix[0]),
        ("--cols", args.cols, layout.matrix[1]),
    ):
        for n in numbers or ():
            if n >= count:
                raise CommandError(
                    f"wiring check: {flag} {n} is outside build {build.name}'s matrix"
                    f" ({flag[2:]} 0-{count - 1})"
                )
    points = None
    if args.rows is not None or args.cols is not None:
        try:
            points = points_on(layout, args.rows, args.cols)
        except ValueError as exc:
            raise CommandError(f"wiring check: {exc}") from None
    if args.port is not None:
        if build.driver != "pico":
            raise CommandError(
                f"wiring check: --port is for a Pico build; build {build.name} uses the Pi's own"
                " GPIO"
            )
        build = replace(build, serial_port=pico_port(args, build))
    board = board_for(build)  # a Pico not on its port, or no GPIO here, is said at once

    async def run() -> int:
        async with board:
            await _answered(board)
            if args.crosstalk:
                found: list[object] = list(
                    await check_crosstalk(board, layout, print, filled=points, timeout=args.timeout)
                )
            else:
                found = list(
                    await check_wiring(
                        board,
                        layout,
                        print,
                        timeout=args.timeout,
                        leds_only=args.leds_only,
                        points=points,
                        pins=(build.matrix.rows, build.matrix.cols),
                    )
                )
        return 1 if found else 0

    return asyncio.run(run())


async def _answered(board: object) -> None:
    ready = getattr(board, "ready", None)
    if ready is not None:  # a Pico: its firmware must answer before any switch is read
        await ready(PICO_ANSWER_SECONDS)


def cmd_wiring_learn(args: argparse.Namespace) -> int:
    import asyncio
    from dataclasses import replace

    from reedboard.daemon.core import board_for
    from reedboard.wiring.build import load_build
    from reedboard.wiring.learn import learn_wiring, probe_layout, write_learned

    build = load_build(args.target)
    out: Path = args.out
    if out.exists() and not args.force:  # said before the builder spends a quarter hour
        raise CommandError(f"wiring learn: {out} exists; give --force to overwrite it")
    if out.is_dir() or not out.parent.is_dir():
        raise CommandError(f"wiring learn: cannot write {out}: no such folder, or a folder")
    board = board_for(replace(build, layout=probe_layout(build.layout)))

    async def run() -> int:
        async with board:
            await _answered(board)
            learned = await learn_wiring(board, build.layout, print, timeout=args.timeout)
        if not learned.complete(build.layout):
            return 1
        write_learned(build.layout, learned, out, force=args.force)
        print(f"wrote {out}: point the build's `layout =` at it")
        return 0

    return asyncio.run(run())


def cmd_wiring_table(args: argparse.Namespace) -> int:
    from reedboard.wiring.build import load_build
    from reedboard.wiring.diagram import pin_table

    print(pin_table(load_build(args.target)), end="")
    return 0


def cmd_wiring_bom(args: argparse.Namespace) -> int:
    from reedboard.wiring.bom import parts, to_csv, to_markdown
    from reedboard.wiring.build import load_build

    build = load_build(args.target)
    rows = parts(build)
    text = to_csv(rows) if args.format == "csv" else to_markdown(rows, f"{build.name}: part")
    if args.out is None or str(args.out) == "-":
        print(text, end="")
    else:
        with open(args.out, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        print(f"wrote {args.out}")
    return 0


def cmd_wiring_template(args: argparse.Namespace) -> int:
    from reedboard.wiring.build import load_build
    from reedboard.wiring.template_files import write_templates

    build = load_build(args.target)
    for path in write_templates(build, args.out, paper=args.paper, reed_offset=args.reed_offset):
        print(f"wrote {path}")
    print("print the PDF at 100 % and measure its 100 mm bar; drill the test strip first")
    return 0


def pico_port(args: argparse.Namespace, build: Build) -> str:
    """A Pico build's serial port: ``--port`` (before the udev rule is installed the Pico is
    /dev/ttyACM0), else the build's."""
    return str(args.port or build.serial_port or "/dev/reedboard-pico")


def cmd_firmware(args: argparse.Namespace) -> int:
    import tempfile

    from reedboard.bridge.deploy import install, install_commands, pico_config
    from reedboard.wiring.build import load_build

    build = load_build(args.target)
    if build.driver != "pico":
        raise CommandError(f"build {build.name} is not a Pico build (driver {build.driver!r})")
    if args.firmware_command == "config":
        print(json.dumps(pico_config(build), indent=1))
        return 0
    port = pico_port(args, build)
    if args.dry_run:  # the commands to run by hand, with a config.json they write first
        print(f"reedboard firmware config {shlex.quote(args.target)} > config.json")
        for command in install_commands(port, Path("config.json")):
            print(shlex.join(command))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            lines = install(build, port, Path(tmp))
        except subprocess.CalledProcessError as exc:  # mpremote said why on stderr
            raise CommandError(
                f"{shlex.join(exc.cmd)} failed (exit {exc.returncode}): is the Pico on {port}?"
            ) from None
    for line in lines:
        print(line)
    return 0
