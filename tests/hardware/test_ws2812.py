"""The WS2812 SPI driver's bytes, checked against a recording spidev stand-in."""

from __future__ import annotations

import sys
import types

import pytest

from reedboard.hardware.ws2812 import (
    RESET_BYTES,
    SPI_HZ,
    SpiLedChain,
    decode,
    encode,
    limit,
    milliamps,
)
from tests.hardware.fake_spidev import FakeSpiDev


def test_each_bit_is_three_spi_bits_110_for_one_100_for_zero() -> None:
    # green 0x80, red 0x00, blue 0x01 in GRB order
    data = encode([(0x00, 0x80, 0x01)])
    bits = "".join(f"{b:08b}" for b in data)
    assert bits == "110" + "100" * 7 + "100" * 8 + "100" * 7 + "110"
    assert len(data) == 9


def test_encode_then_decode_gives_the_colours_back() -> None:
    colours = [(255, 0, 0), (0, 255, 0), (1, 2, 3), (0, 0, 0)]
    for order in ("GRB", "RGB", "BRG"):
        assert decode(encode(colours, order), order) == colours


def test_a_frame_starts_with_a_reset_of_at_least_280_microseconds() -> None:
    spi = FakeSpiDev()
    chain = SpiLedChain(2, spi=spi, brightness=1.0)
    chain.write([(255, 255, 255), (0, 0, 0)])
    (data,) = spi.writes
    assert data[:RESET_BYTES] == bytes(RESET_BYTES)
    assert RESET_BYTES * 8 / SPI_HZ >= 280e-6
    assert decode(data[RESET_BYTES:]) == [(255, 255, 255), (0, 0, 0)]
    assert spi.max_speed_hz == SPI_HZ and spi.mode == 0


def test_only_changed_frames_are_sent() -> None:
    spi = FakeSpiDev()
    chain = SpiLedChain(3, spi=spi)
    assert chain.write([(10, 0, 0)] * 3) is True
    assert chain.write([(10, 0, 0)] * 3) is False
    assert chain.write([(0, 10, 0)] * 3) is True
    assert len(spi.writes) == 2 == chain.frames_sent


def test_brightness_scales_every_channel() -> None:
    assert limit([(200, 100, 50)], 0.5, 10_000) == [(100, 50, 25)]


def test_the_brightness_cap_keeps_the_chain_within_the_supply_budget() -> None:
    white = [(255, 255, 255)] * 95  # 95 LEDs at 60 mA each would draw 5.7 A
    capped = limit(white, 1.0, 2000)
    assert milliamps(capped) <= 2000
    assert milliamps(capped) > 1900  # dimmed evenly, not blacked out
    assert len({c for c in capped}) == 1


def test_a_frame_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="2 colours for a chain of 3 LEDs"):
        SpiLedChain(3, spi=FakeSpiDev()).write([(0, 0, 0)] * 2)


def test_without_an_spi_object_it_opens_spidev_on_the_bus(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[FakeSpiDev] = []

    def make() -> FakeSpiDev:
        made.append(FakeSpiDev())
        return made[-1]

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=make))
    chain = SpiLedChain(1, bus=0, device=1)
    assert made[0].opened == (0, 1)
    chain.close()
    assert made[0].closed
