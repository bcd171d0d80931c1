"""What a board has been asked to show, shared by every driver: the LED frame and the dice.
A driver says how to put them on its LEDs in :meth:`LedState.refresh`."""

from __future__ import annotations

from hardware.board_io import LedFrame, Light
from hardware.dice_pips import pip_lights
from hardware.led_chain import check_frame
from wiring.layout import Layout


class LedState:
    layout: Layout
    frame: dict[str, Light]
    dice: tuple[int, ...] | None

    def _init_leds(self, layout: Layout) -> None:
        self.layout = layout
        self.frame = {}
        self.dice = None

    def show(self, frame: LedFrame) -> None:
        """Show a whole frame (refused, naming the point, if it lights a point not on the
        board)."""
        check_frame(self.layout, frame)
        self.frame = dict(frame)
        self.refresh()

    def show_dice(self, values: tuple[int, ...] | None) -> None:
        """Show the dice as pips; None darkens them (refused if no die shows a value)."""
        pip_lights(values)
        self.dice = None if values is None else tuple(values)
        self.refresh()

    def refresh(self) -> None:
        """Put the frame and the dice on the LEDs (drivers skip what did not change)."""
        raise NotImplementedError
